/**
 * One Pulumi program's life cycle in a test, offline: an emulator of the CloudBees APIs on loopback, and the program
 * (a folder with Pulumi.yaml) run step after step, with the state carried between steps, by one of two engines:
 * - "stand-in" (the default): ProgramRunner, this package's engine stand-in, through Pulumi's real dynamic-provider
 *   host; no Pulumi CLI needed;
 * - "pulumi": PulumiCliRunner, the real Pulumi CLI, run as its Automation API runs it (a `pulumi` on PATH, or the cache of
 *   `npm run pulumi-cli`), on a file backend in a temp folder.
 */
import { startEmulator, type Emulator, type EmulatorOptions } from "../emulator";
import { emulatorStackConfig } from "./emulator-config";
import type { ProgramPlan } from "./engine/plan";
import { PulumiCliRunner } from "./cli/cli-runner";
import { ProgramRunner } from "./processes/program-runner";
import type { PulumiCli } from "./cli/pulumi-cli";
import type { ProgramRunnerOptions, RunStepOptions, StackRunner } from "./processes/runner-options";
import type { ProgramState } from "./engine/state";
import type { JsonObject } from "./processes/provider-host";
import { unwrapSecrets } from "./engine/values";

export interface ProgramTestOptions extends Omit<ProgramRunnerOptions, "cwd"> {
  /** The project folder: it holds Pulumi.yaml, and `main` there names the program (default: the folder). */
  dir: string;
  /**
   * The emulator to run against: a running one (the caller closes it), or the options of one that this test starts
   * and close() stops. Default: a new emulator with the package's example bundles.
   */
  emulator?: Emulator | EmulatorOptions;
  /**
   * Stack config (`namespace:key`) over the emulator's: `cloudbees:*` keys that point at the emulator as its admin
   * user are set already. Wrap secrets with `secret(...)`.
   */
  config?: Record<string, unknown>;
  /**
   * Which engine runs the steps: "stand-in" (default; stateFile, prestart, tsconfig and callTimeoutMs are its own
   * options) or "pulumi", the real CLI (docs/testing.md says when to use which).
   */
  engine?: "stand-in" | "pulumi";
  /** engine "pulumi": the CLI to run (default: findPulumiCli(), a pulumi on PATH or the repository's cache). */
  cli?: PulumiCli;
}

/** A program under test: its steps, its outputs and state, and the emulator it runs against. */
export class ProgramTest {
  private constructor(
    /** The emulator: `state` (what the APIs hold now), `journal` (every request received), `faults`. */
    readonly emulator: Emulator,
    /** The engine's runner, for what this class does not wrap (`setConfig`, `last`, `state()`). */
    readonly runner: StackRunner,
    private readonly ownsEmulator: boolean,
  ) {}

  /** Starts the emulator (unless given one) and prepares the runner; nothing runs before the first step. */
  static async start(options: ProgramTestOptions): Promise<ProgramTest> {
    const { dir, emulator, config, engine, cli, ...runnerOptions } = options;
    const given = isEmulator(emulator);
    const emu = given ? emulator : await startEmulator(emulator ?? {});
    try {
      const stackConfig = { ...emulatorStackConfig(emu), ...config };
      const runner =
        engine === "pulumi"
          ? await PulumiCliRunner.start({ ...runnerOptions, cli, cwd: dir, config: stackConfig })
          : await ProgramRunner.start({ ...runnerOptions, cwd: dir, config: stackConfig });
      return new ProgramTest(emu, runner, !given);
    } catch (e) {
      if (!given) await emu.close();
      throw e;
    }
  }

  /** `pulumi up`: the plan of what was created, updated, replaced, deleted or left the same. */
  up(options?: RunStepOptions): Promise<ProgramPlan> {
    return this.runner.up(undefined, options);
  }

  /** `pulumi preview`: the plan, with unknown values where the outputs are not known yet; nothing changes. */
  preview(options?: RunStepOptions): Promise<ProgramPlan> {
    return this.runner.preview(undefined, options);
  }

  /** `pulumi refresh`: reads every resource; `changedFields` shows drift, and vanished objects are dropped. */
  refresh(options?: RunStepOptions): Promise<ProgramPlan> {
    return this.runner.refresh(options);
  }

  /** `pulumi destroy`: deletes every resource in reverse dependency order. */
  destroy(options?: RunStepOptions): Promise<ProgramPlan> {
    return this.runner.destroy(options);
  }

  /** The stack outputs of the last `up`, secrets revealed (plain values, as `pulumi stack output --show-secrets`). */
  outputs(): JsonObject {
    return unwrapSecrets(this.runner.outputs());
  }

  /** The state: every resource with its id, inputs and outputs in wire form (secrets stay wrapped). */
  state(): ProgramState {
    return this.runner.state();
  }

  /** Stops the runner's processes, and the emulator when this test started it. */
  async close(): Promise<void> {
    try {
      await this.runner.close();
    } finally {
      if (this.ownsEmulator) await this.emulator.close();
    }
  }
}

/** The plan entries that change something (every operation but `same`): `[]` after an up with nothing to do. */
export function changesOf(plan: ProgramPlan): ProgramPlan {
  return plan.filter((e) => e.op !== "same");
}

function isEmulator(e: Emulator | EmulatorOptions | undefined): e is Emulator {
  return typeof (e as Emulator | undefined)?.close === "function" && typeof (e as Emulator).operationsCenterUrl === "string";
}
