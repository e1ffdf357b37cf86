import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");

/** The fenced blocks of a docs page's section `heading` (a `## ` heading), in order: what a reader copies. */
export function sectionBlocks(page: string, heading: string): Array<{ lang: string; text: string }> {
  const text = fs.readFileSync(path.join(ROOT, page), "utf8");
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${page} has no section "## ${heading}"`);
  const end = text.indexOf("\n## ", start + heading.length + 5);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, text: m[2]! }));
}
