// The real-engine tier's order (test/sequencer-pulumi.js) is only as good as its table: a tier file without an entry
// falls back to its size, which says little of a file whose time goes to the CLI, installs and builds, and would be
// run last, where it makes one worker wait on the other. So every file of the tier has an entry, and every entry a file.
import { execFileSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..");
const { ESTIMATES } = require("./sequencer-pulumi.js") as { ESTIMATES: Record<string, number> };

it("every file of the real-engine tier has an entry in its sequencer's table, and every entry is a file of the tier", () => {
  const listed = execFileSync(process.execPath, [require.resolve("jest/bin/jest"), "--listTests", "-c", path.join(ROOT, "jest.pulumi.config.js")], { cwd: ROOT, encoding: "utf8" });
  const files = listed
    .split("\n")
    .filter(Boolean)
    .map((f) => path.relative(path.join(ROOT, "test"), f).split(path.sep).join("/"))
    .sort();
  expect(files.length).toBeGreaterThan(20);
  expect({ withoutEntry: files.filter((f) => !(f in ESTIMATES)), entryWithoutFile: Object.keys(ESTIMATES).filter((f) => !files.includes(f)).sort() }).toEqual({
    withoutEntry: [],
    entryWithoutFile: [],
  });
});
