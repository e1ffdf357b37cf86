/** TargetGroup: a named set of users (by their properties) of a feature-flag application, used in flag conditions. */
import type { TargetGroupCondition, TargetGroupOperator } from "../../clients/feature-flag-types";

export const TYPE_NAME = "TargetGroup";

export interface TargetGroupInputs {
  applicationId: string;
  /** The name conditions refer to (`group: { name }`). */
  name: string;
  description?: string;
  /** How the conditions combine: `and` (the service's default) or `or`. */
  operator?: TargetGroupOperator;
  /** `{property, operator, operand?}` tests, a set. Left out or null: a group without tests (the service kept such groups). */
  conditions?: TargetGroupCondition[] | null;
}

export type TargetGroupOutputs = TargetGroupInputs;

/** `<applicationId>/<name>` */
export function idOf(applicationId: string, name: string): string {
  return `${applicationId}/${name}`;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["applicationId", "name", "description", "operator", "conditions"];

/** The inputs compared and written when given. */
export const SETTING_KEYS = ["description", "operator", "conditions"] as const;
