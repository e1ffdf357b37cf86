/**
 * scripts/real-experiments (the corpus of forms the real service wrote): the items kept in test/fixtures hold the forms
 * they are there for, each form once; and the selection prefers the service's own records, trims without inventing a
 * form, and keeps one item per new form.
 */
import { selectCorpus, type Candidate } from "../../scripts/real-experiments/select";
import { shapesOf } from "../../scripts/real-experiments/shapes";
import { writtenByService } from "../../scripts/real-experiments/history";
import { loadCorpus } from "../fixtures/real-experiments-program/corpus";

it("each item of test/fixtures/real-experiments holds the forms it is there for, and no form is there twice", () => {
  const seen = new Map<string, string>();
  for (const item of loadCorpus()) {
    const kind = item.targetGroup ? "target-group" : "experiment";
    const held = shapesOf(kind, (item.targetGroup ?? item.experiment)!, item.source.path.slice(0, item.source.path.lastIndexOf("/")));
    for (const shape of item.shapes) {
      expect([item.id, shape, held.has(shape)]).toEqual([item.id, shape, true]);
      expect([shape, seen.get(shape)]).toEqual([shape, undefined]);
      seen.set(shape, item.id);
    }
    expect(item.source.writer).toBe(writtenByService(item.source.subject) ? "service" : "git");
  }
});

const candidate = (record: Candidate["record"], more: Partial<Candidate> = {}): Candidate => ({
  kind: "experiment",
  record,
  commit: "c".repeat(40),
  date: "2020-01-01T00:00:00Z",
  subject: "Updated experiment x",
  path: "experiments/x.yml",
  writer: "service",
  size: JSON.stringify(record).length,
  ...more,
});

it("takes the service's record before a hand edit of the same form, and a hand edit only for a form the service never wrote", () => {
  const nor = { type: "experiment", flag: "x", conditions: [{ group: { operator: "nor", name: ["a"] }, value: false }] };
  const items = selectCorpus([
    candidate(nor, { writer: "git", subject: "Update x.yml", commit: "g".repeat(40) }),
    candidate(nor),
    candidate({ type: "experiment", flag: "x", value: [{ percentage: 52 }] }, { writer: "git", subject: "Update x.yml" }),
  ]);
  expect(items.map((i) => [i.candidate.writer, i.shapes.includes('group: operator "nor", name list') || i.shapes.includes("split entry: {percentage}")])).toEqual([
    ["service", true],
    ["git", true],
  ]);
});

it("trims the parts that hold only forms an earlier item has, never inventing one", () => {
  // More new forms than the second: chosen first.
  const first = { type: "experiment", flag: "x", description: "d", value: true, labels: ["l"], enabled: false, archived: false, stickinessProperty: "s" };
  const second = { type: "experiment", flag: "x", description: "d", conditions: [{ group: { operator: "nor", name: "a" }, value: true }], value: true };
  const [, item] = selectCorpus([candidate(first), candidate(second)]);
  // `value` stays: without it the record would hold "value: absent", a form the service did not write here.
  expect(item!.record).toEqual({ type: "experiment", flag: "x", conditions: [{ group: { operator: "nor", name: "a" }, value: true }], value: true });
  expect(item!.removed).toEqual(["description"]);
  expect(item!.shapes).toEqual(["condition value: boolean", "condition: group", "field: conditions", 'group: operator "nor", name text']);
});
