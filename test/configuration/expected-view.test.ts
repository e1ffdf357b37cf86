import * as fs from "node:fs";
import * as path from "node:path";
import {
  BundleDescriptorError,
  BundleNotFoundError,
  ConfigurationError,
  effectOfChange,
  expectedView,
  ignorePathProblem,
  JcascDocumentError,
  JcascMergeError,
  MissingParentError,
  ParentCycleError,
  UnreadableYamlError,
} from "../../provider/configuration";
import { specifiersOf } from "../layout/import-rules";
import { cleanTemps, writeTree } from "./helpers";

afterAll(cleanTemps);

const descriptor = (id: string, extra: Record<string, unknown> = {}) => ({ apiVersion: "1", id, version: "1", description: id, ...extra });

/** A parent `base` (jcasc, plugins, rbac, items) and a child `team` that inherits it and adds a little. */
function family(base: Record<string, unknown> = {}): string {
  return writeTree({
    base: {
      "bundle.yaml": descriptor("base", { jcasc: ["jenkins.yaml"], plugins: ["plugins.yaml"], rbac: ["rbac.yaml"], items: ["items.yaml"], jcascMergeStrategy: "override" }),
      "jenkins.yaml": { jenkins: { systemMessage: "base", numExecutors: 0 }, unclassified: { location: { adminAddress: "base@example.org" } } },
      "plugins.yaml": { plugins: [{ id: "git" }, { id: "configuration-as-code" }] },
      "rbac.yaml": { removeStrategy: { rbac: "SYNC" }, roles: [{ name: "developer", permissions: ["hudson.model.Item.Read"] }] },
      "items.yaml": { removeStrategy: { items: "NONE", rbac: "SYNC" }, items: [{ kind: "pipeline", name: "shared", description: "from base" }] },
      ...base,
    },
    team: {
      "bundle.yaml": descriptor("team", { parent: "base", jcasc: ["jcasc/"], plugins: ["plugins.yaml"], items: ["items.yaml"] }),
      "jcasc/a.yaml": { jenkins: { systemMessage: "team" } },
      "jcasc/b.yaml": { unclassified: { location: { url: "https://team/" } } },
      "plugins.yaml": { plugins: [{ id: "ssh-agent" }] },
      "items.yaml": { removeStrategy: { items: "SYNC", rbac: "SYNC" }, items: [{ kind: "folder", name: "team", items: [{ kind: "pipeline", name: "deploy" }] }] },
    },
  });
}

describe("expectedView", () => {
  it("is the bundle with its parents, merged as the CasC plugin merges an effective bundle", () => {
    const view = expectedView(family(), "team");
    expect(view.jenkins).toEqual({
      jenkins: { systemMessage: "team", numExecutors: 0 },
      unclassified: { location: { adminAddress: "base@example.org", url: "https://team/" } },
    });
    expect(view.plugins).toEqual(["git", "configuration-as-code", "ssh-agent"]);
    expect(view.rbac).toEqual({ removeStrategy: { rbac: "SYNC" }, roles: [{ name: "developer", permissions: ["hudson.model.Item.Read"] }], groups: [] });
    expect(view.items?.removeStrategy).toBe("sync");
    expect(view.items?.items).toHaveLength(2);
    expect(view.catalog).toBeUndefined();
  });

  it("leaves out what no level declares", () => {
    const root = writeTree({ lone: { "bundle.yaml": descriptor("lone", { jcasc: ["jenkins.yaml"] }), "jenkins.yaml": { jenkins: { numExecutors: 1 } } } });
    expect(expectedView(root, "lone")).toEqual({ jenkins: { jenkins: { numExecutors: 1 } } });
  });

  it("throws a typed error naming the bundle and the way out", () => {
    const root = family();
    expect(() => expectedView(root, "nope")).toThrow(BundleNotFoundError);
    expect(() => expectedView(root, "nope")).toThrow(/^No bundle "nope" in the bundle tree ".*" .* Bundles there: "base", "team"; check bundleId\.$/);

    const orphan = writeTree({ child: { "bundle.yaml": descriptor("child", { parent: "gone" }) } });
    expect(() => expectedView(orphan, "child")).toThrow(MissingParentError);
    expect(() => expectedView(orphan, "child")).toThrow('Bundle "child" names the parent "gone", which is not in the bundle tree: add it, or fix \'parent\' in its bundle.yaml.');

    const cycle = writeTree({ a: { "bundle.yaml": descriptor("a", { parent: "b" }) }, b: { "bundle.yaml": descriptor("b", { parent: "a" }) } });
    expect(() => expectedView(cycle, "a")).toThrow(ParentCycleError);
    expect(() => expectedView(cycle, "a")).toThrow('Bundle "a" has a parent cycle through "a": a bundle cannot inherit from itself;');

    const missing = writeTree({ m: { "bundle.yaml": descriptor("m", { jcasc: ["absent.yaml"] }) } });
    expect(() => expectedView(missing, "m")).toThrow(BundleDescriptorError);
    expect(() => expectedView(missing, "m")).toThrow(
      `Bundle "m" references the missing file 'absent.yaml' in section 'jcasc'. Fix the bundle (lintBundle of pulumi-cloudbees/provider lists every problem).`,
    );

    const parentUnreadable = writeTree({ m: { "bundle.yaml": descriptor("m", { parent: "p" }) }, p: { "bundle.yaml": "a: [" } });
    expect(() => expectedView(parentUnreadable, "m")).toThrow(/^Bundle "p": The bundle\.yaml file is not valid YAML: .* Fix the bundle/);

    const list = writeTree({ m: { "bundle.yaml": descriptor("m", { jcasc: ["j.yaml"] }), "j.yaml": "- a\n" } });
    expect(() => expectedView(list, "m")).toThrow(JcascDocumentError);
    expect(() => expectedView(list, "m")).toThrow('The jcasc file "j.yaml" of bundle "m" does not hold a mapping, which JCasC requires: fix the file.');
  });

  it("unreadable YAML names the bundle and the file; the parent's too", () => {
    const broken = family({ "plugins.yaml": "plugins: [\n" });
    try {
      expectedView(broken, "team");
      throw new Error("no error");
    } catch (e) {
      expect(e).toBeInstanceOf(UnreadableYamlError);
      expect(e).toBeInstanceOf(ConfigurationError);
      expect((e as UnreadableYamlError).bundle).toBe("base");
      expect((e as UnreadableYamlError).file).toBe("plugins.yaml");
      expect((e as Error).message).toMatch(/^The file "plugins\.yaml" of bundle "base" is not valid YAML.*Fix the file\.$/);
    }
    expect(() => expectedView(family({ "jenkins.yaml": "a: [" }), "team")).toThrow(/^The file "jenkins\.yaml" of bundle "base" is not valid YAML/);
  });

  it("jcasc files JCasC cannot merge (errorOnConflict) are refused as the operations center refuses them", () => {
    const root = family({ "bundle.yaml": descriptor("base", { jcasc: ["jenkins.yaml"] }) });
    expect(() => expectedView(root, "team")).toThrow(JcascMergeError);
    expect(() => expectedView(root, "team")).toThrow(/Conflicting jcasc configuration at 'jenkins\.systemMessage': set in 'base\/jenkins\.yaml' line 2 and 'team\/jcasc\/a\.yaml' line 2/);
  });

  it("a hostile bundle name is escaped in the message", () => {
    expect(() => expectedView(family(), "x\u001b[2J\ny")).toThrow('No bundle "x\\u001b[2J\\ny"');
  });
});

