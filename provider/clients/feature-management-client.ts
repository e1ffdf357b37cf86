import { ConfigurationError, InvalidInputError, UnexpectedResponseError } from "../http/errors";
import { HttpClient } from "../http/http-client";
import type { HttpOptions } from "../http/options";
import { Secret } from "../http/redaction";
import type { RequestSpec } from "../http/http-client";
import { applicationListSchema, applicationSchema, readableApplicationListSchema } from "./feature-management-schemas";
import { type Application } from "./feature-management-types";
import { auditLogListSchema, environmentKeyAnswerSchema, environmentListSchema, experimentListSchema, experimentSchema, flagListSchema, flagSchema, readableAuditLogListSchema, readableEnvironmentListSchema, readableExperimentListSchema, readableFlagListSchema, readableTargetGroupListSchema, readableTeamMemberListSchema, targetGroupListSchema, targetGroupSchema, teamMemberListSchema, teamMemberSchema } from "./feature-flag-schemas";
import type { ReadableList } from "./readable-list-types";
import { unreadableItemError, type WarningSink } from "./readable-items";
import { impressionsRequest, readFlagsStatusWith } from "./impression-requests";
import { impressionsAnswerSchema } from "./impression-schemas";
import type { FlagsStatusRead, ImpressionsRead, ImpressionsWindow } from "./impression-types";
import { type AuditLog, type Environment, type EnvironmentRequest, type Experiment, type ExperimentRequest, type Flag, type FlagConfigurationRequest, type FlagCreateRequest, type JsonPatchOperation, type TargetGroup, type TargetGroupRequest, type TeamMember, type TeamMemberRequest } from "./feature-flag-types";
import { requireDate, requireSegment, requireText } from "./inputs";
import { environmentRequest, experimentRequest, flagConfigurationRequest, flagCreateRequest, targetGroupRequest, teamMemberRequest } from "./feature-flag-requests";

export interface FeatureManagementClientOptions extends HttpOptions {
  /** Default `https://x-api.rollout.io`. */
  baseUrl?: string;
  /** API token of the account (sent as `authorization: Bearer <token>`). */
  token: string;
  /**
   * Least time between the end of one request and the start of the next, shared by every client of the same
   * base URL on this machine (every process: a lock file in the OS temp folder). The service allows one request per
   * second per client IP. Default 1000 ms.
   */
  minRequestIntervalMs?: number;
}

export const DEFAULT_FEATURE_MANAGEMENT_URL = "https://x-api.rollout.io";

/**
 * The feature-flag service's public API (`/public-api`): applications (the spec), and the environments, flags, their
 * configuration per environment (also in the legacy experiment form), target groups and audit logs of an application
 * (../../../shared/notes/feature-management-api.md, rows E1-L1). An environment appears in paths by its name,
 * URL-encoded; a flag by its name.
 */
export class FeatureManagementClient {
  private readonly http: HttpClient;

  constructor(options: FeatureManagementClientOptions) {
    const token = options.token;
    if (typeof token !== "string" || token.trim() === "") {
      throw new ConfigurationError("token", "the feature-flag API token is empty", "Give the account's API token.");
    }
    const authorization = `Bearer ${token}`;
    this.http = new HttpClient(
      {
        baseUrlSetting: "baseUrl",
        baseUrl: options.baseUrl ?? DEFAULT_FEATURE_MANAGEMENT_URL,
        authorization: new Secret(authorization),
        secrets: [token, authorization],
        authenticationHint: "Check the feature-flag API token: generating a new token revokes the old one.",
        permissionHint: "The token's owner lacks permission on this account.",
        minIntervalMs: options.minRequestIntervalMs ?? 1000,
      },
      options,
    );
  }

  /** Every application of the account. */
  async listApplications(): Promise<Application[]> {
    return this.http.json(
      { operation: "listing applications", method: "GET", path: "public-api/applications", idempotency: "safe" },
      applicationListSchema,
    );
  }

  /** The applications item by item: those that can be read, and those that cannot (named, with why), apart. */
  async readApplicationList(): Promise<ReadableList<Application>> {
    return this.http.json({ operation: "listing applications", method: "GET", path: "public-api/applications", idempotency: "safe" }, readableApplicationListSchema);
  }

  /** Creates an application. Never retried after it may have reached the server: that could create two. */
  async createApplication(name: string): Promise<Application> {
    const operation = `creating application "${name}"`;
    const applicationName = requireText(name, "name", operation);
    return this.http.json(
      {
        operation,
        method: "POST",
        path: "public-api/applications",
        body: jsonBody({ applicationName }),
        idempotency: "unsafe",
      },
      applicationSchema,
    );
  }

