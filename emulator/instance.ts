import YAML from "yaml";
import { applyQuiet, countLevels, formatMessage, validateBundle } from "./bundle-validation";
import { exportConfiguration, exportItem, concatenateYaml, instanceName, ITEM_EXPORT_SECTIONS, JENKINS_FILE_NAME } from "./configuration-export";
import { changeAtPath, changeItem, changePlugin, ConfigurationChangeError } from "./configuration-change";
import { ConfigHistory, DEFAULT_CHANGE_BY, requestUser, SYSTEM_USER } from "./config-history";
import { isMapping, MISSING_DESCRIPTOR, parseYaml } from "./descriptor";
import { logDate, logFolder } from "./dates";
import type { EffectiveBundle } from "./effective-bundle";
import {
  decodeSegment,
  EmulatorRequest,
  json,
  notFoundPage,
  Reply,
  text,
  yamlText,
  zipReply,
} from "./http";
import { isHotReloadable, NOT_HOT_RELOADABLE } from "./hot-reload";
import { itemToYamlObject, ItemNode, ItemsYamlError, ItemTree, parseItemsDocument, removeStrategyOf, sectionFileItems } from "./item-tree";
import { runningView, type RunningConfigurationView } from "./running-view";
import { applyBundle, CHANGEABLE_FILES, copyRunning, defaultJenkins, defaultRunning, type ChangeableFile, type RunningConfiguration } from "./running-configuration";
import { SecretEncryption } from "./secret-encryption";
import { uploadedZip } from "./multipart";
import { schemaDocument } from "./schemas";
import {
  badItemsYaml,
  basePathOf,
  folderNotFound,
  invalidBundleReason,
  NO_BUNDLE_TO_RELOAD,
  queryFlag,
  noAppliedBundle,
  notAFolder,
  unknownItemOrSection,
  UPDATE_LOG_RETENTION,
  unknownEffectiveFile,
} from "./undocumented-behaviour";
import { LastZip, NotAZipError, unzip, zipFiles } from "./zip";
import { reading } from "./readings";
import { illFormedReason } from "./well-formed";
import { quoted } from "../provider/text/printable";
import type { ConfigurationChangeBy } from "./types";

/** What the OC knows about the bundle assigned to an instance. */
export type AssignedBundle =
  | { kind: "none" }
  | { kind: "missing"; bundle: string }
  | { kind: "broken"; bundle: string; reason: string; inOwnFiles: boolean }
  | { kind: "ok"; bundle: string; effective: EffectiveBundle };

export interface InstanceContext {
  /** "" for the OC, else the controller's full path. */
  id: string;
  /** Human name used in exports ("operations-center" or the full path). */
  label: string;
  url: string;
  assigned(): AssignedBundle;
  /** Called after create-items changed the item tree (the operations center registers new controllers). */
  itemsChanged?(): void;
}

interface UpdateLogVersion {
  version: string;
  date: string;
  errors: number;
  warnings: number;
  folder: string;
}

interface Route {
  method: string;
  pattern: RegExp;
  handle(req: EmulatorRequest, match: RegExpExecArray): Promise<Reply> | Reply | undefined;
}

const messages = (findings: EffectiveBundle["findings"], quiet: boolean): string[] =>
  applyQuiet(findings, quiet).map(formatMessage);

/** The CasC endpoints every instance (the OC under /cjoc/ and each controller) serves. */
export class Instance {
  applied: { bundle: string; effective: EffectiveBundle } | null = null;
  reloadRefusal: string | null = null;
  readonly items = new ItemTree();
  /** What the instance runs (exports show it); see running-configuration.ts. */
  private running: RunningConfiguration;
  private readonly encryption = new SecretEncryption();
  /** The Job Configuration History plugin's records (config-history.ts). */
  readonly history = new ConfigHistory((plain) => this.encryption.encrypt(plain));
  private updateLog: UpdateLogVersion[] = [];
  private readonly exportZip = new LastZip();
  private sequence = 0;
  private readonly routes: Route[];

