/**
 * A new deployment in a provider host this kit started, on request over the IPC channel startProviderHost opens, so
 * that a suite running many deployments need not start a host for each (a host's start is most of its CPU). What a
 * new host would start with is what the provider keeps per process (provider/config/state.ts): its clients and reads
 * go, its stack config stays (the engine would configure a new host with the same).
 */
import type { ChildProcess } from "node:child_process";

export const NEW_DEPLOYMENT = "pulumi-cloudbees:new-deployment";

interface Message {
  type?: unknown;
}

/** In the host (host-preload.ts). */
export function listenForNewDeployments(): void {
  process.on("message", (message: Message) => {
    if (message?.type !== NEW_DEPLOYMENT) return;
    // Loaded here, not at the host's start: most hosts never get the message.
    const { newDeployment } = require("../../provider/config/state") as typeof import("../../provider/config/state");
    newDeployment().then(
      () => process.send?.({ type: `${NEW_DEPLOYMENT}:done` }),
      (e: unknown) => process.send?.({ type: `${NEW_DEPLOYMENT}:done`, error: e instanceof Error ? e.message : String(e) }),
    );
  });
  // The host lives as long as its gRPC server; the channel must not keep it alive beyond that.
  process.channel?.unref();
}

/** In the kit: asks the host to start a new deployment; resolves once it has. */
export function requestNewDeployment(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`the provider host did not start a new deployment within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: Message & { error?: string }) => {
      if (message?.type === `${NEW_DEPLOYMENT}:done`) done(message.error === undefined ? undefined : new Error(`the provider host could not start a new deployment: ${message.error}`));
    };
    const onExit = () => done(new Error("the provider host exited before it started a new deployment"));
    function done(error?: Error): void {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve();
    }
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.send({ type: NEW_DEPLOYMENT });
  });
}
