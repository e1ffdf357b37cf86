// The plugin on the @pulumi/pulumi versions the peer range names, other than the lockfile's (protocol.test.ts): the
// range's floor (3.216.0) and the newest on npm when written (3.276.0), each installed as a user's project holds it
// (sdk-layout.ts); every method of the provider protocol once. And a version outside the range, refused at start.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { cancelStops, configAndInfoMethods, resourceMethods } from "./every-method";
import { PluginProcess } from "./plugin-process";
import { layoutOn, layoutOnAlias, type SdkAlias, type SdkLayout } from "./sdk-layout";

const ROOT = path.join(__dirname, "..", "..");
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; peerDependencies: Record<string, string> };
const schema = fs.readFileSync(path.join(ROOT, "generated", "schema.json"), "utf8");

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  await emu?.close();
});

describe.each<[SdkAlias, string]>([
  ["pulumi-sdk-lowest", "3.216.0"],
  ["pulumi-sdk-newest", "3.276.0"],
])("on %s (@pulumi/pulumi %s)", (alias, expected) => {
  let layout: SdkLayout;
  let plugin: PluginProcess;
  beforeAll(async () => {
    layout = layoutOnAlias(alias);
    // The engine's logging flags come before its address.
    plugin = await PluginProcess.start(layout.env, layout.main, ["--logtostderr", "-v=9", "127.0.0.1:1"]);
  });
  afterAll(async () => {
    await plugin?.close();
    layout?.cleanup();
  });

  it("is the version the alias names", () => {
    expect(layout.version).toBe(expected);
  });

  it("answers the config and info methods, and UNIMPLEMENTED for those it does not serve", async () => {
    await configAndInfoMethods(plugin, emu, manifest.version, schema);
  });

  it("serves each resource method and an invoke", async () => {
    await resourceMethods(plugin);
  });

  it("stops cleanly on Cancel", async () => {
    await cancelStops(plugin);
  });
});

it("refuses at start a @pulumi/pulumi outside its peer range, in one sentence naming the version, the range and the way out", async () => {
  const fake = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-old-pulumi-"));
  fs.writeFileSync(path.join(fake, "package.json"), JSON.stringify({ name: "@pulumi/pulumi", version: "3.100.0" }));
  const layout = layoutOn(fake);
  try {
    const started = await PluginProcess.start(layout.env, layout.main).then(
      () => "started",
      (e: Error) => e.message,
    );
    const range = manifest.peerDependencies["@pulumi/pulumi"]!;
    const line = started.split("\n").filter((l) => l.startsWith("pulumi-resource-cloudbees"));
    expect(line).toHaveLength(1);
    expect(line[0]).toMatch(/^pulumi-resource-cloudbees: @pulumi\/pulumi 3\.100\.0 \(at .*\) is outside the range this plugin supports, /);
    expect(line[0]).toContain(`${range}; install one in the range next to pulumi-cloudbees (npm install @pulumi/pulumi@"${range}")`);
  } finally {
    layout.cleanup();
    fs.rmSync(fake, { recursive: true, force: true });
  }
});
