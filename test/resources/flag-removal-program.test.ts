/**
 * A flag removed from a program in the order of docs/resources/flag.md ("Removing a flag safely"), through the testing
 * kit's engine stand-in (which orders deletes as the engine does: dependents first, a `retainOnDelete` resource only
 * dropped from the state) and Pulumi's real dynamic-provider host, against the emulator (test/fixtures/flag-removal-program):
 * `onDelete: "archive"` and `retainOnDelete` reach the state with no request, then the removal deletes the one
 * configuration that is not retained, then archives the flag: the retained configuration stays, archived and off,
 * with its value as it was, and the flag with it.
 */
import * as path from "node:path";
import { changesOf, ProgramTest } from "../../testing";
import { FM_PREFIX } from "./feature-flag-helpers";

const PROGRAM = path.resolve(__dirname, "..", "fixtures", "flag-removal-program");
const STEP_MS = 120_000;

let test: ProgramTest;
let app: string;
beforeAll(async () => {
  test = await ProgramTest.start({ dir: PROGRAM, config: { "removal:step": "declared" } });
}, STEP_MS);
afterAll(async () => {
  await test?.close();
}, STEP_MS);

const FLAG = "checkout.newFlow";
const configurations = () => test.emulator.state.flags(app).find((f) => f.name === FLAG)?.configurations;
/** The feature-flag writes journaled since `mark` (an index into the journal). */
const writesSince = (mark: number) =>
  test.emulator.journal
    .entries()
    .slice(mark)
    .filter((e) => e.path.startsWith(FM_PREFIX) && e.method !== "GET")
    .map((e) => `${e.method} ${e.path.slice(FM_PREFIX.length - 1).replace(app, "{app}")}`);

it(
  "declared: the flag configured in Production (a 25 % split) and Staging",
  async () => {
    await test.up();
    app = test.outputs()["applicationIdOut"] as string;
    expect(configurations()).toEqual({ Production: expect.objectContaining({ value: [{ option: true, percentage: 25 }], labels: ["checkout"] }), Staging: expect.objectContaining({ value: true }) });
  },
  STEP_MS,
);

it(
  'onDelete: "archive" and retainOnDelete: an update of the Flag that sends nothing',
  async () => {
    test.runner.setConfig("removal:step", "archive");
    const mark = test.emulator.journal.entries().length;
    const plan = changesOf(await test.up());
    expect(plan.map((e) => ({ name: e.name, op: e.op }))).toEqual([{ name: "new-flow", op: "update" }]);
    expect(writesSince(mark)).toEqual([]);
  },
  STEP_MS,
);

it(
  "removed: Staging's configuration deleted first, then the flag archived; Production's kept, archived and off, its value as it was",
  async () => {
    const before = configurations()!.Production!;
    test.runner.setConfig("removal:step", "removed");
    const mark = test.emulator.journal.entries().length;
    const plan = changesOf(await test.up());
    expect(plan.map((e) => ({ name: e.name, op: e.op, retained: e.retained ?? false })).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "new-flow", op: "delete", retained: false },
      { name: "production", op: "delete", retained: true },
      { name: "staging", op: "delete", retained: false },
    ]);
    expect(writesSince(mark)).toEqual([`DELETE /applications/{app}/Staging/experiments/${FLAG}`, "PUT /applications/{app}/Production/experiments"]);
    expect(test.emulator.state.flags(app).map((f) => f.name)).toEqual([FLAG]);
    expect(configurations()).toEqual({ Production: { ...before, archived: true, enabled: false } });
    expect(test.state().resources.filter((r) => /Flag/.test(r.type))).toEqual([]);
  },
  STEP_MS,
);
