import { teamMemberListSchema, teamMemberSchema } from "../clients/feature-flag-schemas";
import { type EnvironmentPermission } from "../clients/feature-flag-types";
import { requireSegment } from "../clients/inputs";
import { featureManagementOf, run, type FunctionOptions } from "./calls";
import { readableItems } from "../clients/readable-items";
import { defineFunction, type FunctionHost } from "./host";

/**
 * Reads of the feature-flag account's team members (U1, U2): who may read or change flags in which application
 * environment. Needs `cloudbees:featureManagementToken`. Under `setMocks`, each answers from the mocks' `call` with
 * token `cloudbees:index:<function name>`.
 */

/** A team member of the account, as the service answers it. */
export interface TeamMemberInfo {
  email: string;
  name?: string;
  /** Administrator of the whole account. */
  teamAdmin?: boolean;
  /** Application id -> `{environments: {<environment name>: "read" | "write"}}`. */
  applications?: Record<string, { environments?: Record<string, EnvironmentPermission> }>;
}

const GET_TEAM_MEMBERS = defineFunction("getTeamMembers", teamMemberListSchema);
const GET_TEAM_MEMBER = defineFunction("getTeamMember", teamMemberSchema);

/** getTeamMembers: documented on its TypeScript face (sdk/functions/team-members.ts), which the schema's description is made from. */
export async function getTeamMembers(host: FunctionHost, options?: FunctionOptions): Promise<TeamMemberInfo[]> {
  return run(host, GET_TEAM_MEMBERS, {}, async (operation) =>
    readableItems(host, await featureManagementOf(host, options, operation).client.readTeamMemberList(), "team member", operation), options);
}

/** getTeamMember: documented on its TypeScript face (sdk/functions/team-members.ts), which the schema's description is made from. */
export async function getTeamMember(host: FunctionHost, email: string, options?: FunctionOptions): Promise<TeamMemberInfo> {
  return run(host, GET_TEAM_MEMBER, { email }, (operation) => featureManagementOf(host, options, operation).client.getTeamMember(email), options, (operation) => {
    requireSegment(email, "email", operation);
  });
}
