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
