/**
 * The only way out to the network of a third-party SDK under test: a transport that connects to loopback addresses
 * (127.0.0.0/8, ::1, and `localhost` taken as 127.0.0.1 without asking DNS) and refuses everything else before any
 * socket or DNS query exists, counting what it refused.
 *
 * For rox-node@6.0.16 (dist/rox-node.js) every request of the SDK goes through its `networkApi` option (Client
 * handleOptions: the configuration fetcher, state sender, analytics and error reporter all take `this.networkApi`),
 * and the push listener is built from its `eventSourceImpl` option (NotificationListener): this module gives both.
 */
import * as http from "node:http";
import * as https from "node:https";
import * as net from "node:net";

/** What the guard let through and what it refused, since it was made. */
export interface LoopbackGuardStats {
  /** Requests sent to a loopback address. */
  allowed: number;
  /** Attempts refused before any connection: each would have left the machine (or needed DNS). */
  refused: number;
  /** The refused URLs, in order. */
  refusedUrls: string[];
}

/** Thrown (as a rejected request) for an address that is not loopback. */
export class LoopbackRefusedError extends Error {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(`Refused by the loopback guard, no connection made: ${url} (${reason}). Only 127.0.0.0/8, ::1 and localhost are allowed.`);
    this.name = "LoopbackRefusedError";
  }
}

/** rox-node's answer shape (rox-node: HttpResponse). */
export interface GuardedResponse {
  status: number;
  data: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** rox-node's `networkApi` contract (rox-node: AxiosNetwork, FetchNetwork): non-2xx rejects with `error.response`. */
export interface GuardedNetworkApi {
  get(url: string, options?: unknown): Promise<GuardedResponse>;
  post(url: string, data: unknown, options?: unknown): Promise<GuardedResponse>;
}

interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** How long a request of the SDK (and a fetch of startRoxClient) may take, unless told otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Bounds: an answer larger than this, or slower than the timeout, fails. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export class LoopbackGuard {
  private allowedCount = 0;
  private readonly refusedList: string[] = [];

  constructor(private readonly timeoutMs = DEFAULT_TIMEOUT_MS) {}

  stats(): LoopbackGuardStats {
    return { allowed: this.allowedCount, refused: this.refusedList.length, refusedUrls: [...this.refusedList] };
  }

  /** The loopback address of a URL, or a LoopbackRefusedError (counted) when it has none. */
  check(rawUrl: string): Target {
    const refuse = (reason: string): never => {
      this.refusedList.push(rawUrl);
      throw new LoopbackRefusedError(rawUrl, reason);
    };
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return refuse("not a URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return refuse(`protocol ${url.protocol}`);
    const target = loopbackAddress(url.hostname);
    if (!target) return refuse(`host ${url.hostname} is not a loopback address`);
    return { url, ...target };
  }

  /** The transport to give rox-node as `networkApi`. */
  networkApi(): GuardedNetworkApi {
    return {
      get: (url) => this.send("GET", url, undefined),
      post: (url, data) => this.send("POST", url, data),
    };
  }

  /**
   * An `eventSourceImpl` for rox-node's push listener that never connects: a non-loopback URL is counted as refused,
   * and a loopback one has nothing to listen to (the emulator has no push endpoint; call fetch instead).
   */
  eventSourceClass(): new (url: string) => { addEventListener(): void; close(): void } {
    const guard = this;
    return class GuardedEventSource {
      constructor(url: string) {
        try {
          guard.check(url);
        } catch {
          // Counted by check; an EventSource reports failures as events, never by throwing.
        }
      }
      addEventListener(): void {}
      close(): void {}
    };
  }

  private async send(method: "GET" | "POST", rawUrl: string, data: unknown): Promise<GuardedResponse> {
    const target = this.check(rawUrl);
    this.allowedCount += 1;
    const body = data === undefined ? undefined : Buffer.from(JSON.stringify(data));
    const { url } = target;
    const transport = url.protocol === "https:" ? https : http;
    return new Promise<GuardedResponse>((resolve, reject) => {
      const req = transport.request(
        {
          method,
          // The checked address itself: no name is resolved between the check and the connection.
          host: target.address,
          family: target.family,
          port: url.port || (url.protocol === "https:" ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          servername: url.protocol === "https:" && !net.isIP(target.address) ? url.hostname : undefined,
          headers: {
            host: url.host,
            accept: "application/json",
            ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}),
          },
          agent: false,
          lookup: (hostname: string) => {
            throw new LoopbackRefusedError(rawUrl, `unexpected name lookup of ${hostname}`);
          },
          timeout: this.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`${method} ${rawUrl}: answer larger than ${MAX_ANSWER_BYTES} bytes`));
            else chunks.push(chunk);
          });
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            const status = res.statusCode ?? 0;
            let parsed: unknown = text;
            if (/application\/json/i.test(res.headers["content-type"] ?? "")) {
              try {
                parsed = JSON.parse(text);
              } catch {
                parsed = text;
              }
            }
            const response: GuardedResponse = { status, data: parsed, headers: res.headers };
            if (status >= 200 && status < 300) resolve(response);
            else reject(Object.assign(new Error(`${method} ${rawUrl}: status ${status} ${text.slice(0, 200)}`), { response }));
          });
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`${method} ${rawUrl}: no answer within ${this.timeoutMs} ms`)));
      req.on("error", reject);
      req.end(body);
    });
  }
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped 127/8) and `localhost`, as the address to connect to; else undefined. */
export function loopbackAddress(hostname: string): { address: string; family: 4 | 6 } | undefined {
  const host = hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (host === "localhost" || host === "localhost.") return { address: "127.0.0.1", family: 4 };
  const family = net.isIP(host);
  if (family === 4) return host.split(".")[0] === "127" ? { address: host, family: 4 } : undefined;
  if (family === 6) {
    // WHATWG URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
    if (host === "::1" || /^::ffff:(127\.\d+\.\d+\.\d+|7f[0-9a-f]{2}:[0-9a-f]{1,4})$/.test(host)) return { address: host, family: 6 };
    return undefined;
  }
  return undefined;
}
