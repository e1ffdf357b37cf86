/**
 * What `pulumi-cloudbees flags` asks the feature-flag service, one call at a time (the client spaces them at its one
 * request per second, across processes): the applications; per application its environments and its flags (the
 * first environment's list: flags are application-wide); per environment its impressions over the history (none for
 * an environment marked roxy), the newer service's own statuses where it has them (asked once: a service without the
 * endpoint is not asked again), and its audit log over the threshold's days. Each call that fails is named in the
 * errors and the rest still read: an impressions call that fails leaves that environment's statuses unknown, an audit
 * log that fails its flags' last change unknown.
 */
import type { FeatureManagementClient } from "../../provider/clients/feature-management-client";
import type { AuditLog, Flag } from "../../provider/clients/feature-flag-types";
import type { ServiceFlagStatus } from "../../provider/clients/impression-types";
import type { UnreadableItem } from "../../provider/clients/readable-list-types";
import { utcDay } from "../../provider/clients/utc-days";
import type { ImpressionEvidence } from "../../provider/hygiene/flag-status";
import type { LastChange } from "../../provider/hygiene/verdict";
import { readAuditLogPages, timeOf, type AuditLogRecords } from "../../provider/resources/feature-flags/audit-trail";
import type { ProgressItem } from "../report/progress";
import { bounded } from "../report/text";
import { MAX_ERROR_CHARS, type ReportError } from "./report";

export interface ReadOptions {
  /** --application as given (names or ids); empty: every application. */
  applications: string[];
  /** Environment names marked roxy. */
  roxy: ReadonlySet<string>;
  asOf: Date;
  /** Impressions from asOf minus this many days. */
  historyDays: number;
  /** The audit log from asOf minus this many days. */
  staleDays: number;
  /** Progress: told how many applications will be read, then each one read. */
  progress?: { start(applications: number): void; done(item: ProgressItem): void };
}

export interface ServiceRead {
  applications: ApplicationRead[];
  errors: ReportError[];
  /** Calls made to the service. */
  requests: number;
}

export interface ApplicationRead {
  id: string;
  name: string;
  /** Its flags; undefined when the list could not be read (named in the errors). */
  flags?: Flag[];
  environments: EnvironmentRead[];
}

export interface EnvironmentRead {
  name: string;
  key?: string;
  roxy: boolean;
  evidence: ImpressionEvidence;
  form?: "analytics" | "list";
  serviceStatuses?: ServiceFlagStatus[];
  /** The audit log's records, or why it could not be read. */
  auditLog: AuditLogRecords | { error: string };
}

const DAY_MS = 86_400_000;

export async function readService(client: FeatureManagementClient, o: ReadOptions): Promise<ServiceRead> {
  return new ServiceReader(client, o).read();
}

class ServiceReader {
  private readonly errors: ReportError[] = [];
  private requests = 0;
  /** undefined: not asked yet; false: the service has no flags-status endpoint, so it is not asked again. */
  private statusesServed: boolean | undefined;
  private readonly from: Date;
  private readonly auditFrom: Date;

  constructor(
    private readonly client: FeatureManagementClient,
    private readonly o: ReadOptions,
  ) {
    this.from = new Date(o.asOf.getTime() - o.historyDays * DAY_MS);
    this.auditFrom = new Date(o.asOf.getTime() - o.staleDays * DAY_MS);
  }

  async read(): Promise<ServiceRead> {
    const chosen = chooseApplications(await this.call(() => this.client.listApplications()), this.o.applications, this.errors);
    const out: ApplicationRead[] = [];
    this.o.progress?.start(chosen.length);
    for (const app of chosen) {
      const started = Date.now();
      const errorsBefore = this.errors.length;
      const read: ApplicationRead = { id: app.id, name: app.name, environments: [] };
      out.push(read);
      await this.application(read);
      const failed = this.errors.length - errorsBefore;
      const detail = `${read.flags?.length ?? 0} flags, ${read.environments.length} environments${failed ? `, ${failed} not read` : ""}`;
      this.o.progress?.done({ id: app.name, status: failed ? "partly read" : "read", flagged: failed > 0, durationMs: Date.now() - started, detail });
    }
    return { applications: out, errors: this.errors, requests: this.requests };
  }

  private call<T>(f: () => Promise<T>): Promise<T> {
    this.requests++;
    return f();
  }

  /** Its environments, its flags (the first environment's list: flags are application-wide), then each environment. */
  private async application(app: ApplicationRead): Promise<void> {
    let environments: { name: string; key?: string }[];
    try {
      const list = await this.call(() => this.client.readEnvironmentList(app.id));
      environments = list.items;
      for (const u of list.unreadable) this.errors.push({ kind: "environment", application: app.name, message: `an environment of the list could not be read (${entryName(u)}): ${u.problem}` });
    } catch (e) {
      this.errors.push({ kind: "application", application: app.name, message: `its environments could not be read: ${messageOf(e)}` });
      return;
    }
    app.flags = [];
    if (environments.length > 0) {
      try {
        const list = await this.call(() => this.client.readFlagList(app.id, environments[0]!.name));
        app.flags = list.items;
        for (const u of list.unreadable) this.errors.push({ kind: "flags", application: app.name, message: `a flag of the list could not be read (${entryName(u)}): ${u.problem}` });
      } catch (e) {
        delete app.flags;
        this.errors.push({ kind: "flags", application: app.name, message: `its flags could not be read: ${messageOf(e)}` });
      }
    }
    for (const env of environments) app.environments.push(await this.environment(app, env));
  }

