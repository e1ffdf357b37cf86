/**
 * Values that hold a credential, or may: a URL with user-info (`https://admin:<token>@host/`) or a query or fragment
 * (`?token=<token>`), and a token typed where a name belongs (a long run of letters and digits mixed as a random
 * token mixes them). A message about such a value must not show it: the checks leave the value out of their
 * failures (resources/shared/check.ts), and the functions out of the call they quote (functions/calls.ts). Which
 * rules apply is decided by what the input is (InputKind): a local path is never one.
 *
 * Every scan is linear in the text: values come from programs and files (an items.yaml of megabytes).
 */
import { printable, quoted } from "./printable";

/** What a message shows instead of a value, or of the part of a text, that holds a credential. */
export const HIDDEN = "<hidden: it holds a credential>";

/** User-info of a URL: `//user:token@`. It cannot cross a `/`, so each match scans one segment once. */
const USER_INFO = /\/\/[^\s/?#@]*@/g;
/**
 * Runs of letters and digits as long as an API token: a Jenkins one is 34 hex digits, others longer. The ids of the
 * feature-flag service (24 hex digits, an environment's also its SDK key) are shorter: they show.
 */
const LONG_RUN = /[A-Za-z0-9]{32,}/g;
/** Changes between a letter and a digit in a run: names have a few (`team2`), random tokens many. */
const TOKEN_CHANGES = 4;
/** Bounds of the walk through a structured value: deeper or further items are not looked at. */
const MAX_DEPTH = 16;
const MAX_STRINGS = 10_000;

function tokenLike(run: string): boolean {
  let changes = 0;
  for (let i = 1; i < run.length && changes < TOKEN_CHANGES; i++) {
    if (isDigit(run[i]!) !== isDigit(run[i - 1]!)) changes++;
  }
  return changes >= TOKEN_CHANGES;
}

const isDigit = (c: string) => c >= "0" && c <= "9";

/** The index of a URL's query or fragment in a word (`https://x/?a=1`), or -1: after `://`, a `?` or `#` with text after it. */
function queryAt(word: string): number {
  const scheme = word.indexOf("://");
  if (scheme < 0) return -1;
  for (let i = scheme + 3; i < word.length - 1; i++) {
    if ((word[i] === "?" || word[i] === "#") && word[i + 1] !== '"') return i;
  }
  return -1;
}

/** Whether a text holds a credential, as the rules above tell one. */
function textHoldsCredential(text: string): boolean {
  if (text.search(USER_INFO) >= 0) return true;
  if (text.split(/\s+/).some((w) => queryAt(w) >= 0)) return true;
  return (text.match(LONG_RUN) ?? []).some(tokenLike);
}

/**
 * What an input is, as its documentation says, which decides what of its value a message may show:
 * - `name` (a name, an id, a key, a full path on the server: the default): a token typed where it belongs is hidden;
 * - `url`: also whatever quotedUrl leaves out (user-info, query, fragment);
 * - `path` (a local file or folder: a bundle, a bundle tree): never a credential, shown in full, whatever its folders
 *   are named (a checkout under a commit id, a content digest, a build cache's folder);
 * - `secret` (marked so by the program, or documented as a token): hidden whole, every text of it.
 */
export type InputKind = "name" | "url" | "path" | "secret";

/** The texts of an input's value that a message about it must not show, by what the input is. */
export function hiddenTextsOf(value: unknown, kind: InputKind): string[] {
  if (kind === "path") return [];
  if (kind === "secret") return textsOf(value).filter((t) => t !== "");
  return credentialTexts(value, kind === "url");
}

/**
 * Whether a value holds a credential anywhere: a text, or a text inside a list or an object. `asUrl`: the value is
 * a URL input, where anything quotedUrl leaves out (user-info, query, fragment, with or without a scheme) counts.
 */
export function holdsCredential(value: unknown, asUrl = false): boolean {
  return credentialTexts(value, asUrl).length > 0;
}

/** The texts inside a value that hold a credential (the value itself when it is one). */
export function credentialTexts(value: unknown, asUrl = false): string[] {
  if (asUrl && typeof value === "string" && /^[^/?#]*@|[?#]/.test(value)) return [value];
  return textsOf(value).filter(textHoldsCredential);
}

/** Every text inside a value (numbers and booleans as text too), within the bounds above. */
export function textsOf(value: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (found.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") found.push(String(v));
    else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else if (typeof v === "object" && v !== null) for (const item of Object.values(v)) walk(item, depth + 1);
  };
  walk(value, 0);
  return found;
}

/** `text` with every credential the rules find left out: user-info and queries dropped, token-like runs hidden. */
export function withoutCredentials(text: string): string {
  const words = text.split(/(\s+)/).map((w) => {
    const at = queryAt(w);
    if (at < 0) return w;
    // Keep what closes a quote around the URL.
    const close = w.indexOf('"', at);
    return w.slice(0, at) + (close >= 0 ? w.slice(close) : "");
  });
  return words
    .join("")
    .replace(USER_INFO, "//")
    .replace(LONG_RUN, (run) => (tokenLike(run) ? HIDDEN : run));
}

/** Shorter texts are hidden only where a message quotes them: `5` or `a` stand in too many other words. */
const MIN_BARE_LENGTH = 6;

/**
 * `text` (a message about a value) without `texts` (the value's, or those of them that hold a credential): each one,
 * quoted or escaped, trimmed or not, becomes HIDDEN; then whatever else the rules find (a part of one a message cut)
 * goes too.
 */
export function withoutTexts(text: string, texts: string[]): string {
  const forms = new Set<string>();
  for (const t of texts) {
    for (const s of [t, t.trim()]) {
      forms.add(quoted(s));
      if (s.length >= MIN_BARE_LENGTH) [printable(s), s].forEach((f) => forms.add(f));
    }
  }
  let out = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join(HIDDEN);
  return withoutCredentials(out);
}
