import { spawn } from "node:child_process";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { OperationsCenterClient } from "../../provider";
import { assertBuiltPackage } from "../resources/helpers";
import { adminEnvironment } from "./helpers";

// A script run by node, outside jest and outside any Pulumi program: it reads the environment, prints no token,
// and exits on its own as soon as its work is done. It imports the package by name, as a user's script does: the
// built one (`npm test` builds it).

const CONTROLLER = "team-a/controller-a";
let emu: Emulator;

beforeAll(async () => {
  assertBuiltPackage();
  emu = await startEmulator();
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  await oc.setControllerToBundle("team-a", CONTROLLER);
  await oc.close();
});
afterAll(async () => {
  await emu.close();
});

function runScript(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = path.join(__dirname, "fixtures", "script.ts");
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", script, CONTROLLER], {
    cwd: path.resolve(__dirname, "..", ".."),
    env: { ...process.env, ...env, TS_NODE_PROJECT: path.resolve(__dirname, "..", "..", "tsconfig.json") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the script did not exit within 25 s\n${stdout}\n${stderr}`));
    }, 25_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

it("a script reads CLOUDBEES_* variables, prints no token, and exits without closing its clients", async () => {
  const token = emu.state.controllerToken(CONTROLLER);
  const { code, stdout, stderr } = await runScript(adminEnvironment(emu));
  expect(stderr).toBe("");
  expect(code).toBe(0);
  const [summary] = stdout.split("\n");
  expect(JSON.parse(summary!)).toEqual({ bundles: emu.state.bundles().sort(), tokenLength: token.length });
  expect(stdout).toContain("token read through apply: true");
  expect(stdout).not.toContain(token);
  expect(stdout).not.toContain(emu.credentials.admin.apiToken);
  // Idle keep-alive sockets (undici keeps them 4 s) or timers would hold the process: none may be referenced.
  const alive = JSON.parse(/keeping alive: (.*)/.exec(stdout)![1]!) as string[];
  expect(alive.filter((type) => /TCP|Timeout|Timer|Immediate/.test(type))).toEqual([]);
}, 30_000);
