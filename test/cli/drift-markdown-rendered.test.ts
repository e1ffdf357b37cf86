/**
 * drift-report.md as people see it (issue 65): rendered by markdown-it (GFM tables and strikethrough, raw HTML on as
 * GitHub's step summary allows <details>, bare links made links as GitHub does) from a report whose every string a
 * server, a program or a hand-edited previous report can set holds hostile text: pipes, backslashes, backticks, HTML
 * and <script>, links (`[link](javascript:...)`, images, bare URLs, addresses, mentions), emphasis, line breaks and
 * other controls, entities, CI log commands. Every table keeps its columns, row by row (a GFM renderer quietly drops
 * a row's extra cells, so each row is read again as a table's header against a delimiter row of the table's width:
 * only a row of exactly that width makes a table); the document's only markup is the renderer's own; and each value
 * reads back, rendered, as the printable text it is.
 */
// Typed here, not by @types/markdown-it (see drift-render.test.ts).
const MarkdownIt = require("markdown-it") as new (options: { html: boolean; linkify: boolean }) => { parse(text: string, env: object): Token[] };
import { renderMarkdown } from "../../cli/drift/render-markdown";
import type { DriftedPath, DriftReport, StackReport } from "../../cli/drift/report";
import { shown } from "../../cli/report/text";
import { HOSTILE as BASE } from "./drift-reports";

interface Token {
  type: string;
  tag: string;
  content: string;
  children: Token[] | null;
}

const markdown = new MarkdownIt({ html: true, linkify: true });

const HOSTILE: Record<string, string> = {
  pipe: BASE.pipe,
  escapedPipe: "x\\|y\\\\|z",
  backticks: BASE.backticks,
  script: BASE.script,
  html: '<b>bold</b><img src=x onerror="alert(1)">',
  details: "</details><details open><summary>x</summary>",
  jsLink: "[link](javascript:alert(1))",
  image: "![img](https://evil.example/x.png)",
  autolink: "<https://evil.example/a>",
  bareUrl: "see https://evil.com/b and www.evil.com and WWW.evil.com",
  address: "mail@evil.com @octocat",
  emphasis: "*em* _em_ **strong** ~~gone~~",
  lineStart: "# heading\n- item\n> quote\n---",
  ciCommand: BASE.ciCommand,
  vso: BASE.vso,
  githubError: "##[error]x",
  lineBreak: BASE.lineBreak,
  ansi: BASE.ansi,
  entity: "&lt;script&gt; &#x3C;b> &amp;",
  footnote: "[^1] [ ] task [x]: https://evil.example",
};
const texts = Object.values(HOSTILE);
const T = "2026-12-05T10:00:00.000Z";

/** One report with hostile text in every string a server, a program or a hand-edited report can set. */
function hostileEverywhere(): DriftReport {
  const urn = (i: number) => `urn:pulumi:prod::app::cloudbees:index:Flag::${texts[i % texts.length]}`;
  const paths: DriftedPath[] = texts.map((text, i) => ({
    path: `tags[${i}]${text}`,
    kind: "update",
    declared: text,
    actual: { [text]: [text] },
    changedBy: text,
    changedAt: text,
    firstSeen: i % 2 ? T : text,
    status: i % 2 ? "new" : "known",
  }));
  const stack = (id: string, status: StackReport["status"], rest: Partial<StackReport> = {}): StackReport => ({
    id,
    folder: id,
    stack: id,
    status,
    mode: "refresh",
    tries: 2,
    durationMs: 1000,
    counts: { resources: 3, drifted: 0, paths: 0 },
    ...rest,
  });
  const drifted = texts.map((text, i) =>
    stack(`drifted-${i}#${text}`, "drifted", {
      counts: { resources: 3, drifted: 1, paths: paths.length },
      resources: [{ urn: urn(i), type: text, name: text, op: text, paths, notes: [text] }],
    }),
  );
  const others = texts.flatMap((text, i) => [stack(`error-${i}#${text}`, "error", { error: text }), stack(`clean-${i}#${text}`, "clean")]);
  return {
    schemaVersion: 1,
    generatedAt: T,
    toolVersion: HOSTILE.html,
    summary: { stacks: 0, clean: 0, drifted: 0, error: 0, locked: 0, timeout: 0, driftedResources: 0, driftedPaths: 0, newPaths: 0, resolvedPaths: 0 },
    stacks: [...drifted, ...others],
    causes: texts.map((text, i) => ({ key: text, type: text, path: text, actual: text, count: i + 1, members: [`${text} ${urn(i)}`, text], summary: text })),
    resolved: texts.map((text, i) => ({ stack: text, urn: urn(i), path: text, firstSeen: text })),
  };
}

const text = renderMarkdown(hostileEverywhere());
const tokens = markdown.parse(text, {});

/** The source's tables: each one's delimiter row and its rows (the header first). */
function tablesOf(source: string): Array<{ delimiter: string; rows: string[] }> {
  const lines = source.split("\n");
  const found: Array<{ delimiter: string; rows: string[] }> = [];
  lines.forEach((line, i) => {
    if (!/^\|( :?---:? \|)+$/.test(line)) return;
    const rows = [lines[i - 1]!];
    for (let j = i + 1; j < lines.length && lines[j]!.startsWith("|"); j++) rows.push(lines[j]!);
    found.push({ delimiter: line, rows });
  });
  return found;
}

