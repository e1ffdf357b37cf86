import { AsyncLocalStorage } from "node:async_hooks";
import { DEFAULT_CONNECTION } from "./settings";

/**
 * The connection (and, for instance-level resources, the named instance) that the current provider call is for.
 *
 * Why ambient rather than an argument: every resource takes `connection` (and three take `instance`), but the
 * controllers reach their clients through a handful of shared helpers (operationsCenter(), featureManagement(),
 * shared/instance.ts, the bundle-list cache, operationFailed). The wrapper that adds these inputs to every
 * controller (resources/shared/with-connection.ts) runs each method inside a scope, and those helpers read it, so
 * no controller passes a connection along and a controller's file says nothing about connections at all.
 * Outside any scope (the functions, tests) the connection is `default`, as before connections existed.
 *
 * The storage lives on globalThis under a registered symbol, created on first use: never at module scope (see
 * state.ts), and shared by every copy of this module in the process.
 */
export interface ConnectionScope {
  connection: string;
  /** A name from the connection's `instances`, for the instance-level resources that were given one. */
  instance?: string;
}

const STORAGE_KEY = Symbol.for("pulumi-cloudbees.connection-scope");

function storage(): AsyncLocalStorage<ConnectionScope> {
  const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<ConnectionScope> | undefined>;
  return (holder[STORAGE_KEY] ??= new AsyncLocalStorage<ConnectionScope>());
}

/** Runs `task` (and everything it awaits) for `scope`. */
export function inScope<T>(scope: ConnectionScope, task: () => T): T {
  return storage().run(scope, task);
}

/** The scope of the current call; `default` outside any. */
export function currentScope(): ConnectionScope {
  return storage().getStore() ?? { connection: DEFAULT_CONNECTION };
}
