/**
 * TeamMember: a person's membership of the feature-flag account and their permission on each application
 * environment (U1-U4). The email is the identity; the service compares emails ignoring case.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | email of the form name@domain; applications a map of application id -> {environments: {name: "read" or "write"}}, bounded, no environment named twice |
 * | diff | nothing | an email change (other than its case) replaces; name, teamAdmin and applications compared when given (applications as a map, environment names ignoring case, an application without environments the same as none) |
 * | create | the shared GET /users; PUT /users when absent, or when adopted and a given input differs | a member that exists (or is listed in a form this version cannot read) fails unless adoptExisting; U3 is create-or-update by email, so no entry it cannot read stops it otherwise |
 * | update | the shared GET /users; PUT /users only when a given input differs | the body is the member as the service holds it with the given inputs laid over it |
 * | read | the shared GET /users | gone: dropped; listed in a form it cannot read: fails, naming it; drift warns (the audit log does not record team members) |
 * | delete | DELETE /users/{email}; after a 404, GET /users | a 404 with the member still listed fails (U4 is guessed: the endpoint may be missing); gone: nothing to do |
 */
import type { TeamMember, TeamMemberApplications, TeamMemberRequest } from "../../clients/feature-flag-types";
import { ENVIRONMENT_PERMISSIONS } from "../../clients/feature-flag-types";
import { InputChecker } from "../shared/check";
import { operationFailed, warn } from "../shared/errors";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { containsUnknown, isUnknown, plain, sameJson } from "../shared/values";
import { NotFoundError } from "../../http/errors";
import { changedKeys, declared, driftedKeys, failed, featureFlags, listOrFail, listOrGone, pick, readBack, unreadableFailure, writeOrFail, writtenAtOf, writtenNow, type FeatureFlags } from "../feature-flags/common";
import { unreadableNamed } from "../shared/unreadable-entries";
import { prefixOf, removal, upsert } from "../feature-flags/lists";
import { checkFreeText } from "../feature-flags/rules";
import { INPUT_KEYS, MAX_APPLICATIONS, MAX_ENVIRONMENTS, SETTING_KEYS, TYPE_NAME } from "./types";

const MEMBERS = prefixOf("teamMembers", "");

