import {
  compileAnchored,
  Descriptor,
  isMapping,
  isYamlName,
  KNOWN_DESCRIPTOR_KEYS,
  parseDescriptor,
  parseYaml,
  resolveEntry,
  scalarProp,
  SECTION_KEYS,
  SectionKey,
  sectionEntries,
} from "./descriptor";
import { STRUCTURE_MESSAGE_WITHOUT_PREFIX, UPLOADED_PARENT_IS_WARNING } from "./undocumented-behaviour";
import type { FileMap } from "./zip";

export type Level = "INFO" | "WARNING" | "ERROR";

/** Tags of the controller plugin's validators, as they appear in message strings. */
export type Tag =
  | "APIVAL"
  | "VERSIONVAL"
  | "DESCVAL"
  | "STRUCTURE"
  | "SCHEMA"
  | "CATALOGVAL"
  | "CONTVAL"
  | "JCASCSTRATEGY"
  | "ITEMSTRATEGY";

export interface Finding {
  level: Level;
  tag: Tag;
  text: string;
}

export interface StructureValidation {
  level: Level;
  validationCode: string;
  message: string;
}

/** validationCode (validation result objects) for each message tag. */
export function validationCodeOf(tag: Tag): string {
  const codes: Record<Tag, string> = {
    APIVAL: "BUNDLE_API",
    VERSIONVAL: "BUNDLE_VERSION",
    DESCVAL: "DESCRIPTOR",
    STRUCTURE: "BUNDLE_STRUCTURE",
    SCHEMA: "SCHEMA",
    CATALOGVAL: "PLUGIN_CATALOG",
    CONTVAL: "BUNDLE_CONTENT",
    JCASCSTRATEGY: "BUNDLE_JCASC_STRATEGY",
    ITEMSTRATEGY: "BUNDLE_ITEM_STRATEGY",
  };
  return codes[tag];
}

export function formatMessage(f: Finding): string {
  return `${f.level} - [${f.tag}] - ${f.text}`;
}

export function toStructureValidation(f: Finding): StructureValidation {
  return { level: f.level, validationCode: validationCodeOf(f.tag), message: STRUCTURE_MESSAGE_WITHOUT_PREFIX ? f.text : formatMessage(f) };
}

/** quiet=true keeps only WARNING and ERROR. */
export function applyQuiet(findings: Finding[], quiet: boolean): Finding[] {
  return quiet ? findings.filter((f) => f.level !== "INFO") : findings;
}

export function countLevels(findings: Finding[]): { errors: number; warnings: number; info: number } {
  return {
    errors: findings.filter((f) => f.level === "ERROR").length,
    warnings: findings.filter((f) => f.level === "WARNING").length,
    info: findings.filter((f) => f.level === "INFO").length,
  };
}

const err = (tag: Tag, text: string): Finding => ({ level: "ERROR", tag, text });
const warn = (tag: Tag, text: string): Finding => ({ level: "WARNING", tag, text });
const unsupportedInUpload = (text: string): Finding => (UPLOADED_PARENT_IS_WARNING ? warn : err)("DESCVAL", text);

function isIntegerLike(v: unknown): boolean {
  if (typeof v === "number") return Number.isInteger(v);
  return typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v);
}

function checkDescriptorProperties(desc: Descriptor, uploaded: boolean): Finding[] {
  const out: Finding[] = [];
  if (scalarProp(desc, "id") === undefined || scalarProp(desc, "id")!.trim() === "") {
    out.push(err("DESCVAL", "Missing id property in the bundle.yaml file."));
  }
  if (desc["apiVersion"] === undefined || desc["apiVersion"] === null) {
    out.push(err("APIVAL", "Missing apiVersion property in the bundle.yaml file."));
  } else if (!isIntegerLike(desc["apiVersion"])) {
    out.push(err("APIVAL", "'apiVersion' property in the bundle.yaml file must be an integer."));
  } else if (![1, 2].includes(Number(desc["apiVersion"]))) {
    out.push(err("APIVAL", "'apiVersion' property in the bundle.yaml file must be 1 or 2."));
  }
  const version = desc["version"];
  if (version === undefined || version === null || (typeof version === "string" && version.trim() === "")) {
    out.push(err("VERSIONVAL", "Missing version property in the bundle.yaml file."));
  } else if (scalarProp(desc, "version") === undefined) {
    out.push(err("VERSIONVAL", "'version' property in the bundle.yaml file must be a string."));
  }
  for (const key of Object.keys(desc)) {
    if (!KNOWN_DESCRIPTOR_KEYS.includes(key)) out.push(warn("DESCVAL", `Unknown property '${key}' in the bundle.yaml file.`));
  }
  if (desc["parent"] !== undefined) {
    if (uploaded) {
      out.push(unsupportedInUpload("The 'parent' property is not supported for bundles uploaded through the API; it is ignored."));
    } else if (typeof desc["parent"] !== "string" || desc["parent"].trim() === "") {
      out.push(err("DESCVAL", "The 'parent' property in the bundle.yaml file must be a bundle folder name."));
    }
  }
  if (desc["availabilityPattern"] !== undefined) {
    const pattern = desc["availabilityPattern"];
    if (uploaded) {
      out.push(unsupportedInUpload("The 'availabilityPattern' property is not supported for bundles uploaded through the API; it is ignored."));
    } else if (typeof pattern !== "string") {
      out.push(err("DESCVAL", "The 'availabilityPattern' property in the bundle.yaml file must be a string."));
    } else {
      const compiled = compileAnchored(pattern);
      if (!compiled.ok) out.push(err("DESCVAL", `Invalid availabilityPattern '${pattern}': ${compiled.error}`));
    }
  }
  const merge = desc["jcascMergeStrategy"];
  if (merge !== undefined && !(typeof merge === "string" && ["errorOnConflict", "override"].includes(merge))) {
    out.push(err("JCASCSTRATEGY", `Invalid jcascMergeStrategy '${String(merge)}': use errorOnConflict or override.`));
  }
  const remove = desc["itemRemoveStrategy"];
  if (remove !== undefined) {
    const items = isMapping(remove) ? remove["items"] : undefined;
    const rbac = isMapping(remove) ? remove["rbac"] : undefined;
    const okItems = items === undefined || (typeof items === "string" && ["none", "sync", "remove-supported", "remove-all"].includes(items.toLowerCase()));
    const okRbac = rbac === undefined || (typeof rbac === "string" && ["update", "sync"].includes(rbac.toLowerCase()));
    if (!isMapping(remove) || !okItems || !okRbac) {
      out.push(
        err(
          "ITEMSTRATEGY",
          "Invalid itemRemoveStrategy: items must be none, sync, remove-supported or remove-all; rbac must be update or sync.",
        ),
      );
    }
  }
  return out;
}