  get url(): string {
    return this.ctx.url;
  }

  constructor(private readonly ctx: InstanceContext) {
    this.running = defaultRunning(ctx.label, ctx.url);
    this.history.saved(this.running, this.items, SYSTEM_USER);
    this.routes = [
      { method: "GET", pattern: /^(?:job\/[^/]+\/)*jobConfigHistory\/.*$/, handle: (r, m) => this.history.handle(r, m[0]) },
      { method: "GET", pattern: /^casc-bundle-mgnt\/casc-bundle-update-log$/, handle: () => this.updateLogReply() },
      { method: "GET", pattern: /^casc-bundle-mgnt\/check-bundle-update$/, handle: (r) => this.checkUpdate(queryFlag(r.query, "quiet")) },
      { method: "POST", pattern: /^casc-bundle-mgnt\/reload-bundle$/, handle: () => this.reload() },
      { method: "POST", pattern: /^casc-bundle-mgnt\/casc-bundle-validate$/, handle: (r) => this.validateUpload(r) },
      // As the CasC client plugin's BundleExport and BundleResponse serve them (pankajy-dev/cloudbees-casc-client-workshop):
      // the files concatenated as text/plain, one file by its name, and the zip (`zipExport` in the docs,
      // `full-export` in the plugin's code).
      { method: "GET", pattern: /^core-casc-export$/, handle: () => text(200, concatenateYaml(this.exportFiles())) },
      { method: "GET", pattern: /^core-casc-export\/(?:zipExport|full-export)$/, handle: () => this.zipExport() },
      { method: "GET", pattern: /^core-casc-export\/([^/]+)$/, handle: (r, m) => this.exportFile(r, decodeSegment(m[1]!)) },
      { method: "GET", pattern: /^core-casc-schema-download\/download\/([^/]+)$/, handle: (r, m) => this.schema(r, m) },
      { method: "POST", pattern: /^casc-items\/create-items$/, handle: (r) => this.createItems(r) },
      { method: "POST", pattern: /^core-casc-effective-bundle-export$/, handle: () => this.effectiveExport() },
      {
        method: "POST",
        pattern: /^core-casc-effective-bundle-export\/downloadFile\/(.+)$/,
        handle: (_r, m) => this.effectiveFile(m[1]!.split("/").map(decodeSegment).join("/")),
      },
      { method: "POST", pattern: /^((?:job\/[^/]+\/)+)export\/download(?:\/([^/]+))?$/, handle: (r, m) => this.itemExport(r, m) },
    ];
  }

  /** undefined when no route of this instance matches path and method (the caller answers 404). */
  async handle(req: EmulatorRequest, subPath: string): Promise<Reply | undefined> {
    for (const route of this.routes) {
      const m = route.pattern.exec(subPath);
      if (m && route.method === req.method) return route.handle(req, m);
    }
    return undefined;
  }

  private updateLogReply(): Reply {
    return json(200, {
      "update-log-status": "ENABLED",
      "retention-policy": UPDATE_LOG_RETENTION,
      versions: this.updateLog.map((v) => ({ ...v })),
    });
  }

