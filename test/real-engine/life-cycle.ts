/**
 * One example program's whole life, as a pipeline runs it, through the real Pulumi CLI and, step for step, through
 * the testing kit's engine stand-in, each against emulators of its own: `pulumi up` and an up with nothing to change;
 * `preview --expect-no-changes`, `refresh --expect-no-changes` and a preview after it; an update of an input; a change
 * made out of band that the drift job (`preview --refresh --expect-no-changes`) reports, by exit code and with
 * `--diff` naming the property (and, for flags, who); a refresh, then the repair by `up --refresh`; what `stack
 * export` and `stack output` show of the secrets (the real CLI); `destroy`, after which the emulators hold nothing the
 * program made but what the API cannot delete.
 *
 * The two engines side by side: the recorded steps (side-by-side.ts) must give the same plan per resource, the same
 * writes on the emulators (in any order: steps run in parallel), the same outputs, the same state and the same
 * providers' warnings, ids and times apart. A difference is fixed in the stand-in, or is a row of the table in
 * docs/testing.md saying why it cannot be. One run of each engine serves both: what the life cycle checks and what
 * the comparison records.
 */
import type { Emulator } from "../../emulator";
import { PulumiCliRunner } from "../../testing/cli/cli-runner";
import { ProgramRunner } from "../../testing/processes/program-runner";
import type { StackRunner } from "../../testing/processes/runner-options";
import type { PulumiCli } from "../../testing/cli/pulumi-cli";
import type { ProgramPlan } from "../../testing/engine/plan";
import { unwrapSecrets } from "../../testing/engine/values";
import { CLI_DIR_VARIABLE } from "./global-setup";
import { recordStep, type RecordedStep } from "./side-by-side";

export interface ExampleContext {
    emulators: Emulator[];
    /** The engine that runs the program: the real CLI or the stand-in. */
    runner: StackRunner;
    /** Stack outputs, secrets revealed. */
    outputs(): Record<string, unknown>;
}

export interface ExampleScenario {
    /** The project folder. */
    dir: string;
    /** Starts the emulators the program runs against and gives the stack config. */
    start(): Promise<{ emulators: Emulator[]; config: Record<string, unknown>; cleanup?(): void }>;
    /** Checks what the first up made on the emulators. */
    afterUp(ctx: ExampleContext): void | Promise<void>;
    /** An input changed (config or a file): the resources whose update it causes. */
    update: { apply(ctx: ExampleContext): void | Promise<void>; updates: string[]; check?(ctx: ExampleContext): void | Promise<void> };
    /** A change made out of band on the emulator, and what the drift job names: the resource and its property. */
    drift: { apply(ctx: ExampleContext): Promise<void>; resource: string; property: string; warning?: RegExp };
    /** Stack outputs that are secrets (shown by `stack output --show-secrets` only). */
    secretOutputs: string[];
    /** Values that must never appear in plain text in `stack export` (credentials, bundle tokens). */
    secrets(ctx: ExampleContext): string[];
    /** Checks the emulators after destroy: nothing the program made is left, but what the API cannot delete. */
    afterDestroy(ctx: ExampleContext): void | Promise<void>;
}

/**
 * The tier's programs run with ts-node's type check off (Pulumi's PULUMI_NODEJS_TRANSPILE_ONLY): `npm test` type-checks
 * every example already, and the check costs seconds of CPU per program run, which the tier runs a hundred times.
 */
export const TIER_ENV = { PULUMI_NODEJS_TRANSPILE_ONLY: "true" };

export function realCli(): PulumiCli {
    const cli = process.env[CLI_DIR_VARIABLE];
    if (!cli) throw new Error("the real-engine tier runs with `npm run test:pulumi` (its global setup finds the CLI)");
    return JSON.parse(cli) as PulumiCli;
}

type Engine = "pulumi" | "stand-in";

/** One engine's run of the scenario: its context, its cleanup and the steps recorded for the comparison. */
interface EngineRun {
    ctx: ExampleContext;
    steps: RecordedStep[];
    cleanup?(): void;
}

async function startEngine(engine: Engine, scenario: ExampleScenario): Promise<EngineRun> {
    const started = await scenario.start();
    const options = { cwd: scenario.dir, config: started.config, env: TIER_ENV };
    const runner: StackRunner = engine === "pulumi" ? await PulumiCliRunner.start({ ...options, cli: realCli() }) : await ProgramRunner.start({ ...options, timeoutMs: 120_000 });
    return { ctx: { emulators: started.emulators, runner, outputs: () => unwrapSecrets(runner.outputs()) }, steps: [], cleanup: started.cleanup };
}

