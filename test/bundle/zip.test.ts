import * as fs from "node:fs";
import * as path from "node:path";
import { branchFolderName, bundleHash, unzipBundle, zipBundle, zipBundleTree } from "../../provider/bundle";
import { cleanTemp, SAMPLE_BUNDLES, tempDir, VALID, writeFiles } from "./helpers";

afterAll(cleanTemp);

const reversed = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).reverse());

async function names(zip: Buffer): Promise<string[]> {
  return Object.keys(await unzipBundle(zip));
}

describe("zipBundle", () => {
  it("puts the bundle's files at the top of the zip and round-trips through unzipBundle", async () => {
    const dir = writeFiles(tempDir(), { ...VALID, ".git/HEAD": "ref", "nested/bundle.yaml": "id: other\n" });
    // Dot-folders and nested bundle folders are not part of the bundle.
    expect(await unzipBundle(await zipBundle(dir))).toEqual(VALID);
  });

  it("gives the same bytes across runs, file creation orders and modification times", async () => {
    const a = writeFiles(tempDir(), VALID);
    const b = writeFiles(tempDir(), reversed(VALID));
    fs.utimesSync(path.join(b, "jenkins.yaml"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const first = await zipBundle(a);
    expect((await zipBundle(a)).equals(first)).toBe(true);
    expect((await zipBundle(b)).equals(first)).toBe(true);
    expect(bundleHash(b)).toBe(bundleHash(a));
    writeFiles(b, { "jenkins.yaml": "jenkins: {}\n" });
    expect((await zipBundle(b)).equals(first)).toBe(false);
    expect(bundleHash(b)).not.toBe(bundleHash(a));
  });
});

describe("zipBundleTree", () => {
  it("lays every bundle out under the branch folder, '/' in the branch written '___'", async () => {
    const zip = await zipBundleTree(SAMPLE_BUNDLES, { branch: "feature/new-agents" });
    expect(await names(zip)).toEqual([
      "feature___new-agents/base/bundle.yaml",
      "feature___new-agents/base/items.yaml",
      "feature___new-agents/base/jenkins.yaml",
      "feature___new-agents/base/plugins.yaml",
      "feature___new-agents/team-a/bundle.yaml",
      "feature___new-agents/team-a/items.yaml",
      "feature___new-agents/team-a/jenkins.yaml",
      "feature___new-agents/team-b/bundle.yaml",
      "feature___new-agents/team-b/jenkins.yaml",
    ]);
  });

  it("keeps only the named bundles plus their parents (transitively), nested folders kept; branch default main", async () => {
    const root = tempDir();
    writeFiles(root, {
      "root/bundle.yaml": 'apiVersion: 1\nid: root\nversion: "1"\n',
      "base/bundle.yaml": 'apiVersion: 1\nid: base\nversion: "1"\nparent: root\n',
      "teams/c/bundle.yaml": 'apiVersion: 1\nid: c\nversion: "1"\nparent: base\n',
      "teams/d/bundle.yaml": 'apiVersion: 1\nid: d\nversion: "1"\nparent: base\n',
      "other/bundle.yaml": 'apiVersion: 1\nid: other\nversion: "1"\nparent: on-the-oc-only\n',
    });
    expect(await names(await zipBundleTree(root, { bundles: ["teams/c"] }))).toEqual([
      "main/base/bundle.yaml",
      "main/root/bundle.yaml",
      "main/teams/c/bundle.yaml",
    ]);
    // A parent that is not below the root is left to the operations center.
    expect(await names(await zipBundleTree(root, { bundles: ["other"], branch: "release/2.0/hotfix" }))).toEqual([
      "release___2.0___hotfix/other/bundle.yaml",
    ]);
    await expect(zipBundleTree(root, { bundles: ["ghost"] })).rejects.toThrow(/Bundle 'ghost' not found below .* \(bundles there: base, other, root, teams\/c, teams\/d\)/);
    await expect(zipBundleTree(root, { bundles: [] })).rejects.toThrow("'bundles' is empty");
  });

  it("gives the same bytes across runs and file creation orders", async () => {
    const tree = {
      "base/bundle.yaml": 'apiVersion: 1\nid: base\nversion: "1"\njcasc:\n  - j.yaml\n',
      "base/j.yaml": "jenkins: {}\n",
      "child/bundle.yaml": 'apiVersion: 1\nid: child\nversion: "1"\nparent: base\n',
    };
    const a = writeFiles(tempDir(), tree);
    const b = writeFiles(tempDir(), reversed(tree));
    const first = await zipBundleTree(a, { branch: "feature/x", bundles: ["child"] });
    expect((await zipBundleTree(a, { branch: "feature/x", bundles: ["child"] })).equals(first)).toBe(true);
    expect((await zipBundleTree(b, { branch: "feature/x", bundles: ["child"] })).equals(first)).toBe(true);
  });

  it("refuses a root without bundle folders and malformed branch names", async () => {
    await expect(zipBundleTree(path.join(SAMPLE_BUNDLES, "base"))).rejects.toThrow(/No bundle below .*zipBundle zips one bundle/);
    for (const bad of ["", "/main", "main/", "a//b", "a/../b", " main"]) expect(() => branchFolderName(bad)).toThrow(/Invalid branch name/);
    expect(branchFolderName("feature/JIRA-1/x")).toBe("feature___JIRA-1___x");
  });
});

describe("unzipBundle", () => {
  it("rejects data that is not a zip", async () => {
    await expect(unzipBundle(Buffer.from("not a zip"))).rejects.toThrow(expect.objectContaining({ name: "NotAZipError" }));
  });
});
