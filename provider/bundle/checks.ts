import { regexProblem } from "./java-regex";
import {
  apiVersionProblem,
  Descriptor,
  isMapping,
  isYamlName,
  jcascMergeStrategyProblem,
  KNOWN_DESCRIPTOR_KEYS,
  missingEntryProblem,
  parseDescriptor,
  parseYaml,
  removeStrategyProblem,
  resolveEntry,
  scalarProp,
  SECTION_KEYS,
  SectionKey,
  sectionEntries,
} from "./descriptor";
import { DESCRIPTOR_FILE, type FileMap } from "./files";
import type { BundleMessage, Level, MessageCode } from "./messages";

// The structural and light content checks of one bundle, the same offline (lintBundle) as in the emulator's
// server-side validations, so that a bundle that lints clean is one the server accepts.

export interface CheckOptions {
  /**
   * Set for a bundle sent through the API (casc-bundle-validate), where `parent` and `availabilityPattern` are
   * not supported: the level of the message saying so. Unset: a bundle of a bundle location.
   */
  uploadedPropertiesLevel?: "WARNING" | "ERROR";
}

const msg = (level: Level, code: MessageCode, message: string, file?: string, line?: number): BundleMessage => ({
  level,
  code,
  message,
  ...(file === undefined ? {} : { file }),
  ...(line === undefined ? {} : { line }),
});
const err = (code: MessageCode, message: string, file?: string, line?: number) => msg("ERROR", code, message, file, line);
const warn = (code: MessageCode, message: string, file?: string) => msg("WARNING", code, message, file);

function checkDescriptorProperties(desc: Descriptor, options: CheckOptions): BundleMessage[] {
  const out: BundleMessage[] = [];
  const at = DESCRIPTOR_FILE;
  if (scalarProp(desc, "id") === undefined || scalarProp(desc, "id")!.trim() === "") {
    out.push(err("DESCVAL", "Missing id property in the bundle.yaml file.", at));
  }
  const api = apiVersionProblem(desc["apiVersion"]);
  if (api) out.push(err("APIVAL", api, at));
  const version = desc["version"];
  if (version === undefined || version === null || (typeof version === "string" && version.trim() === "")) {
    out.push(err("VERSIONVAL", "Missing version property in the bundle.yaml file.", at));
  } else if (scalarProp(desc, "version") === undefined) {
    out.push(err("VERSIONVAL", "'version' property in the bundle.yaml file must be a string.", at));
  }
  for (const key of Object.keys(desc)) {
    if (!KNOWN_DESCRIPTOR_KEYS.includes(key)) out.push(warn("DESCVAL", `Unknown property '${key}' in the bundle.yaml file.`, at));
  }
  const uploaded = options.uploadedPropertiesLevel;
  if (desc["parent"] !== undefined) {
    if (uploaded) {
      out.push(msg(uploaded, "DESCVAL", "The 'parent' property is not supported for bundles uploaded through the API; it is ignored.", at));
    } else if (typeof desc["parent"] !== "string" || desc["parent"].trim() === "") {
      out.push(err("DESCVAL", "The 'parent' property in the bundle.yaml file must be a bundle folder name.", at));
    }
  }
  const pattern = desc["availabilityPattern"];
  if (pattern !== undefined) {
    if (uploaded) {
      out.push(
        msg(uploaded, "DESCVAL", "The 'availabilityPattern' property is not supported for bundles uploaded through the API; it is ignored.", at),
      );
    } else if (typeof pattern !== "string") {
      out.push(err("DESCVAL", "The 'availabilityPattern' property in the bundle.yaml file must be a string.", at));
    } else {
      const problem = regexProblem(pattern);
      if (problem) out.push(err("DESCVAL", `Invalid availabilityPattern '${pattern}': ${problem}`, at));
    }
  }
  const merge = jcascMergeStrategyProblem(desc["jcascMergeStrategy"]);
  if (merge) out.push(err("JCASCSTRATEGY", merge, at));
  const remove = removeStrategyProblem(desc["itemRemoveStrategy"], "itemRemoveStrategy");
  if (remove) out.push(err("ITEMSTRATEGY", remove, at));
  return out;
}

