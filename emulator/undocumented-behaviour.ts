/**
 * Every behaviour the public sources (specs + docs/notes) leave open, in one place so it is easy to change.
 * Each choice carries a one-line reason. The choices a real service may plausibly make the other way are switches
 * (readings.ts: listReadings), chosen when the emulator starts; the ones here have a single plausible reading.
 */
import { javaDateString } from "./dates";
import { json, jsonError, notFoundPage, Reply } from "./http";
import { FEATURE_FLAG_LIMITS, isVersionText, SERVICE_DEFAULTS } from "../provider/clients/feature-flag-types";

// ---------------------------------------------------------------- feature-flag service

/** Missing or unknown bearer token: 401 with a JSON error (the error body format is not public). */
export const fmUnauthorized = (): Reply => jsonError(401, "Unauthorized: missing or invalid API token");

/** Over the 1 request/s limit: the documented status 555; the body text is our own. */
export const fmRateLimited = (retryAfter: boolean): Reply => {
  const reply = jsonError(555, "Rate limit exceeded: at most 1 request per second per client IP");
  return retryAfter ? { ...reply, headers: { ...reply.headers, "retry-after": "1" } } : reply;
};


/** Minimum spacing between accepted requests of one client IP while the limit is on. */
export const FM_RATE_LIMIT_WINDOW_MS = 1000;

/** A body that is not a JSON object, or an applicationName that is not a non-blank string: 400. */
export const fmBadRequest = (reason: string): Reply => jsonError(400, reason);


/** Unknown (or malformed) application id: 404. */
export const fmUnknownApplication = (id: string): Reply => jsonError(404, `Application '${id}' not found`);

/** Unknown path or wrong method under /public-api: 404 JSON (no route exists, as for Jenkins). */
export const fmNotFound = (): Reply => jsonError(404, "Not found");


/** A second application of a name, under the reading duplicateApplicationNames=409. */
export const fmDuplicateName = (name: string): Reply => jsonError(409, `An application named '${name}' already exists`);

// ---------------------------------------------------------------- feature-flag service: environments, flags, target groups

/** A new application starts with this one environment (the docs call Production the default environment). */
export const FM_FIRST_ENVIRONMENT = "Production";


export const fmUnknownEnvironment = (name: string, app: string): Reply =>
  jsonError(404, `Environment '${name}' not found in application '${app}'`);

/** A flag named in a path (F2, F4, F5, X2, X4, X5) that the application does not have: 404. F4 does not create flags (F3 and the legacy X3 do). */
export const fmUnknownFlag = (name: string): Reply => jsonError(404, `Flag '${name}' not found`);

/** X4 of a flag with no configuration in the environment, and X2/X5 under the readings that say so: 404. */
export const fmNotConfigured = (name: string, env: string): Reply =>
  jsonError(404, `Flag '${name}' has no configuration (experiment) in environment '${env}'`);

/** A replace or patch of an existing record answers 200 with it (a public client expects 200 from X3); creates answer the reading createStatus, DELETEs (F5, X5) the reading deleteStatus, without a body. */
export const FM_WRITE_STATUS = 200;

/** Values that contradict what the service holds (F3 of an existing name, X3/F4/X4 naming other availableValues, which never change): 409. */
export const fmConflict = (reason: string): Reply => jsonError(409, reason);





/** availableValues when F3/X3 leave them out (the lead's reading of S3/S6). */
export const FM_DEFAULT_AVAILABLE_VALUES: readonly (string | number | boolean)[] = SERVICE_DEFAULTS.availableValues;

/** stickinessProperty when left out (S6, without its typo). */
export const FM_DEFAULT_STICKINESS_PROPERTY = SERVICE_DEFAULTS.stickinessProperty;

/** A split or schedule entry without percentage is stored and answered with 100 (S6's default), as the server fills defaults. */
export const FM_PERCENTAGE_DEFAULT = SERVICE_DEFAULTS.percentage;


/** A flag that exists but has no configuration in the environment is listed by F1/F2 with targeting off: enabled false, value false (boolean) or null, the other fields their defaults. */
export const FM_UNCONFIGURED_FLAG_IS_OFF = true;




/** X4 may not change `flag` or `type` (400: the flag in the path is the identity); a patched `name` is ignored like X3's. */
export const FM_PATCH_KEEPS_IDENTITY = true;


/**
 * A version of a `semver-*` operand: 1 to 3 dot-separated numbers, optional -prerelease and +build ("2", "2.1" and
 * "2.1.0" are release versions apps report). A version clause's `semver` is not checked: the service kept null and
 * texts that are not versions ("1,2,0", "26.1.18.8").
 */
export { isVersionText };

/** Bounds on every list and string, so one request cannot grow the state without limit: the resources' checks refuse the same. */
export const FM_LIMITS = { ...FEATURE_FLAG_LIMITS, patchOperations: 100 } as const;

