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

  it("names its files by a hash of the base URL only (no URL, no credential), in the user's own folder of the OS temp folder", () => {
    const files = lockFiles("https://fm.example.com/api/");
    for (const file of [files.lock, files.last]) {
      expect(path.dirname(file)).toBe(path.join(os.tmpdir(), `pulumi-cloudbees-${process.getuid!()}`));
      expect(path.basename(file)).toMatch(/^throttle-[0-9a-f]{24}\.(lock|last)$/);
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

/**
 * Issue 19, finding 3: the shared temp folder is hostile ground. Each test has a temp folder of its own (os.tmpdir
 * is stubbed: jest gives test files their own process.env, which node:os does not read).
 */
describe("the throttle's files in a shared temp folder", () => {
  const realTmp = os.tmpdir();
  let tmp: string;
  let n = 0;
  const url = () => `http://127.0.0.1:1/hostile-${process.pid}-${++n}/`;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(realTmp, "throttle-"));
    jest.spyOn(require("node:os") as typeof os, "tmpdir").mockReturnValue(tmp);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("live in a folder only the current user can write, created 0700", async () => {
    const u = url();
    const files = lockFiles(u);
    await throttledOnThisMachine(u, 1, async () => "sent");
    const dir = fs.lstatSync(path.dirname(files.last));
    expect(dir.isDirectory()).toBe(true);
    expect(dir.mode & 0o777).toBe(0o700);
    expect(path.dirname(path.dirname(files.last))).toBe(tmp);
  });

  it("refuse a folder that others can write, naming it and what to do", async () => {
    const folder = path.join(tmp, `pulumi-cloudbees-${process.getuid!()}`);
    fs.mkdirSync(folder, { mode: 0o777 });
    fs.chmodSync(folder, 0o777);
    const error = await throttledOnThisMachine(url(), 1, async () => "sent").catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(folder);
    expect((error as Error).message).toMatch(/others can write to it\. Remove it/);
  });

  it("refuse a folder that is a link planted by someone else", async () => {
    const elsewhere = fs.mkdtempSync(path.join(tmp, "elsewhere-"));
    fs.symlinkSync(elsewhere, path.join(tmp, `pulumi-cloudbees-${process.getuid!()}`));
    await expect(throttledOnThisMachine(url(), 1, async () => "sent")).rejects.toThrow(/is not a folder of its own/);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it("write the last-request file without following a link planted there", async () => {
    const u = url();
    const files = lockFiles(u);
    await throttledOnThisMachine(u, 1, async () => "first");
    const victim = path.join(tmp, "victim.txt");
    fs.writeFileSync(victim, "precious");
    fs.rmSync(files.last);
    fs.symlinkSync(victim, files.last);
    await expect(throttledOnThisMachine(u, 1, async () => "sent")).resolves.toBe("sent");
    expect(fs.readFileSync(victim, "utf8")).toBe("precious");
    expect(fs.lstatSync(files.last).isFile()).toBe(true);
  });

  it("wait no longer than the spacing when the last-request file is dated in the future", async () => {
    // Before: a .last an hour ahead (a clock stepped back, or a planted file) stalled every request for an hour.
    const u = url();
    const files = lockFiles(u);
    await throttledOnThisMachine(u, 1, async () => "first");
    fs.writeFileSync(files.last, String(Date.now() + 3_600_000));
    await expect(throttledOnThisMachine(u, 50, async () => "sent")).resolves.toBe("sent");
  }, 5_000);

  it("report a lock a live process holds past any request's time, with its path and what to do", async () => {
    // Before: a .lock naming a live process stalled every request for 10 minutes (for ever, if touched).
    const u = url();
    const files = lockFiles(u);
    await throttledOnThisMachine(u, 1, async () => "first");
    fs.writeFileSync(files.lock, "1"); // pid 1 is always alive
    const error = await throttledOnThisMachine(u, 1, async () => "sent", { holdMs: 200 }).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(files.lock);
    expect((error as Error).message).toMatch(/held by process 1 .*delete/);
  }, 5_000);

  it("wait for a live holder as long as it declared (a longer deadline), and report a forged far-future one at 4 holds", async () => {
    const u = url();
    const files = lockFiles(u);
    await throttledOnThisMachine(u, 1, async () => "first");
    fs.writeFileSync(files.lock, `1 ${Date.now() + 60_000}`);
    const released = new Promise<void>((resolve) => setTimeout(() => resolve(fs.rmSync(files.lock)), 150));
    await expect(throttledOnThisMachine(u, 1, async () => "sent", { holdMs: 100 })).resolves.toBe("sent");
    await released;
    fs.writeFileSync(files.lock, `1 ${Date.now() + 3_600_000}`);
    await expect(throttledOnThisMachine(u, 1, async () => "sent", { holdMs: 50 })).rejects.toThrow(/held by process 1 for longer than it declared/);
    fs.rmSync(files.lock);
  }, 5_000);
});
