/**
 * A command's report files (drift-report.*, flags-report.*): written into the output folder each as a whole, never
 * through a link (provider/files/safe-write.ts: a new file created exclusively under a random name, then renamed
 * over the target), and read back (`--previous`, `drift merge`) with an error that names the file and what is wrong.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { replaceFile } from "../../provider/files/safe-write";

/** Each file (name -> text) into `folder` (made when missing), replacing what is there, one after another. */
export async function writeReportFiles(folder: string, files: ReadonlyArray<readonly [name: string, text: string]>): Promise<void> {
  fs.mkdirSync(folder, { recursive: true });
  for (const [name, text] of files) await replaceFile(path.join(folder, name), text);
}

/**
 * A JSON report written by one of the commands: `what` names it in errors ("a drift-report.json of schema version
 * 1"), `accepts` says whether the parsed document is one. An Error naming the file and what is wrong otherwise.
 */
export function readJsonReport<T>(file: string, what: string, accepts: (doc: unknown) => boolean): T {
  let doc: unknown;
  try {
    doc = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`the report ${JSON.stringify(file)} cannot be read as JSON: ${(e as Error).message.split("\n")[0]}`);
  }
  if (!doc || typeof doc !== "object" || !accepts(doc)) throw new Error(`the report ${JSON.stringify(file)} is not ${what}`);
  return doc as T;
}

/** The package version that writes the reports. */
export function toolVersion(): string {
  for (const p of ["../../package.json", "../../../package.json"]) {
    try {
      return (require(p) as { version: string }).version;
    } catch {
      // Next place: from sources or from dist/.
    }
  }
  return "unknown";
}
