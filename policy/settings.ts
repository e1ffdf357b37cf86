/**
 * What the configurable policies read from their settings (`--policy-pack-config`, or the functions of
 * pulumi-cloudbees/policy, policy/library.ts). Apart from the policies so that the library's declarations reach none
 * of @pulumi/policy's index, whose own declarations do not compile without skipLibCheck (1.21: it re-exports names
 * its proxy.d.ts leaves out).
 */

export interface AvailabilityNarrowSettings {
  /** Bundles that may be available to every controller (a shared base bundle). */
  allowedBundles?: string[];
}

export interface ControllerIgnoreSecuritySettings {
  /** Ignore paths that may hide security settings; a path beneath one listed is allowed too. */
  allowedPaths?: string[];
}

export interface FlagProtectedEnvironmentsSettings {
  /** Environments where a change must have passed through another environment first (default Production). */
  protectedEnvironments?: string[];
}

export interface FlagTargetGroupsSettings {
  /** Target groups managed outside the stack that conditions may name. */
  externalGroups?: string[];
}

export interface TeamAdminsSettings {
  /** Emails that may be team admins or write in protected environments (compared ignoring case). */
  adminEmails?: string[];
  /** Environments where write is admin-level (default Production). */
  protectedEnvironments?: string[];
}
