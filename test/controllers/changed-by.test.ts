import type { ConfigHistoryEntry, ConfigHistoryRead } from "../../provider/clients/config-history-types";
import { changedByOf, changedByOfFile } from "../../provider/resources/controller-configuration/changed-by";
import { historyFileOf } from "../../provider/resources/controller-configuration/history-files";

// The rules that name who changed a drifted path, never a wrong name (issue 65), on history lists as the Job
// Configuration History plugin writes them (jenkinsci/job-config-history-plugin: ConfigInfo's user, userID, date, job).

const entry = (job: string, userID: string, localTime: string, user = userID): ConfigHistoryEntry => ({ job, userID, user, date: localTime.replace("T", "_").replace(/:/g, "-"), localTime, operation: "Changed" });
const read = (entries: ConfigHistoryEntry[], more: Partial<ConfigHistoryRead> = {}): ConfigHistoryRead => ({ entries, unreadable: [], cut: false, ...more });

describe("the file a path lives in", () => {
  it("names only the files Jenkins is known to keep them in", () => {
    expect(historyFileOf("jenkins.yaml: jenkins.systemMessage")).toEqual({ file: "config" });
    expect(historyFileOf("jenkins.yaml: jenkins.clouds[\"k8s\"].kubernetes.namespace")).toEqual({ file: "config" });
    expect(historyFileOf("jenkins.yaml: jenkins.proxy.name")).toEqual({ file: "proxy" });
    expect(historyFileOf("jenkins.yaml: jenkins.constructor")).toEqual({ file: "config" }); // a YAML key, not Object's
    expect(historyFileOf("jenkins.yaml: unclassified.location.adminAddress")).toEqual({ file: "jenkins.model.JenkinsLocationConfiguration" });
    expect(historyFileOf('jenkins.yaml: credentials.system.domainCredentials[0].credentials["x"].usernamePassword.username')).toEqual({ file: "credentials" });
    expect(historyFileOf('rbac.yaml: role "developer"')).toEqual({ file: "nectar-rbac" });
    for (const key of ["jenkins.yaml: jenkins.nodes", "jenkins.yaml: unclassified.mailer.replyToAddress", "jenkins.yaml: tool.git.installations", 'items.yaml: item "deploy"', "plugins.yaml: git", "plugin-catalog.yaml: beer", "jenkins.yaml", 'jenkins.yaml: "odd.key".x']) {
      expect({ key, where: historyFileOf(key) }).toEqual({ key, where: { none: expect.any(String) } });
    }
  });
});

describe("who changed a file", () => {
  it("the one person since the bundle's last apply (SYSTEM's newest entry), at their newest change", () => {
    const r = read([entry("config", "alice", "2026-11-30T14:05:00", "Alice Liddell"), entry("config", "alice", "2026-11-30T14:02:00"), entry("config", "SYSTEM", "2026-11-30T13:00:00"), entry("config", "bob", "2026-11-29T09:00:00")]);
    expect(changedByOfFile("config", r)).toEqual({ by: "alice", name: "Alice Liddell", at: "2026-11-30T14:05:00 (controller time)", note: "2 changes of config.xml since the bundle's last apply" });
  });

  it("orders by date, not by the answer's order; SYSTEM newest: SYSTEM", () => {
    const r = read([entry("config", "alice", "2026-11-30T14:02:00"), entry("config", "SYSTEM", "2026-11-30T15:00:00")]);
    expect(changedByOfFile("config", r)).toMatchObject({ by: "SYSTEM", at: "2026-11-30T15:00:00 (controller time)" });
  });

  it("unknown, saying why: several people, someone unnamed, no entry, a cut list, an unreadable entry or date, an empty list", () => {
    const several = read([entry("config", "carol", "2026-11-30T14:03:00"), entry("config", "bob", "2026-11-30T14:02:00"), entry("config", "SYSTEM", "2026-11-30T13:00:00"), entry("config", "dave", "2026-11-30T12:00:00")]);
    expect(changedByOfFile("config", several)).toEqual({ by: "unknown", note: 'config.xml was changed since the bundle\'s last apply by "carol", "bob": which of them changed this path, the history cannot tell' });
    for (const nobody of ["unknown", "anonymous", ""]) expect(changedByOfFile("config", read([entry("config", nobody, "2026-11-30T14:00:00")])).by).toBe("unknown");
    expect(changedByOfFile("config", read([entry("credentials", "alice", "2026-11-30T14:00:00")])).note).toMatch(/has no entry of config\.xml/);
    expect(changedByOfFile("config", read([entry("config", "alice", "2026-11-30T14:00:00")], { cut: true })).note).toMatch(/do not reach the bundle's last apply/);
    expect(changedByOfFile("config", read([entry("credentials", "alice", "2026-11-30T14:00:00")], { cut: true })).note).toMatch(/hold none of config\.xml/);
    expect(changedByOfFile("config", read([entry("x", "alice", "2026-11-30T14:00:00")], { unreadable: [{ index: 1, name: "config", problem: "date: expected string" }] })).note).toMatch(/an entry of config\.xml .* cannot be read/);
    const { localTime: _t, ...undated } = entry("config", "alice", "2026-11-30T14:00:00");
    expect(changedByOfFile("config", read([{ ...undated, date: "30.11.2026 14:00" }])).note).toBe('the configuration history writes the date of a change of config.xml as "30.11.2026 14:00", not yyyy-MM-dd_HH-mm-ss, so its changes cannot be ordered');
    expect(changedByOfFile("config", read([])).note).toMatch(/lists no system change .*Overall\/Administer/);
  });

  it("each path by its own file, each file decided once", () => {
    const r = read([entry("config", "alice", "2026-11-30T14:02:00"), entry("jenkins.model.JenkinsLocationConfiguration", "bob", "2026-11-30T14:03:00")]);
    const who = changedByOf(["jenkins.yaml: jenkins.systemMessage", "jenkins.yaml: jenkins.numExecutors", "jenkins.yaml: unclassified.location.url", "plugins.yaml: git"], r);
    expect([...who.values()].map((w) => w.by)).toEqual(["alice", "alice", "bob", "unknown"]);
    expect(who.get("jenkins.yaml: jenkins.systemMessage")).toBe(who.get("jenkins.yaml: jenkins.numExecutors"));
  });
});
