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

/** A report's counts as a one-row table: each cell's header (the renderer's own words) over its count, escaped. */
export function countsTable(id: string, cells: ReadonlyArray<readonly [name: string, count: unknown]>): string {
  const head = cells.map(([name]) => `<th class="num">${name}</th>`).join("");
  const body = cells.map(([, n]) => `<td class="num">${h(String(n), 20)}</td>`).join("");
  return `<table id="${id}"><thead><tr>${head}</tr></thead><tbody><tr>${body}</tr></tbody></table>`;
}

/**
 * A report's whole page: `title` (already escaped), its own `style` and `script` inline and allowed by their hashes
 * (contentSecurityPolicy: no request), the `body` parts, and `data` for the script as JSON in
 * <script type="application/json" id="{dataId}">.
 */
export function reportPage(o: { title: string; style: string; script: string; body: string[]; dataId: string; data: unknown }): string {
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(o.script, o.style)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${o.title}</title>`,
    `<style>${o.style}</style></head><body>`,
    ...o.body,
    `<script type="application/json" id="${o.dataId}">${scriptJson(o.data)}</script>`,
    `<script>${o.script}</script>`,
    "</body></html>",
    "",
  ].join("\n");
}
