// A program of a project made by `pulumi new typescript` (tsconfig.json beside this file is the template's): it
// reaches every entry point of the package, so every published declaration is checked (no skipLibCheck).
import * as pulumi from "@pulumi/pulumi";
import * as cloudbees from "pulumi-cloudbees";
import * as provider from "pulumi-cloudbees/provider";
import * as emulator from "pulumi-cloudbees/emulator";
import * as testing from "pulumi-cloudbees/testing";
import * as policy from "pulumi-cloudbees/policy";

const app = new cloudbees.Application("app", { name: "checkout" });
const flag = new cloudbees.Flag("flag", { applicationId: app.applicationId, name: "newCheckout" });
export const flagName: pulumi.Output<string> = flag.name;

export async function shapes(): Promise<void> {
  const flags: provider.FlagInfo[] = await cloudbees.getFlags("app-id", "Production");
  const bundles: provider.ListedBundle[] = [];
  const running: emulator.Emulator = await emulator.startEmulator({ port: 0 });
  const test: testing.ProgramTest = await testing.ProgramTest.start({ dir: "." });
  // A user's own pack takes these (with PolicyPack of @pulumi/policy, whose own declarations need skipLibCheck).
  const guardrails = [policy.availabilityNarrow({ allowedBundles: ["base"] }), policy.teamAdmins("advisory")];
  console.log(flags.length, bundles.length, running, test, guardrails);
}
