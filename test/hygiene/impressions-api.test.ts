/**
 * Impressions and statuses as the service answers them (issue 64), over real HTTP on 127.0.0.1: the emulator's
 * legacy impressions endpoint in each form a service may plausibly answer (the reading impressionsAnswer; no public
 * source shows the body), read by FeatureManagementClient.readImpressions; the newer flags-status endpoint detected
 * by readFlagsStatus; the statuses of provider/hygiene/flag-status.ts reached through past days and the emulator's
 * clock; and what a client is told when the answer is malformed, rate limited or absent.
 */
import { listReadings, type ReadingChoice } from "../../emulator";
import { FeatureManagementClient, InvalidInputError, NotFoundError, RateLimitError, UnexpectedResponseError } from "../../provider";
import { utcDay } from "../../provider/clients/utc-days";
import { environmentFlagStatuses, type ImpressionEvidence, type StatusFlag } from "../../provider/hygiene/flag-status";
import { FAST } from "../clients/fast-options";
import { appPath, startFlagSetup, type FlagSetup } from "../emulator/feature-flag-setup";

const PROD = "Production";
/** A fixed time the emulator answers as of (its clock), so that no case depends on the real one. */
const AS_OF = new Date("2030-03-15T12:00:00.000Z");
const HISTORY_DAYS = 90;

let s: FlagSetup;
beforeAll(async () => {
  s = await startFlagSetup({ readings: { flagsStatusEndpoint: "served" } });
});
afterAll(async () => s?.close());

/** Flags named after the status their impressions give them, the permanent one marked so. */
async function fiveFlags(setup: FlagSetup): Promise<{ app: string; roxyEnv: string }> {
  const app = await setup.newApplication();
  for (const name of ["f.active", "f.stale", "f.inactive", "f.setup"]) await setup.client.createFlag(app, { name });
  await setup.client.createFlag(app, { name: "f.permanent", isPermanent: true });
  const roxyEnv = (await setup.client.createEnvironment(app, { name: "Edge" })).name;
  setup.emu.impressions.setClock(AS_OF);
  for (const environment of [PROD, roxyEnv]) {
    setup.emu.impressions.record(
      { applicationId: app, environment, flag: "f.active", value: true, daysAgo: 1, count: 4 },
      { applicationId: app, environment, flag: "f.active", value: false, daysAgo: 6, count: 2 },
      { applicationId: app, environment, flag: "f.stale", value: "blue", count: 7 },
      { applicationId: app, environment, flag: "f.stale", value: "red", daysAgo: 20 },
      { applicationId: app, environment, flag: "f.inactive", value: true, daysAgo: 7 },
      { applicationId: app, environment, flag: "f.permanent", value: "a" },
      { applicationId: app, environment, flag: "f.permanent", value: "b", day: utcDay(AS_OF) },
    );
  }
  return { app, roxyEnv };
}

/** What the report will do: the flags of the environment, the impressions of the last HISTORY_DAYS, their statuses. */
async function statusesOf(client: FeatureManagementClient, app: string, environment: string, asOf: Date, mark?: "roxy") {
  const flags: StatusFlag[] = (await client.listFlags(app, environment)).map((f) => ({ name: f.name, isPermanent: f.isPermanent === true }));
  let evidence: ImpressionEvidence;
  if (mark === "roxy") evidence = { kind: "roxy" };
  else {
    const from = new Date(asOf.getTime() - HISTORY_DAYS * 86_400_000);
    try {
      const read = await client.readImpressions(app, environment, { from, to: asOf });
      evidence = { kind: "counts", counts: read.counts, unreadable: read.unreadable, since: utcDay(from) };
    } catch (e) {
      evidence = { kind: "unavailable", reason: (e as Error).message };
    }
  }
  return Object.fromEntries(environmentFlagStatuses(flags, evidence, { asOf }).map((v) => [v.flag, v.status]));
}

