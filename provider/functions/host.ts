import type { RawConfig } from "../config";
import type { ResponseSchema } from "../http/response-schema";
import type { InputKind } from "../text/credentials";

/**
 * What a face gives the functions it serves: where their settings come from, where their warnings go, and (the
 * TypeScript face under `pulumi.runtime.setMocks`) an answer that stands in for the call. The functions' logic is
 * the same under both faces: the TypeScript face (sdk/functions) reads the program's `pulumi.Config("cloudbees")`;
 * the plugin (provider/plugin/invokes.ts) the settings Configure gave it.
 */
export interface FunctionHost {
  /** The stack's `cloudbees:*` settings, as provider/config parses them; read at each call. */
  stackConfig(): RawConfig;
  /** The User-Agent's product name: which face asked. */
  userAgent: string;
  /** Says a warning (an item of a list that could not be read, skipped), once. */
  warn(message: string): void;
  /**
   * An answer instead of the call's body (no request, no setting read), or undefined to run it: the TypeScript
   * face's mocks. `inputs` are the call's named arguments, with `connection` and `instance` when given.
   */
  answer?<T>(spec: FunctionSpec<T>, inputs: Record<string, unknown>, operation: string): Promise<T> | undefined;
  /**
   * The names this face's callers give inputs that the functions name otherwise, by the functions' name: the
   * plugin's zips (`bundle` is `bundleZip` in the schema). The call an error quotes and the input it blames say the
   * caller's name (run, in calls.ts).
   */
  inputNames?: Readonly<Record<string, string>>;
}

/** A function's identity: its name (in errors), its token (`cloudbees:index:<name>`) and its result's shape. */
export interface FunctionSpec<T> {
  name: string;
  /** `cloudbees:index:<name>`: the invoke's token, and what the mocks' `call` receives. */
  token: string;
  /** A factory (not a module-scope schema, which a serialized dynamic provider could capture). */
  result: () => ResponseSchema<T>;
  /**
   * What its inputs are, where not names (InputKind): `path` for a local folder or zip file, shown in full in its
   * errors. An input named `...Url` is a URL.
   */
  inputKinds?: Readonly<Record<string, InputKind>>;
}

export function defineFunction<T>(name: string, result: () => ResponseSchema<T>, inputKinds?: Readonly<Record<string, InputKind>>): FunctionSpec<T> {
  return { name, token: `cloudbees:index:${name}`, result, ...(inputKinds ? { inputKinds } : {}) };
}
