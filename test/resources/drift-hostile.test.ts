/* istanbul ignore file */
/**
 * Issue 37: the drift warning (provider/resources/feature-flags/audit-trail.ts) quotes what the audit log says, and
 * a member of the account writes their own name there; the log's pages are bounded together. Through the real
 * provider host: a warning is one line of its stderr, and Pulumi makes each line a diagnostic of its own
 * (pulumi/pulumi pkg/resource/plugin/plugin.go `runtrace`, ReadString('\n')), so a line break in a value would forge
 * a second warning, or a CI log's command.
 */
import { MAX_LOG_BYTES } from "../../provider/resources/feature-flags/audit-trail";
import type { ManagedResource } from "../harness";
import { expectOneQuotedLine, HOSTILE_VALUES, RAW_UNSAFE } from "../harness/hostile-text";
import { startFlagWorld, type FlagWorld } from "./feature-flag-helpers";

/** A target group of an application of its own, changed outside the stack: each has its own audit-log read. */
interface Watched {
  group: ManagedResource;
  auditPath: string;
}

const CASES = [...HOSTILE_VALUES.map(([name]) => name), "unreadable", "bytes", "records"];
let w: FlagWorld;
const watched = new Map<string, Watched>();

// One deployment for every case: a read per application environment and deployment, so each case has its own
// application (a new provider host per case would cost a second each).
beforeAll(async () => {
  w = await startFlagWorld();
  for (const name of CASES) {
    const app = (await w.fm.createApplication(`drift ${watched.size}`)).id;
    const group = w.ff("targetGroup", `watched-${watched.size}`, { applicationId: app, name: "watched", conditions: [{ property: "beta", operator: "is-true" }] });
    await group.up();
    await w.fm.putTargetGroup(app, { type: "target-group", name: "watched", conditions: [{ property: "beta", operator: "is-false" }] });
    watched.set(name, { group, auditPath: `/feature-management/public-api/applications/${app}/Production/auditlogs` });
  }
  await w.nextDeployment();
}, 60_000);
afterAll(async () => {
  await w?.close();
});

/** The host's output lines of the case's refresh: every line, so that a forged one would count. */
async function refreshOutput(name: string): Promise<string[]> {
  w.host.takeOutput();
  expect(await watched.get(name)!.group.refresh()).toMatchObject({ changedFields: ["conditions"] });
  await new Promise((r) => setTimeout(r, 50));
  return w.host
    .takeOutput()
    .split("\n")
    .filter((l) => l !== "");
}

/** Faults the case's audit-log read will meet, in order. */
function auditAnswers(name: string, ...answers: { status: number; body: string }[]): void {
  for (const answer of answers) w.emu.faults.inject({ method: "GET", path: watched.get(name)!.auditPath, ...answer });
}

/** An audit-log record of the group's change, after its last write. */
function record(i: number, fields: Record<string, unknown>): Record<string, unknown> {
  return { _id: `hostile-${i}`, creation_date: new Date(Date.now() + 60_000).toISOString(), action: "updated target group", message: "updated target group watched", ...fields };
}

it.each(HOSTILE_VALUES)("who and what from the log, %s: one warning line, each quoted", async (name, value) => {
  auditAnswers(name, { status: 200, body: JSON.stringify([record(0, { userEmail: value, action: `${value} target group watched` })]) });
  const output = await refreshOutput(name);
  expect(output).toHaveLength(1);
  expect(output[0]).toMatch(/^warning: TargetGroup watched changed outside this stack by "/);
  expectOneQuotedLine(output[0]!, value);
  expectOneQuotedLine(output[0]!, `${value} target group watched`);
});

it("a log that cannot be read: the server's words in one warning line", async () => {
  const words = HOSTILE_VALUES.map(([, v]) => v).join(" ");
  auditAnswers("unreadable", { status: 403, body: JSON.stringify({ error: words }) });
  const output = await refreshOutput("unreadable");
  expect(output).toHaveLength(1);
  expect(output[0]).toMatch(/^warning: TargetGroup watched changed outside this stack; who changed it cannot be told: the audit log of environment "Production" could not be read \(reading the audit logs .* lacks permission on this account\.\)$/);
  expect(output[0]).not.toMatch(RAW_UNSAFE);
  expect(output[0]).not.toMatch(/##(vso)?\[/);
});

it("pages past MAX_LOG_BYTES in all: the read stops with the pages before, and the warning says so", async () => {
  // Two full pages (30 records, as the service answers at most) of about 2.5 MB each: together past the bound.
  const big = "x".repeat(Math.ceil((MAX_LOG_BYTES * 0.6) / 30));
  const page = (from: number, match: boolean) =>
    JSON.stringify(Array.from({ length: 30 }, (_, i) => record(from + i, { userEmail: "carol@example.com", message: big, ...(match && i === 29 ? { message: "updated target group watched" } : {}) })));
  auditAnswers("bytes", { status: 200, body: page(0, true) }, { status: 200, body: page(30, false) });
  const output = await refreshOutput("bytes");
  expect(output).toEqual([
    expect.stringMatching(
      new RegExp(`^warning: TargetGroup watched changed outside this stack by "carol@example.com" at \\S+: "updated target group"; a later change may be unread: the read stopped after 30 records: its pages passed ${MAX_LOG_BYTES} bytes$`),
    ),
  ]);
  // Both pages were asked for: the second was refused at the bytes left.
  expect(w.emu.faults.pending()).toEqual([]);
});

it("a page of far more records than the service's 30: at most 300 are kept, and the warning says the read stopped", async () => {
  const many = JSON.stringify(Array.from({ length: 2000 }, (_, i) => record(i, { userEmail: "dave@example.com", message: "updated target group other" })));
  auditAnswers("records", { status: 200, body: many });
  const output = await refreshOutput("records");
  expect(output).toEqual([
    expect.stringMatching(
      /^warning: TargetGroup watched changed outside this stack; the audit log of environment "Production" has no entry for it since \S+ \(the read stopped after 300 records: at most 300 are read\), so who changed it cannot be told$/,
    ),
  ]);
});
