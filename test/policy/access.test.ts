/** The access policies of the pack (policy/access.ts), on constructed arguments. */
import { providerTokenSecret, teamAdmins } from "../../policy/access";
import { markSecret } from "../../policy/secrets";
import { resource, runResource } from "./run-policy";

describe("cloudbees-team-admins", () => {
  const member = (props: Record<string, unknown>, face: "plugin" | "dynamic" = "plugin") => resource("TeamMember", "dev", { email: "dev@example.com", ...props }, face);

  it.each(["plugin", "dynamic"] as const)("teamAdmin for an email the config does not list is reported (%s)", async (face) => {
    const violations = await runResource(teamAdmins, member({ teamAdmin: true }, face));
    expect(violations[0]!.message).toContain('gives "dev@example.com" teamAdmin');
  });

  it("write in a protected environment is admin-level; read there, or write elsewhere, is not", async () => {
    const writes = member({ applications: { shop: { environments: { Production: "write", Staging: "write" } } } });
    expect((await runResource(teamAdmins, writes))[0]!.message).toContain('write in "Production" of application "shop"');
    expect(await runResource(teamAdmins, member({ applications: { shop: { environments: { Production: "read", Staging: "write" } } } }))).toEqual([]);
    expect(await runResource(teamAdmins, writes, { protectedEnvironments: ["Live"] })).toEqual([]);
  });

  it("adminEmails lets the listed people through, ignoring case", async () => {
    expect(await runResource(teamAdmins, member({ teamAdmin: true }), { adminEmails: ["DEV@Example.com"] })).toEqual([]);
  });
});

describe("cloudbees-provider-token-secret", () => {
  const provider = (props: Record<string, unknown>, secret: string[]) => {
    const r = resource("x", "p", {});
    return { ...r, type: "pulumi:providers:cloudbees", props: markSecret(props, secret) } as typeof r;
  };

  it("a token sent secret passes; one in plain text is reported by its path, never its value", async () => {
    expect(await runResource(providerTokenSecret, provider({ apiToken: "s3cr3t", featureManagementToken: "t" }, ["apiToken", "featureManagementToken"]))).toEqual([]);
    const violations = await runResource(providerTokenSecret, provider({ apiToken: "s3cr3t" }, []));
    expect(violations[0]!.message).toContain("is given apiToken in plain text");
    expect(violations[0]!.message).not.toContain("s3cr3t");
  });

  it("a connection's and an instance's tokens are checked too; a secret connection covers what it holds", async () => {
    const connections = { prod: { apiToken: "a", instances: { c: { apiToken: "b" } } } };
    const violations = await runResource(providerTokenSecret, provider({ connections }, ["connections.prod.apiToken"]));
    expect(violations[0]!.message).toContain("is given connections.prod.instances.c.apiToken in plain text");
    expect(await runResource(providerTokenSecret, provider({ connections }, ["connections"]))).toEqual([]);
  });

  it("inputs whose secret marks it cannot read are said to be unreadable (advisory), neither passed nor failed", async () => {
    const r = resource("x", "p", {});
    await expect(runResource(providerTokenSecret, { ...r, type: "pulumi:providers:cloudbees", props: { apiToken: "a" } } as typeof r)).rejects.toThrow(
      /cannot tell whether the tokens of pulumi:providers:cloudbees "p" are secrets/,
    );
  });

  it("other resources are not its business", async () => {
    expect(await runResource(providerTokenSecret, resource("Application", "a", { apiToken: "x" }))).toEqual([]);
  });
});
