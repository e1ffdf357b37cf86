import * as fs from "node:fs";
import * as path from "node:path";
import { lintBundle } from "../../provider/bundle";
import { ALL_PASSED, cleanTemp, SAMPLE_BUNDLES, tempDir, VALID, writeFiles } from "./helpers";

afterAll(cleanTemp);

const DESCRIPTOR = VALID["bundle.yaml"]!;

/** Lints VALID changed by `change` (a file set to null is left out), in a folder named `name`. */
function lintChanged(change: Record<string, string | null>, name = "ok") {
  const files = { ...VALID, ...change };
  const dir = path.join(tempDir(), name);
  fs.mkdirSync(dir);
  writeFiles(dir, Object.fromEntries(Object.entries(files).filter(([, v]) => v !== null)) as Record<string, string>);
  return lintBundle(dir);
}

describe("lintBundle: one test per check, each bundle breaking exactly that rule", () => {
  it("accepts the unbroken bundle (quoted apiVersion, folder entry expanded)", () => {
    const r = lintChanged({});
    expect(r.valid).toBe(true);
    expect(r.format()).toEqual(ALL_PASSED);
    expect(r.format({ quiet: true })).toEqual([]);
  });

  it("writes no success line where the server's words for that outcome are not public: a strategy set, a catalog", () => {
    const r = lintChanged({
      "bundle.yaml": `${DESCRIPTOR}jcascMergeStrategy: "override"\ncatalog:\n  - "catalog.yaml"\n`,
      "catalog.yaml": "type: plugin-catalog\nname: one\n",
    });
    expect(r.valid).toBe(true);
    expect(r.messages.map((m) => m.code)).toEqual(["STRUCTURE", "CONTVAL", "SCHEMA", "DESCVAL", "VERSIONVAL", "APIVAL", "ITEMSTRATEGY"]);
  });

  it.each<[string, Record<string, string | null>, string | string[]]>([
    ["missing descriptor", { "bundle.yaml": null }, "ERROR - [STRUCTURE] - Invalid bundle - Missing descriptor"],
    ["missing id", { "bundle.yaml": DESCRIPTOR.replace('id: "ok"\n', "") }, "ERROR - [DESCVAL] - Missing id property in the bundle.yaml file."],
    [
      "missing version",
      { "bundle.yaml": DESCRIPTOR.replace('version: "1"\n', "") },
      "ERROR - [VERSIONVAL] - Missing version property in the bundle.yaml file.",
    ],
    [
      "apiVersion not an integer",
      { "bundle.yaml": DESCRIPTOR.replace('apiVersion: "1"', 'apiVersion: "one"') },
      "ERROR - [APIVAL] - 'apiVersion' property in the bundle.yaml file must be an integer.",
    ],
    [
      "apiVersion not 1 or 2",
      { "bundle.yaml": DESCRIPTOR.replace('apiVersion: "1"', "apiVersion: 3") },
      "ERROR - [APIVAL] - 'apiVersion' property in the bundle.yaml file must be 1 or 2.",
    ],
    [
      "apiVersion missing",
      { "bundle.yaml": DESCRIPTOR.replace('apiVersion: "1"\n', "") },
      "ERROR - [APIVAL] - Missing apiVersion property in the bundle.yaml file.",
    ],
    [
      "referenced file that does not exist",
      { "bundle.yaml": DESCRIPTOR.replace('  - "jenkins.yaml"\n', '  - "jenkins.yaml"\n  - "missing.yaml"\n') },
      [
        "ERROR - [CONTVAL] - The file 'missing.yaml' referenced in section 'jcasc' does not exist in the bundle.",
        "ERROR - [JCASC] - The bundle.yaml file references missing.yaml in the Jenkins Configuration as Code section that cannot be found. Impossible to validate Jenkins Configuration as Code.",
      ],
    ],
    [
      "referenced folder that does not exist",
      { "bundle.yaml": `${DESCRIPTOR}rbac:\n  - "rbac/"\n` },
      [
        "ERROR - [CONTVAL] - The folder 'rbac/' referenced in section 'rbac' does not exist in the bundle.",
        "ERROR - [RBAC] - The bundle.yaml file references rbac/ in the RBAC section that cannot be found. Impossible to validate RBAC.",
      ],
    ],
    [
      "file that no section references",
      { "stray.yaml": "unused: true\n" },
      "WARNING - [CONTVAL] - Unreferenced files/folders stray.yaml found in bundle folder.",
    ],
    [
      "section file that is not valid YAML (the YAML check, then the JCasC validator's)",
      { "jenkins.yaml": "jenkins:\n  systemMessage: a: b\n" },
      [
        "ERROR - [SCHEMA] - The file 'jenkins.yaml' is not valid YAML: Nested mappings are not allowed in compact mappings at line 2, column 18.",
        "ERROR - [JCASC] - The bundle.yaml file references jenkins.yaml in the Jenkins Configuration as Code section that is empty or has an invalid yaml format. Impossible to validate Jenkins Configuration as Code.",
      ],
    ],
    [
      "unknown jcascMergeStrategy",
      { "bundle.yaml": `${DESCRIPTOR}jcascMergeStrategy: "merge"\n` },
      "ERROR - [JCASCSTRATEGY] - Invalid jcascMergeStrategy 'merge': use errorOnConflict or override.",
    ],
    [
      "unknown itemRemoveStrategy",
      { "bundle.yaml": `${DESCRIPTOR}itemRemoveStrategy:\n  items: "delete-everything"\n` },
      "ERROR - [ITEMSTRATEGY] - Invalid itemRemoveStrategy: items must be none, sync, remove-supported or remove-all; rbac must be update or sync.",
    ],
    [
      "unknown removeStrategy in an items file",
      { "items/b.yaml": VALID["items/b.yaml"]!.replace("rbac: SYNC", "rbac: MERGE") },
      "ERROR - [ITEMSTRATEGY] - Invalid removeStrategy in the file 'items/b.yaml': items must be none, sync, remove-supported or remove-all; rbac must be update or sync.",
    ],
    [
      "more than one plugin catalog",
      {
        "bundle.yaml": `${DESCRIPTOR}catalog:\n  - "catalog-1.yaml"\n  - "catalog-2.yaml"\n`,
        "catalog-1.yaml": "type: plugin-catalog\nname: one\n",
        "catalog-2.yaml": "type: plugin-catalog\nname: two\n",
      },
      "WARNING - [CATALOGVAL] - More than one plugin catalog file used in ok. Using only first read file.",
    ],
    [
      "parent not among the sibling bundles",
      { "bundle.yaml": `${DESCRIPTOR}parent: "ghost"\n` },
      "ERROR - [STRUCTURE] - Parent bundle 'ghost' of bundle 'ok' not found",
    ],
  ])("%s", (_rule, change, expected) => {
    expect(lintChanged(change).format({ quiet: true })).toEqual([expected].flat());
  });

  it("reports a cycle of parents", () => {
    const root = tempDir();
    writeFiles(root, {
      "a/bundle.yaml": 'apiVersion: 1\nid: a\nversion: "1"\nparent: b\n',
      "b/bundle.yaml": 'apiVersion: 1\nid: b\nversion: "1"\nparent: a\n',
    });
    const r = lintBundle(path.join(root, "a"));
    expect(r.format({ quiet: true })).toEqual(["ERROR - [STRUCTURE] - Bundle 'a' has a parent cycle through 'a'"]);
    expect(r.valid).toBe(false);
  });

  it("gives structured messages: level, code, text, file and, for YAML syntax, line", () => {
    const r = lintChanged({ "jenkins.yaml": "jenkins:\n  systemMessage: a: b\n", "stray.yaml": "x: 1\n" });
    expect(r).toMatchObject({ name: "ok", errors: 2, warnings: 1, valid: false });
    // The validators that found something write no success line; the others do, first.
    expect(r.messages.filter((m) => m.level === "INFO").map((m) => m.code)).toEqual(["STRUCTURE", "DESCVAL", "VERSIONVAL", "APIVAL", "JCASCSTRATEGY", "ITEMSTRATEGY", "CATALOGVAL", "CATALOGVAL"]);
    expect(r.messages.filter((m) => m.level !== "INFO")).toEqual([
      {
        level: "ERROR",
        code: "SCHEMA",
        message: "The file 'jenkins.yaml' is not valid YAML: Nested mappings are not allowed in compact mappings at line 2, column 18.",
        file: "jenkins.yaml",
        line: 2,
      },
      {
        level: "ERROR",
        code: "JCASC",
        message:
          "The bundle.yaml file references jenkins.yaml in the Jenkins Configuration as Code section that is empty or has an invalid yaml format. Impossible to validate Jenkins Configuration as Code.",
        file: "jenkins.yaml",
      },
      { level: "WARNING", code: "CONTVAL", message: "Unreferenced files/folders stray.yaml found in bundle folder.", file: "stray.yaml" },
    ]);
    // Plain JSON apart from format(): nothing undefined.
    expect(JSON.parse(JSON.stringify(r.messages))).toEqual(r.messages);
  });

  it("points at the line of a bundle.yaml that is not YAML", () => {
    const r = lintChanged({ "bundle.yaml": 'apiVersion: 1\nid: x\n  version: "1"\n' });
    expect(r.messages).toEqual([
      {
        level: "ERROR",
        code: "DESCVAL",
        message: "The bundle.yaml file is not valid YAML: Nested mappings are not allowed in compact mappings at line 2, column 5.",
        file: "bundle.yaml",
        line: 2,
      },
    ]);
  });

  it("looks parents up by path below siblingsRoot, through nested folders, and follows grand-parents", () => {
    const root = tempDir();
    writeFiles(root, {
      "base/bundle.yaml": 'apiVersion: 1\nid: base\nversion: "1"\nparent: "platform/ghost"\n',
      "teams/c/bundle.yaml": 'apiVersion: 1\nid: c\nversion: "1"\nparent: base\n',
    });
    const nested = path.join(root, "teams", "c");
    // Default root (the folder above the bundle) has no 'base'.
    expect(lintBundle(nested).format({ quiet: true })).toEqual(["ERROR - [STRUCTURE] - Parent bundle 'base' of bundle 'c' not found"]);
    const r = lintBundle(nested, { siblingsRoot: root });
    expect(r.name).toBe("teams/c");
    expect(r.format({ quiet: true })).toEqual(["ERROR - [STRUCTURE] - Parent bundle 'platform/ghost' of bundle 'base' not found"]);
    writeFiles(root, { "platform/ghost/bundle.yaml": 'apiVersion: 1\nid: ghost\nversion: "1"\n' });
    expect(lintBundle(nested, { siblingsRoot: root }).format({ quiet: true })).toEqual([]);
  });

  it("throws when the folder does not exist", () => {
    expect(() => lintBundle(path.join(tempDir(), "nope"))).toThrow(/Bundle folder not found: .*nope/);
  });
});

