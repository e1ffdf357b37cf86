import {
  ABSENT,
  configurationDigests,
  type ConfigurationView,
  describeDrift,
  digestOf,
  exportedView,
  PRESENT,
} from "../../provider/configuration";
import { exportFiles } from "./helpers";

// Drift as a person means it: each case changes one thing on the controller (the running view) and checks the lines.

const credential = (id: string, extra: Record<string, unknown> = {}) => ({
  usernamePassword: { id, scope: "GLOBAL", username: "bot", description: `${id} token`, password: "${" + id.toUpperCase() + "_PASSWORD}", ...extra },
});

/** A bundle declaring a little of everything. */
function bundle(): ConfigurationView {
  return {
    jenkins: {
      jenkins: { systemMessage: "Managed by Pulumi", numExecutors: 0, agentProtocols: ["JNLP4-connect", "Ping"] },
      unclassified: { location: { adminAddress: "ci@example.org", url: "https://ci.example.org/" } },
      credentials: { system: { domainCredentials: [{ credentials: [credential("github-token"), credential("nexus")] }] } },
    },
    plugins: ["git", "configuration-as-code"],
    rbac: {
      removeStrategy: { rbac: "sync" },
      roles: [{ name: "developer", permissions: ["hudson.model.Item.Build", "hudson.model.Item.Read"] }],
      groups: [{ name: "admins", roles: [{ name: "administer" }], members: { users: ["alice"] } }],
    },
    items: {
      removeStrategy: "none",
      items: [
        { kind: "pipeline", name: "deploy", description: "Deploys" },
        { kind: "folder", name: "team", items: [{ kind: "pipeline", name: "build", description: "Builds" }] },
      ],
    },
  };
}

/** The controller running exactly that bundle, as an export writes it (secrets encrypted, variables escaped, its own additions). */
function controller(): ConfigurationView {
  const view = structuredClone(bundle()) as ConfigurationView & { jenkins: Record<string, any> };
  const creds = view.jenkins.credentials.system.domainCredentials[0].credentials as any[];
  creds.forEach((c, i) => (c.usernamePassword.password = `{AQAAABAAAAAQ${i}encryptedPerInstanceXYZ=}`));
  view.jenkins.license = { key: "x" };
  view.jenkins.jenkins.labelAtoms = [{ name: "built-in" }];
  view.jenkins.jenkins.mode = "NORMAL"; // a default the bundle does not declare
  view.jenkins.unclassified.operationsCenterRootAction = { url: "https://oc/" };
  return view;
}

function drift(running: ConfigurationView, ignore: string[] = [], expected: ConfigurationView = bundle()): string[] {
  const d = configurationDigests(expected, running, ignore);
  return describeDrift(d.expected, d.running);
}

const j = (v: ConfigurationView): Record<string, any> => v.jenkins as Record<string, any>;
const cred = (v: ConfigurationView, i: number): Record<string, any> => j(v).credentials.system.domainCredentials[0].credentials[i].usernamePassword;