describe("effectOfChange: a parent's change seen by each child", () => {
  it("names what the child gains, loses and changes", () => {
    const root = family();
    const before = expectedView(root, "team");
    fs.writeFileSync(path.join(root, "base", "plugins.yaml"), "plugins:\n- id: configuration-as-code\n- id: matrix-auth\n");
    fs.writeFileSync(path.join(root, "base", "jenkins.yaml"), "jenkins:\n  systemMessage: base\n  numExecutors: 2\nunclassified:\n  location:\n    adminAddress: base@example.org\n");
    fs.writeFileSync(path.join(root, "base", "rbac.yaml"), "removeStrategy:\n  rbac: SYNC\nroles:\n- name: developer\n  permissions: [hudson.model.Item.Read, hudson.model.Item.Build]\n- name: viewer\n  permissions: []\n");
    fs.writeFileSync(path.join(root, "base", "items.yaml"), "removeStrategy:\n  items: NONE\n  rbac: SYNC\nitems: []\n");
    const after = expectedView(root, "team");
    expect(effectOfChange(before, after, [])).toEqual([
      'items.yaml: item "shared" removed',
      "jenkins.yaml: jenkins.numExecutors changed",
      "plugins.yaml: -git",
      "plugins.yaml: +matrix-auth",
      'rbac.yaml: role "developer" changed',
      'rbac.yaml: role "viewer" added',
    ]);
    expect(effectOfChange(before, after, ["plugins.yaml", "items.yaml"])).toEqual([
      "jenkins.yaml: jenkins.numExecutors changed",
      'rbac.yaml: role "developer" changed',
      'rbac.yaml: role "viewer" added',
    ]);
    expect(effectOfChange(before, before, [])).toEqual([]);
  });

  it("a change the child overrides does not reach it", () => {
    const root = family();
    const before = expectedView(root, "team");
    fs.writeFileSync(path.join(root, "base", "jenkins.yaml"), "jenkins:\n  systemMessage: another\n  numExecutors: 0\nunclassified:\n  location:\n    adminAddress: base@example.org\n");
    expect(effectOfChange(before, expectedView(root, "team"), [])).toEqual([]);
    expect(effectOfChange(expectedView(root, "base"), before, [])).toContain("jenkins.yaml: jenkins.systemMessage changed");
  });
});

describe("ignorePathProblem", () => {
  it("accepts a file, or a file and a path; refuses anything else", () => {
    for (const ok of ["jenkins.yaml", "jenkins.yaml: jenkins.systemMessage", 'items.yaml: item "team"', "plugins.yaml: ssh-agent"]) expect(ignorePathProblem(ok)).toBeUndefined();
    for (const bad of ["jenkins.systemMessage", "jenkins.yaml:", "other.yaml: x", ""]) expect(ignorePathProblem(bad)).toMatch(/^An ignore path names a compared file/);
  });
});

describe("provider/configuration stands alone", () => {
  const dir = path.resolve(__dirname, "..", "..", "provider", "configuration");
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts"));

  it.each(files)("%s imports no face, no resource and no emulator, and stays under 400 lines", (file) => {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    for (const specifier of specifiersOf(text)) {
      if (!specifier.startsWith(".")) {
        expect(["node:crypto", "node:fs", "node:path", "yaml", "zod"]).toContain(specifier);
        continue;
      }
      const target = path.relative(path.resolve(dir, "..", ".."), path.resolve(dir, specifier)).split(path.sep).join("/");
      expect(target).toMatch(/^provider\/(configuration|bundle|text)\//);
    }
    expect(text.split("\n").length).toBeLessThan(400);
  });
});
