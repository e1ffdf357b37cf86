/** Short, readable excerpts of response bodies and zod issues, for error messages. */

const EXCERPT_LENGTH = 240;
/** The server's own message (a JSON `error`) is what the user needs to fix a bundle: keep much more of it. */
const MESSAGE_LENGTH = 2000;

/**
 * The server's own words from a body: the `error` or `message` of a JSON body, the text of an HTML page
 * (Jenkins answers 401/403/404 with HTML), or the start of anything else.
 */
export function describeBody(body: string): string {
  const trimmed = body.trim();
  if (!trimmed) return "";
  try {
    const json = JSON.parse(trimmed) as Record<string, unknown>;
    for (const key of ["error", "message", "reason"]) {
      if (json && typeof json[key] === "string") return cut(json[key] as string, MESSAGE_LENGTH);
    }
  } catch {
    // not JSON
  }
  if (/^<(!doctype|html|\?xml)/i.test(trimmed) || /<\/[a-z]+>/i.test(trimmed)) {
    const text = trimmed
      .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/&nbsp;/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
    return cut(text);
  }
  return cut(trimmed);
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

interface IssueLike {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/** `bundles[0].usedBy` and zod's message for the first thing wrong. */
export function formatZodIssue(issue: IssueLike | undefined): { field: string; message: string } {
  if (!issue) return { field: "", message: "the body does not match the expected shape" };
  let field = "";
  for (const key of issue.path) {
    if (typeof key === "number") field += `[${key}]`;
    else field += field ? `.${String(key)}` : String(key);
  }
  return { field, message: issue.message };
}
