import * as path from "node:path";
import { z } from "zod";
import { DEFAULT_ADMIN, DEFAULT_CONTROLLERS, DEFAULT_FM_ACCOUNTS, DEFAULT_NON_ADMIN, defaultBundlesDir } from "./defaults";
import { FaultInjector } from "./faults";
import { FeatureManagementService } from "./feature-management";
import { RequestJournal } from "./journal";
import { OperationsCenter } from "./operations-center";
import { parseReadingsText, resolveReadings, withReadings, type Readings } from "./readings";
import { quoted } from "../provider/text/printable";
import { roxyUrlOf } from "./roxy-endpoint";
import { clockTime, recordImpressions } from "./impressions";
import { selfManagedUrlsOf } from "./self-managed";
import { readRunningFolder, RunningFolderError } from "./running-folder";
import { CONTROLLERS_PREFIX, EmulatorServer, encodePath, FM_PREFIX, OC_PREFIX } from "./server";
import type { Emulator, EmulatorImpressions, EmulatorOptions, EmulatorStateView } from "./types";

export type {
  AppliedBundleView,
  ConfigHistoryEntry,
  ConfigHistorySettings,
  ConfigurationChangeBy,
  ConfigurationFile,
  RunningConfigurationView,
  AuditLogRecord,
  EnvironmentRecord,
  FlagConfiguration,
  FlagRecord,
  FlagWithConfigurations,
  TargetGroupRecord,
  TeamMemberRecord,
  EnvironmentPermission,
  FeatureManagementUser,
  Credentials,
  Emulator,
  EmulatorCredentials,
  EmulatorOptions,
  EmulatorStateView,
  EmulatorUser,
  DailyImpressions,
  EmulatorImpressions,
  FaultSpec,
  Faults,
  ImpressionRecord,
  SelfManagedUrls,
  FeatureManagementAccount,
  Journal,
  JournalEntry,
  RandomFaultKind,
  RandomFaults,
} from "./types";
export { listReadings, type ReadingChoice, type ReadingInfo, type ReadingName, type Readings } from "./readings";
export { DEFAULT_ADMIN, DEFAULT_CONTROLLERS, DEFAULT_FM_ACCOUNTS, DEFAULT_NON_ADMIN, defaultBundlesDir } from "./defaults";

