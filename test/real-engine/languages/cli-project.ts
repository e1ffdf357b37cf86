/**
 * A Pulumi project of the languages tier, run the way a user runs one: `pulumi` commands in its folder, with the
 * environment of tier-cli.ts's workspace (the real CLI first on PATH, a file backend, PULUMI_HOME and a
 * passphrase of its own, offline). Every command answers its exit code and output: a failure is an answer.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Emulator } from "../../../emulator";
import { emulatorConnection } from "../../../testing/emulator-config";
import { run, type Run } from "../tier-cli";

export class CliProject {
  constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  run(...args: string[]): Promise<Run> {
    return run("pulumi", [...args, "--non-interactive", "--color", "never"], this.dir, this.env);
  }

  /** A command that must pass; its output when it does. */
  async ok(...args: string[]): Promise<Run> {
    const r = await this.run(...args);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} in ${this.dir} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
    return r;
  }

  /**
   * `stack init <stack>`, then the stack config in one `pulumi config set-all` (`--secret` keys encrypted as `config
   * set --secret` encrypts them): one command rather than one per key, each of which derives the passphrase's key.
   */
  async init(config: Record<string, { value: string; secret?: boolean }>, stack = "dev"): Promise<void> {
    await this.ok("stack", "init", stack);
    const pairs = Object.entries(config).flatMap(([key, { value, secret }]) => [secret ? "--secret" : "--plaintext", `${key}=${value}`]);
    if (pairs.length) await this.ok("config", "set-all", ...pairs);
  }

  /** `stack init <stack>` with the settings of an emulator (tokens secret). */
  async initFor(emu: Emulator, stack = "dev"): Promise<void> {
    const c = emulatorConnection(emu);
    await this.init(
      {
        "cloudbees:operationsCenterUrl": { value: c.operationsCenterUrl },
        "cloudbees:username": { value: c.username },
        "cloudbees:apiToken": { value: c.apiToken, secret: true },
        "cloudbees:featureManagementUrl": { value: c.featureManagementUrl },
        "cloudbees:featureManagementToken": { value: c.featureManagementToken, secret: true },
        "cloudbees:featureManagementRequestIntervalMs": { value: c.featureManagementRequestIntervalMs ?? "0" },
      },
      stack,
    );
  }

  /** The stack outputs, secrets revealed. */
  async outputs(): Promise<Record<string, unknown>> {
    return JSON.parse((await this.ok("stack", "output", "--json", "--show-secrets")).stdout) as Record<string, unknown>;
  }

  /** The project's name, from its Pulumi.yaml. */
  projectName(): string {
    return /^name:\s*(\S+)/m.exec(fs.readFileSync(path.join(this.dir, "Pulumi.yaml"), "utf8"))![1]!;
  }

  /** Each resource's inputs as the state records them, by name (`stack export`; secrets stay encrypted). */
  async recordedInputs(): Promise<Record<string, unknown>> {
    const state = JSON.parse((await this.ok("stack", "export")).stdout) as { deployment: { resources?: Array<{ urn: string; custom?: boolean; inputs?: unknown }> } };
    const custom = (state.deployment.resources ?? []).filter((r) => r.custom && !r.urn.includes("::pulumi:providers:"));
    return Object.fromEntries(custom.map((r) => [r.urn.split("::").pop()!, r.inputs ?? {}]));
  }

  /** What a preview plans, `<name>:<op>` for each resource that is not the same. */
  async plannedChanges(...args: string[]): Promise<string[]> {
    const preview = JSON.parse((await this.ok("preview", "--json", ...args)).stdout) as { steps?: Array<{ op: string; urn: string }> };
    return (preview.steps ?? []).filter((s) => s.op !== "same").map((s) => `${s.urn.split("::").pop()}:${s.op}`).sort();
  }
}

/** A tool (npm, pip, go) that must pass; its standard output. */
export async function mustRun(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await run(command, args, cwd, env);
  if (r.code !== 0) throw new Error(`${command} ${args.join(" ")} in ${cwd} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}
