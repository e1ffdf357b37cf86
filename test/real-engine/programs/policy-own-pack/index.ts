// A user's own pack, as docs/policy.md#your-own-pack shows it: two policies of pulumi-cloudbees/policy, one with
// settings of its own (the agent protocols may be ignored), one at another level (team admins only advised).
// Run by test/real-engine/policy.test.ts on the violating program beside it.
import { PolicyPack } from "@pulumi/policy";
import { controllerIgnoreSecurity, teamAdmins } from "pulumi-cloudbees/policy";

// PolicyPack reads the pack's version from ./package.json, and the CLI may start a pack in the program's folder.
process.chdir(__dirname);
new PolicyPack("acme-guardrails", {
  policies: [controllerIgnoreSecurity({ allowedPaths: ["jenkins.yaml: jenkins.agentProtocols"] }), teamAdmins("advisory")],
});