/** Audit logs: every change writes a record in the environment it concerns; flag create/delete and target-group changes, which concern every environment, write one in each. */
export const FM_AUDIT_EVERY_ENVIRONMENT_FOR_APP_WIDE_CHANGES = true;

/** Audit logs: records with creation_date at or after startDate, oldest first, at most 30 (the plugin's comment); the next page is asked with the last date seen. */
export const FM_AUDIT_PAGE_SIZE = 30;

/** Audit logs without a startDate, or with one that is not a date: 400. */
export const fmBadStartDate = (value: string | undefined): Reply =>
  jsonError(400, `startDate: ${value === undefined ? "is required" : `"${value}" is not an ISO-8601 instant`} (e.g. 2026-01-01T00:00:00.000Z)`);

/** Audit records name the token's user: one user per token, named after its account (the service logs changes under the token's owner). */
export const auditUserOf = (account: string, tokenIndex: number) => ({
  email: `api-user-${tokenIndex + 1}@${account}.example`,
  name: `${account} API user ${tokenIndex + 1}`,
});

// ---------------------------------------------------------------- feature-flag service: team members (U1-U4)
//
// What the sources give (../shared/notes/feature-management-api.md): U1 `GET /users` lists the account's team members
// [D]; the User schema is `{email, name, teamAdmin, applications: {<appId>: {environments: {<EnvName>: "read"|"write"}}}}`.
// Everything else below is open.

/**
 * How sure the sources are of each row: U1 documented [D]; U2 `GET /users/{email}` seen in one client only [C1] (which
 * treats any error as "no such user"); U3 `PUT /users`, create-or-update in one call, seen in one client only [C1];
 * U4 `DELETE /users/{email}` guessed [I] ("DELETE user" is shown nowhere), served by analogy with U2's path.
 */
export const FM_TEAM_ROWS = { U1: "D", U2: "C1", U3: "C1", U4: "I" } as const;

/** Emails (U2, U3, U4) are compared ignoring case, as mail systems treat addresses in practice; a member keeps the case of the email it was first created with. */
export const teamMemberKey = (email: string): string => email.toLowerCase();

/** Bounds of U3: an email of at most 254 characters (RFC 5321's path limit) with exactly one `@` between non-empty parts; names 200 characters; 1,000 applications, 1,000 environments per application. */
export const FM_TEAM_LIMITS = { emailLength: 254, nameLength: 200, applications: 1000, environmentsPerApplication: 1000 } as const;

/** U3 defaults on create: name = the part of the email before `@`, teamAdmin false, applications `{}`; on update a field left out keeps its current value, and `applications`, when given, replaces the whole map. */
export const defaultMemberName = (email: string): string => email.slice(0, email.indexOf("@"));
export const FM_TEAM_DEFAULT_ADMIN = false;

/** An environment named under a member's application resolves as environment names do in paths (the reading environmentNames) and is stored under the environment's own name; two names of one environment: 400. An application id of another account, or none: 400 (it is a body field, not a path). */
export const FM_TEAM_ENVIRONMENTS_STORED_UNDER_OWN_NAME = true;

/** U2/U4 of an email that is no member of the token's account: 404. The message does not echo the email (personal data; error bodies reach logs). */
export const fmUnknownTeamMember = (): Reply => jsonError(404, "No team member of this account has this email");

/** U4 of the member owning the request's token: 400 (an account would otherwise lose the only admin it may have). A choice: no source shows it. */
export const fmSelfRemoval = (): Reply => jsonError(400, "you cannot remove yourself");

/** Each account starts with the owners of its API tokens (auditUserOf) as team members, team admins, with no application permissions. */
export const FM_TOKEN_OWNERS_ARE_TEAM_ADMINS = true;

/** Team-member changes write no audit record: the sources show the audit log only per application environment (L1), and whether the service logs account-wide changes elsewhere is open. */
export const FM_TEAM_CHANGES_AUDITED = false;

/** Permissions (teamAdmin, read/write per environment) are stored and answered, never enforced: every token may do everything in its account. Removing a member does not revoke API tokens it owns (open: the sources say nothing of either). */
export const FM_TEAM_PERMISSIONS_ENFORCED = false;

// ---------------------------------------------------------------- Jenkins authentication


// ---------------------------------------------------------------- request parameters

/** Boolean query flags (`quiet`, raw log `controller`): only a case-insensitive "true" turns them on, so the default is false (the product's default for quiet). */
export function queryFlag(query: Record<string, string>, name: string): boolean {
  return (query[name] ?? "").trim().toLowerCase() === "true";
}

/** Zip uploads: the raw body (the documented example), or the multipart/form-data field of this name (else the first file part). */
export const ZIP_UPLOAD_FIELD = "bundle";

