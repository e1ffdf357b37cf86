import { randomBytes } from "node:crypto";
import { Finding, validateBundle, validationResult } from "./bundle-validation";
import { BundleStore, StoredBundle } from "./bundle-store";
import { compileAnchored, parseDescriptor } from "./descriptor";
import { matchingControllers } from "./bounded-pattern";
import { BundleInconsistencyError, buildEffectiveBundle } from "./effective-bundle";
import { EmulatorRequest, json, Reply } from "./http";
import { bundleOfItem, controllerItems, seedControllerItems, setBundleOfItem } from "./controller-items";
import { ControllerItemRoutes } from "./controller-item-routes";
import { AssignedBundle, Instance } from "./instance";
import {
  bundleNotAvailable,
  bundleUrl,
  CHECKOUT_REMOTE_NAME,
  checkoutLocalText,
  CONTROLLER_STATUS,
  DEFAULT_CHECKOUT_TIMEOUT_S,
  deprecatedBundleIdOnly,
  invalidParameter,
  invalidRegex,
  missingParameter,
  noBundleAssigned,
  queryFlag,
  unknownBundle,
  unknownController,
} from "./undocumented-behaviour";
import { reading } from "./readings";
import { getEffectiveBundle, preValidateBundles, UploadContext } from "./uploaded-bundles";
import { ValidationLogs } from "./validation-logs";

export interface ControllerRecord {
  fullPath: string;
  /** Token of the controller's bundle link (config-bundle-download-link, regenerate-token). */
  token: string;
  assignedBundle: string | null;
  instance: Instance;
}

export interface OperationsCenterOptions {
  ocUrl: string;
  controllerUrls: Record<string, string>;
  /** The URL of a controller created later (by create-items). */
  controllerUrlOf(fullPath: string): string;
  bundlesDir: string;
}

type Handler = (req: EmulatorRequest) => Promise<Reply> | Reply;

const newToken = (): string => randomBytes(20).toString("hex");

/** The operations center: bundle location, availability, assignments, logs, and the OC-only endpoints. */
export class OperationsCenter {
  readonly store: BundleStore;
  readonly instance: Instance;
  readonly controllers = new Map<string, ControllerRecord>();
  readonly apiPatterns = new Map<string, string>();
  visibility = false;
  defaultBundle: string | null = null;
  private readonly logs: ValidationLogs;
  private effectiveCache = new Map<string, AssignedBundle>();
  /** bundle.yaml's availabilityPattern of each stored bundle (a check-out stores new objects). */
  private readonly yamlPatterns = new WeakMap<StoredBundle, string | undefined>();
  private readonly routes: Map<string, Handler>;
  private readonly itemRoutes: ControllerItemRoutes;

  constructor(private readonly options: OperationsCenterOptions) {
    this.store = new BundleStore(options.bundlesDir);
    this.instance = new Instance({
      id: "",
      label: "operations-center",
      url: options.ocUrl,
      // The OC runs its own bundle outside these endpoints; nothing is ever assigned to it here.
      assigned: () => ({ kind: "none" }),
      itemsChanged: () => this.registerControllerItems(),
    });
    // Controllers are items of the operations center (controller-items.ts).
    seedControllerItems(this.instance.items, Object.keys(options.controllerUrls));
    for (const [fullPath, url] of Object.entries(options.controllerUrls)) this.addController(fullPath, url);
    this.itemRoutes = new ControllerItemRoutes(options.ocUrl, this.instance.items, (removed) => this.removeControllers(removed));
    this.logs = new ValidationLogs({
      store: this.store,
      controllerPaths: () => this.controllerPaths(),
      assignedBundleOf: (c) => this.controllers.get(c)?.assignedBundle ?? null,
      isAvailable: (b, c) => this.isAvailable(b, c),
      effectiveOf: (b) => this.effectiveOf(b),
    });
    this.logs.recordRawValidations();
    const uploads: UploadContext = {
      stored: (name) => this.store.get(name),
      controllerEntries: (bundle, effective) => this.controllerEntries(bundle, { kind: "ok", bundle, effective }),
    };
    this.routes = new Map<string, Handler>([
      ["GET casc-bundle/list", () => json(200, { bundles: this.listBundles() })],
      ["GET casc-bundle/raw-bundle-validation-log", (r) => this.logs.raw(r)],
      ["GET casc-bundle/effective-bundle-validation-log", (r) => this.logs.effective(r)],
      ["GET config-bundle-download-link", (r) => this.downloadLink(r)],
      ["POST casc-bundle/check-out", (r) => this.checkOut(r)],
      ["POST casc-bundle/get-effective-bundle", (r) => getEffectiveBundle(r, uploads)],
      ["POST casc-bundle/regenerate-token", (r) => this.regenerateToken(r)],
      ["POST casc-bundle/set-availability-pattern", (r) => this.setAvailabilityPattern(r)],
      ["POST casc-bundle/set-global-availability-pattern-behavior", (r) => this.setVisibility(r)],
      ["POST casc-bundle/clear-availability-pattern", (r) => this.clearAvailabilityPattern(r)],
      ["POST casc-bundle/set-controller-to-bundle", (r) => this.setControllerToBundle(r, "controllerPath")],
      // Deprecated name of the same operation, still answered by real operations centers.
      ["POST casc-bundle/set-master-to-bundle", (r) => this.setControllerToBundle(r, "masterPath")],
      ["POST casc-bundle/set-default-bundle", (r) => this.setDefaultBundle(r)],
      ["POST casc-bundle/validate-uploaded-bundle", (r) => this.validateUploadedBundle(r)],
      ["POST casc-bundle/pre-validate-bundle", (r) => preValidateBundles(r, uploads)],
    ]);
  }

