import type { Descriptor } from "./descriptor";
import type { BundleMessage, MessageCode } from "./messages";

// The INFO line each structural validator of the operations center writes when it found nothing, in the order it
// runs them. Texts: a public validate-uploaded-bundle answer (provider/bundle/README.md, "sample"). Only outcomes
// whose text is public get a line: a jcascMergeStrategy or itemRemoveStrategy that is set, or a catalog that is
// present, gets none (the server's words for those are not public), and neither does ParentValidator (lint and the
// emulator check parents apart from one bundle's files). The controller plugin's own validators (JCasC, plugins,
// catalog, RBAC, items) write theirs after runtime checks that need a running instance: never here.

interface SuccessLine {
  code: MessageCode;
  text: string;
  passed(found: readonly BundleMessage[], descriptor: Descriptor): boolean;
}

const noneOf =
  (code: MessageCode) =>
  (found: readonly BundleMessage[]): boolean =>
    !found.some((m) => m.code === code);
const unset = (key: string) => (_found: readonly BundleMessage[], d: Descriptor) => d[key] === undefined || d[key] === null;
const noCatalog = (_found: readonly BundleMessage[], d: Descriptor) => !Array.isArray(d["catalog"]) || d["catalog"].length === 0;

const SUCCESS_LINES: readonly SuccessLine[] = [
  { code: "STRUCTURE", text: "[FileSystemBundleValidator] All files indicated in the bundle exist and have the correct type.", passed: noneOf("STRUCTURE") },
  { code: "CONTVAL", text: "[ContentBundleValidator] All files specified in the bundle exist and no unreferenced files indicated.", passed: noneOf("CONTVAL") },
  { code: "SCHEMA", text: "All YAML files validated correctly against their corresponding schemas", passed: noneOf("SCHEMA") },
  { code: "DESCVAL", text: "[DescriptorValidator] All files referenced in the descriptor are folders or yaml files.", passed: noneOf("DESCVAL") },
  { code: "VERSIONVAL", text: "[VersionValidator] Version correctly indicated in bundle.yaml.", passed: noneOf("VERSIONVAL") },
  { code: "APIVAL", text: "[ApiValidator] apiVersion correctly indicated in bundle.yaml.", passed: noneOf("APIVAL") },
  { code: "JCASCSTRATEGY", text: "[JcascMergeStrategyValidator] No (optional) jcascMergeStrategy defined in the bundle.", passed: unset("jcascMergeStrategy") },
  { code: "ITEMSTRATEGY", text: "[ItemRemoveStrategyValidator] No (optional) itemRemoveStrategy defined in the bundle.", passed: unset("itemRemoveStrategy") },
  { code: "CATALOGVAL", text: "[MultipleCatalogFilesValidator] No catalog validation needed.", passed: noCatalog },
  { code: "CATALOGVAL", text: "[AllowBeekeeperExceptionValidator] No catalog defined in the bundle.", passed: noCatalog },
];

/** The success lines of the validators that found nothing in `found` (one bundle's messages). */
export function successLines(found: readonly BundleMessage[], descriptor: Descriptor): BundleMessage[] {
  return SUCCESS_LINES.filter((line) => line.passed(found, descriptor)).map(({ code, text }) => ({ level: "INFO", code, message: text }));
}
