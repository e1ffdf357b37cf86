// The subset of gitignore(5) the code-reference scan honours (provider/hygiene/gitignore.ts). Every case below was
// checked against git 2.39's own `git check-ignore` while writing it: the expected answers are git's.
import { isIgnored, parseGitignore, parseIgnoreLine, type IgnoreStack } from "../../provider/hygiene/gitignore";

const ignored = (text: string, rel: string, isDir = false, base = "") => {
  const stack: IgnoreStack = [{ base, rules: parseGitignore(text) }];
  return isIgnored(stack, rel, rel.slice(rel.lastIndexOf("/") + 1), isDir);
};

describe("one .gitignore", () => {
  it.each([
    // A name without a slash matches at any depth; a leading or middle slash anchors to the file's folder.
    ["build", "build", true, true],
    ["build", "src/build", true, true],
    ["/build", "src/build", true, false],
    ["/build", "build", true, true],
    ["doc/frotz", "doc/frotz", false, true],
    ["doc/frotz", "a/doc/frotz", false, false],
    // A trailing slash: folders only.
    ["out/", "out", true, true],
    ["out/", "out", false, false],
    ["out/", "a/out", true, true],
    // * and ? never cross a slash; classes, ranges, negated classes, a POSIX class.
    ["*.log", "logs/today.log", false, true],
    ["src/*.ts", "src/a/b.ts", false, false],
    ["src/*.ts", "src/b.ts", false, true],
    ["tmp?.txt", "tmp1.txt", false, true],
    ["tmp?.txt", "tmp12.txt", false, false],
    ["[ab].md", "a.md", false, true],
    ["[ab].md", "c.md", false, false],
    ["file[0-9]", "file7", false, true],
    ["file[!0-9]", "file7", false, false],
    ["file[!0-9]", "fileX", false, true],
    ["v[[:digit:]]", "v3", false, true],
    // ** as a whole segment: any folders before, everything inside, zero or more folders between.
    ["**/cache", "a/b/cache", true, true],
    ["**/cache", "cache", true, true],
    ["logs/**", "logs/a/b.txt", false, true],
    ["logs/**", "logs", true, false],
    ["a/**/z", "a/z", false, true],
    ["a/**/z", "a/b/c/z", false, true],
    ["a/**/z", "b/a/z", false, false],
    // Comments, escapes, trailing spaces.
    ["# a comment", "# a comment", false, false],
    ["\\#hash", "#hash", false, true],
    ["\\!bang", "!bang", false, true],
    ["trail   ", "trail", false, true],
    ["space\\ ", "space ", false, true],
    ["lit\\*", "lit*", false, true],
    ["lit\\*", "litx", false, false],
  ])("%j against %j (folder: %j): %j", (pattern, rel, isDir, expected) => {
    expect(ignored(pattern, rel, isDir)).toBe(expected);
  });

  it("the last matching rule wins: ! re-includes, a later rule excludes again", () => {
    const text = "*.log\n!keep.log\n!important/*.log\nimportant/noisy.log\n";
    expect(ignored(text, "a.log")).toBe(true);
    expect(ignored(text, "keep.log")).toBe(false);
    expect(ignored(text, "important/x.log")).toBe(false);
    expect(ignored(text, "important/noisy.log")).toBe(true);
  });

  it("reads CRLF files and drops blank lines and comments", () => {
    expect(parseGitignore("# c\r\n\r\n*.tmp\r\n").map((r) => r.pattern)).toEqual(["*.tmp"]);
    expect(parseIgnoreLine("   ")).toBeUndefined();
    expect(parseIgnoreLine("/")).toBeUndefined();
    expect(parseIgnoreLine("[unclosed")!.regex.test("[unclosed")).toBe(true);
  });
});

describe("nested files", () => {
  it("a deeper file matches relative to its folder and wins over its parents", () => {
    // The stack of a folder holds the files of its own folder and its parents (source-tree.ts builds it so).
    const top = { base: "", rules: parseGitignore("*.gen.ts\n") };
    const stack: IgnoreStack = [top, { base: "src/keep/", rules: parseGitignore("!*.gen.ts\n/local.ts\n") }];
    expect(isIgnored(stack, "src/keep/a.gen.ts", "a.gen.ts", false)).toBe(false);
    expect(isIgnored([top], "src/other/a.gen.ts", "a.gen.ts", false)).toBe(true);
    expect(isIgnored(stack, "src/keep/local.ts", "local.ts", false)).toBe(true);
    expect(isIgnored(stack, "src/keep/deeper/local.ts", "local.ts", false)).toBe(false);
  });
});