  async getApplication(applicationId: string): Promise<Application> {
    const operation = `reading application "${applicationId}"`;
    return this.http.json(
      { operation, method: "GET", path: appPath(applicationId, operation), idempotency: "safe", notFoundHint: NO_APPLICATION },
      applicationSchema,
    );
  }

  // Environments (E1, E2).

  /** Every environment of the application (`key` is the environment's id and SDK key). */
  async listEnvironments(applicationId: string): Promise<Environment[]> {
    const operation = `listing the environments of application "${applicationId}"`;
    return this.http.json({ operation, method: "GET", path: `${appPath(applicationId, operation)}/environments`, idempotency: "safe", notFoundHint: NO_APPLICATION }, environmentListSchema);
  }

  /** E1 item by item: the environments that can be read, and those that cannot (named, with why), apart. */
  async readEnvironmentList(applicationId: string): Promise<ReadableList<Environment>> {
    const operation = `listing the environments of application "${applicationId}"`;
    return this.http.json({ operation, method: "GET", path: `${appPath(applicationId, operation)}/environments`, idempotency: "safe", notFoundHint: NO_APPLICATION }, readableEnvironmentListSchema);
  }

  /**
   * Creates an environment (PUT .../environments/key, as the vendor's own client calls it). Repeating it is safe:
   * an environment of the same name is answered, not made twice (see emulator/undocumented-behaviour.ts).
   *
   * The real service answers the new environment's key itself (cb-demos/fm-initializer, "Fixing key issue"): as
   * text or as a JSON string, both read; an environment object is read too. The answer is the environment: the key
   * with the name and description sent, or the object as the server gave it. An answer without a body (204 No
   * Content, which HTTP allows a PUT) names no key: the environment is then read back from the service's list (E1),
   * never guessed.
   */
  async createEnvironment(applicationId: string, environment: EnvironmentRequest): Promise<Environment> {
    const operation = `creating environment "${environment.name}" of application "${applicationId}"`;
    requireText(environment.name, "name", operation);
    const answer = await this.http.json(
      {
        operation,
        method: "PUT",
        path: `${appPath(applicationId, operation)}/environments/key`,
        body: jsonBody(environmentRequest(environment)),
        idempotency: "safe",
        notFoundHint: NO_APPLICATION,
        bareTextAnswer: true,
      },
      environmentKeyAnswerSchema,
    );
    if (answer === "") return this.readBackEnvironment(applicationId, environment, operation);
    if (typeof answer !== "string") return answer;
    return { name: environment.name, key: answer, ...(environment.description === undefined ? {} : { description: environment.description }) };
  }

  /**
   * The environment E2 just wrote, as E1 lists it: the name as sent, else the one name that differs only in case.
   * E1 is read item by item: another environment the client cannot read hides nothing; this one, so listed, fails naming it.
   */
  private async readBackEnvironment(applicationId: string, environment: EnvironmentRequest, operation: string): Promise<Environment> {
    const { items: listed, unreadable } = await this.readEnvironmentList(applicationId);
    const caseless = listed.filter((e) => e.name.toLowerCase() === environment.name.toLowerCase());
    const found = listed.find((e) => e.name === environment.name) ?? (caseless.length === 1 ? caseless[0] : undefined);
    if (found) return found;
    const unread = unreadable.find((u) => u.name?.toLowerCase() === environment.name.toLowerCase());
    if (unread) throw unreadableItemError(operation, "environment", unread, "the service answered without a body (no key), and lists the environment to read its key from");
    throw new UnexpectedResponseError(`the service answered without a body (no key), and lists no environment named "${environment.name}" to read its key from`, {
      operation,
      field: "",
    });
  }

  // Flags (F1-F5).

  /** Every flag of the application, with its configuration in `environment` (configured or not). */
  async listFlags(applicationId: string, environment: string): Promise<Flag[]> {
    const operation = `listing the flags of application "${applicationId}" in environment "${environment}"`;
    return this.http.json({ operation, method: "GET", path: `${envPath(applicationId, environment, operation)}/flags`, idempotency: "safe", notFoundHint: NO_ENVIRONMENT }, flagListSchema);
  }

