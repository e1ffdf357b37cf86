import { type Emulator, startEmulator } from "../../emulator";
import { call, copyBundles, post } from "./helpers";

/**
 * The Job Configuration History plugin as the emulator answers, against what jenkinsci/job-config-history-plugin
 * (read at e360da6c) does: JobConfigHistoryRootAction.getConfigs (`configs`, newest first; `filter` system by default,
 * all, jobs, deleted, created; an empty list without the permission, getSystemConfigs), JobConfigHistoryProjectAction
 * (`@Exported(name = "jobConfigHistory")`), ConfigInfo's `@Exported` getters (user, userID, date, job, operation,
 * hasConfig, changeReasonComment, currentName, oldName), JobConfigHistoryConsts.ID_FORMATTER (`yyyy-MM-dd_HH-mm-ss`,
 * local time, no zone), configOutput.jelly (text/xml for type=xml, text/plain otherwise), the SYSTEM user of what
 * configuration as code applies (PluginUtils.getSystemHistoryDao, ACL.SYSTEM_USERNAME) and no entry for a save that
 * changes nothing (FileHistoryDao.checkDuplicate).
 */

const A = "team-a/controller-a";
const DATE = /^\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d$/;
const ALICE = { id: "alice", fullName: "Alice Liddell" };

let emu: Emulator;
let url: string;

beforeAll(async () => {
  emu = await startEmulator({ bundlesDir: copyBundles() });
  url = emu.controllerUrls[A]!;
});
afterAll(() => emu?.close());

const history = async (query = "") => (await call(emu, `${url}jobConfigHistory/api/json${query}`)).json;

