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