/** Emails are one identity whatever their case (the service compares them so). */
function sameEmail(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

/**
 * Permissions as a person means them: application ids sorted, environment names lower-cased (the service finds an
 * environment whatever the case of its name) and sorted, an application without environments dropped.
 */
function canonicalApplications(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const app of Object.keys(value).sort()) {
    const environments = ((value as Props)[app] as Props | null | undefined)?.environments;
    if (typeof environments !== "object" || environments === null) continue;
    const envs = Object.keys(environments).map((e) => [e.toLowerCase(), (environments as Props)[e]] as const);
    if (envs.length === 0) continue;
    out[app] = Object.fromEntries(envs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return out;
}

function canonical(key: string, value: unknown): unknown {
  if (key === "applications") return canonicalApplications(value);
  if (key === "teamAdmin") return value === true;
  return value ?? "";
}

/** `applications`: a map of application id -> `{environments: {<name>: "read" | "write"}}`, bounded. */
function checkApplications(c: InputChecker, value: unknown): void {
  if (value === undefined || value === null || isUnknown(value)) return;
  const example = `applications: { [app.applicationId]: { environments: { Production: "read", Staging: "write" } } }`;
  if (typeof value !== "object" || Array.isArray(value)) {
    c.fail("applications", `applications must be a map of application id to its environments' permissions, e.g. ${example}`);
    return;
  }
  const apps = Object.entries(value as Props);
  if (apps.length > MAX_APPLICATIONS) c.fail("applications", `applications has ${apps.length} entries; at most ${MAX_APPLICATIONS} are allowed`);
  for (const [app, entry] of apps.slice(0, MAX_APPLICATIONS)) {
    const where = `applications["${app}"]`;
    if (app.trim() === "" || /[/\\\u0000-\u001f\u007f]/.test(app)) c.fail("applications", `${where}: an application id is one non-empty path segment (give an Application's applicationId)`);
    if (isUnknown(entry) || containsUnknown(entry)) continue;
    const environments = (entry as Props | null)?.environments;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry) || Object.keys(entry).some((k) => k !== "environments")) {
      c.fail("applications", `${where} must be { environments: { <environment name>: "read" | "write" } }, e.g. ${example}`);
      continue;
    }
    if (typeof environments !== "object" || environments === null || Array.isArray(environments)) {
      c.fail("applications", `${where}.environments must map environment names to "read" or "write", e.g. { Production: "read" }`);
      continue;
    }
    const names = Object.keys(environments);
    if (names.length > MAX_ENVIRONMENTS) c.fail("applications", `${where}.environments has ${names.length} entries; at most ${MAX_ENVIRONMENTS} are allowed`);
    const seen = new Map<string, string>();
    for (const name of names.slice(0, MAX_ENVIRONMENTS)) {
      const permission = (environments as Props)[name];
      if (name.trim() === "" || name.length > 255) c.fail("applications", `${where}.environments: "${name}" is not an environment name`);
      if (!isUnknown(permission) && !(ENVIRONMENT_PERMISSIONS as readonly unknown[]).includes(permission)) {
        c.fail("applications", `${where}.environments["${name}"] must be "read" or "write", got ${JSON.stringify(permission) ?? "undefined"}`);
      }
      const other = seen.get(name.toLowerCase());
      if (other !== undefined) c.fail("applications", `${where}.environments names "${other}" and "${name}": the service takes them for the same environment; keep one`);
      seen.set(name.toLowerCase(), name);
    }
  }
}

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  const email = c.text("email", { required: true, example: "alice@example.com", maxLength: 254 });
  if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(email)) c.fail("email", `email must have the form name@domain, e.g. email: "alice@example.com"`);
  checkFreeText(c, "name", news.name);
  c.boolean("teamAdmin", { required: false });
  checkApplications(c, news.applications);
  c.boolean("adoptExisting", { required: false });
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = isUnknown(news.email) || !sameEmail(news.email, olds.email) ? ["email"] : [];
  const respelled = !replaces.length && news.email !== olds.email;
  const changed = changedKeys(SETTING_KEYS, olds, news, canonical);
  // delete removes the member by email: a replacement keeping the email must remove first, then put.
  return { changes: replaces.length > 0 || respelled || changed.length > 0, replaces, deleteBeforeReplace: replaces.length === 0 };
}

function outputsOf(inputs: Props, adopted: boolean, writtenAt: string | undefined): Props {
  const out: Props = { email: inputs.email, ...pick(inputs, SETTING_KEYS), adopted };
  if (typeof inputs.adoptExisting === "boolean") out.adoptExisting = inputs.adoptExisting;
  if (writtenAt !== undefined) out.writtenAt = writtenAt;
  return plain(out);
}

function findMember(members: TeamMember[], email: unknown): TeamMember | undefined {
  return members.find((m) => sameEmail(m.email, email));
}

/** The member as the list has it, written (PUT /users) only when a given input differs from it. */
async function apply(f: FeatureFlags, operation: string, id: string | undefined, inputs: Props, current: TeamMember | undefined): Promise<void> {
  const differs = SETTING_KEYS.some((k) => declared(inputs, k) && !sameJson(canonical(k, inputs[k]), canonical(k, current?.[k])));
  if (current && !differs) return;
  // The whole member: what the program does not give keeps the service's value (U3 may replace the member whole).
  const request: TeamMemberRequest = { email: String(inputs.email) };
  const name = declared(inputs, "name") ? inputs.name : current?.name;
  if (typeof name === "string") request.name = name;
  const teamAdmin = declared(inputs, "teamAdmin") ? inputs.teamAdmin : current?.teamAdmin;
  if (typeof teamAdmin === "boolean") request.teamAdmin = teamAdmin;
  const applications = declared(inputs, "applications") ? inputs.applications : current?.applications;
  if (applications) request.applications = applications as TeamMemberApplications;
  await writeOrFail(f, operation, id, () => f.fm.client.putTeamMember(request), (answer) => [upsert<TeamMember>(MEMBERS, answer, (m) => m.email.toLowerCase())], [MEMBERS]);
}

