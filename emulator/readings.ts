/**
 * The emulator's readings: every point the public sources leave open where a real service may plausibly answer
 * another way, as a switch chosen when the emulator starts (`startEmulator({ readings })`, the CLI's `--reading`,
 * `CLOUDBEES_EMULATOR_READINGS`). The first value of each is the default, the emulator's own reading; the reason
 * says where each value comes from. Choices with one plausible reading stay constants in undocumented-behaviour.ts.
 *
 * A request is answered under the readings of the emulator that received it: the server enters them around each
 * request (AsyncLocalStorage), so the deep parts of the model read `reading(name)` without every function passing
 * them along, and several emulators with other readings can run in one process.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface ReadingInfo {
  name: string;
  /** Every value the emulator can play, the default first. */
  values: (string | number)[];
  default: string | number;
  /** Which service it concerns. */
  service: "feature-flags" | "casc" | "jenkins";
  /** What the choice is, why the default, and why the others are plausible. */
  reason: string;
}

/** The list, as data; listReadings() hands out copies. */
const READINGS = [
  {
    name: "createStatus",
    service: "feature-flags",
    values: [200, 201],
    reason:
      "The status of a request that creates a record (application; flag by F3 or X3; environment by E2; target group by T2; team member by U3). The spec says only \"JSON object: the new Application\" and a public client expects 200 from X3; 201 Created is what many REST services answer.",
  },
  {
    name: "environmentNames",
    service: "feature-flags",
    values: ["ignore-case", "case-sensitive"],
    reason:
      "The docs address the default environment as \"Production\" (GET experiments) and as \"production\" (the legacy PUT examples), so names ignoring case is the default; a service comparing names exactly is as plausible.",
  },
  {
    name: "createExistingFlag",
    service: "feature-flags",
    values: ["returns-it", "409"],
    reason:
      "F3 of an existing name: the vendor's Jenkins plugin sends F3 before every F4 (\"ensure that the flag exists\"), so it answers the flag unchanged; a service refusing a duplicate with 409 is the usual REST reading.",
  },
  {
    name: "putExistingEnvironment",
    service: "feature-flags",
    values: ["updates-it", "409"],
    reason: "E2 is a PUT, so an existing name is updated (its key kept); a service that only creates would answer 409.",
  },
  {
    name: "putExistingTargetGroup",
    service: "feature-flags",
    values: ["replaces-it", "409"],
    reason:
      "T2 is a PUT with the name in the body and no other write exists, so it replaces a group of that name; a service that only creates would answer 409 (the group can then not be changed through the API).",
  },
  {
    name: "unconfiguredExperiment",
    service: "feature-flags",
    values: ["404", "disabled"],
    reason:
      "X2 of a flag with no configuration in the environment: 404, as a public client expects (\"does not exist\"); a service may instead answer the flag with targeting off, as F1/F2 list it.",
  },
  {
    name: "deleteUnconfiguredExperiment",
    service: "feature-flags",
    values: ["succeeds", "404"],
    reason: "X5 of a flag with no configuration there: the state asked for holds, so it succeeds; 404 is as plausible.",
  },
  {
    name: "deleteStatus",
    service: "feature-flags",
    values: [204, 200],
    reason: "F5, X5 and U4 (team members) answer 204 without a body (no source shows the answer); 200 with an empty body is as common.",
  },
  {
    name: "unknownFields",
    service: "feature-flags",
    values: ["refused", "ignored"],
    reason:
      "A request field no source names: refused with 400 naming it, so a misspelt field fails instead of being dropped; many services ignore unknown fields.",
  },
  {
    name: "legacyExperimentPaths",
    service: "feature-flags",
    values: ["served", "absent"],
    reason:
      "The docs' legacy path /public-api/{appId}/{env}/experiments serves X1-X5; a service may have retired it (404), leaving the applications/ paths.",
  },
  {
    name: "duplicateApplicationNames",
    service: "feature-flags",
    values: ["allowed", "409"],
    reason: "No uniqueness rule for application names is public, and ids tell them apart; a service may refuse a second name with 409.",
  },
  {
    name: "errorBody",
    service: "feature-flags",
    values: ["json", "text"],
    reason: "The error body's format is not public: {\"error\": message} as JSON by default, or the message as text/plain.",
  },
  {
    name: "rateLimitOrder",
    service: "feature-flags",
    values: ["before-auth", "after-auth"],
    reason:
      "The 1 request/s limiter runs before authentication (a gateway concern: refused tokens count too); a limiter per account runs after it.",
  },
  {
    name: "retryAfterOn555",
    service: "feature-flags",
    values: ["absent", "present"],
    reason: "The documented 555 says nothing of Retry-After, so none is sent; a gateway may send `Retry-After: 1`.",
  },
  {
    name: "createFlagBody",
    service: "feature-flags",
    values: ["flag-request", "name-and-values"],
    reason:
      "F3 takes F4's whole Flag Request, ignoring its per-environment fields (the Jenkins plugin sends the same body to both); a service may take only name, availableValues and isPermanent.",
  },
  {
    name: "valueTypes",
    service: "feature-flags",
    values: ["flag-type", "as-sent"],
    reason:
      "A value is matched to the flag's available values by its text and stored in the flag's type (\"true\" on a boolean flag is answered true); a service may keep the value as sent.",
  },
  {
    name: "flagNameInBody",
    service: "feature-flags",
    values: ["must-match-path", "ignored"],
    reason: "F4's `name`, when given, must be the path's flag (400 otherwise); a service may ignore it.",
  },
  {
    name: "environmentKeyBody",
    service: "feature-flags",
    values: ["json-string", "text", "object", "no-content"],
    reason:
      "What E2 (PUT environments/key) answers. The real service answers the new environment's key itself: the vendor staff's client cb-demos/fm-initializer first read `.key` of the answer, then its commit \"Fixing key issue\" (f869bf0) took the whole body as the key, after running against the service. That client asks for JSON (accept: application/json) and its HTTP library takes a JSON string or bare text alike, so the key as a JSON string is the default and as text/plain as plausible; the whole environment object is what the emulator answered before; 204 No Content without a body is what HTTP lets a PUT answer (RFC 9110, section 9.3.4), and a gateway in front of the service may.",
  },
  {
    name: "recordLinks",
    service: "feature-flags",
    values: ["absent", "present"],
    reason:
      "Fields no source defines in the records the service answers: none by default (the docs' schemas). The service's records carry fields of its own store (the Jenkins plugin's AuditLog sample has `_id` and `__v`), and a REST gateway adds HAL `_links`: present adds `_links: {self: {href}}` to every record an answer holds.",
  },
  {
    name: "impressionsAnswer",
    service: "feature-flags",
    values: ["analytics", "list-date", "list-from", "absent"],
    reason:
      "The body of GET .../environments/{env}/impressions (mode=daily, from, to): the docs name the endpoint and its parameters, no public source shows an answer. A guess each: the newer platform's impressions answer as a third-party copy of its contract gives it, {analytics: {<flag>: {interval: {<from>: {impressions: [{from, aggregatedValues: [{value, counter}]}]}}}}}, one impression per day (the default); a flat list [{flag, value, count, date: \"YYYY-MM-DD\"}]; the same with from (the day's start in Unix seconds) for date; or no such endpoint (404), a service that does not answer impressions.",
  },
  {
    name: "flagsStatusEndpoint",
    service: "feature-flags",
    values: ["absent", "served"],
    reason:
      "The newer platform's GET /v1/applications/{app}/environments/{environment id}/flags-status, {flagsStatus: {<flag>: {flagName, status}}}, is known only from a third-party copy of its contract and is no part of the legacy API: absent (404) by default; served, it answers each flag's status (the lexicon's words) from the emulator's impressions as of its clock.",
  },
  {
    name: "vanishedBundleState",
    service: "casc",
    values: ["kept", "dropped"],
    reason:
      "A bundle that leaves the bundle location keeps its assignments, API pattern and default, and gets them back if it returns; an operations center may drop them at check-out.",
  },
  {
    name: "controllerFilter",
    service: "casc",
    values: ["full-path-or-name", "full-path"],
    reason:
      "The effective validation log's `controller` regex matches a controller's whole full path or its last segment; the spec says only \"regex of controllers\".",
  },
  {
    name: "branchlessBundles",
    service: "casc",
    values: ["accepted", "refused"],
    reason:
      "A zip for get-effective-bundle / pre-validate-bundle whose bundle folders are at the top, with no branch folder: accepted as branchless; the spec describes branch folders, so a server may refuse them (400).",
  },
  {
    name: "reloadWithoutChange",
    service: "casc",
    values: ["not-logged", "logged"],
    reason:
      "reload-bundle with nothing new applies the bundle in force again (undoing what was changed in the UI; plugins stay installed) and answers reloaded:true, adding no update-log version; a server may log it as a new version.",
  },
  {
    name: "uploadedParent",
    service: "casc",
    values: ["warning", "error"],
    reason:
      "casc-bundle-validate of a bundle with `parent` or `availabilityPattern`: a WARNING (they are ignored there); the controller plugin's validator can also make it an ERROR.",
  },
  {
    name: "nonBasicAuth",
    service: "jenkins",
    values: ["anonymous", "refused"],
    reason: "An authorization header that is not Basic is ignored, as Jenkins does (the caller is anonymous: 403); a gateway may refuse it (401).",
  },
  {
    name: "regenerateTokenBundleId",
    service: "casc",
    values: ["refused", "honoured"],
    reason:
      "regenerate-token with only the deprecated `bundleId` (the spec: deprecated since 2.289.1.2; the token belongs to a controller): refused with 400; an older server honours it, regenerating the token of every controller assigned that bundle.",
  },
  {
    name: "pluginsWithoutList",
    service: "casc",
    values: ["refused", "no-plugins"],
    reason:
      "A bundle's plugins.yaml holding a mapping with no `plugins` list (absent or null; `plugins: []` is a list): the CasC plugin checks it against a plugins schema that is not public (validation-details.json, PluginsSchemaValidator), so it is refused with ERROR [SCHEMA], as the emulator's own plugins.json requires the list; a server may read it as a file that installs nothing, as a running configuration and the drift comparison read it (bundleutils' update-bundle drops such a file instead).",
  },
] as const satisfies readonly Omit<ReadingInfo, "default">[];

