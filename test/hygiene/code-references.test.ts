// Code references (issue 64, provider/hygiene/code-references.ts): a sample tree written to a temporary folder, every
// hit asserted, with 0 and 2 lines of context; what is left out and why; the bounds; the real rox-node's names.
import * as path from "node:path";
import { scanCodeReferences, type CodeReference, type CodeReferenceOptions } from "../../provider/hygiene/code-references";
import { FILES, FLAGS, LITERAL, writeSampleTree } from "./code-reference-tree";

const realFs = require("node:fs") as typeof import("node:fs");

const hitText = (r: CodeReference) => `${r.file}:${r.line}:${r.column} ${r.flag} ${r.alias} (${r.aliasKind})`;

let tree: ReturnType<typeof writeSampleTree>;
beforeAll(() => {
  tree = writeSampleTree();
});
afterAll(() => tree.cleanup());

/** The scan of the sample tree, `unreadable.ts` refused at open (the suite runs as root, where chmod refuses nothing). */
function scanTree(options: Partial<CodeReferenceOptions> = {}) {
  const open = realFs.openSync;
  const spy = jest.spyOn(realFs, "openSync").mockImplementation((file, flags, mode) => {
    if (String(file).endsWith(`${path.sep}unreadable.ts`)) throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES", syscall: "open" });
    return open(file, flags, mode);
  });
  try {
    return scanCodeReferences({ roots: [tree.root, `${tree.root}-missing`], flags: FLAGS, aliases: { literal: LITERAL }, ...options });
  } finally {
    spy.mockRestore();
  }
}

