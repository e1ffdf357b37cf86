/**
 * Drift that names who: when a refresh finds a feature-flag resource changed outside the stack, the audit log of
 * the application environment that records it (L1) says who changed it, when and how, in one warning per resource.
 *
 * - The log is read only when drift was found, once per application environment per deployment (one provider
 *   process), shared by every resource that needs it: the service allows one request per second.
 * - Each read registers its resource's last write (`writtenAt`) first, so the shared read starts at the earliest
 *   one of the deployment's resources of that application (a refresh starts every read before any list answers).
 * - The log answers oldest first, a page at a time (30 records, the Jenkins plugin says): a full page is followed by
 *   the next one, from the last date seen, up to MAX_PAGES, MAX_RECORDS and MAX_LOG_BYTES in all (held at once:
 *   the spec bounds neither a page nor a record). A read that stops early says so in its warnings.
 * - Who, the environment and the action are the server's text, quoted (quoted()): a member of the account writes
 *   their own name, and a warning is a line of the drift job's log.
 * - A log that cannot be read, or without a matching entry, still gives the warning, saying so; it never fails the
 *   refresh. A record in a form this version cannot read is skipped, with a warning naming it (by `_id`).
 */
import type { FeatureManagementClient } from "../../clients/feature-management-client";
import type { AuditLog } from "../../clients/feature-flag-types";
import type { ReadableList } from "../../clients/readable-list-types";
import { ResponseTooLargeError } from "../../http/errors";
import { bounded } from "../../http/response-text";
import { quoted } from "../../text/printable";
import { messageOf, warn } from "../shared/errors";
import { readableEntries } from "../shared/unreadable-entries";

/** The page size the service answers at most (the Jenkins plugin's comment): a shorter page is the last. */
const PAGE_SIZE = 30;
/** Pages read at most per application environment and deployment. */
const MAX_PAGES = 10;
/** Records kept at most per read: ten full pages (a page longer than the service's 30 counts by its records). */
const MAX_RECORDS = MAX_PAGES * PAGE_SIZE;
/**
 * Bytes of all the pages of one read together (each page's response limit is what is left of it): 300 real records
 * take about 150 KB. A page past it ends the read with the pages before it.
 */
export const MAX_LOG_BYTES = 4 * 1024 * 1024;
/** Where the search starts for a resource whose state has no `writtenAt` (written by an older version). */
const DEFAULT_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/** A resource found changed, and how to tell the audit-log records that concern it. */
export interface DriftSubject {
  /** How the warning names it: `FlagConfiguration checkout/Production`. */
  label: string;
  applicationId: string;
  /** The environment whose log records its changes (app-wide objects: the application's first environment). */
  environment: string;
  /** The state's `writtenAt`: only later records count. */
  writtenAt: unknown;
  concerns(record: AuditLog): boolean;
}

/** The records of a read, and why it stopped before the log's end (undefined: it read to the end). */
export interface AuditLogRecords {
  records: AuditLog[];
  stoppedEarly?: string;
}

type Records = AuditLogRecords;

interface LogRead {
  from: Date;
  records: Promise<Records>;
}

/** The audit-log reads of one deployment, per client (see auditTrailOf). */
export class AuditTrail {
  /** applicationId -> the earliest `writtenAt` of the resources read so far. */
  private readonly earliest = new Map<string, number>();
  /** `<applicationId>\n<environment, lower case>` -> its one read. */
  private readonly reads = new Map<string, LogRead>();

  constructor(private readonly client: FeatureManagementClient) {}

  /** Called as a read starts, before any list answers: the shared log read will start early enough for it. */
  expect(applicationId: string, writtenAt: unknown): void {
    const at = startOf(writtenAt);
    const known = this.earliest.get(applicationId);
    if (known === undefined || at < known) this.earliest.set(applicationId, at);
  }

  /**
   * Warns that the subject changed (or was removed) outside the stack, naming who, when and what from the newest
   * matching record after its last write. Never throws.
   */
  async report(subject: DriftSubject, how: "changed" | "removed"): Promise<void> {
    const since = startOf(subject.writtenAt);
    const head = `${subject.label} ${how} outside this stack`;
    const log = this.readOnce(subject.applicationId, subject.environment, since);
    const environment = quoted(subject.environment);
    let read: Records;
    try {
      read = await log.records;
    } catch (e) {
      warn(`${head}; who changed it cannot be told: the audit log of environment ${environment} could not be read (${bounded(messageOf(e), 300)})`);
      return;
    }
    const unread = read.stoppedEarly ? ` (${read.stoppedEarly})` : "";
    const matching = read.records.filter((r) => timeOf(r) > since && subject.concerns(r));
    const newest = matching.reduce<AuditLog | undefined>((a, r) => (a === undefined || timeOf(r) >= timeOf(a) ? r : a), undefined);
    if (!newest) {
      const start = new Date(Math.max(since, log.from.getTime())).toISOString();
      warn(`${head}; the audit log of environment ${environment} has no entry for it since ${start}${unread}, so who changed it cannot be told`);
      return;
    }
    const earlier = matching.length > 1 ? ` (${matching.length} changes since this stack's last write at ${new Date(since).toISOString()})` : "";
    // A read that stopped early may have missed a later change: the warning names the newest one read, and says so.
    const later = read.stoppedEarly ? `; a later change may be unread: ${read.stoppedEarly}` : "";
    warn(`${head} by ${whoOf(newest)} at ${whenOf(newest)}: ${quoted(bounded(newest.action || newest.message || "a change", 200))}${earlier}${later}`);
  }

