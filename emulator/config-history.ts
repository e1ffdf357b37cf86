import { decodeSegment, type EmulatorRequest, json, type Reply, text } from "./http";
import type { ItemTree } from "./item-tree";
import { fileText, itemFiles, type SavedFile, sameFile, systemFiles } from "./config-history-files";
import type { RunningConfiguration } from "./running-configuration";
import type { ConfigHistoryEntry, ConfigHistorySettings, ConfigurationChangeBy } from "./types";

// The Job Configuration History plugin of a controller (jenkinsci/job-config-history-plugin, read at e360da6c), as
// its remote API answers:
//   - GET jobConfigHistory/api/json?filter=system|all|jobs|deleted|created: {"configs": [ConfigInfo...]}, newest first,
//     no paging (JobConfigHistoryRootAction.getConfigs, `@Exported(visibility = 1)`); Jenkins' `tree=configs[...]{M,N}`
//     picks fields and a range. System entries need the plugin's configure permission (hasConfigurePermission, implied
//     by Overall/Administer): without it the list is empty, with 200 (getSystemConfigs returns an empty list).
//   - GET <item>/jobConfigHistory/api/json: {"jobConfigHistory": [...]} (JobConfigHistoryProjectAction.getJobConfigsREST,
//     `@Exported(name = "jobConfigHistory")`), the newest maxEntriesPerPage when that setting is set.
//   - GET [<item>/]jobConfigHistory/configOutput?type=xml|raw&name=<file>&timestamp=<date>: the file at that revision,
//     text/xml for type=xml, text/plain otherwise (configOutput.jelly); without the permission, the text "No permission
//     to view config files" (JobConfigHistoryRootAction.getFile).
//   - Without the plugin, nothing answers: 404.
// Each entry is a ConfigInfo bean (`@ExportedBean(defaultVisibility = 999)`): user (display name), userID, date
// (`yyyy-MM-dd_HH-mm-ss`, JobConfigHistoryConsts.ID_FORMATTER, a SimpleDateFormat in the JVM's zone: the controller's
// local time, no zone, to the second), job (a system file without `.xml`, or an item's name), operation (Created,
// Changed, Renamed, Deleted: Messages in the language of the request that made the change), hasConfig,
// changeReasonComment, currentName, oldName. Who: the user who saved (User.current()), `SYSTEM` for what runs as the
// system (configuration as code at start or on a reload), `unknown` for nobody. Two saves of one file in the same
// second do not share a date: FileHistoryDao.createNewHistoryDir waits for the next one (here: the next second).

/** The user configuration as code applies bundles as (ACL.SYSTEM_USERNAME). */
export const SYSTEM_USER = "SYSTEM";

/** Who makes a change "in the UI" when a test does not say: the emulator's administrator. */
export const DEFAULT_CHANGE_BY = "admin";

interface Revision {
  seconds: number;
  user: string;
  userID: string;
  operation: string;
  file: SavedFile | null;
}