describe("drift", () => {
  it("none for the controller running the bundle (secrets, export additions and undeclared defaults aside)", () => {
    expect(drift(controller())).toEqual([]);
  });

  it("a changed declared leaf", () => {
    const running = controller();
    j(running).unclassified.location.adminAddress = "someone@example.org";
    expect(drift(running)).toEqual(["jenkins.yaml: unclassified.location.adminAddress changed"]);
  });

  it("a value the bundle does not declare is the controller's own", () => {
    const running = controller();
    j(running).jenkins.quietPeriod = 10;
    j(running).unclassified.location.extra = { anything: true };
    expect(drift(running)).toEqual([]);
  });

  it("a credential's description changed", () => {
    const running = controller();
    cred(running, 1).description = "changed by hand";
    expect(drift(running)).toEqual(['jenkins.yaml: credentials.system.domainCredentials[0].credentials["nexus"].usernamePassword.description changed']);
  });

  it("a secret changed is no drift (compared by presence), a secret removed is", () => {
    const changed = controller();
    cred(changed, 0).password = "{AQAAABAAAAAQanotherEncryptionOfAnotherSecret}";
    expect(drift(changed)).toEqual([]);
    const removed = controller();
    delete cred(removed, 0).password;
    expect(drift(removed)).toEqual(['jenkins.yaml: credentials.system.domainCredentials[0].credentials["github-token"].usernamePassword.password missing']);
    const emptied = controller();
    cred(emptied, 0).password = "";
    expect(drift(emptied)).toEqual(['jenkins.yaml: credentials.system.domainCredentials[0].credentials["github-token"].usernamePassword.password changed']);
  });

  it("a credential added by hand under the declared list, and one deleted", () => {
    const running = controller();
    const creds = j(running).credentials.system.domainCredentials[0].credentials as unknown[];
    creds.push(credential("hand-made"));
    creds.splice(1, 1);
    const lines = drift(running);
    expect(lines).toContain('jenkins.yaml: credentials.system.domainCredentials[0].credentials["hand-made"] added');
    expect(lines).toContain('jenkins.yaml: credentials.system.domainCredentials[0].credentials["nexus"].usernamePassword.description missing');
  });

  it("a plugin installed by hand, and one the bundle names that is not installed", () => {
    const running = controller();
    running.plugins = ["configuration-as-code", "ssh-agent"];
    expect(drift(running)).toEqual(["plugins.yaml: -git", "plugins.yaml: +ssh-agent"]);
  });

  it("an item edited, also inside a folder", () => {
    const running = controller();
    (running.items!.items[0] as Record<string, unknown>)["description"] = "edited in the UI";
    ((running.items!.items[1] as any).items[0] as Record<string, unknown>)["disabled"] = true; // undeclared: the controller's own
    expect(drift(running)).toEqual(['items.yaml: item "deploy" changed']);
    ((running.items!.items[1] as any).items[0] as Record<string, unknown>)["description"] = "x";
    expect(drift(running)).toEqual(['items.yaml: item "deploy" changed', 'items.yaml: item "team/build" changed']);
  });

  it("an item added by hand: allowed under strategy NONE, drift under SYNC", () => {
    const running = controller();
    running.items!.items.push({ kind: "freeStyle", name: "scratch" });
    expect(drift(running)).toEqual([]);
    const sync = bundle();
    sync.items!.removeStrategy = "SYNC";
    expect(drift(running, [], sync)).toEqual(['items.yaml: item "scratch" added']);
  });

  it("an RBAC role changed, and a group added by hand (strategy sync) but not under update", () => {
    const running = controller();
    (running.rbac as any).roles[0].permissions.push("hudson.model.Item.Delete");
    (running.rbac as any).groups.push({ name: "hand-made", roles: [] });
    expect(drift(running)).toEqual(['rbac.yaml: group "hand-made" added', 'rbac.yaml: role "developer" changed']);
    const update = bundle();
    (update.rbac as any).removeStrategy = { rbac: "UPDATE" };
    expect(drift(running, [], update)).toEqual(['rbac.yaml: role "developer" changed']);
  });

  it("list order changed is no drift (scalar lists, lists keyed by identity, permissions)", () => {
    const running = controller();
    j(running).jenkins.agentProtocols.reverse();
    j(running).credentials.system.domainCredentials[0].credentials.reverse();
    (running.rbac as any).roles[0].permissions.reverse();
    running.plugins!.reverse();
    expect(drift(running)).toEqual([]);
  });

  it("ignore paths leave a path and everything below it out, on both sides", () => {
    const running = controller();
    j(running).jenkins.systemMessage = "changed";
    cred(running, 0).description = "changed";
    running.plugins!.push("ssh-agent");
    const ignore = ["jenkins.yaml: jenkins.systemMessage", 'jenkins.yaml: credentials.system.domainCredentials[0].credentials["github-token"]', "plugins.yaml"];
    expect(drift(running, ignore)).toEqual([]);
    const d = configurationDigests(bundle(), running, ignore);
    expect(Object.keys(d.expected).some((k) => k.startsWith("plugins.yaml") || k.includes("systemMessage") || k.includes("github-token"))).toBe(false);
    expect(drift(running, ["jenkins.yaml: jenkins.system"])).toContain("jenkins.yaml: jenkins.systemMessage changed"); // a path, not a prefix of a name
  });

  it("carets an export escapes variables with are undone (one or more)", () => {
    const expected: ConfigurationView = { jenkins: { jenkins: { systemMessage: "Hello ${USER_NAME}", labelString: "a^b" } } };
    for (const carets of ["^", "^^", "^^^"]) {
      const running: ConfigurationView = { jenkins: { jenkins: { systemMessage: `Hello ${carets}\${USER_NAME}`, labelString: "a^b" } } };
      expect(drift(running, [], expected)).toEqual([]);
    }
    expect(drift({ jenkins: { jenkins: { systemMessage: "Hello ^${USER_NAME}", labelString: "ab" } } }, [], expected)).toEqual(["jenkins.yaml: jenkins.labelString changed"]);
  });

  it("a variable the bundle uses is compared by presence: the controller shows it resolved", () => {
    const expected: ConfigurationView = { jenkins: { unclassified: { location: { url: "${JENKINS_URL}" } } } };
    expect(drift({ jenkins: { unclassified: { location: { url: "https://ci.example.org/" } } } }, [], expected)).toEqual([]);
    expect(drift({ jenkins: { unclassified: { location: {} } } }, [], expected)).toEqual(["jenkins.yaml: unclassified.location.url missing"]);
  });

  it("a literal secret in a bundle is never hashed: compared by presence", () => {
    const expected: ConfigurationView = { jenkins: { x: { password: "hunter2", token: "t0k3n" } } };
    const d = configurationDigests(expected, { jenkins: { x: { password: "{AQAAABAAAAAQsomethingEncrypted=}", token: "other" } } }, []);
    expect(Object.values(d.expected)).toEqual([`${digestOf(PRESENT)} ("password" names a secret)`, `${digestOf(PRESENT)} ("token" names a secret)`]);
    expect(JSON.stringify(d)).not.toContain(digestOf("hunter2"));
    expect(describeDrift(d.expected, d.running)).toEqual([]);
  });

  it("what an export adds (license, labelAtoms, operationsCenterRootAction) is never compared, even when declared", () => {
    const expected: ConfigurationView = { jenkins: { license: { key: "k" }, jenkins: { labelAtoms: [{ name: "a" }], numExecutors: 2 }, unclassified: { operationsCenterRootAction: { x: 1 } } } };
    const d = configurationDigests(expected, { jenkins: { jenkins: { numExecutors: 2 } } }, []);
    expect(Object.keys(d.expected)).toEqual(["jenkins.yaml: jenkins.numExecutors"]);
  });

  it("without a running side every key is absent there (the expected side alone)", () => {
    const d = configurationDigests(bundle(), undefined, []);
    expect(Object.keys(d.running)).toEqual(Object.keys(d.expected));
    expect(new Set(Object.values(d.running))).toEqual(new Set([ABSENT]));
    expect(Object.values(d.expected)).not.toContain(ABSENT);
  });

  it("drift read from export files as a zipExport gives them", () => {
    const running = controller();
    running.plugins!.push("ssh-agent");
    const files = exportFiles({
      "bundle.yaml": { apiVersion: "1", id: "c1", description: "Autogenerated bundle descriptor", version: "1", jcasc: ["jenkins.yaml"], plugins: ["plugins.yaml"], rbac: ["rbac.yaml"], items: ["items.yaml"] },
      "jenkins.yaml": running.jenkins,
      "plugins.yaml": { plugins: running.plugins!.map((id) => ({ id })) },
      "rbac.yaml": running.rbac,
      "items.yaml": { removeStrategy: { items: "NONE", rbac: "SYNC" }, items: running.items!.items },
    });
    const { view, problems } = exportedView(files);
    expect(problems).toEqual([]);
    expect(drift(view)).toEqual(["plugins.yaml: +ssh-agent"]);
  });
});

