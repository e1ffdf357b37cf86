import { randomBytes } from "node:crypto";
import { z } from "zod";
import { handleApplicationRequest } from "./feature-flag-routes";
import { handleFlagsStatusRequest, handleImpressionsRequest } from "./impression-routes";
import { ImpressionStore } from "./impressions";
import { withRecordLinks } from "./record-links";
import { ApplicationFlags, type ApplicationFlagsView, type AuditUser, type EnvironmentRecord } from "./feature-flags";
import { decodeSegment, EmulatorRequest, json, Reply, text } from "./http";
import type { FeatureManagementAccount } from "./types";
import {
  auditUserOf,
  FM_FIRST_ENVIRONMENT,
  fmDuplicateName,
  FM_RATE_LIMIT_WINDOW_MS,
  fmBadRequest,
  fmNotFound,
  fmRateLimited,
  fmUnauthorized,
  fmUnknownApplication,
  FM_TOKEN_OWNERS_ARE_TEAM_ADMINS,
  teamMemberKey,
} from "./undocumented-behaviour";
import { reading } from "./readings";
import { handleTeamMemberRequest, newMember, TeamMembers, tokenOwnerProblem, type NewTokenOwner, type TeamMemberRecord } from "./team-members";
import { illFormedReason } from "./well-formed";
import { controlCharacterReason } from "./name-characters";

export interface Application {
  id: string;
  name: string;
}

/** Where an SDK key (an environment's key) leads. */
export interface EnvironmentOfKey {
  account: string;
  applicationId: string;
  environment: EnvironmentRecord;
  model: ApplicationFlagsView;
}

interface TokenOwner {
  account: string;
  user: AuditUser;
}

/**
 * The feature-flag service's public API (paths below /public-api): one application list per account, and per
 * application its environments, flags, configurations, target groups and audit logs (feature-flags.ts, served by
 * feature-flag-routes.ts), and its team members (team-members.ts).
 */
export class FeatureManagementService {
  private readonly ownerOfToken = new Map<string, TokenOwner>();
  private readonly applicationsOf = new Map<string, Application[]>();
  private readonly models = new Map<string, ApplicationFlags>();
  private readonly lastAcceptedAt = new Map<string, number>();
  private readonly team = new TeamMembers();
  /** The impressions the SDKs posted and tests recorded, and the service's clock (impressions.ts). */
  readonly impressions = new ImpressionStore();
  /** The audit-log `_id` of every token owner, by email ignoring case: one per person, whatever the token or account. */
  private readonly personIds = new Map<string, string>();
  private rateLimit: boolean;
  // Object-id layout (time, random, counter) so ids look like the real ones and never collide within a run.
  private readonly idRandom = randomBytes(5).toString("hex");
  private idCounter = randomBytes(3).readUIntBE(0, 3);