function checkOptions(options: EmulatorOptions): void {
  // Built per call: zod schemas must not live at module scope (project rule).
  const fullPath = z
    .string()
    .min(1)
    .refine((p) => p.split("/").every((s) => s.trim() !== ""), "controller full paths have no leading, trailing or double '/'");
  const schema = z.object({
    port: z.number().int().min(0).max(65535).optional(),
    bundlesDir: z.string().min(1).optional(),
    controllers: z
      .array(fullPath)
      .refine((list) => new Set(list).size === list.length, "controller full paths must be unique")
      .optional(),
    users: z.array(z.object({ username: z.string().min(1), apiToken: z.string().min(1), admin: z.boolean() })).optional(),
    controllerUsers: z
      .record(z.string(), z.array(z.object({ username: z.string().min(1), apiToken: z.string().min(1), admin: z.boolean() })))
      .optional(),
    featureManagementAccounts: z.array(z.object({ token: z.string().min(1), account: z.string().min(1) })).optional(),
    featureManagementRateLimit: z.boolean().optional(),
    runningConfigurations: z.record(z.string(), z.string().min(1)).optional(),
    unreadableListEntry: z.object({ name: z.string().min(1).optional() }).strict().optional(),
  });
  const result = schema.safeParse(options);
  if (!result.success) {
    throw new Error(`Invalid emulator options: ${result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
}

/** Each runningConfigurations folder read, before anything starts: an unknown controller or a bad folder throws. */
function readRunningConfigurations(folders: Record<string, string>, controllers: string[]) {
  const out = new Map<string, ReturnType<typeof readRunningFolder>>();
  for (const [c, folder] of Object.entries(folders)) {
    const option = `Invalid emulator options: runningConfigurations[${quoted(c)}]`;
    if (!controllers.includes(c)) throw new Error(`${option}: ${quoted(c)} is not a controller`);
    try {
      out.set(c, readRunningFolder(path.resolve(folder)));
    } catch (e) {
      if (e instanceof RunningFolderError) throw new Error(`${option}: ${e.message}`);
      throw e;
    }
  }
  return out;
}

/** The environment variable that sets readings for every emulator of the process (`name=value,...`). */
export const READINGS_VARIABLE = "CLOUDBEES_EMULATOR_READINGS";

/** The readings of an emulator: the defaults, then CLOUDBEES_EMULATOR_READINGS, then the options' readings. */
function readingsOf(options: EmulatorOptions): Readings {
  const fromEnvironment = resolveReadings(parseReadingsText(process.env[READINGS_VARIABLE] ?? "", READINGS_VARIABLE), READINGS_VARIABLE);
  return resolveReadings(options.readings, "Invalid emulator options: readings", fromEnvironment);
}

/**
 * Starts the loopback emulator of the feature-flag service, an operations center and its controllers, playing the
 * readings asked for (listReadings) and the defaults for the others.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  checkOptions(options);
  const readings = readingsOf(options);
  const users = (options.users ?? [DEFAULT_ADMIN, DEFAULT_NON_ADMIN]).map((u) => ({ ...u }));
  const accounts = (options.featureManagementAccounts ?? DEFAULT_FM_ACCOUNTS).map((a) => ({ ...a }));
  const controllers = [...(options.controllers ?? DEFAULT_CONTROLLERS)];
  const unknownController = Object.keys(options.controllerUsers ?? {}).find((c) => !controllers.includes(c));
  if (unknownController !== undefined) throw new Error(`Invalid emulator options: controllerUsers: "${unknownController}" is not a controller`);
  const controllerUsers = Object.fromEntries(Object.entries(options.controllerUsers ?? {}).map(([c, list]) => [c, list.map((u) => ({ ...u }))]));
  const bundlesDir = path.resolve(options.bundlesDir ?? defaultBundlesDir());
  const runningConfigurations = readRunningConfigurations(options.runningConfigurations ?? {}, controllers);

  const server = new EmulatorServer();
  const port = await server.listen(options.port ?? 0);
  const baseUrl = `http://127.0.0.1:${port}/`;
  const operationsCenterUrl = `http://127.0.0.1:${port}${OC_PREFIX}`;
  const controllerUrlOf = (c: string) => `http://127.0.0.1:${port}${CONTROLLERS_PREFIX}${encodePath(c)}/`;
  const controllerUrls = Object.fromEntries(controllers.map((c) => [c, controllerUrlOf(c)]));

  let oc: OperationsCenter;
  try {
    oc = withReadings(readings, () => new OperationsCenter({ ocUrl: operationsCenterUrl, controllerUrls, controllerUrlOf, bundlesDir }));
  } catch (e) {
    await server.close();
    throw e;
  }
  for (const [c, folder] of runningConfigurations) oc.controllers.get(c)!.instance.startWith(folder.running, folder.items);
  const featureManagement = new FeatureManagementService(accounts, options.featureManagementRateLimit ?? false);
  const journal = new RequestJournal();
  const faults = new FaultInjector();
  const unreadableListEntry = options.unreadableListEntry && (options.unreadableListEntry.name ?? "unreadable-entry");
  server.attach({ featureManagement, operationsCenter: oc, users, controllerUsers, journal, faults, readings, unreadableListEntry });

  const instanceOf = (id: string) => {
    if (id === "") return oc.instance;
    const record = oc.controllers.get(id);
    if (!record) throw new Error(`Unknown instance '${id}': use "" for the operations center or a controller full path`);
    return record.instance;
  };

  const modelOf = (applicationId: string) => {
    const model = featureManagement.applicationModel(applicationId);
    if (!model) throw new Error(`Unknown feature-flag application '${applicationId}'`);
    return model;
  };

  const state: EmulatorStateView = underReadings(readings, {
    defaultBundle: () => oc.defaultBundle,
    assignments: () =>
      Object.fromEntries(
        oc.controllerPaths().flatMap((c) => {
          const b = oc.controllers.get(c)!.assignedBundle;
          return b === null ? [] : [[c, b]];
        }),
      ),
    globalVisibility: () => oc.visibility,
    apiAvailabilityPatterns: () => Object.fromEntries(oc.apiPatterns),
    preselectedBundleFor: (controller) => oc.preselectedBundleFor(controller),
    bundles: () => oc.store.names(),
    controllers: () => oc.controllerPaths(),
    controllerToken: (controller) => {
      const record = oc.controllers.get(controller);
      if (!record) throw new Error(`Unknown controller '${controller}'`);
      return record.token;
    },
    appliedBundle: (instance) => {
      const applied = instanceOf(instance).applied;
      return applied ? { bundle: applied.bundle, version: applied.effective.version } : null;
    },
    items: (instance) => instanceOf(instance).items.fullNames(),
    runningConfiguration: (instance) => instanceOf(instance).runningConfiguration(),
    configHistory: (instance, filter) => instanceOf(instance).history.entries(filter),
    applications: (account) => featureManagement.applications(account),
    featureManagementRateLimit: () => featureManagement.rateLimitEnabled(),
    environments: (applicationId) => modelOf(applicationId).environments(),
    flags: (applicationId) => modelOf(applicationId).flagsWithConfigurations(),
    targetGroups: (applicationId) => modelOf(applicationId).targetGroups(),
    auditLogs: (applicationId, environment) => modelOf(applicationId).auditLogs(environment),
    teamMembers: (account) => featureManagement.teamMembers(account),
  });

  const store = featureManagement.impressions;
  const environmentKeyOf = (applicationId: string, environment: string): string => {
    const model = modelOf(applicationId);
    const env = model.environmentByKey(environment) ?? model.environment(environment);
    if (!env) throw new Error(`Unknown environment '${environment}' of feature-flag application '${applicationId}' (neither a name nor a key)`);
    return env.key;
  };
  const impressions: EmulatorImpressions = {
    record: (...records) => withReadings(readings, () => recordImpressions(store, records, environmentKeyOf)),
    setClock: (at) => store.setClock(clockTime(at)),
    now: () => store.now(),
    counts: (applicationId, environment) => withReadings(readings, () => store.daily(applicationId, environmentKeyOf(applicationId, environment))),
    clear: () => store.clear(),
  };

  const firstAccount = accounts[0]?.account;
  return {
    baseUrl,
    port,
    bundlesDir,
    featureManagementUrl: `http://127.0.0.1:${port}${FM_PREFIX}`,
    roxyUrl: (environmentKey) => roxyUrlOf(baseUrl, environmentKey),
    selfManaged: selfManagedUrlsOf(baseUrl),
    impressions,
    operationsCenterUrl,
    readings: { ...readings },
    // Live: controllers created by create-items on the operations center appear, deleted ones go.
    get controllerUrls() {
      return Object.fromEntries(oc.controllerPaths().map((c) => [c, oc.controllers.get(c)!.instance.url]));
    },
    credentials: {
      admin: pickCredentials(users.find((u) => u.admin) ?? DEFAULT_ADMIN),
      nonAdmin: pickCredentials(users.find((u) => !u.admin) ?? DEFAULT_NON_ADMIN),
      featureManagementToken: accounts[0]?.token ?? DEFAULT_FM_ACCOUNTS[0]!.token,
      otherFeatureManagementToken:
        accounts.find((a) => a.account !== firstAccount)?.token ?? DEFAULT_FM_ACCOUNTS[1]!.token,
    },
    journal: { entries: () => journal.entries(), clear: () => journal.clear() },
    faults: {
      inject: (spec) => faults.inject(spec),
      random: (options) => faults.random(options),
      clear: () => faults.clear(),
      pending: () => faults.pending(),
    },
    setFeatureManagementRateLimit: (on) => featureManagement.setRateLimit(on),
    addFeatureManagementUser: (user) => featureManagement.addTokenOwner(user, firstAccount),
    setReloadRefusal: (instance, reason) => {
      instanceOf(instance).reloadRefusal = reason;
    },
    changeConfiguration: (instance, file, path, value, by) => instanceOf(instance).changeConfiguration(file, path, value, by),
    installPlugin: (instance, id, version, by) => instanceOf(instance).changeConfiguration("plugins.yaml", id, version ?? true, by),
    setConfigHistory: (instance, settings) => instanceOf(instance).history.configure(settings),
    restartController: (instance) => withReadings(readings, () => instanceOf(instance).restart()),
    state,
    close: () => server.close(),
  };
}

function pickCredentials(user: { username: string; apiToken: string }): { username: string; apiToken: string } {
  return { username: user.username, apiToken: user.apiToken };
}

/** The state view, each of its reads answered under the emulator's readings (environment names, for one). */
function underReadings<T extends object>(readings: Readings, view: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(view)) wrapped[name] = (...args: unknown[]) => withReadings(readings, () => (fn as (...a: unknown[]) => unknown)(...args));
  return wrapped as T;
}
