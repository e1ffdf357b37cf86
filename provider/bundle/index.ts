// Local CasC bundle toolkit: load, lint, zip and unzip bundles without a server. See README.md beside this file.
// The emulator imports the modules behind these (descriptor, checks, messages, inheritance, files, zip, hash) directly.
export { loadBundle, BundleLoadError, type LoadedBundle } from "./load";
export { lintBundle, type LintOptions, type LintResult } from "./lint";
export { zipBundle, zipBundleTree, branchFolderName, DEFAULT_BRANCH, type BundleTreeZipOptions } from "./bundle-zips";
export { unzipBundle, NotAZipError } from "./zip";
export { bundleHash } from "./hash";
export type { BundleDescriptor, RemoveStrategy } from "./bundle-descriptor";
export { formatMessage, validationCodeOf, type BundleMessage, type Level, type MessageCode } from "./messages";
export { MISSING_DESCRIPTOR, SECTION_KEYS, type SectionKey } from "./descriptor";
