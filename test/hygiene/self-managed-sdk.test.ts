/**
 * The vendor's SDK makes the impressions (issue 64): rox-node@6.0.16, unmodified, in self-managed mode against the
 * emulator, evaluates flags; the emulator counts what it posts; the counts read back through the client's
 * readImpressions are what the SDK answered, and give the lexicon's statuses. Over real HTTP on 127.0.0.1 only.
 */
import { environmentFlagStatuses } from "../../provider/hygiene/flag-status";
import { startFlagSetup, type FlagSetup } from "../emulator/feature-flag-setup";
import { installTripwire, isLoopbackTarget, type Tripwire } from "../testing/network-tripwire";
import { startSelfManagedRox, until, type SelfManagedRox } from "../../testing/flags-sdk/self-managed-rox";

const PROD = "Production";
const staff = (i: number) => ({ email: `staff${i}@staff.example` });
const other = (i: number) => ({ email: `user${i}@example.com` });

let tripwire: Tripwire;
let s: FlagSetup;
let app: string;
let key: string;
let sdk: SelfManagedRox;
/** What the SDK answered, per flag and value: the expected counts. */
const answered: Record<string, Record<string, number>> = {};

const journalOf = (suffix: string) => s.emu.journal.entries().filter((e) => e.path.startsWith(`/self-managed/${suffix}`));

beforeAll(async () => {
  tripwire = installTripwire();
  s = await startFlagSetup();
  app = await s.newApplication("impressions-sdk");
  key = s.emu.state.environments(app)[0]!.key;
  const put = (flag: string, more: Record<string, unknown>) => s.client.putExperiment(app, PROD, { type: "experiment", flag, ...more });
  await put("checkout.split", { conditions: [{ property: { name: "email", operator: "regex", operand: "@staff\\.example$" }, value: true }], value: false });
  await put("checkout.on", { value: true });
  await put("checkout.never", { value: true });
  await put("checkout.pinned", { value: false });
  sdk = await startSelfManagedRox(s.emu.selfManaged, key);
  await sdk.fetch();
  const evaluate = (flag: string, context: { email: string }) => {
    const value = String(sdk.isEnabled(flag, context));
    (answered[flag] ??= {})[value] = (answered[flag]![value] ?? 0) + 1;
  };
  // 41 evaluations: the first impression is posted at once, then one post per 20 (rox-node: Analytics.enqueue,
  // `if (!this.flushed) ... this.flush()`, then `this.queue.length >= this.flushAt`, flushAt 20 by default).
  for (let i = 0; i < 12; i++) evaluate("checkout.split", staff(i));
  for (let i = 0; i < 14; i++) evaluate("checkout.split", other(i));
  for (let i = 0; i < 15; i++) evaluate("checkout.on", other(i));
  // An overridden evaluation reports nothing (rox-node: DynamicApi.genericValue, `!callContext.result.isOverride`).
  (sdk.rox as unknown as { overrides: { setOverride(name: string, value: string): void } }).overrides.setOverride("checkout.pinned", "true");
  for (let i = 0; i < 5; i++) expect(sdk.isEnabled("checkout.pinned", other(i))).toBe(true);
  await until(() => journalOf("impression/").reduce((n, e) => n + eventsOf(e.body).length, 0) >= 41);
});
afterAll(async () => {
  const states = () => journalOf("device/update_state_store/").length;
  const before = states();
  await sdk?.close(() => states() > before);
  await s?.close();
  tripwire?.restore();
});

function eventsOf(body: Buffer): { flag: string; value: unknown; type: string; time: number; distinctId: unknown }[] {
  return (JSON.parse(body.toString("utf8")) as { events: [] }).events;
}

it("the SDK fetched its configuration, reported its state and posted its impressions to the emulator, and nowhere else", () => {
  // rox-node: fetchRemoteConfiguration (selfManagedMode, no CDN), sendStateNetwork (setStateToAPI), Analytics.flush.
  const posts = s.emu.journal.entries().filter((e) => e.path.startsWith("/self-managed/"));
  expect(posts.every((e) => e.method === "POST" && e.status === 200)).toBe(true);
  expect(journalOf(`device/get_configuration/${key}/`)).toHaveLength(1);
  expect(journalOf(`device/update_state_store/${key}/`).length).toBeGreaterThanOrEqual(1);
  expect(sdk.guard().refused).toBe(0);
  expect(tripwire.connections().filter((c) => !isLoopbackTarget(c))).toEqual([]);
});

it("the batches are rox-node's: the first impression at once, then 20 at a time, each event an IMPRESSION with its time", () => {
  const batches = journalOf(`impression/${key}`).map((e) => JSON.parse(e.body.toString("utf8")) as Record<string, unknown>);
  expect(batches.map((b) => (b.events as unknown[]).length)).toEqual([1, 20, 20]);
  // rox-node: Analytics.flush builds {analyticsVersion, sdkVersion, time, platform, rolloutKey, events}.
  for (const b of batches) expect(b).toMatchObject({ analyticsVersion: "1.0.0", sdkVersion: expect.any(String), time: expect.any(Number), platform: "NodeJS", rolloutKey: key });
  // rox-node: invokeImpression tracks {flag, value, distinctId, type: "IMPRESSION", time}; values as text.
  const events = batches.flatMap((b) => b.events as ReturnType<typeof eventsOf>);
  expect(new Set(events.map((e) => `${e.type} ${typeof e.value} ${typeof e.time} ${typeof e.distinctId}`))).toEqual(new Set(["IMPRESSION string number string"]));
  expect(events.some((e) => e.flag === "checkout.pinned")).toBe(false);
});

it("the counts the client reads back are what the SDK answered: two values, one value, none", async () => {
  expect(Object.keys(answered["checkout.split"]!).sort()).toEqual(["false", "true"]);
  expect(Object.keys(answered["checkout.on"]!)).toEqual(["true"]);
  const now = Date.now();
  const read = await s.client.readImpressions(app, PROD, { from: new Date(now - 86_400_000), to: new Date(now + 86_400_000) });
  expect(read.unreadable).toEqual([]);
  expect(read.form).toBe("analytics");
  const perFlag: Record<string, Record<string, number>> = {};
  for (const c of read.counts) (perFlag[c.flag] ??= {})[c.value] = (perFlag[c.flag]![c.value] ?? 0) + c.count;
  expect(perFlag).toEqual(answered);

  const verdicts = environmentFlagStatuses(
    ["checkout.split", "checkout.on", "checkout.never"].map((name) => ({ name })),
    { kind: "counts", counts: read.counts },
    { asOf: new Date(now) },
  );
  expect(verdicts.map((v) => [v.flag, v.status, v.value])).toEqual([
    ["checkout.split", "active", undefined],
    ["checkout.on", "stale", "true"],
    ["checkout.never", "setup", undefined],
  ]);
});
