/**
 * Files the package writes (the program `pulumi-cloudbees import --out` generates, the testing kit's state), often in
 * a folder others may write (a shared temp folder, a CI workspace): never through a link another user planted there.
 *
 * - A new file is created exclusively (O_CREAT | O_EXCL, and O_NOFOLLOW where the OS has it): anything at the path,
 *   a link included, even a dangling one, fails the create instead of being followed. No "does it exist?" check
 *   before: between a check and a write, another process could plant one.
 * - A replacement is a new file of a random name beside the target, created exclusively, then renamed over the
 *   target: a link at the target is replaced itself, its target never touched; a reader sees the old file or the
 *   new one, whole.
 * - The mode is set on the descriptor (at open, and fchmod for a private file), never by path.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

const CREATE_EXCLUSIVE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

export interface WriteOptions {
  /**
   * Readable and writable by its owner only (0600), whatever the umask: a file that holds secrets. Otherwise the
   * file is created 0666 less the umask, as any program's file.
   */
  private?: boolean;
}

/** Writes `data` to a new file at `file`; fails (EEXIST) when anything is there, a link included, never following it. */
export async function writeNewFile(file: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
  const handle = await fs.promises.open(file, CREATE_EXCLUSIVE, options.private ? 0o600 : 0o666);
  try {
    // Before any byte is written: a umask cannot leave the secrets readable, nor make the file unwritable.
    if (options.private) await handle.chmod(0o600);
    await handle.writeFile(data);
  } catch (e) {
    await handle.close();
    await fs.promises.rm(file, { force: true });
    throw e;
  }
  await handle.close();
}

/**
 * Puts `data` at `file`, replacing what is there (nothing, a file, or a link: the link itself, never its target): a
 * new file of a random name beside it (writeNewFile), renamed over it.
 */
export async function replaceFile(file: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(8).toString("hex")}.tmp`);
  await writeNewFile(temp, data, options);
  try {
    await fs.promises.rename(temp, file);
  } catch (e) {
    await fs.promises.rm(temp, { force: true });
    throw e;
  }
}
