/* istanbul ignore file */
/**
 * "Read back equal" for a record the real service wrote (test/fixtures/real-experiments): every field sent comes back
 * with its value, and the answer's other fields are only the defaults the service documents (emulator/README.md:
 * "answers and lists carry every default"). X3 ignores an experiment's `name` (the flag is its name: the legacy rule)
 * and does not store `version`, so neither is compared.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonRecord = { [key: string]: Json };

const isRecord = (v: unknown): v is JsonRecord => typeof v === "object" && v !== null && !Array.isArray(v);

/** Each default by its path, list indexes written `[]`. */
function defaults(kind: "experiment" | "target-group", sent: JsonRecord): Record<string, Json> {
  if (kind === "target-group") return { type: "target-group", description: "", operator: "and" };
  const values = Array.isArray(sent.availableValues) ? sent.availableValues : undefined;
  const boolean = values === undefined || (values.length === 2 && values.includes(true) && values.includes(false));
  const out: Record<string, Json> = {
    type: "experiment",
    name: sent.flag as string,
    availableValues: [false, true],
    description: "",
    enabled: true,
    labels: [],
    stickinessProperty: "rox.distinct_id",
    platforms: [],
    conditions: [],
    value: boolean ? false : null,
    "platforms[].conditions": [],
  };
  for (const at of ["", "platforms[]."]) {
    out[`${at}conditions[].group.operator`] = "or";
    for (const value of [`${at}value`, `${at}conditions[].value`]) out[`${value}[].percentage`] = 100;
  }
  return out;
}

/** The fields of `answered` that `sent` does not have, by path. */
function extras(answered: Json, sent: Json, at: string, out: [string, Json][]): [string, Json][] {
  if (Array.isArray(answered) && Array.isArray(sent)) answered.forEach((a, i) => extras(a, sent[i] ?? null, `${at}[${i}]`, out));
  else if (isRecord(answered) && isRecord(sent)) {
    for (const [k, v] of Object.entries(answered)) {
      const path = at ? `${at}.${k}` : k;
      if (k in sent) extras(v, sent[k]!, path, out);
      else out.push([path, v]);
    }
  }
  return out;
}

export function expectAnsweredAsWritten(kind: "experiment" | "target-group", sent: JsonRecord, answered: unknown): void {
  const ignored = kind === "experiment" ? ["name", "version"] : ["version"];
  const expected = Object.fromEntries(Object.entries(sent).filter(([k]) => !ignored.includes(k)));
  expect(answered).toMatchObject(expected);
  const filled = extras(answered as Json, expected, "", []);
  const known = defaults(kind, sent);
  const byPattern = (path: string) => path.replace(/\[\d+\]/g, "[]");
  expect(Object.fromEntries(filled)).toEqual(Object.fromEntries(filled.map(([path]) => [path, known[byPattern(path)]])));
}