// ---------------------------------------------------------------- operations center

/** Unknown bundle id on any OC endpoint (the raw log's `bundle` filter included): 404, the spec's "cannot be found" status. */
export const unknownBundle = (id: string): Reply => jsonError(404, `Bundle '${id}' not found`);

/** Unknown controller full path: 404, as the spec's error table says. */
export const unknownController = (path: string): Reply => jsonError(404, `Controller '${path}' not found`);

/** A regex that does not compile (availability pattern or log filter): 400 with the compiler's reason. */
export const invalidRegex = (regex: string, reason: string): Reply =>
  jsonError(400, `Invalid regular expression '${regex}': ${reason}`);

/** A required query parameter is missing or empty: 400. (set-availability-pattern accepts an empty `regex`: it overrides the yaml pattern with "no pattern".) */
export const missingParameter = (name: string): Reply => jsonError(400, `Missing required parameter '${name}'`);

/** A parameter with an unusable value (timeout, visibility): 400. */
export const invalidParameter = (name: string, reason: string): Reply =>
  jsonError(400, `Invalid value for parameter '${name}': ${reason}`);

/** set-controller-to-bundle for a bundle the controller may not use (ordering rule 1): 400 saying what to do. */
export const bundleNotAvailable = (bundle: string, controller: string): Reply =>
  jsonError(
    400,
    `Bundle '${bundle}' is not available to controller '${controller}': set its availability pattern ` +
      `(set-availability-pattern) or enable global visibility (set-global-availability-pattern-behavior) first`,
  );

/** Inconsistent bundle (missing file, missing parent, unreadable descriptor) in get-effective-bundle and pre-validate-bundle: 400. */
export const inconsistentBundle = (reason: string): Reply => jsonError(400, reason);

/** The uploaded zip of get-effective-bundle / pre-validate-bundle cannot be unzipped or holds no bundle: 400. */
export const badBundleZip = (reason: string): Reply => jsonError(400, reason);

/** get-effective-bundle's `bundle` names no bundle of the zip: 404. */
export const bundleNotInZip = (name: string): Reply => jsonError(404, `Bundle '${name}' not found in the uploaded zip`);

/** config-bundle-download-link / regenerate-token for a controller with no bundle assigned: 404 (no link exists). */
export const noBundleAssigned = (controller: string): Reply =>
  jsonError(404, `No CasC bundle is assigned to controller '${controller}'`);

/** regenerate-token with only the deprecated bundleId: 400 (the token belongs to a controller, not a bundle). */
export const deprecatedBundleIdOnly = (): Reply =>
  jsonError(400, "Parameter 'bundleId' is deprecated for regenerate-token: pass 'controllerPath'");

/** Name of the single bundle location reported by check-out (the local bundles folder). */
export const CHECKOUT_REMOTE_NAME = "local-folder";

/** check-out `localText`: the newest modification time of the bundle's files, in Java's Date.toString() form (UTC). */
export const checkoutLocalText = (lastModified: Date): string => javaDateString(lastModified);

/** check-out `timeout`: a positive integer number of seconds, default 600 (spec); anything else 400. */
export const DEFAULT_CHECKOUT_TIMEOUT_S = 600;


/** Dot-files and dot-folders (.git...) of the bundle location are skipped. (A bundle.yaml at the root itself has no folder name, so it is never a bundle.) */
export const isIgnoredLocationEntry = (name: string): boolean => name.startsWith(".");


/** validate-uploaded-bundle / pre-validate-bundle: one controllerValidations entry (status ONLINE) per controller using or able to use the (location) bundle, holding an INFO when the effective bundle applies, else a WARNING pointing at the structure validations. */
export const CONTROLLER_STATUS = "ONLINE";

/** A bundle's `url` is where the OC would expose its content: <oc>/config-bundle/<bundle name>; list results carry an empty token. */
export const bundleUrl = (ocUrl: string, bundle: string): string =>
  `${ocUrl}config-bundle/${bundle.split("/").map(encodeURIComponent).join("/")}`;


/** Without `bundle`, get-effective-bundle uses the only bundle of the zip, or the only one no other bundle inherits from; otherwise 400. */
export const ambiguousZipBundle = (): Reply =>
  jsonError(400, "The zip holds several bundles: name the one to compute with the 'bundle' query parameter");

