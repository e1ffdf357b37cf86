/**
 * docs/importing.md, "An application, step by step, in YAML", as a user follows it: an application made outside
 * Pulumi (environments, flags, a configured flag), then the page's blocks in order, as written: each Pulumi.yaml
 * block written to the project, each shell block run whole in bash (with the real CLI on PATH and jq). The test's own
 * parts, as in readme.test.ts: an emulator of the test's (its address replaces 127.0.0.1:8080), `pulumi login --local`
 * logs in to the workspace's file backend, and the plugin comes from its archive (no network). The import file the
 * page's jq writes is the page's JSON example (with the real id); `pulumi import --file` writes nothing to the service
 * and marks every resource protected; the program with the generated code previews and refreshes with no change; the
 * protection holds until `pulumi state unprotect`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { startEmulator, type Emulator } from "../../emulator";
import { FeatureManagementClient } from "../../provider";
import { emulatorConnection } from "../../testing/emulator-config";
import { ROOT } from "../package/consumer-project";
import { run, workspace } from "./tier-cli";
import { CliProject } from "./languages/cli-project";
import { installPlugin } from "./languages/toolchains";
import { sectionBlocks } from "./doc-sections";

/** The id the page's examples show, which the test's application replaces. */
const DOCS_APPLICATION_ID = "6b04319012a9f465249c6dce";


let emu: Emulator;
let ws: ReturnType<typeof workspace>;
let cli: CliProject;
let applicationId: string;

beforeAll(async () => {
  emu = await startEmulator();
  const c = emulatorConnection(emu);
  const fm = new FeatureManagementClient({ baseUrl: c.featureManagementUrl, token: c.featureManagementToken, minRequestIntervalMs: 0 });
  applicationId = (await fm.createApplication("checkout-service")).id;
  await fm.createEnvironment(applicationId, { name: "Staging" });
  await fm.createFlag(applicationId, { name: "checkout.newFlow" });
  await fm.createFlag(applicationId, { name: "checkout.banner" });
  await fm.setFlagConfiguration(applicationId, "Production", { name: "checkout.newFlow", enabled: true, value: true });
  await fm.close();
  ws = workspace("importing-doc");
  const dir = path.join(ws.dir, "project");
  fs.mkdirSync(dir);
  cli = new CliProject(dir, ws.env);
  await installPlugin(cli);
  emu.journal.clear();
});
afterAll(async () => {
  await emu?.close();
  ws?.cleanup();
});

/** A shell block as written, but for the test's own parts; its `export`s stay for the blocks after it. */
async function shell(text: string): Promise<string> {
  const address = new URL(emu.operationsCenterUrl).host;
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    const exported = /^export (\w+)=(\S+)/.exec(line);
    if (exported) cli.env[exported[1]!] = exported[2]!;
    else lines.push(line.replaceAll("127.0.0.1:8080", address).replace(/^pulumi login --local\b/, `pulumi login ${cli.env.PULUMI_BACKEND_URL}`));
  }
  const r = await run("bash", ["-euo", "pipefail", "-c", lines.join("\n")], cli.dir, cli.env);
  expect({ block: text, code: r.code, stderr: r.code === 0 ? "" : `${r.stdout}\n${r.stderr}` }).toEqual({ block: text, code: 0, stderr: "" });
  return r.stdout;
}

it("the page's steps adopt the application, its environments, flags and configured flag, writing nothing", async () => {
  const blocks = sectionBlocks("docs/importing.md", "An application, step by step, in YAML");
  expect(blocks.map((b) => b.lang)).toEqual(["yaml", "sh", "yaml", "sh", "sh", "json", "sh"]);
  const [listApps, first, listAll, setId, writeFile, example, importIt] = blocks as Array<{ lang: string; text: string }>;
  const program = path.join(cli.dir, "Pulumi.yaml");

  fs.writeFileSync(program, listApps!.text);
  expect(await shell(first!.text)).toContain(applicationId);
  fs.writeFileSync(program, listAll!.text);
  await shell(setId!.text);
  await shell(writeFile!.text);
  const written = JSON.parse(fs.readFileSync(path.join(cli.dir, "import.json"), "utf8")) as unknown;
  expect(written).toEqual(JSON.parse(example!.text.replaceAll(DOCS_APPLICATION_ID, applicationId)));

  const imported = await shell(importIt!.text);
  expect(imported).toMatch(/= 6 imported/);
  expect(emu.journal.entries().filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`)).toEqual([]);
  const resources = (YAML.parse(fs.readFileSync(program, "utf8")) as { resources: Record<string, { options?: { protect?: boolean } }> }).resources;
  expect(Object.keys(resources).sort()).toEqual(["checkout", "checkout-banner", "checkout-newFlow", "env-Production", "env-Staging", "production-checkout-newFlow"]);
  for (const r of Object.values(resources)) expect(r.options?.protect).toBe(true);
  await cli.ok("refresh", "--yes");
  await cli.ok("preview", "--refresh", "--expect-no-changes");
});

it("imported resources are protected: destroy fails until pulumi state unprotect --all", async () => {
  const state = JSON.parse((await cli.ok("stack", "export")).stdout) as { deployment: { resources: Array<{ type: string; protect?: boolean }> } };
  expect(state.deployment.resources.filter((r) => r.type.startsWith("cloudbees:index:")).map((r) => r.protect)).toEqual(Array(6).fill(true));
  const refused = await cli.run("destroy", "--yes");
  expect(refused.code).not.toBe(0);
  expect(`${refused.stdout}${refused.stderr}`).toContain("because it is protected");
  expect(emu.state.flags(applicationId).map((f) => f.name).sort()).toEqual(["checkout.banner", "checkout.newFlow"]);
  await cli.ok("state", "unprotect", "--all", "--yes");
  await cli.ok("destroy", "--yes");
  // The flags are deleted (the application and environments stay: the API cannot delete them, their pages say).
  expect(emu.state.flags(applicationId)).toEqual([]);
});
