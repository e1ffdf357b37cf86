/**
 * `pulumi-cloudbees import --bundle-tree`: where each controller's URL comes from (given, an instance of the
 * connection, a pattern, CloudBees CI's layout), what is noted instead when it is not known, and the program's text.
 */
import { programText, type Installation } from "../../cli/program-text";
import { controllerUrlOf, type ControllerReadings } from "../../cli/controller-text";

const OC = "https://ci.example.com/cjoc/";
const bundle = (name: string, usedBy: string[]) => ({ name, url: "", regex: "", availabilityPatternFromYaml: false, availableFor: usedBy, usedBy });
const readings = (extra: Partial<ControllerReadings> = {}): ControllerReadings => ({ operationsCenterUrl: OC, ...extra });

describe("a controller's URL", () => {
  it("is CloudBees CI's layout by default: <base>/<controller name>/ beside <base>/cjoc/", () => {
    expect(controllerUrlOf("team-a/controller-a", readings(), {}, 1)).toMatchObject({ instanceUrl: "https://ci.example.com/controller-a/", source: expect.stringMatching(/^derived from the operations center's URL/) });
    expect(controllerUrlOf("ctl", readings({ operationsCenterUrl: "https://example.com/ci/cjoc" }), {}, 1)).toMatchObject({ instanceUrl: "https://example.com/ci/ctl/" });
  });

  it("is not known when the operations center is not at .../cjoc/, or when two controllers share a name", () => {
    expect(controllerUrlOf("team-a/c", readings({ operationsCenterUrl: "https://oc.example.com/" }), {}, 1)).toEqual({ unknown: expect.stringMatching(/does not end in \/cjoc\//) });
    expect(controllerUrlOf("team-a/c", readings(), {}, 2)).toEqual({ unknown: expect.stringMatching(/^2 controllers are named "c"/) });
  });

  it("comes from --controller-url first, then an instance named after the controller, then the pattern", () => {
    const instances = { "team-a-c": "https://a.example.com/", c2: "https://c2.example.com" };
    const options = { controllerUrls: { "team-a/c": "https://given.example.com/c" }, controllerUrlPattern: "https://p.example.com/{path}/x-{name}" };
    expect(controllerUrlOf("team-a/c", readings({ instances }), options, 1)).toEqual({ instanceUrl: "https://given.example.com/c/", source: "given with --controller-url" });
    expect(controllerUrlOf("team-a/c", readings({ instances }), { controllerUrlPattern: options.controllerUrlPattern }, 1)).toMatchObject({ instance: "team-a-c" });
    // The controller's own name names an instance only when no other controller has that name.
    expect(controllerUrlOf("team-b/c2", readings({ instances }), {}, 1)).toMatchObject({ instance: "c2" });
    expect(controllerUrlOf("team-b/c2", readings({ instances }), {}, 2)).toEqual({ unknown: expect.any(String) });
    // Each segment encoded, as a URL path needs.
    expect(controllerUrlOf("f ö/c d", readings(), options, 1)).toEqual({ instanceUrl: "https://p.example.com/f%20%C3%B6/c%20d/x-c%20d/", source: "from --controller-url-pattern" });
  });

  it("names the connection's instance at the URL found, so that its own credentials apply", () => {
    const found = controllerUrlOf("team-a/c", readings({ instances: { mine: "https://ci.example.com/c" } }), {}, 1);
    expect(found).toMatchObject({ instance: "mine", source: expect.stringMatching(/^derived .*: instance "mine" of the connection's settings$/) });
  });
});

describe("the program with --bundle-tree", () => {
  const inst: Installation = {
    operationsCenterUrl: OC,
    globalVisibility: true,
    bundles: [bundle("team-a", ["team-a/ctl", "team-b/ctl"]), bundle("lost", ["x/only"]), bundle("team-c", ["c/solo"])],
    missingFromBundleTree: ["lost"],
  };

  it("declares each assigned controller's configuration, its bundleId the assignment's output, its URL's source said", () => {
    const text = programText(inst, { bundleTree: "bundles", controllerUrls: { "team-a/ctl": "https://ci.example.com/a/" } });
    expect(text).toContain(
      'const teamACtlAssignment = new cloudbees.ControllerBundleAssignment("assign-team-a-ctl", {\n  controllerPath: "team-a/ctl",\n  bundleId: "team-a",\n}, { dependsOn: [globalVisibility] });\n' +
        '// What "team-a/ctl" runs, against its bundle; its URL given with --controller-url.\n' +
        "new cloudbees.ControllerConfiguration(\"configuration-team-a-ctl\", {\n" +
        '  controllerPath: "team-a/ctl",\n  instanceUrl: "https://ci.example.com/a/",\n  bundleTreePath: "bundles",\n  bundleId: teamACtlAssignment.bundleId,\n});',
    );
    expect(text).toContain('instanceUrl: "https://ci.example.com/solo/"');
    // Not known: the two "ctl" would share CloudBees CI's URL; "lost" is not in the tree. Their assignments stay.
    expect(text).toContain('// Not declared: the configuration of "team-b/ctl": its URL is not known: 2 controllers are named "ctl"');
    expect(text).toContain('// Not declared: the configuration of "x/only": its bundle "lost" has no folder with a bundle.yaml in --bundle-tree "bundles".');
    expect(text).toContain('new cloudbees.ControllerBundleAssignment("assign-team-b-ctl", {\n  controllerPath: "team-b/ctl",');
    expect(text.match(/new cloudbees\.ControllerConfiguration\(/g)).toHaveLength(2);
    expect(text).toContain('// Each assigned controller\'s ControllerConfiguration compares what it runs with its bundle in "bundles"');
  });

  it("declares none without it, and only the selected controllers' with --controllers", () => {
    expect(programText(inst)).not.toContain("ControllerConfiguration");
    const text = programText(inst, { bundleTree: "bundles", controllers: /c\/.*/ });
    expect(text.match(/new cloudbees\.ControllerConfiguration\(/g)).toHaveLength(1);
    expect(text).not.toContain('"team-b/ctl"');
  });

  it("keeps server text data: a controller's path with a line separator stays escaped in code and notes", () => {
    const hostile = "team\u2028alert(1)/c";
    const text = programText({ ...inst, bundles: [bundle("team-a", [hostile])] }, { bundleTree: "b\u2029x" });
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(text).toContain('controllerPath: "team\\u2028alert(1)/c"');
    expect(text).toContain('bundleTreePath: "b\\u2029x"');
  });
});
