import type { ApplicationFlagsView, AuditUser } from "./feature-flags";
import { deleted, writeStatus } from "./feature-flag-routes";
import { FlagApiError, parseJson, readObject } from "./feature-flag-validation";
import { EmulatorRequest, json, jsonError, Reply } from "./http";
import { illFormedReason } from "./well-formed";
import {
  defaultMemberName,
  FM_TEAM_DEFAULT_ADMIN,
  FM_TEAM_LIMITS,
  fmNotFound,
  fmSelfRemoval,
  fmUnknownTeamMember,
  teamMemberKey,
} from "./undocumented-behaviour";

/**
 * The feature-flag service's team members (../shared/notes/feature-management-api.md rows U1-U4 and the User schema):
 * the people of each account, with their permissions per application environment. The model (TeamMembers) keeps them
 * per account by email ignoring case; the routes (handleTeamMemberRequest) serve `public-api/users[/{email}]`.
 * Team-member changes write no audit record and permissions are not enforced (undocumented-behaviour.ts).
 */

export const ENVIRONMENT_PERMISSIONS = ["read", "write"] as const;
export type EnvironmentPermission = (typeof ENVIRONMENT_PERMISSIONS)[number];

/** The User of U1-U3: `applications` maps an application id to its environments (by name) and the permission on each. */
export interface TeamMemberRecord {
  email: string;
  name: string;
  teamAdmin: boolean;
  applications: Record<string, { environments: Record<string, EnvironmentPermission> }>;
}

const copy = <T>(value: T): T => structuredClone(value);

/** Every account's team members, in the order they joined; an update keeps a member's place and email. */
export class TeamMembers {
  private readonly byAccount = new Map<string, Map<string, TeamMemberRecord>>();

  list(account: string): TeamMemberRecord[] {
    return [...(this.byAccount.get(account)?.values() ?? [])].map(copy);
  }

  get(account: string, email: string): TeamMemberRecord | undefined {
    const member = this.byAccount.get(account)?.get(teamMemberKey(email));
    return member && copy(member);
  }

  /** Stores the member (keyed by its email ignoring case); true when it replaced one. */
  put(account: string, member: TeamMemberRecord): boolean {
    let members = this.byAccount.get(account);
    if (!members) this.byAccount.set(account, (members = new Map()));
    const key = teamMemberKey(member.email);
    const replaced = members.has(key);
    members.set(key, copy(member));
    return replaced;
  }

  remove(account: string, email: string): boolean {
    return this.byAccount.get(account)?.delete(teamMemberKey(email)) ?? false;
  }
}

/** Why this is not an email U3 accepts, or undefined: a string of at most 254 characters, exactly one `@`, text on both sides. */
export function emailProblem(value: unknown): string | undefined {
  if (value === undefined) return "is required";
  if (typeof value !== "string") return "must be a string";
  if (value.length > FM_TEAM_LIMITS.emailLength) return `longer than ${FM_TEAM_LIMITS.emailLength} characters`;
  const parts = value.split("@");
  if (parts.length !== 2) return "must hold exactly one '@'";
  if (parts[0] === "" || parts[1] === "") return "needs text before and after the '@'";
  return undefined;
}

/** Why this is not a member name U3 accepts, or undefined. */
export function memberNameProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  if (value.length > FM_TEAM_LIMITS.nameLength) return `longer than ${FM_TEAM_LIMITS.nameLength} characters`;
  return undefined;
}

/** A person given an API token of their own (Emulator.addFeatureManagementUser). */
export interface NewTokenOwner {
  email: string;
  name?: string;
  /** Default: the first account. */
  account?: string;
  /** When they join the account's team; default false. */
  teamAdmin?: boolean;
}

/** Why this person cannot be given a token (`field: reason`), or undefined: the checks of U3 on email, name and teamAdmin. */
export function tokenOwnerProblem(owner: NewTokenOwner): string | undefined {
  const emailIssue = emailProblem(owner.email);
  if (emailIssue) return `email: ${emailIssue}`;
  const nameIssue = owner.name === undefined ? undefined : memberNameProblem(owner.name);
  if (nameIssue) return `name: ${nameIssue}`;
  if (owner.teamAdmin !== undefined && typeof owner.teamAdmin !== "boolean") return "teamAdmin: must be true or false";
  return illFormedReason(owner, "user");
}

/** A member as created when nothing but the email is known: the defaults of U3. */
export function newMember(email: string, fields: Partial<Omit<TeamMemberRecord, "email">> = {}): TeamMemberRecord {
  return {
    email,
    name: fields.name ?? defaultMemberName(email),
    teamAdmin: fields.teamAdmin ?? FM_TEAM_DEFAULT_ADMIN,
    applications: fields.applications ?? {},
  };
}

// ------------------------------------------------------------------ routes

/** What the team-member endpoints need of the request's account. */
export interface TeamContext {
  account: string;
  /** The owner of the request's token. */
  caller: AuditUser;
  team: TeamMembers;
  /** The application of this id in the token's account (another account's: undefined). */
  application(id: string): ApplicationFlagsView | undefined;
}

