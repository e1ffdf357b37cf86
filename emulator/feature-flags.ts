import { reading } from "./readings";
import { FM_AUDIT_EVERY_ENVIRONMENT_FOR_APP_WIDE_CHANGES } from "./undocumented-behaviour";
import type { Condition, FlagOption, FlagValue, Platform, TargetGroupCondition, TargetGroupOperator } from "../provider/clients/feature-flag-types";
import { isBooleanFlag as isBooleanFlagOf } from "../provider/clients/feature-flag-types";

/**
 * The data model of one feature-flag application, apart from HTTP: its environments, its flags (app-wide) with a
 * configuration per environment or none, its target groups and the audit log of each environment. The routes
 * (feature-flag-routes.ts) validate requests and then call the operations here; everything else (state views, the
 * vendor SDK's configuration of issue 16) reads it through the read accessors, which return copies.
 */

/** `{name, key, description}`: `key` is the environment's id and its SDK key (24 hex digits). */
export interface EnvironmentRecord {
  name: string;
  key: string;
  description: string;
}

/** A flag as the application knows it, whatever the environment. Name and available values never change. */
export interface FlagRecord {
  name: string;
  availableValues: FlagOption[];
  isPermanent: boolean;
}

/** A flag's configuration in one environment, with every default filled in (what X3/F4 stored). */
export interface FlagConfiguration {
  description: string;
  enabled: boolean;
  /** A list, or one label as text, as given. */
  labels: string[] | string;
  stickinessProperty: string;
  platforms: Platform[];
  conditions: Condition[];
  value: FlagValue;
  /** Only when given. */
  archived?: boolean;
}

export interface TargetGroupRecord {
  name: string;
  description: string;
  operator: TargetGroupOperator;
  /** As given: a list, null, or left out (the service kept groups without conditions). */
  conditions?: TargetGroupCondition[] | null;
}

/** One audit-log record, in the shape of the vendor's Jenkins plugin sample. */
export interface AuditLogRecord {
  _id: string;
  application: string;
  experiment?: string;
  user: { _id: string; email: string; name: string; picture: string };
  userName: string;
  userEmail: string;
  action: string;
  message: string;
  environmentId: string;
  creation_date: string;
  __v: number;
}

/** Who made a change: the user owning the API token. */
export interface AuditUser {
  _id: string;
  email: string;
  name: string;
}

/** A flag with its configuration per environment name (only the environments where it is configured). */
export interface FlagWithConfigurations extends FlagRecord {
  configurations: Record<string, FlagConfiguration>;
}

/** A flag configured in one environment. */
export interface ConfiguredFlag {
  flag: FlagRecord;
  configuration: FlagConfiguration;
}

interface FlagEntry {
  flag: FlagRecord;
  /** Environment name -> configuration. */
  configurations: Map<string, FlagConfiguration>;
}

const copy = <T>(value: T): T => structuredClone(value);

/** A boolean flag offers exactly false and true. */
export function isBooleanFlag(flag: Pick<FlagRecord, "availableValues">): boolean {
  return isBooleanFlagOf(flag.availableValues);
}

/** What a flag delivers when nothing is configured: false for a boolean flag, else null (the SDK's default in code). */
export function defaultValueOf(flag: Pick<FlagRecord, "availableValues">): FlagValue {
  return isBooleanFlag(flag) ? false : null;
}

export class ApplicationFlags {
  private readonly envs: EnvironmentRecord[] = [];
  private readonly flagEntries = new Map<string, FlagEntry>();
  private readonly groups = new Map<string, TargetGroupRecord>();
  /** Environment key -> its audit log, oldest first. */
  private readonly logs = new Map<string, AuditLogRecord[]>();
  private changes = 0;

  constructor(
    readonly applicationId: string,
    private readonly newId: () => string,
  ) {}

  // ------------------------------------------------------------ read accessors (copies)

  /** Environments in creation order (`Production` first). */
  environments(): EnvironmentRecord[] {
    return copy(this.envs);
  }

  /**
   * The environment of this name: the exact name, else the one name that differs only in case (the docs address
   * Production as "production" too). Every accessor taking an environment name resolves it this way.
   */
  environment(name: string): EnvironmentRecord | undefined {
    const env = this.findEnv(name);
    return env && copy(env);
  }

  /** The environment whose key (SDK key) this is. */
  environmentByKey(key: string): EnvironmentRecord | undefined {
    const env = this.envs.find((e) => e.key === key);
    return env && copy(env);
  }

  /** Every flag of the application, in creation order. */
  flags(): FlagRecord[] {
    return [...this.flagEntries.values()].map((e) => copy(e.flag));
  }

  flag(name: string): FlagRecord | undefined {
    const entry = this.flagEntries.get(name);
    return entry && copy(entry.flag);
  }

  /** Every flag with its configuration in each environment where it has one. */
  flagsWithConfigurations(): FlagWithConfigurations[] {
    return [...this.flagEntries.values()].map((e) => ({ ...copy(e.flag), configurations: copy(Object.fromEntries(e.configurations)) }));
  }

  /** The flag's configuration in the environment, or undefined when it has none there (or either is unknown). */
  configuration(flag: string, environment: string): FlagConfiguration | undefined {
    const env = this.findEnv(environment);
    const configuration = env && this.flagEntries.get(flag)?.configurations.get(env.name);
    return configuration && copy(configuration);
  }

  /** The flags configured in the environment (the experiment list), in flag creation order. */
  configuredFlags(environment: string): ConfiguredFlag[] {
    const env = this.findEnv(environment);
    if (!env) return [];
    return [...this.flagEntries.values()].flatMap((e) => {
      const configuration = e.configurations.get(env.name);
      return configuration ? [{ flag: copy(e.flag), configuration: copy(configuration) }] : [];
    });
  }