type ReadingList = typeof READINGS;
export type ReadingName = ReadingList[number]["name"];
type Spec<N extends ReadingName> = Extract<ReadingList[number], { name: N }>;
export type ReadingValue<N extends ReadingName> = Spec<N>["values"][number];
/** The readings an emulator plays: every name with one of its values. */
export type Readings = { [N in ReadingName]: ReadingValue<N> };
/** What a program asks for: some readings, the others at their default. */
export type ReadingChoice = { [N in ReadingName]?: ReadingValue<N> };

/** Every open choice of the emulator: its name, values (the default first), default and reason. */
export function listReadings(): ReadingInfo[] {
  return READINGS.map((r) => ({ name: r.name, service: r.service, values: [...r.values], default: r.values[0], reason: r.reason }));
}

export function defaultReadings(): Readings {
  return Object.fromEntries(READINGS.map((r) => [r.name, r.values[0]])) as Readings;
}

/**
 * The readings of a choice, the others as in `base` (default: the defaults). A name or value the list does not have
 * is an Error naming it and what is allowed. Text values ("201", from the CLI or the environment) match a value's text.
 */
export function resolveReadings(choice: Record<string, unknown> | undefined, source = "readings", base: Readings = defaultReadings()): Readings {
  const out: Record<string, unknown> = { ...base };
  for (const [name, value] of Object.entries(choice ?? {})) {
    const spec = READINGS.find((r) => r.name === name);
    if (!spec) throw new Error(`${source}: "${name}" is not a reading of the emulator (known: ${READINGS.map((r) => r.name).join(", ")})`);
    const values: readonly (string | number)[] = spec.values;
    const match = values.find((v) => v === value || (typeof value === "string" && String(v) === value.trim()));
    if (match === undefined) {
      throw new Error(`${source}: ${name} cannot be ${JSON.stringify(value)} (one of: ${values.map((v) => JSON.stringify(v)).join(", ")})`);
    }
    out[name] = match;
  }
  return out as Readings;
}

/** `name=value,name=value` (the CLI's `--reading` and CLOUDBEES_EMULATOR_READINGS) as a choice. */
export function parseReadingsText(text: string, source: string): Record<string, string> {
  const choice: Record<string, string> = {};
  for (const part of text.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const eq = part.indexOf("=");
    if (eq <= 0) throw new Error(`${source}: "${part}" is not name=value`);
    choice[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return choice;
}

const current = new AsyncLocalStorage<Readings>();

/** Runs fn (and whatever it starts) under these readings. */
export function withReadings<T>(readings: Readings, fn: () => T): T {
  return current.run(readings, fn);
}

/** The value of a reading for the request being answered; outside any emulator's request, its default. */
export function reading<N extends ReadingName>(name: N): Readings[N] {
  const readings = current.getStore();
  if (readings) return readings[name];
  return READINGS.find((r) => r.name === name)!.values[0] as Readings[N];
}
