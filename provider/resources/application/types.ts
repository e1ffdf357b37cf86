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
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["name", "adoptExisting"];