describe("five flags reach the lexicon's five statuses through past days and the clock", () => {
  let app: string;
  let roxyEnv: string;
  beforeAll(async () => ({ app, roxyEnv } = await fiveFlags(s)));

  it("each flag has the status its name says; an environment marked as served through roxy is unknown but for the permanent flag", async () => {
    const statuses = await statusesOf(s.client, app, PROD, s.emu.impressions.now());
    expect(statuses).toEqual(Object.fromEntries(Object.keys(statuses).map((flag) => [flag, flag.slice(2)])));
    expect(Object.keys(statuses).sort()).toEqual(["f.active", "f.inactive", "f.permanent", "f.setup", "f.stale"]);
    const roxy = await statusesOf(s.client, app, roxyEnv, s.emu.impressions.now(), "roxy");
    expect(roxy).toEqual(Object.fromEntries(Object.keys(statuses).map((flag) => [flag, flag === "f.permanent" ? "permanent" : "unknown"])));
  });

  it("the newer flags-status answer (reading flagsStatusEndpoint=served) agrees, as of the emulator's clock", async () => {
    const key = s.emu.state.environments(app)[0]!.key;
    const answered = await s.client.readFlagsStatus(app, key);
    expect(answered?.unreadable).toEqual([]);
    const byFlag = Object.fromEntries(answered!.statuses.map((x) => [x.flag, x.status]));
    expect(byFlag).toEqual(await statusesOf(s.client, app, PROD, s.emu.impressions.now()));
  });

  it("eight days on, the stale and active flags are inactive: the clock, not the real time, decides", async () => {
    s.emu.impressions.setClock(new Date(AS_OF.getTime() + 8 * 86_400_000));
    try {
      const later = await statusesOf(s.client, app, PROD, s.emu.impressions.now());
      expect(later).toMatchObject({ "f.stale": "inactive", "f.active": "inactive", "f.inactive": "inactive", "f.setup": "setup", "f.permanent": "permanent" });
      // A value recorded today by the clock's new time makes f.stale stale again (daysAgo counts from the clock).
      s.emu.impressions.record({ applicationId: app, environment: PROD, flag: "f.stale", value: "blue" });
      expect((await statusesOf(s.client, app, PROD, s.emu.impressions.now()))["f.stale"]).toBe("stale");
    } finally {
      s.emu.impressions.setClock(AS_OF);
    }
  });
});

describe("each form of the impressions answer (the reading impressionsAnswer) is read, to the same counts", () => {
  const forms = listReadings().find((r) => r.name === "impressionsAnswer")!.values.filter((v) => v !== "absent") as string[];
  it.each(forms)("impressionsAnswer=%s", async (form) => {
    const under = await startFlagSetup({ readings: { impressionsAnswer: form } as ReadingChoice });
    try {
      const { app } = await fiveFlags(under);
      const asOf = under.emu.impressions.now();
      const read = await under.client.readImpressions(app, PROD, { from: new Date(asOf.getTime() - HISTORY_DAYS * 86_400_000), to: asOf });
      expect(read).toEqual({ form: form === "analytics" ? "analytics" : "list", counts: under.emu.impressions.counts(app, PROD), unreadable: [] });
      expect(read.counts.length).toBeGreaterThan(5);
    } finally {
      await under.close();
    }
  });

  it("impressionsAnswer=absent: a NotFoundError, which the statuses take as no answer: unknown, never inactive or setup", async () => {
    const under = await startFlagSetup({ readings: { impressionsAnswer: "absent" } });
    try {
      const { app } = await fiveFlags(under);
      const asOf = under.emu.impressions.now();
      await expect(under.client.readImpressions(app, PROD, { from: new Date(asOf.getTime() - 86_400_000), to: asOf })).rejects.toBeInstanceOf(NotFoundError);
      const statuses = await statusesOf(under.client, app, PROD, asOf);
      expect(new Set(Object.entries(statuses).map(([flag, status]) => (flag === "f.permanent" ? `${flag} ${status}` : status)))).toEqual(new Set(["unknown", "f.permanent permanent"]));
      // The default: no flags-status endpoint, said by undefined and by nothing else.
      const warnings: string[] = [];
      expect(await under.client.readFlagsStatus(app, under.emu.state.environments(app)[0]!.key, { warn: (m) => warnings.push(m) })).toBeUndefined();
      expect(warnings).toEqual([]);
    } finally {
      await under.close();
    }
  });
});

