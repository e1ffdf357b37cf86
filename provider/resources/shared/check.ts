import { controlCharacterIn, fullPathProblem, tooLong } from "../../clients/inputs";
import { MAX_ID_LENGTH, MAX_LIST_LENGTH, MAX_PATH_LENGTH } from "../../clients/limits";
import { bounded } from "../../http/response-text";
import { printable, quoted } from "../../text/printable";
import { quotedUrl } from "../../http/url";
import type { CheckFailure, CheckResult, Props } from "./types";
import { isUnknown, PROVIDER_KEY } from "./values";
import { trimCharacter } from "../../text/trim";
import { credentialTexts, hiddenTextsOf, withoutTexts, type InputKind } from "../../text/credentials";

/** Longest reason of one check failure: the host must deliver every failure whatever the input was. */
const MAX_REASON_LENGTH = 1000;

/**
 * Input validation for `check`: each rule records a failure `{property, reason}` whose reason names the input and
 * says what to write instead. A value not known yet (preview) passes every rule: it is checked again at `up`.
 *
 * `knownInputs` are the resource's inputs (its types.ts `INPUT_KEYS`): any other field fails, with the nearest
 * known name, and is left out of the checked inputs, so that a typo is never stored and silently ignored.
 */
export class InputChecker {
  readonly failures: CheckFailure[] = [];
  /** Inputs accepted though odd (a form the service takes that may not do what was meant): said, not refused. */
  readonly warnings: CheckFailure[] = [];
  /**
   * What the inputs checked as URLs or local paths are (InputKind; the others are names): what a failure about one
   * may show of its value. Set by their rule before it fails anything.
   */
  private readonly kinds = new Map<string, InputKind>();
  /** The texts of each input that hold a credential, read once however many failures are about it. */
  private readonly credentials = new Map<string, string[]>();

  constructor(
    private readonly news: Props,
    private readonly knownInputs: readonly string[],
  ) {
    for (const key of Object.keys(news)) {
      if (key === PROVIDER_KEY || knownInputs.includes(key)) continue;
      const near = nearest(key, knownInputs);
      this.fail(
        key,
        `unknown input ${key}${near ? `; did you mean ${near}?` : ""} (the inputs are ${knownInputs.join(", ")})`,
      );
    }
  }

  /**
   * Records a failure; the values it quotes are shown with their control characters escaped (printable). About an
   * input whose value holds a credential, it names no property and leaves the value out (withoutCredential).
   */
  fail(property: string, reason: string): void {
    this.failures.push(this.record(property, reason));
  }

  /** Records a warning: the input is accepted, and the reason says what it will do. */
  warn(property: string, reason: string): void {
    this.warnings.push(this.record(property, reason));
  }

  private record(property: string, reason: string): CheckFailure {
    // An unknown input's name may hold a `.` or a `[`: the engine prints the value of that key as it is.
    const input = Object.prototype.hasOwnProperty.call(this.news, property) ? property : inputOf(property);
    const kind = this.kinds.get(input) ?? "name";
    const key = `${kind}:${input}`;
    const texts = this.credentials.get(key) ?? hiddenTextsOf(this.news[input], kind);
    this.credentials.set(key, texts);
    const f = texts.length ? valueLeftOut({ property, reason }, texts) : { property, reason };
    return { property: bounded(printable(f.property), 100), reason: bounded(printable(f.reason), MAX_REASON_LENGTH) };
  }

  /** What check returns: the known inputs as given (`__provider` included), and the failures. */
  result(inputs: Props = this.news): CheckResult {
    const known: Props = {};
    for (const [k, v] of Object.entries(inputs)) if (k === PROVIDER_KEY || this.knownInputs.includes(k)) known[k] = v;
    return { inputs: known, failures: this.failures };
  }

  has(property: string): boolean {
    return this.news[property] !== undefined && this.news[property] !== null;
  }

  unknown(property: string): boolean {
    return isUnknown(this.news[property]);
  }

