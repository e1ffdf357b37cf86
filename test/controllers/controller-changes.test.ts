/* istanbul ignore file */
/**
 * Who changed a controller, and from what to what (issue 65), through the real provider host against the emulator
 * over real HTTP. The history is the Job Configuration History plugin's (jenkinsci/job-config-history-plugin at
 * e360da6c): `jobConfigHistory/api/json?filter=system` answers `configs` (JobConfigHistoryRootAction.getConfigs),
 * each a ConfigInfo (user, userID, date `yyyy-MM-dd_HH-mm-ss` in the controller's local time, job = the file without
 * `.xml`); what configuration as code applies is `SYSTEM`'s; a caller without the permission gets an empty list
 * with 200 (getSystemConfigs); without the plugin, 404. Each case has its own controller.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { dynamicType, type ManagedResource } from "../harness";
import { providerTextsOf } from "../harness/provider-texts";
import { tempDir } from "../actions/helpers";
import { adminConfig, startWorld, type World } from "../resources/helpers";

const TYPE = dynamicType("cloudbees", "ControllerConfiguration");
const CONTROLLERS = ["named", "watched", "bundled", "no-plugin", "no-permission", "bad-answers", "marked"];
const ALICE = { id: "alice", fullName: "Alice Liddell" };
const MESSAGE = "Managed by the changes bundle";

/** A bundle declaring a message, a location, a credential (its password literal), a setting of a plugin's own file, a plugin. */
function writeBundle(root: string, id: string): void {
  const dir = path.join(root, id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "bundle.yaml"), `apiVersion: "1"\nid: "${id}"\nversion: "1"\navailabilityPattern: ".*"\njcasc:\n  - "jenkins.yaml"\nplugins:\n  - "plugins.yaml"\n`);
  fs.writeFileSync(path.join(dir, "plugins.yaml"), "plugins:\n  - id: git\n");
  fs.writeFileSync(
    path.join(dir, "jenkins.yaml"),
    [
      "jenkins:",
      `  systemMessage: "${MESSAGE}"`,
      "  quietPeriod: 5",
      "unclassified:",
      "  location:",
      '    adminAddress: "ci@example.org"',
      "  buildDiscarders:",
      "    configuredBuildDiscarders:",
      '      - "jobBuildDiscarder"',
      "credentials:",
      "  system:",
      "    domainCredentials:",
      "      - credentials:",
      "          - usernamePassword:",
      "              id: nexus",
      "              scope: GLOBAL",
      "              username: deployer",
      '              description: "Nexus deployer"',
      '              password: "s3cr3t-literal"',
      "",
    ].join("\n"),
  );
}

let w: World;
let served: string;
let program: string;
let text: string;

beforeAll(async () => {
  served = tempDir("served-bundles-");
  program = tempDir("program-bundles-");
  for (const root of [served, program]) for (const id of ["changes", "moved"]) writeBundle(root, id);
  // A short client deadline: the history's own (10 s) is cut to it, so that a slow history costs 1.5 s here.
  w = await startWorld({ emulator: { bundlesDir: served, controllers: CONTROLLERS }, config: (emu) => ({ ...adminConfig(emu), "cloudbees:timeoutMs": "1500" }) });
  text = (await providerTextsOf(["controllerConfiguration"])).controllerConfiguration;
  for (const c of CONTROLLERS) await w.oc.setControllerToBundle(c === "bundled" ? "moved" : "changes", c);
});
afterAll(async () => {
  await w?.close();
  for (const dir of [served, program]) fs.rmSync(dir, { recursive: true, force: true });
});

const historyPath = (c: string) => `/controllers/${c}/jobConfigHistory/api/json`;
const historyRequests = (c: string) => w.emu.journal.entries().filter((e) => e.path === historyPath(c)).length;

/** A resource watching `controller`, brought to its bundle (a reload: SYSTEM's entries in the history). */
async function watched(controller: string, name = controller): Promise<ManagedResource> {
  const bundleId = controller === "bundled" ? "moved" : "changes";
  const r = w.lc.resource(TYPE, name, text, { controllerPath: controller, instanceUrl: w.emu.controllerUrls[controller]!, bundleTreePath: program, bundleId });
  await r.up();
  return r;
}

/** A refresh in a new deployment, and the host's words of it. */
async function refreshed(...resources: ManagedResource[]): Promise<string> {
  await w.nextDeployment();
  w.host.takeOutput();
  w.emu.journal.clear();
  for (const r of resources) await r.refresh({ judge: "diff" });
  await w.host.settleOutput();
  return w.host.takeOutput();
}

/** The note of one drifted path (its warning line), or undefined. */
const noteOf = (out: string, key: string): string | undefined => out.split("\n").find((l) => l.includes(`: ${JSON.stringify(key)} `));

