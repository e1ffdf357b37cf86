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

/**
 * What lint and the server write for a bundle every structural validator passes (no strategy set, no catalog): each
 * validator's success line, in the order and words of a public validate-uploaded-bundle answer.
 */
export const ALL_PASSED: readonly string[] = [
  "INFO - [STRUCTURE] - [FileSystemBundleValidator] All files indicated in the bundle exist and have the correct type.",
  "INFO - [CONTVAL] - [ContentBundleValidator] All files specified in the bundle exist and no unreferenced files indicated.",
  "INFO - [SCHEMA] - All YAML files validated correctly against their corresponding schemas",
  "INFO - [DESCVAL] - [DescriptorValidator] All files referenced in the descriptor are folders or yaml files.",
  "INFO - [VERSIONVAL] - [VersionValidator] Version correctly indicated in bundle.yaml.",
  "INFO - [APIVAL] - [ApiValidator] apiVersion correctly indicated in bundle.yaml.",
  "INFO - [JCASCSTRATEGY] - [JcascMergeStrategyValidator] No (optional) jcascMergeStrategy defined in the bundle.",
  "INFO - [ITEMSTRATEGY] - [ItemRemoveStrategyValidator] No (optional) itemRemoveStrategy defined in the bundle.",
  "INFO - [CATALOGVAL] - [MultipleCatalogFilesValidator] No catalog validation needed.",
  "INFO - [CATALOGVAL] - [AllowBeekeeperExceptionValidator] No catalog defined in the bundle.",
];
