/**
 * The plugin's settings as the README gives them, besides the default provider's `cloudbees:*` config (which the
 * languages tier uses): an explicit provider (`pulumi:providers:cloudbees`) with the settings as its inputs, a token
 * among them as a secret; and a named connection (`cloudbees:connections.<name>`, set with `--path`, its token
 * `--secret`) that a resource names. In YAML, through the plugin, against an emulator: the application is made with
 * those settings, and the stack's export holds the token encrypted only.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { workspace } from "./tier-cli";
import { CliProject } from "./languages/cli-project";
import { installPlugin } from "./languages/toolchains";

let emu: Emulator;
let ws: ReturnType<typeof workspace>;

beforeAll(async () => {
  emu = await startEmulator();
  ws = workspace("plugin-providers");
  await installPlugin(new CliProject(ws.dir, ws.env));
});
afterAll(async () => {
  await emu?.close();
  ws?.cleanup();
});

function project(name: string, program: string): CliProject {
  const dir = path.join(ws.dir, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program);
  return new CliProject(dir, ws.env);
}

const applicationNames = () => emu.state.applications("acme").map((a) => a.name);

it("an explicit provider takes the settings as inputs, its token a secret", async () => {
  const cli = project(
    "explicit",
    `name: explicit
runtime: yaml
config:
  fmToken:
    type: string
    secret: true
resources:
  acme:
    type: pulumi:providers:cloudbees
    properties:
      featureManagementUrl: ${emu.featureManagementUrl}
      featureManagementToken: \${fmToken}
      featureManagementRequestIntervalMs: 0
  shop:
    type: cloudbees:Application
    properties:
      name: explicit-shop
    options:
      provider: \${acme}
`,
  );
  await cli.ok("stack", "init", "dev");
  await cli.ok("config", "set", "--secret", "fmToken", emu.credentials.featureManagementToken);
  await cli.ok("up", "--yes");
  expect(applicationNames()).toContain("explicit-shop");
  expect((await cli.ok("stack", "export")).stdout).not.toContain(emu.credentials.featureManagementToken);
  await cli.ok("preview", "--expect-no-changes");
  await cli.ok("destroy", "--yes");
});

it("a named connection of the stack config, which a resource names", async () => {
  const cli = project(
    "connection",
    `name: connection
runtime: yaml
resources:
  shop:
    type: cloudbees:Application
    properties:
      name: connection-shop
      connection: acme
`,
  );
  await cli.ok("stack", "init", "dev");
  await cli.ok("config", "set", "--path", "cloudbees:connections.acme.featureManagementUrl", emu.featureManagementUrl);
  await cli.ok("config", "set", "--secret", "--path", "cloudbees:connections.acme.featureManagementToken", emu.credentials.featureManagementToken);
  await cli.ok("config", "set", "--path", "cloudbees:connections.acme.featureManagementRequestIntervalMs", "0");
  await cli.ok("up", "--yes");
  expect(applicationNames()).toContain("connection-shop");
  expect((await cli.ok("stack", "export")).stdout).not.toContain(emu.credentials.featureManagementToken);
  await cli.ok("refresh", "--expect-no-changes", "--yes");
  await cli.ok("destroy", "--yes");
});
