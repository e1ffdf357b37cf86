import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { authenticateJenkins } from "./auth";
import type { FaultInjector } from "./faults";
import type { FeatureManagementService } from "./feature-management";
import { EmulatorRequest, flattenHeaders, jsonError, notFoundPage, Reply, text } from "./http";
import type { RequestJournal } from "./journal";
import { isLoopbackHost, notLoopbackReason } from "./loopback-host";
import { handleRoxyRequest, ROXY_PREFIX } from "./roxy-endpoint";
import { handleSelfManagedRequest, SELF_MANAGED_PREFIX } from "./self-managed";
import type { OperationsCenter } from "./operations-center";
import { withReadings, type Readings } from "./readings";
import type { EmulatorUser } from "./types";
import { DROPPED_STATUS, internalError, MAX_BODY_BYTES } from "./undocumented-behaviour";
import { withUnreadableEntry } from "./unreadable-entries";

export const FM_PREFIX = "/feature-management/";
export const OC_PREFIX = "/cjoc/";
export const CONTROLLERS_PREFIX = "/controllers/";

/** Controller full path as it appears in URLs: each segment percent-encoded. */
export const encodePath = (fullPath: string): string => fullPath.split("/").map(encodeURIComponent).join("/");

export interface Services {
  featureManagement: FeatureManagementService;
  operationsCenter: OperationsCenter;
  users: EmulatorUser[];
  /** Controllers with users of their own (EmulatorOptions.controllerUsers). */
  controllerUsers: Record<string, EmulatorUser[]>;
  journal: RequestJournal;
  faults: FaultInjector;
  /** The open choices this emulator plays (readings.ts). */
  readings: Readings;
  /** The name of the entry appended to every list answer the resources read (unreadable-entries.ts); none when undefined. */
  unreadableListEntry?: string;
}

/** One loopback server for every service; services are attached once the port (hence the URLs) is known. */
export class EmulatorServer {
  private readonly server: http.Server;
  private services: Services | undefined;
  private readonly pendingDelays = new Set<{ timer: NodeJS.Timeout; resolve: (completed: boolean) => void }>();
  private closed = false;

  constructor() {
    this.server = http.createServer((req, res) => {
      this.onRequest(req, res).catch(() => res.destroy());
    });
  }

