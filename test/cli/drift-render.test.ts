/**
 * The drift report's renderers (cli/drift/render-markdown.ts, render-html.ts) on hand-made reports: every status,
 * hostile server text in paths, values, names and errors, 100 KB values, and an estate of 200 stacks. The Markdown is
 * read back by markdown-it with raw HTML on (as GitHub's step summary allows <details>), so a value that escaped its
 * cell or became markup would show in the rendered HTML. The page's behaviour in a browser is
 * test/real-engine/drift-page.test.ts's.
 */
import { createHash } from "node:crypto";
// Typed here, not by @types/markdown-it: its declarations do not compile without skipLibCheck, and the docs' code
// blocks are compiled with every installed type package and without it (test/docs/code-blocks.test.ts).
const MarkdownIt = require("markdown-it") as new (options: { html: boolean; linkify: boolean }) => { render(text: string): string };
import { renderHtml } from "../../cli/drift/render-html";
import { renderMarkdown } from "../../cli/drift/render-markdown";
import type { DriftReport } from "../../cli/drift/report";
import { estateReport, HOSTILE, hostileReport } from "./drift-reports";

const markdown = new MarkdownIt({ html: true, linkify: true });
// C0 and C1 controls, DEL and the line terminators other than \n: none may reach a summary or a page.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

function shuffled(report: DriftReport): DriftReport {
  return { ...report, stacks: [...report.stacks].reverse() };
}