describe("answers the client cannot read, or cannot have", () => {
  let app: string;
  let path: string;
  const window = () => ({ from: new Date(AS_OF.getTime() - 86_400_000), to: AS_OF });
  beforeAll(async () => {
    app = await s.newApplication();
    path = `${appPath(app)}/environments/${PROD}/impressions`;
  });
  const answer = (body: unknown) => s.emu.faults.inject({ method: "GET", path, status: 200, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

  it("a body of no known form: an UnexpectedResponseError naming the call and the forms it reads", async () => {
    answer({ totals: { "f.a": 3 } });
    const error = await s.client.readImpressions(app, PROD, window()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain(`reading the impressions of application "${app}" in environment "${PROD}" (GET /feature-management${path.slice("/feature-management".length)})`);
    expect((error as Error).message).toContain("none of the impressions forms this client reads");
  });

  it("entries it cannot read are skipped and named with why; the others are read (a list and the analytics form)", async () => {
    answer([
      { flag: "f.a", value: true, count: 2, date: "2030-03-14" },
      { flag: "f.b", value: "x", count: -1, date: "2030-03-14" },
      { flag: "f.a", value: true, counter: "3", from: Date.UTC(2030, 2, 14, 9) / 1000 },
      { flag: "f.c", value: null, count: 1, date: "2030-03-14" },
      { flag: "f.d", value: "y", count: 1, date: "2030-02-30" },
    ]);
    const list = await s.client.readImpressions(app, PROD, window());
    expect(list.counts).toEqual([{ flag: "f.a", value: "true", day: "2030-03-14", count: 5 }]);
    expect(list.unreadable.map((u) => [u.index, u.name, u.problem.split(":")[0]])).toEqual([
      [1, "f.b", "count"],
      [3, "f.c", "value"],
      [4, "f.d", "date"],
    ]);
    answer({ analytics: { "f.a": { interval: { "1899000000": { impressions: [{ from: "2030-03-14T00:00:00Z", aggregatedValues: [{ value: "on", counter: 1 }, { value: "off" }] }, { aggregatedValues: null }] } } }, "f.b": { interval: null }, "f.c": 7 } });
    const analytics = await s.client.readImpressions(app, PROD, window());
    expect(analytics.counts).toEqual([{ flag: "f.a", value: "on", day: "2030-03-14", count: 1 }]);
    expect(analytics.unreadable).toEqual([
      { index: 0, name: "f.a", problem: 'interval.1899000000.impressions[0].aggregatedValues[1].counter: no counter (nor count)' },
      { index: 2, name: "f.c", problem: "interval: not an object of intervals" },
    ]);
  });

  it("a 555 (the service's rate limit) is a RateLimitError naming the call", async () => {
    s.emu.faults.inject({ method: "GET", path, status: 555, body: JSON.stringify({ error: "Too many requests" }), times: Infinity });
    const once = new FeatureManagementClient({ baseUrl: s.emu.featureManagementUrl, token: s.emu.credentials.featureManagementToken, minRequestIntervalMs: 1, ...FAST, maxRetries: 0 });
    try {
      const error = await once.readImpressions(app, PROD, window()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 555, operation: `reading the impressions of application "${app}" in environment "${PROD}"` });
    } finally {
      s.emu.faults.clear();
      await once.close();
    }
  });

  it("a window that cannot be asked for is refused before anything is sent; the emulator refuses a mode but daily (400)", async () => {
    const sent = s.emu.journal.entries().length;
    await expect(s.client.readImpressions(app, PROD, { from: AS_OF, to: new Date(AS_OF.getTime() - 1) })).rejects.toThrow(InvalidInputError);
    await expect(s.client.readImpressions(app, PROD, { from: "2020-01-01T00:00:00Z", to: AS_OF })).rejects.toThrow(/spans more than 400 days/);
    await expect(s.client.readImpressions(app, PROD, { from: "yesterday", to: AS_OF })).rejects.toThrow(InvalidInputError);
    expect(s.emu.journal.entries().length).toBe(sent);
    const raw = await fetch(`${s.emu.featureManagementUrl}public-api/applications/${app}/environments/${PROD}/impressions?mode=hourly&from=1&to=2`, { headers: { authorization: `Bearer ${s.emu.credentials.featureManagementToken}` } });
    expect([raw.status, ((await raw.json()) as { error: string }).error]).toEqual([400, 'mode: only "daily" is served, not "hourly"']);
    await expect(s.client.readImpressions(app, "Nowhere", window())).rejects.toBeInstanceOf(NotFoundError);
  });

  it("readFlagsStatus: a failure other than 'no such endpoint' is said through the sink and answered undefined", async () => {
    const key = s.emu.state.environments(app)[0]!.key;
    s.emu.faults.inject({ path: `/feature-management/v1/applications/${app}/environments/${key}/flags-status`, status: 200, body: '{"statuses": []}', headers: { "content-type": "application/json" } });
    const warnings: string[] = [];
    expect(await s.client.readFlagsStatus(app, key, { warn: (m) => warnings.push(m) })).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/^reading the flag statuses of application .*flagsStatus.*The statuses are computed from the impressions instead\.$/)]);
  });
});