  async listen(port: number): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    return (this.server.address() as AddressInfo).port;
  }

  attach(services: Services): void {
    this.services = services;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const d of this.pendingDelays) {
      clearTimeout(d.timer);
      d.resolve(false);
    }
    this.pendingDelays.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Resolves false if the emulator closes first, so no timer outlives it. */
  private delay(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.pendingDelays.delete(entry);
          resolve(true);
        }, ms),
        resolve,
      };
      this.pendingDelays.add(entry);
    });
  }

  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.on("error", () => undefined);
    const { body, tooLarge } = await readBody(req);
    // Origin-form targets are appended rather than resolved, so "//x" stays a path instead of becoming a host.
    const target = req.url ?? "/";
    const url = target.startsWith("/") ? new URL(`http://127.0.0.1${target}`) : new URL(target, "http://127.0.0.1");
    const request: EmulatorRequest = {
      method: (req.method ?? "GET").toUpperCase(),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams.entries()),
      headers: flattenHeaders(req.headers),
      body,
      clientIp: req.socket.remoteAddress ?? "",
    };
    const services = this.services;
    if (!services) return send(res, jsonError(503, "Emulator is starting"));
    const hostRefused = !isLoopbackHost(req.headers.host);
    // A refused request reaches no service, so it takes no injected fault either.
    const fault = hostRefused ? undefined : services.faults.take(request.method, request.path, request.path.startsWith(FM_PREFIX));
    const journal = (status: number): void =>
      services.journal.record({
        method: request.method,
        path: request.path,
        query: request.query,
        headers: request.headers,
        body: request.body,
        status,
        ...(fault ? { fault: fault.label } : {}),
      });

    if (hostRefused) {
      journal(403);
      return send(res, text(403, notLoopbackReason(req.headers.host ?? "")));
    }
    if (fault) {
      if (fault.delayMs && !(await this.delay(fault.delayMs))) return void res.destroy();
      if (fault.drop) {
        journal(DROPPED_STATUS);
        return void req.socket.destroy();
      }
      if (fault.status !== undefined) {
        const reply = faultReply(fault.status, fault.body, fault.headers);
        journal(reply.status);
        return send(res, reply);
      }
    }

    let reply: Reply;
    try {
      reply = tooLarge ? jsonError(413, `Request body larger than ${MAX_BODY_BYTES} bytes`) : await withReadings(services.readings, () => this.route(request, services));
    } catch (e) {
      reply = internalError(e);
    }
    if (fault?.dropAfterHandling) {
      journal(DROPPED_STATUS);
      return void req.socket.destroy();
    }
    if (services.unreadableListEntry !== undefined) reply = withUnreadableEntry(request, reply, services.unreadableListEntry, request.path.startsWith(FM_PREFIX));
    journal(reply.status);
    if (fault?.answerDelayMs && !(await this.delay(fault.answerDelayMs))) return void res.destroy();
    send(res, reply);
  }

  private async route(req: EmulatorRequest, s: Services): Promise<Reply> {
    const path = req.path;
    if (path.startsWith(FM_PREFIX)) return s.featureManagement.handle(req, path.slice(FM_PREFIX.length));
    if (path.startsWith(ROXY_PREFIX)) return handleRoxyRequest(req, path.slice(ROXY_PREFIX.length), s.featureManagement);
    if (path.startsWith(SELF_MANAGED_PREFIX)) return handleSelfManagedRequest(req, path.slice(SELF_MANAGED_PREFIX.length), s.featureManagement);
    if (path.startsWith(OC_PREFIX)) {
      const auth = authenticateJenkins(req.headers["authorization"], s.users);
      if (!auth.ok) return auth.reply;
      const sub = jenkinsSubPath(path.slice(OC_PREFIX.length));
      const oc = s.operationsCenter;
      return (await oc.handle(req, sub)) ?? (await oc.instance.handle(req, sub)) ?? notFoundPage(path);
    }
    if (path.startsWith(CONTROLLERS_PREFIX)) {
      const rest = path.slice(CONTROLLERS_PREFIX.length);
      // Longest match, so a controller inside a folder wins over a same-named prefix.
      const controller = [...s.operationsCenter.controllers.values()]
        .filter((c) => rest.startsWith(`${encodePath(c.fullPath)}/`))
        .sort((a, b) => b.fullPath.length - a.fullPath.length)[0];
      if (!controller) return notFoundPage(path);
      const auth = authenticateJenkins(req.headers["authorization"], s.controllerUsers[controller.fullPath] ?? s.users);
      if (!auth.ok) return auth.reply;
      const sub = jenkinsSubPath(rest.slice(encodePath(controller.fullPath).length + 1));
      return (await controller.instance.handle(req, sub)) ?? notFoundPage(path);
    }
    return notFoundPage(path);
  }
}

/**
 * A path below an instance's URL as Jenkins (Stapler) reads it: empty segments skipped, so <oc>//casc-bundle/list is
 * <oc>/casc-bundle/list. Clients that join a base URL ending in "/" with a path starting with "/" rely on it:
 * jenkins-rest.sh of carlosrodlop/cbci.jenkins-lib with its .env.example, and bundleutils' fetch
 * (tsmp-falcon-platform/ci-bundle-utils: `url + '/core-casc-export'`). The instance's own prefix must still match.
 */
function jenkinsSubPath(sub: string): string {
  return sub.replace(/\/{2,}/g, "/").replace(/^\//, "");
}

async function readBody(req: http.IncomingMessage): Promise<{ body: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  // Events, not `for await`: the stream's async iterator is a cost of its own on every request (HttpClient reads so too).
  await new Promise<void>((resolve) => {
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.once("end", resolve);
    // Client went away mid-body: handle what arrived; the answer goes nowhere anyway.
    req.once("error", () => resolve());
    req.once("close", resolve);
  });
  return { body: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge };
}

function faultReply(status: number, body: string | undefined, headers: Record<string, string> | undefined): Reply {
  const content = body ?? JSON.stringify({ error: "injected fault" });
  let looksJson = true;
  try {
    JSON.parse(content);
  } catch {
    looksJson = false;
  }
  const lower = Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    headers: { "content-type": looksJson ? "application/json;charset=utf-8" : "text/plain;charset=utf-8", ...lower },
    body: Buffer.from(content),
  };
}

function send(res: http.ServerResponse, reply: Reply): void {
  if (res.destroyed) return;
  res.writeHead(reply.status, { ...reply.headers, "content-length": String(reply.body.length) });
  res.end(reply.body);
}
