/**
 * Property-value conventions of the Pulumi wire protocol, as the engine and the Node SDK encode them
 * (constants from @pulumi/pulumi/runtime/rpc.js).
 */

/** A value not known yet during preview. The engine sends it as this string whatever the field's type (#6310). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Key marking a special object, and the value that marks it as a secret. */
export const SPECIAL_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export interface SecretValue<T = unknown> {
    [SPECIAL_SIG_KEY]: typeof SECRET_SIG;
    value: T;
}

/** Wrap a value as a secret, as the SDK sends `pulumi.secret(v)` to the engine. undefined becomes null. */
export function secret<T>(value: T): SecretValue<T> {
    return { [SPECIAL_SIG_KEY]: SECRET_SIG, value: (value === undefined ? null : value) as T };
}

export function isSecret(v: unknown): v is SecretValue {
    return typeof v === "object" && v !== null && (v as Record<string, unknown>)[SPECIAL_SIG_KEY] === SECRET_SIG;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
    return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Deeply replace secret wrappers by their values (what the engine does for a provider with acceptSecrets=false). */
export function unwrapSecrets<T>(v: T): T {
    if (isSecret(v)) return unwrapSecrets(v.value) as T;
    if (Array.isArray(v)) return v.map(unwrapSecrets) as T;
    if (isPlainObject(v)) {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) out[k] = unwrapSecrets(x);
        return out as T;
    }
    return v;
}

export function containsSecrets(v: unknown): boolean {
    if (isSecret(v)) return true;
    if (Array.isArray(v)) return v.some(containsSecrets);
    if (isPlainObject(v)) return Object.values(v).some(containsSecrets);
    return false;
}

export function containsUnknowns(v: unknown): boolean {
    if (v === UNKNOWN) return true;
    if (Array.isArray(v)) return v.some(containsUnknowns);
    if (isPlainObject(v)) return Object.values(v).some(containsUnknowns);
    return false;
}

/**
 * Make a value representable as a google.protobuf.Struct the way the SDK serializes program inputs: object keys
 * holding undefined are dropped, undefined array elements become null. Anything Struct cannot carry (functions,
 * Dates, class instances, bigint, symbols) is rejected here with a path instead of the host's opaque
 * "Unexpected struct type".
 */
export function normalizeForWire(v: unknown, at = "$"): unknown {
    if (v === null || typeof v === "string" || typeof v === "boolean") return v;
    if (typeof v === "number") {
        if (!Number.isFinite(v)) throw new TypeError(`${at}: ${v} cannot be sent in a protobuf Struct`);
        return v;
    }
    if (Array.isArray(v)) return v.map((x, i) => (x === undefined ? null : normalizeForWire(x, `${at}[${i}]`)));
    if (isPlainObject(v)) {
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) {
            throw new TypeError(`${at}: ${proto?.constructor?.name ?? "object"} instance cannot be sent in a protobuf Struct`);
        }
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) {
            if (x !== undefined) out[k] = normalizeForWire(x, `${at}.${k}`);
        }
        return out;
    }
    throw new TypeError(`${at}: ${typeof v} cannot be sent in a protobuf Struct`);
}

/** Deep equality of two wire values, ignoring secretness (the engine compares plain values when diffing). */
export function deepEqual(a: unknown, b: unknown): boolean {
    a = isSecret(a) ? unwrapSecrets(a) : a;
    b = isSecret(b) ? unwrapSecrets(b) : b;
    if (a === b) return true;
    if (Array.isArray(a) && Array.isArray(b)) {
        return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
    }
    if (isPlainObject(a) && isPlainObject(b)) {
        const ka = Object.keys(a).filter((k) => a[k] !== undefined);
        const kb = Object.keys(b).filter((k) => b[k] !== undefined);
        return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
    }
    return false;
}

/** Top-level keys whose values differ between two property maps (sorted). */
export function changedKeys(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
    const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
    return [...keys].filter((k) => !deepEqual(olds[k], news[k])).sort();
}

/**
 * provider_plugin.go annotateSecrets: for a provider that cannot take secrets, an output whose key held a secret
 * input is marked secret again (recursing where both sides are objects). Returns a new object.
 */
export function annotateSecrets(outs: Record<string, unknown>, ins: Record<string, unknown>): Record<string, unknown> {
    const result: Record<string, unknown> = { ...outs };
    for (const [key, inValue] of Object.entries(ins)) {
        if (!(key in result)) continue;
        const outValue = result[key];
        if (isPlainObject(outValue) && !isSecret(outValue) && isPlainObject(inValue) && !isSecret(inValue)) {
            result[key] = annotateSecrets(outValue, inValue);
        } else if (!isSecret(outValue) && containsSecrets(inValue)) {
            result[key] = secret(outValue);
        }
    }
    return result;
}
