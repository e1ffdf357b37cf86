import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../../emulator";
import { emulatorConnection } from "../../../testing/emulator-config";
const exec = promisify(execFile);
(async () => {
  const R = path.join(__dirname, "..", "..", "..", "dist", "release");
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const f = path.join(R, decodeURIComponent((req.url ?? "/").split("?")[0]!));
    if (!f.startsWith(R) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) { res.statusCode = 404; res.end(); return; }
    res.setHeader("content-length", fs.statSync(f).size);
    fs.createReadStream(f).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const emu = await startEmulator();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "offline-"));
  const dir = path.join(home, "proj");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), [
    "name: offline", "runtime: yaml",
    "resources:", "  pattern:", "    type: cloudbees:BundleAvailability", "    properties:", "      bundleId: base", "      controllers: [sandbox]",
    "    options:", "      version: 0.1.0", "      pluginDownloadURL: github://api.github.com/pulumi-cloudbees/pulumi-cloudbees", ""].join("\n"));
  const cli = path.join(os.homedir(), ".cache/pulumi-cloudbees/pulumi-cli/v3.248.0/bin");
  const env = { PATH: cli, HOME: home, PULUMI_HOME: path.join(home, ".pulumi"), PULUMI_BACKEND_URL: `file://${home}`, PULUMI_CONFIG_PASSPHRASE: "x", PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^github://api.github.com/pulumi-cloudbees/pulumi-cloudbees=http://127.0.0.1:${port}/` };
  const run = async (...a: string[]) => (await exec(path.join(cli, "pulumi"), [...a, "--non-interactive", "--color", "never"], { cwd: dir, env, encoding: "utf8" })).stdout;
  try {
    await run("stack", "init", "dev");
    const c = emulatorConnection(emu);
    await run("config", "set", "cloudbees:operationsCenterUrl", c.operationsCenterUrl);
    await run("config", "set", "cloudbees:username", c.username);
    await run("config", "set", "--secret", "cloudbees:apiToken", c.apiToken);
    console.log((await run("up", "--yes", "--skip-preview")).split("\n").slice(-6).join("\n"));
    console.log("requests after up:", requests);
    await run("up", "--yes", "--skip-preview");
    console.log("requests after second up:", requests.length);
    console.log(fs.readdirSync(path.join(home, ".pulumi", "plugins")));
    await run("destroy", "--yes", "--skip-preview");
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    console.log("FAILED", err.message.slice(0, 500), (err.stdout ?? "").slice(-1500), err.stderr);
  } finally {
    await emu.close();
    server.close();
  }
})();
