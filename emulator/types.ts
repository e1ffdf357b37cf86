import type { ReadingChoice, Readings } from "./readings";
import type { AuditLogRecord, EnvironmentRecord, FlagWithConfigurations, TargetGroupRecord } from "./feature-flags";

import type { NewTokenOwner, TeamMemberRecord } from "./team-members";
import type { RunningConfigurationView } from "./running-view";
import type { ImpressionRecord } from "./impressions";
import type { SelfManagedUrls } from "./self-managed";
import type { DailyImpressions } from "../provider/clients/impression-types";

export type { AuditLogRecord, EnvironmentRecord, FlagConfiguration, FlagRecord, FlagWithConfigurations, TargetGroupRecord } from "./feature-flags";
export type { EnvironmentPermission, TeamMemberRecord } from "./team-members";
export type { RunningConfigurationView } from "./running-view";
export type { ImpressionRecord } from "./impressions";
export type { SelfManagedUrls } from "./self-managed";
export type { DailyImpressions } from "../provider/clients/impression-types";
/** The files changeConfiguration changes. */
export type ConfigurationFile = "jenkins.yaml" | "plugins.yaml" | "items.yaml" | "rbac.yaml";
/**
 * Who makes a change "in the UI": a user id (`alice`), or an id with the display name the history shows
 * (`{ id: "alice", fullName: "Alice Liddell" }`). Default: `admin`.
 */
export type ConfigurationChangeBy = string | { id: string; fullName?: string };

/** One entry of a controller's configuration history, as the Job Configuration History plugin's api/json writes it. */
export interface ConfigHistoryEntry {
  _class: string;
  changeReasonComment: string | null;
  currentName: string;
  /** `yyyy-MM-dd_HH-mm-ss`, the controller's local time (ConfigHistorySettings.utcOffsetMinutes), no zone. */
  date: string;
  hasConfig: boolean;
  /** A system file without `.xml` (`config`, `jenkins.model.JenkinsLocationConfiguration`), or an item. */
  job: string;
  oldName: string;
  operation: string;
  /** The display name; `SYSTEM` for what configuration as code applied. */
  user: string;
  userID: string;
}

/** How a controller's Job Configuration History plugin answers (emulator/config-history.ts). */
export interface ConfigHistorySettings {
  /** false: the plugin is not installed, and its paths answer 404. Default true. */
  installed: boolean;
  /**
   * false: the caller lacks the permission system entries need (Overall/Administer): the list answers 200 and
   * holds no system entry, configOutput of a system file says "No permission to view config files". Default true.
   */
  systemHistoryVisible: boolean;
  /** The controller's time zone, minutes east of UTC: the dates are its local time. Default 60. */
  utcOffsetMinutes: number;
  /** The plugin's maxEntriesPerPage: an item's list is cut to its newest entries. Default null (not set). */
  maxEntriesPerPage: number | null;
}
/** A person given an API token of their own: `email` (checked as U3 checks it), `name` (default: the part before `@`), `account` (default: the first), `teamAdmin` (default false). */
export type FeatureManagementUser = NewTokenOwner;

export interface EmulatorUser {
  username: string;
  apiToken: string;
  /** Administrators pass every CasC endpoint; others get Jenkins' "missing the Overall/Administer permission" 403. */
  admin: boolean;
}

export interface FeatureManagementAccount {
  token: string;
  /** Tokens sharing an account see the same applications. */
  account: string;
}

export interface EmulatorOptions {
  /** Loopback port; 0 (default) picks a free one. */
  port?: number;
  /** Bundle-location folder; default <repo>/examples/bundles. */
  bundlesDir?: string;
  /** Controller full paths; default ["team-a/controller-a", "team-b/controller-b", "sandbox"]. */
  controllers?: string[];
  /** Replaces the default admin and developer users. */
  users?: EmulatorUser[];
  /**
   * Controllers (full path) that do not take the operations center's users: each accepts only the users given here,
   * as a controller outside the operations center's single sign-on, with API tokens of its own.
   */
  controllerUsers?: Record<string, EmulatorUser[]>;
  /** Replaces the default acme and globex accounts. */
  featureManagementAccounts?: FeatureManagementAccount[];
  /** When true, a client IP gets status 555 for a request < 1 s after its last accepted one. Default false. */
  featureManagementRateLimit?: boolean;
  /**
   * How to answer where the public sources leave a point open (listReadings() names each choice, its values and
   * why): e.g. `{ createStatus: 201, environmentNames: "case-sensitive" }`. Unnamed ones take their default, or the
   * value CLOUDBEES_EMULATOR_READINGS (`name=value,...`) gives them.
   */
  readings?: ReadingChoice;
  /**
   * Controller full path -> folder holding YAML as core-casc-export/zipExport returns it (bundle.yaml listing the
   * files): that controller starts running this configuration instead of the emulator's defaults. A folder that
   * cannot be read fails the start, naming the option and the file.
   */
  runningConfigurations?: Record<string, string>;
  /**
   * Appends one entry this package's client cannot read (a newer service's form: unreadable-entries.ts) to every list
   * answer the resources read: every GET list of the feature-flag service, the bundle list and the Controllers view.
   * `name` names it (an application's, environment's, flag's, target group's or bundle's name, an experiment's flag,
   * a team member's email, an audit record's `_id`); default "unreadable-entry". The model never holds it.
   */
  unreadableListEntry?: { name?: string };
}