describe("sample bundles", () => {
  const samples = fs.readdirSync(SAMPLE_BUNDLES).filter((n) => fs.existsSync(path.join(SAMPLE_BUNDLES, n, "bundle.yaml")));

  it("include at least one child bundle", () => {
    expect(samples.length).toBeGreaterThanOrEqual(2);
    expect(samples.some((n) => /^parent:/m.test(fs.readFileSync(path.join(SAMPLE_BUNDLES, n, "bundle.yaml"), "utf8")))).toBe(true);
  });

  it.each(samples)("%s lints clean (no ERROR, no WARNING)", (name) => {
    const r = lintBundle(path.join(SAMPLE_BUNDLES, name));
    expect(r.format({ quiet: true })).toEqual([]);
    expect(r).toMatchObject({ errors: 0, warnings: 0, valid: true });
  });
});

describe("lintBundle: availabilityPattern is a Java regex, as the operations center compiles it", () => {
  const withPattern = (pattern: string) => lintChanged({ "bundle.yaml": `${DESCRIPTOR}availabilityPattern: '${pattern}'\n` });

  it("accepts Java-only syntax a real operations center accepts (inline flags, possessive quantifiers)", () => {
    expect(withPattern("(?i)team-a/.*+").errors).toBe(0);
  });

  it("refuses a pattern that compiles nowhere, with the reason", () => {
    const r = withPattern("team-(a");
    expect(r.valid).toBe(false);
    expect(r.format().find((m) => m.startsWith("ERROR"))).toMatch(/^ERROR - \[DESCVAL\] - Invalid availabilityPattern 'team-\(a': .*Unterminated group/);
  });
});
