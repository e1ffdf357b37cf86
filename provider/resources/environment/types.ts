/** Environment: an environment of a feature-flag application (Production, Staging, ...), with its SDK key. */

export const TYPE_NAME = "Environment";

export interface EnvironmentInputs {
  /** The application's id (an Application's applicationId). */
  applicationId: string;
  /** The environment's name: API paths name the environment by it. */
  name: string;
  /** Compared and written only when given. */
  description?: string;
}

export interface EnvironmentOutputs {
  applicationId: string;
  name: string;
  description?: string;
  /** The environment's id, which is also its SDK key (24 hex digits). Also the resource id. */
  key: string;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["applicationId", "name", "description"];