  private checkUpdate(quiet: boolean): Reply {
    const assigned = this.ctx.assigned();
    const current = this.applied
      ? { version: this.applied.effective.version, validations: messages(this.applied.effective.findings, quiet) }
      : { version: "N/A", validations: [] as string[] };
    const versions: Record<string, unknown> = { "current-bundle": current };
    let available = false;
    let deletions: string[] = [];
    if (assigned.kind === "ok" && this.isNew(assigned)) {
      available = true;
      versions["new-version"] = {
        version: assigned.effective.version,
        valid: assigned.effective.errors === 0,
        validations: messages(assigned.effective.findings, quiet),
      };
      deletions = this.deletionsFor(assigned.effective);
    } else if (assigned.kind === "broken") {
      // Never offered as an update, but the reason is shown where a client looks for it.
      versions["new-version"] = { version: "N/A", valid: false, validations: [`ERROR - [STRUCTURE] - ${assigned.reason}`] };
    }
    const body: Record<string, unknown> = { "update-available": available, versions };
    // RESTART when the waiting bundle is not hot reloadable: ConfigurationUpdaterHelper.getUpdateTypeForCliAndEndpoint
    // in the CasC plugin's public copy (`isHotReloadable() ? UpdateType.RELOAD : UpdateType.RESTART`).
    if (available && assigned.kind === "ok") body["update-type"] = isHotReloadable(this.running, assigned.effective) ? "RELOAD" : "RESTART";
    body["items"] = { deletions };
    return json(200, body);
  }

  private isNew(assigned: { bundle: string; effective: EffectiveBundle }): boolean {
    return !this.applied || this.applied.bundle !== assigned.bundle || this.applied.effective.version !== assigned.effective.version;
  }

  private bundleItems(effective: EffectiveBundle): { nodes: ItemNode[]; strategy: string } {
    const nodes: ItemNode[] = [];
    let strategy: string | undefined;
    const fromDescriptor = effective.descriptor["itemRemoveStrategy"];
    if (isMapping(fromDescriptor) && typeof fromDescriptor["items"] === "string") strategy = fromDescriptor["items"];
    const list = effective.descriptor["items"];
    for (const name of Array.isArray(list) ? list : []) {
      const parsed = parseYaml(effective.files.get(String(name)) ?? "");
      if (!parsed.ok) continue;
      // A file with only removeStrategy holds no items but still sets the strategy.
      strategy ??= removeStrategyOf(parsed.value);
      try {
        nodes.push(...sectionFileItems(parsed.value));
      } catch {
        continue; // validation already reports it; a reload applies what it can
      }
    }
    return { nodes, strategy: (strategy ?? "none").toLowerCase() };
  }

  /** Top-level items a reload would remove: only with the sync or remove-all strategies. */
  private deletionsFor(effective: EffectiveBundle): string[] {
    const { nodes, strategy } = this.bundleItems(effective);
    if (strategy !== "sync" && strategy !== "remove-all") return [];
    const keep = new Set(nodes.map((n) => n.name));
    return this.items.topLevelNames().filter((n) => !keep.has(n)).sort();
  }

  private reload(): Reply {
    if (this.reloadRefusal !== null) return json(200, { reloaded: false, reason: this.reloadRefusal });
    const assigned = this.ctx.assigned();
    if (assigned.kind === "none") return json(200, { reloaded: false, reason: NO_BUNDLE_TO_RELOAD });
    if (assigned.kind === "missing") {
      return json(200, { reloaded: false, reason: invalidBundleReason(`bundle '${assigned.bundle}' is no longer in the bundle location`) });
    }
    if (assigned.kind === "broken") return json(200, { reloaded: false, reason: invalidBundleReason(assigned.reason) });
    if (assigned.effective.errors > 0) {
      return json(200, { reloaded: false, reason: invalidBundleReason(`${assigned.effective.errors} validation error(s)`) });
    }
    if (!isHotReloadable(this.running, assigned.effective)) return json(200, { reloaded: false, reason: NOT_HOT_RELOADABLE });
    const isNew = this.isNew(assigned);
    this.apply(assigned, false);
    // Nothing new: the bundle in force is applied again (what was changed in the UI is undone), logged per the reading.
    if (isNew || reading("reloadWithoutChange") === "logged") this.logVersion(assigned.effective);
    return json(200, { reloaded: true });
  }

