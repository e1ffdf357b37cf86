import * as fs from "node:fs";
import * as path from "node:path";
import { listReadings, startEmulator, type ReadingChoice } from "../../emulator";
import { ProgramRunner } from "../../testing";
import { copyBundles } from "../emulator/helpers";
import { assertBuiltPackage } from "../resources/helpers";
import { BEFORE, targetsConfig, type ProgramTarget } from "./program-config";

// The examples' whole life cycles under every non-default reading of the emulator (emulator/readings.ts): up, the
// drift job (a refresh that must show no change), an update of a list, a regex and a flag rule, the drift job again,
// destroy. Every reading's emulator is a named connection of one program (test/fixtures/readings-program), which
// declares the examples' resources once per connection, so one engine step runs every reading at once.
// Judged as a user sees it: each step succeeds, each server holds what the program declares, no false drift.

const PROGRAM = path.join(__dirname, "..", "fixtures", "readings-program");

/**
 * Readings under which the service keeps the provider from doing something, and what the user then sees: the
 * resource's error says what the service answered, once, and the ways out (docs/resources/target-group.md says so).
 */
const UNABLE: Record<string, { update: RegExp; saidOnce: string }> = {
  // No other write of a target group exists: a service that only creates them cannot have one changed.
  "putExistingTargetGroup=409": {
    update:
      /updating TargetGroup "beta-testers" \([^)]*\) on connection r\d+: the service refused to change the existing target group "beta-testers" \(409, saying "Target group 'beta-testers' already exists"\): its API creates target groups but cannot change one\. Fix: change the group in the CloudBees Feature Management UI \(then declare what it holds\), or declare the changed group under a new name and point the flags' conditions at that name$/,
    saidOnce: "already exists",
  },
};

const AFTER = {
  "flags:stagingPercentage": "20",
  "flags:betaEmail": "@(example|example-labs)\\.com$",
  "flags:betaPlans": JSON.stringify(["beta", "preview", "early-access"]),
  "example:teamBControllers": JSON.stringify(["team-b/controller-b", "team-a/controller-a"]),
  "example:baseRegex": "sandbox|team-x/.*",
};

interface Target extends ProgramTarget {
  reading: string;
}

const targets: Target[] = [];

async function startTargets(readings: { name: string; value: string | number; service: string }[]): Promise<Target[]> {
  const started: Target[] = [];
  for (const r of readings) {
    const examples: Target["example"][] = r.service === "feature-flags" ? ["flags"] : ["platform", "pipeline"];
    for (const example of examples) {
      const bundlesDir = copyBundles();
      const emu = await startEmulator({ readings: { [r.name]: r.value } as ReadingChoice, bundlesDir });
      const target = { connection: `r${targets.length}`, example, reading: `${r.name}=${r.value}`, emu, bundlesDir };
      targets.push(target);
      started.push(target);
    }
  }
  return started;
}

/** What the program declares, read back from each target's server. */
function expectServersHold(group: Target[], settings: typeof BEFORE): void {
  for (const t of group) {
    const where = `${t.reading} (${t.example})`;
    const state = t.emu.state;
    if (t.example === "flags") {
      const app = state.applications("acme").find((a) => a.name === "checkout-flags");
      expect({ where, app: app !== undefined }).toEqual({ where, app: true });
      const flags = Object.fromEntries(state.flags(app!.id).map((f) => [f.name, f]));
      expect({ where, staging: flags["checkout.newFlow"]?.configurations["Staging"]?.value }).toEqual({
        where,
        staging: [{ option: true, percentage: Number(settings["flags:stagingPercentage"]) }],
      });
      const production = flags["checkout.newFlow"]?.configurations["Production"]?.conditions ?? [];
      expect({ where, production: production.map((c) => ({ group: (c as { group?: { name?: unknown } }).group?.name, value: c.value })) }).toEqual({
        where,
        production: [{ group: "beta-testers", value: true }],
      });
      expect({ where, banner: flags["checkout.bannerColor"]?.configurations["Production"]?.value }).toEqual({ where, banner: "blue" });
      const group = state.targetGroups(app!.id).find((g) => g.name === "beta-testers");
      expect({ where, operands: group?.conditions?.map((c) => (c as { operand?: unknown }).operand) }).toEqual({
        where,
        operands: [settings["flags:betaEmail"], JSON.parse(settings["flags:betaPlans"])],
      });
    } else if (t.example === "platform") {
      const teamB = JSON.parse(settings["example:teamBControllers"]) as string[];
      expect({ where, assignments: state.assignments() }).toEqual({
        where,
        assignments: { ...Object.fromEntries(teamB.map((c) => [c, "team-b"])), sandbox: "base" },
      });
      const patterns = state.apiAvailabilityPatterns();
      // team-b's pattern lets exactly the listed controllers use it, whatever regex spells the list.
      const teamBPattern = new RegExp(patterns["team-b"] ?? "^$");
      expect({ where, base: patterns["base"], teamB: state.controllers().filter((c) => teamBPattern.test(c)).sort() }).toEqual({
        where,
        base: settings["example:baseRegex"],
        teamB: [...teamB].sort(),
      });
      expect({ where, default: state.defaultBundle(), visibility: state.globalVisibility() }).toEqual({ where, default: "base", visibility: false });
    } else {
      expect({ where, assignments: state.assignments() }).toEqual({ where, assignments: { "team-a/controller-a": "team-a", "team-b/controller-b": "team-b" } });
      expect({ where, applied: state.appliedBundle("team-b/controller-b")?.bundle }).toEqual({ where, applied: "team-b" });
    }
  }
}