/** Light content checks of one referenced file, by section. */
function checkSectionFile(section: SectionKey, name: string, content: Buffer): BundleMessage[] {
  const parsed = parseYaml(content);
  if (!parsed.ok) return [err("SCHEMA", `The file '${name}' is not valid YAML: ${parsed.error}.`, name, parsed.line)];
  const doc = parsed.value;
  if (doc === null || doc === undefined) return [];
  if (!isMapping(doc)) return [err("SCHEMA", `The file '${name}' must hold a YAML mapping.`, name)];
  const out: BundleMessage[] = [];
  if (section === "items" || section === "rbac") {
    const remove = removeStrategyProblem(doc["removeStrategy"], `removeStrategy in the file '${name}'`);
    if (remove) out.push(err("ITEMSTRATEGY", remove, name));
  }
  switch (section) {
    case "plugins": {
      const list = doc["plugins"];
      const ok = Array.isArray(list) && list.every((p) => isMapping(p) && typeof p["id"] === "string");
      if (!ok) out.push(err("SCHEMA", `The file '${name}' must hold a 'plugins' list of entries with an 'id'.`, name));
      break;
    }
    case "items": {
      const list = doc["items"];
      const ok =
        Array.isArray(list) && list.every((i) => isMapping(i) && typeof i["kind"] === "string" && typeof i["name"] === "string");
      if (!ok) out.push(err("SCHEMA", `The file '${name}' must hold an 'items' list of entries with 'kind' and 'name'.`, name));
      break;
    }
    case "catalog":
      if (doc["type"] !== "plugin-catalog") {
        out.push(err("CATALOGVAL", `The file '${name}' must be a plugin catalog ('type: plugin-catalog').`, name));
      }
      break;
    default:
      break;
  }
  return out;
}

/**
 * Validates one bundle (raw or effective): descriptor properties, section lists, every referenced file or folder
 * exists and is YAML, YAML syntax and light shapes of the section files, at most one plugin catalog (WARNING), and
 * files no section references (WARNING). A bundle with a readable descriptor gets one INFO line first.
 */
export function checkBundleFiles(files: FileMap, options: CheckOptions = {}): BundleMessage[] {
  const parsed = parseDescriptor(files);
  if (!parsed.ok) {
    return [err(files.has(DESCRIPTOR_FILE) ? "DESCVAL" : "STRUCTURE", parsed.error, DESCRIPTOR_FILE, parsed.line)];
  }
  const desc = parsed.value;
  const messages = checkDescriptorProperties(desc, options);
  const referenced = new Set<string>([DESCRIPTOR_FILE]);
  for (const section of SECTION_KEYS) {
    const entries = sectionEntries(desc, section);
    if (!entries.ok) {
      messages.push(err("STRUCTURE", entries.error, DESCRIPTOR_FILE));
      continue;
    }
    const sectionFiles: string[] = [];
    for (const entry of entries.value) {
      const resolved = resolveEntry(files, entry);
      if (!resolved) {
        messages.push(err("STRUCTURE", missingEntryProblem(entry, section), DESCRIPTOR_FILE));
        continue;
      }
      for (const f of resolved) {
        referenced.add(f);
        if (!isYamlName(f)) {
          messages.push(err("STRUCTURE", `The folder '${entry}' referenced in section '${section}' holds a file that is not YAML: '${f}'.`, f));
        } else {
          sectionFiles.push(f);
        }
      }
    }
    if (section === "catalog" && sectionFiles.length > 1) {
      messages.push(warn("CATALOGVAL", "More than one plugin catalog file is referenced; only one plugin catalog is supported.", DESCRIPTOR_FILE));
    }
    for (const f of sectionFiles) messages.push(...checkSectionFile(section, f, files.get(f)!));
  }
  for (const name of [...files.keys()].sort()) {
    if (!referenced.has(name)) messages.push(warn("STRUCTURE", `The file '${name}' is not referenced in the bundle.yaml file.`, name));
  }
  const id = scalarProp(desc, "id") ?? "";
  const version = scalarProp(desc, "version") ?? "";
  messages.unshift(
    msg("INFO", "STRUCTURE", `Bundle '${id}' version '${version}': ${referenced.size - 1} file(s) referenced by the bundle.yaml file.`),
  );
  return messages;
}
