import { FlagApiError } from "./feature-flag-validation";

/**
 * RFC 6902 JSON Patch over a JSON document (X4's body), with RFC 6901 pointers. A malformed operation or a path that
 * does not resolve is a 400 naming the operation; a `test` that does not hold is a 409 (RFC 5789's "conflicting
 * state"). The document given is never changed: the patched copy is returned.
 */

const OPS = ["add", "remove", "replace", "move", "copy", "test"] as const;
type Op = (typeof OPS)[number];

type Container = Record<string, unknown> | unknown[];

export function applyJsonPatch(document: unknown, patch: unknown, maxOperations: number): unknown {
  if (!Array.isArray(patch)) throw bad("body", "a JSON Patch is an array of operations, e.g. [{\"op\":\"replace\",\"path\":\"/enabled\",\"value\":false}]");
  if (patch.length === 0) throw bad("body", "the JSON Patch has no operation");
  if (patch.length > maxOperations) throw bad("body", `more than ${maxOperations} operations`);
  let doc = structuredClone(document);
  patch.forEach((operation, i) => {
    doc = applyOne(doc, operation, `patch[${i}]`);
  });
  return doc;
}

function applyOne(doc: unknown, operation: unknown, field: string): unknown {
  if (typeof operation !== "object" || operation === null || Array.isArray(operation)) throw bad(field, "must be an object {op, path, ...}");
  const o = operation as Record<string, unknown>;
  if (typeof o.op !== "string" || !(OPS as readonly string[]).includes(o.op)) throw bad(`${field}.op`, `must be one of ${OPS.join(", ")}`);
  const op = o.op as Op;
  const path = pointer(o.path, `${field}.path`);
  const needsValue = op === "add" || op === "replace" || op === "test";
  if (needsValue && !("value" in o)) throw bad(`${field}.value`, `"${op}" needs a value`);
  const from = op === "move" || op === "copy" ? pointer(o.from, `${field}.from`) : undefined;

  switch (op) {
    case "add":
      return add(doc, path, structuredClone(o.value), field);
    case "remove":
      return remove(doc, path, field).doc;
    case "replace":
      get(doc, path, field);
      return add(remove(doc, path, field).doc, path, structuredClone(o.value), field);
    case "move": {
      if (path.length > from!.length && from!.every((t, i) => t === path[i])) throw bad(`${field}.path`, "cannot move a value into itself");
      const taken = remove(doc, from!, `${field}.from`);
      return add(taken.doc, path, taken.value, field);
    }
    case "copy":
      return add(doc, path, structuredClone(get(doc, from!, `${field}.from`)), field);
    case "test":
      if (!deepEqual(get(doc, path, field), o.value)) throw new FlagApiError(409, `${field}: test failed: the value at "${o.path}" is not ${JSON.stringify(o.value)}`);
      return doc;
  }
}

function pointer(value: unknown, field: string): string[] {
  if (typeof value !== "string") throw bad(field, "must be a JSON Pointer string such as \"/enabled\"");
  if (value === "") return [];
  if (!value.startsWith("/")) throw bad(field, `"${value}" is not a JSON Pointer: it must start with "/"`);
  return value
    .slice(1)
    .split("/")
    .map((t) => {
      if (/~[^01]|~$/.test(t)) throw bad(field, `"${value}" has an invalid escape (~0 is "~", ~1 is "/")`);
      return t.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

function get(doc: unknown, path: string[], field: string): unknown {
  let node = doc;
  for (const token of path) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, field, false)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else throw bad(`${field}.path`, `nothing at "/${path.join("/")}"`);
  }
  return node;
}

function add(doc: unknown, path: string[], value: unknown, field: string): unknown {
  if (path.length === 0) return value;
  const parent = get(doc, path.slice(0, -1), field);
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    const index = last === "-" ? parent.length : arrayIndex(parent, last, field, true);
    parent.splice(index, 0, value);
  } else if (isObject(parent)) {
    if (isUnsafeKey(last)) throw bad(`${field}.path`, `"${last}" cannot be a member name`);
    parent[last] = value;
  } else {
    throw bad(`${field}.path`, `the parent of "/${path.join("/")}" is not an object or an array`);
  }
  return doc;
}

function remove(doc: unknown, path: string[], field: string): { doc: unknown; value: unknown } {
  if (path.length === 0) return { doc: undefined, value: doc };
  const parent = get(doc, path.slice(0, -1), field) as Container;
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, last, field, false);
    return { doc, value: parent.splice(index, 1)[0] };
  }
  if (!isObject(parent) || !Object.prototype.hasOwnProperty.call(parent, last)) throw bad(`${field}.path`, `nothing at "/${path.join("/")}"`);
  const value = parent[last];
  delete parent[last];
  return { doc, value };
}

function arrayIndex(array: unknown[], token: string, field: string, forInsert: boolean): number {
  if (!/^(0|[1-9]\d*)$/.test(token)) throw bad(`${field}.path`, `"${token}" is not an array index`);
  const index = Number(token);
  if (index > array.length || (!forInsert && index === array.length)) throw bad(`${field}.path`, `index ${index} is out of bounds (length ${array.length})`);
  return index;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isUnsafeKey(key: string): boolean {
  return key === "__proto__" || key === "constructor" || key === "prototype";
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
}

function bad(field: string, reason: string): FlagApiError {
  return new FlagApiError(400, `${field}: ${reason}`);
}
