/** Application: an application of the feature-flag service (CloudBees Feature Management). */

export const TYPE_NAME = "Application";

export interface ApplicationInputs {
  name: string;
  /** On create, adopt the account's application of exactly this name instead of creating a second one. */
  adoptExisting?: boolean;
}

export interface ApplicationOutputs {
  /** The service's id of the application (also the resource id). */
  applicationId: string;
  name: string;
  adoptExisting?: boolean;
  /** true when create adopted an existing application rather than creating it. */
  adopted: boolean;
  /**
   * Only while a create's outcome is unknown (its answer was lost and the account could not be listed): the ids of
   * the applications of this name that existed before it. The next up or refresh adopts the one new application.
   */
  pendingCreate?: { existingIds: string[] };
}

/** Id of an application whose create's outcome is unknown: `pending/<name>`. */
export const PENDING_ID_PREFIX = "pending/";

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["name", "adoptExisting"];
