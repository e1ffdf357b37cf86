// The main job's hygiene report (examples/main-job.ts, in its flags section): the real vendor SDK (rox-node,
// unmodified) evaluates the example application's flags in Production against the emulator's self-managed mode, the
// emulator counts the impressions it posts, and `pulumi-cloudbees flags` (its function, in this process) reports
// the application: each flag's status per environment and its verdict. Nothing leaves loopback (the SDK's network
// goes through pulumi-cloudbees/testing's loopback guard).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { flagsCommand, HTML_FILE, REPORT_FILE } from "../cli/flags/command";
import type { FlagsReport } from "../cli/flags/report";
import type { Emulator } from "../emulator";
import { startSelfManagedRox, until } from "../testing/flags-sdk/self-managed-rox";

/** Users the SDK evaluates the flags for: beta testers of examples/flags' target group (its default `@example.com`) and others. */
const USERS = ["dana@checkout.example", "lee@checkout.example", "sam@example.com", "kim@example.com", "ana@example.com", "joe@example.com", "eve@example.com", "max@example.com"];

export async function hygieneReport(emu: Emulator, appId: string, productionKey: string): Promise<void> {
  console.log("\n######## pulumi-cloudbees flags: the example application's hygiene report, after the real SDK evaluated its flags");
  const impressions = () => emu.journal.entries().filter((e) => e.path.startsWith(`/self-managed/impression/${productionKey}`)).reduce((n, e) => n + (JSON.parse(e.body.toString("utf8")) as { events: unknown[] }).events.length, 0);
  const states = () => emu.journal.entries().filter((e) => e.path.startsWith("/self-managed/device/update_state_store/")).length;
  const sdk = await startSelfManagedRox(emu.selfManaged, productionKey);
  const served: Record<string, Record<string, number>> = {};
  try {
    await sdk.fetch();
    for (const email of USERS) {
      const context = { email, plan: "free" };
      const values = { "checkout.newFlow": String(sdk.isEnabled("checkout.newFlow", context)), "checkout.bannerColor": sdk.getString("checkout.bannerColor", "blue", context) };
      for (const [flag, value] of Object.entries(values)) (served[flag] ??= {})[value] = (served[flag]![value] ?? 0) + 1;
    }
    await until(() => impressions() >= 2 * USERS.length);
  } finally {
    const before = states();
    await sdk.close(() => states() > before);
  }
  console.log(`rox-node in self-managed mode, Production's key: ${2 * USERS.length} evaluations served ${JSON.stringify(served)}; the emulator counted ${impressions()} impressions`);

  const out = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-flags-report-"));
  const env = {
    ...process.env,
    CLOUDBEES_FEATURE_MANAGEMENT_URL: emu.featureManagementUrl,
    CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: emu.credentials.featureManagementToken,
    // The emulator keeps no rate limit: no need to wait a second between requests.
    CLOUDBEES_FEATURE_MANAGEMENT_REQUEST_INTERVAL_MS: "0",
  };
  const said: string[] = [];
  const err = { write: (text: string) => said.push(text) > 0 } as unknown as NodeJS.WriteStream;
  console.log(`\n== pulumi-cloudbees flags --application ${appId} --critical Production --out ${out}`);
  const code = await flagsCommand(["--application", appId, "--critical", "Production", "--out", out], { env, err });
  const report = JSON.parse(fs.readFileSync(path.join(out, REPORT_FILE), "utf8")) as FlagsReport;
  console.log(said.join("").trimEnd());
  for (const app of report.applications) {
    for (const f of app.flags) {
      const statuses = f.environments.map((e) => `${e.environment} ${e.status}${e.status === "stale" && e.value !== undefined ? ` ${JSON.stringify(e.value)}` : ""}`).join(", ");
      console.log(`${f.name}: ${f.verdict} (${statuses}): ${f.reason}`);
    }
  }
  console.log(`exit ${code} (0: nothing to remove, 2: something not read); the page: ${path.join(out, HTML_FILE)}`);
  if (report.errors.length > 0 || report.summary.flags !== 2) throw new Error(`UNEXPECTED: the hygiene report should read the example's two flags, and everything: ${JSON.stringify(report.errors)}`);
}
