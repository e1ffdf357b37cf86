/**
 * Every item of the corpus of forms the real service wrote (test/fixtures/real-experiments, made by
 * scripts/real-experiments.ts from rollout/sound-redux-cac; each item names its commit and path) goes through the
 * API over HTTP, each in an application of its own, and is read back by the typed client as it was written.
 */
import type { ExperimentRequest, TargetGroupRequest } from "../../provider";
import { loadCorpus, needsOf, stubGroup, type CorpusItem } from "../fixtures/real-experiments-program/corpus";
import { expectAnsweredAsWritten } from "./answered-as-written";
import { startFlagSetup, type FlagSetup } from "./feature-flag-setup";

const corpus = loadCorpus();
let s: FlagSetup;
beforeAll(async () => {
  s = await startFlagSetup();
});
afterAll(async () => s.close());

it("holds every form named in the issue, each item with its commit and path", () => {
  const shapes = new Set(corpus.flatMap((i) => i.shapes));
  for (const form of [
    "schedule entry: {from, option, percentage}",
    "condition: no clause",
    "condition: {}",
    "condition: group, no value",
    'group: operator "nor", name list',
    "split entry: {percentage}",
    "availableValues: []",
    'availableValues: holds ""',
    "version: \"semver-gte\", semver null",
    "target group conditions: null",
    "property: a regex JavaScript cannot compile",
    "target group condition: a regex JavaScript cannot compile",
    "archived: true",
  ]) {
    expect([form, shapes.has(form)]).toEqual([form, true]);
  }
  for (const item of corpus) {
    expect(item.source).toMatchObject({ repository: "rollout/sound-redux-cac", commit: expect.stringMatching(/^[0-9a-f]{40}$/), path: expect.stringMatching(/^(experiments|target_groups)\//) });
    // Here for a form, or kept whole for a reason it says (scripts/real-experiments.ts, WHOLE).
    expect([item.id, item.shapes.length > 0 || (item.whole ?? "") !== ""]).toEqual([item.id, true]);
  }
});

describe.each(corpus.map((item) => [`${item.id} (${item.source.path}, ${item.source.writer})`, item] as [string, CorpusItem]))("%s", (_name, item) => {
  it("is accepted, and read back by the typed client as written", async () => {
    const app = await s.newApplication(`real ${item.id}`);
    if (item.targetGroup) {
      await s.client.putTargetGroup(app, item.targetGroup as unknown as TargetGroupRequest);
      const list = await s.client.readTargetGroupList(app);
      expect(list.unreadable).toEqual([]);
      expectAnsweredAsWritten("target-group", item.targetGroup, list.items.find((g) => g.name === item.targetGroup!.name));
      return;
    }
    const e = item.experiment!;
    const needs = needsOf(e);
    for (const name of needs.groups) await s.client.putTargetGroup(app, stubGroup(name) as unknown as TargetGroupRequest);
    for (const f of needs.flags) await s.client.createFlag(app, { name: f.name, ...(f.availableValues ? { availableValues: f.availableValues } : {}) });
    const answer = await s.client.putExperiment(app, "Production", e as unknown as ExperimentRequest);
    expectAnsweredAsWritten("experiment", e, answer);
    // Read back: the one experiment, and the environment's list, each item readable.
    expectAnsweredAsWritten("experiment", e, await s.client.getExperiment(app, "Production", e.flag as string));
    const list = await s.client.readExperimentList(app, "Production");
    expect(list.unreadable).toEqual([]);
    expectAnsweredAsWritten("experiment", e, list.items.find((x) => x.flag === e.flag));
  });
});
