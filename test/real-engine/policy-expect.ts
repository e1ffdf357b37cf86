/**
 * What the policy tier tests (policy.test.ts on the dynamic providers, policy-plugin.test.ts through the plugin)
 * expect of a run of the pack on their violating programs: each policy's report, naming the resource and the fix.
 */
import * as path from "node:path";
import type { Emulator } from "../../emulator";

/** The pack's folder, as a user passes it to `--policy-pack` (policy/package.json points at dist/policy). */
export const PACK = path.join(__dirname, "..", "..", "policy");

/** Each policy, a resource of the violating programs it names, and words of its fix. */
const REPORTS: Array<[policy: string, resource: string, fix: RegExp]> = [
  ["cloudbees-bundle-validated", "unvalidated-assignment", /declare a BundleValidation of that bundle/],
  ["cloudbees-bundle-validated", "unvalidated-reload", /reloads a bundle that no BundleValidation checks first/],
  ["cloudbees-assignment-fallback", "unvalidated-assignment", /give the bundle the controller gets back on destroy/],
  ["cloudbees-availability-narrow", "everyone-availability", /list its controllers/],
  ["cloudbees-availability-narrow", "global-switch", /set visibility to false/],
  ["cloudbees-flag-protected-environments", "straight-to-production", /configure it in one \(Staging\) in this stack first/],
  ["cloudbees-flag-target-groups", "ghost-group", /declare it \(TargetGroup\)/],
  ["cloudbees-team-admins", "developer-admin", /add the email to this policy's adminEmails/],
  ["cloudbees-flag-description", "straight-to-production", /say what the flag is for/],
  ["cloudbees-flag-on-everywhere", "old-", /remove it from the code/],
];

/** The policy's block of the CLI's report (from its name to the next policy's), with the resource it names. */
function blockOf(output: string, policy: string, resource: string): string | undefined {
  const blocks = output.split(/\n\s*- \[(?:mandatory|advisory)\]\s+/);
  return blocks.find((b) => b.startsWith(policy) && b.split("\n")[0]!.includes(resource));
}

export function expectReports(output: string, face: "dynamic" | "plugin"): void {
  const missing = REPORTS.filter(([policy, resource, fix]) => !fix.test(blockOf(output, policy, resource) ?? "")).map(([p, r]) => `${p} on ${r}`);
  if (face === "plugin" && !/cloudbees-provider-token-secret[^\n]*\n[\s\S]*?connections\.prod\.featureManagementToken in plain text/.test(output)) missing.push("cloudbees-provider-token-secret");
  if (missing.length > 0) throw new Error(`the pack did not report ${missing.join("; ")}:\n${output}`);
}

/** The CLI's report of the policies' violations: its `Policies:` section ("" when none was reported). */
export function policyReport(output: string): string {
  const start = output.indexOf("\nPolicies:");
  if (start < 0) return "";
  const end = output.indexOf("\nDiagnostics:", start);
  return output.slice(start, end < 0 ? undefined : end).split("\n").filter((l) => /^\s+- \[|^\s{10}/.test(l)).join("\n");
}

/** The requests that changed something on the emulator (anything but a read). */
export function writes(emu: Emulator): string[] {
  return emu.journal.entries().filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
}
