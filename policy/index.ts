/**
 * The policy pack of pulumi-cloudbees (docs/policy.md), run by `pulumi preview --policy-pack
 * node_modules/pulumi-cloudbees/policy`: policy/package.json points here (dist/policy, built from policy/).
 */
import * as path from "node:path";
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";
import { noteSecrets } from "./secrets";

// PolicyPack reads the pack's version from ./package.json. Pulumi's Node.js host starts a pack in its folder; a host
// that runs it as a plugin (run-plugin) starts it in the program's: start from the pack's folder either way.
process.chdir(path.join(__dirname, "..", "..", "policy"));
noteSecrets();
new PolicyPack("cloudbees-guardrails", { policies });
