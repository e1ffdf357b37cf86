/**
 * The package as a user installs it: `npm pack`, installed into a fresh project outside this repository (so no link
 * in our node_modules can hide a missing file) with @pulumi/pulumi from the npm cache, offline. The project
 * typechecks test/package/consumer/index.ts (every resource and function) and runs its life cycle with
 * `pulumi-cloudbees/testing` (consumer/lifecycle.ts) and unit-tests it with `setMocks` (consumer/unit.ts), with the
 * newest @pulumi/pulumi of the peer range; a smaller program in JavaScript (consumer/small) runs with the lowest, in a
 * project that installs nothing but the SDK and the package. Packs dist/ as it is: `npm test` builds it first (run
 * `npm run build` before running this file alone).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { installConsumer, removeInBackground, ROOT, run, startAndStop, type CommandResult } from "./consumer-project";
import { packedPackage } from "./packed-package";

jest.setTimeout(400_000);

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const NEWEST = pkg.devDependencies["@pulumi/pulumi"]!;
const LOWEST = pkg.devDependencies["pulumi-sdk-lowest"]!.replace(/^npm:@pulumi\/pulumi@/, "");
// Build tools of the TypeScript project (the newest), from our own lock.
const TOOLS = { typescript: "node_modules/typescript", "ts-node": "node_modules/ts-node", "@types/node": "node_modules/@types/node" };

let scratch: string;
let newest: Promise<Project>;
let lowest: Promise<Project>;

interface LifecycleReport {
  outputs: Record<string, unknown>;
  names: string[];
  steps: Record<string, string>;
}

interface Project {
  dir: string;
  install: CommandResult;
  copies: string[];
  version: string;
}

/** Installs a project; both install at once (I/O mostly), their life cycles run one after the other. */
async function install(name: string, dependencies: Record<string, string>, tarball: Promise<string>): Promise<Project> {
  const dir = path.join(scratch, name);
  const result: Project = { dir, install: await installConsumer(dir, await tarball, dependencies), copies: [], version: "" };
  if (result.install.code !== 0) return result;
  result.copies = await pulumiCopies(dir);
  result.version = (JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;
  return result;
}

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cloudbees-consumer-"));
  const tarball = packedPackage();
  newest = install("newest", { "@pulumi/pulumi": "node_modules/@pulumi/pulumi", ...TOOLS }, tarball);
  lowest = install("lowest", { "@pulumi/pulumi": "node_modules/pulumi-sdk-lowest" }, tarball);
  // Awaited by the tests; a failure is reported there.
  newest.catch(() => undefined);
  lowest.catch(() => undefined);
});
afterAll(async () => {
  await Promise.allSettled([newest, lowest]);
  removeInBackground(scratch);
});

let matrix: Promise<CommandResult> | undefined;
/** consumer/types-matrix.js: the template project (consumer/template) type-checked under each setting; run once. */
function declarationsMatrix(dir: string): Promise<CommandResult> {
  return (matrix ??= run(process.execPath, ["types-matrix.js"], dir));
}

function succeeded(res: CommandResult | undefined): { code: number | null | undefined; output: string } {
  return { code: res?.code, output: res?.code === 0 ? "" : res?.output ?? "(not run)" };
}

/** Runs lifecycle.ts (or small-lifecycle.js) in the project: a program's life cycle with pulumi-cloudbees/testing. */
async function lifecycle(p: Project, script = "lifecycle.ts"): Promise<LifecycleReport> {
  const args = script.endsWith(".ts") ? ["-r", "ts-node/register/transpile-only", script] : [script];
  const res = await run(process.execPath, args, p.dir, 240_000);
  expect(succeeded(res)).toEqual({ code: 0, output: "" });
  return JSON.parse(res.output.trim().split("\n").at(-1)!) as LifecycleReport;
}

/** The paths of every @pulumi/pulumi installed in the project (what `npm ls --all @pulumi/pulumi` lists, found on disk). */
async function pulumiCopies(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = (modules: string) => {
    if (!fs.existsSync(modules)) return;
    for (const name of fs.readdirSync(modules)) {
      const names = name.startsWith("@") ? fs.readdirSync(path.join(modules, name)).map((n) => path.join(name, n)) : [name];
      for (const pkgName of names) {
        const pkgDir = path.join(modules, pkgName);
        if (pkgName === path.join("@pulumi", "pulumi")) found.push(path.relative(dir, pkgDir));
        visit(path.join(pkgDir, "node_modules"));
      }
    }
  };
  visit(path.join(dir, "node_modules"));
  return found.sort();
}

it("the versions tested are the ends of the peer range", () => {
  const floor = pkg.peerDependencies["@pulumi/pulumi"]!;
  expect(floor).toBe(`^${LOWEST}`);
  expect(NEWEST.split(".")[0]).toBe(LOWEST.split(".")[0]);
});

