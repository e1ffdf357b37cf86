/* istanbul ignore file */
/**
 * Issue 43: `pulumi-cloudbees import` reads feature-flag lists item by item, as the resources do. One experiment in a
 * form this version cannot read (answered over real HTTP by the emulator, as a newer service could write it) is
 * skipped: a line of standard error names it (quoted) and says why, once; the program notes it and declares the
 * others; the command succeeds.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startEmulator, type Emulator } from "../../emulator";
import { FeatureManagementClient } from "../../provider";
import { assertBuiltPackage, REPO_ROOT } from "../resources/helpers";
import { cliEnvironment } from "./cli-environment";

const BIN = path.join(REPO_ROOT, "dist", "cli", "main.js");
const FM = "/feature-management/public-api/applications";

let emu: Emulator;
let dir: string;
let appId: string;

beforeAll(async () => {
  assertBuiltPackage();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-import-unreadable-"));
  emu = await startEmulator();
  const ui = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  try {
    appId = (await ui.createApplication("shop")).id;
    await ui.putTargetGroup(appId, { type: "target-group", name: "beta", conditions: [{ property: "beta", operator: "is-true" }] });
    for (const flag of ["shop.fine", "shop.odd", "shop.other"]) {
      await ui.createFlag(appId, { name: flag });
      await ui.putExperiment(appId, "Production", { type: "experiment", flag, conditions: [{ group: { name: "beta" }, value: true }], value: false });
    }
    // The experiment list as the service answers it, `shop.odd` with a group operator no version of this package knows.
    const answer = (await ui.listExperiments(appId, "Production")).map((e) =>
      e.flag === "shop.odd" ? { ...e, conditions: [{ group: { operator: "xor", name: "beta" }, value: true }] } : e,
    );
    emu.faults.inject({ method: "GET", path: `${FM}/${appId}/Production/experiments`, status: 200, body: JSON.stringify(answer), times: 1 });
  } finally {
    await ui.close();
  }
});
afterAll(async () => {
  await emu?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it("skips the unreadable experiment, says which and why on one line, and imports the others", async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, "import"], { cwd: dir, env: cliEnvironment(emu) });
  // The fault was consumed: the import read that list (once).
  expect(emu.faults.pending()).toEqual([]);
  const lines = stderr.split("\n").filter((l) => l !== "");
  expect(lines).toEqual([
    expect.stringMatching(
      new RegExp(
        `^pulumi-cloudbees: getExperiments\\(applicationId: "${appId}", environment: "Production"\\): skipped experiment "shop\\.odd" ` +
          `\\(item 2 of the answer\\), in a form this version of pulumi-cloudbees cannot read \\(conditions\\[0\\]\\.group\\.operator: [^)]+\\); the other items were read$`,
      ),
    ),
  ]);
  // The program declares the readable configurations, notes the skipped one, and declares no configuration of it.
  expect(stdout).toMatch(/^\/\/ Not declared, as it could not be read: getExperiments\(.*skipped experiment "shop\.odd"/m);
  const configurations = [...stdout.matchAll(/new cloudbees\.FlagConfiguration\([^]*?flag: ([^,\n]+)/g)].map((m) => m[1]);
  expect(configurations.sort()).toEqual(["shopShopFineFlag.name", "shopShopOtherFlag.name"]);
  // The flag itself was readable (the flag list): it is declared.
  expect(stdout).toMatch(/const shopShopOddFlag = new cloudbees\.Flag\(/);
});
