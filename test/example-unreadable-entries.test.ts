import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../emulator";
import { ProgramRunError, ProgramRunner } from "../testing";
import { copyBundles } from "./emulator/helpers";
import { BEFORE, targetsConfig, type ProgramTarget as Target } from "./readings/program-config";
import { assertBuiltPackage } from "./resources/helpers";

// Issue 63: the examples' life cycles (up, the drift job's refresh with no change, destroy) against emulators that add
// one entry this version cannot read to every list answer the resources read (startEmulator's unreadableListEntry).
// Every entry is skipped, said once per list and deployment in a warning naming it; a create stops only where the
// entry could be the very object it looks for and its write would make a second one (an Application's POST). One
// program (test/fixtures/readings-program) declares the examples, each on a named connection to its own emulator,
// so one engine step runs them all.

const PROGRAM = path.join(__dirname, "fixtures", "readings-program");
const started: Target[] = [];
const runners: ProgramRunner[] = [];

/** One emulator per example, each adding an entry named `name` to its lists, and a runner of the program over them. */
async function startTargets(examples: Target["example"][], names: (string | undefined)[]): Promise<{ targets: Target[]; runner: ProgramRunner }> {
  const targets = await Promise.all(
    examples.map(async (example, i) => {
      const bundlesDir = copyBundles();
      const emu = await startEmulator({ bundlesDir, unreadableListEntry: names[i] === undefined ? {} : { name: names[i] } });
      return { example, connection: `u${started.length + i}`, emu, bundlesDir };
    }),
  );
  started.push(...targets);
  const runner = await ProgramRunner.start({ cwd: PROGRAM, config: { ...targetsConfig(targets), ...BEFORE }, callTimeoutMs: 60_000 });
  runners.push(runner);
  return { targets, runner };
}

beforeAll(() => assertBuiltPackage());
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  await Promise.all(started.map((t) => t.emu.close()));
  for (const t of started) fs.rmSync(t.bundlesDir, { recursive: true, force: true });
});

/** The warnings that say an entry was skipped, as `on connection uN: <list>: skipped <what>` (ids as <id>). */
function skipped(warnings: string[]): string[] {
  return warnings.filter((w) => w.includes("skipped")).map((w) => w.replace(/ \(item \d+ of the answer\).*$/, "").replace(/"[0-9a-f]{24}"/g, '"<id>"'));
}

const checkoutApp = (emu: Emulator) => emu.state.applications("acme").find((a) => a.name === "checkout-flags");

it("the examples run up, a refresh with no change and destroy, each skipped entry named once per list and deployment", async () => {
  // The fourth adds an environment named Staging: the Environment's PUT is by name (it makes no second one), so it goes on.
  const { targets, runner } = await startTargets(["flags", "platform", "pipeline", "flags"], [undefined, undefined, undefined, "Staging"]);
  const [flags, platform, pipeline, staging] = targets as [Target, Target, Target, Target];
  await runner.up();
  const app = checkoutApp(flags.emu);
  expect(flags.emu.state.flags(app!.id).map((f) => f.name).sort()).toEqual(["checkout.bannerColor", "checkout.newFlow"]);
  expect(platform.emu.state.assignments()).toMatchObject({ sandbox: "base", "team-b/controller-b": "team-b" });
  expect(pipeline.emu.state.appliedBundle("team-b/controller-b")?.bundle).toBe("team-b");
  expect(staging.emu.state.environments(checkoutApp(staging.emu)!.id).map((e) => e.name)).toEqual(["Production", "Staging"]);
  const up = skipped(runner.last!.warnings);
  // Every list the examples' resources read, each said once however often the deployment read it again.
  expect(new Set(up).size).toBe(up.length);
  expect(up).toEqual(
    expect.arrayContaining([
      `on connection ${flags.connection}: listing applications: skipped application "unreadable-entry"`,
      `on connection ${flags.connection}: listing the environments of application "<id>": skipped environment "unreadable-entry"`,
      `on connection ${flags.connection}: listing the flags of application "<id>" in environment "Production": skipped flag "unreadable-entry"`,
      `on connection ${flags.connection}: listing the experiments of application "<id>" in environment "Production": skipped experiment "unreadable-entry"`,
      `on connection ${flags.connection}: listing the experiments of application "<id>" in environment "Staging": skipped experiment "unreadable-entry"`,
      `on connection ${flags.connection}: listing the target groups of application "<id>": skipped target group "unreadable-entry"`,
      `on connection ${flags.connection}: listing the team members: skipped team member "unreadable-entry"`,
      `on connection ${platform.connection}: listing bundles: skipped bundle "unreadable-entry"`,
      `on connection ${pipeline.connection}: listing bundles: skipped bundle "unreadable-entry"`,
      `on connection ${staging.connection}: listing the environments of application "<id>": skipped environment "Staging"`,
    ]),
  );

  await runner.preview(undefined, { refresh: true, expectNoChanges: true });
  await runner.destroy();
  expect(runner.state().resources).toEqual([]);
  expect(flags.emu.state.flags(app!.id)).toEqual([]);
  expect(platform.emu.state.apiAvailabilityPatterns()).toEqual({});
}, 180_000);

it("an entry of the application's name stops its create, named, before any POST", async () => {
  const { targets, runner } = await startTargets(["flags"], ["checkout-flags"]);
  const [stopped] = targets as [Target];
  const error = await runner.up().then(
    () => undefined,
    (e: unknown) => e as ProgramRunError,
  );
  expect(error).toBeInstanceOf(ProgramRunError);
  expect(error!.message).toMatch(
    new RegExp(
      `creating Application "checkout-flags" on connection ${stopped.connection}: the service lists application "checkout-flags" \\(item 1 of the answer\\) in a form ` +
        `this version of pulumi-cloudbees cannot read \\(id: [^)]+\\); it may be the one this create looks for, and creating another would make a second one ` +
        `\\(the service accepts duplicate names\\)\\. Fix: report the form \\(with the field above\\); meanwhile if it is another application, set adoptExisting: false`,
    ),
  );
  expect(stopped.emu.journal.entries().filter((e) => e.method !== "GET")).toEqual([]);
  expect(stopped.emu.state.applications("acme")).toEqual([]);
  expect(skipped(error!.warnings)).toEqual([`on connection ${stopped.connection}: listing applications: skipped application "checkout-flags"`]);
  await runner.destroy();
  expect(runner.state().resources).toEqual([]);
}, 180_000);