/** `public-api/users[/{email}]`: `segments` are the decoded path segments after `public-api/users`. */
export function handleTeamMemberRequest(req: EmulatorRequest, segments: string[], ctx: TeamContext): Reply {
  try {
    return route(req, segments, ctx);
  } catch (e) {
    if (e instanceof FlagApiError) return jsonError(e.status, e.message);
    throw e;
  }
}

function route(req: EmulatorRequest, s: string[], ctx: TeamContext): Reply {
  if (s.length === 0) {
    // U1 [D]: every member of the account.
    if (req.method === "GET") return json(200, ctx.team.list(ctx.account));
    // U3 [C1]: create or update.
    if (req.method === "PUT") return putMember(parseJson(req.body), ctx);
    return fmNotFound();
  }
  if (s.length !== 1 || s[0] === "") return fmNotFound();
  const email = s[0]!;
  if (req.method === "GET") {
    // U2 [C1].
    const member = ctx.team.get(ctx.account, email);
    return member ? json(200, member) : fmUnknownTeamMember();
  }
  if (req.method === "DELETE") {
    // U4 [I].
    if (!ctx.team.get(ctx.account, email)) return fmUnknownTeamMember();
    if (teamMemberKey(email) === teamMemberKey(ctx.caller.email)) return fmSelfRemoval();
    ctx.team.remove(ctx.account, email);
    return deleted();
  }
  return fmNotFound();
}

function fail(field: string, reason: string): never {
  throw new FlagApiError(400, `${field}: ${reason}`);
}

/** U3: every field checked before anything is written; fields left out keep their value (or take the defaults on create). */
function putMember(body: unknown, ctx: TeamContext): Reply {
  const o = readObject(body, "body", ["email", "name", "teamAdmin", "applications"]);
  const emailIssue = emailProblem(o.email);
  if (emailIssue) fail("email", emailIssue);
  const email = o.email as string;
  if (o.name !== undefined) {
    const nameIssue = memberNameProblem(o.name);
    if (nameIssue) fail("name", nameIssue);
  }
  if (o.teamAdmin !== undefined && typeof o.teamAdmin !== "boolean") fail("teamAdmin", "must be true or false");
  const applications = o.applications === undefined ? undefined : readApplications(o.applications, ctx);

  const current = ctx.team.get(ctx.account, email);
  const member: TeamMemberRecord = current
    ? {
        email: current.email,
        name: (o.name as string | undefined) ?? current.name,
        teamAdmin: (o.teamAdmin as boolean | undefined) ?? current.teamAdmin,
        applications: applications ?? current.applications,
      }
    : newMember(email, { name: o.name as string | undefined, teamAdmin: o.teamAdmin as boolean | undefined, applications });
  const replaced = ctx.team.put(ctx.account, member);
  return json(writeStatus(replaced), member);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{<appId>: {environments: {<name>: "read"|"write"}}}`, each environment stored under its own name. */
function readApplications(value: unknown, ctx: TeamContext): TeamMemberRecord["applications"] {
  if (!isObject(value)) fail("applications", "must be a JSON object mapping application ids to {environments}");
  const ids = Object.keys(value);
  if (ids.length > FM_TEAM_LIMITS.applications) fail("applications", `more than ${FM_TEAM_LIMITS.applications} entries`);
  // Entries are collected as pairs and built with Object.fromEntries, so that any name ("__proto__" included) is an own key.
  const out: [string, { environments: Record<string, EnvironmentPermission> }][] = [];
  for (const id of ids) {
    const field = `applications.${id}`;
    const app = ctx.application(id);
    if (!app) fail(field, `no application of this id in the account`);
    const entry = readObject(value[id], field, ["environments"]);
    const environments = entry.environments;
    if (!isObject(environments)) fail(`${field}.environments`, 'must be a JSON object mapping environment names to "read" or "write"');
    const names = Object.keys(environments);
    if (names.length > FM_TEAM_LIMITS.environmentsPerApplication) {
      fail(`${field}.environments`, `more than ${FM_TEAM_LIMITS.environmentsPerApplication} entries`);
    }
    const stored: [string, EnvironmentPermission][] = [];
    const namedAs = new Map<string, string>();
    for (const name of names) {
      const at = `${field}.environments.${name}`;
      const env = app.environment(name);
      if (!env) fail(at, `no environment of this name in application ${id}`);
      const earlier = namedAs.get(env.name);
      if (earlier !== undefined) fail(at, `names the same environment as "${earlier}"`);
      namedAs.set(env.name, name);
      const permission = environments[name];
      if (!(ENVIRONMENT_PERMISSIONS as readonly unknown[]).includes(permission)) fail(at, 'must be "read" or "write"');
      stored.push([env.name, permission as EnvironmentPermission]);
    }
    out.push([id, { environments: Object.fromEntries(stored) }]);
  }
  return Object.fromEntries(out);
}
