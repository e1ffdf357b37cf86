import * as fs from "node:fs";
import * as path from "node:path";
import { readServerYaml, SERVER_YAML_LIMITS } from "../../provider/bundle/bounded-yaml";
import { parseYaml } from "../../provider/bundle/descriptor";
import { mergedJcascValue, mergeJcascFiles } from "../../provider/bundle/jcasc";
import { exportedView } from "../../provider/configuration";
import { exportFiles, REAL } from "./helpers";

// An export is server text: each of its files is read within bounds (size, nesting, values, aliases), and a file past
// one is left out with a sentence that says which bound, as an unreadable file is; an ordinary file reads as before.

const DESCRIPTOR = { apiVersion: "1", id: "c1", version: "1", jcasc: ["jenkins.yaml"], plugins: ["plugins.yaml"] };
const PLUGINS = { plugins: [{ id: "git" }] };

/** The export with this jenkins.yaml text: its view's problems and incomplete files. */
function withJenkins(text: string | Buffer) {
  const files = exportFiles({ "bundle.yaml": DESCRIPTOR, "plugins.yaml": PLUGINS });
  files.set("jenkins.yaml", Buffer.isBuffer(text) ? text : Buffer.from(text));
  return exportedView(files);
}

const leftOut = (reason: RegExp | string) =>
  expect.stringMatching(new RegExp(`^The export's file "jenkins\\.yaml" cannot be read within the export's bounds \\(${typeof reason === "string" ? reason : reason.source}\\); it is left out\\.$`));

describe("an export's file past a bound is left out, saying which", () => {
  it("too large: more bytes than SERVER_YAML_LIMITS.maxBytes (16 MiB), refused before it is read", () => {
    const { view, problems, incomplete } = withJenkins(Buffer.alloc(SERVER_YAML_LIMITS.maxBytes + 1, "#"));
    expect(problems).toEqual([leftOut(`it holds ${SERVER_YAML_LIMITS.maxBytes + 1} bytes, more than the ${SERVER_YAML_LIMITS.maxBytes} read`)]);
    expect(incomplete).toEqual(["jenkins.yaml"]);
    // The rest of the export is still read.
    expect(view.plugins).toEqual(["git"]);
  });

  it("too deep: mappings nested past 64 levels, in block style (the fast reader) and in flow style (readYaml)", () => {
    let block = "";
    for (let i = 0; i <= 64; i++) block += `${" ".repeat(i)}k${i}:\n`;
    expect(withJenkins(block).problems).toEqual([leftOut("it is nested deeper than 64 levels")]);
    expect(withJenkins(`a: ${"[".repeat(65)}${"]".repeat(65)}\n`).problems).toEqual([leftOut("it is nested deeper than 64 levels")]);
    // So deep that the library's composer runs out of stack: a bound too, said so.
    const { problems, incomplete } = withJenkins(`a: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`);
    expect(problems).toEqual([leftOut(/the document is nested too deeply to be read \(Maximum call stack size exceeded.*\)/)]);
    expect(incomplete).toEqual(["jenkins.yaml"]);
  });

  it("too many aliases: past SnakeYAML's 50 aliases to collections", () => {
    const anchors = `base: &b {x: 1}\n${Array.from({ length: 51 }, (_, i) => `k${i}: *b`).join("\n")}\n`;
    expect(withJenkins(anchors).problems).toEqual([leftOut("Number of aliases for non-scalar nodes exceeds the specified max=50")]);
  });

  it("too many values: past 200,000 (readYaml's bound on a document), counted as it is read", () => {
    expect(withJenkins(`a:\n${"- 1\n".repeat(200_000)}`).problems).toEqual([leftOut("it holds more than 200000 values")]);
  });

  it("within the bounds, the same file reads as before", () => {
    let deep = "";
    for (let i = 0; i < 64; i++) deep += `${" ".repeat(i)}k${i}:\n`;
    expect(withJenkins(deep)).toEqual({ view: { jenkins: expect.any(Object), plugins: ["git"] }, problems: [], incomplete: [] });
  });
});

describe("an ordinary export reads as readYaml read it", () => {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name.endsWith(".yaml")) files.push(path.join(dir, entry.name));
    }
  };
  walk(REAL);

  it("every file of the real exports and bundles: the value parseYaml gives, or its error", () => {
    for (const file of files) {
      const content = fs.readFileSync(file);
      const before = parseYaml(content);
      const now = readServerYaml(content);
      expect({ file, read: now.ok ? now.value : now.error }).toEqual({ file, read: before.ok ? before.value : before.error });
    }
  });

  it("several jcasc files merge as JCasC's override strategy merges them (mergeJcascFiles)", () => {
    const jcasc = {
      "a.yaml": "jenkins:\n  systemMessage: a\n  labels: [x]\n  mode: NORMAL\nunclassified:\n  location: {url: 'http://a'}\n",
      "b.yaml": "jenkins:\n  systemMessage: b\n  labels: [q]\n  mode: {kind: x}\ntool:\n  git: {}\n",
    };
    const files = exportFiles({ "bundle.yaml": { ...DESCRIPTOR, jcasc: Object.keys(jcasc) }, ...jcasc, "plugins.yaml": PLUGINS });
    const { view, problems } = exportedView(files);
    expect(problems).toEqual([]);
    expect(view.jenkins).toEqual(mergedJcascValue(mergeJcascFiles(files, Object.keys(jcasc), "override")));
    expect(view.jenkins).toEqual({ jenkins: { systemMessage: "b", labels: ["x", "q"], mode: "NORMAL" }, unclassified: { location: { url: "http://a" } }, tool: { git: {} } });
  });

  it("a key set twice in a jcasc file merges under override, as before", () => {
    const { view } = withJenkins("jenkins:\n  labels: [x]\njenkins:\n  labels: [q]\n  mode: NORMAL\n");
    expect(view.jenkins).toEqual({ jenkins: { labels: ["x", "q"], mode: "NORMAL" } });
  });
});