describe("the emulator's SDK endpoints and programmatic API refuse what they cannot count", () => {
  let app: string;
  let key: string;
  beforeAll(async () => {
    app = await s.newApplication();
    key = s.emu.state.environments(app)[0]!.key;
  });
  const post = (sub: string, body: string, method = "POST") => fetch(`${s.emu.selfManaged.analyticsURL}/${sub}`, { method, body: method === "GET" ? undefined : body, headers: { "content-type": "application/json" } });

  it("rox-go's form counts too (no type, `count`, a boolean value); other events are skipped; a batch without events is refused", async () => {
    // rox-go v6 core/model/analytics.go: Impression{time, flag, value, type omitempty, count omitempty}.
    const batch = { analyticsVersion: "1.0.0", time: AS_OF.getTime(), events: [{ flag: "go.flag", value: true, count: 3, time: AS_OF.getTime() }, { flag: "go.flag", value: true, type: "CUSTOM" }, { value: 1 }] };
    const answer = await post(`impression/${key}`, JSON.stringify(batch));
    expect([answer.status, await answer.json()]).toEqual([200, { accepted: 1, skipped: 2 }]);
    expect(s.emu.impressions.counts(app, key)).toEqual([{ flag: "go.flag", value: "true", day: utcDay(AS_OF), count: 3 }]);
    expect((await post(`impression/${key}`, "{}")).status).toBe(400);
    expect((await post(`impression/${key}`, "not json")).status).toBe(400);
    expect((await post("impression/0123456789abcdef01234567", JSON.stringify(batch))).status).toBe(404);
    expect((await post(`impression/${key}`, "", "GET")).status).toBe(405);
    expect((await post("nothing/here", "{}")).status).toBe(404);
  });

  it("record and setClock name what they refuse, and a refused call counts nothing", () => {
    const before = s.emu.impressions.counts(app, PROD);
    expect(() => s.emu.impressions.record({ applicationId: app, environment: PROD, flag: "x", value: 1 }, { applicationId: app, environment: "Nowhere", flag: "x", value: 1 })).toThrow(
      `Unknown environment 'Nowhere' of feature-flag application '${app}' (neither a name nor a key)`,
    );
    expect(() => s.emu.impressions.record({ applicationId: app, environment: PROD, flag: "x", value: 1, day: "2030-02-30" })).toThrow(/day: 2030-02-30 is not a UTC day/);
    expect(() => s.emu.impressions.record({ applicationId: app, environment: PROD, flag: "x", value: 1, count: 0 })).toThrow(/count: a whole number from 1/);
    expect(s.emu.impressions.counts(app, PROD)).toEqual(before);
    expect(() => s.emu.impressions.setClock("soon")).toThrow(/soon is not a time/);
    expect(s.emu.impressions.now()).toEqual(AS_OF);
  });
});