  /** Target groups in creation order. */
  targetGroups(): TargetGroupRecord[] {
    return [...this.groups.values()].map(copy);
  }

  targetGroup(name: string): TargetGroupRecord | undefined {
    const group = this.groups.get(name);
    return group && copy(group);
  }

  /** The environment's audit log, oldest first. */
  auditLogs(environment: string): AuditLogRecord[] {
    const env = this.findEnv(environment);
    return env ? copy(this.logs.get(env.key) ?? []) : [];
  }

  /** Grows by one on every change: a cheap way for readers to know whether what they built is stale. */
  revision(): number {
    return this.changes;
  }

  // ------------------------------------------------------------ operations (the caller has validated)

  /** Adds the environment, or updates the description of the one of that name (which keeps its name and key). */
  putEnvironment(name: string, description: string | undefined, by: AuditUser): EnvironmentRecord {
    const existing = this.findEnv(name);
    if (existing) {
      if (description !== undefined && description !== existing.description) {
        existing.description = description;
        this.log(existing, by, undefined, "updated environment", `Environment '${name}' description updated`);
      }
      return copy(existing);
    }
    const env: EnvironmentRecord = { name, key: this.newId(), description: description ?? "" };
    this.envs.push(env);
    this.logs.set(env.key, []);
    this.log(env, by, undefined, "created environment", `Environment '${name}' created`);
    return copy(env);
  }

  /** Creates the flag (in every environment, unconfigured). */
  createFlag(flag: FlagRecord, by: AuditUser): FlagRecord {
    this.flagEntries.set(flag.name, { flag: copy(flag), configurations: new Map() });
    this.logAppWide(by, flag.name, "created flag", `Flag '${flag.name}' created`);
    return copy(flag);
  }

  setPermanent(name: string, isPermanent: boolean): void {
    const entry = this.entry(name);
    if (entry.flag.isPermanent !== isPermanent) {
      entry.flag.isPermanent = isPermanent;
      this.changes++;
    }
  }

  /** Replaces the flag's whole configuration in the environment. */
  setConfiguration(name: string, environment: string, configuration: FlagConfiguration, by: AuditUser): FlagConfiguration {
    const entry = this.entry(name);
    const env = this.env(environment);
    const before = entry.configurations.get(env.name);
    entry.configurations.set(env.name, copy(configuration));
    const targeting = configuration.enabled ? "on" : "off";
    const action = before?.enabled === configuration.enabled ? "updated flag configuration" : `turned targeting ${targeting}`;
    this.log(env, by, name, action, `Flag '${name}' configuration set, targeting ${targeting}`);
    return copy(configuration);
  }

  /** Removes the flag's configuration in the environment; the flag stays. False when it had none there. */
  removeConfiguration(name: string, environment: string, by: AuditUser): boolean {
    const env = this.env(environment);
    const removed = this.entry(name).configurations.delete(env.name);
    if (removed) this.log(env, by, name, "deleted flag configuration", `Flag '${name}' configuration removed`);
    return removed;
  }

  /** Deletes the flag and its configuration in every environment. */
  deleteFlag(name: string, by: AuditUser): void {
    this.entry(name);
    this.flagEntries.delete(name);
    this.logAppWide(by, name, "deleted flag", `Flag '${name}' deleted`);
  }

  /** Creates the target group, or replaces the one of that name. */
  putTargetGroup(group: TargetGroupRecord, by: AuditUser): TargetGroupRecord {
    const verb = this.groups.has(group.name) ? "updated" : "created";
    this.groups.set(group.name, copy(group));
    this.logAppWide(by, undefined, `${verb} target group`, `Target group '${group.name}' ${verb}`);
    return copy(group);
  }

  private entry(name: string): FlagEntry {
    const entry = this.flagEntries.get(name);
    if (!entry) throw new Error(`No flag '${name}' in application ${this.applicationId}`);
    return entry;
  }

  private findEnv(name: string): EnvironmentRecord | undefined {
    const exact = this.envs.find((e) => e.name === name);
    if (exact || reading("environmentNames") === "case-sensitive") return exact;
    const lower = name.toLowerCase();
    return this.envs.find((e) => e.name.toLowerCase() === lower);
  }

  private env(name: string): EnvironmentRecord {
    const env = this.findEnv(name);
    if (!env) throw new Error(`No environment '${name}' in application ${this.applicationId}`);
    return env;
  }

  private logAppWide(by: AuditUser, flag: string | undefined, action: string, message: string): void {
    if (FM_AUDIT_EVERY_ENVIRONMENT_FOR_APP_WIDE_CHANGES) for (const env of this.envs) this.log(env, by, flag, action, message);
    else this.changes++;
  }

  private log(env: EnvironmentRecord, by: AuditUser, flag: string | undefined, action: string, message: string): void {
    this.changes++;
    const record: AuditLogRecord = {
      _id: this.newId(),
      application: this.applicationId,
      ...(flag === undefined ? {} : { experiment: flag }),
      user: { ...by, picture: "" },
      userName: by.name,
      userEmail: by.email,
      action,
      message,
      environmentId: env.key,
      creation_date: new Date().toISOString(),
      __v: 0,
    };
    this.logs.get(env.key)!.push(record);
  }
}

/** The read accessors of an application's model: what readers outside the routes (state views, the SDK's configuration) may use. */
export type ApplicationFlagsView = Pick<
  ApplicationFlags,
  | "applicationId"
  | "environments"
  | "environment"
  | "environmentByKey"
  | "flags"
  | "flag"
  | "flagsWithConfigurations"
  | "configuration"
  | "configuredFlags"
  | "targetGroups"
  | "targetGroup"
  | "auditLogs"
  | "revision"
>;