  /** F1 item by item: the flags that can be read, and those that cannot (named, with why), apart. */
  async readFlagList(applicationId: string, environment: string): Promise<ReadableList<Flag>> {
    const operation = `listing the flags of application "${applicationId}" in environment "${environment}"`;
    return this.http.json({ operation, method: "GET", path: `${envPath(applicationId, environment, operation)}/flags`, idempotency: "safe", notFoundHint: NO_ENVIRONMENT }, readableFlagListSchema);
  }

  async getFlag(applicationId: string, environment: string, flag: string): Promise<Flag> {
    const operation = `reading flag "${flag}" of application "${applicationId}" in environment "${environment}"`;
    return this.http.json(
      { operation, method: "GET", path: `${envPath(applicationId, environment, operation)}/flags/${segment(flag, "flag", operation)}`, idempotency: "safe", notFoundHint: NO_FLAG },
      flagSchema,
    );
  }

  /** Creates the flag in every environment (F3). Its name and available values cannot change afterwards. */
  async createFlag(applicationId: string, flag: FlagCreateRequest): Promise<Flag> {
    const operation = `creating flag "${flag.name}" of application "${applicationId}"`;
    requireText(flag.name, "name", operation);
    return this.http.json({ operation, method: "PUT", path: `${appPath(applicationId, operation)}/flags`, body: jsonBody(flagCreateRequest(flag)), idempotency: "safe", notFoundHint: NO_APPLICATION }, flagSchema);
  }

  /** Sets the flag's whole configuration in one environment (F4): what the body leaves out takes the service's default. */
  async setFlagConfiguration(applicationId: string, environment: string, configuration: FlagConfigurationRequest): Promise<Flag> {
    const operation = `configuring flag "${configuration.name}" of application "${applicationId}" in environment "${environment}"`;
    const path = `${envPath(applicationId, environment, operation)}/flags/${segment(configuration.name, "name", operation)}`;
    return this.http.json({ operation, method: "PUT", path, body: jsonBody(flagConfigurationRequest(configuration)), idempotency: "safe", notFoundHint: NO_FLAG }, flagSchema);
  }

  /** Deletes the flag, in every environment (F5). */
  async deleteFlag(applicationId: string, flag: string): Promise<void> {
    const operation = `deleting flag "${flag}" of application "${applicationId}"`;
    await this.http.discard({ operation, method: "DELETE", path: `${appPath(applicationId, operation)}/flags/${segment(flag, "flag", operation)}`, idempotency: "safe", notFoundHint: NO_FLAG });
  }

  // Experiments: the legacy view of a flag's configuration in one environment (X1-X5).

  /** The configured flags of the environment (at least one release rule): an unconfigured flag is not listed. */
  async listExperiments(applicationId: string, environment: string): Promise<Experiment[]> {
    const operation = `listing the experiments of application "${applicationId}" in environment "${environment}"`;
    return this.http.json({ operation, method: "GET", path: `${envPath(applicationId, environment, operation)}/experiments`, idempotency: "safe", notFoundHint: NO_ENVIRONMENT }, experimentListSchema);
  }

  /**
   * X1 item by item: the experiments that can be read, and those that cannot (each named by its flag, with why),
   * apart: one configuration this client does not understand does not hide the others of the environment.
   */
  async readExperimentList(applicationId: string, environment: string): Promise<ReadableList<Experiment>> {
    const operation = `listing the experiments of application "${applicationId}" in environment "${environment}"`;
    return this.http.json({ operation, method: "GET", path: `${envPath(applicationId, environment, operation)}/experiments`, idempotency: "safe", notFoundHint: NO_ENVIRONMENT }, readableExperimentListSchema);
  }

  /** The flag's configuration in the environment; 404 when the flag is not configured there. The name is ignored. */
  async getExperiment(applicationId: string, environment: string, flag: string): Promise<Experiment> {
    const operation = `reading the experiment of flag "${flag}" of application "${applicationId}" in environment "${environment}"`;
    return this.http.json(
      { operation, method: "GET", path: `${envPath(applicationId, environment, operation)}/experiments/${segment(flag, "flag", operation)}`, idempotency: "safe", notFoundHint: NO_EXPERIMENT },
      experimentSchema,
    );
  }

  /**
   * Creates or replaces the flag's whole configuration in the environment (X3), creating the flag when it does not
   * exist. The experiment name is ignored: `flag` is the identity.
   */
  async putExperiment(applicationId: string, environment: string, experiment: ExperimentRequest): Promise<Experiment> {
    const operation = `setting the experiment of flag "${experiment.flag}" of application "${applicationId}" in environment "${environment}"`;
    requireText(experiment.flag, "flag", operation);
    return this.http.json(
      { operation, method: "PUT", path: `${envPath(applicationId, environment, operation)}/experiments`, body: jsonBody(experimentRequest(experiment)), idempotency: "safe", notFoundHint: NO_ENVIRONMENT },
      experimentSchema,
    );
  }