  /** Its impressions (none asked when marked roxy), the service's own statuses where it has them, its audit log. */
  private async environment(app: ApplicationRead, env: { name: string; key?: string }): Promise<EnvironmentRead> {
    const where = { application: app.name, environment: env.name };
    const e: EnvironmentRead = { name: env.name, ...(env.key ? { key: env.key } : {}), roxy: this.o.roxy.has(env.name), evidence: { kind: "roxy" }, auditLog: { records: [] } };
    if (!e.roxy) {
      try {
        const impressions = await this.call(() => this.client.readImpressions(app.id, env.name, { from: this.from, to: this.o.asOf }));
        e.evidence = { kind: "counts", counts: impressions.counts, unreadable: impressions.unreadable, since: utcDay(this.from) };
        e.form = impressions.form;
        const u = impressions.unreadable[0];
        if (u) {
          const n = impressions.unreadable.length;
          this.errors.push({ kind: "impressions", ...where, message: `${n} entr${n === 1 ? "y" : "ies"} of the impressions answer could not be read, the first (${entryName(u)}): ${u.problem}` });
        }
      } catch (err) {
        e.evidence = { kind: "unavailable", reason: messageOf(err) };
        this.errors.push({ kind: "impressions", ...where, message: `its impressions could not be read, so its statuses are unknown: ${messageOf(err)}` });
      }
      if (this.statusesServed !== false && env.key) {
        const warnings: string[] = [];
        const statuses = await this.call(() => this.client.readFlagsStatus(app.id, env.key!, { warn: (m) => warnings.push(m) }));
        if (statuses) {
          this.statusesServed = true;
          e.serviceStatuses = statuses.statuses;
        } else if (warnings.length === 0) this.statusesServed = false;
        for (const w of warnings) this.errors.push({ kind: "statuses", ...where, message: bounded(w, MAX_ERROR_CHARS) });
      }
    }
    try {
      e.auditLog = await readAuditLogPages(this.client, app.id, env.name, this.auditFrom, (list) => {
        this.requests++;
        for (const u of list.unreadable) this.errors.push({ kind: "audit-log", ...where, message: `an audit-log record could not be read (${entryName(u)}): ${u.problem}` });
        return list.items;
      });
      if (e.auditLog.stoppedEarly) this.errors.push({ kind: "audit-log", ...where, message: e.auditLog.stoppedEarly });
    } catch (err) {
      this.requests++;
      e.auditLog = { error: messageOf(err) };
      this.errors.push({ kind: "audit-log", ...where, message: `its audit log could not be read, so when its flags last changed is unknown: ${messageOf(err)}` });
    }
    return e;
  }
}

function messageOf(e: unknown): string {
  return bounded(e instanceof Error ? e.message : String(e), MAX_ERROR_CHARS);
}

/** An unreadable entry as a message names it: its name, else its position. */
function entryName(u: UnreadableItem): string {
  return u.name === undefined ? `entry ${u.index}` : JSON.stringify(u.name);
}

/** The applications --application names (by id or name, each once), or every one; a name that matches none is an error. */
function chooseApplications(all: { id: string; name: string }[], wanted: string[], errors: ReportError[]): { id: string; name: string }[] {
  if (wanted.length === 0) return all;
  const chosen = new Map<string, { id: string; name: string }>();
  for (const w of wanted) {
    const matches = all.filter((a) => a.id === w || a.name === w);
    if (matches.length === 0) {
      const names = all.map((a) => JSON.stringify(a.name)).sort();
      errors.push({ kind: "application", application: w, message: `no application has the name or id ${JSON.stringify(w)} (the account's: ${names.slice(0, 20).join(", ") || "none"}${names.length > 20 ? `, and ${names.length - 20} more` : ""})` });
    }
    for (const m of matches) chosen.set(m.id, m);
  }
  return [...chosen.values()];
}

/**
 * When the flag last changed, from the audit logs of the application's environments (records of the flag up to
 * asOf) and the flag's own `updated` where the newer service lists one: the newest; without one, unchanged since the
 * logs' start when each was read whole, else unknown.
 */
export function lastChangeOf(flag: Flag, environments: readonly EnvironmentRead[], auditFrom: Date, asOf: Date): LastChange {
  let newest: { at: number; by?: string } | undefined;
  const consider = (at: number, by?: string) => {
    if (Number.isFinite(at) && at <= asOf.getTime() && (!newest || at > newest.at)) newest = { at, ...(by ? { by } : {}) };
  };
  if (typeof flag.updated === "string") consider(Date.parse(flag.updated));
  const incomplete: string[] = [];
  for (const env of environments) {
    if ("error" in env.auditLog) {
      incomplete.push(`the audit log of ${JSON.stringify(env.name)} could not be read`);
      continue;
    }
    if (env.auditLog.stoppedEarly) incomplete.push(`the audit log of ${JSON.stringify(env.name)}: ${env.auditLog.stoppedEarly}`);
    for (const r of env.auditLog.records) if (r.experiment === flag.name) consider(timeOf(r), whoOf(r));
  }
  if (newest && (incomplete.length === 0 || newest.at >= auditFrom.getTime())) return { kind: "changed", at: new Date(newest.at).toISOString(), ...(newest.by ? { by: newest.by } : {}) };
  if (incomplete.length) return { kind: "unknown", reason: incomplete[0]! };
  return { kind: "unchanged", since: auditFrom.toISOString() };
}

function whoOf(r: AuditLog): string | undefined {
  const who = r.userEmail || r.user?.email || r.userName || r.user?.name;
  return typeof who === "string" && who ? bounded(who, 200) : undefined;
}
