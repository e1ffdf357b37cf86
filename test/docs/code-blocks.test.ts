/* istanbul ignore file */
/**
 * Issue 31: every ```ts block of README.md and docs/ compiles as a user's file, against the built package (linked
 * as `pulumi-cloudbees`, its package.json's exports and types as published) with the tsconfig.json of Pulumi's
 * TypeScript template (`pulumi new typescript`). A block whose info string says `ts continued` is the rest of the
 * block above it on the page (they compile as one file). One tsc program for every block keeps it fast. A failure
 * names the page and the line. The published declarations themselves compile under the template without skipLibCheck
 * in the tier (test/package/consumer/types-matrix.js, at both ends of the peer range); checking them and
 * @pulumi/pulumi's again here was half of this file's CPU, so the blocks compile with skipLibCheck.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { assertBuiltPackage } from "../resources/helpers";

const ROOT = path.join(__dirname, "..", "..");

interface Block {
  page: string;
  /** Line of the page where the block's first line of code is. */
  line: number;
  code: string;
}

function pages(): string[] {
  const docs: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".md")) docs.push(p);
    }
  };
  walk(path.join(ROOT, "docs"));
  return [path.join(ROOT, "README.md"), ...docs.sort()];
}

/** The page's ```ts blocks; a `ts continued` block joins the one above it. */
export function blocksOf(page: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)(?:\s+(\S+))?\s*$/.exec(lines[i]!);
    if (!open) {
      if (/^```/.test(lines[i]!)) {
        // A fence without a language, or a closing one met outside a block: skip to its end.
        const end = lines.indexOf("```", i + 1);
        if (end > i) i = end;
      }
      continue;
    }
    const end = lines.findIndex((l, j) => j > i && l === "```");
    if (end < 0) throw new Error(`${page}:${i + 1}: a code block that never closes`);
    if (open[1] === "ts" || open[1] === "typescript") {
      const code = lines.slice(i + 1, end).join("\n");
      const previous = blocks.at(-1);
      // A continued block is padded with blank lines so that its first line (page line i + 2) keeps its page line.
      if (open[2] === "continued" && previous) previous.code += `\n${"\n".repeat(i + 2 - previous.line - previous.code.split("\n").length)}${code}`;
      else if (open[2] === "continued") throw new Error(`${page}:${i + 1}: "ts continued" with no block above it`);
      else blocks.push({ page, line: i + 2, code });
    }
    i = end;
  }
  return blocks;
}

/** The compiler options of Pulumi's TypeScript template (its tsconfig.json), nothing more. */
const TEMPLATE: ts.CompilerOptions = {
  strict: true,
  outDir: "bin",
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  sourceMap: true,
  experimentalDecorators: true,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
  noEmit: true,
};

describe("blocksOf, the extractor", () => {
  const page = [
    "# A page", //                              1
    "```ts", //                                 2
    'import * as a from "a";', //               3
    "```", //                                   4
    "", //                                      5
    "```ts continued", //                       6
    "a.b();", //                                7
    "```", //                                   8
    "```text", //                               9
    "not code", //                              10
    "```", //                                   11
    "```", //                                   12
    "const notCode = 1;", //                    13
    "```", //                                   14
    "```sh", //                                 15
    "npm test", //                              16
    "```", //                                   17
    "```typescript", //                         18
    "const x = 1;", //                          19
    "```", //                                   20
  ];

  it("takes ts blocks, joins a `ts continued` block to the one above at its own lines, and skips the others", () => {
    const blocks = blocksOf("p.md", page.join("\n"));
    expect(blocks).toEqual([
      { page: "p.md", line: 3, code: 'import * as a from "a";\n\n\n\na.b();' },
      { page: "p.md", line: 19, code: "const x = 1;" },
    ]);
    // The continued block's code stands at its page line: line 7 is the block's 5th line (3 + 4).
    expect(blocks[0]!.code.split("\n")[7 - 3]).toBe("a.b();");
  });

  it("refuses an unclosed fence and a `ts continued` with no block above, naming the page and line", () => {
    expect(() => blocksOf("p.md", "text\n```ts\nconst a = 1;\n")).toThrow("p.md:2: a code block that never closes");
    expect(() => blocksOf("p.md", "```ts continued\nconst a = 1;\n```\n")).toThrow('p.md:1: "ts continued" with no block above it');
  });
});

describe("the documentation's TypeScript", () => {
  it("every ```ts block of README.md and docs/ compiles as a user's file with Pulumi's template tsconfig", () => {
    assertBuiltPackage();
    const blocks = pages().flatMap((p) => blocksOf(path.relative(ROOT, p), fs.readFileSync(p, "utf8")));
    expect(blocks.length).toBeGreaterThan(20);
    // Files in a folder of the repository, so that `pulumi-cloudbees` and `@pulumi/pulumi` resolve as in a project.
    const dir = fs.mkdtempSync(path.join(ROOT, ".docs-blocks-"));
    try {
      const files = blocks.map((b, i) => {
        const file = path.join(dir, `block-${i}.ts`);
        // Every block is a module of its own: names never clash between blocks.
        fs.writeFileSync(file, `${b.code}\nexport {};\n`);
        return file;
      });
      // The declarations are the consumer test's (above); a reader's project has @types/node, and jest for docs/testing.md.
      const program = ts.createProgram(files, { ...TEMPLATE, skipLibCheck: true, types: ["node", "jest"] });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => {
        const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
        const at = d.file ? files.indexOf(d.file.fileName) : -1;
        if (at < 0 || d.start === undefined) return `${d.file?.fileName ?? "(no file)"}: ${text}`;
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start);
        return `${blocks[at]!.page}:${blocks[at]!.line + line}: ${text}`;
      });
      expect(problems).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
