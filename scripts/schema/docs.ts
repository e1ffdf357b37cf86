/**
 * What a resource's page in docs/resources says about it, read as data: the inputs that replace it (the first
 * sentence of "What replaces it": "A change of `a`, `b` or `connection`..."), and the names and required column of
 * its Inputs and Outputs tables. The schema takes the first from here; test/plugin/schema.test.ts checks the tables
 * against the schema, so that page, TypeScript types and schema cannot disagree.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./sources";

/** `BundleAvailability` -> `docs/resources/bundle-availability.md` */
export function pageOf(typeName: string): string {
  return path.join("docs", "resources", `${typeName.replace(/(?<=[a-z])(?=[A-Z])/g, "-").toLowerCase()}.md`);
}

/** The text of a `## <heading>` section of a page (up to the next `## `). */
export function sectionOf(page: string, heading: string): string {
  const text = fs.readFileSync(path.join(ROOT, page), "utf8");
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${page} has no section "## ${heading}"`);
  const end = text.indexOf("\n## ", start + heading.length + 4);
  return text.slice(start + heading.length + 4, end < 0 ? undefined : end);
}

/** The inputs named in the first sentence of "What replaces it". */
export function replacingInputs(typeName: string): string[] {
  const section = sectionOf(pageOf(typeName), "What replaces it").trim();
  const firstSentence = section.split(/\.(\s|$)/)[0]!;
  return [...firstSentence.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]!);
}

/** The rows of the first table of a section: the first column's name (in backticks) and the cells. */
export function tableRows(typeName: string, heading: string): Array<{ name: string; cells: string[] }> {
  const rows = sectionOf(pageOf(typeName), heading)
    .split("\n")
    .filter((l) => l.startsWith("|"))
    .map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
  return rows.slice(2).map((cells) => ({ name: /^`([^`]+)`$/.exec(cells[0]!)?.[1] ?? cells[0]!, cells }));
}
