import * as pulumi from "@pulumi/pulumi";
import { UnexpectedResponseError } from "../../provider/http/errors";
import { formatZodIssue } from "../../provider/http/response-text";
import { builtOnce } from "../../provider/http/schema-cache";
import type { FunctionSpec } from "../../provider/functions/host";

/**
 * Functions under `pulumi.runtime.setMocks`, the way Pulumi users unit-test programs: while the runtime is mocking,
 * a function sends no request and reads no setting; it calls the mocks' `call` with its token
 * (`cloudbees:index:<name>`) and its arguments, and returns what the mock returns, parsed as its result type
 * (its FunctionSpec, provider/functions/host.ts). The TypeScript face's host (host.ts) answers with it.
 */

/**
 * Marks a mock monitor that plays the engine (pulumi-cloudbees/testing's program process): functions then call the
 * services, as under `pulumi up`, instead of the mocks' `call`.
 */
export const ENGINE_MONITOR: unique symbol = Symbol.for("pulumi-cloudbees.engineMonitor");

type MockCall = (args: { token: string; inputs: Record<string, unknown>; provider?: string }) => unknown;

/** The mocks' `call` when `pulumi.runtime.setMocks` is in force (and not the testing kit's engine); else undefined. */
export function activeMockCall(): MockCall | undefined {
  // hasMonitor first: outside a program there is no monitor, and getMonitor() must not create one.
  if (!pulumi.runtime.hasMonitor()) return undefined;
  const monitor = pulumi.runtime.getMonitor() as { mocks?: { call?: unknown }; [ENGINE_MONITOR]?: unknown } | undefined;
  if (!monitor || monitor[ENGINE_MONITOR] || typeof monitor.mocks?.call !== "function") return undefined;
  const mocks = monitor.mocks as { call: MockCall };
  return (args) => mocks.call(args);
}

/** Asks the mocks for the function's result and parses it; a result that does not fit names the field. */
export async function callMock<T>(call: MockCall, spec: FunctionSpec<T>, inputs: Record<string, unknown>, operation: string): Promise<T> {
  const defined = Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined));
  const value = await call({ token: spec.token, inputs: defined, provider: "" });
  const parsed = builtOnce(spec.result).safeParse(value);
  if (parsed.success) return parsed.data;
  const { field, message } = formatZodIssue(parsed.error.issues[0]);
  throw new UnexpectedResponseError(
    `the mocks' call for ${spec.token} returned a value that is not a ${spec.name} result: ${field ? `${field}: ` : ""}${message}`,
    { operation, field },
  );
}
