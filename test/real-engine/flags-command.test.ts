/**
 * `pulumi-cloudbees flags --stacks stacks.yaml` as a user runs it (`node dist/cli/main.js flags ...`), with the real
 * CLI's `pulumi stack export` per stack: two stacks after `pulumi up` against the emulator, the YAML program of
 * examples/plugin/yaml (the plugin's types, on checkout-service) and the dynamic providers' program of
 * examples/plugin/dynamic (on payments-service, its flag renamed payments.fastPay), both without their bundle
 * resources, and a stack whose folder does not exist. Impressions recorded as of a time 60 days on (the emulator's
 * clock and --as-of) make checkout.newFlow inactive everywhere without a reference (remove-from-iac) and
 * payments.fastPay stale with one (remove-from-code): each plan names the stack's resources, the FlagConfiguration
 * before the Flag, with their types and URNs; the missing stack is named and the rest written.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import type { FlagReport, FlagsReport } from "../../cli/flags/report";
import { ROOT } from "../package/consumer-project";
import { placeProgram, startDriftEstate, writeStacksFile, type DriftEstate } from "./drift-estate";
import { run } from "./tier-cli";

const MAIN = path.join(ROOT, "dist", "cli", "main.js");
const AS_OF = new Date(Date.now() + 60 * 86_400_000).toISOString();

let emu: Emulator;
let estate: DriftEstate;

/** The program without its bundle resources (and the outputs that name them). */
const withoutBundles = (yaml: boolean) => (t: string) =>
  yaml
    ? t.replace(/\n {2}teamB:[\s\S]*?\noutputs:/, "\noutputs:").replace(/\n {2}linkFile:.*/, "")
    : t
        .replace("checkout-service", "payments-service")
        .replaceAll("checkout.newFlow", "payments.fastPay")
        .replace(/\nconst teamB = [\s\S]*?\nconst bundleToken = .*\n/, "\n")
        .replace(/\nexport const linkFile = .*/, "");

beforeAll(async () => {
  emu = await startEmulator();
  estate = await startDriftEstate("flags-command");
  placeProgram(estate, "yaml", "plugin/yaml", "Pulumi.yaml", withoutBundles(true));
  placeProgram(estate, "dynamic", "plugin/dynamic", "index.ts", withoutBundles(false));
  writeStacksFile(estate, ["yaml#dev", "dynamic#dev", "gone#dev"]);
  for (const name of ["yaml", "dynamic"]) {
    await estate.projects[name]!.initFor(emu);
    await estate.projects[name]!.ok("up", "--yes", "--skip-preview", "--stack", "dev");
  }
  const id = (name: string) => emu.state.applications("acme").find((a) => a.name === name)!.id;
  emu.impressions.setClock(AS_OF);
  for (const environment of ["Production", "Staging"]) {
    emu.impressions.record({ applicationId: id("checkout-service"), environment, flag: "checkout.newFlow", value: true, daysAgo: 40 });
    for (const daysAgo of [0, 10, 20, 29]) emu.impressions.record({ applicationId: id("payments-service"), environment, flag: "payments.fastPay", value: true, daysAgo });
  }
  fs.mkdirSync(path.join(estate.root, "src"));
  fs.writeFileSync(path.join(estate.root, "src", "pay.ts"), 'export const fast = rox.isEnabled("payments.fastPay");\n');
});

afterAll(async () => {
  await emu?.close();
  estate?.cleanup();
});

it("names the resources each stack declares per flag, read with pulumi stack export, in the order a removal needs", async () => {
  const env = {
    ...estate.env,
    CLOUDBEES_FEATURE_MANAGEMENT_URL: emu.featureManagementUrl,
    CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: emu.credentials.featureManagementToken,
    CLOUDBEES_FEATURE_MANAGEMENT_REQUEST_INTERVAL_MS: "0",
  };
  const r = await run(process.execPath, [MAIN, "flags", "--stacks", "stacks.yaml", "--source", "src", "--as-of", AS_OF, "--out", "out"], estate.root, env);
  const file = path.join(estate.root, "out", "flags-report.json");
  if (!fs.existsSync(file)) throw new Error(`no report (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  const report = JSON.parse(fs.readFileSync(file, "utf8")) as FlagsReport;
  const flag = (app: string, name: string): FlagReport => report.applications.find((a) => a.name === app)!.flags.find((f) => f.name === name)!;

  expect(report.stacks).toEqual([
    { id: "yaml#dev", status: "read", resources: expect.any(Number), declarations: 2 },
    { id: "dynamic#dev", status: "read", resources: expect.any(Number), declarations: 2 },
    { id: "gone#dev", status: "error", resources: 0, declarations: 0, error: 'the folder "gone" does not exist' },
  ]);
  expect(report.errors).toEqual([{ kind: "stack", stack: "gone#dev", message: 'its state could not be read: the folder "gone" does not exist' }]);

  const checkout = flag("checkout-service", "checkout.newFlow");
  expect(checkout.verdict).toBe("remove-from-iac");
  expect(checkout.removal!.resources.map((d) => [d.stack, d.kind, d.name, d.type, d.urn])).toEqual([
    ["yaml#dev", "FlagConfiguration", "newFlowStaging", "cloudbees:index:FlagConfiguration", "urn:pulumi:dev::cloudbees-yaml::cloudbees:index:FlagConfiguration::newFlowStaging"],
    ["yaml#dev", "Flag", "newFlow", "cloudbees:index:Flag", "urn:pulumi:dev::cloudbees-yaml::cloudbees:index:Flag::newFlow"],
  ]);
  expect(checkout.declarations!.find((d) => d.kind === "FlagConfiguration")!.environment).toBe("Staging");

  const fastPay = flag("payments-service", "payments.fastPay");
  expect(fastPay).toMatchObject({ verdict: "remove-from-code", value: "true" });
  expect(fastPay.removal!.resources.map((d) => [d.stack, d.kind, d.name, d.type])).toEqual([
    ["dynamic#dev", "FlagConfiguration", "newFlowStaging", "pulumi-nodejs:dynamic/cloudbees:FlagConfiguration"],
    ["dynamic#dev", "Flag", "newFlow", "pulumi-nodejs:dynamic/cloudbees:Flag"],
  ]);
  // The program's own line from the state's stack trace, not the package's class.
  expect(fastPay.declarations!.map((d) => d.sourcePosition)).toEqual([expect.stringMatching(/^project:\/\/\/index\.ts#\d+,\d+$/), expect.stringMatching(/^project:\/\/\/index\.ts#\d+,\d+$/)]);
  expect(r.code).toBe(1);
  // No token of the emulator reaches the report or the output.
  const texts = [fs.readFileSync(file, "utf8"), fs.readFileSync(path.join(estate.root, "out", "flags-report.md"), "utf8"), r.stdout, r.stderr];
  for (const t of texts) expect(t).not.toContain(emu.credentials.featureManagementToken);
});
