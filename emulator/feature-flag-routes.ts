import type { FlagOption } from "../provider/clients/feature-flag-types";
import { defaultValueOf, type ApplicationFlags, type AuditUser, type EnvironmentRecord, type FlagConfiguration, type FlagRecord, type TargetGroupRecord } from "./feature-flags";
import { CONFIGURATION_FIELDS, FLAG_REQUEST_FIELDS, FlagApiError, parseJson, readAvailableValues, readEnvironmentRequest, readFlagCreate, readName, readObject, sameValues } from "./feature-flag-validation";
import { readConfiguration, readTargetGroup, type ConfigurationContext } from "./configuration-validation";
import { EmulatorRequest, json, jsonError, Reply, text } from "./http";
import { applyJsonPatch } from "./json-patch";
import { reading } from "./readings";
import {
  FM_AUDIT_PAGE_SIZE,
  FM_PATCH_KEEPS_IDENTITY,
  FM_UNCONFIGURED_FLAG_IS_OFF,
  FM_DEFAULT_STICKINESS_PROPERTY,
  FM_LIMITS,
  FM_WRITE_STATUS,
  fmBadStartDate,
  fmConflict,
  fmNotConfigured,
  fmNotFound,
  fmUnknownEnvironment,
  fmUnknownFlag,
} from "./undocumented-behaviour";

/**
 * The endpoints below one application (../shared/notes/feature-management-api.md rows E1-L1): `segments` are the
 * decoded path segments after `public-api/applications/{appId}/` (or, on the legacy path, after
 * `public-api/{appId}/`, where only the experiment operations are served).
 */
export function handleApplicationRequest(req: EmulatorRequest, app: ApplicationFlags, segments: string[], user: AuditUser, legacy: boolean): Reply {
  try {
    return (legacy ? null : appWide(req, app, segments, user)) ?? perEnvironment(req, app, segments, user, legacy) ?? fmNotFound();
  } catch (e) {
    if (e instanceof FlagApiError) return jsonError(e.status, e.message);
    throw e;
  }
}

const EXPERIMENT_FIELDS = ["version", "type", "flag", "name", "availableValues", ...CONFIGURATION_FIELDS];

function appWide(req: EmulatorRequest, app: ApplicationFlags, s: string[], user: AuditUser): Reply | null {
  const route = `${req.method} ${s[0]}${s.length > 1 ? "/*" : ""}`;
  if (s.length === 1 && route === "GET environments") return json(200, app.environments());
  if (s.length === 2 && s[1] === "key" && route === "PUT environments/*") {
    const { name, description } = readEnvironmentRequest(parseJson(req.body));
    const existing = app.environment(name);
    if (existing && reading("putExistingEnvironment") === "409") return fmConflict(`Environment '${existing.name}' already exists`);
    return environmentKeyAnswer(writeStatus(existing !== undefined), app.putEnvironment(name, description, user));
  }
  if (s.length === 1 && route === "PUT flags") return createFlag(app, parseJson(req.body), user);
  if (s.length === 2 && route === "DELETE flags/*") {
    if (!app.flag(s[1]!)) return fmUnknownFlag(s[1]!);
    app.deleteFlag(s[1]!, user);
    return deleted();
  }
  if (s.length === 1 && route === "GET target-groups") return json(200, app.targetGroups().map(targetGroupView));
  if (s.length === 1 && route === "PUT target-groups") {
    const group = readTargetGroup(parseJson(req.body));
    const existing = app.targetGroup(group.name);
    if (existing && reading("putExistingTargetGroup") === "409") return fmConflict(`Target group '${group.name}' already exists`);
    return json(writeStatus(existing !== undefined), targetGroupView(app.putTargetGroup(group, user)));
  }
  return null;
}

