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
  allowCapExceptionsProblem,
  removeStrategyProblem,
  resolveEntry,
  scalarProp,
  SECTION_KEYS,
  SectionKey,
  sectionEntries,
} from "./descriptor";
import { DESCRIPTOR_FILE, type FileMap } from "./files";
import { jcascStrategyOf, mergeJcascFiles, mergeProblemText } from "./jcasc";
import type { BundleMessage, Level, MessageCode } from "./messages";
import { rbacStrategyProblem } from "./rbac-strategy";
import { successLines } from "./success-lines";
import { cascToJs, type CascNode, type DuplicateKey, readYaml } from "./yaml-reader";

// The structural and light content checks of one bundle, the same offline (lintBundle) as in the emulator's
// server-side validations, so that a bundle that lints clean is one the server accepts.

export interface CheckOptions {
  /** What the folder reader could not read (links, special files): reported after the descriptor's checks. */
  folderProblems?: BundleMessage[];
  /**
   * Set for a bundle sent through the API (casc-bundle-validate), where `parent` and `availabilityPattern` are
   * not supported: the level of the message saying so. Unset: a bundle of a bundle location.
   */
  uploadedPropertiesLevel?: "WARNING" | "ERROR";
  /** A plugins.yaml mapping with no `plugins` list (the emulator's reading pluginsWithoutList). Default: refused. */
  pluginsWithoutList?: PluginsWithoutList;
}

/**
 * What a server makes of a plugins.yaml that holds a mapping but no `plugins` list (absent or null): no public
 * source decides (the product's plugins schema is not public), so it is a choice. `refused`: an ERROR [SCHEMA], as
 * our own plugins.json schema requires the list; `no-plugins`: a file that installs nothing.
 */
export type PluginsWithoutList = "refused" | "no-plugins";

const msg = (level: Level, code: MessageCode, message: string, file?: string, line?: number): BundleMessage => ({
  level,
  code,
  message,
  ...(file === undefined ? {} : { file }),
  ...(line === undefined ? {} : { line }),
});
const err = (code: MessageCode, message: string, file?: string, line?: number) => msg("ERROR", code, message, file, line);
const warn = (code: MessageCode, message: string, file?: string, line?: number) => msg("WARNING", code, message, file, line);

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
  const capExceptions = allowCapExceptionsProblem(desc["allowCapExceptions"]);
  if (capExceptions) out.push(err("DESCVAL", capExceptions, at));
  const merge = jcascMergeStrategyProblem(desc["jcascMergeStrategy"]);
  if (merge) out.push(err("JCASCSTRATEGY", merge, at));
  const remove = removeStrategyProblem(desc["itemRemoveStrategy"], "itemRemoveStrategy");
  if (remove) out.push(err("ITEMSTRATEGY", remove, at));
  return out;
}

/**
 * The controller validators that read one section's files (JCasCValidatorExtension, PluginsValidatorExtension,
 * PluginCatalogValidatorExtension, RbacValidatorExtension, ItemsValidatorExtension): their tag and how they name the
 * section in AbstractValidator.checkFiles' "references X in the <section> section that ...".
 */
const SECTION_VALIDATORS: Partial<Record<SectionKey, { code: MessageCode; section: string }>> = {
  jcasc: { code: "JCASC", section: "Jenkins Configuration as Code" },
  plugins: { code: "PLUGINVAL", section: "plugins" },
  catalog: { code: "CATALOGVAL", section: "plugin catalog" },
  rbac: { code: "RBAC", section: "RBAC" },
  items: { code: "ITEMS", section: "items" },
};

/** checkFiles' two findings: entries naming nothing, and files that are empty or not YAML. */
const SECTION_FILE_FAULTS = {
  missing: "cannot be found",
  unusable: "is empty or has an invalid yaml format",
} as const;

/** One ERROR of the section's validator naming every file of `names` (entries as bundle.yaml writes them). */
function sectionFilesMessage(section: SectionKey, fault: keyof typeof SECTION_FILE_FAULTS, names: string[]): BundleMessage[] {
  const validator = SECTION_VALIDATORS[section];
  if (!validator || names.length === 0) return [];
  const text = `The bundle.yaml file references ${names.join(", ")} in the ${validator.section} section that ${SECTION_FILE_FAULTS[fault]}. Impossible to validate ${validator.section}.`;
  return [err(validator.code, text, fault === "missing" ? DESCRIPTOR_FILE : names[0])];
}

function duplicateKeyWarning(d: DuplicateKey, merged: boolean): BundleMessage {
  const outcome = merged ? "the values are merged as JCasC merges files" : "the second value replaces the first";
  return warn(
    merged ? "JCASC" : "SCHEMA",
    `The key '${d.path}' is set twice in the file '${d.file}' (lines ${d.firstLine} and ${d.secondLine}); ${outcome}.`,
    d.file,
    d.secondLine,
  );
}

