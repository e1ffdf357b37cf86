import { fork, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import type { EmulatorOptions } from "../emulator";
import { secret } from "./harness";
import type { EmulatorInfo, EmulatorQuestion } from "./emulator-process";

/** The emulator running in its own process (emulator-process.ts), asked over IPC. */
export class EmulatorProcess {
  private next = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly info: EmulatorInfo,
  ) {
    child.on("message", (m: { id: number; result: unknown }) => {
      this.waiting.get(m.id)?.(m.result);
      this.waiting.delete(m.id);
    });
  }

  static async start(options: EmulatorOptions): Promise<EmulatorProcess> {
    const child = fork(path.join(__dirname, "emulator-process.ts"), [], {
      execArgv: ["--require", require.resolve("ts-node/register/transpile-only")],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const info = await new Promise<EmulatorInfo>((resolve, reject) => {
      child.once("message", (m: { result: EmulatorInfo }) => resolve(m.result));
      child.once("exit", (code) => reject(new Error(`the emulator process exited (code ${code})`)));
      child.send(options);
    });
    child.removeAllListeners("exit");
    return new EmulatorProcess(child, info);
  }

  /** The emulator process's id (for its CPU time). */
  get pid(): number {
    return this.child.pid!;
  }

  /** The operations center administrator's Authorization header (HTTP Basic), for requests sent without a client. */
  get adminAuthorization(): string {
    return `Basic ${Buffer.from(`${this.info.admin.username}:${this.info.admin.apiToken}`).toString("base64")}`;
  }

  /** Stack config pointing at this emulator as its administrator, the secrets marked secret. */
  stackConfig(): Record<string, unknown> {
    const { info } = this;
    return {
      "cloudbees:operationsCenterUrl": info.operationsCenterUrl,
      "cloudbees:username": info.admin.username,
      "cloudbees:apiToken": secret(info.admin.apiToken),
      "cloudbees:featureManagementUrl": info.featureManagementUrl,
      "cloudbees:featureManagementToken": secret(info.featureManagementToken),
    };
  }

  ask<T>(question: EmulatorQuestion): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve) => {
      this.waiting.set(id, resolve as (r: unknown) => void);
      this.child.send({ id, question });
    });
  }

  /** Requests with this method and path (below the emulator's root) since the last clear. */
  count(method: string, pathname: string, status?: number): Promise<number> {
    return this.ask({ op: "count", method, path: pathname, ...(status === undefined ? {} : { status }) });
  }

  clear(): Promise<void> {
    return this.ask({ op: "clear" });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.disconnect();
    await exited;
  }
}