export interface JournalEntry {
  method: string;
  /** Pathname as received, without the query. */
  path: string;
  query: Record<string, string>;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
  /** Status answered; 0 when the request was dropped by a fault. */
  status: number;
  /** The fault applied to this request, if any: "status 503", "drop", "drop after acting", "slow answer". */
  fault?: string;
}

export interface FaultSpec {
  /** Any method when absent. */
  method?: string;
  /** Request pathname, matched exactly (no query). */
  path: string;
  /** Answer with this status instead of handling the request. */
  status?: number;
  /** Body of a status fault; default {"error":"injected fault"}. */
  body?: string;
  headers?: Record<string, string>;
  /** Wait before answering (then answer normally unless status/drop is also given). */
  delayMs?: number;
  /** Destroy the socket without a response (the request is not handled). */
  drop?: boolean;
  /** Handle the request, then destroy the socket without the answer: the server acted, the client cannot know. */
  dropAfterHandling?: boolean;
  /** Handle the request at once, and send the answer only after this delay (past the client's deadline, say). */
  answerDelayMs?: number;
  /** Number of matching requests affected; default 1; Infinity allowed. */
  times?: number;
}

export interface Credentials {
  username: string;
  apiToken: string;
}

export interface EmulatorCredentials {
  admin: Credentials;
  nonAdmin: Credentials;
  featureManagementToken: string;
  otherFeatureManagementToken: string;
}

export interface Journal {
  entries(): JournalEntry[];
  clear(): void;
}

/** The faults random mode picks from. 555 applies to the feature-flag service only (its rate limit). */
export type RandomFaultKind = "500" | "503" | "429" | "555" | "drop" | "drop after acting" | "slow answer";

export interface RandomFaults {
  /** Share of requests that get a fault, 0 to 1. */
  rate: number;
  /** Seed of the pseudo-random sequence: the same seed and requests give the same faults. */
  seed: number;
  /** Default: every kind. */
  kinds?: RandomFaultKind[];
  /** Delay of a "slow answer" (the request is handled at once). Default 2000 ms. */
  slowAnswerMs?: number;
  /** Retry-After of 429, 503 and 555 answers, in seconds. Default "0". */
  retryAfter?: string;
}

export interface Faults {
  inject(spec: FaultSpec): void;
  /** Faults at random on requests that no injected fault matches, until random(null). clear() also stops them. */
  random(options: RandomFaults | null): void;
  clear(): void;
  /** Faults not used up yet, with their remaining count (a copy). */
  pending(): (FaultSpec & { remaining: number })[];
}

export interface AppliedBundleView {
  bundle: string;
  version: string;
}

/** Read-only views of the emulator's state, for tests and debugging. Every call returns a fresh copy. */
export interface EmulatorStateView {
  /** Bundle set by set-default-bundle, or null. */
  defaultBundle(): string | null;
  /** Controller full path -> assigned bundle name (only assigned controllers). */
  assignments(): Record<string, string>;
  globalVisibility(): boolean;
  /** Patterns set through set-availability-pattern (not the bundle.yaml ones). */
  apiAvailabilityPatterns(): Record<string, string>;
  /** The default bundle when this controller matches its availability (ordering rule 2), else null. */
  preselectedBundleFor(controller: string): string | null;
  /** Names of the bundles of the last check-out (or start-up), sorted. */
  bundles(): string[];
  controllers(): string[];
  /** Current bundle-link token of a controller. */
  controllerToken(controller: string): string;
  /** Bundle applied by the last successful reload of an instance ("" = OC), or null. */
  appliedBundle(instance: string): AppliedBundleView | null;
  /** Full names of the items of an instance ("" = OC), sorted. */
  items(instance: string): string[];
  /** What a controller runs (full path; "" = OC): a copy, secrets as given (exports encrypt them). */
  runningConfiguration(instance: string): RunningConfigurationView;
  /**
   * A controller's configuration history as its api/json lists it for `filter` (`system`, the default; `all`, `jobs`,
   * `deleted`, `created`) to a caller with every permission, newest first, whatever its settings.
   */
  configHistory(instance: string, filter?: string): ConfigHistoryEntry[];
  /** Applications of a feature-flag account, in creation order. */
  applications(account: string): { id: string; name: string }[];
  featureManagementRateLimit(): boolean;
  /** Environments of a feature-flag application (any account), in creation order. Unknown application: throws. */
  environments(applicationId: string): EnvironmentRecord[];
  /** Flags of the application, each with its configuration per environment name where it has one. */
  flags(applicationId: string): FlagWithConfigurations[];
  /** Target groups of the application, in creation order. */
  targetGroups(applicationId: string): TargetGroupRecord[];
  /** Audit log of one environment (by name) of the application, oldest first, unpaged. */
  auditLogs(applicationId: string, environment: string): AuditLogRecord[];
  /** Team members of a feature-flag account (U1), in the order they joined; an unknown account has none. */
  teamMembers(account: string): TeamMemberRecord[];
}

