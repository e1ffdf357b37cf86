import { fullPathProblem } from "../../clients/inputs";
import type { CheckFailure, Props } from "./types";
import { isUnknown } from "./values";

/**
 * Input validation for `check`: each rule records a failure `{property, reason}` whose reason names the input and
 * says what to write instead. A value not known yet (preview) passes every rule: it is checked again at `up`.
 */
export class InputChecker {
  readonly failures: CheckFailure[] = [];

  constructor(private readonly news: Props) {}

  fail(property: string, reason: string): void {
    this.failures.push({ property, reason });
  }

  has(property: string): boolean {
    return this.news[property] !== undefined && this.news[property] !== null;
  }

  unknown(property: string): boolean {
    return isUnknown(this.news[property]);
  }

  /** A non-empty string without surrounding spaces. `example` goes into the reason. */
  text(property: string, opts: { required: boolean; example: string }): string | undefined {
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
    if (v.trim() !== v) {
      this.fail(property, `${property} "${v}" has leading or trailing spaces: write "${v.trim()}"`);
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

  /** A whole number >= 1 (a count of seconds, say). */
  positiveInteger(property: string, opts: { required: boolean; example: number }): number | undefined {
    const v = this.news[property];
    if (v === undefined || v === null) {
      if (opts.required) this.fail(property, `${property} is required: give it, e.g. ${property}: ${opts.example}`);
      return undefined;
    }
    if (isUnknown(v)) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      this.fail(property, `${property} must be a whole number of at least 1, got ${describe(v)}: e.g. ${property}: ${opts.example}`);
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
    }
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
    let ok = true;
    v.forEach((item, i) => {
      if (isUnknown(item)) {
        ok = false;
      } else if (typeof item !== "string" || item.trim() === "" || item.trim() !== item) {
        this.fail(property, `${property}[${i}] must be a non-empty string without surrounding spaces, got ${describe(item)}: e.g. "${opts.example}"`);
        ok = false;
      }
    });
    return ok ? (v as string[]) : undefined;
  }

  /**
   * The base URL of an operations center or a controller, with its prefix: `https://ci.example.com/team-a/`. No
   * credentials inside (they would land in the state), no query or fragment (paths are appended to it).
   */
  instanceUrl(property: string): string | undefined {
    const v = this.text(property, { required: false, example: "https://ci.example.com/team-a/" });
    if (v === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      this.fail(property, `${property} "${v}" is not a URL: give the instance's base URL with its prefix, e.g. ${property}: "https://ci.example.com/team-a/"`);
      return undefined;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      this.fail(property, `${property} "${v}" must be an http(s) URL, e.g. "https://ci.example.com/team-a/"`);
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
      this.fail(property, `${property} "${v}" must not have a query or fragment: write "${url.protocol}//${url.host}${url.pathname}"`);
      return undefined;
    }
    return v;
  }

  /** A controller's full path as the operations center names it: `folder1/controller1`. */
  fullPath(property: string, value: string): boolean {
    const problem = fullPathProblem(value);
    if (problem) {
      const fixed = value.trim().replace(/^\/+|\/+$/g, "").replace(/\/{2,}/g, "/");
      this.fail(property, `${property}: ${problem}${fixed && fixed !== value ? `; write "${fixed}"` : ""}`);
      return false;
    }
    return true;
  }
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return "a list";
  return typeof v === "string" ? `"${v}"` : `${typeof v} ${JSON.stringify(v)}`;
}