async function members(f: FeatureFlags, operation: string, id: string | undefined): Promise<TeamMember[]> {
  return listOrFail(operation, id, () => f.lists.teamMembers(), "the service has no team-members API at this URL (check cloudbees:featureManagementUrl)");
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const operation = `creating ${TYPE_NAME}`;
  const f = featureFlags(operation, undefined);
  const current = findMember(await members(f, operation, undefined), inputs.email);
  // A member listed in a form this version cannot read exists all the same (U3 would write over it).
  const unread = current ? undefined : await f.lists.unreadable("teamMembers", "", String(inputs.email));
  if ((current || unread) && inputs.adoptExisting !== true) {
    const form = unread ? ` (listed in a form this version of pulumi-cloudbees cannot read: ${unread.problem})` : "";
    throw operationFailed(
      operation,
      undefined,
      `the account already has a team member with this email${form}. Fix: set adoptExisting: true to manage that member from this ` +
        `stack, or import it (pulumi-cloudbees import declares the account's team members)`,
    );
  }
  await apply(f, operation, undefined, inputs, current);
  return { id: String(inputs.email), outs: outputsOf(inputs, current !== undefined, writtenNow()) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const operation = `reading ${TYPE_NAME}`;
  const f = featureFlags(operation, id);
  const list = await listOrGone(operation, id, () => f.lists.teamMembers());
  const member = list && findMember(list, props.email ?? id);
  // Listed, but in a form this version cannot read: not gone (a drop would lose it from the state).
  const unread = list && !member ? await f.lists.unreadable("teamMembers", "", String(props.email ?? id)) : undefined;
  if (unread) throw unreadableFailure(operation, id, "this team member", unread);
  if (!member) return {};
  const inputs: Props = { email: typeof props.email === "string" && sameEmail(props.email, member.email) ? props.email : member.email };
  Object.assign(inputs, readBack(SETTING_KEYS, props, (k) => member[k as keyof TeamMember], canonical));
  if (typeof props.adoptExisting === "boolean") inputs.adoptExisting = props.adoptExisting;
  if (driftedKeys(SETTING_KEYS, props, inputs).length) {
    // The audit log is kept per application environment and does not record team members: no one to name.
    warn(`${TYPE_NAME} ${String(inputs.email)} changed outside this stack; the audit log does not record team-member changes, so who changed it cannot be told`);
  }
  return { id, props: { ...outputsOf(inputs, props.adopted === true, undefined), ...writtenAtOf(props) }, inputs: plain(inputs) };
}

async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const operation = `updating ${TYPE_NAME}`;
  const f = featureFlags(operation, id);
  await apply(f, operation, id, news, findMember(await members(f, operation, id), news.email));
  return { outs: outputsOf(news, olds.adopted === true, writtenNow()) };
}

async function remove(id: string, props: Props): Promise<void> {
  const operation = `deleting ${TYPE_NAME}`;
  const f = featureFlags(operation, id);
  const email = String(props.email ?? id);
  const gone = [removal<TeamMember>(MEMBERS, email.toLowerCase(), (m) => m.email.toLowerCase())];
  try {
    await f.lists.write(() => f.fm.client.deleteTeamMember(email), () => gone, [MEMBERS]);
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw failed(operation, id, e);
    // U4 is guessed: a 404 may mean "no such member" or "no such endpoint". The list tells them apart.
    const members = await listOrFail(operation, id, () => f.fm.client.readTeamMemberList(), "the team members could not be listed");
    if (findMember(members.items, email) || unreadableNamed(members.unreadable, email, sameEmail)) {
      throw operationFailed(
        operation,
        id,
        `the service answered 404 to DELETE /users/{email} but still lists the member: it may not offer that endpoint. ` +
          `Fix: remove the member in the CloudBees Feature Management UI, then run \`pulumi refresh\``,
        e,
      );
    }
  }
}

export const teamMember: ResourceController = { check, diff, create, read, update, delete: remove };
