/**
 * The controllers' guardrail: a ControllerConfiguration's `ignore` leaves paths out of the comparison with the bundle,
 * so a change made on the controller there is never drift. Hiding who may do what, how users log in, the credentials
 * or the agent protocols would let a controller's admin loosen its security unseen: only an allow list may.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { isIgnored } from "../provider/configuration/normalize";
import { isKind, label, quote, stringList, Unseen } from "./resources";
import type { ControllerIgnoreSecuritySettings } from "./settings";

/** The security settings of a controller, as ignore paths (`<file>: <path>`, provider/configuration/keys.ts). */
export const SECURITY_PATHS: ReadonlyArray<{ path: string; what: string }> = [
  { path: "jenkins.yaml: jenkins.authorizationStrategy", what: "the authorization strategy" },
  { path: "jenkins.yaml: jenkins.securityRealm", what: "the security realm" },
  { path: "jenkins.yaml: credentials", what: "the credentials" },
  { path: "jenkins.yaml: jenkins.agentProtocols", what: "the agent protocols" },
];

/**
 * The security settings an ignore path hides, all or part: it names one, lies beneath one, or covers one (a parent,
 * a whole file). The provider's own matching (isIgnored) decides, so the policy sees what a refresh would leave out.
 */
export function hiddenSecurity(ignorePath: string): string[] {
  const p = ignorePath.trim();
  return SECURITY_PATHS.filter((s) => isIgnored(s.path, [p]) || isIgnored(p, [s.path])).map((s) => s.what);
}

export const controllerIgnoreSecurity: ResourceValidationPolicy = {
  name: "cloudbees-controller-ignore-security",
  description:
    "Security stays compared: a ControllerConfiguration whose ignore hides the authorization strategy, the security realm, the credentials or the agent protocols (or a parent of them, or the whole file) never shows a change made there on the controller as drift; only the paths this policy's allowedPaths lists may.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      allowedPaths: {
        type: "array",
        items: { type: "string" },
        description: 'Ignore paths that may hide security settings ("jenkins.yaml: jenkins.agentProtocols"); a path beneath one listed is allowed too.',
      },
    },
  },
  validateResource: (args, report) => {
    if (!isKind(args.type, "ControllerConfiguration")) return;
    const unseen = new Unseen();
    const ignore = unseen.read("ignore", args, () => stringList(args.props.ignore).map((p) => p.trim()));
    const allowed = stringList(args.getConfig<ControllerIgnoreSecuritySettings>().allowedPaths);
    const hiding = (ignore?.value ?? []).map((p) => ({ p, hides: hiddenSecurity(p) })).filter((e) => e.hides.length > 0 && !isIgnored(e.p, allowed));
    if (hiding.length > 0) {
      const listed = hiding.map((e) => `${quote(e.p)} (${e.hides.join(", ")})`).join(", ");
      report(`${label(args)} ignores ${listed}: a change made there on the controller would never show as drift. Ignore a narrower path that leaves them compared, or list the path in this policy's allowedPaths.`);
    }
    unseen.finish();
  },
};