  /**
   * Applies an RFC 6902 JSON Patch to the flag's configuration in the environment (X4). Not repeated after it may
   * have reached the server: an `add` to a list, applied twice, adds twice.
   */
  async patchExperiment(applicationId: string, environment: string, flag: string, patch: JsonPatchOperation[]): Promise<Experiment> {
    const operation = `patching the experiment of flag "${flag}" of application "${applicationId}" in environment "${environment}"`;
    if (!Array.isArray(patch) || patch.length === 0) throw new InvalidInputError("patch", "give at least one JSON Patch operation, e.g. [{ op: \"replace\", path: \"/enabled\", value: false }]", operation);
    const path = `${envPath(applicationId, environment, operation)}/experiments/${segment(flag, "flag", operation)}`;
    return this.http.json({ operation, method: "PATCH", path, body: jsonBody(patch), idempotency: "unsafe", notFoundHint: NO_EXPERIMENT }, experimentSchema);
  }

  /** Removes the flag's configuration (and impressions) in the environment (X5). The flag itself stays. */
  async deleteExperiment(applicationId: string, environment: string, flag: string): Promise<void> {
    const operation = `deleting the experiment of flag "${flag}" of application "${applicationId}" in environment "${environment}"`;
    const path = `${envPath(applicationId, environment, operation)}/experiments/${segment(flag, "flag", operation)}`;
    await this.http.discard({ operation, method: "DELETE", path, idempotency: "safe", notFoundHint: NO_EXPERIMENT });
  }

  // Target groups (T1, T2): application-wide, referenced by name.

  async listTargetGroups(applicationId: string): Promise<TargetGroup[]> {
    const operation = `listing the target groups of application "${applicationId}"`;
    return this.http.json({ operation, method: "GET", path: `${appPath(applicationId, operation)}/target-groups`, idempotency: "safe", notFoundHint: NO_APPLICATION }, targetGroupListSchema);
  }

  /** T1 item by item: the target groups that can be read, and those that cannot (named, with why), apart. */
  async readTargetGroupList(applicationId: string): Promise<ReadableList<TargetGroup>> {
    const operation = `listing the target groups of application "${applicationId}"`;
    return this.http.json({ operation, method: "GET", path: `${appPath(applicationId, operation)}/target-groups`, idempotency: "safe", notFoundHint: NO_APPLICATION }, readableTargetGroupListSchema);
  }

  /** Creates the target group, or replaces the one of the same name (T2). */
  async putTargetGroup(applicationId: string, targetGroup: TargetGroupRequest): Promise<TargetGroup> {
    const operation = `setting target group "${targetGroup.name}" of application "${applicationId}"`;
    requireText(targetGroup.name, "name", operation);
    return this.http.json(
      { operation, method: "PUT", path: `${appPath(applicationId, operation)}/target-groups`, body: jsonBody(targetGroupRequest(targetGroup)), idempotency: "safe", notFoundHint: NO_APPLICATION },
      targetGroupSchema,
    );
  }

  // Team members (U1-U4): account-wide, identified by email.

  /** Every team member of the account (U1). */
  async listTeamMembers(): Promise<TeamMember[]> {
    return this.http.json({ operation: "listing the team members", method: "GET", path: "public-api/users", idempotency: "safe" }, teamMemberListSchema);
  }

  /** U1 item by item: the team members that can be read, and those that cannot (named by email, with why), apart. */
  async readTeamMemberList(): Promise<ReadableList<TeamMember>> {
    return this.http.json({ operation: "listing the team members", method: "GET", path: "public-api/users", idempotency: "safe" }, readableTeamMemberListSchema);
  }

  /** One team member (U2). */
  async getTeamMember(email: string): Promise<TeamMember> {
    const operation = "reading a team member";
    return this.http.json({ operation, method: "GET", path: `public-api/users/${segment(email, "email", operation)}`, idempotency: "safe", notFoundHint: NO_MEMBER }, teamMemberSchema);
  }

