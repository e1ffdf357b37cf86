import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const SAMPLE_BUNDLES = path.resolve(__dirname, "..", "..", "examples", "bundles");

/** A fresh temporary folder, removed by cleanTemp(). */
const made: string[] = [];
export function tempDir(prefix = "bundle-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
export function cleanTemp(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes files (posix paths) below `dir`, in the given order. */
export function writeFiles(dir: string, files: Record<string, string>): string {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, ...name.split("/"));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return dir;
}

/** A valid bundle that each lint test breaks in exactly one way. */
export const VALID: Record<string, string> = {
  "bundle.yaml": 'apiVersion: "1"\nid: "ok"\nversion: "1"\njcasc:\n  - "jenkins.yaml"\nitems:\n  - "items/"\n',
  "jenkins.yaml": "jenkins:\n  systemMessage: hello\n",
  "items/a.yaml": "items:\n  - kind: folder\n    name: a\n",
  "items/b.yaml": "removeStrategy:\n  items: NONE\n  rbac: SYNC\nitems:\n  - kind: folder\n    name: b\n",
};