  /** A non-empty string without surrounding spaces, of at most `maxLength` characters. `example` goes into the reason. */
  text(property: string, opts: { required: boolean; example: string; maxLength?: number }): string | undefined {
    const v = this.news[property];
    if (v === undefined || v === null) {
      if (opts.required) this.fail(property, `${property} is required: give it, e.g. ${property}: "${opts.example}"`);
      return undefined;
    }
    if (isUnknown(v)) return undefined;
    if (typeof v !== "string") {
      this.fail(property, `${property} must be a string, got ${describe(v)}: e.g. ${property}: "${opts.example}"`);
      return undefined;
    }
    if (v.trim() === "") {
      this.fail(property, `${property} must not be empty: give it, e.g. ${property}: "${opts.example}"`);
      return undefined;
    }
    const max = opts.maxLength ?? MAX_ID_LENGTH;
    if (v.length > max) {
      this.fail(property, `${property} ${tooLong(v, max)}: e.g. ${property}: "${opts.example}"`);
      return undefined;
    }
    const problem = controlCharacterProblem(v);
    if (problem) {
      this.fail(property, `${property} ${quoted(v)} ${problem}`);
      return undefined;
    }
    if (v.trim() !== v) {
      this.fail(property, `${property} ${quoted(v)} has leading or trailing spaces: write ${quoted(v.trim())}`);
      return undefined;
    }
    return v;
  }

  boolean(property: string, opts: { required: boolean }): boolean | undefined {
    const v = this.news[property];
    if (v === undefined || v === null) {
      if (opts.required) this.fail(property, `${property} is required: set it to true or false`);
      return undefined;
    }
    if (isUnknown(v)) return undefined;
    if (typeof v !== "boolean") {
      this.fail(property, `${property} must be true or false, got ${describe(v)}`);
      return undefined;
    }
    return v;
  }

  /** A whole number from 1 to `max` (a count of seconds, say). */
  positiveInteger(property: string, opts: { required: boolean; example: number; max: number }): number | undefined {
    const v = this.news[property];
    if (v === undefined || v === null) {
      if (opts.required) this.fail(property, `${property} is required: give it, e.g. ${property}: ${opts.example}`);
      return undefined;
    }
    if (isUnknown(v)) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > opts.max) {
      this.fail(property, `${property} must be a whole number from 1 to ${opts.max}, got ${describe(v)}: e.g. ${property}: ${opts.example}`);
      return undefined;
    }
    return v;
  }

  /**
   * `triggers`, as pulumi-command has it: any list of values; a change of any of them runs the action again. A list
   * whose items are not known yet passes (the item is compared at the next diff).
   */
  triggers(property = "triggers"): void {
    const v = this.news[property];
    if (v === undefined || v === null || isUnknown(v)) return;
    if (!Array.isArray(v)) {
      this.fail(property, `${property} must be a list of values whose change runs the action again, got ${describe(v)}: e.g. ${property}: [bundle.contentHash]`);
    } else {
      this.listLength(property, v);
    }
  }

  /** Fails a list longer than `max` (default MAX_LIST_LENGTH); true when it fits. */
  listLength(property: string, list: unknown[], max: number = MAX_LIST_LENGTH): boolean {
    if (list.length <= max) return true;
    this.fail(property, `${property} has ${list.length} items; at most ${max} are allowed`);
    return false;
  }

  /** A list of non-empty strings (items not known yet pass). `example` is one item. */
  stringList(property: string, opts: { required: boolean; example: string }): string[] | undefined {
    const v = this.news[property];
    if (v === undefined || v === null) {
      if (opts.required) this.fail(property, `${property} is required: give it, e.g. ${property}: ["${opts.example}"]`);
      return undefined;
    }
    if (isUnknown(v)) return undefined;
    if (!Array.isArray(v)) {
      this.fail(property, `${property} must be a list, got ${describe(v)}: e.g. ${property}: ["${opts.example}"]`);
      return undefined;
    }
    if (v.length === 0) {
      this.fail(property, `${property} must not be empty: give at least one, e.g. ${property}: ["${opts.example}"], or leave it out`);
      return undefined;
    }
    if (!this.listLength(property, v)) return undefined;
    let ok = true;
    v.forEach((item, i) => {
      if (isUnknown(item)) {
        ok = false;
      } else if (typeof item !== "string" || item.trim() === "" || item.trim() !== item || item.length > MAX_ID_LENGTH) {
        this.fail(property, `${property}[${i}] must be a non-empty string without surrounding spaces, of at most ${MAX_ID_LENGTH} characters, got ${describe(item)}: e.g. "${opts.example}"`);
        ok = false;
      } else {
        const problem = controlCharacterProblem(item);
        if (problem) this.fail(property, `${property}[${i}] "${item}" ${problem}`);
        ok &&= problem === undefined;
      }
    });
    return ok ? (v as string[]) : undefined;
  }

  /**
   * The base URL of an operations center or a controller, with its prefix: `https://ci.example.com/team-a/`. No
   * credentials inside (they would land in the state), no query or fragment (paths are appended to it).
   */
  instanceUrl(property: string): string | undefined {
    this.kinds.set(property, "url");
    const v = this.text(property, { required: false, example: "https://ci.example.com/team-a/", maxLength: MAX_PATH_LENGTH });
    if (v === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      this.fail(property, `${property} "${quotedUrl(v)}" is not a URL: give the instance's base URL with its prefix, e.g. ${property}: "https://ci.example.com/team-a/"`);
      return undefined;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      this.fail(property, `${property} "${quotedUrl(v)}" must be an http(s) URL, e.g. "https://ci.example.com/team-a/"`);
      return undefined;
    }
    if (url.username || url.password) {
      this.fail(
        property,
        `${property} must not hold credentials (they would be stored in the state in plain text): write ` +
          `"${url.protocol}//${url.host}${url.pathname}" and set cloudbees:username and cloudbees:apiToken (pulumi config set --secret cloudbees:apiToken <token>)`,
      );
      return undefined;
    }
    if (url.search || url.hash) {
      this.fail(property, `${property} "${quotedUrl(v)}" must not have a query or fragment: write "${url.protocol}//${url.host}${url.pathname}"`);
      return undefined;
    }
    return v;
  }

  /** A text input that is a full item path (a controller's or a folder's): `folder1/controller1`. */
  fullPathText(property: string, opts: { required: boolean; example: string }): string | undefined {
    const v = this.text(property, { ...opts, maxLength: MAX_PATH_LENGTH });
    return v !== undefined && this.fullPath(property, v) ? v : undefined;
  }

  /** A local file path (relative to the program's folder): never a credential, shown in full in its failures. */
  filePath(property: string, opts: { required: boolean; example: string }): string | undefined {
    this.kinds.set(property, "path");
    return this.text(property, { ...opts, maxLength: MAX_PATH_LENGTH });
  }

  /** A controller's full path as the operations center names it: `folder1/controller1`. */
  fullPath(property: string, value: string): boolean {
    const problem = fullPathProblem(value);
    if (problem) {
      const fixed = trimCharacter(value.trim(), "/").replace(/\/{2,}/g, "/");
      this.fail(property, `${property}: ${problem}${fixed && fixed !== value ? `; write "${fixed}"` : ""}`);
      return false;
    }
    return true;
  }
}

