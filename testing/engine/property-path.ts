/**
 * Property paths as the engine reads `ignoreChanges` and `replaceOnChanges` (pulumi/pulumi
 * sdk/go/common/resource/property_path.go: ParsePropertyPath, PropertyPath.Reset, PropertyPath.Contains):
 * `a.b`, `a[0]`, `a["b.c"]`, `a[*]`, `*`.
 */
import { isSecret, secret } from "./values";

export type PropertyPath = Array<string | number>;

/** ParsePropertyPath; throws on a malformed path. */
export function parsePropertyPath(text: string): PropertyPath {
    const path: PropertyPath = [];
    let i = 0;
    const bad = (why: string) => new Error(`invalid property path "${text}": ${why}`);
    while (i < text.length) {
        if (text[i] === "[") {
            const close = text.indexOf("]", i);
            if (close < 0) throw bad("missing closing bracket");
            const inner = text.slice(i + 1, close);
            if (inner.startsWith('"')) {
                // A quoted key: find the closing quote (backslash escapes), then the bracket after it.
                let j = i + 2;
                let key = "";
                for (; j < text.length && text[j] !== '"'; j++) {
                    if (text[j] === "\\" && j + 1 < text.length) j++;
                    key += text[j];
                }
                if (text[j + 1] !== "]") throw bad("a quoted key must be followed by ]");
                path.push(key);
                i = j + 2;
            } else if (inner === "*") {
                path.push("*");
                i = close + 1;
            } else {
                if (!/^\d+$/.test(inner)) throw bad(`"${inner}" is not an array index`);
                path.push(Number(inner));
                i = close + 1;
            }
            if (text[i] === ".") i++;
        } else {
            let j = i;
            while (j < text.length && text[j] !== "." && text[j] !== "[") j++;
            if (j === i) throw bad("empty key");
            path.push(text.slice(i, j));
            i = text[j] === "." ? j + 1 : j;
        }
    }
    if (path.length === 0) throw bad("empty path");
    return path;
}

/** PropertyPath.Contains: `p` names `other` or something above it (`*` matches any key or index). */
export function pathContains(p: PropertyPath, other: PropertyPath): boolean {
    if (p.length > other.length) return false;
    return p.every((k, i) => k === "*" || k === other[i]);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v) && !isSecret(v);
/** A secret wrapper's value, by reference (so that a change to it changes the wrapped value). */
const inner = (v: unknown): unknown => (isSecret(v) ? (v as { value: unknown }).value : v);

/**
 * PropertyPath.Reset: the value at `path` in `news` becomes the one in `olds` (removed when `olds` has none),
 * without creating intermediate objects or array slots. Changes `news` in place (the objects and arrays along the
 * path included); false on a path error (an element missing on one side only).
 */
export function resetPath(path: PropertyPath, olds: Obj, news: Obj): boolean {
    return reset(path, olds, news, false, false);
}

function reset(p: PropertyPath, oldV: unknown, newV: unknown, oldSecret: boolean, newSecret: boolean): boolean {
    oldSecret ||= isSecret(oldV);
    newSecret ||= isSecret(newV);
    const o = inner(oldV);
    const n = inner(newV);
    const key = p[0]!;
    const leaf = p.length === 1;
    const carry = (v: unknown) => {
        // A copy: a later path through it must not change the old inputs.
        const own = v === undefined ? v : (JSON.parse(JSON.stringify(v)) as unknown);
        return oldSecret && !newSecret && !isSecret(own) ? secret(own) : own;
    };
    if (typeof key === "number") {
        const oa = Array.isArray(o), na = Array.isArray(n);
        if (!oa || !na) return !oa && !na;
        const ol = (o as unknown[]).length, nl = (n as unknown[]).length;
        if (leaf) {
            if (key >= ol && key >= nl) return true;
            if (key >= ol || key >= nl) return false;
            (n as unknown[])[key] = carry((o as unknown[])[key]);
            return true;
        }
        if (key >= ol || key >= nl) return false;
        return reset(p.slice(1), (o as unknown[])[key], (n as unknown[])[key], oldSecret, newSecret);
    }
    if (key === "*") {
        if (leaf) {
            if (isObj(n)) {
                if (isObj(o)) {
                    for (const k of Object.keys(o)) n[k] = carry(o[k]);
                    for (const k of Object.keys(n)) if (!(k in o)) delete n[k];
                }
                return true;
            }
            if (Array.isArray(n)) {
                if (Array.isArray(o)) {
                    if (o.length !== n.length) return false;
                    o.forEach((v, i) => (n[i] = carry(v)));
                }
                return true;
            }
            return false;
        }
        if (isObj(o) && isObj(n)) return Object.keys(o).every((k) => k in n && reset(p.slice(1), o[k], n[k], oldSecret, newSecret));
        if (Array.isArray(o) && Array.isArray(n)) return o.length === n.length && o.every((v, i) => reset(p.slice(1), v, n[i], oldSecret, newSecret));
        return false;
    }
    if (leaf) {
        if (isObj(o) && key in o) {
            if (!isObj(n)) return false;
            n[key] = carry(o[key]);
        } else if (isObj(n)) {
            delete n[key];
        }
        return true;
    }
    if (!isObj(o) || !isObj(n)) return !isObj(o) && !isObj(n);
    const hasOld = key in o, hasNew = key in n;
    if (hasOld && !hasNew) return false;
    if (!hasOld && !hasNew) return true;
    return reset(p.slice(1), o[key], n[key], oldSecret, newSecret);
}

/**
 * step_generator.go processIgnoreChanges, as pulumi v3.248.0 runs it: `inputs` is a copy of `news` with every
 * ignored path set back to its value in `olds`. The copy is shallow (PropertyMap.Copy) and Reset sets values in
 * place, so a path below the top level changes the nested objects and arrays of `news` too: the engine sees those
 * changes again when a replacement checks the program's inputs afresh (continueStepsFromDiff: Check with
 * `goal.Properties`), and creates the new object with the old value at a nested ignored path, and the program's at a
 * top-level one. A path that cannot be reset (an element missing on one side) is listed in `invalid`; the engine
 * says so in an info message (`invalidPathsMessage`) and goes on.
 */
export function processIgnoreChanges(news: Obj, olds: Obj, ignoreChanges: string[]): { inputs: Obj; invalid: string[] } {
    const inputs: Obj = { ...news };
    const invalid: string[] = [];
    for (const text of ignoreChanges) {
        let path: PropertyPath;
        try {
            path = parsePropertyPath(text);
        } catch {
            continue; // the engine skips a path it cannot parse
        }
        if (!resetPath(path, olds, inputs)) invalid.push(text);
    }
    return { inputs, invalid };
}

/** The engine's info message for paths processIgnoreChanges could not reset (Go's %q of the list). */
export function invalidPathsMessage(invalid: string[]): string {
    return `cannot ignore changes in added or removed elements of the path: ${JSON.stringify(invalid.join(", "))}`;
}
