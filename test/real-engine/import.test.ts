/**
 * `pulumi import`, the CLI's own, through the plugin's read by id: for every resource with an id a user can know, the
 * command its page shows (docs/resources, "Import") adopts an object made outside Pulumi, in a YAML project. Nothing is
 * written to the services; the code the CLI generates, put into the program, then previews and refreshes with no change.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { startEmulator, type Emulator } from "../../emulator";
import { FeatureManagementClient, OperationsCenterClient } from "../../provider";
import { IMPORT_IDS } from "../../provider/plugin/import-ids";
import { kinds, typeNameOf } from "../../provider/plugin/tokens";
import { pageOf, sectionOf } from "../../scripts/schema/docs";
import { emulatorConnection } from "../../testing/emulator-config";
import { workspace } from "./tier-cli";
import { CliProject } from "./languages/cli-project";
import { installPlugin } from "./languages/toolchains";

/** The application id the docs' commands show, which the test's application replaces. */
const DOCS_APPLICATION_ID = "6b04319012a9f465249c6dce";

let emu: Emulator;
let cli: CliProject;
let ws: ReturnType<typeof workspace>;
let applicationId: string;
const generated: Record<string, unknown> = {};

/** What the docs' commands name, made outside Pulumi: an application with a flag configured in Production, ... */
async function madeByHand(): Promise<void> {
  const c = emulatorConnection(emu);
  const fm = new FeatureManagementClient({ baseUrl: c.featureManagementUrl, token: c.featureManagementToken, minRequestIntervalMs: 0 });
  applicationId = (await fm.createApplication("checkout-service")).id;
  await fm.createEnvironment(applicationId, { name: "Staging" });
  await fm.createFlag(applicationId, { name: "checkout.newFlow" });
  await fm.setFlagConfiguration(applicationId, "Production", { name: "checkout.newFlow", enabled: true, value: true });
  await fm.putTargetGroup(applicationId, { type: "target-group", name: "beta-users", conditions: [{ property: "betaTester", operator: "is-true" }] });
  await fm.putTeamMember({ email: "dana@example.com", name: "Dana Reyes" });
  await fm.close();
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  await oc.setAvailabilityPattern("team-b", "^(?:team-b/controller-b)$");
  await oc.setControllerToBundle("team-b", "team-b/controller-b");
  await oc.setGlobalAvailabilityPatternBehavior(true);
  await oc.close();
}

beforeAll(async () => {
  emu = await startEmulator();
  await madeByHand();
  ws = workspace("import");
  const dir = path.join(ws.dir, "project");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: adopted\nruntime: yaml\n");
  cli = new CliProject(dir, ws.env);
  await installPlugin(cli);
  await cli.initFor(emu);
  emu.journal.clear();
});
afterAll(async () => {
  await emu?.close();
  ws?.cleanup();
});

describe("each importable resource's page: its pulumi import command adopts the object", () => {
  for (const kind of kinds().filter((k) => IMPORT_IDS[k])) {
    const type = typeNameOf(kind);
    it(type, async () => {
      const [, token, name, docsId] = /^pulumi import (\S+) (\S+) (\S+)$/m.exec(sectionOf(pageOf(type), "Import"))!;
      const id = docsId!.replace(DOCS_APPLICATION_ID, applicationId);
      const out = path.join(ws.dir, `${type}.yaml`);
      await cli.ok("import", token!, name!, id, "--yes", "--protect=false", "--out", out);
      Object.assign(generated, (YAML.parse(fs.readFileSync(out, "utf8")) as { resources: Record<string, unknown> }).resources);
      const state = JSON.parse((await cli.ok("stack", "export")).stdout) as { deployment: { resources: Array<{ type: string; id?: string }> } };
      expect(state.deployment.resources.filter((r) => r.type === token).map((r) => r.id)).toHaveLength(1);
    });
  }
});

it("the imports wrote nothing to either service", () => {
  expect(emu.journal.entries().filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`)).toEqual([]);
});

it("the program with the generated code declares what was adopted: a preview and a refresh find nothing to change", async () => {
  expect(Object.keys(generated)).toHaveLength(Object.keys(IMPORT_IDS).length);
  fs.writeFileSync(path.join(cli.dir, "Pulumi.yaml"), YAML.stringify({ name: "adopted", runtime: "yaml", resources: generated }));
  await cli.ok("preview", "--expect-no-changes");
  await cli.ok("refresh", "--expect-no-changes", "--yes");
  await cli.ok("preview", "--expect-no-changes");
});
