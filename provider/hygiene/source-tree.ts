/**
 * The files of a source tree that the code-reference scan reads (issue 64), and what it leaves out and why.
 *
 * - Folders named in `skipDirectories` (`.git`, `node_modules` by default) are never entered; `.gitignore` files,
 *   the folder's own and its parents' up to the root, are honoured (gitignore.ts). Neither is listed as skipped.
 * - Each file is read once: into one buffer reused from file to file, up to `maxFileBytes`. A larger one is skipped
 *   (`too-large`), as is a file with a NUL byte in its first 8 KiB (`binary`), one that cannot be opened or read
 *   (`unreadable`), and anything that is not a regular file (`not-a-file`: a FIFO would block a read).
 * - Symbolic links are followed after the rest of the tree, once: a link pointing out of the root is not followed
 *   (`symlink-outside`), a link to something already read is not read again (`symlink-seen`: a loop ends there),
 *   a link to nothing is `symlink-broken`. What a link leads to is named by the link's path.
 * - A root that does not exist is `missing-root`; a root that is a file is read as the one file of its tree, named
 *   by its name as given.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isIgnored, parseGitignore, type IgnoreStack } from "./gitignore";

export type SkipReason = "missing-root" | "unreadable" | "not-a-file" | "binary" | "too-large" | "symlink-outside" | "symlink-seen" | "symlink-broken" | "too-many-references";

export interface Skipped {
  /** The root as given. */
  root: string;
  /** Relative to the root, `/`-separated (`""` for the root itself). */
  path: string;
  reason: SkipReason;
  detail: string;
}

/** A file's bytes, valid only while the visitor runs (the buffer is reused). */
export interface SourceFile {
  root: string;
  path: string;
  bytes: Buffer;
}

export interface TreeOptions {
  maxFileBytes: number;
  skipDirectories: readonly string[];
  gitignore: boolean;
}

export interface TreeCounts {
  files: number;
  bytes: number;
}

const BINARY_PROBE = 8 * 1024;