/**
 * A failure about an input whose value holds a credential, told without the value: the engine prints the value of the
 * property a failure names (pulumi/pulumi step_generator.go issueCheckFailures, "property %v value %v has a
 * problem"), so the failure names none, and its reason, which names the input, shows the value hidden. Any other
 * failure is returned as it is.
 */
export function withoutCredential(f: CheckFailure, value: unknown, asUrl = false): CheckFailure {
  const texts = credentialTexts(value, asUrl);
  return texts.length ? valueLeftOut(f, texts) : f;
}

/** The failure naming no property, its reason naming the input and showing none of `texts` (a value's). */
export function valueLeftOut(f: CheckFailure, texts: string[]): CheckFailure {
  const input = inputOf(f.property);
  const reason = f.reason.includes(input) ? f.reason : `${f.property}: ${f.reason}`;
  return { property: "", reason: withoutTexts(reason, texts) };
}

/** The top-level input a failure's property is about: `rules` for `rules[0].operand`. */
function inputOf(property: string): string {
  return property.split(/[.[]/, 1)[0]!;
}

/**
 * Why a name or id cannot be used when it holds a control character (C0, DEL, C1), or undefined: one rule for every
 * text input, so that no name can forge a line of a log or an error. The caller quotes the value (escaped by fail).
 */
export function controlCharacterProblem(value: string): string | undefined {
  const control = controlCharacterIn(value);
  return control ? `holds a control character (${control}): names and ids cannot carry one; remove it` : undefined;
}

/** A value as a reason quotes it: short, whatever its size. */
function describe(v: unknown): string {
  if (Array.isArray(v)) return "a list";
  const text = typeof v === "string" ? quoted(v) : `${typeof v} ${JSON.stringify(v)}`;
  return text.length > 80 ? `${text.slice(0, 60)}... (${text.length} characters)` : text;
}

/** The known name closest to `name` (edit distance, case-insensitive), when close enough to be a typo. */
export function nearest(name: string, known: readonly string[]): string | undefined {
  const lower = name.slice(0, 100).toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const k = key.toLowerCase();
    // A prefix (timeout for timeoutSeconds) is as near as a typo.
    const prefix = lower.length >= 3 && (k.startsWith(lower) || lower.startsWith(k));
    const distance = prefix ? 1 : editDistance(lower, k);
    if (!best || distance < best.distance) best = { key, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(best.key.length / 3)) ? best.key : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