describe("scalars and zips", () => {
  it("a scalar compares by its text (an export may write 2 where the bundle wrote '2')", () => {
    const expected: ConfigurationView = { jenkins: { jenkins: { numExecutors: "2", disableRememberMe: "true" } } };
    expect(drift({ jenkins: { jenkins: { numExecutors: 2, disableRememberMe: true } } }, [], expected)).toEqual([]);
    expect(drift({ jenkins: { jenkins: { numExecutors: 3, disableRememberMe: true } } }, [], expected)).toEqual(["jenkins.yaml: jenkins.numExecutors changed"]);
  });

  it("an export zipped inside one folder is read the same", () => {
    const files = exportFiles({
      "c1/bundle.yaml": { apiVersion: "1", id: "c1", version: "1", jcasc: ["jenkins.yaml"], plugins: ["plugins.yaml"] },
      "c1/jenkins.yaml": { jenkins: { systemMessage: "x" } },
      "c1/plugins.yaml": { plugins: [{ id: "git" }] },
    });
    expect(exportedView(files)).toEqual({ view: { jenkins: { jenkins: { systemMessage: "x" } }, plugins: ["git"] }, problems: [], incomplete: [] });
  });

  it("an export without a readable bundle.yaml is read by the usual file names, and says so", () => {
    const { view, problems, incomplete } = exportedView(exportFiles({ "jenkins.yaml": { jenkins: { systemMessage: "x" } }, "plugins.yaml": { plugins: [{ id: "git" }] }, "items.yaml": "items: [" }));
    expect(incomplete).toEqual(["items.yaml"]);
    expect(view).toEqual({ jenkins: { jenkins: { systemMessage: "x" } }, plugins: ["git"], items: { removeStrategy: "none", items: [] } });
    expect(problems).toEqual([
      "The export's bundle.yaml cannot be read (Invalid bundle - Missing descriptor); its files are read by their usual names.",
      expect.stringMatching(/^The export's file "items\.yaml" is not valid YAML \(.*\); it is left out\.$/),
    ]);
  });

  it("an export's problems quote file names escaped and bounded", () => {
    const evil = `evil\u001b]52;c;AAAA\u0007${"x".repeat(5000)}.yaml`;
    const { problems, incomplete } = exportedView(exportFiles({ "bundle.yaml": { id: "c", jcasc: [evil, "jenkins.yaml"] }, "jenkins.yaml": { a: 1 } }));
    expect(incomplete).toEqual(["jenkins.yaml"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^The export lists "evil\\u001b\]52;c;AAAA\\u0007x+\.\.\.[0-9a-f]{12}" in section 'jcasc' but holds no such file; it is left out\.$/);
    expect(problems[0]!.length).toBeLessThan(300);
  });
});