const errorText = (e: unknown) => {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.syscall ?? "read"}: ${err.code}` : String(err.message ?? e);
};

interface PendingLink {
  abs: string;
  rel: string;
  stack: IgnoreStack;
}

/** One walk of one root. */
class TreeWalk {
  private readonly dirs = new Map<string, string>();
  private readonly files = new Map<string, string>();
  private readonly links: PendingLink[] = [];
  private readonly skipDirs: Set<string>;
  private rootReal = "";
  readonly counts: TreeCounts = { files: 0, bytes: 0 };

  constructor(
    private readonly root: string,
    private readonly options: TreeOptions,
    private readonly buffer: { bytes: Buffer },
    private readonly visit: (file: SourceFile) => void,
    private readonly skip: (s: Skipped) => void,
  ) {
    this.skipDirs = new Set(options.skipDirectories);
  }

  private skipped(rel: string, reason: SkipReason, detail: string): void {
    this.skip({ root: this.root, path: rel, reason, detail });
  }

  run(): void {
    let st: fs.Stats;
    try {
      this.rootReal = fs.realpathSync(this.root);
      st = fs.statSync(this.rootReal);
    } catch (e) {
      const missing = (e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR";
      this.skipped("", missing ? "missing-root" : "unreadable", missing ? "no such file or folder" : errorText(e));
      return;
    }
    if (st.isFile()) this.file(this.rootReal, this.rootReal, path.basename(this.root));
    else if (st.isDirectory()) this.dir(this.rootReal, this.rootReal, "", []);
    else this.skipped("", "not-a-file", "neither a file nor a folder");
    for (let link = this.links.shift(); link; link = this.links.shift()) this.link(link);
  }

  private dir(abs: string, real: string, rel: string, parentStack: IgnoreStack): void {
    this.dirs.set(real, rel === "" ? "." : rel.slice(0, -1));
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch (e) {
      this.skipped(rel === "" ? "" : rel.slice(0, -1), "unreadable", errorText(e));
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let stack = parentStack;
    if (this.options.gitignore && entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      try {
        stack = [...stack, { base: rel, rules: parseGitignore(fs.readFileSync(path.join(abs, ".gitignore"), "utf8")) }];
      } catch (e) {
        this.skipped(`${rel}.gitignore`, "unreadable", errorText(e));
      }
    }
    for (const e of entries) {
      const r = rel + e.name;
      if (e.isDirectory()) {
        if (!this.skipDirs.has(e.name) && !isIgnored(stack, r, e.name, true)) this.dir(path.join(abs, e.name), path.join(real, e.name), `${r}/`, stack);
      } else if (isIgnored(stack, r, e.name, false)) continue;
      else if (e.isFile()) this.file(path.join(abs, e.name), path.join(real, e.name), r);
      else if (e.isSymbolicLink()) this.links.push({ abs: path.join(abs, e.name), rel: r, stack });
      else this.skipped(r, "not-a-file", "neither a file, a folder nor a link");
    }
  }

  private link({ abs, rel, stack }: PendingLink): void {
    let real: string;
    let st: fs.Stats;
    try {
      real = fs.realpathSync(abs);
      st = fs.statSync(real);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ELOOP") this.skipped(rel, "symlink-broken", code === "ELOOP" ? "a loop of links" : "points to nothing");
      else this.skipped(rel, "unreadable", errorText(e));
      return;
    }
    if (real !== this.rootReal && !real.startsWith(this.rootReal + path.sep)) {
      this.skipped(rel, "symlink-outside", `points out of the tree, to ${real}`);
      return;
    }
    const seen = st.isDirectory() ? this.dirs.get(real) : this.files.get(real);
    if (seen !== undefined) this.skipped(rel, "symlink-seen", `already read as ${seen}`);
    else if (st.isDirectory()) {
      if (!this.skipDirs.has(path.basename(rel))) this.dir(abs, real, `${rel}/`, stack);
    } else if (st.isFile()) this.file(abs, real, rel);
    else this.skipped(rel, "not-a-file", "points to neither a file nor a folder");
  }

  private file(abs: string, real: string, rel: string): void {
    this.files.set(real, rel);
    let fd: number;
    try {
      fd = fs.openSync(abs, "r");
    } catch (e) {
      this.skipped(rel, "unreadable", errorText(e));
      return;
    }
    let length = 0;
    try {
      const size = fs.fstatSync(fd).size;
      if (size > this.options.maxFileBytes) {
        this.skipped(rel, "too-large", `${size} bytes, over the bound of ${this.options.maxFileBytes}`);
        return;
      }
      if (this.buffer.bytes.length < size) this.buffer.bytes = Buffer.allocUnsafe(Math.min(this.options.maxFileBytes, Math.max(size, 2 * this.buffer.bytes.length)));
      for (let n = -1; length < size && n !== 0; length += n) n = fs.readSync(fd, this.buffer.bytes, length, size - length, length);
    } catch (e) {
      this.skipped(rel, "unreadable", errorText(e));
      return;
    } finally {
      fs.closeSync(fd);
    }
    const bytes = this.buffer.bytes.subarray(0, length);
    if (bytes.subarray(0, BINARY_PROBE).includes(0)) {
      this.skipped(rel, "binary", "a NUL byte in its first 8 KiB");
      return;
    }
    this.counts.files++;
    this.counts.bytes += length;
    this.visit({ root: this.root, path: rel, bytes });
  }
}

/**
 * Reads every file of the tree at `root` that the options let through, calling `visit` with each (in the order of
 * the folders' names, links last) and `skip` with each file or folder left out for a reason the user should see.
 */
export function walkSourceTree(root: string, options: TreeOptions, visit: (file: SourceFile) => void, skip: (s: Skipped) => void, buffer = { bytes: Buffer.allocUnsafe(64 * 1024) }): TreeCounts {
  const walk = new TreeWalk(root, options, buffer, visit, skip);
  walk.run();
  return walk.counts;
}
