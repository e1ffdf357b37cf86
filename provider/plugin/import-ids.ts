import type { ProviderKind } from "../resources";
import { bounded } from "../http/response-text";
import { MAX_SHOWN_ID } from "../resources/shared/errors";
import type { Props } from "../resources/shared/types";
import { printable, quoted } from "../text/printable";

/**
 * `pulumi import <type> <name> <id>`: the engine reads the resource by its id alone, with no properties. A
 * controller's read finds the object from the properties the state holds; here each importable kind says which
 * properties its id carries (the id schemes of each resource's types.ts: `<applicationId>/<name>`, ...), so the
 * read finds it the same way. test/plugin/import-ids.test.ts checks each against its idOf.
 *
 * Left out, with the reason the docs give: DefaultBundle (no endpoint reads which bundle is the default) and the
 * action resources (BundleCheckout, BundleReload, Items, BundleValidation: an action run, nothing to adopt).
 */
type IdReader = (id: string) => Props | undefined;

/** `<first>/<rest>` split at the first slash: both non-empty, or undefined. */
function splitFirst(id: string): [string, string] | undefined {
  const at = id.indexOf("/");
  return at > 0 && at < id.length - 1 ? [id.slice(0, at), id.slice(at + 1)] : undefined;
}

const applicationAndName: IdReader = (id) => {
  const parts = splitFirst(id);
  return parts && { applicationId: parts[0], name: parts[1] };
};

export const IMPORT_IDS: Partial<Record<ProviderKind, { example: string; read: IdReader }>> = {
  // The service's id of the application; read asks for it.
  application: { example: "6b04319012a9f465249c6dce", read: () => ({}) },
  // `<applicationId>/<name>`: the environment's name (its id, the SDK key, is what the read then records).
  environment: { example: "6b04319012a9f465249c6dce/Staging", read: applicationAndName },
  flag: { example: "6b04319012a9f465249c6dce/checkout.newFlow", read: applicationAndName },
  targetGroup: { example: "6b04319012a9f465249c6dce/beta-users", read: applicationAndName },
  flagConfiguration: {
    example: "6b04319012a9f465249c6dce/Production/checkout.newFlow",
    read: (id) => {
      const first = splitFirst(id);
      const rest = first && splitFirst(first[1]);
      return rest && { applicationId: first[0], environment: rest[0], flag: rest[1] };
    },
  },
  // The member's email: read looks it up by the id.
  teamMember: { example: "dana@checkout.example", read: () => ({}) },
  // The CasC ids: each read takes its identity from the id (bundle-availability/<bundleId>, ...).
  bundleAvailability: { example: "bundle-availability/team-a", read: () => ({}) },
  controllerBundleAssignment: { example: "assignment/team-a/controller-a", read: () => ({}) },
  controllerBundleToken: { example: "bundle-token/team-a/controller-a", read: () => ({}) },
  globalAvailabilityPattern: { example: "global-availability-pattern", read: () => ({}) },
};

/** Longer than any id of the services (names, emails, paths): refused before any request. */
export const MAX_IMPORT_ID = 1000;

/** A caller's id in an error: quoted, escaped, and cut to MAX_SHOWN_ID characters (its length said when cut). */
export function quotedId(id: string): string {
  return id.length > MAX_SHOWN_ID ? `${quoted(bounded(id, MAX_SHOWN_ID))} (${id.length} characters)` : quoted(id);
}

/**
 * The properties a read of `id` starts from: the state's, or, for an import (none), those the id carries. An id
 * of the wrong form for an importable kind, or a kind that cannot be imported, is an error that says the form.
 *
 * An id no object can have (a control character, a CI log command, more than MAX_IMPORT_ID characters) is refused
 * here, quoted and bounded: answered "gone", it would reach the engine's own "resource '<id>' does not exist", which
 * prints it raw. Any other id that names nothing reads as gone, and the engine says it does not exist.
 */
export function propsForRead(kind: ProviderKind, typeName: string, id: string, props: Props): Props {
  if (Object.keys(props).length > 0) return props;
  const scheme = IMPORT_IDS[kind];
  if (!scheme) {
    throw new Error(`${typeName} cannot be imported: ${NOT_IMPORTABLE[kind] ?? "there is nothing on the server to adopt"}`);
  }
  if (id.length > MAX_IMPORT_ID || printable(id) !== id) {
    throw new Error(
      `importing ${typeName}: ${quotedId(id)} names no ${typeName}: an id has at most ${MAX_IMPORT_ID} characters, ` +
        `none of them a control character, and no CI log command; the ids of a ${typeName} have the form "${scheme.example}"`,
    );
  }
  const fromId = scheme.read(id);
  if (!fromId) throw new Error(`importing ${typeName}: ${quotedId(id)} is not an id of the form "${scheme.example}"`);
  return fromId;
}

/**
 * Import from a named connection: `<connection>:<id>` (`prod:6b04319012a9f465249c6dce/checkout.newFlow`). The engine
 * sends an import's read the id alone (no inputs, neither from `pulumi import` nor from the `import` resource option),
 * so the id says which connection of `cloudbees:connections` to read from. No id of the services starts that way:
 * a connection name is letters, digits, `-` and `_` (config/connections.ts), and the ids' own colons, if any, come
 * after a `/` or an `@`. The read records the plain id and the `connection` input, as a declared resource has them.
 */
export function splitConnection(id: string): { connection?: string; id: string } {
  const match = /^([A-Za-z0-9_-]+):(.+)$/s.exec(id);
  return match ? { connection: match[1]!, id: match[2]! } : { id };
}

/** Where an import's read starts: the plain id, and the properties it carries (with its connection, if named). */
export function importStart(kind: ProviderKind, typeName: string, id: string): { id: string; props: Props } {
  const split = splitConnection(id);
  const props = propsForRead(kind, typeName, split.id, {});
  return { id: split.id, props: split.connection ? { ...props, connection: split.connection } : props };
}

const NOT_IMPORTABLE: Partial<Record<ProviderKind, string>> = {
  defaultBundle: "no endpoint reads which bundle is the default; declare it and run pulumi up (the write is the same)",
  bundleCheckout: "it is an action (a check-out), with nothing on the server to adopt; declare it instead",
  bundleReload: "it is an action (a reload), with nothing on the server to adopt; declare it instead",
  items: "it is an action (items created from YAML), with nothing to adopt; declare it instead",
  bundleValidation: "it is an action (a validation), with nothing on the server to adopt; declare it instead",
  controllerConfiguration:
    "its comparison needs the program's bundle folders (bundleTreePath, bundleId) and the controller's URL, which an id cannot carry; declare it (its create writes nothing when the controller runs its bundle), or let `pulumi-cloudbees import --bundle-tree <folder>` write it",
};
