/**
 * Who can do what: admin-level team membership only for the people the config lists, and credentials given to an
 * explicit provider only as secrets.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { DEFAULT_PROTECTED } from "./flags";
import { cannotSee, isKind, label, PROVIDER_TYPE, quote, stringList } from "./resources";
import { isSecret } from "./secrets";
import type { TeamAdminsSettings } from "./settings";

export const teamAdmins: ResourceValidationPolicy = {
  name: "cloudbees-team-admins",
  description:
    "Admin-level rights (teamAdmin, or write permission in a protected environment) only for the emails the config lists, so that a pull request cannot quietly give a developer the power to change Production.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      adminEmails: { type: "array", items: { type: "string" }, description: "Emails that may be team admins or write in protected environments (compared ignoring case)." },
      protectedEnvironments: { type: "array", items: { type: "string" }, description: `Environments where write is admin-level (default ${DEFAULT_PROTECTED.join(", ")}).` },
    },
  },
  validateResource: (args, report) => {
    if (!isKind(args.type, "TeamMember")) return;
    const config = args.getConfig<TeamAdminsSettings>();
    const admins = stringList(config.adminEmails).map((e) => e.toLowerCase());
    const protectedNames = stringList(config.protectedEnvironments, DEFAULT_PROTECTED);
    const email = String(args.props.email);
    if (admins.includes(email.toLowerCase())) return;
    const rights: string[] = [];
    if (args.props.teamAdmin === true) rights.push("teamAdmin");
    const applications = (args.props.applications ?? {}) as Record<string, { environments?: Record<string, string> }>;
    for (const [application, { environments } = {}] of Object.entries(applications)) {
      for (const [environment, permission] of Object.entries(environments ?? {})) {
        if (permission === "write" && protectedNames.includes(environment)) rights.push(`write in ${quote(environment)} of application ${quote(application)}`);
      }
    }
    if (rights.length > 0) {
      report(`${label(args)} gives ${quote(email)} ${rights.join(", ")}: drop it (read is enough to look), or add the email to this policy's adminEmails.`);
    }
  },
};

const TOKENS = ["apiToken", "featureManagementToken"];

export const providerTokenSecret: ResourceValidationPolicy = {
  name: "cloudbees-provider-token-secret",
  description:
    "Credentials stay secret: an explicit cloudbees provider given a token that is not a secret writes it in plain text into the state and the program's history; set it with `pulumi config set --secret` and pass that.",
  enforcementLevel: "mandatory",
  validateResource: (args, report) => {
    if (args.type !== PROVIDER_TYPE) return;
    const plain: string[] = [];
    let unsure = false;
    const check = (props: Record<string, unknown>, at: string): void => {
      for (const key of TOKENS) {
        if (props[key] === undefined || props[key] === null) continue;
        const secret = isSecret(args.props, at + key);
        if (secret === undefined) unsure = true;
        else if (!secret) plain.push(at + key);
      }
    };
    check(args.props, "");
    const connections = args.props.connections as Record<string, Record<string, unknown>> | undefined;
    for (const [name, connection] of Object.entries(connections ?? {})) {
      if (!connection || typeof connection !== "object") continue;
      check(connection, `connections.${name}.`);
      const instances = connection.instances as Record<string, Record<string, unknown>> | undefined;
      for (const [instance, settings] of Object.entries(instances ?? {})) {
        if (settings && typeof settings === "object") check(settings, `connections.${name}.instances.${instance}.`);
      }
    }
    if (plain.length > 0) {
      report(`${label(args)} is given ${plain.join(", ")} in plain text: set ${plain.length > 1 ? "them" : "it"} with \`pulumi config set --secret\` and pass the secret config value.`);
    } else if (unsure) {
      // The engine's secret marks are read through @pulumi/policy's internals (secrets.ts): should they change, say so.
      cannotSee(`it cannot tell whether the tokens of ${label(args)} are secrets (this @pulumi/policy does not pass the engine's secret marks on)`);
    }
  },
};
