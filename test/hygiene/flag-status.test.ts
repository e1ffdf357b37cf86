/**
 * The status of a flag per environment (provider/hygiene/flag-status.ts), as the service's lexicon defines it
 * ("flag status", docs.cloudbees.com/lexicon/cloudbees-fm/flag-status: active, stale, inactive, setup, permanent,
 * over the last seven days), and `unknown` wherever the data cannot tell. Pure functions: days are made relative to
 * the `asOf` each case takes, so no case depends on the clock.
 */
import type { DailyImpressions } from "../../provider/clients/impression-types";
import { addDays, utcDay } from "../../provider/clients/utc-days";
import { DEFAULT_STATUS_WINDOW_DAYS, environmentFlagStatuses, flagStatus, statusWindow, type ImpressionEvidence } from "../../provider/hygiene/flag-status";

const asOf = new Date(Date.UTC(2026, 10, 27, 15, 30));
const today = utcDay(asOf);
const ago = (n: number) => addDays(today, -n);
const count = (flag: string, value: string, day: string, n = 3): DailyImpressions => ({ flag, value, day, count: n });
const counts = (...c: DailyImpressions[]): ImpressionEvidence => ({ kind: "counts", counts: c });
const statusOf = (name: string, evidence: ImpressionEvidence, more: Partial<Parameters<typeof flagStatus>[2]> & { isPermanent?: boolean } = {}) =>
  flagStatus({ name, isPermanent: more.isPermanent }, evidence, { asOf, ...more });

describe("the window", () => {
  it("is the N UTC days that end with the day of asOf (7 by default)", () => {
    expect(DEFAULT_STATUS_WINDOW_DAYS).toBe(7);
    expect(statusWindow(asOf)).toEqual({ first: ago(6), last: today, days: 7 });
    expect(statusWindow(asOf, 1)).toEqual({ first: today, last: today, days: 1 });
  });

  it("refuses a window that is no whole number of days, and a time that is none", () => {
    for (const days of [0, -1, 1.5, 367, NaN]) expect(() => statusWindow(asOf, days)).toThrow(/windowDays: a whole number of days from 1 to 366/);
    expect(() => statusWindow(new Date(NaN))).toThrow(/asOf: not a time/);
  });
});

describe("the lexicon's statuses, from the counts", () => {
  it("active: impressions with different values in the window", () => {
    const v = statusOf("f", counts(count("f", "true", ago(6)), count("f", "false", today, 5)));
    expect(v).toMatchObject({ status: "active", basis: "impressions", values: [{ value: "false", count: 5 }, { value: "true", count: 3 }], lastDay: today });
  });

  it("stale: impressions in the window all with one value, which it gives", () => {
    expect(statusOf("f", counts(count("f", "blue", ago(2)), count("f", "blue", ago(1)), count("f", "red", ago(7))))).toMatchObject({ status: "stale", value: "blue", values: [{ value: "blue", count: 6 }] });
  });

  it("inactive: none in the window, some before it (the day before its first day)", () => {
    expect(statusOf("f", counts(count("f", "true", ago(7)), count("g", "true", today)))).toMatchObject({ status: "inactive", lastDay: ago(7), values: [] });
  });

  it("setup: none ever; or none since the first day read, which it says", () => {
    expect(statusOf("f", counts(count("g", "true", today)))).toMatchObject({ status: "setup", reason: "no impressions at all" });
    expect(statusOf("f", { kind: "counts", counts: [], since: ago(90) })).toMatchObject({ status: "setup", reason: `no impressions since ${ago(90)}` });
  });

  it("days after asOf are not considered, nor counts of zero", () => {
    expect(statusOf("f", counts(count("f", "true", addDays(today, 1)), count("f", "false", ago(1), 0)))).toMatchObject({ status: "setup" });
    expect(statusOf("f", counts(count("f", "true", ago(1)), count("f", "false", addDays(today, 1))))).toMatchObject({ status: "stale", value: "true" });
  });

  it("permanent: isPermanent wins over impressions, roxy and the service's own status", () => {
    const active = counts(count("f", "a", today), count("f", "b", today));
    expect(statusOf("f", active, { isPermanent: true })).toMatchObject({ status: "permanent", basis: "isPermanent" });
    expect(statusOf("f", { kind: "roxy" }, { isPermanent: true }).status).toBe("permanent");
    expect(statusOf("f", active, { isPermanent: true, serviceStatuses: [{ flag: "f", status: "inactive" }] }).status).toBe("permanent");
  });
});

