import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { BundleLoadError, bundleHash, lintBundle, loadBundle, unzipBundle, zipBundle, zipBundleTree } from "../../provider/bundle";
import { readBundleFolder } from "../../provider/bundle/files";
import { cascToJs, maxAliasesFromEnvironment, readYaml } from "../../provider/bundle/yaml-reader";
import { cleanTemp, tempDir, VALID, writeFiles } from "./helpers";

// The one folder reader: links never followed outside the bundle, loops detected, dangling links and special files
// reported, never thrown, never waited on. Every consumer reads through it.

afterAll(cleanTemp);

/** A location holding VALID as `ok`, with a dangling link, a link out of the bundle, a FIFO and a folder of links back up. */
function awkwardLocation(): { root: string; bundle: string } {
  const root = tempDir("awkward-");
  const bundle = path.join(root, "ok");
  writeFiles(bundle, VALID);
  writeFiles(root, { "secrets/token.yaml": "token: s3cret\n" });
  fs.symlinkSync("gone.yaml", path.join(bundle, "dangling.yaml"));
  fs.symlinkSync("../secrets/token.yaml", path.join(bundle, "token.yaml"));
  fs.symlinkSync("../secrets", path.join(bundle, "secrets"));
  execFileSync("mkfifo", [path.join(bundle, "pipe.yaml")]);
  // Ten links back to the bundle folder in each of three nested folders: a naive walk reads 10^3 copies.
  for (const level of ["a", "a/b", "a/b/c"]) {
    fs.mkdirSync(path.join(bundle, level), { recursive: true });
    for (let i = 0; i < 10; i++) fs.symlinkSync(path.relative(path.join(bundle, level), bundle), path.join(bundle, level, `up${i}`));
  }
  return { root, bundle };
}

describe("reading bundle folders", () => {
  it("reports what it cannot read and reads the rest once", () => {
    const { bundle } = awkwardLocation();
    const { files, problems } = readBundleFolder(bundle);
    expect([...files.keys()].sort()).toEqual(Object.keys(VALID).sort());
    const texts = problems.map((p) => `${p.level} ${p.code} ${p.file}: ${p.message}`);
    expect(texts).toEqual(
      expect.arrayContaining([
        "ERROR STRUCTURE dangling.yaml: The link 'dangling.yaml' points to nothing (dangling link); it is not read.",
        "ERROR STRUCTURE token.yaml: The link 'token.yaml' points outside the bundle folder; links are never followed outside it, so it is not read.",
        "ERROR STRUCTURE secrets: The link 'secrets' points outside the bundle folder; links are never followed outside it, so it is not read.",
        "ERROR STRUCTURE pipe.yaml: The entry 'pipe.yaml' is neither a file nor a folder; it is not read.",
        "ERROR STRUCTURE a/up0: The link 'a/up0' leads to a folder already read (a link loop, or a second path to one folder); it is not read again.",
      ]),
    );
    expect(problems).toHaveLength(4 + 30);
  });

  it("lint turns the problems into ERROR messages; loadBundle lists them; zips and hashes leave those entries out", async () => {
    const { root, bundle } = awkwardLocation();
    const lint = lintBundle(bundle);
    expect(lint.valid).toBe(false);
    expect(lint.format({ quiet: true })).toContain("ERROR - [STRUCTURE] - The link 'dangling.yaml' points to nothing (dangling link); it is not read.");
    expect(() => loadBundle(bundle)).toThrow(BundleLoadError);
    expect(Object.keys(await unzipBundle(await zipBundle(bundle))).sort()).toEqual(Object.keys(VALID).sort());
    expect(Object.keys(await unzipBundle(await zipBundleTree(root))).sort()).toEqual(Object.keys(VALID).map((f) => `main/ok/${f}`).sort());
    expect(bundleHash(bundle)).toBe(bundleHash(writeFiles(tempDir(), VALID)));
  });

  it("follows links that stay inside the bundle folder", () => {
    const bundle = writeFiles(tempDir(), { ...VALID, "shared/j.yaml": "jenkins:\n  numExecutors: 1\n" });
    fs.symlinkSync("shared/j.yaml", path.join(bundle, "jenkins.yaml.link.yaml"));
    const { files, problems } = readBundleFolder(bundle);
    expect(problems).toEqual([]);
    expect(files.get("jenkins.yaml.link.yaml")!.toString()).toBe("jenkins:\n  numExecutors: 1\n");
  });
});

describe("YAML read as the server reads it", () => {
  it("loadBundle reads YAML 1.1 booleans where the plugin reads one, and a repeated key keeps its last value", () => {
    const dir = writeFiles(tempDir(), { ...VALID, "bundle.yaml": `${VALID["bundle.yaml"]}allowCapExceptions: yes\ndescription: first\ndescription: second\n` });
    expect(loadBundle(dir).descriptor).toMatchObject({ allowCapExceptions: true, description: "second" });
    expect(lintBundle(dir).format({ quiet: true })).toEqual([
      "WARNING - [SCHEMA] - The key 'description' is set twice in the file 'bundle.yaml' (lines 9 and 10); the second value replaces the first.",
    ]);
  });
});

describe("the YAML reader's bounds and SnakeYAML's rules", () => {
  const read = (text: string) => readYaml(text, { file: "f.yaml" });

  it("refuses a recursive alias and a document whose aliases expand past the bound, without expanding it", () => {
    expect(read("a: &a\n  b: *a\n")).toMatchObject({ ok: false, error: "recursive alias: a node cannot hold itself" });
    expect(read("a: *later\nb: &later x\n")).toMatchObject({ ok: false, error: "found undefined alias later" });
    const laughs = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i <= 6; i++) laughs.push(`l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(", ")}]`);
    // 60 aliases to collections: raise the alias limit to reach the expansion bound (10^7 values).
    expect(readYaml(laughs.join("\n"), { maxAliases: 100 })).toMatchObject({ ok: false, error: expect.stringContaining("once its aliases are expanded"), bound: true });
  });

  it("reads CASC_YAML_MAX_ALIASES as YamlClientUtils does: trimmed, a Java int, else 50", () => {
    const limit = (value?: string) => maxAliasesFromEnvironment(value === undefined ? {} : { CASC_YAML_MAX_ALIASES: value });
    expect([limit(), limit(""), limit(" 100 "), limit("+7"), limit("0"), limit("-1")]).toEqual([50, 50, 100, 7, 0, -1]);
    expect([limit("1.5"), limit("ten"), limit("2147483648"), limit("2147483647")]).toEqual([50, 50, 50, 2147483647]);
    // A limit of 0 refuses the first alias to a collection; aliases to scalars are never counted.
    expect(readYaml("a: &a {x: 1}\nb: *a\n", { maxAliases: limit("0") })).toMatchObject({ ok: false, bound: true, line: 2 });
    expect(readYaml("a: &a x\nb: *a\n", { maxAliases: limit("0") })).toMatchObject({ ok: true });
  });

  it("explicit keys win over merged ones, the first of several merged mappings wins, keys are their text", () => {
    const r = read("a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\nc:\n  <<: [*a, *b]\n  y: 3\n  on: 4\n");
    expect(r.ok && cascToJs(r.node)).toEqual({ a: { x: 1, y: 1 }, b: { x: 2, z: 2 }, c: { x: 1, y: 3, z: 2, on: 4 } });
    expect(r.ok && r.duplicates).toEqual([]);
  });
});
