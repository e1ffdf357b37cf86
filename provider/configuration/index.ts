// The comparison of a controller's configuration with its bundle (issue 44): see README.md beside this file.
export { type ConfigurationView, CONFIGURATION_FILES } from "./view";
export { expectedView, expectedViewOf } from "./expected";
export { exportedView, type ExportedView } from "./exported";
export { exportTextFiles } from "./export-text";
export { configurationDigests, type ConfigurationDigests } from "./digests";
export { describeDrift, effectOfChange } from "./drift";
export { formOf, hiddenForm, programSecretReason, digestOfForm, sameValues, reasonOfForm, isDigestForm, hiddenReason, isSecretName, MAX_SHOWN_LENGTH, JCASC_MASK, type Secrecy } from "./shown";
export { MAX_CONFIGURATION_PATHS } from "./bound";
export { ABSENT, PRESENT, digestOf, canonicalJson } from "./canonical";
export {
  EXPORT_ADDITIONS,
  normalizeView,
  normalizeLeaf,
  removeExportAdditions,
  unescapeCarets,
  isEncryptedSecret,
  isVariableReference,
  isSecretFieldName,
  isIgnored,
  ignorePathProblem,
} from "./normalize";
export {
  ConfigurationError,
  BundleNotFoundError,
  MissingParentError,
  ParentCycleError,
  BundleDescriptorError,
  UnreadableYamlError,
  JcascDocumentError,
  JcascMergeError,
} from "./errors";
