export * from "./provider-host";
export * from "./engine";
export * from "./serialize";
export { changedKeys, containsSecrets, deepEqual, normalizeForWire } from "./values";
export type { SecretValue } from "./values";
export * from "./program-runner";