  /** Applies a bundle: items per its remove strategy, then the running configuration (see applyBundle). */
  private apply(assigned: { bundle: string; effective: EffectiveBundle }, restart: boolean): void {
    for (const name of this.deletionsFor(assigned.effective)) this.items.remove(name);
    this.items.upsert(this.items.rootChildren(), this.bundleItems(assigned.effective).nodes);
    this.running = applyBundle(this.running, assigned.effective, defaultJenkins(this.ctx.label, this.ctx.url), restart);
    this.applied = { bundle: assigned.bundle, effective: assigned.effective };
    this.history.saved(this.running, this.items, SYSTEM_USER);
  }

  private logVersion(effective: EffectiveBundle): void {
    const now = new Date();
    this.sequence += 1;
    this.updateLog.unshift({
      version: effective.version,
      date: logDate(now),
      errors: effective.errors,
      warnings: effective.warnings,
      folder: logFolder(now, this.sequence),
    });
    this.updateLog = this.updateLog.slice(0, UPDATE_LOG_RETENTION);
  }

  /**
   * A restart: the assigned bundle, when valid, is applied whether hot reloadable or not, installed plugins brought
   * to its versions (the way out of "Bundle is not hot reloadable"); a new version is logged as a reload logs it.
   * Without a valid assigned bundle, the bundle in force (if any) is applied again.
   */
  restart(): void {
    const assigned = this.ctx.assigned();
    const target = assigned.kind === "ok" && assigned.effective.errors === 0 ? assigned : this.applied;
    if (!target) return;
    const isNew = this.isNew(target);
    this.apply(target, true);
    if (isNew) this.logVersion(target.effective);
  }

  /** Starts from a running configuration (a folder read by readRunningFolder) instead of the defaults. */
  startWith(running: RunningConfiguration, items: ItemNode[]): void {
    this.running = copyRunning(running);
    this.items.upsert(this.items.rootChildren(), items);
    this.history.saved(this.running, this.items, SYSTEM_USER);
  }

  /**
   * A change made in the UI (no API call): jenkins.yaml and rbac.yaml by dotted path, plugins.yaml by plugin id,
   * items.yaml by item full name (value: the item as items.yaml writes it, {kind, name?, ...}). undefined removes.
   * The history records it by `by`.
   */
  changeConfiguration(file: string, path: string, value: unknown, by: ConfigurationChangeBy = DEFAULT_CHANGE_BY): void {
    if (!(CHANGEABLE_FILES as readonly string[]).includes(file)) {
      throw new ConfigurationChangeError(`cannot change ${quoted(file)}: the files are ${CHANGEABLE_FILES.join(", ")}`);
    }
    // On a copy, kept only when the whole change fits: a refused path leaves nothing half-made.
    const next = copyRunning(this.running);
    switch (file as ChangeableFile) {
      case "jenkins.yaml":
        changeAtPath(next.jenkins, path, value);
        break;
      case "rbac.yaml":
        next.rbac ??= {};
        changeAtPath(next.rbac, path, value);
        break;
      case "plugins.yaml":
        changePlugin(next, path, value);
        break;
      case "items.yaml":
        changeItem(this.items, path, structuredClone(value));
        break;
    }
    this.running = next;
    this.history.saved(this.running, this.items, by);
  }

  /** A copy of what the instance runs, secrets as given (for tests). */
  runningConfiguration(): RunningConfigurationView {
    return runningView(this.running, this.items);
  }

  private async validateUpload(req: EmulatorRequest): Promise<Reply> {
    let files;
    try {
      files = await unzip(uploadedZip(req.headers["content-type"], req.body));
    } catch (e) {
      if (e instanceof NotAZipError) return json(500, { error: "Invalid zip file: Cannot be unzipped" });
      throw e;
    }
    if (!files.has("bundle.yaml")) return json(500, { error: MISSING_DESCRIPTOR });
    const findings = validateBundle(files, { uploaded: true });
    const body: Record<string, unknown> = { valid: countLevels(findings).errors === 0 };
    const shown = messages(findings, queryFlag(req.query, "quiet"));
    if (shown.length > 0) body["validation-messages"] = shown;
    return json(200, body);
  }

