/** Flag: a feature flag of an application, in every environment (its configuration per environment is FlagConfiguration). */
import type { FlagOption } from "../../clients/feature-flag-types";

export const TYPE_NAME = "Flag";

export interface FlagInputs {
  applicationId: string;
  /** The flag's name (with its namespace, e.g. `checkout.newFlow`): fixed once created. */
  name: string;
  /** The values the flag can take, a set. Default `[false, true]` (a boolean flag). Fixed once created. */
  availableValues?: FlagOption[];
  /** A permanent flag (kept in code for good). Default false. */
  isPermanent?: boolean;
}

export interface FlagOutputs {
  applicationId: string;
  name: string;
  /** As the service holds them (the program's order when it gives the same set). */
  availableValues: FlagOption[];
  isPermanent: boolean;
}

/** `<applicationId>/<name>` */
export function idOf(applicationId: string, name: string): string {
  return `${applicationId}/${name}`;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["applicationId", "name", "availableValues", "isPermanent"];
