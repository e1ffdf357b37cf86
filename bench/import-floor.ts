/**
 * `pulumi-cloudbees import` of a large feature-flag account with the service's 1 request/s limit on (issue 30): the
 * requests against the reads that must be made, the wall time against that many seconds, the 555 answers, and the
 * first `up` of the written program (its writes, through the real provider host). Runnable alone:
 * `npx ts-node --transpile-only bench/import-floor.ts` (after `npm run build` and `node scripts/link-self.js`).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { startEmulator, type Emulator } from "../emulator";
import { FeatureManagementClient } from "../provider/api";
import { emulatorStackConfig, ProgramRunner } from "../testing";
import { blankCloudbeesEnv } from "./harness";
import { row, seconds, table } from "./table";

const REPO_ROOT = path.resolve(__dirname, "..");
const CLI = path.join(REPO_ROOT, "dist", "cli", "main.js");
const FM_PATH = "/feature-management/";
const WRITES = ["POST", "PUT", "PATCH", "DELETE"];

export const ACCOUNT = { applications: 3, environments: ["Production", "Staging", "QA"], flags: 50, targetGroups: 10 };

/**
 * The reads an import must make: the application list, then per application its environments, target groups, flags
 * (one environment's list holds them all) and one configuration list per environment; and the team members.
 */
export function requiredReads(account = ACCOUNT): number {
  return 1 + account.applications * (3 + account.environments.length) + 1;
}

/** The account, set up as people do in the UI (not by this package), with the rate limit off. */
async function seed(emu: Emulator): Promise<void> {
  const fm = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  try {
    for (let a = 0; a < ACCOUNT.applications; a++) {
      const app = (await fm.createApplication(`shop-${a}`)).id;
      // Production comes with the application.
      for (const name of ACCOUNT.environments.slice(1)) await fm.createEnvironment(app, { name });
      for (let g = 0; g < ACCOUNT.targetGroups; g++) {
        await fm.putTargetGroup(app, { type: "target-group", name: `group-${g}`, conditions: [{ property: "plan", operator: "in-array", operand: [`tier-${g}`] }] });
      }
      for (let f = 0; f < ACCOUNT.flags; f++) {
        const flag = `shop.flag${f}`;
        await fm.createFlag(app, { name: flag });
        for (const [e, environment] of ACCOUNT.environments.entries()) {
          await fm.putExperiment(app, environment, {
            type: "experiment",
            flag,
            labels: ["shop"],
            conditions: [{ group: { name: `group-${(f + e) % ACCOUNT.targetGroups}` }, value: true }],
            value: [{ option: true, percentage: (f * 7 + e * 11) % 100 }],
          });
        }
      }
    }
  } finally {
    await fm.close();
  }
}

export async function importRows(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-import-"));
  fs.mkdirSync(path.join(dir, "bundles"));
  const emu = await startEmulator({ bundlesDir: path.join(dir, "bundles"), controllers: [] });
  // The machine's own CLOUDBEES_* settings must not reach the CLI or the hosts.
  const blank = blankCloudbeesEnv();
  try {
    await seed(emu);
    emu.setFeatureManagementRateLimit(true);
    const fmRequests = (methods?: string[], status?: number) =>
      emu.journal.entries().filter((e) => e.path.startsWith(FM_PATH) && (!methods || methods.includes(e.method)) && (status === undefined || e.status === status)).length;

    // A project inside the repository, so that the program resolves pulumi-cloudbees as a user's does.
    const project = fs.mkdtempSync(path.join(REPO_ROOT, ".bench-import-"));
    try {
      fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: imported\nruntime: nodejs\nmain: index.ts\n");
      emu.journal.clear();
      const started = performance.now();
      await promisify(execFile)(process.execPath, [CLI, "import", "--out", path.join(project, "index.ts")], {
        cwd: dir,
        env: {
          ...process.env,
          ...blank,
          CLOUDBEES_OPERATIONS_CENTER_URL: emu.operationsCenterUrl,
          CLOUDBEES_USERNAME: emu.credentials.admin.username,
          CLOUDBEES_API_TOKEN: emu.credentials.admin.apiToken,
          CLOUDBEES_FEATURE_MANAGEMENT_URL: emu.featureManagementUrl,
          CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: emu.credentials.featureManagementToken,
        },
        maxBuffer: 64 * 1024 * 1024,
      });
      const took = performance.now() - started;
      const reads = requiredReads();
      const made = fmRequests();
      const refused = fmRequests(undefined, 555);
      const shape = `${ACCOUNT.applications} applications x ${ACCOUNT.environments.length} environments x ${ACCOUNT.flags} flags, ${ACCOUNT.targetGroups} target groups each`;
      row(`import of ${shape}, 1 request/s: requests`, String(made), `${reads} (reads that must be made)`, made / reads, { text: `= ${reads}`, met: made === reads });
      row("import: wall time", seconds(took), `${seconds(reads * 1000)} (${reads} requests, 1/s)`, took / (reads * 1000), { text: "<= 1.1", met: took / (reads * 1000) <= 1.1 });
      row("import: 555 answers", String(refused), "0", undefined, { text: "0", met: refused === 0 });

      // The written program's first up, with the limit still on: every resource adopted, nothing written.
      const runner = await ProgramRunner.start({ cwd: project, config: emulatorStackConfig(emu), env: blank, timeoutMs: 600_000, callTimeoutMs: 300_000 });
      try {
        emu.journal.clear();
        const [plan, upMs] = await timedUp(runner);
        const writes = fmRequests(WRITES) + emu.journal.entries().filter((e) => !e.path.startsWith(FM_PATH) && WRITES.includes(e.method)).length;
        row(`first up of the imported program (${plan} resources): writes`, String(writes), "0", undefined, { text: "0", met: writes === 0 });
        row("first up: requests (reads) at 1 request/s, and its wall time", `${fmRequests()} in ${seconds(upMs)}`);
        row("first up: 555 answers", String(fmRequests(undefined, 555)), "0", undefined, { text: "0", met: fmRequests(undefined, 555) === 0 });
      } finally {
        await runner.close();
      }
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function timedUp(runner: ProgramRunner): Promise<[number, number]> {
  const started = performance.now();
  const plan = await runner.up();
  return [plan.length, performance.now() - started];
}

if (require.main === module) {
  importRows()
    .then(() => console.log(table().text))
    .catch((e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
      process.exit(1);
    });
}