  /** undefined when the path is not an OC-only endpoint (the instance endpoints are tried next). */
  async handle(req: EmulatorRequest, subPath: string): Promise<Reply | undefined> {
    const handler = this.routes.get(`${req.method} ${subPath}`);
    return handler ? handler(req) : this.itemRoutes.handle(req, subPath);
  }

  // ------------------------------------------------------------ controllers (items of the operations center)

  private addController(fullPath: string, url: string): ControllerRecord {
    const record: ControllerRecord = {
      fullPath,
      token: newToken(),
      assignedBundle: null,
      instance: new Instance({ id: fullPath, label: fullPath, url, assigned: () => this.assignedTo(record) }),
    };
    this.controllers.set(fullPath, record);
    return record;
  }

  /**
   * After create-items: every controller item is a controller (new ones get a URL and a token), assigned the bundle
   * its item names when that bundle exists; an item that names none keeps the assignment it had, and says so.
   */
  private registerControllerItems(): void {
    for (const { fullName, node } of controllerItems(this.instance.items)) {
      const record = this.controllers.get(fullName) ?? this.addController(fullName, this.options.controllerUrlOf(fullName));
      // An item that names no bundle (`configurationAsCode: {}`) leaves the assignment to set-controller-to-bundle.
      const bundle = bundleOfItem(node);
      if (typeof bundle === "string" && this.store.get(bundle)) this.assign(record, bundle);
      else setBundleOfItem(node, record.assignedBundle);
    }
  }

  private removeControllers(fullNames: string[]): void {
    for (const name of fullNames) this.controllers.delete(name);
  }

  /** Assigns (or unassigns) a controller's bundle, and says so in its item, whose export then shows it. */
  private assign(record: ControllerRecord, bundle: string | null): void {
    record.assignedBundle = bundle;
    const node = this.instance.items.find(record.fullPath);
    if (node) setBundleOfItem(node, bundle);
  }

  // ------------------------------------------------------------ availability and assignment

  /** The pattern in force: set through the API, else bundle.yaml's, else "". */
  patternOf(bundle: string): { regex: string; fromYaml: boolean } {
    const api = this.apiPatterns.get(bundle);
    const yaml = this.yamlPattern(bundle);
    return { regex: api ?? yaml ?? "", fromYaml: api === undefined && yaml !== undefined };
  }

  private yamlPattern(bundle: string): string | undefined {
    const stored = this.store.get(bundle);
    if (!stored) return undefined;
    // Parsed once per check-out: a check-out stores new bundle objects.
    if (!this.yamlPatterns.has(stored)) {
      const desc = parseDescriptor(stored.files);
      const pattern = desc.ok ? desc.value["availabilityPattern"] : undefined;
      this.yamlPatterns.set(stored, typeof pattern === "string" ? pattern : undefined);
    }
    return this.yamlPatterns.get(stored);
  }

  /** Patterns that went past their time budget (bounded-pattern.ts): they fail at once from then on. */
  private readonly stalledPatterns = new Set<string>();

  /**
   * The controllers the pattern in force matches whole; without pattern, global visibility decides. A pattern that
   * backtracks past its budget throws PatternStalledError (a 500, see bounded-pattern.ts).
   */
  availableFor(bundle: string, controllers = this.controllerPaths()): string[] {
    const { regex } = this.patternOf(bundle);
    if (regex === "") return this.visibility ? [...controllers] : [];
    const compiled = compileAnchored(regex);
    return compiled.ok ? matchingControllers(bundle, compiled.value, controllers, this.stalledPatterns) : [];
  }

  isAvailable(bundle: string, controller: string): boolean {
    return this.availableFor(bundle, [controller]).length > 0;
  }

  usedBy(bundle: string): string[] {
    return this.controllerPaths().filter((c) => this.controllers.get(c)!.assignedBundle === bundle);
  }

