/**
 * check-bundle-update's `update-type` as a real instance writes it: the CasC plugin labels an update with any of
 * UpdateType's labels (pankajy-dev/cloudbees-casc-client-workshop, src/main/java/com/cloudbees/opscenter/client/casc/
 * UpdateType.java: RESTART, RELOAD, "AUTOMATIC RELOAD", "AUTOMATIC RESTART", SKIPPED, "RELOAD/RESTART/SKIP",
 * "RESTART/SKIP", UNKNOWN), not only the spec's two. Each is read (the answer injected over real HTTP), and the ones
 * that need a restart are told apart.
 */
import { startEmulator, type Emulator } from "../../emulator";
import { InstanceClient } from "../../provider";
import { needsRestart } from "../../provider/clients/casc-types";
import { FAST } from "./fast-options";

let emu: Emulator;
let controller: InstanceClient;
const A = "team-a/controller-a";
const PATH = `/controllers/${A}/casc-bundle-mgnt/check-bundle-update`;

beforeAll(async () => {
  emu = await startEmulator();
  controller = new InstanceClient({ baseUrl: emu.controllerUrls[A]!, ...emu.credentials.admin, ...FAST, maxRetries: 0 });
});
afterAll(async () => {
  await controller.close();
  await emu.close();
});
beforeEach(() => emu.faults.clear());

const LABELS: [string, boolean][] = [
  ["RELOAD", false],
  ["RESTART", true],
  ["AUTOMATIC RELOAD", false],
  ["AUTOMATIC RESTART", true],
  ["SKIPPED", false],
  ["RELOAD/RESTART/SKIP", false],
  ["RESTART/SKIP", true],
  ["UNKNOWN", false],
];

it.each(LABELS)("update-type %j is read, and needs a restart: %s", async (label, restart) => {
  const body = {
    "update-available": true,
    "update-type": label,
    versions: { "current-bundle": { version: "1", validations: [] }, "new-version": { version: "2", valid: true, validations: [] } },
    items: { deletions: [] },
  };
  emu.faults.inject({ path: PATH, status: 200, body: JSON.stringify(body) });
  const check = await controller.checkBundleUpdate();
  expect(check["update-type"]).toBe(label);
  expect(needsRestart(check["update-type"])).toBe(restart);
});
