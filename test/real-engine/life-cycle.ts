/**
 * One example program's whole life under the real Pulumi CLI, against emulators of its own, as a pipeline runs it:
 * `pulumi up`; `preview --expect-no-changes`; `refresh --expect-no-changes` and a preview after it; an update of an
 * input; a change made out of band that the drift job (`preview --refresh --expect-no-changes`) reports, by exit
 * code and with `--diff` naming the property; the repair by `up`; what `stack export` and `stack output` show of the
 * secrets; `destroy`, after which the emulators hold nothing the program made but what the API cannot delete.
 *
 * Commands go through PulumiCliRunner.run (the CLI itself, exit codes as they are), and through its steps where the
 * plan is what the test looks at.
 */
import type { Emulator } from "../../emulator";
import { PulumiCliRunner } from "../../testing/cli/cli-runner";
import type { StackRunner } from "../../testing/processes/runner-options";
import type { PulumiCli } from "../../testing/cli/pulumi-cli";
import { unwrapSecrets } from "../../testing/engine/values";
import { CLI_DIR_VARIABLE } from "./global-setup";

export interface ExampleContext {
    emulators: Emulator[];
    /** The engine that runs the program: the real CLI here, either engine in the side-by-side comparison. */
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

/** `describe`s the whole life cycle of one example. */
export function describeLifeCycle(title: string, scenario: ExampleScenario): void {
    describe(title, () => {
        let ctx: ExampleContext;
        let cli: PulumiCliRunner;
        let cleanup: (() => void) | undefined;

        beforeAll(async () => {
            const started = await scenario.start();
            cleanup = started.cleanup;
            cli = await PulumiCliRunner.start({ cwd: scenario.dir, config: started.config, cli: realCli(), env: TIER_ENV });
            ctx = { emulators: started.emulators, runner: cli, outputs: () => unwrapSecrets(cli.outputs()) };
        });
        afterAll(async () => {
            await ctx?.runner.close();
            await Promise.all(ctx?.emulators.map((e) => e.close()) ?? []);
            cleanup?.();
        });

        const pulumi = async (...args: string[]) => cli.run(args);
        const ok = async (...args: string[]) => {
            const r = await pulumi(...args);
            if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
            return r;
        };

        it("pulumi up creates what the program declares", async () => {
            const r = await ok("up", "--yes");
            expect(r.stdout).toMatch(/Resources:\n\s+\+ \d+ created/);
            await ctx.runner.refresh(); // reads the state back into the runner (a refresh of a fresh stack changes nothing)
            await scenario.afterUp(ctx);
        });

        it("preview --expect-no-changes passes; so do refresh --expect-no-changes and a preview after it", async () => {
            await ok("preview", "--expect-no-changes");
            await ok("refresh", "--expect-no-changes", "--yes");
            await ok("preview", "--expect-no-changes");
        });

        it("an input changed in the program's inputs updates exactly the resources it reaches", async () => {
            await scenario.update.apply(ctx);
            const plan = await ctx.runner.up();
            expect(plan.filter((e) => e.op !== "same").map((e) => `${e.name}:${e.op}`).sort()).toEqual(
                scenario.update.updates.map((n) => `${n}:update`).sort(),
            );
            await scenario.update.check?.(ctx);
            await ok("preview", "--expect-no-changes");
        });

        it("a change made out of band fails the drift job, whose --diff names the property (and the warning, who)", async () => {
            await scenario.drift.apply(ctx);
            const r = await pulumi("preview", "--refresh", "--expect-no-changes", "--diff");
            expect(r.code).not.toBe(0);
            expect(r.stderr + r.stdout).toMatch(/no changes were expected for preview but changes were proposed/);
            const line = r.stdout.split("\n").find((l) => l.includes(scenario.drift.resource) && /[~+-]/.test(l));
            expect(line).toBeDefined();
            // --diff shows the changed property under the resource: `~ <property>: ...`.
            expect(r.stdout).toMatch(new RegExp(`[~+-] ${scenario.drift.property}\\b`));
            if (scenario.drift.warning) expect(r.stdout + r.stderr).toMatch(scenario.drift.warning);
        });

        it("pulumi up --refresh repairs it; the drift job passes again", async () => {
            await ok("up", "--refresh", "--yes");
            await ok("preview", "--refresh", "--expect-no-changes");
        });

        it("stack export holds no credential and no bundle token in plain text; stack output --show-secrets shows the secret outputs", async () => {
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
            await ok("destroy", "--yes");
            await scenario.afterDestroy(ctx);
        });
    });
}
