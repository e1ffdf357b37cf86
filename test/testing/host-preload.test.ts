/**
 * testing/processes/host-preload.ts: the provider hosts this kit starts defer `typescript` and `@npmcli/arborist`, which
 * @pulumi/pulumi loads at start for closure serialization only (runtime/closure/parseFunction.js through
 * typescript-shim.js, and runtime/closure/codePaths.js with normalize-package-data and fdir), the Automation API
 * (index.js), semver (runtime/rpc.js, runtime/closure/rewriteSuper.js) and @opentelemetry/api (runtime/settings.js).
 * The stand-ins must serve the SDK's own uses unchanged.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PROVIDER_KEY, serializeProvider, startProviderHost, type ProviderHost } from "../harness";
import { REPO_ROOT } from "../resources/helpers";

const PRELOAD = path.join(REPO_ROOT, "dist", "testing", "processes", "host-preload.js");

/**
 * In a fresh Node process (with the preload or not): what is loaded at start, and the SDK's serializer and code paths
 * at work. `noTypescript`: as in a JavaScript project, `typescript` cannot be found (the SDK then uses its vendored
 * copy).
 */
function sdkAtWork(preload: boolean, noTypescript = false): Record<string, unknown> {
  const hide = `
    const Module = require("node:module");
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      if (request === "typescript") throw Object.assign(new Error("Cannot find module 'typescript'"), { code: "MODULE_NOT_FOUND" });
      return resolve.call(this, request, ...rest);
    };`;
  const script = `${noTypescript ? hide : ""}
    const path = require("node:path");
    const sdk = require.resolve("@pulumi/pulumi", { paths: [${JSON.stringify(REPO_ROOT)}] });
    const pulumi = require(sdk);
    const loaded = (name) => Object.keys(require.cache).some((k) => k.includes("/node_modules/" + name + "/"));
    const automation = () => Object.keys(require.cache).some((k) => k.endsWith("/@pulumi/pulumi/automation/index.js"));
    const helpers = () => loaded("normalize-package-data") && loaded("fdir");
    const state = () => ({ typescript: loaded("typescript"), arborist: loaded("@npmcli/arborist"), helpers: helpers(), automation: automation(), semver: loaded("semver"), opentelemetry: loaded("@opentelemetry/api") });
    const report = { atStart: state() };
    (async () => {
      report.serialized = (await pulumi.runtime.serializeFunction(() => 6 * 7)).text;
      // rpc.js's semver: the best registration for a version, or the newest for none.
      const registrations = new Map([["k", [{ version: "1.2.3", n: 1 }, { version: "1.10.0", n: 2 }, { version: "1.9.0", n: 3 }]]]);
      report.registrations = [pulumi.runtime.getRegistration(registrations, "k", undefined)?.n, pulumi.runtime.getRegistration(registrations, "k", "1.2.3")?.n];
      // settings.js's trace context: the monitor client's interceptor runs at a call's start (this one is refused: no
      // monitor listens on the discard port).
      const grpc = require(require.resolve("@grpc/grpc-js", { paths: [sdk] }));
      const { ResourceMonitorClient } = require(require.resolve("./proto/resource_grpc_pb", { paths: [path.dirname(sdk)] }));
      const { SupportsFeatureRequest } = require(require.resolve("./proto/resource_pb", { paths: [path.dirname(sdk)] }));
      const monitor = new ResourceMonitorClient("127.0.0.1:9", grpc.credentials.createInsecure(), pulumi.runtime.grpcClientOptions);
      report.monitorCall = await new Promise((resolve) => monitor.supportsFeature(new SupportsFeatureRequest(), { deadline: Date.now() + 5000 }, (err) => resolve(err ? "failed" : "answered")));
      monitor.close();
      report.codePaths = [...(await pulumi.runtime.computeCodePaths())];
      // The Automation API as a program uses it: its exports, and a class that works.
      report.automationApi = Object.keys(pulumi.automation).sort();
      report.stackAlreadyExists = new pulumi.automation.StackAlreadyExistsError({ commandResult: "x", stderr: "", stdout: "", code: 1 }) instanceof Error;
      report.afterUse = state();
      report.vendoredTypescript = Object.keys(require.cache).some((k) => k.includes("/@pulumi/pulumi/vendor/typescript@"));
      console.log(JSON.stringify(report));
    })().catch((e) => console.log(JSON.stringify({ error: e.stack })));`;
  // An empty project in a workspace: computeCodePaths reads its package.json (normalize-package-data), finds the
  // workspace root (fdir) and reads the tree with arborist.
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "host-preload-"));
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "root", private: true, workspaces: ["app"] }));
  fs.mkdirSync(path.join(project, "app"));
  fs.writeFileSync(path.join(project, "app", "package.json"), JSON.stringify({ name: "empty", version: "1.0.0", dependencies: {} }));
  try {
    const res = spawnSync(process.execPath, [...(preload ? ["--require", PRELOAD] : []), "-e", script], { cwd: path.join(project, "app"), encoding: "utf8", timeout: 60_000 });
    return JSON.parse(res.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
}

it("the SDK loads none of them at start; its serializer, code paths, Automation API, registrations and monitor client load them at first use and answer as without the preload", () => {
  expect(fs.existsSync(PRELOAD)).toBe(true);
  const deferred = sdkAtWork(true);
  const plain = sdkAtWork(false);
  const all = (loaded: boolean) => ({ typescript: loaded, arborist: loaded, helpers: loaded, automation: loaded, semver: loaded, opentelemetry: loaded });
  expect(plain.atStart).toEqual(all(true));
  expect(deferred.atStart).toEqual(all(false));
  expect(deferred.afterUse).toEqual(all(true));
  expect(deferred.registrations).toEqual([2, 1]);
  expect(deferred.monitorCall).toBe("failed");
  expect(deferred.serialized).toContain("6 * 7");
  expect(deferred.automationApi).toEqual(expect.arrayContaining(["LocalWorkspace", "Stack", "StackAlreadyExistsError"]));
  expect(deferred.stackAlreadyExists).toBe(true);
  const shared = (r: Record<string, unknown>) => [r.serialized, r.codePaths, r.automationApi, r.stackAlreadyExists, r.registrations, r.monitorCall];
  expect(shared(deferred)).toEqual(shared(plain));
});

it("where typescript is not installed, the SDK's serializer falls back to its vendored copy as without the preload", () => {
  const deferred = sdkAtWork(true, true);
  expect(deferred.error).toBeUndefined();
  expect(deferred.serialized).toContain("6 * 7");
  expect(deferred.vendoredTypescript).toBe(true);
  expect(deferred.serialized).toEqual(sdkAtWork(false, true).serialized);
});

describe("a provider host started by the kit", () => {
  let host: ProviderHost;
  beforeAll(async () => {
    host = await startProviderHost({ cwd: REPO_ROOT });
  });
  afterAll(async () => {
    await host?.close();
  });

  it("has loaded none of them, and a provider that uses typescript gets the real one", async () => {
    // Runs in the host: what its process has loaded, then a use of typescript through the SDK's own shim.
    const provider = {
      async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
        const loaded = (name: string) => Object.keys(require.cache).some((k) => k.includes(`/node_modules/${name}/`));
        const before = { typescript: loaded("typescript"), arborist: loaded("@npmcli/arborist"), semver: loaded("semver"), opentelemetry: loaded("@opentelemetry/api") };
        const ts = require("@pulumi/pulumi/typescript-shim");
        const parsed = ts.isVariableStatement(ts.createSourceFile("x.ts", "let x = 1;", ts.ScriptTarget.Latest).statements[0]);
        return { inputs: { ...news, before, parsed, after: loaded("typescript") } };
      },
    };
    const text = await serializeProvider(provider);
    const res = await host.check("urn:pulumi:stack::project::pulumi-nodejs:dynamic:Resource::probe", {}, { [PROVIDER_KEY]: text });
    expect(res.failures ?? []).toEqual([]);
    expect(res.inputs).toMatchObject({ before: { typescript: false, arborist: false, semver: false, opentelemetry: false }, parsed: true, after: true });
  });
});
