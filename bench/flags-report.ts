/**
 * `pulumi-cloudbees flags` under the feature-flag service's 1 request/s (issue 64, "Performance"): 3 applications x
 * 3 environments x 200 flags in the emulator (in this process), impressions recorded over past days for most flags,
 * the emulator's rate limit on (a request < 1 s after the last accepted one gets 555) and the command's default
 * spacing (one request a second, in this process). Its requests are counted by kind from the emulator's journal:
 * one impressions call per application and environment, the lists the report needs (applications, environments,
 * flags), the audit logs over the last N days (none in them: the report is as of 60 days after the flags were made,
 * the emulator's clock and --as-of) and the newer statuses endpoint's detection. The wall time of the run (a source
 * tree of one file scanned too) is set against the request floor ((requests - 1) x 1 s: the first goes at once): at
 * most 1.1x.
 *
 * Runnable alone: `npm run bench -- --only flags`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { flagsCommand, REPORT_FILE } from "../cli/flags/command";
import type { FlagsReport } from "../cli/flags/report";
import { startEmulator } from "../emulator";
import type { ImpressionRecord } from "../emulator/impressions";
import { FeatureManagementClient } from "../provider";
import { blankCloudbeesEnv } from "./harness";
import { ms, row, seconds } from "./table";

const APPLICATIONS = 3;
const ENVIRONMENTS = ["Production", "Staging", "QA"];
const FLAGS = 200;
const FM_PATH = "/feature-management/";
const PUBLIC_API = `${FM_PATH}public-api/`;
/** The report is as of this many days after the flags were made, as a real account's flags are old: no audit log in the window. */
const LATER_DAYS = 60;

/** A request's kind, from its path under public-api/. */
function kindOf(p: string): string {
  if (!p.includes(PUBLIC_API)) return p.includes("flags-status") ? "statuses" : p.slice(p.indexOf(FM_PATH) + FM_PATH.length).replace(/[0-9a-f]{24}/g, "{id}");
  const rest = p.slice(p.indexOf(PUBLIC_API) + PUBLIC_API.length).split("?")[0]!;
  if (/\/impressions$/.test(rest)) return "impressions";
  if (/auditlogs/.test(rest)) return "audit log";
  if (/flags-status/.test(rest)) return "statuses";
  if (/\/environments$/.test(rest)) return "environments";
  if (/\/flags$|\/experiments$/.test(rest)) return "flags";
  if (/^applications$/.test(rest)) return "applications";
  return rest.replace(/[0-9a-f]{24}/g, "{id}");
}

export async function flagsReportRows(): Promise<void> {
  const emu = await startEmulator({});
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "bench-flags-"));
  const client = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  try {
    const records: ImpressionRecord[] = [];
    for (let a = 0; a < APPLICATIONS; a++) {
      const applicationId = (await client.createApplication(`bench-app-${a}`)).id;
      for (const name of ENVIRONMENTS.slice(1)) await client.createEnvironment(applicationId, { name });
      for (let f = 0; f < FLAGS; f++) {
        const flag = `bench.flag${String(f).padStart(3, "0")}`;
        await client.createFlag(applicationId, { name: flag });
        // Three flags in four never evaluated in QA; some one value, some two; a few only long ago.
        for (const environment of ENVIRONMENTS) {
          if (environment === "QA" && f % 4 !== 0) continue;
          const days = f % 10 === 9 ? [45, 50] : [0, 3, 8, 15, 29];
          for (const daysAgo of days) records.push({ applicationId, environment, flag, value: f % 3 === 0 && daysAgo === 3 ? "false" : "true", daysAgo, count: 1 + (f % 7) });
        }
      }
    }
    const asOf = new Date(Date.now() + LATER_DAYS * 86_400_000).toISOString();
    emu.impressions.setClock(asOf);
    emu.impressions.record(...records);
    emu.setFeatureManagementRateLimit(true);
    emu.journal.clear();
    const env = {
      ...process.env,
      ...blankCloudbeesEnv(),
      CLOUDBEES_FEATURE_MANAGEMENT_URL: emu.featureManagementUrl,
      CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: emu.credentials.featureManagementToken,
    };
    // A source tree that spells a third of the flags: code references known, so that removals can be given.
    fs.mkdirSync(path.join(out, "src"));
    fs.writeFileSync(path.join(out, "src", "flags.js"), Array.from({ length: FLAGS }, (_, f) => (f % 3 === 0 ? `check("bench.flag${String(f).padStart(3, "0")}");\n` : "")).join(""));
    const quiet = { write: () => true } as unknown as NodeJS.WriteStream;
    const started = performance.now();
    const code = await flagsCommand(["--critical", "Production", "--as-of", asOf, "--source", path.join(out, "src"), "--out", path.join(out, "report")], { env, err: quiet });
    const wall = performance.now() - started;
    const report = JSON.parse(fs.readFileSync(path.join(out, "report", REPORT_FILE), "utf8")) as FlagsReport;
    const calls = emu.journal.entries().filter((e) => e.path.includes(FM_PATH));
    const byKind: Record<string, number> = {};
    for (const c of calls) byKind[kindOf(c.path)] = (byKind[kindOf(c.path)] ?? 0) + 1;
    const limited = calls.filter((c) => c.status === 555).length;
    const pairs = APPLICATIONS * ENVIRONMENTS.length;
    if (report.summary.flags !== APPLICATIONS * FLAGS || report.errors.length > 0) {
      throw new Error(`the flags bench's report is not whole: ${report.summary.flags} flags, errors ${JSON.stringify(report.errors).slice(0, 500)}`);
    }
    const kinds = Object.entries(byKind).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k} ${n}`).join(", ");
    row(
      `flags report, ${APPLICATIONS} applications x ${ENVIRONMENTS.length} environments x ${FLAGS} flags: requests`,
      `${calls.length} (${kinds}); summary.requests ${report.summary.requests}; 555 answers ${limited}`,
      `${pairs} impressions calls (one per application and environment)`,
      undefined,
      { text: `impressions = ${pairs}, no 555`, met: byKind.impressions === pairs && limited === 0 },
    );
    // The first request goes at once, each next one a second after the one before.
    const floor = (calls.length - 1) * 1000;
    row(
      `flags report, ${APPLICATIONS} x ${ENVIRONMENTS.length} x ${FLAGS}: wall time at 1 request/s (exit ${code}, ${report.summary.keep} keep, ${report.summary.removeFromCode + report.summary.removeFromIac} candidates, ${report.summary.unknown} unknown)`,
      seconds(wall),
      `${seconds(floor)} (${calls.length} requests, one a second); ${ms(wall - floor)} over`,
      wall / floor,
      { text: "<= 1.10", met: wall / floor <= 1.1 },
    );
  } finally {
    await client.close();
    await emu.close();
    fs.rmSync(out, { recursive: true, force: true });
  }
}