describe("unknown, never inactive or setup from missing data", () => {
  it("an environment served through roxy: its SDKs send no impressions", () => {
    expect(statusOf("f", { kind: "roxy" })).toMatchObject({ status: "unknown", basis: "roxy" });
    expect(statusOf("f", { kind: "roxy" }, { serviceStatuses: [{ flag: "f", status: "inactive" }] }).status).toBe("unknown");
  });

  it("no impressions answer (absent, malformed, rate limited), named", () => {
    expect(statusOf("f", { kind: "unavailable", reason: "the service answered 404" })).toMatchObject({ status: "unknown", basis: "no-answer", reason: "no impressions to go by: the service answered 404" });
  });

  it("an entry of the flag (or without a name) that could not be read: only `active` still holds", () => {
    const unreadable = (name?: string) => [{ index: 2, ...(name ? { name } : {}), problem: "counter: Invalid input" }];
    const base = [count("f", "true", ago(1)), count("a", "x", today), count("a", "y", today)];
    const withUnread = (name?: string): ImpressionEvidence => ({ kind: "counts", counts: base, unreadable: unreadable(name) });
    expect(statusOf("f", withUnread("f"))).toMatchObject({ status: "unknown", reason: expect.stringContaining("counter: Invalid input") });
    expect(statusOf("g", withUnread())).toMatchObject({ status: "unknown" });
    expect(statusOf("g", withUnread("f"))).toMatchObject({ status: "setup" });
    expect(statusOf("a", withUnread("a"))).toMatchObject({ status: "active" });
  });

  it("impressions read from after the window's first day", () => {
    const late: ImpressionEvidence = { kind: "counts", counts: [count("f", "true", today)], since: ago(3) };
    expect(statusOf("f", late)).toMatchObject({ status: "unknown", reason: expect.stringContaining(`start on ${ago(3)}`) });
    expect(statusOf("g", late).status).toBe("unknown");
  });
});

describe("the newer service's own statuses", () => {
  it("a word of the lexicon is taken as the service gives it (any case); another word is not", () => {
    const evidence = counts(count("f", "true", today), count("g", "x", ago(30)));
    const serviceStatuses = [
      { flag: "f", status: "Stale" },
      { flag: "g", status: "archived" },
    ];
    expect(statusOf("f", evidence, { serviceStatuses })).toMatchObject({ status: "stale", basis: "service", value: "true" });
    expect(statusOf("g", evidence, { serviceStatuses })).toMatchObject({ status: "inactive", basis: "impressions" });
    expect(statusOf("f", { kind: "unavailable", reason: "404" }, { serviceStatuses })).toMatchObject({ status: "stale", basis: "service" });
  });
});

it("environmentFlagStatuses: the flags given in their order, then those only the counts or the service name, by name", () => {
  const verdicts = environmentFlagStatuses([{ name: "z" }, { name: "a", isPermanent: true }], counts(count("sdk.only", "1", today), count("z", "on", ago(1))), {
    asOf,
    serviceStatuses: [{ flag: "service.only", status: "setup" }],
  });
  expect(verdicts.map((v) => [v.flag, v.status])).toEqual([
    ["z", "stale"],
    ["a", "permanent"],
    ["sdk.only", "stale"],
    ["service.only", "setup"],
  ]);
});
