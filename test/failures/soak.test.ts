/**
 * The fault soak (soak/soak.ts, `npm run soak`), short and seeded: one life cycle of the example program (which
 * creates its application without adoptExisting) at 30 % faults, and the soak's own detectors shown able to fail.
 */
import { startEmulator, type JournalEntry } from "../../emulator";
import { FeatureManagementClient } from "../../provider";
import { blindRepeats, mismatches, runSoak } from "../../soak/soak";

const APPS = "/feature-management/public-api/applications";
const entry = (method: string, path: string, status: number, fault?: string, body = '{"applicationName":"a"}'): JournalEntry => ({
  method,
  path,
  query: {},
  headers: {},
  body: Buffer.from(method === "POST" ? body : ""),
  status,
  ...(fault ? { fault } : {}),
});

describe("the soak's detectors", () => {
  it("count an unsafe call sent again after a lost answer with no read in between, and only that", () => {
    const lost = entry("POST", APPS, 0, "drop after acting");
    expect(blindRepeats([lost, entry("POST", APPS, 200)])).toHaveLength(1);
    expect(blindRepeats([lost, entry("GET", APPS, 200), entry("POST", APPS, 200)])).toEqual([]);
    // A 429 proves the server did not act: repeating is not blind.
    expect(blindRepeats([entry("POST", APPS, 429, "status 429"), entry("POST", APPS, 200)])).toEqual([]);
    const reload = "/controllers/team-a/controller-a/casc-bundle-mgnt/reload-bundle";
    expect(blindRepeats([entry("POST", reload, 500, "status 500"), entry("POST", reload, 200)])).toHaveLength(1);
    expect(
      blindRepeats([entry("POST", reload, 200, "slow answer"), entry("GET", "/controllers/team-a/controller-a/casc-bundle-mgnt/check-bundle-update", 200), entry("POST", reload, 200)]),
    ).toEqual([]);
  });

  it("report an application the state does not hold", async () => {
    const emu = await startEmulator();
    const fm = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 1 });
    try {
      await fm.createApplication("orphan");
      expect(mismatches(emu, [], "up", false)).toEqual([expect.stringMatching(/\("orphan"\) is in the account but not in the state/)]);
    } finally {
      await fm.close();
      await emu.close();
    }
  });
});

describe("a seeded fault soak", () => {
  it("one life cycle of the example program at 30 % faults: state and server agree, no duplicate, no blind repeat", async () => {
    const { runs } = await runSoak({ rate: 0.3, runs: 1, seed: 7, programs: ["example"] });
    const [run] = runs;
    expect(run!.faulted).toBeGreaterThan(0);
    expect(run!.mismatches).toEqual([]);
    expect(run!.duplicateApplications).toBe(0);
    expect(run!.blindRepeats).toEqual([]);
  }, 240_000);
});