const DEFAULT_SETTINGS: ConfigHistorySettings = { installed: true, systemHistoryVisible: true, utcOffsetMinutes: 60, maxEntriesPerPage: null };

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** The plugin's date: the controller's local time (`utcOffsetMinutes` east of UTC), no zone. */
export function historyDate(seconds: number, utcOffsetMinutes: number): string {
  const d = new Date((seconds + utcOffsetMinutes * 60) * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}_${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCSeconds())}`;
}

function personOf(by: ConfigurationChangeBy): { user: string; userID: string } {
  return typeof by === "string" ? { user: by, userID: by } : { user: by.fullName ?? by.id, userID: by.id };
}

/** The user a request authenticated as (the server has checked the token): an API call is recorded as that user. */
export function requestUser(req: EmulatorRequest): string {
  const m = /^Basic\s+(\S*)\s*$/i.exec(req.headers["authorization"] ?? "");
  const decoded = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  return (colon >= 0 ? decoded.slice(0, colon) : decoded) || "unknown";
}

/** An item's name as the overview lists it: `team/jobs/build` for `team/build` (ConfigInfoCollector.getFolderName). */
const overviewName = (fullName: string): string => fullName.split("/").join("/jobs/");

/** One instance's configuration history. */
export class ConfigHistory {
  private settings: ConfigHistorySettings = { ...DEFAULT_SETTINGS };
  /** File name (no `.xml`) -> revisions, oldest first. */
  private readonly system = new Map<string, Revision[]>();
  /** Item full name -> revisions, oldest first. */
  private readonly items = new Map<string, Revision[]>();

  constructor(
    private readonly encrypt: (plain: string) => string,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** New settings (only those given); a value out of range throws and changes nothing. */
  configure(changes: Partial<ConfigHistorySettings>): void {
    const next = { ...this.settings, ...changes };
    const offset = next.utcOffsetMinutes;
    const cut = next.maxEntriesPerPage;
    if (typeof next.installed !== "boolean" || typeof next.systemHistoryVisible !== "boolean") throw new Error("config history: installed and systemHistoryVisible are booleans");
    if (!Number.isInteger(offset) || Math.abs(offset) > 14 * 60) throw new Error(`config history: utcOffsetMinutes must be whole minutes within 14 hours of UTC: ${offset}`);
    if (cut !== null && !(Number.isInteger(cut) && cut > 0)) throw new Error(`config history: maxEntriesPerPage must be a positive whole number or null: ${cut}`);
    this.settings = next;
  }

  /**
   * A save of what the instance now runs by `by` (SYSTEM_USER: configuration as code): one entry per system file and
   * per item whose content changed, created or (items) went. Recorded whether or not the plugin is installed, as its
   * listener would have (a test installs it afterwards to read it).
   */
  saved(running: RunningConfiguration, items: ItemTree, by: ConfigurationChangeBy): void {
    const who = personOf(by);
    for (const [name, file] of systemFiles(running)) {
      const list = this.system.get(name);
      if (!sameFile(list?.at(-1)?.file ?? undefined, file)) this.add(this.system, name, { ...who, operation: "Changed", file });
    }
    const now = itemFiles(items);
    for (const [name, file] of now) {
      const last = this.items.get(name)?.at(-1);
      if (last === undefined || last.file === null) this.add(this.items, name, { ...who, operation: "Created", file });
      else if (!sameFile(last.file, file)) this.add(this.items, name, { ...who, operation: "Changed", file });
    }
    for (const [name, list] of this.items) if (!now.has(name) && list.at(-1)!.file !== null) this.add(this.items, name, { ...who, operation: "Deleted", file: null });
  }

  /**
   * The entries a caller gets for `filter`, newest first: with the permission system entries need (the emulator's
   * state view), or without it (`systemVisible` false: none of them).
   */
  entries(filter = "system", systemVisible = true): ConfigHistoryEntry[] {
    const system = systemVisible ? [...this.system].flatMap(([name, list]) => list.map((r) => this.entry(name, r))) : [];
    const jobs = (deleted: boolean) =>
      [...this.items].flatMap(([name, list]) => {
        const gone = list.at(-1)!.file === null;
        if (deleted !== gone) return [];
        const job = gone ? `${overviewName(name)}_deleted_${historyDate(list.at(-1)!.seconds, this.settings.utcOffsetMinutes).replace(/-/g, "")}` : overviewName(name);
        return deleted ? [this.entry(job, list.at(-1)!)] : list.map((r) => this.entry(job, r));
      });
    const created = () => jobs(false).filter((e) => e.operation === "Created");
    const every = () => [...jobs(false), ...jobs(true)];
    // Any other filter lists every item's entries (ConfigInfoCollector's last branch).
    const chosen = { system: () => system, all: () => [...every(), ...system], deleted: () => jobs(true), created }[filter] ?? every;
    return newestFirst(chosen());
  }

  /** The plugin's answer to a request below the instance, or undefined (not the plugin's path, or no plugin: 404). */
  handle(req: EmulatorRequest, subPath: string): Reply | undefined {
    if (!this.settings.installed || req.method !== "GET") return undefined;
    const m = /^((?:job\/[^/]+\/)*)jobConfigHistory\/(api\/json|configOutput)\/?$/.exec(subPath);
    if (!m) return undefined;
    const item = m[1] === "" ? undefined : m[1]!.split("/").filter((s, i) => s !== "" && i % 2 === 1).map(decodeSegment).join("/");
    if (item !== undefined && (this.items.get(item)?.at(-1)?.file ?? null) === null) return undefined;
    if (m[2] === "configOutput") return this.configOutput(req, item);
    if (item === undefined) {
      const configs = this.entries(req.query["filter"] || "system", this.settings.systemHistoryVisible);
      return json(200, picked({ _class: "hudson.plugins.jobConfigHistory.JobConfigHistoryRootAction", configs }, req.query["tree"]));
    }
    const cut = this.settings.maxEntriesPerPage;
    const list = newestFirst(this.items.get(item)!.map((r) => this.entry(item, r)));
    const body = { _class: "hudson.plugins.jobConfigHistory.JobConfigHistoryProjectAction", jobConfigHistory: cut === null ? list : list.slice(0, cut) };
    return json(200, picked(body, req.query["tree"]));
  }

  private configOutput(req: EmulatorRequest, item: string | undefined): Reply {
    const type = req.query["type"] === "xml" ? "text/xml;charset=UTF-8" : "text/plain;charset=UTF-8";
    if (item === undefined && !this.settings.systemHistoryVisible) return text(200, "No permission to view config files", type);
    const list = item === undefined ? this.system.get(req.query["name"] ?? "") : this.items.get(item);
    const revision = list?.find((r) => historyDate(r.seconds, this.settings.utcOffsetMinutes) === req.query["timestamp"]);
    // The plugin throws on an unknown revision (Stapler's error page): a 500 without a body worth reading.
    if (!revision?.file) return text(500, "Unable to get history", "text/plain;charset=UTF-8");
    return text(200, fileText(revision.file, this.encrypt), type);
  }

  private entry(job: string, r: Revision): ConfigHistoryEntry {
    return {
      _class: "hudson.plugins.jobConfigHistory.ConfigInfo",
      changeReasonComment: null,
      currentName: "",
      date: historyDate(r.seconds, this.settings.utcOffsetMinutes),
      hasConfig: r.file !== null,
      job,
      oldName: "",
      operation: r.operation,
      user: r.user,
      userID: r.userID,
    };
  }

  private add(into: Map<string, Revision[]>, name: string, revision: Omit<Revision, "seconds">): void {
    const list = into.get(name) ?? [];
    // Never two revisions of one file in one second: the plugin waits for the next (createNewHistoryDir).
    const seconds = Math.max(Math.floor(this.nowMs() / 1000), (list.at(-1)?.seconds ?? -Infinity) + 1);
    list.push({ ...revision, seconds });
    into.set(name, list);
  }
}

function newestFirst(entries: ConfigHistoryEntry[]): ConfigHistoryEntry[] {
  return entries.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.job < b.job ? -1 : a.job > b.job ? 1 : 0));
}

/**
 * Jenkins' `tree` for the one shape a list answer needs, `<list>[field,...]{M,N}` (also `{M,}`, `{,N}`, `{N}`): the
 * fields kept (`_class` too, as Jenkins keeps it) and the range of the list. Any other tree: the whole answer.
 */
function picked(body: Record<string, unknown>, tree: string | undefined): Record<string, unknown> {
  const m = tree === undefined ? null : /^(\w+)(?:\[([\w,]*)\])?(?:\{(\d*)(,?)(\d*)\})?$/.exec(tree);
  const list = m ? body[m[1]!] : undefined;
  if (!m || !Array.isArray(list)) return body;
  const from = m[3] === "" || m[3] === undefined ? 0 : Number(m[3]);
  const to = m[4] === "" && m[3] !== undefined && m[3] !== "" ? from + 1 : m[5] === "" || m[5] === undefined ? list.length : Number(m[5]);
  const fields = m[2] === undefined ? undefined : new Set(["_class", ...m[2].split(",").filter(Boolean)]);
  const rows = list.slice(from, to).map((e: Record<string, unknown>) => (fields ? Object.fromEntries(Object.entries(e).filter(([k]) => fields.has(k))) : e));
  return { _class: body["_class"], [m[1]!]: rows };
}