it(`installs offline next to the newest @pulumi/pulumi (${NEWEST}), typechecks, runs a program's life cycle, starts the emulator`, async () => {
  const p = await newest;
  expect(succeeded(p.install)).toEqual({ code: 0, output: "" });
  // One SDK: the consumer's.
  expect(p.copies).toEqual([path.join("node_modules", "@pulumi", "pulumi")]);
  expect(p.version).toBe(NEWEST);

  // What ships: the license, no source maps, declarations for the testing module, nothing installed below it.
  const shipped = path.join(p.dir, "node_modules", "pulumi-cloudbees");
  expect(fs.readFileSync(path.join(shipped, "LICENSE"), "utf8")).toContain("Apache License");
  const files = fs.readdirSync(shipped, { recursive: true }) as string[];
  expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
  expect(files).toContain(path.join("dist", "testing", "index.d.ts"));
  expect(fs.existsSync(path.join(shipped, "node_modules"))).toBe(false);
  // The declarations import only what a consumer has: Node, the package's dependencies and its peer. (This project's
  // tsc skips .d.ts files, for speed: an import of anything else would silently become `any` there; the template
  // project's check below does not skip them.)
  const manifest = JSON.parse(fs.readFileSync(path.join(shipped, "package.json"), "utf8")) as { dependencies: object; peerDependencies: object };
  const allowed = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
  const imported = files
    .filter((f) => f.endsWith(".d.ts"))
    .flatMap((f) => [...fs.readFileSync(path.join(shipped, f), "utf8").matchAll(/(?:from |import\()"([^".][^"]*)"/g)].map((m) => m[1]!));
  const packageOf = (spec: string) => spec.split("/").slice(0, spec.startsWith("@") ? 2 : 1).join("/");
  expect([...new Set(imported.map(packageOf))].filter((p) => !p.startsWith("node:") && !allowed.has(p))).toEqual([]);
  expect(imported.length).toBeGreaterThan(0);

  void declarationsMatrix(p.dir); // checked by its own test below; started now, to run beside the life cycle
  const tsc = await run(process.execPath, [path.join("node_modules", "typescript", "bin", "tsc"), "-p", "."], p.dir);
  expect(succeeded(tsc)).toEqual({ code: 0, output: "" });

  const r = await lifecycle(p);
  expect(r.names).toEqual(["base", "team-a", "team-b"]);
  expect(r.outputs).toMatchObject({
    application: { name: "consumer-app", listed: true },
    applied: { updateAvailable: false, descriptorHasId: true },
    assigned: "team-b/controller-b <- team-b",
    defaultBundleId: "team-b",
    reloaded: true,
    exportedFolder: true,
    verdictValid: true,
    uploadedValid: true,
    rawLogBundles: ["team-a"],
    updateLogStatus: "ENABLED",
    preValidated: [{ bundle: "main/base", valid: true }, { bundle: "main/team-b", valid: true }],
  });
  // getControllers ran when the program started (the list then), so only its form is certain here.
  expect(Array.isArray(r.outputs.controllerPaths)).toBe(true);
  expect(r.outputs.linkFile).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cjoc\/config-bundle\/team-b\n[0-9a-f]+$/);

  // `npx cloudbees-emulator` starts the emulator from the project's bin.
  const banner = await startAndStop(p.dir, ["--offline", "cloudbees-emulator", "--port", "0"], /curl -u/);
  expect(banner).toMatch(/operations center\s+http:\/\/127\.0\.0\.1:\d+\/cjoc\//);
  // `npx pulumi-cloudbees` runs the commands (dist/cli/main.js) from the project's bin.
  const help = await run("npx", ["--offline", "pulumi-cloudbees", "drift", "--help"], p.dir);
  expect({ code: help.code, usage: help.output.split("\n")[0] }).toEqual({ code: 0, usage: "Usage: pulumi-cloudbees drift [options]" });
});

// Issue 31: with the tsconfig.json of `pulumi new typescript` (no skipLibCheck, no esModuleInterop) zod's
// declarations failed with 63 errors (TS1259), reached from the package's; public types are now zod-free.
it("its declarations compile in a project made by `pulumi new typescript`, and with esModuleInterop, node16 or bundler resolution, never skipping lib checks", async () => {
  const p = await newest;
  expect(succeeded(p.install)).toEqual({ code: 0, output: "" });
  const res = await declarationsMatrix(p.dir);
  expect(res.code).toBe(0);
  expect(JSON.parse(res.output.trim().split("\n").at(-1)!)).toEqual({ template: [], esModuleInterop: [], node16: [], bundler: [] });
});

it("the same program passes a unit test with pulumi.runtime.setMocks: the functions answer from the mocks' call", async () => {
  const p = await newest;
  expect(succeeded(p.install)).toEqual({ code: 0, output: "" });
  // consumer/unit.ts asserts the mocked values (getBundles, getControllers, getUpdateLog, ...) reach the outputs.
  const res = await run(process.execPath, ["-r", "ts-node/register/transpile-only", "unit.ts"], p.dir);
  expect(succeeded(res)).toEqual({ code: 0, output: "" });
  const report = JSON.parse(res.output.trim().split("\n").at(-1)!) as { tokens: string[]; registered: number };
  expect(report.tokens).toEqual(expect.arrayContaining(["cloudbees:index:getBundles", "cloudbees:index:getControllers", "cloudbees:index:getUpdateLog"]));
  expect(report.registered).toBeGreaterThanOrEqual(10);
});

it(`runs a smaller program's life cycle with the lowest @pulumi/pulumi of the range (${LOWEST})`, async () => {
  const p = await lowest;
  expect(succeeded(p.install)).toEqual({ code: 0, output: "" });
  expect(p.copies).toEqual([path.join("node_modules", "@pulumi", "pulumi")]);
  expect(p.version).toBe(LOWEST);
  // The shells and the host of the lowest SDK: a setting resource, a dependent one, an action on a controller, and
  // a function (the program with every resource and function runs with the newest, above).
  // Nothing but the SDK and the package: the program and its life cycle are JavaScript.
  expect(fs.existsSync(path.join(p.dir, "node_modules", "typescript"))).toBe(false);
  const r = await lifecycle(p, "small-lifecycle.js");
  expect(r.outputs).toEqual({ regex: "^(?:team-b/controller-b)$", assigned: "team-b/controller-b <- team-b", reloaded: true, usedBy: ["team-b/controller-b"] });
});