  private exportFiles() {
    return exportConfiguration({ instanceId: this.ctx.label, running: this.running, items: this.items, encryption: this.encryption });
  }

  private async zipExport(): Promise<Reply> {
    // BundleExport.doZipExport names it after the instance's name, as the export's id (configuration-export.ts).
    return zipReply(await this.exportZip.zip(this.exportFiles()), `core-casc-export-${instanceName(this.ctx.label)}.zip`, "inline");
  }

  /** One exported file (`core-casc-export/jenkins.yaml`): how bundleutils' per-file fetch reads a live controller. */
  private exportFile(req: EmulatorRequest, name: string): Reply {
    const content = this.exportFiles().get(name);
    return content ? text(200, content.toString("utf8")) : notFoundPage(req.path);
  }

  private schema(req: EmulatorRequest, m: RegExpExecArray): Reply {
    const doc = schemaDocument(decodeSegment(m[1]!));
    return doc ? json(200, doc) : notFoundPage(req.path);
  }

  private createItems(req: EmulatorRequest): Reply {
    const folder = this.items.folder(req.query["path"] ?? "");
    if (!folder.ok) {
      const path = (req.query["path"] ?? "").replace(/^\/+|\/+$/g, "");
      return folder.reason === "missing" ? folderNotFound(path) : notAFolder(path);
    }
    const body = req.body.toString("utf8");
    if (body.trim() === "") return badItemsYaml("The request body must hold the items YAML (content type text/yaml)");
    const parsed = parseYaml(body);
    if (!parsed.ok) return badItemsYaml(`The items YAML is not valid YAML: ${parsed.error}`);
    const illFormed = illFormedReason(parsed.value, "items");
    if (illFormed) return badItemsYaml(`The items YAML is not valid: ${illFormed}`);
    let nodes: ItemNode[];
    try {
      nodes = parseItemsDocument(parsed.value);
    } catch (e) {
      if (e instanceof ItemsYamlError) return badItemsYaml(e.message);
      throw e;
    }
    this.items.upsert(folder.children, nodes);
    this.history.saved(this.running, this.items, requestUser(req));
    this.ctx.itemsChanged?.();
    return basePathOf(folder.fullName);
  }

  private async effectiveExport(): Promise<Reply> {
    if (!this.applied) return noAppliedBundle();
    return zipReply(await zipFiles(this.applied.effective.files), `${this.applied.bundle.replace(/\//g, "___")}.zip`);
  }

  private effectiveFile(name: string): Reply {
    if (!this.applied) return noAppliedBundle();
    const content = this.applied.effective.files.get(name);
    return content ? text(200, content.toString("utf8"), "text/yaml;charset=utf-8") : unknownEffectiveFile(name);
  }

  private itemExport(req: EmulatorRequest, m: RegExpExecArray): Reply {
    const fullName = m[1]!
      .split("/")
      .filter((s, i) => s !== "" && i % 2 === 1)
      .map(decodeSegment)
      .join("/");
    const node = this.items.find(fullName);
    // The spec names the Jenkins file's section core.yaml; exports name the file jenkins.yaml: both select it.
    const section = m[2] === undefined ? undefined : decodeSegment(m[2]) === "core.yaml" ? JENKINS_FILE_NAME : decodeSegment(m[2]);
    if (!node || (section !== undefined && !(ITEM_EXPORT_SECTIONS as readonly string[]).includes(section))) {
      return unknownItemOrSection(req.path);
    }
    // Without a section: that one item, a mapping {kind, name, ...} that create-items takes back once wrapped in an
    // items list (cb-ci/ci-casc-api-samples casc-getCjocControllerItemsYaml.sh shows and re-applies exactly that).
    if (section === undefined) return yamlText(YAML.stringify(itemToYamlObject(node)));
    return yamlText(exportItem(node, fullName).get(section)!.toString("utf8"));
  }

}
