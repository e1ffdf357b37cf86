/**
 * The part of `rox-node`'s API (its default export, the process-wide `Rox`) that pulumi-cloudbees/testing uses and
 * hands out, typed here because the package ships no types and must not need the optional peer to compile.
 * Read from `rox-node@6.0.16` `dist/rox-node.js` (class Rox, DynamicApi, RoxFlagNode, RoxStringNode, RoxNumberNode).
 */

/** Evaluation context: what the SDK hands to dynamic properties; unregistered properties are read from it by name. */
export type RoxContext = Record<string, unknown>;

/** A custom property's value, or a function of the evaluation context (at most one parameter: rox-node refuses more). */
export type RoxPropertyValue<T> = T | ((context?: RoxContext) => T | undefined);

/** What a fetch reported to `configurationFetchedHandler` (rox-node: FetcherResults). */
export interface RoxFetchResult {
  fetcherStatus: "APPLIED_FROM_NETWORK" | "APPLIED_FROM_CACHE" | "APPLIED_FROM_EMBEDDED" | "ERROR_FETCH_FAILED";
  creationDate?: Date | null;
  hasChanges?: boolean;
  errorDetails?: unknown;
}

export interface RoxDynamicApi {
  isEnabled(name: string, defaultValue: boolean, context?: RoxContext): boolean;
  value(name: string, defaultValue: string, context?: RoxContext): string;
  value(name: string, defaultValue: string, variations: string[], context?: RoxContext): string;
  getNumber(name: string, defaultValue: number, context?: RoxContext): number;
  getNumber(name: string, defaultValue: number, variations: number[], context?: RoxContext): number;
}

export interface RoxSdk {
  setup(appKey: string, options?: Record<string, unknown>): Promise<unknown>;
  /** Returns nothing: completion is only reported to `configurationFetchedHandler`. */
  fetch(): void;
  register(namespace: string, container: object): void;
  setContext(context: RoxContext): void;
  setCustomStringProperty(name: string, value: RoxPropertyValue<string>): void;
  setCustomNumberProperty(name: string, value: RoxPropertyValue<number>): void;
  setCustomBooleanProperty(name: string, value: RoxPropertyValue<boolean>): void;
  setCustomSemverProperty(name: string, value: RoxPropertyValue<string>): void;
  setCustomDateProperty(name: string, value: RoxPropertyValue<Date>): void;
  readonly dynamicApi: RoxDynamicApi;
  Flag: new (defaultValue?: boolean) => { readonly name: string; isEnabled(context?: RoxContext): boolean };
  RoxString: new (defaultValue: string, variations?: string[]) => { readonly name: string; getValue(context?: RoxContext): string };
  RoxNumber: new (defaultValue: number, variations?: number[]) => { readonly name: string; getValue(context?: RoxContext): number };
}
