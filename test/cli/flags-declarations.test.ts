/**
 * Where each flag is declared, without the real CLI: `pulumi-cloudbees flags --stacks` in this process with the
 * command's state reader given a saved `pulumi stack export` (test/fixtures/flags/stack-export.json, see its .md)
 * against the emulator over real HTTP. Each Flag and FlagConfiguration is named with its stack, type, URN and the
 * program's line; the remove-from-iac plan deletes the configuration before the flag; a stack that cannot be read is
 * named and the others read. The real CLI's `stack export` runs in test/real-engine/flags-command.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { flagsCommand } from "../../cli/flags/command";
import { declarationsOf, type StateReader } from "../../cli/flags/declarations";
import { EXIT, type FlagsReport } from "../../cli/flags/report";
import { startEmulator, type Emulator } from "../../emulator";
import { cliEnvironment } from "./cli-environment";
import { COMMON_ARGS, setUpFlagsEstate, type FlagsEstate } from "./flags-estate";

const EXPORT = fs.readFileSync(path.join(__dirname, "..", "fixtures", "flags", "stack-export.json"), "utf8");
const exportOf = (applicationId: string) => JSON.parse(EXPORT.replace(/APPLICATION_ID/g, applicationId)) as unknown;

let emu: Emulator;
let estate: FlagsEstate;
beforeAll(async () => {
  emu = await startEmulator();
  estate = await setUpFlagsEstate(emu);
});
afterAll(async () => {
  await emu?.close();
  estate?.cleanup();
});

describe("flags --stacks with saved exports", () => {
  let code: number;
  let report: FlagsReport;
  const asked: string[] = [];
  beforeAll(async () => {
    fs.writeFileSync(path.join(estate.dir, "stacks.yaml"), "stacks:\n  - infra/checkout#prod\n  - {folder: infra/checkout, stack: gone}\n");
    const readState: StateReader = async (t) => {
      asked.push(`${t.id} ${path.relative(estate.dir, t.dir)}`);
      if (t.stack === "gone") throw new Error("unknown stack \"gone\" in \"infra/checkout\" (pulumi stack ls there lists them)");
      return exportOf(estate.shop);
    };
    let said = "";
    const err = { isTTY: false, write: (t: string) => ((said += t), true) } as unknown as NodeJS.WriteStream;
    const out = path.join(estate.dir, "declared");
    code = await flagsCommand([...COMMON_ARGS, "--source", path.join(estate.dir, "source"), "--stacks", path.join(estate.dir, "stacks.yaml"), "--out", out], {
      env: cliEnvironment(emu),
      readState,
      err,
    });
    report = JSON.parse(fs.readFileSync(path.join(out, "flags-report.json"), "utf8")) as FlagsReport;
    expect(said).toMatch(/wrote .*flags-report\.json/);
  });
  const flag = (name: string) => report.applications.find((a) => a.name === "shop")!.flags.find((f) => f.name === name)!;

  it("reads each stack of the drift command's stacks file, from its folder", () => {
    expect(asked.sort()).toEqual(["infra/checkout#gone infra/checkout", "infra/checkout#prod infra/checkout"]);
    expect(report.stacks).toEqual([
      { id: "infra/checkout#prod", status: "read", resources: 10, declarations: 6 },
      { id: "infra/checkout#gone", status: "error", resources: 0, declarations: 0, error: 'unknown stack "gone" in "infra/checkout" (pulumi stack ls there lists them)' },
    ]);
    expect(report.errors).toEqual([{ kind: "stack", stack: "infra/checkout#gone", message: 'its state could not be read: unknown stack "gone" in "infra/checkout" (pulumi stack ls there lists them)' }]);
    expect(code).toBe(EXIT.candidates);
  });

  it("names each Flag and FlagConfiguration with its stack, type, URN and the program's line", () => {
    expect(flag("checkout.newFlow").declarations).toEqual([
      {
        stack: "infra/checkout#prod",
        urn: "urn:pulumi:prod::checkout-flags::pulumi-nodejs:dynamic/cloudbees:Flag::newFlow",
        type: "pulumi-nodejs:dynamic/cloudbees:Flag",
        name: "newFlow",
        kind: "Flag",
        sourcePosition: "project:///index.ts#7,17",
      },
      {
        stack: "infra/checkout#prod",
        urn: "urn:pulumi:prod::checkout-flags::pulumi-nodejs:dynamic/cloudbees:FlagConfiguration::newFlow-production",
        type: "pulumi-nodejs:dynamic/cloudbees:FlagConfiguration",
        name: "newFlow-production",
        kind: "FlagConfiguration",
        environment: "Production",
        sourcePosition: "project:///index.ts#8,1",
      },
      expect.objectContaining({ name: "newFlow-staging", environment: "Staging", sourcePosition: "project:///index.ts#9,1" }),
    ]);
    expect(flag("ui.theme").declarations!.map((d) => d.name)).toEqual(["theme"]);
    // Declared nowhere among the stacks read.
    expect(flag("perm.kill").declarations).toEqual([]);
    expect(report.summary.declarations).toBe(6);
  });

  it("remove-from-iac: the resources to delete, the FlagConfiguration before the Flag", () => {
    const banner = flag("old.banner");
    expect(banner.verdict).toBe("remove-from-iac");
    expect(banner.removal!.resources.map((r) => `${r.kind} ${r.name}`)).toEqual(["FlagConfiguration banner-production", "Flag banner"]);
    expect(banner.removal!.steps).toEqual([
      "Delete its resources from their programs in this order, each FlagConfiguration before its Flag: FlagConfiguration banner-production (infra/checkout#prod), Flag banner (infra/checkout#prod).",
    ]);
    const md = fs.readFileSync(path.join(estate.dir, "declared", "flags-report.md"), "utf8");
    expect(md).toContain("1. FlagConfiguration banner-production in infra/checkout\\#prod (project\\:///index.ts\\#12,1): urn:pulumi:prod\\::checkout-flags\\::pulumi-nodejs:dynamic/cloudbees:FlagConfiguration\\::banner-production");
  });

  it("remove-from-code: the value to hard-code first, the resources after", () => {
    const newFlow = flag("checkout.newFlow");
    expect(newFlow).toMatchObject({ verdict: "remove-from-code", value: "true" });
    expect(newFlow.removal!.resources.map((r) => r.name)).toEqual(["newFlow-production", "newFlow-staging", "newFlow"]);
    expect(newFlow.removal!.steps[1]).toMatch(/^Then, once no running code evaluates it .*: FlagConfiguration newFlow-production \(infra\/checkout#prod\), FlagConfiguration newFlow-staging \(infra\/checkout#prod\), Flag newFlow \(infra\/checkout#prod\)\.$/);
  });
});

describe("declarationsOf, on what a state may hold", () => {
  const resource = (over: Record<string, unknown>) => ({
    urn: "urn:pulumi:dev::p::cloudbees:index:Flag::f",
    type: "cloudbees:index:Flag",
    outputs: { applicationId: "app", name: "f.one" },
    ...over,
  });
  const of = (...resources: unknown[]) => declarationsOf("a#dev", { version: 3, deployment: { resources } }).declarations;

  it("the plugin's type tokens as well as the dynamic providers'; inputs when the outputs lack the field", () => {
    expect(of(resource({}), resource({ urn: "urn:x::c", type: "cloudbees:index:FlagConfiguration", outputs: {}, inputs: { applicationId: "app", flag: "f.one", environment: "Prod" } })).map((d) => [d.kind, d.flag, d.environment])).toEqual([
      ["Flag", "f.one", undefined],
      ["FlagConfiguration", "f.one", "Prod"],
    ]);
  });

  it("leaves out what cannot be matched or is going: a secret name, a resource pending deletion, another type", () => {
    const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };
    expect(of(resource({ outputs: { applicationId: "app", name: secret } }), resource({ delete: true }), resource({ type: "cloudbees:index:Application" }))).toEqual([]);
  });

  it("a position inside a package is no program line: the first frame outside one is", () => {
    const [d] = of(resource({ sourcePosition: "project:///node_modules/x/y.js#1,1", stackTrace: [{ sourcePosition: "project:///node_modules/x/y.js#1,1" }, {}, { sourcePosition: "project:///src/flags.ts#3,5" }] }));
    expect(d!.sourcePosition).toBe("project:///src/flags.ts#3,5");
    expect(of(resource({ sourcePosition: "project:///node_modules/x/y.js#1,1" }))[0]!.sourcePosition).toBeUndefined();
  });

  it("an empty stack has no resources; an export of another shape is an error", () => {
    expect(declarationsOf("a#dev", { version: 3, deployment: {} })).toEqual({ resources: 0, declarations: [] });
    expect(() => declarationsOf("a#dev", { deployment: { resources: "x" } })).toThrow(/not a `pulumi stack export` of a known version/);
  });
});
