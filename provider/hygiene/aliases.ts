/**
 * The spellings a flag's name takes in code (issue 64, code references): the name itself, its case transforms, the
 * case transforms of its last segment when the name is namespaced (`checkout.newFlow`: the vendor's SDK names a flag
 * `<namespace>.<property>`, so code holds `newFlow` as a container's property), and the literal aliases the user
 * gives. LaunchDarkly's ld-find-code-refs is the model (docs/ALIASES.md: literal aliases and case transforms).
 *
 * Words are split at every character that is not a letter or a digit and at case changes (`newFlow`, `HTMLParser`
 * -> `HTML`, `Parser`); digits stay with the word before them (`flag017`).
 */
import { quoted } from "../text/printable";

/** The case transforms, in the order a hit names the first one that gives a spelling. */
export const CASE_STYLES = ["camelCase", "snake_case", "kebab-case", "UPPER_SNAKE"] as const;
export type CaseStyle = (typeof CASE_STYLES)[number];

/** How a spelling came about: the name as written, a case transform of it or of its last segment, or the user's. */
export type AliasKind = "name" | "literal" | CaseStyle | "segment" | `segment ${CaseStyle}`;

export interface Alias {
  /** The flag's name as the service knows it. */
  flag: string;
  /** The spelling looked for. */
  text: string;
  kind: AliasKind;
}

export interface AliasOptions {
  /** The case transforms to look for; default all of CASE_STYLES. `[]`: the names as written only. */
  cases?: readonly CaseStyle[];
  /** Whether the last segment of a namespaced name is looked for in its case transforms too; default true. */
  segments?: boolean;
  /** Spellings the user gives, by flag name (as ld-find-code-refs' `literal` aliases). */
  literal?: Readonly<Record<string, readonly string[]>>;
}

/** The words of a name: split at non-alphanumerics and at case changes, digits kept with the word before them. */
export function wordsOf(name: string): string[] {
  const words: string[] = [];
  for (const part of name.split(/[^A-Za-z0-9]+/)) {
    // A lower-case letter or a digit before an upper-case one ends a word; so does the last capital of an acronym
    // before a capitalized word (HTMLParser -> HTML Parser).
    for (const w of part.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) if (w !== "") words.push(w);
  }
  return words;
}

const capitalized = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();

/** `name` in one case style: `checkout.new-flow` is checkoutNewFlow, checkout_new_flow, checkout-new-flow, CHECKOUT_NEW_FLOW. */
export function inCase(name: string, style: CaseStyle): string {
  const words = wordsOf(name);
  switch (style) {
    case "camelCase":
      return words.map((w, i) => (i === 0 ? w.toLowerCase() : capitalized(w))).join("");
    case "snake_case":
      return words.map((w) => w.toLowerCase()).join("_");
    case "kebab-case":
      return words.map((w) => w.toLowerCase()).join("-");
    case "UPPER_SNAKE":
      return words.map((w) => w.toUpperCase()).join("_");
  }
}

/** The last segment of a namespaced name (`checkout.newFlow` -> `newFlow`), or undefined for a name without one. */
export function lastSegment(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1) : undefined;
}

/**
 * Every spelling of every flag, each once per flag (the first kind that gives it wins: the name, a literal alias,
 * the case transforms, then the segment as written and its case transforms). Empty spellings are dropped. Two flags may share a spelling (`newFlow`
 * for `checkout.newFlow` and `cart.newFlow`): both are listed, and a hit on it counts for both.
 */
export function aliasesOf(flags: readonly string[], options: AliasOptions = {}): Alias[] {
  const cases = options.cases ?? CASE_STYLES;
  for (const style of cases) if (!CASE_STYLES.includes(style)) throw new Error(`unknown case style ${quoted(style)}: one of ${CASE_STYLES.join(", ")}`);
  const out: Alias[] = [];
  for (const flag of new Set(flags)) {
    const seen = new Set<string>();
    const add = (text: string, kind: AliasKind) => {
      if (text === "" || seen.has(text)) return;
      seen.add(text);
      out.push({ flag, text, kind });
    };
    add(flag, "name");
    for (const text of options.literal?.[flag] ?? []) add(text, "literal");
    for (const style of cases) add(inCase(flag, style), style);
    const segment = options.segments === false ? undefined : lastSegment(flag);
    if (segment === undefined) continue;
    add(segment, "segment");
    for (const style of cases) add(inCase(segment, style), `segment ${style}`);
  }
  return out;
}
