/* istanbul ignore file */
/**
 * Independent proof of where this process connects: every TCP connection of Node (http, https, net) goes through
 * net.Socket.prototype.connect, and every name resolution of net through dns.lookup. A test file installs the
 * tripwire for its whole run and asserts on what it saw, whatever code made the connection.
 */
import * as net from "node:net";

export interface Tripwire {
  /** `host:port` (or a socket path) of every connection attempt, in order. */
  connections(): string[];
  /** Every name handed to dns.lookup. */
  lookups(): string[];
  restore(): void;
}

export function installTripwire(): Tripwire {
  const connections: string[] = [];
  const lookups: string[] = [];
  const originalConnect = net.Socket.prototype.connect;
  // The module object itself (an `import *` namespace would be a copy): net reads dns.lookup from it at each connect.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const dns = require("node:dns") as { lookup: unknown };
  const originalLookup = dns.lookup;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    if (typeof first === "object" && first !== null) {
      const o = first as { host?: string; port?: number; path?: string };
      connections.push(o.path ?? `${o.host ?? "localhost"}:${o.port}`);
    } else if (typeof first === "number") {
      connections.push(`${typeof args[1] === "string" ? args[1] : "localhost"}:${first}`);
    } else connections.push(String(first));
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof originalConnect;
  dns.lookup = function (hostname: string, ...rest: unknown[]) {
    lookups.push(hostname);
    return (originalLookup as (...a: unknown[]) => unknown)(hostname, ...rest);
  };
  return {
    connections: () => [...connections],
    lookups: () => [...lookups],
    restore: () => {
      net.Socket.prototype.connect = originalConnect;
      dns.lookup = originalLookup;
    },
  };
}

/** True for 127.0.0.0/8, ::1 and localhost targets. */
export function isLoopbackTarget(target: string): boolean {
  const host = target.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
  return host === "localhost" || host === "::1" || /^127\./.test(host) || /^::ffff:127\./.test(host);
}
