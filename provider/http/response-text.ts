/** Short, readable excerpts of response bodies and zod issues, for error messages. */
import { jsonTextTooDeep } from "./json-depth";
import type { SchemaIssue } from "./response-schema";
import { quoted } from "../text/printable";

const EXCERPT_LENGTH = 240;
/** The server's own message (a JSON `error`) is what the user needs to fix a bundle: keep much more of it. */
const MESSAGE_LENGTH = 2000;

/**
 * How much of a body an error looks at: describing and scrubbing run on this prefix only, so that their cost is
 * bounded whatever the server sends (an excerpt quotes far less).
 */
export const EXCERPT_SOURCE_LENGTH = 16 * 1024;

/**
 * What a body that should be JSON looks like, for the error that refuses it: a 2xx HTML page is most often a login
 * page or a proxy's page in front of the API, and saying so points at the URL or the network, not at our code.
 */
export function lookOfNonJson(body: string): string {
  const head = (body.length > EXCERPT_SOURCE_LENGTH ? body.slice(0, EXCERPT_SOURCE_LENGTH) : body).trim();
  if (head === "") return "it is empty";
  if (/^<(!doctype|html|\?xml)/i.test(head) || /<\/[a-z]+>/i.test(head)) {
    const title = /<title[^>]{0,200}>([^<]{0,400})<\/title>/i.exec(head)?.[1]?.replace(/\s+/g, " ").trim();
    return `it is an HTML page${title ? ` titled ${quoted(cut(title, 80))}` : ""} (a login page or a proxy's page answers instead of the API?)`;
  }
  return "it is text";
}

/**
 * The server's own words from a body: the `error` or `message` of a JSON body, the text of an HTML page
 * (Jenkins answers 401/403/404 with HTML), or the start of anything else. Linear in the prefix it reads.
 */
export function describeBody(body: string): string {
  const trimmed = (body.length > EXCERPT_SOURCE_LENGTH ? body.slice(0, EXCERPT_SOURCE_LENGTH) : body).trim();
  if (!trimmed) return "";
  if (!jsonTextTooDeep(trimmed)) {
    try {
      const json = JSON.parse(trimmed) as Record<string, unknown>;
      for (const key of ["error", "message", "reason"]) {
        if (json && typeof json[key] === "string") return cut(json[key] as string, MESSAGE_LENGTH);
      }
    } catch {
      // not JSON
    }
  }
  if (/^<(!doctype|html|\?xml)/i.test(trimmed) || /<\/[a-z]+>/i.test(trimmed)) {
    const text = textOfHtml(trimmed)
      .replace(/&nbsp;/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
    return cut(text);
  }
  return cut(trimmed);
}

/**
 * The text of an HTML page: tags become spaces, script, style and head elements go whole. One pass (a pattern such
 * as `<[^>]+>` scans to the end from every unclosed `<`: quadratic in a page of `<a<a<a...`).
 */
function textOfHtml(html: string): string {
  const lower = html.toLowerCase();
  const parts: string[] = [];
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf("<", i);
    if (open < 0) {
      parts.push(html.slice(i));
      break;
    }
    parts.push(html.slice(i, open), " ");
    const element = /^<(script|style|head)\b/.exec(lower.slice(open, open + 8))?.[1];
    const end = element ? lower.indexOf(`</${element}`, open) : open;
    const close = end < 0 ? -1 : html.indexOf(">", end);
    if (close < 0) break; // an unclosed tag or element: the rest is not text
    i = close + 1;
  }
  return parts.join("");
}

/**
 * At most `max` characters of `text`, keeping its start and its end (where messages put the fix), whatever the
 * input: a 200 KB id quoted in a message must not make the message 200 KB (the provider host could not deliver it).
 */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = ` … [${text.length - max} characters left out] … `;
  const keep = Math.max(0, max - marker.length);
  const head = Math.ceil(keep * 0.6);
  return `${text.slice(0, head)}${marker}${text.slice(text.length - (keep - head))}`;
}

/** Longest error message any error of this package carries. */
export const MAX_MESSAGE_LENGTH = 4000;

function cut(text: string, length = EXCERPT_LENGTH): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > length ? `${oneLine.slice(0, length)}…` : oneLine;
}

/** `bundles[0].usedBy` and zod's message for the first thing wrong. */
export function formatZodIssue(issue: SchemaIssue | undefined): { field: string; message: string } {
  if (!issue) return { field: "", message: "the body does not match the expected shape" };
  let field = "";
  for (const key of issue.path) {
    if (typeof key === "number") field += `[${key}]`;
    else field += field ? `.${String(key)}` : String(key);
  }
  return { field, message: issue.message };
}