function perEnvironment(req: EmulatorRequest, app: ApplicationFlags, s: string[], user: AuditUser, legacy: boolean): Reply | null {
  if (s.length < 2 || s.length > 3) return null;
  const [envInPath, collection, flagName] = s as [string, string, string | undefined];
  const route = `${req.method} ${collection}${flagName === undefined ? "" : "/*"}`;
  const known = legacy
    ? ["GET experiments", "PUT experiments", "GET experiments/*", "PATCH experiments/*", "DELETE experiments/*"]
    : ["GET flags", "GET flags/*", "PUT flags/*", "GET experiments", "PUT experiments", "GET experiments/*", "PATCH experiments/*", "DELETE experiments/*", "GET auditlogs"];
  if (!known.includes(route)) return null;
  const env = app.environment(envInPath);
  if (!env) return fmUnknownEnvironment(envInPath, app.applicationId);
  const envName = env.name;
  if (route === "GET flags") return json(200, app.flags().map((f) => flagView(f, app.configuration(f.name, envName))));
  if (route === "PUT experiments") return putExperiment(app, envName, parseJson(req.body), user);
  if (route === "GET experiments") return json(200, app.configuredFlags(envName).map((c) => experimentView(c.flag, c.configuration)));
  if (route === "GET auditlogs") return auditLogs(app, envName, req.query.startDate);

  const flag = app.flag(flagName!);
  if (!flag) return fmUnknownFlag(flagName!);
  const configuration = app.configuration(flag.name, envName);
  switch (route) {
    case "GET flags/*":
      return json(200, flagView(flag, configuration));
    case "PUT flags/*":
      return setFlagConfiguration(app, envName, flag, parseJson(req.body), user);
    case "GET experiments/*":
      if (configuration) return json(200, experimentView(flag, configuration));
      return reading("unconfiguredExperiment") === "disabled" ? json(200, experimentView(flag, unconfigured(flag))) : fmNotConfigured(flag.name, envName);
    case "PATCH experiments/*": {
      if (!configuration) return fmNotConfigured(flag.name, envName);
      const patched = applyJsonPatch(experimentView(flag, configuration), parseJson(req.body), FM_LIMITS.patchOperations);
      const o = readObject(patched, "body", EXPERIMENT_FIELDS);
      if (FM_PATCH_KEEPS_IDENTITY && o.flag !== flag.name) throw new FlagApiError(400, `flag: the flag in the path ("${flag.name}") is the identity: it cannot be patched`);
      return putExperiment(app, envName, o, user);
    }
    case "DELETE experiments/*":
      if (!app.removeConfiguration(flag.name, envName, user) && reading("deleteUnconfiguredExperiment") === "404") return fmNotConfigured(flag.name, envName);
      return deleted();
  }
  return null;
}

function createFlag(app: ApplicationFlags, body: unknown, user: AuditUser): Reply {
  const wanted = readFlagCreate(body);
  const existing = app.flag(wanted.name);
  if (!existing) {
    const flag = { ...wanted, availableValues: wanted.availableValues ?? readAvailableValues(undefined, "availableValues") };
    return json(writeStatus(false), app.createFlag(flag, user));
  }
  if (reading("createExistingFlag") === "409") return fmConflict(`Flag '${wanted.name}' already exists`);
  if (wanted.availableValues && !sameValues(existing.availableValues, wanted.availableValues)) {
    return fmConflict(
      `Flag '${wanted.name}' exists with availableValues ${JSON.stringify(existing.availableValues)}, which cannot change: ` +
        `delete the flag first, or use another name`,
    );
  }
  return json(FM_WRITE_STATUS, existing);
}

/** X3 (and X4 after patching): replaces the flag's configuration in the environment, creating the flag when new. */
function putExperiment(app: ApplicationFlags, envName: string, body: unknown, user: AuditUser): Reply {
  const o = readObject(body, "body", EXPERIMENT_FIELDS);
  if (o.type !== "experiment") throw new FlagApiError(400, 'type: is required and must be "experiment"');
  if (o.version !== undefined && typeof o.version !== "string") throw new FlagApiError(400, "version: must be a string");
  if (o.name !== undefined && typeof o.name !== "string") throw new FlagApiError(400, "name: must be a string (it is ignored: the flag is the identity)");
  const name = readName(o.flag, "flag");
  const values = o.availableValues === undefined ? undefined : readAvailableValues(o.availableValues, "availableValues");
  const existing = app.flag(name);
  if (existing && values && !sameValues(existing.availableValues, values)) return availableValuesConflict(existing, values);
  // Checked against the flag it will be before anything is written: a refused body creates no flag.
  const flag: FlagRecord = existing ?? { name, availableValues: values ?? readAvailableValues(undefined, "availableValues"), isPermanent: false };
  const configuration = readConfiguration(o, context(app, flag));
  if (!existing) app.createFlag(flag, user);
  return json(writeStatus(existing !== undefined), experimentView(flag, app.setConfiguration(name, envName, configuration, user)));
}