/** Light content checks of one referenced file, by section. */
function checkSectionFile(section: SectionKey, name: string, content: Buffer): Finding[] {
  const parsed = parseYaml(content);
  if (!parsed.ok) return [err("SCHEMA", `The file '${name}' is not valid YAML: ${parsed.error}`)];
  const doc = parsed.value;
  if (doc === null || doc === undefined) return [];
  if (!isMapping(doc)) return [err("SCHEMA", `The file '${name}' must hold a YAML mapping.`)];
  switch (section) {
    case "plugins": {
      const list = doc["plugins"];
      const ok = Array.isArray(list) && list.every((p) => isMapping(p) && typeof p["id"] === "string");
      return ok ? [] : [err("SCHEMA", `The file '${name}' must hold a 'plugins' list of entries with an 'id'.`)];
    }
    case "items": {
      const list = doc["items"];
      const ok =
        Array.isArray(list) &&
        list.every((i) => isMapping(i) && typeof i["kind"] === "string" && typeof i["name"] === "string");
      return ok ? [] : [err("SCHEMA", `The file '${name}' must hold an 'items' list of entries with 'kind' and 'name'.`)];
    }
    case "catalog":
      return doc["type"] === "plugin-catalog"
        ? []
        : [err("CATALOGVAL", `The file '${name}' must be a plugin catalog ('type: plugin-catalog').`)];
    default:
      return [];
  }
}

/**
 * Structural and light content validation of one bundle (raw or effective). `uploaded` marks bundles sent through
 * the API, where parent and availabilityPattern are not supported.
 */
export function validateBundle(files: FileMap, options: { uploaded: boolean }): Finding[] {
  const parsed = parseDescriptor(files);
  if (!parsed.ok) return [err(files.has("bundle.yaml") ? "DESCVAL" : "STRUCTURE", parsed.error)];
  const desc = parsed.value;
  const findings = checkDescriptorProperties(desc, options.uploaded);
  const referenced = new Set<string>(["bundle.yaml"]);
  for (const section of SECTION_KEYS) {
    const entries = sectionEntries(desc, section);
    if (!entries.ok) {
      findings.push(err("STRUCTURE", entries.error));
      continue;
    }
    const sectionFiles: string[] = [];
    for (const entry of entries.value) {
      const resolved = resolveEntry(files, entry);
      if (!resolved) {
        findings.push(err("STRUCTURE", `The file '${entry}' referenced in section '${section}' does not exist in the bundle.`));
        continue;
      }
      for (const f of resolved) {
        referenced.add(f);
        if (!isYamlName(f)) {
          findings.push(err("STRUCTURE", `The folder '${entry}' referenced in section '${section}' holds a file that is not YAML: '${f}'.`));
        } else {
          sectionFiles.push(f);
        }
      }
    }
    if (section === "catalog" && sectionFiles.length > 1) {
      findings.push(warn("CATALOGVAL", "More than one plugin catalog file is referenced; only one plugin catalog is supported."));
    }
    for (const f of sectionFiles) findings.push(...checkSectionFile(section, f, files.get(f)!));
  }
  for (const name of [...files.keys()].sort()) {
    if (!referenced.has(name)) findings.push(warn("STRUCTURE", `The file '${name}' is not referenced in the bundle.yaml file.`));
  }
  const id = scalarProp(desc, "id") ?? "";
  const version = scalarProp(desc, "version") ?? "";
  findings.unshift({
    level: "INFO",
    tag: "STRUCTURE",
    text: `Bundle '${id}' version '${version}': ${referenced.size - 1} file(s) referenced by the bundle.yaml file.`,
  });
  return findings;
}

export interface ControllerValidation {
  controller: string;
  controllerStatus: string;
  validations: StructureValidation[];
}

export interface ValidationResult {
  valid: boolean;
  errorCount: number;
  structureValidations: StructureValidation[];
  controllerValidations: ControllerValidation[];
}

/** The validation result object; errorCount and valid are computed before quiet drops the INFO entries. */
export function validationResult(
  structure: Finding[],
  controllers: { controller: string; status: string; findings: Finding[] }[],
  quiet: boolean,
): ValidationResult {
  const errorCount =
    countLevels(structure).errors + controllers.reduce((n, c) => n + countLevels(c.findings).errors, 0);
  return {
    valid: errorCount === 0,
    errorCount,
    structureValidations: applyQuiet(structure, quiet).map(toStructureValidation),
    controllerValidations: controllers.map((c) => ({
      controller: c.controller,
      controllerStatus: c.status,
      validations: applyQuiet(c.findings, quiet).map(toStructureValidation),
    })),
  };
}
