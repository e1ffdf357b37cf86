import { startEmulator, type Emulator } from "../../emulator";
import { InstanceClient, NotFoundError, ResponseTooLargeError, ServerError, TimeoutError, UnexpectedResponseError } from "../../provider";
import { historyLocalTime } from "../../provider/clients/config-history-schemas";
import { FAST } from "./fast-options";

/**
 * InstanceClient.readConfigHistory against the emulator's Job Configuration History plugin, and against answers it
 * must survive. The shape is the plugin's (jenkinsci/job-config-history-plugin at e360da6c):
 * JobConfigHistoryRootAction.getConfigs `@Exported(visibility = 1)` -> `configs`, ConfigInfo's `@Exported` getters
 * (job, date, userID, user, operation), dates by JobConfigHistoryConsts.ID_FORMATTER `yyyy-MM-dd_HH-mm-ss`.
 */

const A = "team-a/controller-a";
let emu: Emulator;
let client: InstanceClient;
let path: string;

beforeAll(async () => {
  emu = await startEmulator();
  client = new InstanceClient({ baseUrl: emu.controllerUrls[A]!, ...emu.credentials.admin, ...FAST });
  path = `${new URL(emu.controllerUrls[A]!).pathname}jobConfigHistory/api/json`;
});
afterAll(async () => {
  await client.close();
  await emu.close();
});
beforeEach(() => {
  emu.journal.clear();
  emu.faults.clear();
});

const requests = () => emu.journal.entries().filter((e) => e.path === path);
const answer = (body: unknown) => emu.faults.inject({ path, status: 200, body: typeof body === "string" ? body : JSON.stringify(body) });

describe("readConfigHistory", () => {
  it("reads the system entries, newest first, each date also as the controller's local time; one request with tree", async () => {
    emu.changeConfiguration(A, "jenkins.yaml", "jenkins.systemMessage", "By Alice", { id: "alice", fullName: "Alice Liddell" });
    const read = await client.readConfigHistory();
    expect(read.entries[0]).toEqual({ job: "config", userID: "alice", user: "Alice Liddell", operation: "Changed", date: expect.any(String), localTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/) });
    expect(read.entries[0]!.localTime).toBe(read.entries[0]!.date.replace("_", "T").replace(/-(\d\d)-(\d\d)$/, ":$1:$2"));
    expect(read).toMatchObject({ unreadable: [], cut: false });
    expect(requests().map((r) => r.query)).toEqual([{ filter: "system", tree: "configs[job,date,userID,user,operation]{0,501}" }]);
  });

  it("cut to the newest maxEntries, and says so", async () => {
    const read = await client.readConfigHistory({ maxEntries: 1 });
    expect(read.entries).toHaveLength(1);
    expect(read.cut).toBe(true);
  });

  it("without the plugin: NotFoundError naming it; without the permission: an empty list (200)", async () => {
    emu.setConfigHistory(A, { installed: false });
    await expect(client.readConfigHistory()).rejects.toThrow(NotFoundError);
    await expect(client.readConfigHistory()).rejects.toThrow(/Job Configuration History plugin/);
    emu.setConfigHistory(A, { installed: true, systemHistoryVisible: false });
    expect(await client.readConfigHistory()).toEqual({ entries: [], unreadable: [], cut: false });
    emu.setConfigHistory(A, { systemHistoryVisible: true });
  });

  it("an entry it cannot read is set apart by name; a date in another form is kept without localTime", async () => {
    answer({
      configs: [
        { job: "config", date: "2026-11-30T14:02:33Z", userID: "alice", user: "Alice" },
        { job: "credentials", date: 20261130, userID: "bob" },
        { job: "x".repeat(2000), date: "2026-11-30_14-02-33" },
        { job: "nectar-rbac", date: "2026-02-30_14-02-33", userID: null, user: null },
        { job: "jenkins.model.JenkinsLocationConfiguration", date: "2026-11-30_14-02-33", userID: "u".repeat(300) },
      ],
    });
    const read = await client.readConfigHistory();
    expect(read.entries).toEqual([
      { job: "config", date: "2026-11-30T14:02:33Z", userID: "alice", user: "Alice", operation: "" },
      { job: "nectar-rbac", date: "2026-02-30_14-02-33", userID: "", user: "", operation: "" },
    ]);
    expect(read.unreadable.map((u) => [u.index, u.name?.slice(0, 20)])).toEqual([
      [1, "credentials"],
      [2, "x".repeat(20)],
      [4, "jenkins.model.Jenkin"],
    ]);
  });

  it("a malformed, huge or slow answer, and a 503, fail after one request each: the history is never asked twice", async () => {
    answer("<html>Jenkins is starting</html>");
    await expect(client.readConfigHistory()).rejects.toThrow(UnexpectedResponseError);
    answer({ configs: "none" });
    await expect(client.readConfigHistory()).rejects.toThrow(UnexpectedResponseError);
    answer({ configs: Array.from({ length: 12_000 }, (_, i) => ({ job: `file-${i}`, date: "2026-11-30_14-02-33", userID: "alice", user: "Alice Liddell", operation: "Changed" })) });
    await expect(client.readConfigHistory()).rejects.toThrow(ResponseTooLargeError);
    emu.faults.inject({ path, answerDelayMs: 1500 });
    await expect(client.readConfigHistory({ deadlineMs: 300 })).rejects.toThrow(TimeoutError);
    emu.faults.inject({ path, status: 503 });
    await expect(client.readConfigHistory()).rejects.toThrow(ServerError);
    expect(requests()).toHaveLength(5);
  });

  it("reads dates as the plugin writes them, and nothing else", () => {
    expect(historyLocalTime("2026-11-30_14-02-33")).toBe("2026-11-30T14:02:33");
    expect(historyLocalTime("2024-02-29_23-59-59")).toBe("2024-02-29T23:59:59");
    for (const other of ["2026-11-30 14:02:33", "2026-11-30_24-00-00", "2025-02-29_00-00-00", "2026-13-01_00-00-00", "30.11.2026_14-02-33", "2026-11-30_14-02-33Z"]) {
      expect(historyLocalTime(other)).toBeUndefined();
    }
  });
});
