/**
 * Every item of the corpus of forms the real service wrote (test/fixtures/real-experiments), declared by a program
 * (test/fixtures/real-experiments-program: one application per item, each field as written) through the testing
 * kit's engine stand-in and Pulumi's real dynamic-provider host: `up` creates it all, the service then holds each
 * record as written, and a refresh and a preview change nothing.
 */
import * as path from "node:path";
import { changesOf, ProgramTest } from "../../testing";
import { expectAnsweredAsWritten } from "../emulator/answered-as-written";
import { loadCorpus } from "../fixtures/real-experiments-program/corpus";

const PROGRAM = path.resolve(__dirname, "..", "fixtures", "real-experiments-program");
const STEP_MS = 240_000;
const corpus = loadCorpus();

let test: ProgramTest;
beforeAll(async () => {
  test = await ProgramTest.start({ dir: PROGRAM });
}, STEP_MS);
afterAll(async () => {
  await test?.close();
}, STEP_MS);

it(
  "up declares every item; the service holds each as written",
  async () => {
    const plan = await test.up();
    expect(plan.filter((e) => e.op !== "create")).toEqual([]);
    const apps = test.emulator.state.applications("acme");
    for (const item of corpus) {
      const app = apps.find((a) => a.name === `real ${item.id}`)!;
      if (item.targetGroup) {
        const held = test.emulator.state.targetGroups(app.id).find((g) => g.name === item.targetGroup!.name);
        expectAnsweredAsWritten("target-group", item.targetGroup, { type: "target-group", ...held });
        continue;
      }
      const e = item.experiment!;
      const flag = test.emulator.state.flags(app.id).find((f) => f.name === e.flag)!;
      const held = { type: "experiment", flag: flag.name, name: flag.name, availableValues: flag.availableValues, ...flag.configurations["Production"] };
      expectAnsweredAsWritten("experiment", e, held);
    }
  },
  STEP_MS,
);

it(
  "a refresh changes nothing, and a preview then plans no change",
  async () => {
    const refresh = await test.refresh();
    expect(refresh.filter((e) => (e.changedFields?.length ?? 0) > 0 || e.dropped)).toEqual([]);
    // Every resource was read: an application and a flag or a group per item at least.
    expect(refresh.filter((e) => e.op === "refresh").length).toBeGreaterThanOrEqual(corpus.length * 2);
    expect(changesOf(await test.preview())).toEqual([]);
  },
  STEP_MS,
);
