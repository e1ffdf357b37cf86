import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { lockFiles, throttledOnThisMachine } from "../../provider/http/machine-throttle";
import { assertBuiltPackage, REPO_ROOT } from "../resources/helpers";

const APPS = "/feature-management/public-api/applications";

/** A separate Node process creating `names` with the built client (no retries: a 555 would fail it). */
function createInAnotherProcess(emu: Emulator, names: string[]): Promise<{ code: number | null; output: string }> {
  const script = `
    const { FeatureManagementClient } = require(${JSON.stringify(path.join(REPO_ROOT, "dist", "provider"))});
    const client = new FeatureManagementClient({ baseUrl: process.env.FM_URL, token: process.env.FM_TOKEN, maxRetries: 0 });
    (async () => {
      for (const name of JSON.parse(process.env.NAMES)) await client.createApplication(name);
      await client.close();
    })().catch((e) => { console.error(e.message); process.exit(1); });`;
  const child = spawn(process.execPath, ["-e", script], {
    env: { ...process.env, FM_URL: emu.featureManagementUrl, FM_TOKEN: emu.credentials.featureManagementToken, NAMES: JSON.stringify(names) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, output })));
}

describe("the feature-flag spacing is one per machine", () => {
  let emu: Emulator;
  beforeAll(async () => {
    assertBuiltPackage();
    emu = await startEmulator({ featureManagementRateLimit: true });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it("two processes creating applications at once never get a 555 (the service allows one request per second per IP)", async () => {
    const [a, b] = await Promise.all([createInAnotherProcess(emu, ["a1", "a2"]), createInAnotherProcess(emu, ["b1", "b2"])]);
    expect(a).toEqual({ code: 0, output: "" });
    expect(b).toEqual({ code: 0, output: "" });
    const statuses = emu.journal.entries().filter((e) => e.path === APPS).map((e) => e.status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(emu.state.applications("acme").map((x) => x.name).sort()).toEqual(["a1", "a2", "b1", "b2"]);
  }, 30_000);

  it("names its files by a hash of the base URL only (no URL, no credential), in the OS temp folder", () => {
    const files = lockFiles("https://fm.example.com/api/");
    for (const file of [files.lock, files.last]) {
      expect(path.dirname(file)).toBe(os.tmpdir());
      expect(path.basename(file)).toMatch(/^pulumi-cloudbees-throttle-[0-9a-f]{24}\.(lock|last)$/);
    }
    expect(lockFiles("https://fm.example.com/api/").lock).toBe(files.lock);
    expect(lockFiles("https://other.example.com/").lock).not.toBe(files.lock);
  });

  it("breaks a lock left by a process that died, and releases its own", async () => {
    const baseUrl = `http://127.0.0.1:1/stale-${process.pid}-${Math.random()}/`;
    const files = lockFiles(baseUrl);
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    fs.writeFileSync(files.lock, String(dead));
    try {
      await expect(throttledOnThisMachine(baseUrl, 1, async () => "sent")).resolves.toBe("sent");
      expect(fs.existsSync(files.lock)).toBe(false);
      expect(Number(fs.readFileSync(files.last, "utf8"))).toBeGreaterThan(0);
    } finally {
      fs.rmSync(files.lock, { force: true });
      fs.rmSync(files.last, { force: true });
    }
  });

  it("a failed request still releases the lock", async () => {
    const baseUrl = `http://127.0.0.1:1/failing-${process.pid}-${Math.random()}/`;
    const files = lockFiles(baseUrl);
    try {
      await expect(throttledOnThisMachine(baseUrl, 1, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
      expect(fs.existsSync(files.lock)).toBe(false);
    } finally {
      fs.rmSync(files.last, { force: true });
    }
  });
});