describe("the sample tree", () => {
  it("finds each flag as code spells it: namespaced container keys, names, aliases in every case, literal aliases", () => {
    const scan = scanTree();
    expect(scan.references.map(hitText)).toEqual([
      "keep.log:1:15 summer-sale summer-sale (name)", // re-included by `!keep.log`
      "src/cart.ts:3:19 payments.newFlow newFlow (container)", // a class field; the class registered as an instance
      // A variable of the same name outside any container: every flag whose last segment it spells.
      "src/cart.ts:5:7 cart.newFlow newFlow (segment)",
      "src/cart.ts:5:7 checkout.newFlow newFlow (segment)",
      "src/cart.ts:5:7 payments.newFlow newFlow (segment)",
      "src/cart.ts:6:24 cart.newFlow newFlow (container)", // `{ newFlow }` registered inline
      "src/checkout.ts:4:3 checkout.newFlow newFlow (container)", // an object literal registered by name
      "src/checkout.ts:5:3 checkout.darkMode darkMode (container)",
      "src/checkout.ts:8:19 checkout.newFlow newFlow (segment)", // `checkoutFlags.newFlow`: that container's only
      "src/checkout.ts:8:48 checkout.darkMode dark-mode (segment kebab-case)",
      "src/flags.py:1:1 checkout.newFlow CHECKOUT_NEW_FLOW (UPPER_SNAKE)",
      "src/flags.py:1:22 checkout.newFlow checkout.newFlow (name)", // and not `newFlow` inside it
      "src/flags.py:2:11 summer-sale summer-sale (name)",
      "src/flags.py:2:27 summer-sale summerSale (camelCase)",
      "src/flags.py:2:39 summer-sale SUMMER_SALE (UPPER_SNAKE)",
      "src/generated/b.ts:1:4 summer-sale summerSale (camelCase)", // a.gen.ts is left out by the nested .gitignore
      "src/legacy.js:2:7 summer-sale legacyBanner (literal)",
      "src/legacy.js:2:34 summer-sale summer_sale (snake_case)",
      "src/secret.ts:1:20 summer-sale summer-sale (name)", // `/secret.ts` is anchored to the root
      "vendor-link/index.js:1:2 summer-sale summer-sale (name)", // a link inside the tree, to a folder not read otherwise
    ]);
    // No source text leaves the machine by default.
    expect(scan.references.every((r) => !("context" in r))).toBe(true);
    expect(new Set(scan.references.map((r) => r.root))).toEqual(new Set([tree.root]));
    expect(scan.unmatchable).toEqual([]);
  });

  it("names what it did not read and why, and reads the rest", () => {
    const scan = scanTree();
    expect(scan.skipped.map((s) => [s.root === tree.root ? "root" : "missing root", s.path, s.reason, s.detail])).toEqual([
      ["root", "fifo", "not-a-file", "neither a file, a folder nor a link"],
      ["root", "huge.txt", "too-large", `${15 + 1024 * 1024} bytes, over the bound of ${1024 * 1024}`],
      ["root", "image.png", "binary", "a NUL byte in its first 8 KiB"],
      ["root", "unreadable.ts", "unreadable", "open: EACCES"],
      ["root", "broken", "symlink-broken", "points to nothing"],
      ["root", "link-in", "symlink-seen", "already read as src"],
      ["root", "link-out", "symlink-outside", `points out of the tree, to ${realFs.realpathSync(tree.outside)}`],
      ["root", "loop", "symlink-seen", "already read as ."],
      ["missing root", "", "missing-root", "no such file or folder"],
    ]);
    const read = [".gitignore", "keep.log", "src/cart.ts", "src/checkout.ts", "src/flags.py", "src/generated/.gitignore", "src/generated/b.ts", "src/legacy.js", "src/secret.ts", "node_modules/x/index.js"];
    expect(scan.counts).toEqual({
      files: read.length,
      bytes: read.reduce((n, f) => n + Buffer.byteLength(FILES[f]!), 0),
      skipped: { "not-a-file": 1, "too-large": 1, binary: 1, unreadable: 1, "symlink-broken": 1, "symlink-seen": 2, "symlink-outside": 1, "missing-root": 1 },
    });
  });

  it("gives 2 lines of context before and after, as data, and none with 0", () => {
    const scan = scanTree({ contextLines: 2 });
    const at = (where: string) => scan.references.find((r) => hitText(r).startsWith(where))!;
    // The last line of the file: two lines before it, none after (the final line break starts no line).
    expect(at("src/checkout.ts:8:48").context).toEqual([
      { line: 6, text: "};", column: 1, truncated: false },
      { line: 7, text: 'Rox.register("checkout", checkoutFlags);', column: 1, truncated: false },
      { line: 8, text: 'if (checkoutFlags.newFlow.isEnabled()) render("dark-mode");', column: 1, truncated: false },
    ]);
    // A container key, resolved after every file was read, keeps the context read with its file.
    expect(at("src/checkout.ts:4:3").context).toEqual([
      { line: 2, text: "", column: 1, truncated: false },
      { line: 3, text: "export const checkoutFlags = {", column: 1, truncated: false },
      { line: 4, text: "  newFlow: new Rox.Flag(),", column: 1, truncated: false },
      { line: 5, text: "  darkMode: new Rox.Flag(false),", column: 1, truncated: false },
      { line: 6, text: "};", column: 1, truncated: false },
    ]);
    expect(at("src/legacy.js:2:7").context!.map((c) => c.text)).toEqual(["// the old banner", "const legacyBanner = client.get(`summer_sale`);"]);
    expect(scan.references.map(hitText)).toEqual(scanTree().references.map(hitText));
    expect(scanTree({ contextLines: 0 }).references.some((r) => "context" in r)).toBe(false);
  });

  it("takes a file as a root, and honours no .gitignore and skips no folder when told", () => {
    const file = scanCodeReferences({ roots: [path.join(tree.root, "src", "legacy.js")], flags: FLAGS, aliases: { literal: LITERAL } });
    expect(file.references.map(hitText)).toEqual(["legacy.js:2:7 summer-sale legacyBanner (literal)", "legacy.js:2:34 summer-sale summer_sale (snake_case)"]);
    const all = scanCodeReferences({ roots: [tree.root], flags: ["summer-sale"], gitignore: false, skipDirectories: [] });
    const files = new Set(all.references.map((r) => r.file));
    for (const f of ["build/out.js", "debug.log", "secret.ts", "src/generated/a.gen.ts", "node_modules/x/index.js"]) expect(files).toContain(f);
    // The link into node_modules now leads to a folder already read.
    expect(all.skipped.find((s) => s.path === "vendor-link")).toMatchObject({ reason: "symlink-seen", detail: "already read as node_modules/x" });
  });
});

