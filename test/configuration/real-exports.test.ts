import * as fs from "node:fs";
import * as path from "node:path";
import {
  configurationDigests,
  describeDrift,
  digestOf,
  expectedView,
  exportedView,
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
    expect(digests.expected[secret]).toBe(digestOf(PRESENT));
    expect(digests.running[secret]).toBe(digestOf(PRESENT));
    expect(digests.running[secret]).not.toBe(digestOf("{AQAAABAAAAblablabla}"));
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
