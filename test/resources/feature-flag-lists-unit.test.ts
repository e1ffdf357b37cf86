import type { FeatureManagementClient } from "../../provider";
import type { Experiment, Flag } from "../../provider/clients/feature-flag-types";
import { FeatureFlagLists, prefixOf, removal, upsert } from "../../provider/resources/feature-flags/lists";
import { resetProviderState } from "../../provider/config/state";
import { sendWarningsTo, stderrWarning } from "../../provider/resources/shared/errors";

// Warnings said here are collected, not printed; each test starts a deployment of its own (what has been said is kept per deployment).
const warnings: string[] = [];
beforeEach(async () => {
  warnings.length = 0;
  await resetProviderState();
  sendWarningsTo((line) => warnings.push(line));
});
afterAll(() => sendWarningsTo(stderrWarning));

// The lists' own rules, on a counting stand-in for the client: joined reads, writes that update what is kept
// (whether their answer comes before or after a read in flight), failed reads and writes that are not kept.
function fakeClient() {
  const calls: string[] = [];
  let flags: Flag[] = [{ name: "a" }];
  const gates: (() => void)[] = [];
  const client = {
    readEnvironmentList: async () => {
      calls.push("environments");
      return { items: [{ name: "Production", key: "k1" }], unreadable: [] };
    },
    readFlagList: async (_app: string, env: string) => {
      calls.push(`flags ${env}`);
      const snapshot = flags;
      await new Promise<void>((resolve) => gates.push(resolve));
      return { items: snapshot, unreadable: [] };
    },
    readExperimentList: async () => {
      calls.push("experiments");
      throw new Error("boom");
    },
  } as unknown as FeatureManagementClient;
  return { client, calls, gates, setFlags: (f: Flag[]) => (flags = f) };
}

