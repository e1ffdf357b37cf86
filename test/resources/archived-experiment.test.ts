/* istanbul ignore file */
import { expectAnsweredAsWritten } from "../emulator/answered-as-written";
import { CONFIGURATION_FIELDS, loadCorpus } from "../fixtures/real-experiments-program/corpus";
import { startFlagWorld, type FlagWorld } from "./feature-flag-helpers";

// An archived experiment the real service wrote with platforms: rollout/sound-redux-cac, commit 94046cea
// (experiments/default.shuffle.yml, "Updated experiment shuffle"; the service moved the same content to
// experiments/archived/default.shuffle.yml in e17bb59), kept whole in the corpus as
// test/fixtures/real-experiments/47-experiment-94046ce.json. Issue 43 reported it losing `archived` when declared
// through FlagConfiguration. Declared with every field as written, through the real provider host over HTTP: the
// service holds each field, the outputs and a refresh keep `archived`, and an update of one field keeps the others.
const item = loadCorpus().find((i) => i.whole && i.source.commit.startsWith("94046cea"))!;
const record = item.experiment!;

let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("sound-redux")).id;
  await w.fm.createFlag(app, { name: String(record.flag) });
  await w.fm.putTargetGroup(app, { type: "target-group", name: "Anon", conditions: [{ property: "rox.distinct_id", operator: "is-undefined" }] });
});
afterAll(async () => {
  await w?.close();
});

const declared = () => {
  const inputs: Record<string, unknown> = { applicationId: app, environment: "Production", flag: record.flag };
  for (const k of CONFIGURATION_FIELDS) if (record[k] !== undefined) inputs[k] = record[k];
  return inputs as Record<string, never>;
};
const held = () => {
  const flag = w.emu.state.flags(app).find((f) => f.name === record.flag)!;
  return { type: "experiment", flag: flag.name, name: flag.name, availableValues: flag.availableValues, ...flag.configurations["Production"] };
};

it("the corpus holds the record whole, as the service wrote it: archived, with platforms", () => {
  expect(item.source).toMatchObject({ repository: "rollout/sound-redux-cac", path: "experiments/default.shuffle.yml", writer: "service" });
  expect(item.removed).toEqual([]);
  expect(record).toMatchObject({ archived: true, platforms: [{ name: "Browser", value: true }, { name: "NodeJS", value: false }] });
});

it("declared with every field, it keeps archived and every other field: on the service, in the outputs, on refresh and through an update", async () => {
  const r = w.ff("flagConfiguration", "shuffle", declared());
  expect(await r.up()).toMatchObject({ op: "create" });
  expectAnsweredAsWritten("experiment", record, held());
  expect(r.state!.outputs).toMatchObject({ archived: true, platforms: record.platforms, conditions: record.conditions, value: record.value });

  await w.nextDeployment();
  expect(await r.refresh()).toMatchObject({ changedFields: [] });
  expect(r.state!.outputs.archived).toBe(true);
  expect(await r.up(declared())).toMatchObject({ op: "same" });

  // One field changed: the write carries the others as they were, archived included.
  expect(await r.up({ ...declared(), value: [{ option: true, percentage: 20 }] })).toMatchObject({ op: "update", changedFields: ["value"] });
  expect(held()).toMatchObject({ archived: true, platforms: [{ name: "Browser", value: true }, { name: "NodeJS", value: false }], value: [{ option: true, percentage: 20 }] });
  // Archived left out of the program: the service keeps it (only given inputs are written).
  const { archived: _archived, ...rest } = declared();
  expect(await r.up({ ...rest, value: record.value as never })).toMatchObject({ op: "update" });
  expectAnsweredAsWritten("experiment", record, held());
});
