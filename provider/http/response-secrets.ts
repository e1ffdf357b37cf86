/**
 * Secrets the APIs themselves return: bundle tokens, link file contents (a URL and a token), and any field whose
 * name says it is a credential. They are scrubbed from response excerpts before an error quotes one (a body of the
 * wrong shape is quoted, and may hold a token), and learnt by the client's redactor so that no later error or log
 * line of that client repeats them.
 */

import { jsonTextTooDeep } from "./json-depth";
import { EXCERPT_SOURCE_LENGTH } from "./response-text";

/** Field names whose string values are secrets, in any JSON body either API returns. */
const SECRET_FIELD = /token|secret|password|linkfilecontent|authorization|credential/i;

export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name);
}

const REDACTED = "[redacted]";

/**
 * The body with the value of every secret field replaced; also for text that is JSON-like but not JSON. Only the
 * first EXCERPT_SOURCE_LENGTH characters are looked at (an excerpt quotes no more), and the patterns are linear:
 * whitespace is matched within a line only, so a body of newlines costs one pass, not one per line.
 */
export function scrubSecretFields(body: string): string {
  const source = body.length > EXCERPT_SOURCE_LENGTH ? body.slice(0, EXCERPT_SOURCE_LENGTH) : body;
  if (!jsonTextTooDeep(source)) {
    try {
      return JSON.stringify(scrubValue(JSON.parse(source)));
    } catch {
      // not JSON: by pattern below
    }
  }
  // Not JSON (cut short, HTML, YAML): replace `"token": "..."` and `token: ...` pairs by pattern.
  return source
    .replace(/("[^"\n]{0,100}"[ \t]*:[ \t]*)"[^"\\]*(?:\\.[^"\\]*)*("|$)/g, (pair: string, key: string) =>
      isSecretField(key) ? `${key}"${REDACTED}"` : pair,
    )
    .replace(/^([ \t]*[\w-]{1,100}[ \t]*:[ \t]*)(\S.*)$/gm, (line: string, key: string) => (isSecretField(key) ? `${key}${REDACTED}` : line));
}

function scrubValue(value: unknown, key = ""): unknown {
  if (typeof value === "string") return isSecretField(key) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, key));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, k)]));
  }
  return value;
}

/**
 * The secret strings of a parsed response. A multi-line one (a link file is `url\ntoken`) gives its lines too,
 * except URLs: the link's URL is the instance's own address, which errors name on purpose.
 */
export function secretValues(value: unknown, key = "", out: string[] = []): string[] {
  if (typeof value === "string") {
    if (isSecretField(key) && value !== "") {
      out.push(value, ...value.split("\n").map((l) => l.trim()).filter((l) => !/^https?:\/\//i.test(l)));
    }
  } else if (Array.isArray(value)) {
    for (const v of value) secretValues(v, key, out);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) secretValues(v, k, out);
  }
  return out;
}
