/** TeamMember: a person's membership of the feature-flag account, with their permissions per application environment. */
import type { TeamMemberApplications } from "../../clients/feature-flag-types";

export const TYPE_NAME = "TeamMember";

export interface TeamMemberInputs {
  /** The member's identity (the resource id): a change replaces. Compared ignoring case, as the service does. */
  email: string;
  name?: string;
  /** Administrator of the whole account. */
  teamAdmin?: boolean;
  /** Application id -> `{environments: {<environment name>: "read" | "write"}}`: every permission the member has. */
  applications?: TeamMemberApplications;
  /** On create, manage the account's existing member of this email instead of failing. */
  adoptExisting?: boolean;
}

export interface TeamMemberOutputs extends TeamMemberInputs {
  /** true when create took over a member that existed. */
  adopted: boolean;
  /** When this stack last wrote (or took over) the member: where a refresh's search of the audit log starts. */
  writtenAt: string;
}

/** The inputs a program gives (check fails on any other field). */
export const INPUT_KEYS = ["email", "name", "teamAdmin", "applications", "adoptExisting"];

/** The inputs compared and written when given. */
export const SETTING_KEYS = ["name", "teamAdmin", "applications"] as const;

/** Bounds of the permissions map (the emulator refuses more, as a real service would at some size). */
export const MAX_APPLICATIONS = 1000;
export const MAX_ENVIRONMENTS = 1000;
