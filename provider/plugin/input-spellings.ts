import { InvalidInputError } from "../http/errors";
import type { CheckFailure } from "../resources/shared/types";

/**
 * An input named as the caller wrote it. The errors of the core name an input by its schema property (camelCase,
 * which TypeScript and YAML programs write); the plugin serves every language, and nothing it receives says which
 * one called (an invoke carries the token and the arguments, Configure the settings; the generated SDKs send the
 * schema's names whatever the caller wrote: Python's `bundle_zip` as `bundleZip`, Go's field `BundleZip` by its tag
 * `pulumi:"bundleZip"`). So the plugin names the schema property and adds the Python and Go spellings where they
 * differ: `bundleZip (Python: bundle_zip, Go: BundleZip)`.
 */

/** An identifier of a path (`rules`, `operand` in `rules[0].operand`). */
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/** The Python SDK's name: snake_case, as pulumi's Python generator makes it from a camelCase property. */
export function pythonName(path: string): string {
  return path.replace(IDENTIFIER, (id) => id.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase());
}

/** The Go SDK's field: the property with its first letter upper-case. */
export function goName(path: string): string {
  return path.replace(IDENTIFIER, (id) => id.charAt(0).toUpperCase() + id.slice(1));
}

/** `bundleZip (Python: bundle_zip, Go: BundleZip)`; `name (Go: Name)`. */
export function spelled(path: string): string {
  const python = pythonName(path);
  const others = [...(python !== path ? [`Python: ${python}`] : []), `Go: ${goName(path)}`];
  return `${path} (${others.join(", ")})`;
}

/** An invoke's error: the input an invalid-input error blames, in every language's words; any other error as it is. */
export function inCallersWords(error: unknown): unknown {
  if (!(error instanceof InvalidInputError)) return error;
  return new InvalidInputError(spelled(error.input), error.reason, error.operation);
}

/** The path of inputs a reason starts with, followed by a space, a colon or nothing: `rules[0].operand must ...`. */
const LEADING_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\]|\.[A-Za-z_][A-Za-z0-9_]*)*(?=[\s:]|$)/;

/**
 * A check failure whose reason starts with the input it is about (its property, or, for a failure that names no
 * property, one of `inputs`): that name in every language's words. The property stays the schema's: the engine
 * looks the value up by it.
 */
export function spelledFailure(f: CheckFailure, inputs: readonly string[]): CheckFailure {
  const path = LEADING_PATH.exec(f.reason)?.[0];
  if (path === undefined) return f;
  const root = path.split(/[.[]/, 1)[0]!;
  const about = f.property ? f.property.split(/[.[]/, 1)[0] === root : inputs.includes(root);
  return about ? { ...f, reason: spelled(path) + f.reason.slice(path.length) } : f;
}
