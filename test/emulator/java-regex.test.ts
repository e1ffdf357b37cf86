import { Emulator, startEmulator } from "../../emulator";
import { call, post } from "./helpers";

// Availability patterns are Java regexes on a real operations center: a leading (?i) must work as it does there.
let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  await emu.close();
});

const setPattern = (regex: string) =>
  post(emu, `${emu.operationsCenterUrl}casc-bundle/set-availability-pattern?${new URLSearchParams({ bundleId: "team-b", regex })}`);

describe("Java regex syntax in availability patterns", () => {
  it("honours a leading case-insensitive flag (?i)", async () => {
    const r = await setPattern("(?i)TEAM-B/.*");
    expect(r.status).toBe(200);
    expect(r.json.controllers).toEqual(["team-b/controller-b"]);
  });

  it("still matches the whole path with the flag", async () => {
    const r = await setPattern("(?i)TEAM");
    expect(r.status).toBe(200);
    expect(r.json.controllers).toEqual([]);
  });

  it("refuses syntax it cannot emulate, with the reason", async () => {
    const r = await setPattern("team-(b");
    expect(r.status).toBe(400);
    const list = await call(emu, `${emu.operationsCenterUrl}casc-bundle/list`);
    expect(list.json.bundles.find((b: { name: string }) => b.name === "team-b").regex).toBe("(?i)TEAM");
  });
});