/** A mapping with at least one key: what the section validators accept (null, `{}`, lists and scalars are refused). */
const isNonEmptyMapping = (node: CascNode | null): boolean => node !== null && node.kind === "map" && node.entries.size > 0;

/** A key a file leaves out or sets to null (`items:`): it holds nothing there. */
const absent = (value: unknown): boolean => value === undefined || value === null;
const emptyList = (value: unknown): boolean => absent(value) || (Array.isArray(value) && value.length === 0);

/** Light shapes of one readable section file (the plugin's schemas are not public; these are the keys real bundles use). */
function checkSectionShape(section: SectionKey, name: string, doc: Record<string, unknown>, options: CheckOptions): BundleMessage[] {
  const out: BundleMessage[] = [];
  if (section === "items" || section === "rbac") {
    const remove = removeStrategyProblem(doc["removeStrategy"], `removeStrategy in the file '${name}'`);
    if (remove) out.push(err("ITEMSTRATEGY", remove, name));
  }
  switch (section) {
    case "plugins": {
      const list = doc["plugins"];
      if (absent(list) && options.pluginsWithoutList === "no-plugins") break;
      const ok = Array.isArray(list) && list.every((p) => isMapping(p) && typeof p["id"] === "string");
      if (!ok) out.push(err("SCHEMA", `The file '${name}' must hold a 'plugins' list of entries with an 'id'.`, name));
      break;
    }
    case "items": {
      const list = doc["items"];
      // The items validator warns of "Empty (no items) yaml file" (workshop validation-details.json, ItemsValidator):
      // what a controller without items exports (only removeStrategy).
      if (emptyList(list)) {
        out.push(warn("ITEMS", `The file '${name}' defines no items.`, name));
        break;
      }
      const ok =
        Array.isArray(list) && list.every((i) => isMapping(i) && typeof i["kind"] === "string" && typeof i["name"] === "string");
      if (!ok) out.push(err("SCHEMA", `The file '${name}' must hold an 'items' list of entries with 'kind' and 'name'.`, name));
      break;
    }
    case "rbac":
      // RbacValidator: "RBAC file is present but doesn't define any configuration, generating a warning" (workshop
      // validation-details.json): a file with only its remove strategy.
      if (emptyList(doc["roles"]) && emptyList(doc["groups"])) out.push(warn("RBAC", `The file '${name}' defines no roles and no groups.`, name));
      break;
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

const syntaxError = (name: string, error: string, line?: number): BundleMessage =>
  err("SCHEMA", `The file '${name}' is not valid YAML: ${error}.`, name, line);

/** What one section's files gave: their messages, and whether every file was usable (checkFiles found nothing). */
interface SectionCheck {
  messages: BundleMessage[];
  usable: boolean;
}

/** The jcasc section: each file read, then all merged as JCasC merges them with the bundle's strategy. */
function checkJcascFiles(files: FileMap, names: string[], strategy: unknown): SectionCheck & { merged: CascNode | null } {
  const merge = mergeJcascFiles(files, names, jcascStrategyOf(strategy));
  const out: BundleMessage[] = merge.unreadable.map((u) => syntaxError(u.name, u.error, u.line));
  out.push(...merge.duplicates.map((d) => duplicateKeyWarning(d, true)));
  const unusable = [...merge.unreadable.map((u) => u.name), ...merge.read.filter((f) => !isNonEmptyMapping(f.node)).map((f) => f.name)];
  out.push(...sectionFilesMessage("jcasc", "unusable", names.filter((n) => unusable.includes(n))));
  out.push(...merge.problems.map((p) => err("JCASCSTRATEGY", mergeProblemText(p), p.second.file, p.second.line)));
  return { messages: out, usable: unusable.length === 0, merged: merge.node };
}

/** Another section's files: SnakeYAML reading (a key set twice keeps its last value) and light shapes. */
function checkOtherFiles(files: FileMap, section: SectionKey, names: string[], options: CheckOptions): SectionCheck {
  const out: BundleMessage[] = [];
  const unusable: string[] = [];
  for (const name of names) {
    const read = readYaml(files.get(name)!, { file: name });
    if (!read.ok) {
      out.push(syntaxError(name, read.error, read.line));
      unusable.push(name);
      continue;
    }
    out.push(...read.duplicates.map((d) => duplicateKeyWarning(d, false)));
    if (!isNonEmptyMapping(read.node)) {
      // variables have no section validator: only a document that is not a mapping is refused.
      if (section !== "variables") unusable.push(name);
      else if (read.node !== null && read.node.kind !== "map") out.push(err("SCHEMA", `The file '${name}' must hold a YAML mapping.`, name));
      continue;
    }
    out.push(...checkSectionShape(section, name, cascToJs(read.node) as Record<string, unknown>, options));
  }
  out.push(...sectionFilesMessage(section, "unusable", unusable));
  return { messages: out, usable: unusable.length === 0 };
}

/**
 * Validates one bundle (raw or effective) as the server's validators do: descriptor properties, section lists
 * (every entry exists, CONTVAL, and again in the section validator's words; names a folder or a YAML file, DESCVAL),
 * each section's files readable and not empty (the section's validator tag), jcasc files merged with the bundle's
 * jcascMergeStrategy (JCASCSTRATEGY), an rbac section with another authorization strategy (RBAC), light shapes of the
 * other section files, at most one plugin catalog (WARNING), only YAML files in the bundle (STRUCTURE), files no
 * section references (one CONTVAL WARNING). First come the INFO lines of the validators that found nothing
 * (success-lines.ts).
 */
export function checkBundleFiles(files: FileMap, options: CheckOptions = {}): BundleMessage[] {
  const parsed = parseDescriptor(files);
  if (!parsed.ok) {
    return [err(files.has(DESCRIPTOR_FILE) ? "DESCVAL" : "STRUCTURE", parsed.error, DESCRIPTOR_FILE, parsed.line), ...(options.folderProblems ?? [])];
  }
  const desc = parsed.value;
  const messages = checkDescriptorProperties(desc, options);
  const descriptorRead = readYaml(files.get(DESCRIPTOR_FILE)!, { file: DESCRIPTOR_FILE });
  if (descriptorRead.ok) messages.push(...descriptorRead.duplicates.map((d) => duplicateKeyWarning(d, false)));
  messages.push(...(options.folderProblems ?? []));
  const referenced = new Set<string>([DESCRIPTOR_FILE]);
  let jcasc: CascNode | null = null;
  for (const section of SECTION_KEYS) {
    const entries = sectionEntries(desc, section);
    if (!entries.ok) {
      messages.push(err("STRUCTURE", entries.error, DESCRIPTOR_FILE));
      continue;
    }
    const sectionFiles: string[] = [];
    const missing: string[] = [];
    for (const entry of entries.value) {
      const resolved = resolveEntry(files, entry);
      if (!resolved) {
        messages.push(err("CONTVAL", missingEntryProblem(entry, section), DESCRIPTOR_FILE));
        missing.push(entry);
        continue;
      }
      const isFolderEntry = resolved.length !== 1 || resolved[0] !== entry.replace(/^\.\//, "");
      if (!isFolderEntry && !isYamlName(resolved[0]!)) {
        messages.push(err("DESCVAL", `The file '${entry}' referenced in section '${section}' is neither a folder nor a YAML file.`, DESCRIPTOR_FILE));
      }
      for (const f of resolved) {
        referenced.add(f);
        if (isYamlName(f) && !sectionFiles.includes(f)) sectionFiles.push(f);
      }
    }
    // The content validator names each missing entry; the section's own validator names them all again.
    messages.push(...sectionFilesMessage(section, "missing", missing));
    if (section === "catalog" && sectionFiles.length > 1) {
      const text = `More than one plugin catalog file used in ${scalarProp(desc, "id") ?? ""}. Using only first read file.`;
      messages.push(warn("CATALOGVAL", text, DESCRIPTOR_FILE));
    }
    let check: SectionCheck;
    if (section === "jcasc") {
      const jcascCheck = checkJcascFiles(files, sectionFiles, desc["jcascMergeStrategy"]);
      jcasc = jcascCheck.merged;
      check = jcascCheck;
    } else {
      check = checkOtherFiles(files, section, sectionFiles, options);
    }
    messages.push(...check.messages);
    // RbacValidatorExtension looks at the strategy only once its files passed checkFiles.
    if (section === "rbac" && sectionFiles.length > 0 && missing.length === 0 && check.usable) {
      const strategy = rbacStrategyProblem(jcasc);
      if (strategy) messages.push(strategy);
    }
  }
  const names = [...files.keys()].sort();
  for (const name of names) {
    if (!isYamlName(name)) {
      messages.push(err("STRUCTURE", `The file '${name}' is not a YAML file: a bundle folder holds only YAML files and folders.`, name));
    }
  }
  const unreferenced = names.filter((n) => !referenced.has(n));
  if (unreferenced.length > 0) {
    messages.push(warn("CONTVAL", `Unreferenced files/folders ${unreferenced.join(", ")} found in bundle folder.`, unreferenced[0]));
  }
  messages.unshift(...successLines(messages, desc));
  return messages;
}
