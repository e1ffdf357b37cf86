export * from "../../testing/provider-host";
export * from "../../testing/engine";
export * from "./serialize";
export { changedKeys, containsSecrets, deepEqual, normalizeForWire } from "../../testing/values";
export type { SecretValue } from "../../testing/values";
export * from "../../testing/program-runner";
