import { countLevels, Finding, formatMessage, validateBundle } from "./bundle-validation";
import { BundleStore } from "./bundle-store";
import { logDate, logFolder } from "./dates";
import { compileAnchored, parseDescriptor, scalarProp } from "./descriptor";
import { EmulatorRequest, json, Reply } from "./http";
import { AssignedBundle } from "./instance";
import { reading } from "./readings";
import { invalidRegex, queryFlag, unknownBundle, UPDATE_LOG_RETENTION } from "./undocumented-behaviour";

interface RawLogRecord {
  version: string;
  errors: number;
  warnings: number;
  info: number;
  messages: string[];
  folder: string;
  date: string;
  contentHash: string;
}

/** What the logs read of the operations center. */
export interface BundleLocationView {
  readonly store: BundleStore;
  controllerPaths(): string[];
  assignedBundleOf(controller: string): string | null;
  isAvailable(bundle: string, controller: string): boolean;
  effectiveOf(bundle: string): AssignedBundle;
}

/** The operations center's raw and effective bundle validation logs (GET casc-bundle/*-validation-log). */
export class ValidationLogs {
  private readonly rawLogs = new Map<string, RawLogRecord[]>();
  private sequence = 0;

  constructor(private readonly oc: BundleLocationView) {}

  /** Appends a raw validation record for every bundle whose files changed since its last record. */
  recordRawValidations(): void {
    const now = new Date();
    for (const bundle of this.oc.store.all()) {
      const records = this.rawLogs.get(bundle.name) ?? [];
      if (records[0]?.contentHash === bundle.contentHash) continue;
      const findings = validateBundle(bundle.files, { uploaded: false, folderProblems: bundle.problems });
      const desc = parseDescriptor(bundle.files);
      const { errors, warnings, info } = countLevels(findings);
      this.sequence += 1;
      records.unshift({
        version: (desc.ok ? scalarProp(desc.value, "version") : undefined) ?? "N/A",
        errors,
        warnings,
        info,
        messages: findings.map(formatMessage),
        folder: logFolder(now, this.sequence),
        date: logDate(now),
        contentHash: bundle.contentHash,
      });
      this.rawLogs.set(bundle.name, records.slice(0, UPDATE_LOG_RETENTION));
    }
  }

  /** GET casc-bundle/raw-bundle-validation-log[?bundle=][&controller=true] */
  raw(req: EmulatorRequest): Reply {
    const filter = req.query["bundle"];
    if (filter !== undefined && filter !== "" && !this.oc.store.get(filter)) return unknownBundle(filter);
    const withControllers = queryFlag(req.query, "controller");
    const names = this.oc.store.names().filter((n) => !filter || n === filter);
    return json(200, {
      "validation-log": names.map((name) => {
        const entry: Record<string, unknown> = {
          "bundle-id": name,
          records: (this.rawLogs.get(name) ?? []).map(rawRecordJson),
        };
        if (withControllers) {
          entry["controllers"] = this.oc
            .controllerPaths()
            .filter((c) => this.bundlesOf(c).includes(name))
            .map((c) => ({ controller: c, records: [this.effectiveRecord(c, name)] }));
        }
        return entry;
      }),
    });
  }

  /** GET casc-bundle/effective-bundle-validation-log[?controller=<regex>] */
  effective(req: EmulatorRequest): Reply {
    const filter = req.query["controller"];
    let matches: (c: string) => boolean = () => true;
    if (filter !== undefined && filter !== "") {
      const compiled = compileAnchored(filter);
      if (!compiled.ok) return invalidRegex(filter, compiled.error);
      const name = (c: string): string => c.slice(c.lastIndexOf("/") + 1);
      const byName = reading("controllerFilter") === "full-path-or-name";
      matches = (c) => compiled.value.test(c) || (byName && compiled.value.test(name(c)));
    }
    return json(200, {
      "validation-log": this.oc
        .controllerPaths()
        .filter(matches)
        .map((c) => ({ controller: c, records: this.bundlesOf(c).map((b) => this.effectiveRecord(c, b)) })),
    });
  }

  private effectiveRecord(controller: string, bundle: string): Record<string, unknown> {
    const raw = this.rawLogs.get(bundle)?.[0];
    const eff = this.oc.effectiveOf(bundle);
    let findings: Finding[];
    let version: string;
    if (eff.kind === "ok") {
      findings = eff.effective.findings;
      version = eff.effective.version;
    } else {
      findings = [{ level: "ERROR", code: "STRUCTURE", message: eff.kind === "broken" ? eff.reason : `Bundle '${bundle}' not found` }];
      version = raw?.version ?? "N/A";
    }
    const { errors, warnings, info } = countLevels(findings);
    const out: Record<string, unknown> = {
      bundle,
      assigned: this.oc.assignedBundleOf(controller) === bundle,
      version,
      errors,
      warnings,
      info,
    };
    if (findings.length > 0) out["messages"] = findings.map(formatMessage);
    out["folder"] = raw?.folder ?? "";
    out["date"] = raw?.date ?? "";
    return out;
  }

  /** Bundles an effective log covers for a controller: the ones it may use plus the one assigned. */
  private bundlesOf(controller: string): string[] {
    const assigned = this.oc.assignedBundleOf(controller);
    return this.oc.store.names().filter((b) => b === assigned || this.oc.isAvailable(b, controller));
  }
}

function rawRecordJson(r: RawLogRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { version: r.version, errors: r.errors, warnings: r.warnings, info: r.info };
  if (r.messages.length > 0) out["messages"] = r.messages;
  out["folder"] = r.folder;
  out["date"] = r.date;
  return out;
}