  /** Creates the team member, or replaces the one of this email (U3: one call for both). */
  async putTeamMember(member: TeamMemberRequest): Promise<TeamMember> {
    const operation = "setting a team member";
    requireText(member.email, "email", operation);
    return this.http.json({ operation, method: "PUT", path: "public-api/users", body: jsonBody(teamMemberRequest(member)), idempotency: "safe" }, teamMemberSchema);
  }

  /** Removes the team member from the account (U4). */
  async deleteTeamMember(email: string): Promise<void> {
    const operation = "removing a team member";
    await this.http.discard({ operation, method: "DELETE", path: `public-api/users/${segment(email, "email", operation)}`, idempotency: "safe", notFoundHint: NO_MEMBER });
  }

  // Audit logs (L1).

  /**
   * The environment's audit-log records since `startDate` (the service answers at most 30 per call).
   * `maxResponseBytes`: a limit of this call's body below the client's (a reader of many pages bounds their sum).
   */
  async getAuditLogs(applicationId: string, environment: string, startDate: Date | string, options: { maxResponseBytes?: number } = {}): Promise<AuditLog[]> {
    return this.http.json(auditLogRequest(applicationId, environment, startDate, options), auditLogListSchema);
  }

  /** getAuditLogs one record at a time: those it can read, and those it cannot (by `_id`, with why), apart. */
  async readAuditLogList(applicationId: string, environment: string, startDate: Date | string, options: { maxResponseBytes?: number } = {}): Promise<ReadableList<AuditLog>> {
    return this.http.json(auditLogRequest(applicationId, environment, startDate, options), readableAuditLogListSchema);
  }

  // The use of flags (issue 64): impressions per day, and a newer service's own statuses (impression-requests.ts).

  /**
   * The impressions of one environment (by name) per flag, value and UTC day over `window`, in whichever form the
   * service answers (the body is not public: impression-schemas.ts reads every plausible one). An entry it cannot
   * read is skipped and reported in `unreadable`; a body of no known form is an UnexpectedResponseError.
   */
  async readImpressions(applicationId: string, environment: string, window: ImpressionsWindow): Promise<ImpressionsRead> {
    return this.http.json(impressionsRequest(applicationId, environment, window), impressionsAnswerSchema);
  }

  /**
   * The newer service's status of each flag in one environment (by id: its key), or undefined where the service has
   * no `flags-status` endpoint. Never fails: another failure is said through `sink` and answered undefined.
   */
  async readFlagsStatus(applicationId: string, environmentId: string, sink?: WarningSink): Promise<FlagsStatusRead | undefined> {
    return readFlagsStatusWith(this.http, applicationId, environmentId, sink);
  }

  async close(): Promise<void> {
    return this.http.close();
  }
}

/** L1 from `startDate`; `maxResponseBytes`, a limit of this call's body below the client's. */
function auditLogRequest(applicationId: string, environment: string, startDate: Date | string, options: { maxResponseBytes?: number }): RequestSpec {
  const operation = `reading the audit logs of application "${applicationId}" in environment "${environment}"`;
  const date = requireDate(startDate, "startDate", operation);
  return {
    operation,
    method: "GET",
    path: `${envPath(applicationId, environment, operation)}/auditlogs`,
    query: { startDate: date.toISOString() },
    idempotency: "safe",
    notFoundHint: NO_ENVIRONMENT,
    maxResponseBytes: options.maxResponseBytes,
  };
}

const NO_APPLICATION = "No application has this id in the token's account.";
const NO_ENVIRONMENT = "No application has this id in the token's account, or it has no environment of this name.";
// Operations on team members do not name the email: it is personal data, and errors reach logs.
const NO_MEMBER = "No team member of the account has this email.";
const NO_FLAG = "The application has no flag of this name (or no environment of this name).";
const NO_EXPERIMENT = "The flag is not configured in this environment (the experiment list holds configured flags only), or does not exist.";

function jsonBody(value: unknown): RequestSpec["body"] {
  return { contentType: "application/json", data: JSON.stringify(value) };
}

/** One path segment: an id or a name, checked (no ".", "..", separator or control character) and URL-encoded. */
function segment(value: unknown, input: string, operation: string): string {
  return encodeURIComponent(requireSegment(value, input, operation));
}

/** `public-api/applications/{applicationId}` */
function appPath(applicationId: string, operation: string): string {
  return `public-api/applications/${segment(applicationId, "applicationId", operation)}`;
}

/** `public-api/applications/{applicationId}/{environment name}` */
function envPath(applicationId: string, environment: string, operation: string): string {
  return `${appPath(applicationId, operation)}/${segment(environment, "environment", operation)}`;
}
