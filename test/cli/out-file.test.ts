/* istanbul ignore file */
/**
 * Issue 37: `pulumi-cloudbees import --out` in a folder others may write (a shared temp folder, a CI workspace). A
 * link planted at the path, dangling or to a file of the user's (`authorized_keys`), is never followed: without
 * --force the write fails as for any existing file; with --force the link itself is replaced by the program. And the
 * CLI's messages quote what they echo (the server's bundle ids, the user's arguments) on one line.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startEmulator, type Emulator } from "../../emulator";
import { expectOneQuotedLine, HOSTILE_VALUES } from "../harness/hostile-text";
import { assertBuiltPackage, REPO_ROOT } from "../resources/helpers";
import { cliEnvironment } from "./cli-environment";

const BIN = path.join(REPO_ROOT, "dist", "cli", "main.js");
/** A bundle id a server may hold: a folder name may carry any character but "/" and NUL. */
const HOSTILE_BUNDLE = "evil\n::error::forged\u001b[2J\u2028##vso[task.complete result=Succeeded]\u202e";

let emu: Emulator;
let dir: string;

beforeAll(async () => {
  assertBuiltPackage();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-out-file-"));
  for (const id of ["base", HOSTILE_BUNDLE]) {
    fs.mkdirSync(path.join(dir, "bundles", id), { recursive: true });
    fs.writeFileSync(path.join(dir, "bundles", id, "bundle.yaml"), `apiVersion: "1"\nid: "b"\nversion: "1"\n`);
  }
  emu = await startEmulator({ bundlesDir: path.join(dir, "bundles") });
});
afterAll(async () => {
  await emu?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The CLI's exit code and standard error. */
async function importCli(args: string[]): Promise<{ code: number; stderr: string }> {
  const run = promisify(execFile)(process.execPath, [BIN, "import", ...args], { cwd: dir, env: cliEnvironment(emu) });
  return run.then(
    ({ stderr }) => ({ code: 0, stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

/** A fresh folder with a link at `index.ts` to `target` (which exists only if `content` is given). */
function planted(name: string, content?: string): { out: string; target: string } {
  const folder = fs.mkdtempSync(path.join(dir, `${name}-`));
  const target = path.join(folder, "authorized_keys");
  if (content !== undefined) fs.writeFileSync(target, content);
  const out = path.join(folder, "index.ts");
  fs.symlinkSync(target, out);
  return { out, target };
}

describe("--out never writes through a planted link", () => {
  it("a dangling link, without --force: refused as an existing file; the link's target is not created", async () => {
    const { out, target } = planted("dangling");
    const run = await importCli(["--out", out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`"${out}" exists: give --force to replace it, or another --out`);
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readlinkSync(out)).toBe(target);
  });

  it("a dangling link, with --force: the link is replaced by the program; its target is not created", async () => {
    const { out, target } = planted("dangling-force");
    const run = await importCli(["--out", out, "--force"]);
    expect(run.code).toBe(0);
    expect(fs.lstatSync(out).isFile()).toBe(true);
    expect(fs.readFileSync(out, "utf8")).toContain('// Bundle "base": no availability pattern; no assignment.');
    expect(fs.existsSync(target)).toBe(false);
  });

  it("a link to an existing file, without --force: refused; the file is untouched", async () => {
    const { out, target } = planted("existing", "ssh-ed25519 AAAA... user@host\n");
    const run = await importCli(["--out", out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("exists: give --force");
    expect(fs.readFileSync(target, "utf8")).toBe("ssh-ed25519 AAAA... user@host\n");
  });

  it("a link to an existing file, with --force: the link is replaced; the file is untouched, and no temp file is left", async () => {
    const { out, target } = planted("existing-force", "ssh-ed25519 AAAA... user@host\n");
    fs.chmodSync(target, 0o600);
    const run = await importCli(["--out", out, "--force"]);
    expect(run.code).toBe(0);
    expect(fs.lstatSync(out).isFile()).toBe(true);
    expect(fs.readFileSync(target, "utf8")).toBe("ssh-ed25519 AAAA... user@host\n");
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(out)).sort()).toEqual(["authorized_keys", "index.ts"]);
  });
});

describe("the CLI's messages: what they echo is quoted, on one line", () => {
  it("an unknown --default-bundle holding every hostile value, and the server's bundle ids", async () => {
    // argv cannot carry NUL; every other hostile value goes in one argument.
    const value = HOSTILE_VALUES.map(([, v]) => v.replace(/\u0000/g, "")).join("|");
    const run = await importCli(["--default-bundle", value]);
    expect(run.code).toBe(1);
    const message = run.stderr.replace(/\n$/, "");
    expect(message).toMatch(/^pulumi-cloudbees: --default-bundle "/);
    expectOneQuotedLine(message, value);
    expectOneQuotedLine(message, HOSTILE_BUNDLE);
  });

  it("the path it wrote, holding a line feed and a CI command", async () => {
    const out = path.join(dir, "out\n::error::forged.ts");
    const run = await importCli(["--out", out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^pulumi-cloudbees: wrote "/);
    expectOneQuotedLine(run.stderr, out);
  });

  it("an invalid --controllers regex: the pattern and the parser's message on one line", async () => {
    const run = await importCli(["--controllers", "team-(\n::error::forged"]);
    expect(run.code).toBe(1);
    expectOneQuotedLine(run.stderr, "team-(\n::error::forged");
    expect(run.stderr).toMatch(/is not a valid regular expression: Invalid regular expression/);
  });
});
