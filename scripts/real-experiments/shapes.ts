/**
 * The shapes of the feature-flag service's own records: each experiment or target group the service wrote (its
 * Git-synced YAML, parsed) as the set of structural forms it holds ("value: schedule", "schedule entry: {from,
 * option, percentage}", "group operator: nor", "condition: {}", ...). Two records of the same forms teach nothing
 * new; a corpus keeps one record per form (select.ts). Pure: records in, names of forms out.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type RecordKind = "experiment" | "target-group";

const CLAUSES = ["dependency", "group", "version", "property"] as const;
const NO_OPERAND = ["is-undefined", "is-true", "is-false"];

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A short name of a JSON value's type. */
function typeOf(v: Json | undefined): string {
  if (v === undefined) return "absent";
  if (v === null) return "null";
  if (Array.isArray(v)) return v.length === 0 ? "[]" : "list";
  if (typeof v === "string") return v === "" ? '""' : "text";
  if (typeof v === "object") return Object.keys(v).length === 0 ? "{}" : "object";
  return typeof v;
}

function keysOf(o: JsonObject): string {
  return `{${Object.keys(o).sort().join(", ")}}`;
}

/** JavaScript's own reading of a regular expression: the emulator, the provider and the SDK all compile it so. */
export function compilesInJavaScript(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** The forms of one record. `folder` is the file's folder in the repository (`experiments/archived` says archived). */
export function shapesOf(kind: RecordKind, record: Json, folder: string): Set<string> {
  const out = new Set<string>();
  if (!isObject(record)) {
    out.add(`${kind}: ${typeOf(record)}`);
    return out;
  }
  if (kind === "target-group") targetGroupShapes(record, out);
  else experimentShapes(record, folder, out);
  return out;
}

function experimentShapes(e: JsonObject, folder: string, out: Set<string>): void {
  if (folder.endsWith("/archived")) out.add("file in experiments/archived");
  for (const key of Object.keys(e)) out.add(`field: ${key}`);
  if (e.enabled === false) out.add("enabled: false");
  if (e.archived !== undefined) out.add(`archived: ${JSON.stringify(e.archived)}`);
  if (e.labels !== undefined) out.add(`labels: ${typeOf(e.labels)}`);
  const options = Array.isArray(e.availableValues) ? e.availableValues : undefined;
  if (e.availableValues !== undefined) {
    out.add(`availableValues: ${typeOf(e.availableValues)}`);
    if (options) {
      const texts = options.map((o) => JSON.stringify(o));
      if (options.includes("")) out.add('availableValues: holds ""');
      if (new Set(texts).size !== texts.length) out.add("availableValues: a value twice");
      if (options.length) out.add(`availableValues: of ${[...new Set(options.map(typeOf))].sort().join(" and ")}`);
    }
  }
  valueShapes(e.value, "value", options, out);
  conditionsShapes(e.conditions, "condition", options, out);
  if (e.platforms !== undefined && !Array.isArray(e.platforms)) out.add(`platforms: ${typeOf(e.platforms)}`);
  for (const p of Array.isArray(e.platforms) ? e.platforms : []) {
    if (!isObject(p)) {
      out.add(`platform: ${typeOf(p)}`);
      continue;
    }
    out.add(`platform: ${keysOf(p)}`);
    valueShapes(p.value, "platform value", options, out);
    conditionsShapes(p.conditions, "platform condition", options, out);
  }
}

/** A value where it stands (`where`: "value", "condition value", ...): its form, and the forms of its entries. */
function valueShapes(v: Json | undefined, where: string, options: Json[] | undefined, out: Set<string>): void {
  if (!Array.isArray(v) || v.length === 0) {
    const outside = typeof v === "string" && v !== "" && options !== undefined && !options.includes(v);
    out.add(`${where}: ${typeOf(v)}${outside ? " outside availableValues" : ""}`);
    return;
  }
  const schedule = v.every((x) => isObject(x) && "from" in x);
  out.add(`${where}: ${schedule ? "schedule" : "split"}`);
  for (const entry of v) {
    if (!isObject(entry)) {
      out.add(`${schedule ? "schedule" : "split"} entry: ${typeOf(entry)}`);
      continue;
    }
    out.add(`${schedule ? "schedule" : "split"} entry: ${keysOf(entry)}`);
    if ("option" in entry) {
      const option = entry.option;
      const outside = typeof option === "string" && option !== "" && options !== undefined && !options.includes(option);
      out.add(`${schedule ? "schedule" : "split"} option: ${typeOf(option)}${outside ? " outside availableValues" : ""}`);
    }
  }
}

function conditionsShapes(conditions: Json | undefined, where: string, options: Json[] | undefined, out: Set<string>): void {
  if (conditions === undefined) return;
  if (!Array.isArray(conditions)) {
    out.add(`${where}s: ${typeOf(conditions)}`);
    return;
  }
  for (const c of conditions) {
    if (!isObject(c) || Object.keys(c).length === 0) {
      out.add(`${where}: ${typeOf(c)}`);
      continue;
    }
    const clauses = CLAUSES.filter((k) => c[k] !== undefined);
    out.add(`${where}: ${clauses.length ? clauses.join(" and ") : "no clause"}${"value" in c ? "" : ", no value"}`);
    for (const key of Object.keys(c)) if (!(CLAUSES as readonly string[]).includes(key) && key !== "value") out.add(`condition field: ${key}`);
    if ("value" in c) valueShapes(c.value, `${where} value`, options, out);
    clauseShapes(c, out);
  }
}

function clauseShapes(c: JsonObject, out: Set<string>): void {
  const { dependency, group, version, property } = c;
  if (dependency !== undefined) {
    out.add(isObject(dependency) ? `dependency: ${keysOf(dependency)}, value ${typeOf(dependency.value)}` : `dependency: ${typeOf(dependency)}`);
  }
  if (group !== undefined) {
    if (!isObject(group)) out.add(`group: ${typeOf(group)}`);
    else out.add(`group: operator ${group.operator === undefined ? "absent" : JSON.stringify(group.operator)}, name ${typeOf(group.name)}`);
  }
  if (version !== undefined) {
    if (!isObject(version)) out.add(`version: ${typeOf(version)}`);
    else out.add(`version: ${JSON.stringify(version.operator)}, semver ${versionForm(version.semver)}`);
  }
  if (property !== undefined) propertyTestShapes(property, "property", "name", out);
}

function versionForm(semver: Json | undefined): string {
  if (typeof semver !== "string") return typeOf(semver);
  return /^\d+(\.\d+){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(semver) ? "a version" : "text that is not a version";
}

/** `{name|property, operator, operand}`: the operator with its operand's form; a regex JavaScript cannot compile. */
function propertyTestShapes(test: Json, where: string, nameKey: "name" | "property", out: Set<string>): void {
  if (!isObject(test)) {
    out.add(`${where}: ${typeOf(test)}`);
    return;
  }
  const operator = test.operator;
  out.add(`${where}: ${JSON.stringify(operator)}, operand ${typeOf(test.operand)}`);
  const extra = Object.keys(test).filter((k) => k !== nameKey && k !== "operator" && k !== "operand");
  if (extra.length) out.add(`${where}: fields ${keysOf(test)}`);
  if (typeof operator === "string" && NO_OPERAND.includes(operator) && test.operand !== undefined) out.add(`${where}: an operand for ${operator}`);
  if (operator === "regex" && typeof test.operand === "string" && !compilesInJavaScript(test.operand)) out.add(`${where}: a regex JavaScript cannot compile`);
}

function targetGroupShapes(g: JsonObject, out: Set<string>): void {
  for (const key of Object.keys(g)) out.add(`target group field: ${key}`);
  out.add(`target group operator: ${g.operator === undefined ? "absent" : JSON.stringify(g.operator)}`);
  if (!Array.isArray(g.conditions)) {
    out.add(`target group conditions: ${typeOf(g.conditions)}`);
    return;
  }
  if (g.conditions.length === 0) out.add("target group conditions: []");
  for (const c of g.conditions) propertyTestShapes(c, "target group condition", "property", out);
}

/** The names a record's conditions refer to: target groups, and other flags with the values they compare with. */
export function referencesOf(record: Json): { groups: string[]; flags: { name: string; value: Json }[] } {
  const groups = new Set<string>();
  const flags: { name: string; value: Json }[] = [];
  if (!isObject(record)) return { groups: [], flags };
  const chains: Json[] = [record.conditions ?? null];
  if (Array.isArray(record.platforms)) for (const p of record.platforms) if (isObject(p)) chains.push(p.conditions ?? null);
  for (const chain of chains) {
    if (!Array.isArray(chain)) continue;
    for (const c of chain) {
      if (!isObject(c)) continue;
      const group = c.group;
      if (isObject(group)) {
        const names = Array.isArray(group.name) ? group.name : [group.name];
        for (const n of names) if (typeof n === "string") groups.add(n);
      }
      const dependency = c.dependency;
      if (isObject(dependency) && typeof dependency.flag === "string") flags.push({ name: dependency.flag, value: dependency.value ?? null });
    }
  }
  return { groups: [...groups], flags };
}