/** Effective bundle layout: only referenced files, each level's under a folder named after its bundle ('/' written '___'), root ancestor first; `parent` and `availabilityPattern` dropped, strategies inherited. */
export const effectiveFolderName = (bundle: string): string => bundle.replace(/\//g, "___");

/** Effective `version`: the first 32 hex digits of a SHA-256 over the effective descriptor (minus version) and every file. */
export const EFFECTIVE_VERSION_HEX_DIGITS = 32;

// ---------------------------------------------------------------- instances (OC and controllers)

/** Update logs (retention-policy) and raw validation logs keep this many versions. */
export const UPDATE_LOG_RETENTION = 10;

/** reload-bundle with no bundle assigned (always the case on the OC, whose own bundle is outside this API): not reloaded, with this reason; check-bundle-update then says update-available false, current version "N/A". */
export const NO_BUNDLE_TO_RELOAD = "No CasC bundle is assigned to this instance";

/** reload-bundle when the assigned bundle cannot be built (missing parent/file), has validation errors, or left the location: not reloaded, with this reason. A bundle that cannot be built is no update: check-bundle-update says update-available false with new-version {version:"N/A", valid:false, validations:[reason]}. */
export const invalidBundleReason = (reason: string): string => `Bundle is not valid: ${reason}`;


/** core-casc-effective-bundle-export(/downloadFile) before any bundle was applied: 404. */
export const noAppliedBundle = (): Reply => jsonError(404, "No CasC bundle has been applied to this instance yet");

/** downloadFile/<file_name> naming no file of the applied effective bundle: 404. */
export const unknownEffectiveFile = (name: string): Reply =>
  jsonError(404, `File '${name}' is not part of the applied effective bundle`);

/** create-items `path` naming no item: 404; naming an item that is not a folder: 400. */
export const folderNotFound = (path: string): Reply => jsonError(404, `Folder '${path}' not found`);
export const notAFolder = (path: string): Reply => jsonError(400, `Item '${path}' is not a folder`);

/** create-items body that is empty, not YAML, or not an items document: 400. The `yaml` parameter (a server-side file) is never read. */
export const badItemsYaml = (reason: string): Reply => jsonError(400, reason);

/** create-items answer: basePath is the folder's Jenkins full name, no leading/trailing '/', "" for the root. */
export const basePathOf = (folderFullName: string): Reply => json(200, { basePath: folderFullName });

/** Unknown item or section in item export: the Jenkins 404 HTML page (the URL resolves to nothing). */
export const unknownItemOrSection = (path: string): Reply => notFoundPage(path);


// ---------------------------------------------------------------- server

/** Request bodies above this size get 413 (a careful server bounds memory). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Unexpected failures: 500 JSON in the controller plugin's shape ({error: "<Class>: <message>", stackTrace}), but
 * with no trace and no file path: the emulator runs on its users' machines, and its paths are theirs.
 */
export const internalError = (err: unknown): Reply => {
  const e = err instanceof Error ? err : new Error(String(err));
  const message = e.message.replace(/(?:[A-Za-z]:)?(?:[\\/][^\s'"`:\\/]+){2,}[\\/]?/g, "<path>");
  return json(500, { error: `${e.name}: ${message}`, stackTrace: "" });
};

/** A dropped request (fault `drop`) is journaled with status 0: no response was sent. */
export const DROPPED_STATUS = 0;

// ---------------------------------------------------------------- the SDK's configuration (roxy endpoint, issue 16)

/**
 * An environment key that no application has: 404 JSON (the SDK reports a failed fetch and keeps what it had). The
 * endpoint takes no token and is not rate limited: the 1 request/s rule is the REST API's, and the SDK's CDN needs
 * only the key.
 */
export const roxyUnknownKey = (key: string): Reply => jsonError(404, `No environment has the key '${key}'`);

/** The payload is not signed (the service's private key is not ours); rox-node skips the check in roxy mode. `signed_date` is the time of the answer. */
export const ROXY_SIGNATURE = "";

// ---------------------------------------------------------------- running configuration exports

/**
 * What a real export holds that no bundle declared: the license, the label atoms and the operations center's
 * connection, the three paths bundleutils' default transform removes first (tsmp-falcon-platform/ci-bundle-utils@abb223a,
 * bundleutilspkg/src/bundleutilspkg/data/configs/transform.yaml; the README there: "remove the
 * operationsCenterRootAction because it is provided by the OC"). The license's form is the real export's in
 * examples/offline-test-run/bundlecontent.yaml (certificate and key, PEM text); the values here are the emulator's.
 */
export function exportAdditions(instanceId: string): Record<string, unknown> {
  return {
    license: {
      certificate: `-----BEGIN CERTIFICATE-----\nCloudBees CI emulator license of ${instanceId}\n-----END CERTIFICATE-----`,
      key: "-----BEGIN RSA PRIVATE KEY-----\nnot a key: the emulator checks no license\n-----END RSA PRIVATE KEY-----",
    },
    jenkins: { labelAtoms: [{ name: "built-in" }] },
    unclassified: { operationsCenterRootAction: { connectionDetails: `CloudBees CI emulator: ${instanceId} joined to its operations center` } },
  };
}