/** `describe`s the whole life cycle of one example, on both engines. */
export function describeLifeCycle(title: string, newScenario: () => ExampleScenario): void {
    describe(title, () => {
        const scenarios: Record<Engine, ExampleScenario> = { pulumi: newScenario(), "stand-in": newScenario() };
        const runs = {} as Record<Engine, EngineRun>;
        const real = () => runs.pulumi.ctx.runner as PulumiCliRunner;

        beforeAll(async () => {
            const [pulumi, standIn] = await Promise.all([startEngine("pulumi", scenarios.pulumi), startEngine("stand-in", scenarios["stand-in"])]);
            runs.pulumi = pulumi;
            runs["stand-in"] = standIn;
        });
        afterAll(async () => {
            for (const run of Object.values(runs)) {
                await run.ctx.runner.close();
                await Promise.all(run.ctx.emulators.map((e) => e.close()));
                run.cleanup?.();
            }
        });

        /** `step` on both engines at once; `record` names it when the comparison records it. */
        const onBoth = (step: (run: EngineRun, scenario: ExampleScenario, engine: Engine) => Promise<void>) =>
            Promise.all((["pulumi", "stand-in"] as const).map((engine) => step(runs[engine], scenarios[engine], engine)));
        const record = async (run: EngineRun, name: string, step: () => Promise<ProgramPlan>) => {
            const recorded = await recordStep(name, run.ctx.runner, run.ctx.emulators, step);
            run.steps.push(recorded);
            return recorded;
        };
        /** The real CLI as a user types it (its exit code an answer). */
        const pulumi = (...args: string[]) => real().run(args);
        const ok = async (...args: string[]) => {
            const r = await pulumi(...args);
            if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
            return r;
        };

        it("pulumi up creates what the program declares; an up again runs", async () => {
            await onBoth(async (run, scenario) => {
                let plan: ProgramPlan = [];
                const up = await record(run, "up", async () => (plan = await run.ctx.runner.up()));
                expect({ error: up.error, created: plan.some((e) => e.op === "create") }).toEqual({ error: undefined, created: true });
                await scenario.afterUp(run.ctx);
                await record(run, "up again", () => run.ctx.runner.up());
            });
        });

        it("preview --expect-no-changes passes; so do refresh --expect-no-changes and a preview after it", async () => {
            // The stand-in refreshes too, so that both states stay what each engine's refresh makes them; the
            // previews, which change nothing, are the real CLI's alone (the stand-in's own tests preview).
            await onBoth(async ({ ctx: { runner } }, _scenario, engine) => {
                if (engine === "pulumi") await runner.preview(undefined, { expectNoChanges: true });
                await runner.refresh({ expectNoChanges: true });
                if (engine === "pulumi") await runner.preview(undefined, { expectNoChanges: true });
            });
        });

        it("an input changed in the program's inputs updates exactly the resources it reaches", async () => {
            await onBoth(async (run, scenario, engine) => {
                await scenario.update.apply(run.ctx);
                let plan: ProgramPlan = [];
                await record(run, "up after an input changed", async () => (plan = await run.ctx.runner.up()));
                expect(plan.filter((e) => e.op !== "same").map((e) => `${e.name}:${e.op}`).sort()).toEqual(
                    scenario.update.updates.map((n) => `${n}:update`).sort(),
                );
                await scenario.update.check?.(run.ctx);
                if (engine === "pulumi") await run.ctx.runner.preview(undefined, { expectNoChanges: true });
            });
        });

        it("a change made out of band fails the drift job, whose --diff names the property (and the warning, who)", async () => {
            await onBoth(async (run, scenario) => {
                await scenario.drift.apply(run.ctx);
                await record(run, "preview --refresh after a change out of band", () => run.ctx.runner.preview(undefined, { refresh: true }));
            });
            const { drift } = scenarios.pulumi;
            const r = await pulumi("preview", "--refresh", "--expect-no-changes", "--diff");
            expect(r.code).not.toBe(0);
            expect(r.stderr + r.stdout).toMatch(/no changes were expected for preview but changes were proposed/);
            const line = r.stdout.split("\n").find((l) => l.includes(drift.resource) && /[~+-]/.test(l));
            expect(line).toBeDefined();
            // --diff shows the changed property under the resource: `~ <property>: ...`.
            expect(r.stdout).toMatch(new RegExp(`[~+-] ${drift.property}\\b`));
            if (drift.warning) expect(r.stdout + r.stderr).toMatch(drift.warning);
        });

        it("a refresh, then up --refresh repairs it; the drift job passes again", async () => {
            await onBoth(async (run, _scenario, engine) => {
                await record(run, "refresh", () => run.ctx.runner.refresh());
                await record(run, "up --refresh (repair)", () => run.ctx.runner.up(undefined, { refresh: true }));
                if (engine === "pulumi") await run.ctx.runner.preview(undefined, { refresh: true, expectNoChanges: true });
            });
        });

        it("stack export holds no credential and no bundle token in plain text; stack output --show-secrets shows the secret outputs", async () => {
            const { ctx } = runs.pulumi;
            const scenario = scenarios.pulumi;
            const exported = (await ok("stack", "export")).stdout;
            for (const value of scenario.secrets(ctx)) expect({ leaked: exported.includes(value), value }).toEqual({ leaked: false, value });
            const hidden = JSON.parse((await ok("stack", "output", "--json")).stdout) as Record<string, unknown>;
            const shown = JSON.parse((await ok("stack", "output", "--json", "--show-secrets")).stdout) as Record<string, unknown>;
            for (const name of scenario.secretOutputs) {
                expect(hidden[name]).toBe("[secret]");
                expect(shown[name]).not.toBe("[secret]");
                expect(shown[name]).toEqual(ctx.outputs()[name]);
            }
        });

        it("pulumi destroy leaves nothing the program made on the emulators, but what the API cannot delete", async () => {
            await onBoth(async (run, scenario) => {
                // The outputs as they were: what the program made, which the checks look for on the emulators.
                const before = run.ctx.outputs();
                await record(run, "destroy", () => run.ctx.runner.destroy());
                await scenario.afterDestroy({ ...run.ctx, outputs: () => before });
            });
        });

        it("both engines gave the same steps, writes, outputs, state and warnings at every step", () => {
            const [real, standIn] = [runs.pulumi.steps, runs["stand-in"].steps];
            expect(real.map((s) => s.step)).toEqual(["up", "up again", "up after an input changed", "preview --refresh after a change out of band", "refresh", "up --refresh (repair)", "destroy"]);
            expect(real.map((s) => s.step)).toEqual(standIn.map((s) => s.step));
            for (let i = 0; i < real.length; i++) expect(real[i]).toEqual(standIn[i]);
        });
    });
}
