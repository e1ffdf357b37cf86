import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { assertBuiltPackage, REPO_ROOT } from "../resources/helpers";
import { listReadings } from "../../emulator";
import { expectOneQuotedLine } from "../harness/hostile-text";
import { basic, copyBundles } from "./helpers";

/** The bin `cloudbees-emulator` runs (package.json "bin"), built: `npm test` builds it first. */
const BIN = path.join(REPO_ROOT, (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["cloudbees-emulator"]!);

function runCli(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

let dir: string;
let emulator: ReturnType<typeof runCli>;
const extra: ChildProcess[] = [];

// This file's emulator is the CLI itself, in a child process.
beforeAll(async () => {
  assertBuiltPackage();
  dir = copyBundles();
  fs.renameSync(path.join(dir, "team-b"), path.join(dir, "team-z"));
  emulator = runCli(["--port", "0", "--bundles", dir]);
  await waitFor(() => /curl -u/.test(emulator.output()) || emulator.child.exitCode !== null, 15000);
});
afterAll(() => {
  // A child process would outlive a failing test unless killed here.
  for (const c of [emulator.child, ...extra]) if (c.exitCode === null) c.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("cloudbees-emulator (the built emulator/cli.ts)", () => {
  it("prints URLs and credentials and serves the --bundles folder", async () => {
    const out = emulator.output();
    expect(out).toContain("admin:admin-api-token-7f3c9d");
    expect(out).toContain("developer:developer-api-token-2b8e41");
    expect(out).toContain("fm-token-acme-5d1e0b");
    expect(out).toMatch(/feature-flag service\s+http:\/\/127\.0\.0\.1:\d+\/feature-management\//);
    expect(out).toMatch(/team-a\/controller-a\s+http:\/\/127\.0\.0\.1:\d+\/controllers\/team-a\/controller-a\//);
    const ocUrl = /operations center\s+(http:\/\/127\.0\.0\.1:\d+\/cjoc\/)/.exec(out)![1]!;
    const res = await fetch(`${ocUrl}casc-bundle/list`, {
      headers: { authorization: basic({ username: "admin", apiToken: "admin-api-token-7f3c9d" }) },
    });
    const names = ((await res.json()) as { bundles: { name: string }[] }).bundles.map((b) => b.name);
    expect(names).toEqual(["base", "team-a", "team-z"]);
  });

  it("prints the SDK's roxy URL of each environment as it appears (issue 16), and serves it", async () => {
    expect(emulator.output()).toMatch(/SDK \(roxy mode\)\s+http:\/\/127\.0\.0\.1:\d+\/roxy\/<environment key>\//);
    expect(emulator.output()).toMatch(/SDK \(self-managed\)\s+http:\/\/127\.0\.0\.1:\d+\/self-managed as serverURL and analyticsURL/);
    const fmUrl = /feature-flag service\s+(http:\/\/127\.0\.0\.1:\d+\/feature-management\/)/.exec(emulator.output())![1]!;
    const created = await fetch(`${fmUrl}public-api/applications`, {
      method: "POST",
      headers: { authorization: "Bearer fm-token-acme-5d1e0b", "content-type": "application/json" },
      body: JSON.stringify({ applicationName: "shop" }),
    });
    expect(created.status).toBe(200);
    const line = /roxy: application "shop" \(acme\), environment "Production": (http:\/\/127\.0\.0\.1:\d+\/roxy\/[0-9a-f]{24}\/)\n/;
    await waitFor(() => line.test(emulator.output()), 10000);
    const res = await fetch(line.exec(emulator.output())![1]!);
    expect(res.status).toBe(200);
    expect(JSON.parse(((await res.json()) as { data: string }).data)).toMatchObject({ experiments: [], targetGroups: [] });
  });

  it("quotes a client's names on one line of its console (issue 37)", async () => {
    // What the API still takes in a name (control characters are refused): separators, bidi, quotes, CI commands.
    const name = 'shop "\u2028::error::forged ##vso[task.complete result=Succeeded]\u202e\u2029';
    const fmUrl = /feature-flag service\s+(http:\/\/127\.0\.0\.1:\d+\/feature-management\/)/.exec(emulator.output())![1]!;
    const created = await fetch(`${fmUrl}public-api/applications`, {
      method: "POST",
      headers: { authorization: "Bearer fm-token-acme-5d1e0b", "content-type": "application/json" },
      body: JSON.stringify({ applicationName: name }),
    });
    expect(created.status).toBe(200);
    await waitFor(() => /roxy: application "shop \\"/.test(emulator.output()), 10000);
    const line = emulator.output().split("\n").find((l) => l.startsWith('roxy: application "shop \\"'))!;
    expectOneQuotedLine(line, name);
    expect(emulator.output()).not.toMatch(/^::error::/m);
  });

  it("stops cleanly on SIGINT", async () => {
    emulator.child.kill("SIGINT");
    expect(await emulator.exited).toBe(0);
    expect(emulator.output()).toContain("stopping emulator");
  });

  it("fails with usage on an unknown flag or a bad port, quoting what it was given on one line", async () => {
    const runs = [["--colour\n::error::forged"], ["--port", "http\u001b[2J"]].map((args) => runCli(args));
    extra.push(...runs.map((r) => r.child));
    for (const run of runs) {
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain("usage: cloudbees-emulator");
    }
    expectOneQuotedLine(runs[0]!.output().split("\n")[0]!, "--colour\n::error::forged");
    expectOneQuotedLine(runs[1]!.output().split("\n")[0]!, "http\u001b[2J");
  });

  it("takes readings with --reading (repeatable), prints the ones that differ, lists them all with --list-readings", async () => {
    const listed = runCli(["--list-readings"]);
    expect(await listed.exited).toBe(0);
    for (const r of listReadings()) expect(listed.output()).toContain(`  ${r.name} = ${r.values.join(" | ")}`);

    const refused = runCli(["--port", "0", "--reading", "createStatus=201", "--reading", "deleteStatus=7"]);
    extra.push(refused.child);
    expect(await refused.exited).not.toBe(0);
    expect(refused.output()).toContain('deleteStatus cannot be "7" (one of: 204, 200)');

    const chosen = runCli(["--port", "0", "--bundles", dir, "--reading", "createStatus=201", "--reading", "errorBody=text,nonBasicAuth=refused"]);
    extra.push(chosen.child);
    await waitFor(() => /curl -u/.test(chosen.output()) || chosen.child.exitCode !== null, 15000);
    expect(chosen.output()).toMatch(/readings\s+createStatus=201, errorBody=text, nonBasicAuth=refused \(--list-readings/);
    const fmUrl = /feature-flag service\s+(http:\/\/127\.0\.0\.1:\d+\/feature-management\/)/.exec(chosen.output())![1]!;
    const created = await fetch(`${fmUrl}public-api/applications`, {
      method: "POST",
      headers: { authorization: "Bearer fm-token-acme-5d1e0b", "content-type": "application/json" },
      body: JSON.stringify({ applicationName: "cli" }),
    });
    expect(created.status).toBe(201);
    chosen.child.kill("SIGINT");
    await chosen.exited;
  });

  it("starts a controller with --running-configuration CONTROLLER=FOLDER; a bad folder fails naming the flag", async () => {
    // A real export fetched from a controller (tsmp-falcon-platform/ci-bundle-utils@abb223a,
    // bundleutilspkg/tests/resources/credentials/fetched-bundle/; test/fixtures/real-exports/SOURCE.md).
    const realExport = path.join(REPO_ROOT, "test", "fixtures", "real-exports", "bundleutils", "credentials", "fetched-bundle");
    const bad = runCli(["--port", "0", "--running-configuration", `sandbox=${dir}`]);
    const unknown = runCli(["--port", "0", "--running-configuration", `nowhere=${realExport}`]);
    extra.push(bad.child, unknown.child);
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/^--running-configuration "sandbox=.*": ".*" has no bundle\.yaml/);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toMatch(/^--running-configuration "nowhere=.*": "nowhere" is not a controller/);

    const running = runCli(["--port", "0", "--bundles", dir, "--running-configuration", `sandbox=${realExport}`]);
    extra.push(running.child);
    await waitFor(() => /curl -u/.test(running.output()) || running.child.exitCode !== null, 15000);
    const sandboxUrl = /\n  sandbox\s+(http:\/\/127\.0\.0\.1:\d+\/controllers\/sandbox\/)/.exec(running.output())![1]!;
    const res = await fetch(`${sandboxUrl}core-casc-export/jenkins.yaml`, {
      headers: { authorization: basic({ username: "admin", apiToken: "admin-api-token-7f3c9d" }) },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("id: jenkins-centos7-static-agent");
    running.child.kill("SIGINT");
    await running.exited;
  });
});
