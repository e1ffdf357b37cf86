/**
 * Property paths between what a program declares and what a refresh read, written as the engine writes them
 * (`value[0].percentage`, `configuration["jenkins.yaml"]`), and values cut to the report's bounds. Dynamic providers
 * return no detailed diff, so the paths are found here by comparing the two sides leaf by leaf.
 */
import { MAX_VALUE_CHARS, type ReportValue } from "./report";

/** Keys the dynamic providers keep in their state that are not the program's inputs. */
const INTERNAL_KEYS = new Set(["__provider", "__declaredInputs"]);

/** The Pulumi SDK's signature of a secret value: it never reaches the report unmasked. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

export interface PathChange {
  path: string;
  kind: "add" | "delete" | "update";
}

export function joinKey(parent: string, key: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** The leaf paths where `declared` and `actual` differ: add (declared only), delete (actual only), update. */
export function changedPaths(declared: unknown, actual: unknown, parent = ""): PathChange[] {
  if (isObject(declared) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(declared), ...Object.keys(actual)])].filter((k) => !(parent === "" && INTERNAL_KEYS.has(k)));
    return keys.flatMap((k) => {
      const p = joinKey(parent, k);
      if (!(k in actual)) return [{ path: p, kind: "add" as const }];
      if (!(k in declared)) return [{ path: p, kind: "delete" as const }];
      return changedPaths(declared[k], actual[k], p);
    });
  }
  if (Array.isArray(declared) && Array.isArray(actual)) {
    const changes: PathChange[] = [];
    for (let i = 0; i < Math.max(declared.length, actual.length); i++) {
      const p = `${parent}[${i}]`;
      if (i >= actual.length) changes.push({ path: p, kind: "add" });
      else if (i >= declared.length) changes.push({ path: p, kind: "delete" });
      else changes.push(...changedPaths(declared[i], actual[i], p));
    }
    return changes;
  }
  return JSON.stringify(declared) === JSON.stringify(actual) ? [] : [{ path: parent, kind: "update" }];
}

/** The value at an engine path (`a.b[0]["c.d"]`), or undefined. */
export function valueAt(root: unknown, path: string): unknown {
  let v: unknown = root;
  const re = /(?:^|\.)([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < path.length && (m = re.exec(path))) {
    at = re.lastIndex;
    const key = m[1] ?? (m[2] !== undefined ? Number(m[2]) : (JSON.parse(m[3]!) as string));
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return at === path.length ? v : undefined;
}

/** A value for the report: secrets masked, long text cut (its JSON past MAX_VALUE_CHARS ends with "…"). */
export function reportValue(value: unknown): ReportValue | undefined {
  if (value === undefined) return undefined;
  const masked = mask(value);
  const text = JSON.stringify(masked);
  if (text === undefined) return undefined;
  if (text.length <= MAX_VALUE_CHARS) return masked;
  return `${text.slice(0, MAX_VALUE_CHARS)}… (${text.length} characters)`;
}

function mask(value: unknown): ReportValue {
  if (Array.isArray(value)) return value.map(mask);
  if (isObject(value)) {
    if (value[SECRET_SIG] === "1b47061264138c4ac30d75fd1eb44270") return "[secret]";
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, mask(value[k])]));
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string" || value === null) return value;
  return String(value);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
