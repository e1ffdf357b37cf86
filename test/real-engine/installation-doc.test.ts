/**
 * docs/installation-configuration.md, "A first stack, in Python", as a user follows it: the page's Pulumi.yaml,
 * requirements.txt and __main__.py written to an empty folder, then its shell block run as written, in bash, with the
 * real CLI on PATH. The test's own parts, as in readme.test.ts: an emulator of the test's (its address replaces
 * 127.0.0.1:8080), `pulumi login --local` logs in to the workspace's file backend, pip installs offline (the wheels of
 * `npm run pulumi-cli` and the SDK's wheel built from generated/sdk/python, as the release builds it), and the plugin
 * comes from its archive (test/real-engine/release-install.test.ts downloads the release's). The program assigns the
 * bundle and creates the flag; the previews find nothing to change; destroy falls back and deletes the flag.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { ROOT } from "../package/consumer-project";
import { run, workspace } from "./tier-cli";
import { CliProject } from "./languages/cli-project";
import { installPlugin, pythonSdkWheel } from "./languages/toolchains";
import { sectionBlocks } from "./doc-sections";



let emu: Emulator;
let ws: ReturnType<typeof workspace>;
let cli: CliProject;

beforeAll(async () => {
  emu = await startEmulator();
  ws = workspace("installation-doc");
  const dir = path.join(ws.dir, "checkout");
  fs.mkdirSync(dir);
  cli = new CliProject(dir, ws.env);
  cli.env.PIP_FIND_LINKS = `${cli.env.PIP_FIND_LINKS} ${await pythonSdkWheel(ws.env)}`;
  await installPlugin(cli);
});
afterAll(async () => {
  await emu?.close();
  ws?.cleanup();
});

it("the Python stack of the page goes up, previews with no change, passes the drift job and is destroyed", async () => {
  const blocks = sectionBlocks("docs/installation-configuration.md", "A first stack, in Python");
  expect(blocks.map((b) => b.lang)).toEqual(["yaml", "text", "python", "sh"]);
  const [project, requirements, program, commands] = blocks as Array<{ lang: string; text: string }>;
  fs.writeFileSync(path.join(cli.dir, "Pulumi.yaml"), project!.text);
  fs.writeFileSync(path.join(cli.dir, "requirements.txt"), requirements!.text);
  fs.writeFileSync(path.join(cli.dir, "__main__.py"), program!.text);

  const address = new URL(emu.operationsCenterUrl).host;
  for (const line of commands!.text.split("\n").filter((l) => l.trim() !== "")) {
    const exported = /^export (\w+)=(\S+)/.exec(line);
    if (exported) {
      cli.env[exported[1]!] = exported[2]!;
      continue;
    }
    const command = line.replaceAll("127.0.0.1:8080", address).replace(/^pulumi login --local\b/, `pulumi login ${cli.env.PULUMI_BACKEND_URL}`);
    const r = await run("bash", ["-euo", "pipefail", "-c", command], cli.dir, cli.env);
    expect({ command, code: r.code, output: r.code === 0 ? "" : `${r.stdout}\n${r.stderr}` }).toEqual({ command, code: 0, output: "" });
    if (command.startsWith("pulumi up")) {
      expect(emu.state.assignments()["team-b/controller-b"]).toBe("team-b");
      const app = emu.state.applications("acme").find((a) => a.name === "checkout-service")!;
      expect(emu.state.flags(app.id).map((f) => f.name)).toEqual(["checkout.newFlow"]);
    }
  }
  expect(emu.state.assignments()["team-b/controller-b"]).toBe("base");
  const app = emu.state.applications("acme").find((a) => a.name === "checkout-service")!;
  expect(emu.state.flags(app.id)).toEqual([]);
  expect(fs.existsSync(path.join(cli.dir, "venv", "bin", "python"))).toBe(true);
});
