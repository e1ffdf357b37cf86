// The checkout team's feature flags, as a function: examples/flags/index.ts declares them once with the stack's
// config; a program may declare them on several accounts (`connection`), each under its own names (`prefix`).
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";

export interface CheckoutFlagsArgs {
  /** The share of Staging users who get the new checkout flow. */
  stagingPercentage: number;
  /** Beta testers' email addresses match this regex... */
  betaEmail: string;
  /** ...or they are on one of these plans. */
  betaPlans: string[];
  /** The checkout team's developers (emails): they change flags in Staging and read Production. */
  developers: string[];
  /** The named connection (`cloudbees:connections.<name>`) to declare them on; the default one when absent. */
  connection?: string;
  /** Put before every resource name, so that one program can declare the set more than once. */
  prefix?: string;
}

export function checkoutFlags(args: CheckoutFlagsArgs) {
  const { connection } = args;
  const name = (n: string) => `${args.prefix ?? ""}${n}`;
  const app = new cloudbees.Application(name("checkout"), { connection, name: "checkout-flags", adoptExisting: true });
  const applicationId = app.applicationId;

  // Every application starts with a Production environment: declaring it takes it over without a write.
  const production = new cloudbees.Environment(name("production"), { connection, applicationId, name: "Production" });
  const staging = new cloudbees.Environment(name("staging"), { connection, applicationId, name: "Staging", description: "pre-production" });

  const beta = new cloudbees.TargetGroup(name("beta-testers"), {
    connection,
    applicationId,
    name: "beta-testers",
    description: "employees and customers on the beta plan",
    operator: "or",
    conditions: [
      { property: "email", operator: "regex", operand: args.betaEmail },
      { property: "plan", operator: "in-array", operand: args.betaPlans },
    ],
  });

  // Flag names carry the namespace the application's code registers them under (Rox.register("checkout", ...)).
  const newFlow = new cloudbees.Flag(name("new-flow"), { connection, applicationId, name: "checkout.newFlow" });
  const banner = new cloudbees.Flag(name("banner-color"), { connection, applicationId, name: "checkout.bannerColor", availableValues: ["blue", "green", "red"] });

  // Production: the new flow for beta testers only (an if / else-if chain; `value` applies when no condition matches).
  new cloudbees.FlagConfiguration(name("new-flow-production"), {
    connection,
    applicationId,
    environment: production.name,
    flag: newFlow.name,
    enabled: true,
    conditions: [{ group: { name: beta.name }, value: true }],
    value: false,
    labels: ["checkout"],
  });

  // Staging: a percentage of all users.
  new cloudbees.FlagConfiguration(name("new-flow-staging"), {
    connection,
    applicationId,
    environment: staging.name,
    flag: newFlow.name,
    value: [{ option: true, percentage: args.stagingPercentage }],
    labels: ["checkout"],
  });

  new cloudbees.FlagConfiguration(name("banner-color-production"), {
    connection,
    applicationId,
    environment: production.name,
    flag: banner.name,
    value: "blue",
  });

  // The team: write access where they experiment, read access where customers are. The permissions name the
  // environments, so they are built from their outputs (each member then waits for both environments).
  const permissions = pulumi.all([applicationId, production.name, staging.name]).apply(([id, prod, stage]) => ({
    [id]: { environments: { [prod]: "read" as const, [stage]: "write" as const } },
  }));
  for (const email of args.developers) {
    new cloudbees.TeamMember(name(`member-${email}`), { connection, email, applications: permissions });
  }

  // The SDK keys an application's code is set up with (Rox.setup(key)).
  return { applicationId, productionKey: production.key, stagingKey: staging.key };
}