/** F4: the Flag Request replaces the flag's configuration in the environment. */
function setFlagConfiguration(app: ApplicationFlags, envName: string, flag: FlagRecord, body: unknown, user: AuditUser): Reply {
  const o = readObject(body, "body", FLAG_REQUEST_FIELDS);
  if (reading("flagNameInBody") === "must-match-path" && o.name !== undefined && o.name !== flag.name) throw new FlagApiError(400, `name: must be the flag in the path ("${flag.name}") when given`);
  if (o.availableValues !== undefined) {
    const values = readAvailableValues(o.availableValues, "availableValues");
    if (!sameValues(flag.availableValues, values)) return availableValuesConflict(flag, values);
  }
  if (o.isPermanent !== undefined && typeof o.isPermanent !== "boolean") throw new FlagApiError(400, "isPermanent: must be true or false");
  const configuration = readConfiguration(o, context(app, flag));
  if (typeof o.isPermanent === "boolean") app.setPermanent(flag.name, o.isPermanent);
  const saved = app.setConfiguration(flag.name, envName, configuration, user);
  return json(FM_WRITE_STATUS, flagView(app.flag(flag.name)!, saved));
}

function auditLogs(app: ApplicationFlags, envName: string, startDate: string | undefined): Reply {
  const since = startDate === undefined ? NaN : Date.parse(startDate);
  if (Number.isNaN(since)) return fmBadStartDate(startDate);
  const records = app.auditLogs(envName).filter((r) => Date.parse(r.creation_date) >= since);
  return json(200, records.slice(0, FM_AUDIT_PAGE_SIZE));
}

function context(app: ApplicationFlags, flag: FlagRecord): ConfigurationContext {
  return { flag, otherFlag: (name) => app.flag(name), hasTargetGroup: (name) => app.targetGroup(name) !== undefined };
}

function availableValuesConflict(flag: FlagRecord, values: FlagOption[]): Reply {
  return fmConflict(
    `availableValues: flag '${flag.name}' offers ${JSON.stringify(flag.availableValues)}, not ${JSON.stringify(values)}; ` +
      `they cannot change: delete the flag and create it again`,
  );
}

// ------------------------------------------------------------------ what the endpoints answer

/** A write's status: a replace answers 200, a create the reading createStatus. The team members' U3 answers it too. */
export function writeStatus(replaced: boolean): number {
  return replaced ? FM_WRITE_STATUS : reading("createStatus");
}

/** A DELETE's answer: the reading deleteStatus, no body (F5, X5, and the team members' U4). */
export function deleted(): Reply {
  return { status: reading("deleteStatus"), headers: {}, body: Buffer.alloc(0) };
}

/** E2: the environment's key itself, as the real service answers (the reading environmentKeyBody), or the environment. */
function environmentKeyAnswer(status: number, env: EnvironmentRecord): Reply {
  const form = reading("environmentKeyBody");
  if (form === "no-content") return { status: 204, headers: {}, body: Buffer.alloc(0) };
  if (form === "text") return text(status, env.key);
  return json(status, form === "object" ? env : env.key);
}

/** F1/F2: the flag with its configuration in one environment, or targeting off when it has none there. */
function flagView(flag: FlagRecord, configuration: FlagConfiguration | undefined) {
  return { ...flag, ...(configuration ?? unconfigured(flag)) };
}

function unconfigured(flag: FlagRecord): FlagConfiguration {
  return { description: "", enabled: !FM_UNCONFIGURED_FLAG_IS_OFF, labels: [], stickinessProperty: FM_DEFAULT_STICKINESS_PROPERTY, platforms: [], conditions: [], value: defaultValueOf(flag) };
}

/** X1-X4: the legacy form; `name` is the flag's (the experiment name is ignored). */
function experimentView(flag: FlagRecord, configuration: FlagConfiguration) {
  return { type: "experiment" as const, flag: flag.name, name: flag.name, availableValues: flag.availableValues, ...configuration };
}

function targetGroupView(group: TargetGroupRecord) {
  return { type: "target-group" as const, ...group };
}
