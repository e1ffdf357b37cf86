/**
 * FlagConfiguration: a flag's configuration in one environment (what the legacy API calls the flag's experiment):
 * on/off, its value, its ordered conditions, per-platform rules, labels.
 */
import type { Condition, FlagValue, Platform } from "../../clients/feature-flag-types";

export const TYPE_NAME = "FlagConfiguration";

export interface FlagConfigurationInputs {
  applicationId: string;
  /** The environment's name. */
  environment: string;
  /** The flag's name. */
  flag: string;
  enabled?: boolean;
  value?: FlagValue;
  conditions?: Condition[];
  platforms?: Platform[];
  labels?: string[] | string;
  description?: string;
  stickinessProperty?: string;
  archived?: boolean;
}

/** The outputs repeat the identity and the configuration inputs the program gives, as the service holds them. */
export type FlagConfigurationOutputs = FlagConfigurationInputs;

/** The inputs that make the configuration (compared and written only when given). */
export const CONFIGURATION_KEYS = ["enabled", "value", "conditions", "platforms", "labels", "description", "stickinessProperty", "archived"] as const;

export const IDENTITY_KEYS = ["applicationId", "environment", "flag"] as const;

/** `<applicationId>/<environment>/<flag>` */
export function idOf(applicationId: string, environment: string, flag: string): string {
  return `${applicationId}/${environment}/${flag}`;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS: string[] = [...IDENTITY_KEYS, ...CONFIGURATION_KEYS];
