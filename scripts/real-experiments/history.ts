/**
 * Every experiment and target-group file ever committed to a clone of rollout/sound-redux-cac (the Git repository the
 * Rollout / CloudBees Feature Management service kept in sync with its dashboard: one branch per environment,
 * `experiments/*.yml`, `experiments/archived/*.yml`, `target_groups/*.yml`). Read with `git` alone, offline.
 */
import { execFileSync } from "node:child_process";

export interface FileVersion {
  /** The blob's id: one entry per distinct file content. */
  blob: string;
  /** The oldest commit that wrote this content at `path`. */
  commit: string;
  /** That commit's author date (ISO 8601). */
  date: string;
  /** That commit's subject: the service's audit-log text, or a person's message for a hand edit. */
  subject: string;
  path: string;
  text: string;
}

/** The folders the service writes; anything else in the repository (README, workflows, scripts) is not its output. */
const RECORD_PATH = /^(experiments(\/archived)?|target_groups)\/[^/]+\.ya?ml$/;

/**
 * Subjects of the service's own commits: its audit-log texts ("Updated experiment ...", "modified flag audience ...",
 * "Created target group ...", "turned targeting on ..."). The others are people editing the branch in Git (GitHub's
 * "Update x.yml", merges, "Some message"), which the service then read back.
 */
const SERVICE_SUBJECT =
  /^(Updated|Created|Deleted|Modified|modified|created|deleted|killed|activated|added|changed|edited|turned|removed|archived|unarchived|triggered|Renamed|renamed|flag properties|Experiment file|Target group file|Delete the file at) /;

export function writtenByService(subject: string): boolean {
  return SERVICE_SUBJECT.test(subject);
}

function git(gitDir: string, args: string[], input?: Buffer): Buffer {
  return execFileSync("git", ["--git-dir", gitDir, ...args], { input, maxBuffer: 1 << 30, stdio: ["pipe", "pipe", "pipe"] });
}

/** Why `gitDir` cannot be read as a clone of the repository, or undefined. */
export function cloneProblem(gitDir: string): string | undefined {
  try {
    const branches = git(gitDir, ["for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes"]).toString("utf8").trim();
    if (branches === "") return `${gitDir} is a git directory without branches`;
    return undefined;
  } catch (e) {
    return `${gitDir} is not a git directory git can read (${(e as Error).message.split("\n")[0]})`;
  }
}

/** Every distinct content of the record files, on every branch, each with the oldest commit that wrote it. */
export function recordFileVersions(gitDir: string): FileVersion[] {
  const log = git(gitDir, ["log", "--all", "--raw", "--no-renames", "--no-abbrev", "-z", "--format=%x01%H%x02%aI%x02%s"]).toString("utf8");
  const byBlob = new Map<string, Omit<FileVersion, "text">>();
  let commit = { hash: "", date: "", subject: "" };
  const tokens = log.split("\0");
  for (let i = 0; i < tokens.length; i++) {
    let token = tokens[i]!;
    const header = token.indexOf("\x01");
    if (header >= 0) {
      const [hash, date, rest] = token.slice(header + 1).split("\x02") as [string, string, string];
      const newline = rest.indexOf("\n");
      commit = { hash, date, subject: newline >= 0 ? rest.slice(0, newline) : rest };
      token = newline >= 0 ? rest.slice(newline + 1) : "";
    }
    token = token.replace(/^\n+/, "");
    if (!token.startsWith(":")) continue;
    // ":<old mode> <new mode> <old blob> <new blob> <status>", then the path as the next token.
    const [, , , blob, status] = token.slice(1).split(" ") as [string, string, string, string, string];
    const path = tokens[++i] ?? "";
    if (status.startsWith("D") || !RECORD_PATH.test(path)) continue;
    const known = byBlob.get(blob);
    if (!known || commit.date < known.date) byBlob.set(blob, { blob, commit: commit.hash, date: commit.date, subject: commit.subject, path });
  }
  const versions = [...byBlob.values()];
  const texts = blobTexts(gitDir, versions.map((v) => v.blob));
  return versions.map((v) => ({ ...v, text: texts.get(v.blob)! }));
}

/** The contents of the blobs, in one `git cat-file --batch`. */
function blobTexts(gitDir: string, blobs: string[]): Map<string, string> {
  const out = git(gitDir, ["cat-file", "--batch"], Buffer.from(blobs.map((b) => `${b}\n`).join(""), "utf8"));
  const texts = new Map<string, string>();
  let at = 0;
  for (const blob of blobs) {
    const newline = out.indexOf(0x0a, at);
    const [, type, size] = out.subarray(at, newline).toString("utf8").split(" ");
    if (type !== "blob") throw new Error(`git cat-file: ${blob} is not a blob`);
    const end = newline + 1 + Number(size);
    texts.set(blob, out.subarray(newline + 1, end).toString("utf8"));
    at = end + 1;
  }
  return texts;
}