  /** GET casc-bundle/list: each pattern compiled once, assignments gathered once (O(bundles + controllers) work). */
  private listBundles(): Record<string, unknown>[] {
    const controllers = this.controllerPaths();
    const users = new Map<string, string[]>();
    for (const c of controllers) {
      const bundle = this.controllers.get(c)!.assignedBundle;
      if (bundle === null) continue;
      const list = users.get(bundle);
      if (list) list.push(c);
      else users.set(bundle, [c]);
    }
    return this.store.names().map((name) => ({
      ...this.bundleInfo(name),
      usedBy: users.get(name) ?? [],
      availableFor: this.availableFor(name, controllers),
    }));
  }

  controllerPaths(): string[] {
    return [...this.controllers.keys()].sort();
  }

  preselectedBundleFor(controller: string): string | null {
    if (this.defaultBundle === null || !this.controllers.has(controller)) return null;
    return this.isAvailable(this.defaultBundle, controller) ? this.defaultBundle : null;
  }

  /** Bundle information; `usedBy` and `availableFor` only in list results (listBundles), as the spec says. */
  bundleInfo(name: string, token = ""): Record<string, unknown> {
    const url = bundleUrl(this.options.ocUrl, name);
    const { regex, fromYaml } = this.patternOf(name);
    const info: Record<string, unknown> = {
      name,
      linkFileContent: `${url}\n${token}`,
      url,
      token,
      regex,
      availabilityPatternFromYaml: fromYaml,
    };
    return info;
  }

  /** Effective bundle of a bundle of the location; cached until the next check-out. */
  effectiveOf(bundle: string): AssignedBundle {
    const cached = this.effectiveCache.get(bundle);
    if (cached) return cached;
    const stored = this.store.get(bundle);
    let result: AssignedBundle;
    if (!stored) {
      result = { kind: "missing", bundle };
    } else {
      try {
        result = { kind: "ok", bundle, effective: buildEffectiveBundle(stored, (p) => this.store.get(p)) };
      } catch (e) {
        if (!(e instanceof BundleInconsistencyError)) throw e;
        result = { kind: "broken", bundle, reason: e.message, inOwnFiles: e.inOwnFilesOf === bundle };
      }
    }
    this.effectiveCache.set(bundle, result);
    return result;
  }

  private assignedTo(record: ControllerRecord): AssignedBundle {
    return record.assignedBundle === null ? { kind: "none" } : this.effectiveOf(record.assignedBundle);
  }

  // ------------------------------------------------------------ endpoints

  private required(req: EmulatorRequest, name: string): string | Reply {
    const v = req.query[name];
    return v === undefined || v.trim() === "" ? missingParameter(name) : v;
  }

  private controllerParam(req: EmulatorRequest, name: string): ControllerRecord | Reply {
    const path = this.required(req, name);
    if (typeof path !== "string") return path;
    return this.controllers.get(path) ?? unknownController(path);
  }

  private bundleParam(req: EmulatorRequest, name = "bundleId"): StoredBundle | Reply {
    const id = this.required(req, name);
    if (typeof id !== "string") return id;
    return this.store.get(id) ?? unknownBundle(id);
  }

  private downloadLink(req: EmulatorRequest): Reply {
    const record = this.controllerParam(req, "id");
    if (isReply(record)) return record;
    if (record.assignedBundle === null) return noBundleAssigned(record.fullPath);
    return json(200, { url: bundleUrl(this.options.ocUrl, record.assignedBundle), token: record.token });
  }

  private regenerateToken(req: EmulatorRequest): Reply {
    const bundleOnly = (req.query["controllerPath"] ?? "") === "" && (req.query["bundleId"] ?? "") !== "";
    if (bundleOnly) return reading("regenerateTokenBundleId") === "honoured" ? this.regenerateBundleTokens(req) : deprecatedBundleIdOnly();
    const record = this.controllerParam(req, "controllerPath");
    if (isReply(record)) return record;
    if (record.assignedBundle === null) return noBundleAssigned(record.fullPath);
    record.token = newToken();
    return json(200, this.bundleInfo(record.assignedBundle, record.token));
  }

  /** The deprecated form: a new token for every controller the bundle is assigned to; the bundle's information. */
  private regenerateBundleTokens(req: EmulatorRequest): Reply {
    const bundle = this.bundleParam(req);
    if (isReply(bundle)) return bundle;
    for (const c of this.usedBy(bundle.name)) this.controllers.get(c)!.token = newToken();
    return json(200, this.bundleInfo(bundle.name));
  }

