import * as pulumi from "@pulumi/pulumi";
import type { EnvironmentPermission, TeamMemberApplications } from "../../provider/clients/feature-flag-types";
import type { ConnectionArgs } from "./connection-args";
import { DynamicResource } from "./dynamic-resource";

/** One application's permissions: environment name -> `"read"` or `"write"`. */
export interface TeamMemberApplicationInput {
  environments: pulumi.Input<Record<string, pulumi.Input<EnvironmentPermission>>>;
}

export interface TeamMemberArgs extends ConnectionArgs {
  /** The member's email, their identity in the account. Changing it (other than its case) replaces the member. */
  email: pulumi.Input<string>;
  /** The member's display name. Compared and written only when given. */
  name?: pulumi.Input<string>;
  /** Administrator of the whole account. Compared and written only when given. */
  teamAdmin?: pulumi.Input<boolean>;
  /**
   * Every permission the member has: application id -> `{ environments: { <environment name>: "read" | "write" } }`
   * (at most 1,000 applications and 1,000 environments each). A map: order does not matter, environment names are
   * compared ignoring case as the service finds them, an application without environments is the same as none.
   * Application ids are usually outputs: build the map in an `apply`, e.g.
   * `pulumi.all([shop.applicationId]).apply(([id]) => ({ [id]: { environments: { Production: "read" } } }))`.
   * Compared and written only when given; given, it is the whole set (permissions on other applications are removed).
   */
  applications?: pulumi.Input<Record<string, pulumi.Input<TeamMemberApplicationInput>>>;
  /**
   * On create, manage the account's existing member of this email instead of failing (the service's PUT creates or
   * replaces, so without it a stack could silently take over someone's membership).
   */
  adoptExisting?: pulumi.Input<boolean>;
}

/**
 * A team member of the feature-flag account (Feature Management's users API): who may read or change flags in which
 * application environment. Destroying the resource removes the member from the account. A refresh that finds a
 * change warns, saying so; the service's audit log does not record team members, so it cannot say who.
 * Needs `cloudbees:featureManagementToken` (a team administrator's).
 */
export class TeamMember extends DynamicResource {
  /** The email, as given (also the resource id). */
  declare readonly email: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string | undefined>;
  declare readonly teamAdmin: pulumi.Output<boolean | undefined>;
  declare readonly applications: pulumi.Output<TeamMemberApplications | undefined>;
  /** The `adoptExisting` input, as given. */
  declare readonly adoptExisting: pulumi.Output<boolean | undefined>;
  /** true when create took over a member that existed. */
  declare readonly adopted: pulumi.Output<boolean>;
  /** When this stack last wrote (or took over) the member. */
  declare readonly writtenAt: pulumi.Output<string>;
  /** The connection it lives on, as given (absent: `default`). */
  declare readonly connection: pulumi.Output<string | undefined>;

  constructor(name: string, args: TeamMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "teamMember",
      "TeamMember",
      name,
      {
        connection: args.connection,
        email: args.email,
        name: args.name,
        teamAdmin: args.teamAdmin,
        applications: args.applications,
        adoptExisting: args.adoptExisting,
        adopted: undefined,
        writtenAt: undefined,
      },
      opts,
    );
  }
}