/** The newest history date of a file, as the notes write it: the controller's local time, marked so. */
function newestAt(controller: string, file: string): string {
  const date = w.emu.state.configHistory(controller).find((e) => e.job === file)!.date;
  return `${date.replace("_", "T").replace(/-(\d\d)-(\d\d)$/, ":$1:$2")} (controller time)`;
}

const MESSAGE_KEY = "jenkins.yaml: jenkins.systemMessage";
const DESCRIPTION_KEY = 'jenkins.yaml: credentials.system.domainCredentials[0].credentials["nexus"].usernamePassword.description';

describe("who changed a controller, and from what to what", () => {
  it("a person's changes: that person and time on each path the history decides, the message in clear, a credential's change a digest", async () => {
    const r = await watched("named");
    w.emu.changeConfiguration("named", "jenkins.yaml", "jenkins.systemMessage", "Maintenance tonight", ALICE);
    w.emu.changeConfiguration("named", "jenkins.yaml", "credentials.system.domainCredentials[0].credentials[0].usernamePassword.description", "hand-edited-description", ALICE);
    w.emu.changeConfiguration("named", "jenkins.yaml", "unclassified.buildDiscarders.configuredBuildDiscarders", [], ALICE);
    w.emu.installPlugin("named", "ssh-agent", undefined, ALICE);
    const out = await refreshed(r);
    expect(noteOf(out, MESSAGE_KEY)).toContain(`"${MESSAGE_KEY}" changed by "alice" ("Alice Liddell") at ${newestAt("named", "config")}: "${MESSAGE}" → "Maintenance tonight"`);
    expect(noteOf(out, DESCRIPTION_KEY)).toMatch(
      new RegExp(`changed by "alice" \\("Alice Liddell"\\) at ${newestAt("named", "credentials").replace(/[()]/g, "\\$&")}: [0-9a-f]{16} → [0-9a-f]{16} \\(values kept as digests: the credentials section\\)$`),
    );
    expect(noteOf(out, "jenkins.yaml: unclassified.buildDiscarders.configuredBuildDiscarders")).toContain("by unknown (the setting is saved in its plugin's own file, whose name the path does not tell)");
    expect(noteOf(out, "plugins.yaml: ssh-agent")).toContain('"plugins.yaml: ssh-agent" added by unknown (installing or updating a plugin saves no configuration file the history records): absent → "installed"');
    expect(out).toMatch(/differs from its bundle "changes": .*jenkins\.yaml: jenkins\.systemMessage changed/);
    // The state: the message in clear, the credential's text nowhere; one history request for the controller.
    const configuration = r.state!.outputs.configuration as Record<string, string>;
    expect(configuration[MESSAGE_KEY]).toBe('"Maintenance tonight"');
    expect(configuration[DESCRIPTION_KEY]).toMatch(/^[0-9a-f]{16} \(the credentials section\)$/);
    expect(`${JSON.stringify(r.state)}${out}`).not.toMatch(/hand-edited-description|Nexus deployer|s3cr3t-literal/);
    expect(historyRequests("named")).toBe(1);
  });

  it("one history request per drifted controller, whatever watches it; none for a clean one; several people: unknown, naming them", async () => {
    const [x, y] = [await watched("watched", "watched-x"), await watched("watched", "watched-y")];
    await refreshed(x, y);
    expect(historyRequests("watched")).toBe(0);
    w.emu.changeConfiguration("watched", "jenkins.yaml", "jenkins.systemMessage", "Bob was here", "bob");
    const out = await refreshed(x, y);
    expect(historyRequests("watched")).toBe(1);
    expect(out.match(/changed by "bob" at /g)).toHaveLength(2);
    w.emu.changeConfiguration("watched", "jenkins.yaml", "jenkins.quietPeriod", 9, "carol");
    const both = await refreshed(x);
    expect(noteOf(both, MESSAGE_KEY)).toContain('changed by unknown (config.xml was changed since the bundle\'s last apply by "carol", "bob": which of them changed this path, the history cannot tell): ');
    // The location lives in a file of its own, which nobody changed since the bundle: not named after config.xml's.
    w.emu.changeConfiguration("watched", "jenkins.yaml", "unclassified.location.adminAddress", "dave@example.org", "dave");
    expect(noteOf(await refreshed(x), "jenkins.yaml: unclassified.location.adminAddress")).toContain(`changed by "dave" at ${newestAt("watched", "jenkins.model.JenkinsLocationConfiguration")}: "ci@example.org" → "dave@example.org"`);
  });

  it("a change that came with a bundle (applied as SYSTEM): SYSTEM, and who changed the bundle unknown", async () => {
    const r = await watched("bundled");
    const file = path.join(served, "moved", "jenkins.yaml");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(MESSAGE, "Changed in the bundle location"));
    await w.oc.checkOut();
    w.emu.restartController("bundled");
    const out = await refreshed(r);
    expect(r.state!.outputs.pendingUpdate).toBe("none");
    expect(noteOf(out, MESSAGE_KEY)).toContain(
      `changed by SYSTEM at ${newestAt("bundled", "config")} (configuration as code applied a bundle (at start or by a reload): who changed the bundle, the history cannot tell): "${MESSAGE}" → "Changed in the bundle location"`,
    );
  });

  it("without the plugin, and without the permission: unknown, saying why; the drift still reported", async () => {
    const [a, b] = [await watched("no-plugin"), await watched("no-permission")];
    w.emu.setConfigHistory("no-plugin", { installed: false });
    w.emu.setConfigHistory("no-permission", { systemHistoryVisible: false });
    for (const c of ["no-plugin", "no-permission"]) w.emu.changeConfiguration(c, "jenkins.yaml", "jenkins.systemMessage", `Changed on ${c}`, ALICE);
    const out = await refreshed(a, b);
    const lines = out.split("\n").filter((l) => l.includes(`: ${JSON.stringify(MESSAGE_KEY)} `));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('changed by unknown (the controller does not answer jobConfigHistory: the Job Configuration History plugin is not installed): ');
    expect(lines[1]).toContain("changed by unknown (the configuration history lists no system change (the plugin shows none to a user without Overall/Administer)): ");
    expect(lines[1]).toContain(`→ "Changed on no-permission"`);
    expect(out).not.toContain("alice");
    expect(a.state!.outputs.drift).toEqual(["jenkins.yaml: jenkins.systemMessage changed"]);
  });

  it("values the program marks secret (bundleId): every value a digest, in the state and in every note, until the mark goes", async () => {
    const inputs = { controllerPath: "marked", instanceUrl: w.emu.controllerUrls["marked"]!, bundleTreePath: program, bundleId: "changes" };
    const r = w.lc.resource(TYPE, "marked", text, { ...inputs, __secretInputs: ["bundleId"] });
    await r.up();
    w.emu.changeConfiguration("marked", "jenkins.yaml", "jenkins.systemMessage", "Secretly changed", ALICE);
    const out = await refreshed(r);
    expect(noteOf(out, MESSAGE_KEY)).toMatch(/changed by "alice" \("Alice Liddell"\) at .*: [0-9a-f]{16} → [0-9a-f]{16} \(values kept as digests: the program marks bundleId secret\)$/);
    expect(`${JSON.stringify(r.state)}${out}`).not.toMatch(/Secretly changed|Managed by the changes bundle|ci@example\.org/);
    // The mark gone: an update rewrites the state (the reload puts the message back), and values show again.
    expect(await r.up(inputs)).toMatchObject({ op: "update" });
    expect((r.state!.outputs.configuration as Record<string, string>)[MESSAGE_KEY]).toBe(`"${MESSAGE}"`);
  });

  it("a malformed, huge or slow answer, or a date in another form: the drift still reported, its author unknown, one request each", async () => {
    const r = await watched("bad-answers");
    w.emu.changeConfiguration("bad-answers", "jenkins.yaml", "jenkins.systemMessage", "Changed", ALICE);
    const bad = (body: string) => w.emu.faults.inject({ path: historyPath("bad-answers"), status: 200, body });
    const cases: Array<[() => void, string]> = [
      [() => bad("<html><body>Please wait while Jenkins is restarting</body></html>"), "by unknown (the configuration history's answer cannot be read ("],
      [() => bad(JSON.stringify({ configs: Array.from({ length: 12_000 }, (_, i) => ({ job: `f${i}`, date: "2026-11-30_14-02-33", userID: "x", user: "A name of some length" })) })), "by unknown (the configuration history's answer is larger than 1048576 bytes)"],
      [() => w.emu.faults.inject({ path: historyPath("bad-answers"), answerDelayMs: 2500 }), "by unknown (the configuration history did not answer in time ("],
      [() => bad(JSON.stringify({ configs: [{ job: "config", date: "2026-11-30T14:02:33Z", userID: "mallory", user: "Mallory" }] })), 'by unknown (the configuration history writes the date of a change of config.xml as "2026-11-30T14:02:33Z", not yyyy-MM-dd_HH-mm-ss, so its changes cannot be ordered)'],
    ];
    for (const [fault, said] of cases) {
      fault();
      const out = await refreshed(r);
      expect(noteOf(out, MESSAGE_KEY)).toContain(said);
      expect(noteOf(out, MESSAGE_KEY)).toContain(`"${MESSAGE}" → "Changed"`);
      expect(out).not.toContain("mallory");
      expect(historyRequests("bad-answers")).toBe(1);
      expect(r.state!.outputs.drift).toEqual(["jenkins.yaml: jenkins.systemMessage changed"]);
    }
  });
});
