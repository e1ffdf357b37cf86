import * as fs from "node:fs";
import * as path from "node:path";
import {
  configurationDigests,
  describeDrift,
  digestOf,
  digestOfForm,
  expectedView,
  exportedView,
  exportTextFiles,
  JcascMergeError,
  PRESENT,
} from "../../provider/configuration";
import { cleanTemps, filesOf, REAL, tempDir } from "./helpers";

// Real pairs from public repositories (test/fixtures/real-exports/SOURCE.md): an export and the bundle made from it
// compare equal; bundleutils' merged bundles against the same bundles merged as the CasC plugin merges them.

afterAll(cleanTemps);

const CREDENTIALS = path.join(REAL, "bundleutils", "credentials");

describe("bundleutils credentials: the real export (fetched-bundle) against the bundle made from it (audit-no-hash-expected)", () => {
  const expected = expectedView(CREDENTIALS, "audit-no-hash-expected");
  const exported = exportedView(filesOf(path.join(CREDENTIALS, "fetched-bundle")));
  const digests = configurationDigests(expected, exported.view, []);

  it("reads the export without problems and shows no drift", () => {
    expect(exported.problems).toEqual([]);
    expect(exported.incomplete).toEqual([]);
    expect(describeDrift(digests.expected, digests.running)).toEqual([]);
    expect(digests.running).toEqual(digests.expected);
  });

  it("compares each credential on its own paths, its secret by presence", () => {
    const keys = Object.keys(digests.expected);
    const secret = 'jenkins.yaml: credentials.system.domainCredentials[0].credentials["windows2012"].basicSSHUserPrivateKey.privateKeySource.directEntry.privateKey';
    expect(keys).toContain(secret);
    expect(keys).toContain('jenkins.yaml: credentials.system.domainCredentials[0].credentials["bbactoken"].usernamePassword.description');
    expect(keys).toContain('items.yaml: item "casc-bundles"');
    expect(digests.expected[secret]).toBe(`${digestOf(PRESENT)} (the credentials section)`);
    expect(digests.running[secret]).toBe(digests.expected[secret]);
    expect(digestOfForm(digests.running[secret]!)).not.toBe(digestOf("{AQAAABAAAAblablabla}"));
  });

  it("holds no secret text and no variable name in any key or digest", () => {
    const text = JSON.stringify(digests) + describeDrift(digests.expected, { ...digests.running, x: "y" }).join("\n");
    for (const secret of ["AQAAAB", "blablabla", "WINDOWS2012_PRIVATEKEYSOURCE", "BBACTOKEN_PASSWORD", "${"]) expect(text).not.toContain(secret);
  });

  it("finds a credential's description changed on the controller in the same real export", () => {
    const files = filesOf(path.join(CREDENTIALS, "fetched-bundle"));
    const jenkins = files.get("jenkins.yaml")!.toString("utf8").replace("            bbactoken\n", "            bbactoken rotated\n");
    files.set("jenkins.yaml", Buffer.from(jenkins));
    const changed = configurationDigests(expected, exportedView(files).view, []);
    expect(describeDrift(changed.expected, changed.running)).toEqual([
      'jenkins.yaml: credentials.system.domainCredentials[0].credentials["bbactoken"].usernamePassword.description changed',
    ]);
  });
});

describe("bundleutils credentials: the real export against the audit's hashed form (audit-expected)", () => {
  // The audit writes `bu-hash-...` in each secret field: a literal text under a secret's field name, compared by presence.
  it("shows no drift, and no hash text reaches a digest", () => {
    const d = configurationDigests(expectedView(CREDENTIALS, "audit-expected"), exportedView(filesOf(path.join(CREDENTIALS, "fetched-bundle"))).view, []);
    expect(describeDrift(d.expected, d.running)).toEqual([]);
    expect(Object.values(d.expected)).not.toContain(digestOf("bu-hash-056cedb4a44c8e9d41823e2d"));
    expect(JSON.stringify(d)).not.toContain("bu-hash");
  });
});

const MERGE = path.join(REAL, "bundleutils", "merge-bundles-use-parent");

/** The merge-bundles tree with jcascMergeStrategy set on child1 (grandchild1 inherits it). */
function treeWithStrategy(strategy: string): string {
  const root = tempDir("merge-");
  fs.cpSync(MERGE, root, { recursive: true });
  const descriptor = path.join(root, "child1", "bundle.yaml");
  fs.writeFileSync(descriptor, `${fs.readFileSync(descriptor, "utf8")}jcascMergeStrategy: ${strategy}\n`);
  return root;
}