/** After destroy: nothing the program made is left (the API cannot unassign a bundle: assignments stay, warned). */
function expectServersEmpty(group: Target[]): void {
  for (const t of group) {
    const where = `${t.reading} (${t.example})`;
    const state = t.emu.state;
    if (t.example === "flags") {
      const app = state.applications("acme").find((a) => a.name === "checkout-flags");
      expect({ where, flags: app ? state.flags(app.id).map((f) => f.name) : [] }).toEqual({ where, flags: [] });
    } else {
      expect({ where, patterns: state.apiAvailabilityPatterns() }).toEqual({ where, patterns: {} });
    }
  }
}

const nonDefault = listReadings().flatMap((r) => r.values.slice(1).map((value) => ({ name: r.name, value, service: r.service })));
const able = nonDefault.filter((r) => !UNABLE[`${r.name}=${r.value}`]);
const unable = nonDefault.filter((r) => UNABLE[`${r.name}=${r.value}`]);

beforeAll(() => assertBuiltPackage());
afterAll(async () => {
  await Promise.all(targets.map((t) => t.emu.close()));
  for (const t of targets) fs.rmSync(t.bundlesDir, { recursive: true, force: true });
});

async function withRunner(group: Target[], run: (runner: ProgramRunner) => Promise<void>): Promise<void> {
  // One program over 25 emulators: on a loaded machine a provider host's start can take longer than the default
  // deadline of an RPC (a deadline, not a measure: the test asserts outcomes only).
  const runner = await ProgramRunner.start({ cwd: PROGRAM, config: { ...targetsConfig(group), ...BEFORE }, callTimeoutMs: 60_000, timeoutMs: 240_000 });
  try {
    await run(runner);
  } finally {
    await runner.close();
  }
}

const setAll = (runner: ProgramRunner, settings: Record<string, string>) => {
  for (const [key, value] of Object.entries(settings)) runner.setConfig(key, value);
};

it(`the examples' life cycles hold under each of ${able.length} non-default readings at once`, async () => {
  const group = await startTargets(able);
  expect(new Set(group.map((t) => t.reading)).size).toBe(able.length);
  await withRunner(group, async (runner) => {
    await runner.up();
    expectServersHold(group, BEFORE);
    await runner.preview(undefined, { refresh: true, expectNoChanges: true });

    setAll(runner, AFTER);
    // A commit to team-b's bundle: the pipelines validate, check out and reload again.
    for (const t of group) if (t.example === "pipeline") fs.appendFileSync(path.join(t.bundlesDir, "team-b", "jenkins.yaml"), "\n# changed\n");
    await runner.up();
    expectServersHold(group, AFTER);
    await runner.preview(undefined, { refresh: true, expectNoChanges: true });

    await runner.destroy();
    expect(runner.state().resources).toEqual([]);
    expectServersEmpty(group);
  });
}, 480_000);

describe.each(unable.map((r) => [`${r.name}=${r.value}`, r] as const))("under %s", (label, reading) => {
  it("the update the service refuses fails that resource alone, with its answer once and the ways out; the rest of the life cycle holds", async () => {
    const group = await startTargets([reading]);
    await withRunner(group, async (runner) => {
      await runner.up();
      expectServersHold(group, BEFORE);
      await runner.preview(undefined, { refresh: true, expectNoChanges: true });
      setAll(runner, AFTER);
      const error = await runner.up().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toMatch(UNABLE[label]!.update);
      // Said once: the program's own failure (its registration refused) repeats it and is not shown.
      expect(error?.message.split(UNABLE[label]!.saidOnce)).toHaveLength(2);
      // The other changes of that up were made, and the state says so: declaring what the service could take shows
      // no change (the target group as it was, the rest as updated).
      setAll(runner, { ...AFTER, "flags:betaEmail": BEFORE["flags:betaEmail"], "flags:betaPlans": BEFORE["flags:betaPlans"] });
      await runner.preview(undefined, { refresh: true, expectNoChanges: true });
      await runner.destroy();
      expectServersEmpty(group);
    });
  }, 240_000);
});
