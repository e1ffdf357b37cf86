import type * as pulumi from "@pulumi/pulumi";

/** The input every resource takes: which of the stack's connections it lives on. */
export interface ConnectionArgs {
  /**
   * The connection to use: a name under `cloudbees:connections` in the stack config (`prod`), whose operations
   * center (or feature-flag account) this resource is on. Default `default`: the top-level `cloudbees:*` settings
   * and the `CLOUDBEES_*` variables. The state holds the name only, never a URL or a token. Changing it replaces
   * the resource (it is another server).
   */
  connection?: pulumi.Input<string>;
}

/** The inputs of the resources that talk to an instance (a controller, or the operations center by its own URL). */
export interface InstanceArgs extends ConnectionArgs {
  /**
   * The instance to talk to, by its name in the connection's instances
   * (`pulumi config set --path 'cloudbees:connections.prod.instances.team-a.url' https://ci.example.com/team-a/`):
   * its URL, with its own `username` / `apiToken` where it has them (a controller outside the operations center's
   * single sign-on), else the connection's. Not with `instanceUrl`. Changing it replaces the resource.
   */
  instance?: pulumi.Input<string>;
}