describe("renderMarkdown", () => {
  const text = renderMarkdown(hostileReport());
  const html = markdown.render(text);

  it("starts with the summary table, then the causes, then the stacks and what was resolved", () => {
    const order = ["| Stacks | Clean |", "### Causes", "### Stacks", "### Resolved since the previous report"].map((s) => text.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain("| 5 | 1 | 1 | 1 | 1 | 1 | 2 | 9 | 7 | 0 |");
  });

  it("keeps every row of every table to its columns, whatever the text in its cells", () => {
    const tables = html.split("<table>").slice(1);
    expect(tables.length).toBe(3);
    for (const table of tables) {
      const widths = table.split("<tr>").slice(1).map((row) => (row.match(/<t[hd][ >]/g) ?? []).length);
      expect(new Set(widths).size).toBe(1);
    }
    // Each hostile path is one cell, read back exactly as the path (printable) is.
    expect(html).toContain("<td>tags[&quot;pipe&quot;]a|b||c</td>");
    expect(html).toContain("<td>tags[&quot;script&quot;]&lt;script&gt;alert(1)&lt;/script&gt;</td>");
  });

  it("makes no markup, code, link or CI command of server text", () => {
    expect(html).not.toMatch(/<script|<code|<a |<pre/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    // Raw HTML in the Markdown is only the renderer's own <details>.
    expect(text.match(/(?<!\\)<[a-z/][^>]*>/g) ?? []).toEqual([]);
    expect(text.split("\n").filter((l) => /^\s*(::|##vso\[|##\[)/.test(l))).toEqual([]);
    expect(text).not.toMatch(/##vso\[|::error::/);
    expect(text).not.toMatch(CONTROL);
    // Every backtick is escaped: no code span can open.
    expect(text.match(/(?<!\\)`/g)).toBeNull();
    // What a person sees: the escapes, not the effect.
    expect(html).toContain("\\u001b[2J");
    expect(html).toContain("one\\r\\ntwo\\u2028three");
  });

  it("cuts a 100 KB value and says how long it was", () => {
    expect(text.length).toBeLessThan(20_000);
    expect(text).toContain(`… (${JSON.stringify(HOSTILE.big).length} chars)`);
  });

  it("gives a clean stack one line, a stack not checked its reason, and drift its declared → actual, who, when and since when", () => {
    expect(text).toContain("- 🟢 app\\#dev: clean · 5 resources · 1.2 s\n");
    expect(html).toMatch(/<h4>Not checked<\/h4>\n<ul>\n<li>🔒 app#staging[^]*<\/ul>\n<h4>Clean<\/h4>\n<ul>\n<li>🟢 app#dev/);
    expect(text).toContain("- 🔒 app\\#staging: locked: the stack is locked by another update · 1.2 s\n");
    expect(text).toMatch(/\| checkout \(update · cloudbees:index:FlagConfiguration\) \| enabled \| true → false \| — \| known since 2026-11-20T08:00:00.000Z \|/);
    expect(text).toContain('| "safe" → "a\\|b\\|\\|c" | by alice\\@example.com at 2026-11-24T10:02:11Z | **new** |');
    expect(text).toContain("3 more paths left out here; drift-report.json has them.");
  });

  it("folds long lists into <details>", () => {
    const estate = renderMarkdown(estateReport(200, 20));
    expect(estate).toContain("<details><summary>169 more clean stacks</summary>\n\n- 🟢");
    expect(estate.match(/^#### 🟠 /gm)?.length).toBe(20);
    const rendered = markdown.render(estate);
    expect(rendered).toContain("<details><summary>169 more clean stacks</summary>");
    expect(rendered).toMatch(/<\/summary>\s*<ul>/);
  });

  it("shows at most 100 rows of a stack and 1,000 in all, counting the rest", () => {
    const many = estateReport(30, 15);
    for (const s of many.stacks.filter((x) => x.status === "drifted")) {
      const [resource] = s.resources ?? [];
      resource.paths = Array.from({ length: 150 }, (_, i) => ({ ...resource.paths[0], path: `items[${String(i).padStart(3, "0")}]` }));
    }
    const summary = renderMarkdown(many);
    expect(summary.match(/^\| (〃|checkout)/gm)?.length).toBe(1000);
    expect(summary.match(/^50 more paths left out here/gm)?.length).toBe(10);
    expect(summary).toContain("Details of 5 more drifted stacks left out (the summary's size); drift-report.json has them all:");
    expect(summary.length).toBeLessThan(400_000);
  });

  it("is the same text for the same report, in whatever order its stacks come", () => {
    expect(renderMarkdown(hostileReport())).toBe(text);
    expect(renderMarkdown(shuffled(hostileReport()))).toBe(text);
  });
});

describe("renderHtml", () => {
  const older = estateReport(200, 12, "2026-11-26T10:00:00.000Z");
  const page = renderHtml([hostileReport(), older]);
  const data = JSON.parse(page.match(/<script type="application\/json" id="drift-data">([^<]*)<\/script>/)?.[1] ?? "null");

  it("is one page with no URL: nothing it could load or send", () => {
    expect(page).not.toMatch(/https?:|\/\/[a-z]|\b(src|href|action)=/i);
    expect(page).toMatch(/^<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="default-src 'none'; /);
  });

  it("allows only its own inline style and script, by their hashes", () => {
    const script = page.match(/<script>([\s\S]*?)<\/script>/)?.[1] ?? "";
    const style = page.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? "";
    const hash = (s: string) => createHash("sha256").update(s).digest("base64");
    expect(page).toContain(`script-src 'sha256-${hash(script)}'; style-src 'sha256-${hash(style)}'`);
    expect(page.match(/<script/g)?.length).toBe(2);
    expect(page).not.toMatch(/ style=| on[a-z]+=/i);
  });

  it("escapes all server text: no markup from it, and the JSON for the script cannot end its element", () => {
    expect(page).not.toContain("<script>alert");
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    const json = page.match(/id="drift-data">([^]*?)<\/script>/)?.[1] ?? "";
    expect(json).not.toContain("<");
    expect(json).toContain("\\u003cscript>alert(1)\\u003c/script>");
    expect(page).not.toMatch(CONTROL);
    expect(page).not.toMatch(/##vso\[/);
  });

  it("holds the newest report's stacks, by id, with each path's row and values cut", () => {
    expect(data.stacks.map((s: { id: string }) => s.id)).toEqual(["app#dev", "app#prod", "app#staging", "broken#a|b||c", "slow#prod"]);
    const prod = data.stacks[1];
    expect(prod.rows.length).toBe(9);
    expect(prod.rows.map((r: { path: string }) => r.path)).toContain('tags["script"]<script>alert(1)</script>');
    expect(prod.more).toBe("3 more paths in drift-report.json");
    expect(page.length).toBeLessThan(60_000);
    expect(data.stacks[3].line).toBe("::error::x\\n<script>alert(1)</script> \\u001b[2J · 1.2 s");
  });

  it("charts drifted stacks and paths of every run given, oldest first", () => {
    const titles = [...page.matchAll(/<circle class="stacks"[^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1]);
    expect(titles).toEqual(["2026-11-26T10:00:00.000Z: 12 drifted stacks, 24 drifted paths", "2026-11-28T10:00:00.000Z: 1 drifted stacks, 9 drifted paths"]);
  });

  it("parses: its elements close in order", () => {
    const body = page.replace(/<script type="application\/json"[^]*?<\/script>|<script>[^]*?<\/script>|<style>[^]*?<\/style>/g, "");
    const open: string[] = [];
    const VOID = new Set(["meta", "input", "br", "line", "circle", "polyline"]);
    for (const [tag, close, name, selfClosing] of body.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(\/?)>/g)) {
      if (tag.startsWith("<!")) continue;
      if (close) expect(`</${open.pop()}>`).toBe(`</${name}>`);
      else if (!VOID.has(name) || (!selfClosing && name === "circle")) open.push(name);
    }
    expect(open).toEqual([]);
  });

  it("is the same page for the same reports", () => {
    expect(renderHtml([shuffled(hostileReport()), older])).toBe(page);
    expect(renderHtml([older, hostileReport()])).toBe(page);
  });

  it("stays light for 200 stacks", () => {
    const started = process.hrtime.bigint();
    const estate = renderHtml([estateReport(200, 20)]);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500);
    expect(estate.length).toBeLessThan(150_000);
  });

  it("needs a report", () => {
    expect(() => renderHtml([])).toThrow("renderHtml needs at least one drift report");
  });
});
