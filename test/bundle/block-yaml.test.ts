import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { readBlockYaml } from "../../provider/bundle/block-yaml";
import { cascToJs, readYaml } from "../../provider/bundle/yaml-reader";

// The fast reader of block YAML (exports) against readYaml, the reader it stands in for: the same value for every text
// it reads, and no value (undefined: readYaml reads the text) for a text it does not.

const LIMITS = { maxDepth: 64, maxValues: 200_000 };
const REPO = path.resolve(__dirname, "..", "..");

/** readYaml's value of a text, or its error. */
function slow(text: string): unknown {
  const read = readYaml(text);
  return read.ok ? cascToJs(read.node) : { error: read.error };
}

function yamlFiles(dir: string, into: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yamlFiles(file, into);
    else if (/\.ya?ml$/.test(entry.name)) into.push(file);
  }
  return into;
}

describe("readBlockYaml reads what readYaml reads", () => {
  const files = [...yamlFiles(path.join(REPO, "test", "fixtures")), ...yamlFiles(path.join(REPO, "examples"))];

  it("every YAML fixture and example it reads (real exports among them) has readYaml's value", () => {
    let read = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      const fast = readBlockYaml(text, LIMITS);
      if (fast === undefined) continue;
      read++;
      expect({ file, value: fast.ok ? fast.value : fast }).toEqual({ file, value: slow(text) });
    }
    // Most of them: an export's shape is the common one.
    expect(read).toBeGreaterThan(files.length * 0.8);
  });

  it("reads the real exports' jenkins.yaml, items.yaml and bundle.yaml itself", () => {
    const fetched = path.join(REPO, "test", "fixtures", "real-exports", "bundleutils", "credentials", "fetched-bundle");
    for (const name of fs.readdirSync(fetched)) expect({ name, read: readBlockYaml(fs.readFileSync(path.join(fetched, name), "utf8"), LIMITS) !== undefined }).toEqual({ name, read: true });
  });

  const SAME: Array<[string, string]> = [
    ["YAML 1.1 scalars", "a: yes\nb: Off\nc: ~\nd: 0x1A\ne: 0777\nf: 1_000\ng: 1:20\nh: .inf\ni: -.Inf\nj: .nan\nk: 1e3\nl: 2024-01-02\nm: 2024-01-02T10:00:00Z\nn: y\no: 3.\np: +3\nq: 0b101\n"],
    ["keys as their text", "on: 1\n1: a\n~: b\nnull: c\n'quoted key': d\n\"x\\ty\": e\n__proto__: f\nkey with spaces : g\n"],
    ["SnakeYAML's sequences at the key's indentation", "a:\n- x\n- y: 1\n  z: 2\n- - nested\n  - more\nb: after\n"],
    ["indented sequences and compact mappings", "items:\n  - kind: folder\n    name: a\n    items:\n      - kind: pipeline\n        name: b\n  -   name: wide\n      kind: x\n"],
    ["empty values", "a:\nb: []\nc: {}\nd:\n  -\n  - x\n  - []\ne: # comment\nf: ''\n"],
    ["literal scalars", "a: |\n  line 1\n\n    indented\n  line 3\nb: |-\n  strip\n\n\nc: |+\n  keep\n\n\nd: |  # comment\n  x\n"],
    ["folded plain and quoted scalars", "a: one\n  two\n\n  three\nb: \"one\n  two\n\n  three \\\" \\u00e9 \\x41 \\n\"\nc: 'it''s\n  folded'\nd: \"CloudBees CI emulator: team-a joined to its\n  operations center\"\n"],
    ["comments, a document start, URLs and colons", "--- # start\n# comment\na: http://x:8080/a # trailing\nb: a:b\nc: -1\nd: -x\ne: ?x\nf: a #b\n  # indented comment\ng: 'q' # after\n"],
    ["unicode and symbols", "a: ü ✓ 😀\nb: x[y]{z},\nc: a, b\nd: \"\\U0001F600\"\n"],
    ["an empty or comments-only text", "# nothing\n\n"],
  ];

  it.each(SAME)("%s", (_name, text) => {
    const fast = readBlockYaml(text, LIMITS);
    expect(fast).toBeDefined();
    expect(fast!.ok ? fast!.value : fast).toEqual(slow(text));
  });

  const OUTSIDE: Array<[string, string]> = [
    ["a flow collection", "a: [1, 2]\n"],
    ["an anchor and an alias", "a: &x {b: 1}\nc: *x\n"],
    ["a merge key", "a: 1\n<<: {b: 2}\n"],
    ["a tag", "a: !!binary aGk=\n"],
    ["a key set twice", "a: 1\na: 2\n"],
    ["a folded block scalar", "a: >\n  folded\n"],
    ["an explicit indentation indicator", "a: |2\n   x\n"],
    ["a tab", "a:\tb\n"],
    ["a carriage return", "a: b\r\n"],
    ["two documents", "a: 1\n---\nb: 2\n"],
    ["a scalar document", "just text\n"],
    ["a complex key", "? a\n: b\n"],
    ["an escaped line break", '"a\\\n  b": 1\n'],
    ["invalid YAML", "a: b: c\n"],
    ["a bad indentation", "a:\n    b: 1\n  c: 2\n"],
    ["a literal scalar ending the text without a line break", "a: |\n  x"],
  ];

  it.each(OUTSIDE)("leaves %s to readYaml", (_name, text) => {
    expect(readBlockYaml(text, LIMITS)).toBeUndefined();
  });

  it("agrees with readYaml on generated block YAML (the library's own writer, several styles)", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const words = ["yes", "No", "~", "0x1A", "1:20", ".inf", "2024-01-02", "a b", "a: b", "a #b", "#x", "- x", "[x]", "&a", "!t", "'s'", '"d"', "", " lead", "trail ", "multi\nline\n", "ends\n\n", "ü ✓", "back\\slash", "http://x:8080/a", "-1", "?x", "---", "0", "__proto__", "long text with many words ".repeat(5)];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.45) return random() < 0.7 ? pick(words) : random() < 0.5 ? Math.floor(random() * 1000) : random() > 0.5;
      if (r < 0.75) return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(words), value(depth + 1)]));
      return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    };
    const styles = [{}, { indentSeq: false }, { lineWidth: 20 }, { indent: 4 }, { defaultStringType: "QUOTE_DOUBLE" }, { defaultStringType: "QUOTE_SINGLE", lineWidth: 15 }] as const;
    let read = 0;
    for (let k = 0; k < 400; k++) {
      const text = YAML.stringify({ root: value(0) }, pick(styles));
      const fast = readBlockYaml(text, LIMITS);
      if (fast === undefined) continue;
      read++;
      expect({ text, value: fast.ok ? fast.value : fast }).toEqual({ text, value: slow(text) });
    }
    expect(read).toBeGreaterThan(300);
  });
});

describe("readBlockYaml's bounds", () => {
  it("refuses nesting deeper than maxDepth and more values than maxValues, naming the line", () => {
    let deep = "";
    for (let i = 0; i < 10; i++) deep += `${" ".repeat(i)}k${i}:\n`;
    expect(readBlockYaml(deep, { maxDepth: 10, maxValues: 100 })).toEqual({ ok: true, value: expect.anything() });
    expect(readBlockYaml(`${deep}${" ".repeat(10)}k10: x\n`, { maxDepth: 10, maxValues: 100 })).toEqual({ ok: false, error: "it is nested deeper than 10 levels", line: 11 });
    expect(readBlockYaml("- 1\n".repeat(6), { maxDepth: 10, maxValues: 6 })).toEqual({ ok: false, error: "it holds more than 6 values", line: 6 });
  });
});
