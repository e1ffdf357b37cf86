/**
 * Issue 37: files written never through a link (provider/files/safe-write.ts). The testing kit's state file
 * (testing/engine/state.ts saveState) holds every secret of the stack in clear. It
 * used to remove `<state>.<pid>.tmp` and write it again without an exclusive create: a process racing it (or a link
 * planted there) received the whole state in a file of its own. Now a new file of a random name beside the state,
 * created exclusively and 0600 on its descriptor, is renamed over it (provider/files/safe-write.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { writeNewFile } from "../../provider/files/safe-write";
import { emptyState, loadState, saveState, type ProgramState } from "../../testing/engine/state";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "state-file-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const STATE: ProgramState = { ...emptyState(), outputs: { token: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s3cret" } } };

it("a process racing the save, planting a link at each name the save frees or could use, receives nothing", async () => {
  const file = path.join(dir, "state.json");
  const stolen = path.join(dir, "stolen.json");
  // Planted before: the name the old save used.
  fs.symlinkSync(stolen, `${file}.${process.pid}.tmp`);
  // Planted the moment the save removes anything: the old save removed its temp name, then wrote it.
  const rm = fs.promises.rm.bind(fs.promises);
  const racer = jest.spyOn(fs.promises, "rm").mockImplementation(async (target, options) => {
    await rm(target, options);
    fs.symlinkSync(stolen, String(target));
  });
  try {
    await saveState(file, STATE);
  } finally {
    racer.mockRestore();
  }
  expect(fs.existsSync(stolen)).toBe(false);
  expect(await loadState(file)).toEqual(STATE);
});

it("a dangling link at the state file is replaced by the state; its target is not created", async () => {
  const file = path.join(dir, "state.json");
  const target = path.join(dir, "elsewhere.json");
  fs.symlinkSync(target, file);
  await saveState(file, STATE);
  expect(fs.lstatSync(file).isFile()).toBe(true);
  expect(fs.existsSync(target)).toBe(false);
});

it("a link to an existing file at the state file is replaced; the file keeps its content and mode", async () => {
  const file = path.join(dir, "state.json");
  const target = path.join(dir, "authorized_keys");
  fs.writeFileSync(target, "ssh-ed25519 AAAA... user@host\n", { mode: 0o644 });
  fs.chmodSync(target, 0o644);
  fs.symlinkSync(target, file);
  await saveState(file, STATE);
  expect(fs.lstatSync(file).isFile()).toBe(true);
  expect(fs.readFileSync(target, "utf8")).toBe("ssh-ed25519 AAAA... user@host\n");
  expect(fs.statSync(target).mode & 0o777).toBe(0o644);
  expect(fs.readdirSync(dir).sort()).toEqual(["authorized_keys", "state.json"]);
});

it.each(["000", "022", "277"])("readable by its owner only whatever the umask (%s), set on the descriptor", async (umask) => {
  const file = path.join(dir, "state.json");
  const before = process.umask(parseInt(umask, 8));
  try {
    await saveState(file, STATE);
    await saveState(file, STATE);
  } finally {
    process.umask(before);
  }
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(await loadState(file)).toEqual(STATE);
});

// The CLI's --out without --force: its early check aside (a link planted after it), the write itself refuses.
it.each(["dangling", "to an existing file"])("writeNewFile refuses a link %s (EEXIST), never writing through it", async (kind) => {
  const file = path.join(dir, "index.ts");
  const target = path.join(dir, "authorized_keys");
  if (kind !== "dangling") fs.writeFileSync(target, "ssh-ed25519 AAAA... user@host\n");
  fs.symlinkSync(target, file);
  await expect(writeNewFile(file, "export {};\n")).rejects.toMatchObject({ code: "EEXIST" });
  expect(fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined).toBe(kind === "dangling" ? undefined : "ssh-ed25519 AAAA... user@host\n");
  expect(fs.readlinkSync(file)).toBe(target);
});
