export * from "./errors";
export { HttpClient, type RequestSpec, type ServiceProfile } from "./http-client";
export type { HttpOptions } from "./options";
export { Secret } from "./redaction";
export type { Idempotency } from "./retry-policy";
