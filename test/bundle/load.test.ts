import * as path from "node:path";
import { BundleLoadError, loadBundle } from "../../provider/bundle";
import { cleanTemp, SAMPLE_BUNDLES, tempDir, VALID, writeFiles } from "./helpers";

afterAll(cleanTemp);

describe("loadBundle", () => {
  it("reads a sample child bundle: typed descriptor and its section files", () => {
    const b = loadBundle(path.join(SAMPLE_BUNDLES, "team-a"));
    expect(b.dir).toBe(path.join(SAMPLE_BUNDLES, "team-a"));
    expect(b.descriptor).toMatchObject({
      apiVersion: 1,
      id: "team-a",
      version: "1",
      parent: "base",
      availabilityPattern: "team-a/.*",
      jcascMergeStrategy: "override",
      jcasc: ["jenkins.yaml"],
      items: ["items.yaml"],
    });
    expect(b.sections).toEqual({ jcasc: ["jenkins.yaml"], plugins: [], catalog: [], rbac: [], items: ["items.yaml"], variables: [] });
    expect(b.sectionFiles).toEqual(["jenkins.yaml", "items.yaml"]);
  });

  it("accepts numbers and quoted strings alike, and expands a folder entry to the YAML files below it", () => {
    const dir = writeFiles(tempDir(), {
      ...VALID,
      "bundle.yaml": "apiVersion: 2\nid: 7\nversion: 3\nitems:\n  - items/\nvariables:\nitemRemoveStrategy:\n  items: SYNC\nextra: kept out\n",
      "items/notes.txt": "not yaml",
    });
    const b = loadBundle(dir);
    expect(b.descriptor).toMatchObject({ apiVersion: 2, id: "7", version: "3", items: ["items/"], itemRemoveStrategy: { items: "SYNC" } });
    expect(b.descriptor).not.toHaveProperty("extra");
    expect(b.sections.items).toEqual(["items/a.yaml", "items/b.yaml"]);
    expect(b.sections.variables).toEqual([]);
  });

  it("throws BundleLoadError listing every problem, in the lint texts", () => {
    const dir = writeFiles(tempDir(), {
      "bundle.yaml": 'apiVersion: "x"\nversion: "1"\njcascMergeStrategy: merge\njcasc: jenkins.yaml\n',
    });
    let error: unknown;
    try {
      loadBundle(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BundleLoadError);
    expect((error as BundleLoadError).problems).toEqual([
      "'apiVersion' property in the bundle.yaml file must be an integer.",
      "Missing id property in the bundle.yaml file.",
      "Invalid jcascMergeStrategy 'merge': use errorOnConflict or override.",
      "The 'jcasc' property in the bundle.yaml file must be a list of file or folder names.",
    ]);
    expect((error as Error).message).toContain(`Cannot load the bundle in ${dir}:\n- 'apiVersion'`);
  });

  it("throws for a missing descriptor and for entries naming nothing", () => {
    expect(() => loadBundle(writeFiles(tempDir(), { "jenkins.yaml": "{}\n" }))).toThrow("Invalid bundle - Missing descriptor");
    const dir = writeFiles(tempDir(), { "bundle.yaml": 'apiVersion: 1\nid: x\nversion: "1"\nrbac:\n  - rbac/\n  - r.yaml\n' });
    expect(() => loadBundle(dir)).toThrow(
      expect.objectContaining({
        problems: [
          "The folder 'rbac/' referenced in section 'rbac' does not exist in the bundle.",
          "The file 'r.yaml' referenced in section 'rbac' does not exist in the bundle.",
        ],
      }),
    );
  });
});
