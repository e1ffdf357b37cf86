/** The controllers' policy of the pack (policy/controllers.ts), on constructed arguments of both faces. */
import { controllerIgnoreSecurity, hiddenSecurity } from "../../policy/controllers";
import { resource, runResource, UNKNOWN } from "./run-policy";

const watching = (ignore: unknown, face: "plugin" | "dynamic" = "plugin") =>
  resource("ControllerConfiguration", "controller-a", { controllerPath: "team-a/controller-a", bundleTreePath: "./bundles", bundleId: "team-a", ignore }, face);

describe("cloudbees-controller-ignore-security", () => {
  it.each([
    ["jenkins.yaml: jenkins.authorizationStrategy", "the authorization strategy"],
    ["jenkins.yaml: jenkins.securityRealm", "the security realm"],
    ["jenkins.yaml: credentials", "the credentials"],
    ["jenkins.yaml: jenkins.agentProtocols", "the agent protocols"],
    // Beneath one: part of it is hidden.
    ['jenkins.yaml: credentials.system.domainCredentials[0].credentials["github-token"]', "the credentials"],
    ["jenkins.yaml: jenkins.securityRealm.local.users", "the security realm"],
    [" jenkins.yaml: jenkins.agentProtocols ", "the agent protocols"],
  ])("%s hides %s", async (path, what) => {
    for (const face of ["plugin", "dynamic"] as const) {
      const [violation, ...rest] = await runResource(controllerIgnoreSecurity, watching(["jenkins.yaml: jenkins.systemMessage", path], face));
      expect(rest).toEqual([]);
      expect(violation!.message).toBe(
        `ControllerConfiguration "controller-a" ignores ${JSON.stringify(path.trim())} (${what}): a change made there on the controller would never show as drift. Ignore a narrower path that leaves them compared, or list the path in this policy's allowedPaths.`,
      );
    }
  });

  it("a parent of them, or the whole file, hides every one it covers", () => {
    expect(hiddenSecurity("jenkins.yaml: jenkins")).toEqual(["the authorization strategy", "the security realm", "the agent protocols"]);
    expect(hiddenSecurity("jenkins.yaml")).toEqual(["the authorization strategy", "the security realm", "the credentials", "the agent protocols"]);
  });

  it.each(["jenkins.yaml: jenkins.systemMessage", "jenkins.yaml: jenkins.securityRealmNotes", "jenkins.yaml: credentialsHelp", "jenkins.yaml: unclassified", "plugins.yaml", "rbac.yaml", "items.yaml: item \"credentials\""])(
    "%s hides none of them",
    async (path) => {
      expect(await runResource(controllerIgnoreSecurity, watching([path]))).toEqual([]);
    },
  );

  it("no ignore passes; other resources are not its business", async () => {
    expect(await runResource(controllerIgnoreSecurity, watching(undefined))).toEqual([]);
    expect(await runResource(controllerIgnoreSecurity, resource("BundleAvailability", "x", { ignore: ["jenkins.yaml"] }))).toEqual([]);
  });

  it("allowedPaths lets the listed paths, and the paths beneath them, through; a parent of a listed path still fails", async () => {
    const config = { allowedPaths: ["jenkins.yaml: jenkins.agentProtocols", "jenkins.yaml: credentials"] };
    expect(await runResource(controllerIgnoreSecurity, watching(["jenkins.yaml: jenkins.agentProtocols", "jenkins.yaml: credentials.system"]), config)).toEqual([]);
    const [violation] = await runResource(controllerIgnoreSecurity, watching(["jenkins.yaml: jenkins.agentProtocols", "jenkins.yaml: jenkins", "jenkins.yaml: jenkins.securityRealm"]), config);
    expect(violation!.message).toContain(
      'ignores "jenkins.yaml: jenkins" (the authorization strategy, the security realm, the agent protocols), "jenkins.yaml: jenkins.securityRealm" (the security realm): ',
    );
  });

  it("an ignore list unknown in preview is said, not passed", async () => {
    await expect(runResource(controllerIgnoreSecurity, watching(UNKNOWN))).rejects.toThrow('it cannot see ignore of ControllerConfiguration "controller-a"');
  });
});
