/**
 * The code of the program `pulumi-cloudbees import` writes: values as TypeScript (server text only through
 * `tsString`), `new cloudbees.X(...)` statements within the line width, and unique names derived from ids.
 */
import { tsString } from "./escape";
import { trimCharacter } from "../provider/text/trim";

const MAX_LINE = 120;

/** A value written as code, not as a string literal. */
export class Raw {
  constructor(readonly code: string) {}
}

export function raw(code: string): Raw {
  return new Raw(code);
}

export type Value = string | number | boolean | null | Raw | Value[] | { [key: string]: Value };

export function statement(variable: string | undefined, type: string, name: string, args: { [key: string]: Value }, opts?: { [key: string]: Value }): string {
  const start = `${variable ? `const ${variable} = ` : ""}new cloudbees.${type}(`;
  const parts: Value[] = [name, args, ...(opts ? [opts] : [])];
  const flat = `${start}${parts.map((p) => code(p, 0, true)).join(", ")});`;
  if (flat.length <= MAX_LINE) return flat;
  // The name and the resource options stay on one line; the arguments take one line each.
  return `${start}${parts.map((p, i) => code(p, 0, i !== 1)).join(", ")});`;
}

/** Code for a value: on one line when `flat` (or when it fits), else one item per line. */
function code(value: Value, indent: number, flat: boolean): string {
  if (value instanceof Raw) return value.code;
  if (typeof value === "string") return tsString(value);
  if (value === null || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  const pad = "  ".repeat(indent + 1);
  const end = "  ".repeat(indent);
  if (Array.isArray(value)) {
    const one = `[${value.map((v) => code(v, 0, true)).join(", ")}]`;
    if (flat || one.length + pad.length <= MAX_LINE - 20) return one;
    return `[\n${value.map((v) => `${pad}${code(v, indent + 1, false)},`).join("\n")}\n${end}]`;
  }
  const entries = Object.entries(value).map(([k, v]) => [/^[A-Za-z_$][\w$]*$/.test(k) ? k : tsString(k), v] as const);
  if (entries.length === 0) return "{}";
  const one = `{ ${entries.map(([k, v]) => `${k}: ${code(v, 0, true)}`).join(", ")} }`;
  if (flat) return one;
  return `{\n${entries.map(([k, v]) => `${pad}${k}: ${code(v, indent + 1, false)},`).join("\n")}\n${end}}`;
}

/** Resource names and variable names derived from ids, unique (a suffix -2, -3... on a clash). */
export class Names {
  private readonly used = new Map<string, Set<string>>();

  resource(type: string, id: string): string {
    const base = trimCharacter(id.replace(/[^A-Za-z0-9._-]+/g, "-"), "-") || "resource";
    return this.unique(type, base, (n) => `${base}-${n}`);
  }

  variable(id: string, suffix: string): string {
    const words = id.split(/[^A-Za-z0-9]+/).filter(Boolean);
    const camel = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join("");
    const base = `${/^[0-9]/.test(camel) ? "_" : ""}${camel}${suffix}`;
    return this.unique("variable", base, (n) => `${base}${n}`);
  }

  private unique(space: string, base: string, numbered: (n: number) => string): string {
    let set = this.used.get(space);
    if (!set) this.used.set(space, (set = new Set()));
    let name = base;
    for (let n = 2; set.has(name); n++) name = numbered(n);
    set.add(name);
    return name;
  }
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