describe("FeatureFlagLists", () => {
  it("readers arriving while a list is in flight join it; a write answered meanwhile is laid over it", async () => {
    const fake = fakeClient();
    const lists = new FeatureFlagLists(fake.client);
    const first = lists.flags("app", "Production");
    const second = lists.flags("app", "Production");
    // A flag created while the list is in flight: the list was read before it, the write's answer adds it.
    await lists.write(async () => ({ name: "b" }) as Flag, (flag) => [upsert<Flag>(prefixOf("flags", "app"), flag, (x) => x.name)], [prefixOf("flags", "app")]);
    fake.gates.shift()!();
    expect(await first).toEqual([{ name: "a" }]);
    expect(await lists.flags("app", "Production")).toEqual([{ name: "a" }, { name: "b" }]);
    expect(await second).toEqual([{ name: "a" }]);
    expect(fake.calls).toEqual(["flags Production"]);
    // Removal by name.
    await lists.write(async () => undefined, () => [removal<Flag>(prefixOf("flags", "app"), "a", (x) => x.name)], [prefixOf("flags", "app")]);
    expect(await lists.flags("app", "Production")).toEqual([{ name: "b" }]);
    expect(fake.calls).toEqual(["flags Production"]);
  });

  it("a failed write forgets the lists it may have changed; a failed read is not kept", async () => {
    const fake = fakeClient();
    const lists = new FeatureFlagLists(fake.client);
    const read = lists.flags("app", "Production");
    fake.gates.shift()!();
    await read;
    await expect(lists.write(async () => Promise.reject(new Error("lost")), () => [], [prefixOf("flags", "app")])).rejects.toThrow("lost");
    fake.setFlags([{ name: "a" }, { name: "c" }]);
    const again = lists.flags("app", "Production");
    fake.gates.shift()!();
    expect(await again).toEqual([{ name: "a" }, { name: "c" }]);
    expect(fake.calls).toEqual(["flags Production", "flags Production"]);

    await expect(lists.experiments("app", "Production")).rejects.toThrow("boom");
    await expect(lists.experiments("app", "Production")).rejects.toThrow("boom");
    expect(fake.calls.filter((c) => c === "experiments")).toHaveLength(2);
  });

  it("a change names the lists of one environment exactly (Prod is not Production) or of every environment", async () => {
    const fake = fakeClient();
    const lists = new FeatureFlagLists(fake.client);
    const reads = [lists.flags("app", "Prod"), lists.flags("app", "Production")];
    fake.gates.splice(0).forEach((open) => open());
    await Promise.all(reads);
    const experiment = { flag: "x" } as Experiment;
    await lists.write(async () => experiment, (e) => [upsert<Flag>(prefixOf("flags", "app", "Prod"), { name: e.flag }, (x) => x.name)], []);
    expect(await lists.flags("app", "Prod")).toEqual([{ name: "a" }, { name: "x" }]);
    expect(await lists.flags("app", "Production")).toEqual([{ name: "a" }]);
    expect(lists.knownAvailableValues("app", "x")).toBeUndefined();
    await lists.write(async () => ({ name: "v", availableValues: ["on", "off"] }) as Flag, (f) => [upsert<Flag>(prefixOf("flags", "app"), f, (x) => x.name)], []);
    await lists.flags("app", "Production");
    expect(lists.knownAvailableValues("app", "v")).toEqual(["on", "off"]);
  });

  it("keeps the items a list's answer held that the client could not read, by name, until a write answers that name", async () => {
    const unreadable = [{ index: 1, name: "odd", problem: "conditions[0].group.operator: Invalid option" }];
    const client = {
      readEnvironmentList: async () => ({ items: [{ name: "Production", key: "k1" }], unreadable: [] }),
      readExperimentList: async () => ({ items: [{ flag: "fine" }], unreadable }),
    } as unknown as FeatureManagementClient;
    const lists = new FeatureFlagLists(client);
    expect(await lists.experiments("app", "Production")).toEqual([{ flag: "fine" }]);
    expect(await lists.unreadable("experiments", "app", "odd", "Production")).toEqual(unreadable[0]);
    expect(await lists.unreadable("experiments", "app", "fine", "Production")).toBeUndefined();
    expect(await lists.unreadable("experiments", "app", "odd", "Staging")).toBeUndefined();
    // A write of that configuration answered it in a form the client reads: the unreadable one is gone.
    const written = { flag: "odd", value: true } as Experiment;
    await lists.write(async () => written, (e) => [upsert<Experiment>(prefixOf("experiments", "app", "Production"), e, (x) => x.flag)], []);
    expect(await lists.unreadable("experiments", "app", "odd", "Production")).toBeUndefined();
    expect(await lists.experiments("app", "Production")).toEqual([{ flag: "fine" }, written]);
  });

  it("says each entry it cannot read once per deployment, in the functions' words, however often the list is read again", async () => {
    const odd = { index: 2, name: "Staging", problem: "key: Invalid input: expected string, received undefined" };
    const members = { index: 0, problem: "email: Invalid input: expected string, received number" };
    let reads = 0;
    const client = {
      readEnvironmentList: async () => (reads++, { items: [{ name: "Production", key: "k1" }], unreadable: [odd] }),
      readTeamMemberList: async () => ({ items: [], unreadable: [members] }),
    } as unknown as FeatureManagementClient;
    const lists = new FeatureFlagLists(client);
    expect(await lists.environments("app")).toEqual([{ name: "Production", key: "k1" }]);
    // A failed write forgets the list: the next reader reads it again, and the same entry is in its answer.
    await expect(lists.write(async () => Promise.reject(new Error("lost")), () => [], [prefixOf("environments", "app")])).rejects.toThrow("lost");
    await lists.environments("app");
    expect(reads).toBe(2);
    expect(await lists.unreadable("environments", "app", "Staging")).toEqual(odd);
    expect(await lists.teamMembers()).toEqual([]);
    expect(warnings).toEqual([
      'listing the environments of application "app": skipped environment "Staging" (item 3 of the answer), in a form this version of pulumi-cloudbees cannot read (key: Invalid input: expected string, received undefined); the other items were read',
      "listing the team members: skipped an unnamed team member (item 1 of the answer), in a form this version of pulumi-cloudbees cannot read (email: Invalid input: expected string, received number); the other items were read",
    ]);
  });
});
