import { resources, type ProviderKind } from "../resources";

/**
 * The package's tokens, as the plugin serves them and the schema names them: `cloudbees:index:<Type>` for a
 * resource (its TYPE_NAME: `Application`) and `cloudbees:index:<function>` for a function (`getBundles`), the tokens
 * the program functions already answer under `setMocks`.
 */
export const PACKAGE = "cloudbees";
export const MODULE = "index";

/** A resource kind's type name: the kind with its first letter in capitals (`bundleAvailability` -> `BundleAvailability`). */
export function typeNameOf(kind: ProviderKind): string {
  return kind[0]!.toUpperCase() + kind.slice(1);
}

export function resourceToken(kind: ProviderKind): string {
  return `${PACKAGE}:${MODULE}:${typeNameOf(kind)}`;
}

export function functionToken(name: string): string {
  return `${PACKAGE}:${MODULE}:${name}`;
}

/** Every kind, in the order of provider/resources. */
export function kinds(): ProviderKind[] {
  return Object.keys(resources) as ProviderKind[];
}

/** The kind a resource token names (`cloudbees:index:Flag`), or undefined for one this package does not have. */
export function kindOfToken(token: string): ProviderKind | undefined {
  return kinds().find((k) => resourceToken(k) === token);
}

/**
 * The resource token of a URN (`urn:pulumi:<stack>::<project>::<parent types$>cloudbees:index:Flag::<name>`): the
 * type is the third `::` part, after the last `$` (a child's parents' types come first).
 */
export function tokenOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}
