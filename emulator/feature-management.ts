import { randomBytes } from "node:crypto";
import { z } from "zod";
import { decodeSegment, EmulatorRequest, json, Reply } from "./http";
import type { FeatureManagementAccount } from "./types";
import {
  FM_ALLOW_DUPLICATE_NAMES,
  FM_CREATE_STATUS,
  FM_RATE_LIMIT_BEFORE_AUTH,
  fmDuplicateName,
  FM_RATE_LIMIT_WINDOW_MS,
  fmBadRequest,
  fmNotFound,
  fmRateLimited,
  fmUnauthorized,
  fmUnknownApplication,
} from "./undocumented-behaviour";

export interface Application {
  id: string;
  name: string;
}

/** The applications API of the feature-flag service (paths below /public-api), one application list per account. */
export class FeatureManagementService {
  private readonly accountOfToken = new Map<string, string>();
  private readonly applicationsOf = new Map<string, Application[]>();
  private readonly lastAcceptedAt = new Map<string, number>();
  private rateLimit: boolean;
  // Object-id layout (time, random, counter) so ids look like the real ones and never collide within a run.
  private readonly idRandom = randomBytes(5).toString("hex");
  private idCounter = randomBytes(3).readUIntBE(0, 3);

  constructor(accounts: FeatureManagementAccount[], rateLimit: boolean) {
    for (const { token, account } of accounts) {
      this.accountOfToken.set(token, account);
      if (!this.applicationsOf.has(account)) this.applicationsOf.set(account, []);
    }
    this.rateLimit = rateLimit;
  }

  setRateLimit(on: boolean): void {
    // Only requests seen while the limit is on count, so switching it on never penalises earlier traffic.
    if (on && !this.rateLimit) this.lastAcceptedAt.clear();
    this.rateLimit = on;
  }

  rateLimitEnabled(): boolean {
    return this.rateLimit;
  }

  applications(account: string): Application[] {
    return (this.applicationsOf.get(account) ?? []).map((a) => ({ ...a }));
  }

  handle(req: EmulatorRequest, subPath: string): Reply {
    if (FM_RATE_LIMIT_BEFORE_AUTH && !this.accept(req.clientIp)) return fmRateLimited();
    const account = this.authenticate(req.headers["authorization"]);
    if (account === undefined) return fmUnauthorized();
    if (!FM_RATE_LIMIT_BEFORE_AUTH && !this.accept(req.clientIp)) return fmRateLimited();
    const apps = this.applicationsOf.get(account)!;

    if (subPath === "public-api/applications") {
      if (req.method === "GET") return json(200, apps);
      if (req.method === "POST") return this.create(apps, req.body);
      return fmNotFound();
    }
    const m = /^public-api\/applications\/([^/]+)$/.exec(subPath);
    if (m && req.method === "GET") {
      const id = decodeSegment(m[1]!);
      const app = apps.find((a) => a.id === id);
      return app ? json(200, app) : fmUnknownApplication(id);
    }
    return fmNotFound();
  }

  /** False when the request comes too soon after the client's last accepted one; rejected requests do not count. */
  private accept(clientIp: string): boolean {
    if (!this.rateLimit) return true;
    const now = Date.now();
    const last = this.lastAcceptedAt.get(clientIp);
    if (last !== undefined && now - last < FM_RATE_LIMIT_WINDOW_MS) return false;
    this.lastAcceptedAt.set(clientIp, now);
    return true;
  }

  private authenticate(header: string | undefined): string | undefined {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
    return m ? this.accountOfToken.get(m[1]!) : undefined;
  }

  private create(apps: Application[], body: Buffer): Reply {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return fmBadRequest("Request body must be a JSON object");
    }
    const schema = z.object({
      applicationName: z.string().refine((s) => s.trim().length > 0),
    });
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return fmBadRequest("Request body must be a JSON object");
    }
    const result = schema.safeParse(parsed);
    if (!result.success) return fmBadRequest("applicationName is required and must be a non-empty string");
    const name = result.data.applicationName;
    if (!FM_ALLOW_DUPLICATE_NAMES && apps.some((a) => a.name === name)) return fmDuplicateName(name);
    const app: Application = { name, id: this.newId() };
    apps.push(app);
    return json(FM_CREATE_STATUS, app);
  }

  private newId(): string {
    const time = Math.floor(Date.now() / 1000).toString(16).padStart(8, "0");
    this.idCounter = (this.idCounter + 1) % 0x1000000;
    return time + this.idRandom + this.idCounter.toString(16).padStart(6, "0");
  }
}