describe("bundleutils merge-bundles-use-parent: a child with its parents against bundleutils' merged bundle", () => {
  it("base alone equals base-expected", () => {
    const d = configurationDigests(expectedView(MERGE, "base"), exportedView(filesOf(path.join(MERGE, "base-expected"))).view, []);
    expect(describeDrift(d.expected, d.running)).toEqual([]);
    expect(Object.keys(d.expected).length).toBeGreaterThan(20);
  });

  // bundleutils merges a child's value over its parent's; the CasC plugin merges jcasc files with JCasC, whose default
  // strategy errorOnConflict refuses a scalar set twice, even to the same value: base and child1 both set
  // unclassified.bundleUpdateTiming and unclassified.hibernationConfiguration (12 scalars).
  it("as the CasC plugin merges them by default (errorOnConflict), the chain child1 -> base is refused", () => {
    expect(() => expectedView(MERGE, "child1")).toThrow(JcascMergeError);
    expect(() => expectedView(MERGE, "grandchild1")).toThrow(
      /^The jcasc files of bundle "grandchild1" and its parents cannot be merged: Conflicting jcasc configuration at 'unclassified\.[a-zA-Z.]+': set in 'base\/jenkins\.yaml' line \d+ and 'child1\/jenkins(\.casc)?\.yaml' line \d+; .* \(11 more\)$/,
    );
  });

  // With override, the later value wins as in bundleutils. One difference stays: bundleutils lets the child's
  // `primaryView: {list: ...}` replace the parent's `primaryView: {all: ...}`; JCasC merges the two mappings key by key,
  // so the effective bundle declares primaryView.all as well, which bundleutils' merged folder does not have.
  for (const [bundle, merged] of [
    ["child1", "base-child1-expected"],
    ["grandchild1", "base-child1-grandchild1-expected"],
  ]) {
    it(`${bundle} with override equals ${merged} but for the primaryView JCasC keeps`, () => {
      const tree = treeWithStrategy("override");
      const d = configurationDigests(expectedView(tree, bundle!), exportedView(filesOf(path.join(MERGE, merged!))).view, []);
      expect(describeDrift(d.expected, d.running)).toEqual(["jenkins.yaml: jenkins.primaryView.all.name missing"]);
      expect(Object.keys(d.expected).length).toBeGreaterThan(100);
    });
  }

  it("a change the grandchild makes is seen against the child's merge (grandchild1 sets gracePeriod 1800)", () => {
    const tree = treeWithStrategy("override");
    const d = configurationDigests(expectedView(tree, "grandchild1"), exportedView(filesOf(path.join(MERGE, "base-child1-expected"))).view, []);
    expect(describeDrift(d.expected, d.running)).toEqual([
      "jenkins.yaml: jenkins.primaryView.all.name missing",
      "jenkins.yaml: unclassified.hibernationConfiguration.gracePeriod changed",
    ]);
  });
});

describe("the CasC client plugin's BundleExportTest bundles read as exports", () => {
  const root = path.join(REAL, "casc-client", "BundleExportTest");
  const cases = fs.readdirSync(root).sort();

  it.each(cases)("%s parses with exportedView without problems (after the placeholder replacement the plugin's test makes)", (name) => {
    const files = filesOf(path.join(root, name));
    for (const [file, content] of files) files.set(file, Buffer.from(content.toString("utf8").replaceAll("%%URL%%", "http://127.0.0.1:8080")));
    const { view, problems } = exportedView(files);
    expect(problems).toEqual([]);
    expect(view.plugins).toEqual(expect.arrayContaining(["configuration-as-code", "beer"]));
    const d = configurationDigests(view, view, []);
    expect(describeDrift(d.expected, d.running)).toEqual([]);
  });

  it("a file left unreadable (the raw URL placeholder is not YAML) is reported and the others still read", () => {
    const { view, problems, incomplete } = exportedView(filesOf(path.join(root, "apiVersion1")));
    expect(incomplete).toEqual(["plugin-catalog.yaml"]);
    expect(problems).toEqual([expect.stringMatching(/^The export's file "plugin-catalog\.yaml" is not valid YAML/)]);
    expect(view.catalog).toEqual({});
    expect(view.plugins).toEqual(["configuration-as-code", "icon-shim", "beer"]);
    expect(view.jenkins).toEqual({ jenkins: { systemMessage: "Configured as Code" } });
  });
});

describe("bundleutils fetch: a real export in core-casc-export's text form against the bundle bundleutils makes of it", () => {
  const FETCH = path.join(REAL, "bundleutils", "fetch");

  it("splits the text into its files", () => {
    const files = exportTextFiles(fs.readFileSync(path.join(FETCH, "multiline-systemMessage.yaml"), "utf8"));
    expect([...files.keys()]).toEqual(["bundle.yaml", "jenkins.yaml"]);
    const { view, problems } = exportedView(files);
    expect(problems).toEqual([]);
    expect((view.jenkins as any).jenkins.systemMessage).toBe('\nHello People! \n\nHow are you? \n"This is quote"\n\nHere we are!\n');
  });

  // The export leaves out `value` for env entries whose value is empty; bundleutils' fetch writes `value: ''` back.
  it("missing-env-values: no drift, the empty values the export leaves out equal to the bundle's ''", () => {
    const exported = exportedView(exportTextFiles(fs.readFileSync(path.join(FETCH, "missing-env-values.yaml"), "utf8")));
    expect(exported.problems).toEqual([]);
    const d = configurationDigests(expectedView(FETCH, "missing-env-values-expected"), exported.view, []);
    expect(Object.keys(d.expected)).toContain("jenkins.yaml: jenkins.globalNodeProperties[0].envVars.env[0].value");
    expect(describeDrift(d.expected, d.running)).toEqual([]);
    const changed = exportedView(exportTextFiles(fs.readFileSync(path.join(FETCH, "missing-env-values.yaml"), "utf8").replace('key: "needs_empty_value"', 'key: "needs_empty_value"\n        value: "set by hand"')));
    const d2 = configurationDigests(expectedView(FETCH, "missing-env-values-expected"), changed.view, []);
    expect(describeDrift(d2.expected, d2.running)).toEqual(["jenkins.yaml: jenkins.globalNodeProperties[0].envVars.env[0].value changed"]);
  });
});
