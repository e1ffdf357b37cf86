import { checkBundleFiles } from "../provider/bundle/checks";
import { applyQuiet, type BundleMessage, countLevels, formatMessage, type Level, taggedMessage, validationCodeOf } from "../provider/bundle/messages";
import { reading } from "./readings";
import type { FileMap } from "./zip";

// The checks themselves are the provider's bundle toolkit's (lintBundle runs the same ones); this file turns
// their messages into the server's validation results.
export { applyQuiet, countLevels, formatMessage };
export type Finding = BundleMessage;

export interface StructureValidation {
  level: Level;
  validationCode: string;
  message: string;
}

/**
 * A validation result entry. Its message starts with the tag, as the plugin's Validation messages do
 * ("[JCASC] - ...": the validators' tests, and a public validate-uploaded-bundle answer); the level has its own field.
 */
export function toStructureValidation(f: Finding): StructureValidation {
  return { level: f.level, validationCode: validationCodeOf(f.code), message: taggedMessage(f) };
}

/**
 * Structural and light content validation of one bundle (raw or effective). `uploaded` marks bundles sent through
 * the API, where parent and availabilityPattern are not supported.
 */
export function validateBundle(files: FileMap, options: { uploaded: boolean; folderProblems?: Finding[] }): Finding[] {
  return checkBundleFiles(files, {
    ...(options.uploaded ? { uploadedPropertiesLevel: reading("uploadedParent") === "warning" ? "WARNING" : "ERROR" } : {}),
    folderProblems: options.folderProblems ?? [],
    pluginsWithoutList: reading("pluginsWithoutList"),
  });
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