/** What a person reads of an inline token: its text, or undefined where it holds markup. */
function plain(inline: Token): string | undefined {
  const children = inline.children ?? [];
  return children.every((c) => c.type === "text") ? children.map((c) => c.content).join("") : undefined;
}

it("renders every kind of table the summary has, folded ones too", () => {
  const tables = tablesOf(text);
  // The summary, the causes (folded past ten), each drifted stack's paths (folded past ten).
  expect(tables.length).toBeGreaterThanOrEqual(2 + 2 + 2 * 10);
  expect(tokens.filter((t) => t.type === "table_open")).toHaveLength(tables.length);
});

it("keeps every row of every table to its table's columns: each row, as a header against a delimiter of that width, is a table", () => {
  let rows = 0;
  for (const { delimiter, rows: lines } of tablesOf(text)) {
    const width = delimiter.split("---").length - 1;
    for (const row of lines) {
      const alone = markdown.parse(`${row}\n${delimiter}\n`, {});
      const cells = alone.filter((t) => t.type === "th_open").length;
      expect({ row, cells }).toEqual({ row, cells: width });
      rows += 1;
    }
  }
  expect(rows).toBeGreaterThan(100);
});

it("holds no markup but its own: no link, image, code, emphasis, HTML or heading from a value", () => {
  const kinds = new Set(tokens.flatMap((t) => [t.type, ...(t.children ?? []).map((c) => c.type)]));
  for (const kind of ["link_open", "image", "code_inline", "code_block", "fence", "em_open", "s_open", "html_inline", "blockquote_open", "hr"]) {
    expect({ kind, present: kinds.has(kind) }).toEqual({ kind, present: false });
  }
  // Raw HTML only the renderer's own folds; bold only its own "new".
  const html = tokens.filter((t) => t.type === "html_block").map((t) => t.content.trim());
  expect(html.every((h) => /^<details><summary>\d+ more [a-z ]+<\/summary>$|^<\/details>$/.test(h))).toBe(true);
  expect(html.length).toBeGreaterThan(0);
  const bold = tokens.flatMap((t) => t.children ?? []).flatMap((c, i, all) => (c.type === "strong_open" ? [all[i + 1]!.content] : []));
  expect(new Set(bold)).toEqual(new Set(["new"]));
  // Headings: the renderer's own, a drifted stack's with its id as text.
  const headings = tokens.flatMap((t, i) => (t.type === "heading_open" ? [`${t.tag} ${plain(tokens[i + 1]!)}`] : []));
  const own = ["h2 Drift report", "h3 Causes", "h3 Stacks", "h4 Not checked", "h4 Clean", "h3 Resolved since the previous report"];
  const stacks = texts.map((t, i) => `h4 🟠 ${shown(`drifted-${i}#${t}`, 300)}: drifted`);
  expect(headings.filter((h) => !own.includes(h)).sort()).toEqual(stacks.sort());
  // No line a CI runner reads as a command (GitHub's ::, Azure's ##vso[ and ##[).
  expect(text.split("\n").filter((l) => /^\s*(::|##vso\[|##\[)/.test(l))).toEqual([]);
  // What GitHub's autolink extension would link and markdown-it does not (www.), or a mention: escaped in the source.
  expect(text.match(/(?<!\\)(?:\bwww\.|:\/\/|@)/gi)).toBeNull();
});

it("shows each hostile path, value and name as the printable text it is, in its own cell", () => {
  // The first drifted stack's table: rows of resource, path, declared → actual, changed, drift.
  const cells: string[][] = [];
  let row: string[] | undefined;
  for (const t of tokens) {
    if (t.type === "tr_open") row = [];
    if (t.type === "inline" && row) row.push(plain(t) ?? `(markup: ${t.content})`);
    if (t.type === "tr_close") cells.push(row!), (row = undefined);
  }
  const pathRows = cells.filter((c) => c.length === 5 && /^tags\[\d+\]/.test(c[1]!));
  expect(pathRows.length).toBeGreaterThanOrEqual(texts.length);
  texts.forEach((t, i) => {
    const r = pathRows[i]!;
    expect(r[1]).toBe(shown(`tags[${i}]${t}`, 300));
    expect(r[2]).toBe(`${shown(JSON.stringify(t), 300)} → ${shown(JSON.stringify({ [t]: [t] }), 300)}`);
    expect(r[3]).toBe(`by ${shown(t, 120)} at ${shown(t, 40)}`);
  });
  // The causes' rows: count, summary, type, path, actual as text; members name the stack and the resource.
  const causeRows = cells.filter((c) => c.length === 6 && /^\d+$/.test(c[0]!));
  expect(causeRows.map((c) => c[1]).sort()).toEqual(texts.map((t) => shown(t, 300)).sort());
  // The drift cell is the renderer's own (**new**, or known since ...).
  for (const c of [...pathRows.map((r) => r.slice(0, 4)), ...causeRows]) for (const cell of c) expect(cell).not.toMatch(/^\(markup: /);
});
