/**
 * A report as one self-contained page (drift-report.html): server text HTML-escaped, data for the page's script as
 * JSON that cannot close its element, and a Content Security Policy that allows only the page's own inline style and
 * script (by their hashes) and forbids every request, so that the page can be a pipeline's artifact opened from disk.
 */
import { createHash } from "node:crypto";
import { shown } from "./text";

/** Characters of a server text shown by default. */
const TEXT_CHARS = 500;

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Server text as HTML text or a double-quoted attribute's value: printable, cut to `max`, escaped. */
export function h(text: string, max = TEXT_CHARS): string {
  return shown(String(text), max).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** `data` as the text of a <script type="application/json">: JSON, with no `<` that could end the element. */
export function scriptJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The policy of a page whose only style and script are `style` and `script`, inline: no request of any kind. */
export function contentSecurityPolicy(script: string, style: string): string {
  return ["default-src 'none'", `script-src ${sha256(script)}`, `style-src ${sha256(style)}`, "base-uri 'none'", "form-action 'none'"].join("; ");
}