  constructor(accounts: FeatureManagementAccount[], rateLimit: boolean) {
    accounts.forEach(({ token, account }, i) => {
      const { email, name } = auditUserOf(account, i);
      this.ownerOfToken.set(token, { account, user: this.person(email, name) });
      if (!this.applicationsOf.has(account)) this.applicationsOf.set(account, []);
      if (!this.team.get(account, email)) this.team.put(account, newMember(email, { name, teamAdmin: FM_TOKEN_OWNERS_ARE_TEAM_ADMINS }));
    });
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

  /** The account's team members, in the order they joined (copies). */
  teamMembers(account: string): TeamMemberRecord[] {
    return this.team.list(account);
  }

  /**
   * A new API token of `account` owned by this person, who joins the account's team if not a member (an existing
   * member is left as it is). Changes made with the token are logged under the person: the name given, else the
   * member's. An unusable email, name or account throws.
   */
  addTokenOwner(owner: NewTokenOwner, defaultAccount: string | undefined): string {
    const account = owner.account ?? defaultAccount;
    if (account === undefined || !this.applicationsOf.has(account)) {
      const known = [...this.applicationsOf.keys()].join(", ");
      throw new Error(`addFeatureManagementUser: account: ${JSON.stringify(account)} is not an account of the emulator (known: ${known})`);
    }
    const issue = tokenOwnerProblem(owner);
    if (issue) throw new Error(`addFeatureManagementUser: ${issue}`);
    let member = this.team.get(account, owner.email);
    if (!member) {
      member = newMember(owner.email, { name: owner.name, teamAdmin: owner.teamAdmin });
      this.team.put(account, member);
    }
    let token: string;
    do token = `fm-token-${randomBytes(12).toString("hex")}`;
    while (this.ownerOfToken.has(token));
    this.ownerOfToken.set(token, { account, user: this.person(member.email, owner.name ?? member.name) });
    return token;
  }

  /** The model of an application (read accessors only), or undefined. Issue 16's SDK endpoints read it. */
  applicationModel(applicationId: string): ApplicationFlagsView | undefined {
    return this.models.get(applicationId);
  }

  /** The environment whose key this is (the SDK key), with its application's model. */
  environmentOfKey(key: string): EnvironmentOfKey | undefined {
    for (const [account, apps] of this.applicationsOf) {
      for (const app of apps) {
        const model = this.models.get(app.id)!;
        const environment = model.environmentByKey(key);
        if (environment) return { account, applicationId: app.id, environment, model };
      }
    }
    return undefined;
  }

  handle(req: EmulatorRequest, subPath: string): Reply {
    const reply = this.answer(req, subPath);
    if (reply.status >= 400) return reading("errorBody") === "text" ? asText(reply) : reply;
    return reading("recordLinks") === "present" ? withRecordLinks(reply, req.path) : reply;
  }

  private answer(req: EmulatorRequest, subPath: string): Reply {
    const limitFirst = reading("rateLimitOrder") === "before-auth";
    const limited = () => fmRateLimited(reading("retryAfterOn555") === "present");
    if (limitFirst && !this.accept(req.clientIp)) return limited();
    const owner = this.authenticate(req.headers["authorization"]);
    if (owner === undefined) return fmUnauthorized();
    if (!limitFirst && !this.accept(req.clientIp)) return limited();
    const apps = this.applicationsOf.get(owner.account)!;

    if (subPath === "public-api/users" || subPath.startsWith("public-api/users/")) {
      return handleTeamMemberRequest(req, subPath.split("/").slice(2).map(decodeSegment), {
        account: owner.account,
        caller: owner.user,
        team: this.team,
        application: (id) => (apps.some((a) => a.id === id) ? this.models.get(id) : undefined),
      });
    }
    if (subPath === "public-api/applications") {
      if (req.method === "GET") return json(200, apps);
      if (req.method === "POST") return this.create(apps, req.body, owner.user);
      return fmNotFound();
    }
    // public-api/applications/{appId}[/...], and the docs' legacy public-api/{appId}/{env}/experiments[/{flag}].
    const segments = subPath.split("/").map(decodeSegment);
    if (segments[0] === "v1") {
      const modelOf = (appId: string) => (apps.some((a) => a.id === appId) ? this.models.get(appId) : undefined);
      return handleFlagsStatusRequest(req, segments, modelOf, this.impressions);
    }
    if (segments[0] !== "public-api" || segments.length < 3) return fmNotFound();
    const legacy = segments[1] !== "applications";
    const id = legacy ? segments[1]! : segments[2]!;
    const rest = segments.slice(legacy ? 2 : 3);
    if (legacy && (reading("legacyExperimentPaths") === "absent" || rest[1] !== "experiments")) return fmNotFound();
    const app = apps.find((a) => a.id === id);
    if (rest.length === 0) {
      if (req.method !== "GET") return fmNotFound();
      return app ? json(200, app) : fmUnknownApplication(id);
    }
    if (!app) return fmUnknownApplication(id);
    const model = this.models.get(app.id)!;
    return (legacy ? null : handleImpressionsRequest(req, model, rest, this.impressions)) ?? handleApplicationRequest(req, model, rest, owner.user, legacy);
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

  private authenticate(header: string | undefined): TokenOwner | undefined {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
    return m ? this.ownerOfToken.get(m[1]!) : undefined;
  }

  private create(apps: Application[], body: Buffer, user: AuditUser): Reply {
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
    const illFormed = illFormedReason(parsed);
    if (illFormed) return fmBadRequest(illFormed);
    const result = schema.safeParse(parsed);
    if (!result.success) return fmBadRequest("applicationName is required and must be a non-empty string");
    const name = result.data.applicationName;
    const control = controlCharacterReason(name);
    if (control) return fmBadRequest(`applicationName: ${control}`);
    if (reading("duplicateApplicationNames") === "409" && apps.some((a) => a.name === name)) return fmDuplicateName(name);
    const app: Application = { name, id: this.newId() };
    apps.push(app);
    const model = new ApplicationFlags(app.id, () => this.newId());
    model.putEnvironment(FM_FIRST_ENVIRONMENT, "", user);
    this.models.set(app.id, model);
    return json(reading("createStatus"), app);
  }

  /** The audit identity of this person: their `_id` is kept across tokens and accounts; email and name as given. */
  private person(email: string, name: string): AuditUser {
    const key = teamMemberKey(email);
    let id = this.personIds.get(key);
    if (id === undefined) this.personIds.set(key, (id = this.newId()));
    return { _id: id, email, name };
  }

  private newId(): string {
    const time = Math.floor(Date.now() / 1000).toString(16).padStart(8, "0");
    this.idCounter = (this.idCounter + 1) % 0x1000000;
    return time + this.idRandom + this.idCounter.toString(16).padStart(6, "0");
  }
}

/** An error answered as text/plain: the message of its JSON body. */
function asText(reply: Reply): Reply {
  let message = reply.body.toString("utf8");
  try {
    const parsed: unknown = JSON.parse(message);
    if (typeof parsed === "object" && parsed !== null && typeof (parsed as { error?: unknown }).error === "string") message = (parsed as { error: string }).error;
  } catch {
    // not JSON: as it is
  }
  return text(reply.status, message, "text/plain;charset=utf-8", reply.headers);
}
