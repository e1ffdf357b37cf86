import * as core from "../../provider/functions/team-members";
import type { FunctionOptions } from "../../provider/functions/calls";
import type { TeamMemberInfo } from "../../provider/functions/team-members";
import { programHost } from "./host";

// The reads of the feature-flag account's team members: the TypeScript face of provider/functions/team-members.ts,
// with the program's settings (host.ts).

/**
 * Every team member of the account (GET `/public-api/users`). A team member this version cannot read is skipped, with
 * a warning that names them (by email) and why; the others are returned.
 */
export async function getTeamMembers(options?: FunctionOptions): Promise<TeamMemberInfo[]> {
  return core.getTeamMembers(programHost, options);
}

/** One team member, by email (GET `/public-api/users/{email}`); a 404 (no such member) is a NotFoundError. */
export async function getTeamMember(email: string, options?: FunctionOptions): Promise<TeamMemberInfo> {
  return core.getTeamMember(programHost, email, options);
}
