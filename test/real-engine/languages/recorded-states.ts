/**
 * The emulator's objects after each language's `up`, shared by the language test files of one tier run through its
 * scratch folder: a file records its state, then gets every state recorded before. Each writes before it reads, so of
 * any two files at least the later reader sees the other: once all have run, every pair has been compared.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SCRATCH_VARIABLE } from "../../harness/scratch";

function folder(): string {
  const scratch = process.env[SCRATCH_VARIABLE];
  if (!scratch) throw new Error("the languages tier runs with npm run test:pulumi (its global setup makes the scratch folder)");
  const dir = path.join(scratch, "language-states");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export const recordedStates = {
  /** Records `state` under `name` and answers the states recorded before it, by name. */
  record(name: string, state: unknown): Array<[string, unknown]> {
    const dir = folder();
    const file = `${encodeURIComponent(name)}.json`;
    // Whole or not at all: a reader never sees half a state.
    fs.writeFileSync(path.join(dir, `${file}.part`), JSON.stringify(state), { flag: "wx" });
    fs.renameSync(path.join(dir, `${file}.part`), path.join(dir, file));
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".json") && f !== file)
      .sort()
      .map((f) => [decodeURIComponent(f.slice(0, -".json".length)), JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as unknown]);
  },
};