/**
 * The impressions the emulator counts (per application, environment, flag, value and UTC day) and its clock: what
 * the vendor's SDK posted in self-managed mode (`emulator.selfManaged`), plus what a test records on past days, so
 * that every flag status can be reached without waiting a week.
 */
export interface EmulatorImpressions {
  /**
   * Counts impressions, each on its `day`, or `daysAgo` days before the emulator's now (default today). An unknown
   * application or environment, a day that is none, or a count that is not a positive whole number throws, and
   * nothing of the call is counted.
   */
  record(...records: ImpressionRecord[]): void;
  /**
   * The service answers as of `at` from now on (an instant: a Date or ISO-8601 text): the flags-status answer, the
   * days `daysAgo` counts from. What the SDK posts still counts on the day of its own `time`. null: the real time.
   */
  setClock(at: Date | string | null): void;
  /** The emulator's now: the clock's time when set, else the real time. */
  now(): Date;
  /** The counts of one environment (by name or key), by day, flag and value. */
  counts(applicationId: string, environment: string): DailyImpressions[];
  /** Forgets every count (not the clock). */
  clear(): void;
}

export interface Emulator {
  /** http://127.0.0.1:<port>/ */
  baseUrl: string;
  port: number;
  bundlesDir: string;
  featureManagementUrl: string;
  /**
   * The URL to give the vendor's SDK as its `roxy` option for the environment of this key (its SDK key, the
   * Environment resource's `key` output): the SDK then reads that environment's flags and target groups from the
   * emulator. An unknown key answers 404. See docs/testing.md ("Flags your application sees").
   */
  roxyUrl(environmentKey: string): string;
  /**
   * The vendor's SDK's `selfManaged` option (`Rox.setup(key, { selfManaged })`), for every environment (the key
   * names it): the SDK then fetches its configuration here, reports its state here and posts its impressions here,
   * which `impressions` counts. See emulator/README.md ("The SDK in self-managed mode").
   */
  selfManaged: SelfManagedUrls;
  /** The impressions counted and the service's clock. */
  impressions: EmulatorImpressions;
  operationsCenterUrl: string;
  /** The readings this emulator plays, every one (a copy). */
  readings: Readings;
  /** Controller full path -> base URL (ends with "/"). */
  controllerUrls: Record<string, string>;
  credentials: EmulatorCredentials;
  journal: Journal;
  faults: Faults;
  setFeatureManagementRateLimit(on: boolean): void;
  /**
   * Registers a new API token of the feature-flag service owned by this person, in `account` (default: the first
   * account), and answers it. The person joins the account's team (teamAdmin default false) unless already a member,
   * who is left as is. Every change made with the token is logged under the person (`userEmail`, `userName`,
   * `user.email`, `user.name`; the same `user._id` for the same email), as changes made with the default tokens are
   * logged under their owners. An email U3 would refuse, an unusable name or an unknown account throws.
   */
  addFeatureManagementUser(user: FeatureManagementUser): string;
  /** Make reload-bundle of an instance (controller full path, or "" for the OC) answer {reloaded:false, reason}; null clears. */
  setReloadRefusal(instance: string, reason: string | null): void;
  /**
   * A change made "in the UI" of a controller (full path; "" = OC), no API call and no journal entry; exports show
   * it and a reload undoes what the bundle declares. jenkins.yaml and rbac.yaml: a dotted path
   * (`unclassified.location.adminAddress`, `jenkins.clouds[0].kubernetes.name`; an index one past the end appends);
   * plugins.yaml: a plugin id (a string value installs that version, any other the envelope's); items.yaml: an item
   * full name (value as items.yaml writes an item, `{kind: "folder"}`). undefined removes. Throws on a path that
   * does not fit. The configuration history records the change by `by` (default `admin`) for each file it changed.
   */
  changeConfiguration(instance: string, file: ConfigurationFile, path: string, value: unknown, by?: ConfigurationChangeBy): void;
  /**
   * Installs a plugin by hand: changeConfiguration(instance, "plugins.yaml", id, version ?? true, by). Like the real
   * plugin, the configuration history records no entry for it (an installation saves no configuration file it keeps).
   */
  installPlugin(instance: string, id: string, version?: string, by?: ConfigurationChangeBy): void;
  /** How an instance's Job Configuration History plugin answers from now on (only the settings given change). */
  setConfigHistory(instance: string, settings: Partial<ConfigHistorySettings>): void;
  /**
   * Restarts a controller: its assigned bundle, when valid, is applied even when a reload answers "Bundle is not
   * hot reloadable" (installed plugins brought to the bundle's versions); otherwise the bundle in force is applied
   * again.
   */
  restartController(instance: string): void;
  state: EmulatorStateView;
  close(): Promise<void>;
}
