import { startEmulator, type Emulator } from "../../emulator";
import { FeatureManagementClient, OperationsCenterClient } from "../../provider";

// startEmulator({ unreadableListEntry }): every list answer the resources read ends with one entry this package's
// client cannot read (each list's own made-up form, emulator/unreadable-entries.ts), named as asked; nothing else changes.

let emu: Emulator;
let fm: FeatureManagementClient;
let oc: OperationsCenterClient;
beforeAll(async () => {
  emu = await startEmulator({ unreadableListEntry: { name: "odd" } });
  fm = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0, maxRetries: 0 });
  oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, maxRetries: 0 });
});
afterAll(async () => {
  await fm?.close();
  await oc?.close();
  await emu?.close();
});

const names = (list: { unreadable: { name?: string }[] }) => list.unreadable.map((u) => u.name);

it("adds one entry, named, that the client cannot read, to each list of the feature-flag service; the model never holds it", async () => {
  const app = await fm.createApplication("shop");
  await fm.createFlag(app.id, { name: "fine" });
  const applications = await fm.readApplicationList();
  expect([applications.items, names(applications)]).toEqual([[app], ["odd"]]);
  for (const list of [
    await fm.readEnvironmentList(app.id),
    await fm.readFlagList(app.id, "Production"),
    await fm.readExperimentList(app.id, "Production"),
    await fm.readTargetGroupList(app.id),
    await fm.readTeamMemberList(),
    await fm.readAuditLogList(app.id, "Production", new Date(0)),
  ]) {
    expect(names(list)).toEqual(["odd"]);
  }
  expect((await fm.readFlagList(app.id, "Production")).items.map((f) => f.name)).toEqual(["fine"]);
  // One record is no list; writes answer as ever; the state views show the model.
  expect(await fm.getApplication(app.id)).toEqual(app);
  expect(emu.state.applications("acme")).toEqual([app]);
  expect(emu.state.environments(app.id).map((e) => e.name)).toEqual(["Production"]);
});

it("adds one to the operations center's bundle list and its Controllers view", async () => {
  const bundles = await oc.readBundleList();
  expect(names(bundles)).toEqual(["odd"]);
  expect(bundles.items.map((b) => b.name)).toEqual(emu.state.bundles());
  expect(names(await oc.readControllerItemList())).toEqual(["odd"]);
  await expect(oc.listBundles()).rejects.toThrow(/regex/);
});

it("is checked: a name is a non-empty text, and nothing else is taken", async () => {
  await expect(startEmulator({ unreadableListEntry: { name: "" } })).rejects.toThrow(/Invalid emulator options: unreadableListEntry\.name/);
  await expect(startEmulator({ unreadableListEntry: { nme: "x" } as never })).rejects.toThrow(/Invalid emulator options: unreadableListEntry/);
});
