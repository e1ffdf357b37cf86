import { printable, quoted } from "../text/printable";
import { ABSENT, canonicalJson, digestOf, EMPTY_MAPPING, PRESENT, shortHash } from "./canonical";
import { isMapping } from "./view";

// How a compared value is written in a comparison's records (the resource's `configuration`, its drift lines): as
// it is, where it cannot hold a secret; as its digest, with the reason, where it can. One form per value, so two
// values are equal exactly when their forms are (the comparison reads the forms), and every form tells its digest
// (digestOfForm), so that records written by an earlier version, all digests, compare with these.
//
//   absent                                   the side lacks the key (ABSENT)
//   "Managed by Pulumi"  ["a","b"]  {"version":"1.2"}  {}
//                                            the value (canonical JSON: keys sorted, lists as sets, scalars as text),
//                                            escaped as every value is (quoted, printable); `{}` is a declared mapping
//   "A long text… (2400 characters, digest 0123456789abcdef)
//                                            a value whose form passes MAX_SHOWN_LENGTH: its start, the value's length
//                                            (the text's, or its canonical JSON's) and its digest
//   318144878b63cdc6 (the credentials section)
//                                            a value that can hold a secret: its digest and why it is not shown
//   318144878b63cdc6                          a record of an earlier version (a digest, no reason)

/** Characters of a value's form at most: longer values keep their start, their length and their digest. */
export const MAX_SHOWN_LENGTH = 200;
const KEPT_START = 150;

/**
 * Names of a field that holds a secret, or may: wider than the comparison's (normalize.ts, which compares them by
 * presence). JCasC knows a secret by its Java type (Attribute.calculateIfSecret: a hudson.util.Secret getter, field or
 * setter), which a YAML name only suggests; an id that names a credential (`credentialsId`) is not one.
 */
const SECRET_NAME = /(password|passwd|passphrase|secret|token|credential|private|apikey|accesskey|key$|^key|keystore|certificate|kubeconfig|cookie|bearer)/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !/id$/i.test(name);
}

/** What JCasC exports in place of a sensitive value it does not encrypt (Scalar.SECRET_VALUE_STRING). */
export const JCASC_MASK = "****";

/** The reason every value is kept when the program marks `input` secret. */
export const programSecretReason = (input: string): string => `the program marks ${input} secret`;

/** Why a compared path's values are kept as digests, or undefined when they can be shown. */
export interface Secrecy {
  /** The program marked an input secret from which the values come (`bundleId`): every value is kept. */
  programSecret?: string;
}

/** The first mapping key inside `value` that names a secret (or credentials), depth first. */
function secretKeyInside(value: unknown, depth = 0): string | undefined {
  if (depth > 64) return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = secretKeyInside(v, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isMapping(value)) return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (isSecretName(k)) return k;
    const found = secretKeyInside(v, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function holds(value: unknown, target: unknown, depth = 0): boolean {
  if (value === target) return true;
  if (depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => holds(v, target, depth + 1));
  return isMapping(value) && Object.values(value).some((v) => holds(v, target, depth + 1));
}

/**
 * Why the values of a path (file, segments as keys.ts writes them, both sides) are kept as digests, or undefined:
 * what the program marks secret; jenkins.yaml's credentials section; a key on the path that names a secret; a secret
 * or variable (compared by presence: normalize.ts); a value JCasC masks (`****`); a value holding a key that names one.
 */
export function hiddenReason(file: string, segments: readonly string[], expected: unknown, running: unknown, secrecy: Secrecy = {}): string | undefined {
  if (secrecy.programSecret !== undefined) return programSecretReason(secrecy.programSecret);
  if (file === "jenkins.yaml" && segments[0] === "credentials") return "the credentials section";
  const named = segments.find((s) => !s.startsWith("[") && !s.startsWith('"') && isSecretName(s.split(" ")[0]!));
  if (named !== undefined) return `"${named}" names a secret`;
  if (holds(expected, PRESENT) || holds(running, PRESENT)) return "a secret or a variable, compared by its presence";
  if (holds(expected, JCASC_MASK) || holds(running, JCASC_MASK)) return "JCasC masks it (****)";
  const inside = secretKeyInside(expected) ?? secretKeyInside(running);
  if (inside !== undefined) return `it holds ${quoted(inside)}, which can hold a secret`;
  return undefined;
}

/** A value as written in a record: ABSENT, the value (bounded), or its digest with `hidden`, the reason. */
export function formOf(value: unknown, hidden: string | undefined): string {
  if (value === undefined || value === null) return ABSENT;
  if (hidden !== undefined) return hiddenForm(digestOf(value), hidden);
  const form = value === EMPTY_MAPPING ? "{}" : typeof value === "string" ? quoted(value) : printable(canonicalJson(value));
  if (form.length <= MAX_SHOWN_LENGTH) return form;
  let start = form.slice(0, KEPT_START);
  // Not in the middle of an escape (`\u20`) or of a surrogate pair.
  start = start.replace(/\\(u[0-9a-fA-F]{0,3})?$/, "").replace(/[\ud800-\udbff]$/, "");
  const size = typeof value === "string" ? value.length : canonicalJson(value).length;
  return `${start}… (${size} characters, digest ${digestOf(value)})`;
}

/** A digest that stands for a value, with why the value is not shown. */
export function hiddenForm(digest: string, reason: string): string {
  return digest === ABSENT ? ABSENT : `${digest} (${reason})`;
}

const HEX = /^[0-9a-f]{16}$/;
const HIDDEN = /^([0-9a-f]{16}) \((.*)\)$/s;
const CUT = /… \(\d+ characters, digest ([0-9a-f]{16})\)$/;
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"/g;

/** The reason a form gives for a digest, or undefined (a value shown, ABSENT, or an earlier version's digest). */
export function reasonOfForm(form: string): string | undefined {
  return HIDDEN.exec(form)?.[2];
}

/** Whether a form is a digest without its value (hidden, or an earlier version's record). */
export function isDigestForm(form: string): boolean {
  return HEX.test(form) || HIDDEN.test(form);
}

/**
 * The digest a form stands for (digestOf of its value), or undefined for text that is no form. The canonical JSON of a
 * form shown whole is its text with each string read back (printable's escapes are JSON's).
 */
export function digestOfForm(form: string): string | undefined {
  if (form === ABSENT) return ABSENT;
  if (HEX.test(form)) return form;
  const hidden = HIDDEN.exec(form);
  if (hidden) return hidden[1];
  const cut = CUT.exec(form);
  if (cut) return cut[1];
  if (form === "{}") return digestOf(EMPTY_MAPPING);
  try {
    return shortHash(form.replace(STRING_TOKEN, (token) => JSON.stringify(JSON.parse(token) as string)));
  } catch {
    return undefined;
  }
}

/**
 * Whether two records hold the same values, whatever form each was written in (an earlier version's digests, a value
 * shown, its digest kept): the same keys, and for each the same digest.
 */
export function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    const x = a[k];
    const y = b[k];
    if (x === y) return true;
    if (typeof x !== "string" || typeof y !== "string") return false;
    const dx = digestOfForm(x);
    return dx !== undefined && dx === digestOfForm(y);
  });
}
