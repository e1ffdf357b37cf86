/** Flag: a feature flag of an application, in every environment (its configuration per environment is FlagConfiguration). */
import type { FlagOption } from "../../clients/feature-flag-types";

export const TYPE_NAME = "Flag";

/**
 * What removing the resource does to the flag on the service: `delete` (the default) deletes it in every
 * environment; `archive` keeps it, with its values and its configuration in every environment, each configuration
 * archived and turned off.
 */
export type FlagOnDelete = "archive" | "delete";

export const ON_DELETE_VALUES: readonly FlagOnDelete[] = ["archive", "delete"];

export interface FlagInputs {
  applicationId: string;
  /** The flag's name (with its namespace, e.g. `checkout.newFlow`): fixed once created. */
  name: string;
  /** The values the flag can take, a set. Default `[false, true]` (a boolean flag). Fixed once created. */
  availableValues?: FlagOption[];
  /** A permanent flag (kept in code for good). Default false. */
  isPermanent?: boolean;
  /** Default `delete`. Changes nothing on the service until the resource is removed. */
  onDelete?: FlagOnDelete;
}

export interface FlagOutputs {
  applicationId: string;
  name: string;
  /** As the service holds them (the program's order when it gives the same set). */
  availableValues: FlagOption[];
  isPermanent: boolean;
  /** As given (absent: `delete`). */
  onDelete?: FlagOnDelete;
}

/** `<applicationId>/<name>` */
export function idOf(applicationId: string, name: string): string {
  return `${applicationId}/${name}`;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["applicationId", "name", "availableValues", "isPermanent", "onDelete"];
