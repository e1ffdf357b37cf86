// Libraries loaded by the first call that needs them, not when the provider loads: a `check` sends nothing and reads
// no zip or YAML, and these are most of the provider's load time (undici alone about a third).
import type JSZip from "jszip";

// Kept once loaded: `require` of a package name resolves it again on every call (file system lookups of its
// package.json), and the YAML reader calls yaml() for every node it visits.
let jszipModule: typeof JSZip | undefined;
let yamlModule: typeof import("yaml") | undefined;

export function jszip(): typeof JSZip {
  return (jszipModule ??= require("jszip") as typeof JSZip);
}

export function yaml(): typeof import("yaml") {
  return (yamlModule ??= require("yaml") as typeof import("yaml"));
}

/** What the clients use of undici. */
export interface UndiciParts {
  Agent: typeof import("undici").Agent;
  EnvHttpProxyAgent: typeof import("undici").EnvHttpProxyAgent;
}

/**
 * undici's Agent and EnvHttpProxyAgent, with the methods undici's index gives every dispatcher (`request`, and
 * `connect`, which the proxy agent's CONNECT needs), loaded from undici's own files as its index wires them rather
 * than from the index, which also loads fetch, WebSocket, EventSource, the caches and the mocks: measured on a 2-core
 * machine, 65 against 180 ms of CPU, paid by every provider host (the engine starts one per deployment) and every
 * script that sends a request. A release that moves those files gets the index (test/http/undici-parts.test.ts
 * checks that these are the index's parts, wired the same).
 */
export function undici(): UndiciParts {
  try {
    const dispatcher = require("undici/lib/dispatcher/dispatcher") as { prototype: object };
    Object.assign(dispatcher.prototype, require("undici/lib/api"));
    return { Agent: require("undici/lib/dispatcher/agent"), EnvHttpProxyAgent: require("undici/lib/dispatcher/env-http-proxy-agent") };
  } catch {
    return require("undici");
  }
}