  private readOnce(applicationId: string, environment: string, since: number): LogRead {
    // The service finds an environment whatever the case of its name: one read for both spellings.
    const key = `${applicationId}\n${environment.toLowerCase()}`;
    let read = this.reads.get(key);
    if (!read) {
      const from = new Date(Math.min(since, this.earliest.get(applicationId) ?? since));
      read = { from, records: this.pages(applicationId, environment, from) };
      // A failed read is kept too: one request per environment and deployment, whatever it answers.
      read.records.catch(() => undefined);
      this.reads.set(key, read);
    }
    return read;
  }

  private pages(applicationId: string, environment: string, from: Date): Promise<Records> {
    const operation = `reading the audit logs of application ${quoted(applicationId)} in environment ${quoted(environment)}`;
    return readAuditLogPages(this.client, applicationId, environment, from, (list) => readableEntries(list, "audit-log record", operation));
  }
}

/**
 * The log of one application environment from `from`, page after page, within MAX_PAGES, MAX_RECORDS and
 * MAX_LOG_BYTES: `stoppedEarly` says which bound ended it. A page over the bytes left ends the read (a first page over
 * them fails it: nothing was read). `entriesOf` takes each page's readable records and says the others as its caller
 * does (a warning in a deployment, an error in a command's report).
 */
export async function readAuditLogPages(
  client: FeatureManagementClient,
  applicationId: string,
  environment: string,
  from: Date,
  entriesOf: (list: ReadableList<AuditLog>) => AuditLog[],
): Promise<AuditLogRecords> {
  const seen = new Set<string>();
  const records: AuditLog[] = [];
  let start = from;
  let bytesLeft = MAX_LOG_BYTES;
  const stopped = (why: string): AuditLogRecords => ({ records, stoppedEarly: `the read stopped after ${records.length} records: ${why}` });
  for (let page = 0; page < MAX_PAGES; page++) {
    if (bytesLeft <= 0) return stopped(`its pages passed ${MAX_LOG_BYTES} bytes`);
    let answer: AuditLog[];
    let size: number;
    try {
      const list = await client.readAuditLogList(applicationId, environment, start, { maxResponseBytes: bytesLeft });
      answer = entriesOf(list);
      // A record it cannot read still fills the page: a page of 30 is full, and the next one is read.
      size = answer.length + list.unreadable.length;
    } catch (e) {
      if (e instanceof ResponseTooLargeError && records.length) return stopped(`its pages passed ${MAX_LOG_BYTES} bytes`);
      throw e;
    }
    bytesLeft -= Buffer.byteLength(JSON.stringify(answer));
    const fresh = answer.filter((r) => !seen.has(r._id));
    for (const r of fresh.slice(0, MAX_RECORDS - records.length)) {
      seen.add(r._id);
      records.push(r);
    }
    if (size < PAGE_SIZE || fresh.length === 0) return { records };
    if (records.length >= MAX_RECORDS) return stopped(`at most ${MAX_RECORDS} are read`);
    const last = answer.reduce((max, r) => Math.max(max, timeOf(r)), -Infinity);
    if (!Number.isFinite(last)) return { records };
    start = new Date(last);
  }
  return stopped(`at most ${MAX_PAGES} pages are read`);
}

/** The process's audit trail for this client: one per deployment, as the lists are. */
export function auditTrailOf(client: FeatureManagementClient, trails: Map<object, unknown>): AuditTrail {
  let trail = trails.get(client) as AuditTrail | undefined;
  if (!trail) {
    trail = new AuditTrail(client);
    trails.set(client, trail);
  }
  return trail;
}

function startOf(writtenAt: unknown): number {
  const at = typeof writtenAt === "string" ? Date.parse(writtenAt) : NaN;
  return Number.isFinite(at) ? at : Date.now() - DEFAULT_LOOKBACK_MS;
}

export function timeOf(record: AuditLog): number {
  const at = Date.parse(record.creation_date);
  return Number.isFinite(at) ? at : -Infinity;
}

function whoOf(record: AuditLog): string {
  const who = record.userEmail || record.user?.email || record.userName || record.user?.name;
  return who ? quoted(bounded(who, 200)) : "an unknown user";
}

/** The record's time to the second, as a person reads it (2026-11-24T10:02:11Z). */
function whenOf(record: AuditLog): string {
  const at = timeOf(record);
  return Number.isFinite(at) ? new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z") : quoted(bounded(record.creation_date, 40));
}

/** Records of the flag's changes (the log's `experiment` is the flag's name). */
export function concernsFlag(flag: string): (record: AuditLog) => boolean {
  return (r) => r.experiment === flag;
}

/**
 * Records of an object that is not a flag (an environment, a target group): no `experiment`, the kind in the action
 * or the message (`updated target group`), and its name as a word of the message or the action.
 */
export function concernsNamed(kind: RegExp, name: string): (record: AuditLog) => boolean {
  const word = new RegExp(`(^|[^\\w.-])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\w.-])`);
  return (r) => {
    if (r.experiment) return false;
    const text = `${r.action ?? ""} ${r.message ?? ""}`;
    return kind.test(text) && word.test(text);
  };
}
