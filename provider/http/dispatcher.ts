import type { Dispatcher } from "undici";
import { undici } from "../libraries";
import { isLoopbackHost } from "./url";
import type { ResolvedHttpOptions } from "./options";

/**
 * The undici dispatcher of one client, created lazily by the client (never at module scope: an Agent captured by
 * a serialized Pulumi provider breaks serialization).
 *
 * Remote hosts go through EnvHttpProxyAgent, which honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY. Loopback hosts
 * (the emulator) never go through a proxy: a corporate proxy cannot reach this machine's loopback anyway.
 */
export function createDispatcher(base: URL, options: ResolvedHttpOptions): Dispatcher {
  const tls = {
    ca: options.caCertificate,
    rejectUnauthorized: !options.insecureSkipTlsVerify,
  };
  const common = {
    connect: tls,
    // 0 turns undici's own header and body timers off: the deadline of each call (an AbortSignal, longer for a
    // check-out than for a read) is the one place that decides how long to wait.
    headersTimeout: 0,
    bodyTimeout: 0,
  };
  const { Agent, EnvHttpProxyAgent } = undici();
  if (isLoopbackHost(base.hostname)) return new Agent(common);
  return new EnvHttpProxyAgent({ ...common, requestTls: tls });
}

/** A client's use of a shared dispatcher: release it once, when the client closes. */
export interface DispatcherLease {
  dispatcher: Dispatcher;
  release(): Promise<void>;
}

interface Shared {
  dispatcher: Dispatcher;
  users: number;
}

const SHARED_KEY = Symbol.for("pulumi-cloudbees.shared-dispatchers");

/**
 * The dispatcher every client of one origin and TLS settings shares, so that they share connections: controllers
 * under one host (`https://ci.example.com/team-a/`) are each a client of their own, and a deployment that reads 50
 * of them opens a few connections instead of two each. Counted: the last client to close closes it. Kept on
 * globalThis (as the provider's state: never at module scope, see createDispatcher).
 */
export function leaseDispatcher(base: URL, options: ResolvedHttpOptions): DispatcherLease {
  const holder = globalThis as unknown as Record<symbol, Map<string, Shared> | undefined>;
  const shared = (holder[SHARED_KEY] ??= new Map());
  // The proxy settings as EnvHttpProxyAgent reads them when it is made: a client made after they change gets its own.
  const proxy = isLoopbackHost(base.hostname) ? [] : ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"].map((k) => process.env[k] ?? process.env[k.toLowerCase()] ?? null);
  const key = JSON.stringify([base.origin, options.caCertificate ?? null, options.insecureSkipTlsVerify, proxy]);
  let entry = shared.get(key);
  if (!entry) {
    entry = { dispatcher: createDispatcher(base, options), users: 0 };
    shared.set(key, entry);
  }
  entry.users++;
  const held = entry;
  let released = false;
  return {
    dispatcher: held.dispatcher,
    async release() {
      if (released) return;
      released = true;
      if (--held.users > 0) return;
      if (shared.get(key) === held) shared.delete(key);
      await held.dispatcher.close();
    },
  };
}