describe("the emulator's Job Configuration History plugin", () => {
  it("records what the controller started with as SYSTEM, in the controller's local time, no zone", async () => {
    const body = await history();
    expect(body._class).toBe("hudson.plugins.jobConfigHistory.JobConfigHistoryRootAction");
    const config = body.configs.find((c: { job: string }) => c.job === "config");
    expect(config).toEqual({
      _class: "hudson.plugins.jobConfigHistory.ConfigInfo",
      changeReasonComment: null,
      currentName: "",
      date: expect.stringMatching(DATE),
      hasConfig: true,
      job: "config",
      oldName: "",
      operation: "Changed",
      user: "SYSTEM",
      userID: "SYSTEM",
    });
    // One hour east of UTC by default: the date is the local wall clock, not UTC.
    // (Read as UTC, it is an hour ahead of the moment it was written: compared within minutes, never at an hour's edge.)
    expect(config.date).toMatch(/^\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d$/);
    const asUtc = Date.parse(`${config.date.slice(0, 10)}T${config.date.slice(11).replaceAll("-", ":")}Z`);
    expect(Math.round((asUtc - Date.now()) / 600_000)).toBe(6);
    expect(body.configs.map((c: { job: string }) => c.job)).toContain("jenkins.model.JenkinsLocationConfiguration");
  });

  it("a change in the UI is recorded by its person for the file it lives in, newest first; the same save again is not", async () => {
    emu.changeConfiguration(A, "jenkins.yaml", "jenkins.systemMessage", "Maintenance tonight", ALICE);
    emu.changeConfiguration(A, "jenkins.yaml", "unclassified.location.adminAddress", "bob@example.org", "bob");
    emu.changeConfiguration(A, "jenkins.yaml", "jenkins.systemMessage", "Maintenance tonight", "carol");
    const configs = (await history()).configs as Array<{ job: string; date: string }>;
    const newestOf = (job: string) => configs.find((c) => c.job === job);
    expect(newestOf("jenkins.model.JenkinsLocationConfiguration")).toMatchObject({ userID: "bob", user: "bob", operation: "Changed" });
    expect(newestOf("config")).toMatchObject({ userID: "alice", user: "Alice Liddell" });
    expect(configs.map((c) => c.date)).toEqual(configs.map((c) => c.date).sort().reverse());
    expect(emu.state.configHistory(A).filter((c) => c.userID === "carol")).toEqual([]);
  });

  it("a plugin installed by hand leaves no entry; a bundle applied by a reload is SYSTEM's", async () => {
    const before = emu.state.configHistory(A).length;
    emu.installPlugin(A, "ssh-agent", undefined, ALICE);
    expect(emu.state.configHistory(A)).toHaveLength(before);
    const oc = emu.operationsCenterUrl;
    await post(emu, `${oc}casc-bundle/set-controller-to-bundle?controllerPath=${encodeURIComponent(A)}&bundleId=team-a`);
    expect((await post(emu, `${url}casc-bundle-mgnt/reload-bundle`)).json).toEqual({ reloaded: true });
    const [newest] = emu.state.configHistory(A);
    expect(newest).toMatchObject({ job: "config", userID: "SYSTEM", operation: "Changed" });
  });

  it("two saves of one file in one second get two dates (the plugin waits for the next second)", () => {
    emu.changeConfiguration(A, "jenkins.yaml", "jenkins.quietPeriod", 1, "dave");
    emu.changeConfiguration(A, "jenkins.yaml", "jenkins.quietPeriod", 2, "erin");
    const [erin, dave] = emu.state.configHistory(A);
    expect([erin!.userID, dave!.userID]).toEqual(["erin", "dave"]);
    expect(erin!.date > dave!.date).toBe(true);
  });

  it("Jenkins' tree picks fields and a range of the list", async () => {
    const body = await history("?tree=configs[userID,date,job]{0,2}");
    expect(body.configs).toHaveLength(2);
    expect(Object.keys(body.configs[0]).sort()).toEqual(["_class", "date", "job", "userID"]);
    expect((await history("?tree=configs[job]{1}")).configs).toEqual([{ _class: "hudson.plugins.jobConfigHistory.ConfigInfo", job: emu.state.configHistory(A)[1]!.job }]);
  });

  it("an item's history at <item>/jobConfigHistory/api/json, cut by maxEntriesPerPage; the overview names it folder/jobs/item", async () => {
    emu.changeConfiguration(A, "items.yaml", "team", { kind: "folder" }, ALICE);
    emu.changeConfiguration(A, "items.yaml", "team/build", { kind: "pipeline", description: "one" }, ALICE);
    emu.changeConfiguration(A, "items.yaml", "team/build", { kind: "pipeline", description: "two" }, "bob");
    const item = (await call(emu, `${url}job/team/job/build/jobConfigHistory/api/json`)).json;
    expect(item._class).toBe("hudson.plugins.jobConfigHistory.JobConfigHistoryProjectAction");
    expect(item.jobConfigHistory.map((e: { operation: string; userID: string; job: string }) => [e.operation, e.userID, e.job])).toEqual([
      ["Changed", "bob", "team/build"],
      ["Created", "alice", "team/build"],
    ]);
    emu.setConfigHistory(A, { maxEntriesPerPage: 1 });
    expect((await call(emu, `${url}job/team/job/build/jobConfigHistory/api/json`)).json.jobConfigHistory).toHaveLength(1);
    emu.setConfigHistory(A, { maxEntriesPerPage: null });
    const all = (await history("?filter=all")).configs.map((c: { job: string }) => c.job);
    expect(all).toEqual(expect.arrayContaining(["team/jobs/build", "team", "config"]));
    expect((await call(emu, `${url}job/nothing/jobConfigHistory/api/json`)).status).toBe(404);
  });

  it("configOutput shows a revision: text/plain for type=raw, text/xml for type=xml; a secret field encrypted", async () => {
    emu.changeConfiguration(A, "jenkins.yaml", "credentials.system.domainCredentials[0].credentials[0].string", { id: "t", secret: "s3cr3t-value" }, ALICE);
    const entry = emu.state.configHistory(A).find((c) => c.job === "credentials")!;
    const raw = await call(emu, `${url}jobConfigHistory/configOutput?type=raw&name=credentials&timestamp=${entry.date}`);
    expect(raw.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(raw.text).toContain("<id>t</id>");
    expect(raw.text).toMatch(/<secret>\{AQAAABAAAA[^<]+\}<\/secret>/);
    expect(raw.text).not.toContain("s3cr3t-value");
    const xml = await call(emu, `${url}jobConfigHistory/configOutput?type=xml&name=config&timestamp=${emu.state.configHistory(A).find((c) => c.job === "config")!.date}`);
    expect(xml.headers.get("content-type")).toMatch(/^text\/xml/);
    expect(xml.text).toMatch(/^<\?xml/);
  });

  it("without the permission system entries need: 200 and an empty list; without the plugin: 404", async () => {
    emu.setConfigHistory(A, { systemHistoryVisible: false });
    const hidden = await call(emu, `${url}jobConfigHistory/api/json`);
    expect(hidden.status).toBe(200);
    expect(hidden.json.configs).toEqual([]);
    expect((await call(emu, `${url}jobConfigHistory/configOutput?type=raw&name=config&timestamp=x`)).text).toBe("No permission to view config files");
    emu.setConfigHistory(A, { systemHistoryVisible: true, installed: false });
    expect((await call(emu, `${url}jobConfigHistory/api/json`)).status).toBe(404);
    emu.setConfigHistory(A, { installed: true });
    expect(() => emu.setConfigHistory(A, { utcOffsetMinutes: 2000 })).toThrow(/utcOffsetMinutes/);
  });
});