describe("the vendor SDK's namespaces", () => {
  it("are the names the real rox-node gives the same containers", () => {
    // rox-node 6.0.16, dist/rox-node.js, RoxClassRegister.handleContainer: each own property of the container is
    // registered as `namespace ? `${namespace}.${prop}` : prop`; Rox.register(container) is register("", container).
    const dist = realFs.readFileSync(require.resolve("rox-node"), "utf8");
    expect(dist).toContain("const label = namespace ? `${namespace}.${prop}` : prop;");
    const Rox = require("rox-node") as {
      register(ns: string | object, container?: object): void;
      Flag: new (d?: boolean) => { name: string };
    };
    const checkoutFlags = { newFlow: new Rox.Flag(), darkMode: new Rox.Flag(false) };
    Rox.register("checkout", checkoutFlags);
    class CartFlags {
      public readonly newFlow = new Rox.Flag();
    }
    const cartFlags = new CartFlags();
    Rox.register("payments", cartFlags);
    const newFlow = new Rox.Flag();
    Rox.register("cart", { newFlow });
    const sdkNames = [checkoutFlags.newFlow.name, checkoutFlags.darkMode.name, cartFlags.newFlow.name, newFlow.name];
    expect(sdkNames).toEqual(["checkout.newFlow", "checkout.darkMode", "payments.newFlow", "cart.newFlow"]);
    const containers = scanTree().references.filter((r) => r.aliasKind === "container");
    expect(containers.map((r) => r.flag).sort()).toEqual([...sdkNames].sort());
  });

  it("a container with no namespace, and one declared in another file than its registration", () => {
    const dir = realFs.mkdtempSync(path.join(require("node:os").tmpdir(), "code-references-ns-"));
    try {
      realFs.writeFileSync(path.join(dir, "flags.ts"), "export const shopFlags: Record<string, Flag> = {\n  fastSearch: new Flag(),\n};\n");
      realFs.writeFileSync(path.join(dir, "main.ts"), 'import { shopFlags } from "./flags";\nRox.register("shop", shopFlags);\nRox.register({ topLevel: new Rox.Flag() });\n');
      const scan = scanCodeReferences({ roots: [dir], flags: ["shop.fastSearch", "topLevel"], aliases: { segments: false } });
      expect(scan.references.map(hitText)).toEqual([
        "flags.ts:2:3 shop.fastSearch fastSearch (container)", // found with no alias spelling it
        "main.ts:3:16 topLevel topLevel (container)",
      ]);
    } finally {
      realFs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("bounds and bad input", () => {
  let dir: string;
  beforeAll(() => {
    dir = realFs.mkdtempSync(path.join(require("node:os").tmpdir(), "code-references-bounds-"));
  });
  afterAll(() => realFs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => realFs.writeFileSync(path.join(dir, name), text);
  const scanOne = (name: string, options: Partial<CodeReferenceOptions> = {}) => scanCodeReferences({ roots: [path.join(dir, name)], flags: ["summer-sale"], ...options });

  it("a long line's context is cut around the hit, within the bound", () => {
    write("long.js", `${"a".repeat(5000)} "summer-sale" ${"b".repeat(5000)}\nnext line ${"c".repeat(100)}\n`);
    const [hit] = scanOne("long.js", { contextLines: 1, maxLineLength: 40 }).references;
    expect(hit).toMatchObject({ line: 1, column: 5003 });
    expect(hit!.context).toEqual([
      // A quarter of the bound before the hit.
      { line: 1, text: `${"a".repeat(8)} "summer-sale" ${"b".repeat(17)}`, column: 4993, truncated: true },
      { line: 2, text: `next line ${"c".repeat(30)}`, column: 1, truncated: true },
    ]);
  });

  it("counts columns in UTF-16 units after non-ASCII text, and keeps control characters as data", () => {
    write("unicode.ts", 'const é = "summer-sale"; // 😀 summerSale\n\u001b[2J "summer-sale"\r\n');
    const scan = scanOne("unicode.ts", { contextLines: 1 });
    expect(scan.references.map((r) => `${r.line}:${r.column} ${r.alias}`)).toEqual(["1:12 summer-sale", "1:32 summerSale", "2:7 summer-sale"]);
    expect(scan.references[2]!.context![1]).toEqual({ line: 2, text: '\u001b[2J "summer-sale"', column: 1, truncated: false });
  });

  it("keeps at most maxReferencesPerFile hits of a file and says how many there were", () => {
    write("many.ts", '"summer-sale"\n'.repeat(5));
    const scan = scanOne("many.ts", { maxReferencesPerFile: 3 });
    expect(scan.references.map((r) => r.line)).toEqual([1, 2, 3]);
    expect(scan.skipped).toEqual([{ root: path.join(dir, "many.ts"), path: "many.ts", reason: "too-many-references", detail: "5 spellings found, the first 3 kept" }]);
  });

  it("other delimiters, and spellings that can never be found", () => {
    write("delims.txt", "<summer-sale> 'summer-sale'\n");
    const scan = scanOne("delims.txt", { delimiters: ["<", ">"], aliases: { literal: { "summer-sale": ["it's"] } } });
    expect(scan.references.map((r) => r.column)).toEqual([2]);
    expect(scanOne("delims.txt", { delimiters: [] }).references).toEqual([]);
    expect(scanOne("delims.txt", { aliases: { literal: { "summer-sale": ["it's"] } } }).unmatchable).toEqual([{ flag: "summer-sale", text: "it's", kind: "literal" }]);
  });

  it("refuses options it cannot honour, naming them", () => {
    expect(() => scanOne("many.ts", { contextLines: 6 })).toThrow('contextLines is a whole number from 0 to 5, not "6"');
    expect(() => scanOne("many.ts", { delimiters: ["ab"] })).toThrow('a delimiter is one printable ASCII character that is no letter, digit, "_" or "$": not "ab"');
    expect(() => scanOne("many.ts", { delimiters: ["_"] })).toThrow(/not "_"/);
    expect(() => scanOne("many.ts", { maxFileBytes: 0 })).toThrow('maxFileBytes is a whole number above 0, not "0"');
  });

  // Speed is the bench's (bench/code-references.ts: one pass against git grep and GNU grep), never a test's.
  it("finds every hit of 600 flags in one scan of a large file", () => {
    const flags = Array.from({ length: 600 }, (_, i) => `flag-${i}-of-the-shop`);
    const line = (i: number) => `  if (client.isEnabled("flag-${i % 700}-of-the-shop") && FLAG_${i % 700}_OF_THE_SHOP) value${i} = compute("text", ${i});\n`;
    write("big.ts", Array.from({ length: 5_000 }, (_, i) => line(i)).join(""));
    // Two hits (the name, and its UPPER_SNAKE alias) on each line naming one of the 600.
    const lines = Array.from({ length: 5_000 }, (_, i) => i % 700 < 600).filter(Boolean).length;
    expect(scanOne("big.ts", { flags, maxReferencesPerFile: 100_000, maxFileBytes: 8 << 20 }).references).toHaveLength(2 * lines);
  });
});