  private checkOut(req: EmulatorRequest): Reply {
    const timeout = req.query["timeout"];
    if (timeout !== undefined && !(/^\d+$/.test(timeout.trim()) && Number(timeout) > 0)) {
      return invalidParameter("timeout", `a positive number of seconds is expected (default ${DEFAULT_CHECKOUT_TIMEOUT_S})`);
    }
    const bundles = this.store.checkOut();
    this.effectiveCache = new Map();
    if (reading("vanishedBundleState") === "dropped") this.forgetVanishedBundles();
    this.logs.recordRawValidations();
    return json(200, {
      remotes: [
        {
          name: CHECKOUT_REMOTE_NAME,
          bundles: bundles.map((b) => ({ bundleName: b.name, localText: checkoutLocalText(b.lastModified) })),
        },
      ],
    });
  }

  private forgetVanishedBundles(): void {
    const present = new Set(this.store.names());
    for (const name of [...this.apiPatterns.keys()]) if (!present.has(name)) this.apiPatterns.delete(name);
    for (const c of this.controllers.values()) if (c.assignedBundle !== null && !present.has(c.assignedBundle)) this.assign(c, null);
    if (this.defaultBundle !== null && !present.has(this.defaultBundle)) this.defaultBundle = null;
  }

  private setAvailabilityPattern(req: EmulatorRequest): Reply {
    const bundle = this.bundleParam(req);
    if (isReply(bundle)) return bundle;
    const regex = req.query["regex"];
    if (regex === undefined) return missingParameter("regex");
    const compiled = compileAnchored(regex);
    if (!compiled.ok) return invalidRegex(regex, compiled.error);
    this.apiPatterns.set(bundle.name, regex);
    return json(200, { controllers: this.availableFor(bundle.name) });
  }

  private clearAvailabilityPattern(req: EmulatorRequest): Reply {
    const bundle = this.bundleParam(req);
    if (isReply(bundle)) return bundle;
    this.apiPatterns.delete(bundle.name);
    return json(200, { controllers: this.availableFor(bundle.name) });
  }

  private setVisibility(req: EmulatorRequest): Reply {
    const raw = this.required(req, "visibility");
    if (typeof raw !== "string") return raw;
    const value = raw.trim().toLowerCase();
    if (value !== "true" && value !== "false") return invalidParameter("visibility", "true or false is expected");
    this.visibility = value === "true";
    return json(200, { visibility: this.visibility });
  }

  private setControllerToBundle(req: EmulatorRequest, controllerParam: string): Reply {
    const bundle = this.bundleParam(req);
    if (isReply(bundle)) return bundle;
    const record = this.controllerParam(req, controllerParam);
    if (isReply(record)) return record;
    if (!this.isAvailable(bundle.name, record.fullPath)) return bundleNotAvailable(bundle.name, record.fullPath);
    this.assign(record, bundle.name);
    return json(200, this.bundleInfo(bundle.name, record.token));
  }

  private setDefaultBundle(req: EmulatorRequest): Reply {
    const bundle = this.bundleParam(req);
    if (isReply(bundle)) return bundle;
    // Ordering rule 2: only recorded; controllers get it pre-selected, never assigned.
    this.defaultBundle = bundle.name;
    return json(200, this.bundleInfo(bundle.name));
  }

  private controllerEntries(bundle: string, effective: AssignedBundle): { controller: string; status: string; findings: Finding[] }[] {
    const controllers = [...new Set([...this.usedBy(bundle), ...this.availableFor(bundle)])].sort();
    return controllers.map((controller) => ({
      controller,
      status: CONTROLLER_STATUS,
      findings: [
        effective.kind === "ok" && effective.effective.errors === 0
          ? { level: "INFO", code: "CONTVAL", message: `Effective bundle version '${effective.effective.version}' can be applied to controller '${controller}'.` }
          : { level: "WARNING", code: "CONTVAL", message: `The effective bundle cannot be applied to controller '${controller}'; see the structure validations.` },
      ] as Finding[],
    }));
  }

  private validateUploadedBundle(req: EmulatorRequest): Reply {
    const bundle = this.bundleParam(req);
    if (isReply(bundle)) return bundle;
    const effective = this.effectiveOf(bundle.name);
    const structure = validateBundle(bundle.files, { uploaded: false, folderProblems: bundle.problems });
    // Faults in the bundle's own files are in its raw validation already; those of its ancestors are not.
    if (effective.kind === "broken" && !effective.inOwnFiles) structure.push({ level: "ERROR", code: "STRUCTURE", message: effective.reason });
    if (effective.kind === "ok") structure.push(...effective.effective.conflicts);
    return json(200, validationResult(structure, this.controllerEntries(bundle.name, effective), queryFlag(req.query, "quiet")));
  }

}

function isReply(value: unknown): value is Reply {
  return typeof value === "object" && value !== null && "status" in value && "body" in value && Buffer.isBuffer((value as Reply).body);
}
