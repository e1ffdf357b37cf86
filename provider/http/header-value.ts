/**
 * Credentials travel in the authorization header. A value with a CR, an LF or another control character (a token
 * pasted with its line break), or a character beyond ASCII, cannot be sent there: undici refuses the request as
 * "invalid authorization header", which reads as a network failure. These checks run before any request, and never
 * quote the value (it is a credential): they say which character and where.
 */

/** Why `value` cannot be sent as is in a header (a bearer token), or undefined. */
export function headerValueProblem(value: string): string | undefined {
  const bad = /[^\x20-\x7e]/.exec(value);
  if (!bad) return undefined;
  return `${characterAt(value, bad.index)}, which an HTTP header cannot carry (a line break pasted with it?)`;
}

/** Why `value` cannot be part of HTTP Basic credentials (sent base64-encoded: only control characters are refused). */
export function basicCredentialProblem(value: string, kind: "username" | "password"): string | undefined {
  const bad = /[\u0000-\u001f\u007f-\u009f]/.exec(value);
  if (bad) return `${characterAt(value, bad.index)} (a line break pasted with it?)`;
  if (kind === "username" && value.includes(":")) return `it holds ":" at position ${value.indexOf(":") + 1}, which HTTP Basic credentials cannot carry in a user name`;
  return undefined;
}

function characterAt(value: string, index: number): string {
  const code = value.charCodeAt(index);
  const kind = code < 0x20 || (code >= 0x7f && code <= 0x9f) ? "a control character" : "a non-ASCII character";
  return `it holds ${kind} (U+${code.toString(16).toUpperCase().padStart(4, "0")}) at position ${index + 1} of ${value.length}`;
}
