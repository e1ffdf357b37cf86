/* istanbul ignore file */
/**
 * Issue 29: a drift job (`pulumi preview --refresh --expect-no-changes`) through the testing kit and the real provider
 * host, against examples/flags: a colleague's change made with her own token shows up as one warning per changed
 * resource naming her, the time and the action, from one audit-log read per application environment. The page
 * docs/drift-detection.md shows what this test prints: the test checks it, times aside.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { FeatureManagementClient } from "../../provider";
import { featureManagementClientAs, ProgramRunError, ProgramTest } from "../../testing";
import { expectOneQuotedLine, LINE_TERMINATORS } from "../harness/hostile-text";

const ROOT = path.join(__dirname, "..", "..");
const DOCS_PAGE = path.join(ROOT, "docs", "drift-detection.md");

let t: ProgramTest;
let alice: FeatureManagementClient;
let appId: string;
beforeAll(async () => {
  t = await ProgramTest.start({ dir: path.join(ROOT, "examples", "flags") });
  await t.up();
  appId = String(t.outputs().appId);
  alice = featureManagementClientAs(t.emulator, { email: "alice@example.com", name: "Alice" });
}, 120_000);
afterAll(async () => {
  await alice?.close();
  await t?.close();
});

/** The audit-log reads the last step made, by environment. */
function auditReads(): string[] {
  return t.emulator.journal
    .entries()
    .filter((e) => e.path.endsWith("/auditlogs"))
    .map((e) => decodeURIComponent(e.path.split("/").at(-2)!));
}

/** The newest audit record of the flag in the environment: its time to the second. */
function whenOf(environment: string, flag: string): string {
  const record = t.emulator.state.auditLogs(appId, environment).filter((r) => r.experiment === flag).at(-1)!;
  return record.creation_date.replace(/\.\d{3}Z$/, "Z");
}

/** The ```text block under the marker of the docs page: the text before its closing fence. */
const BLOCK = /(<!-- output of test\/testing\/drift-job\.test\.ts -->\n```text\n)([\s\S]*?)(^```$)/m;

function docsOutput(): string {
  const m = BLOCK.exec(fs.readFileSync(DOCS_PAGE, "utf8"));
  if (!m) throw new Error(`${DOCS_PAGE}: no \`\`\`text block after the marker "<!-- output of test/testing/drift-job.test.ts -->"`);
  return m[2]!.replace(/\n$/, "");
}

function writeDocsOutput(text: string): void {
  const page = fs.readFileSync(DOCS_PAGE, "utf8");
  fs.writeFileSync(DOCS_PAGE, page.replace(BLOCK, (_m, head: string, _old: string, fence: string) => `${head}${text}\n${fence}`));
}

/**
 * Times change from run to run (the page shows those of one run), and so does the order in which parallel refreshes
 * finish: the same lines, times aside.
 */
const normalized = (text: string) =>
  text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z/g, "<time>")
    .split("\n")
    .sort();

describe("a drift job through the testing kit", () => {
  it("passes after a clean up without reading the audit log", async () => {
    t.emulator.journal.clear();
    await t.preview({ refresh: true, expectNoChanges: true });
    expect(t.runner.last!.warnings).toEqual([]);
    expect(auditReads()).toEqual([]);
  });

  it("fails on a colleague's changes with one warning per changed resource naming her, the time and the action; one audit-log read per environment", async () => {
    await alice.patchExperiment(appId, "Production", "checkout.newFlow", [{ op: "replace", path: "/enabled", value: false }]);
    await alice.patchExperiment(appId, "Staging", "checkout.newFlow", [{ op: "replace", path: "/value", value: [{ option: true, percentage: 80 }] }]);
    await alice.patchExperiment(appId, "Production", "checkout.bannerColor", [{ op: "replace", path: "/value", value: "red" }]);
    t.emulator.journal.clear();

    const error = (await t.preview({ refresh: true, expectNoChanges: true }).catch((e: unknown) => e)) as ProgramRunError;
    expect(error).toBeInstanceOf(ProgramRunError);
    expect([...error.warnings].sort()).toEqual([
      `FlagConfiguration checkout.bannerColor/Production changed outside this stack by "alice@example.com" at ${whenOf("Production", "checkout.bannerColor")}: "updated flag configuration"`,
      `FlagConfiguration checkout.newFlow/Production changed outside this stack by "alice@example.com" at ${whenOf("Production", "checkout.newFlow")}: "turned targeting off"`,
      `FlagConfiguration checkout.newFlow/Staging changed outside this stack by "alice@example.com" at ${whenOf("Staging", "checkout.newFlow")}: "updated flag configuration"`,
    ]);
    // Shared: three resources found changed in Production and Staging, one read of each log.
    expect(auditReads().sort()).toEqual(["Production", "Staging"]);
    // The docs page shows this run's output (docs/drift-detection.md, under its marker); UPDATE_DOCS_OUTPUT=1 writes it.
    if (process.env.UPDATE_DOCS_OUTPUT === "1") writeDocsOutput(error.message);
    expect(normalized(docsOutput())).toEqual(normalized(error.message));
  });

  it("a log that cannot be read still gives the warning, saying so, and never fails the refresh itself", async () => {
    const auditPath = `/feature-management/public-api/applications/${appId}/Production/auditlogs`;
    // A token whose owner may not read the audit log.
    t.emulator.faults.inject({ method: "GET", path: auditPath, status: 403, times: Infinity });
    try {
      const error = (await t.preview({ refresh: true, expectNoChanges: true }).catch((e: unknown) => e)) as ProgramRunError;
      // The step fails for the drift only (expectNoChanges), not for the log.
      expect(error.message).toMatch(/^pulumi preview failed: no changes were expected \(expectNoChanges\)/);
      const production = error.warnings.filter((w) => w.includes("/Production "));
      expect(production).toHaveLength(2);
      for (const w of production) expect(w).toMatch(/changed outside this stack; who changed it cannot be told: the audit log of environment "Production" could not be read \(.*403/);
      expect(error.warnings.filter((w) => w.includes('by "alice@example.com"'))).toHaveLength(1);
    } finally {
      t.emulator.faults.clear();
    }
  });

  it("after up --refresh puts it back, the drift job passes again and reads no log", async () => {
    // Without --refresh, up compares the program with the state, which a preview's refresh did not change: no update.
    await t.up({ refresh: true });
    t.emulator.journal.clear();
    await t.preview({ refresh: true, expectNoChanges: true });
    expect(t.runner.last!.warnings).toEqual([]);
    expect(auditReads()).toEqual([]);
  });

  it("a colleague whose email forges lines of the log: still one warning for one drift, quoting her (issue 37)", async () => {
    // On main the kit gave two warnings here: the real one cut at the line feed, and a forged one.
    const email = `mallory${LINE_TERMINATORS.LF}warning: forged${LINE_TERMINATORS.CRLF}::add-mask::x${LINE_TERMINATORS.LS}##vso[task.setvariable variable=X]y${LINE_TERMINATORS.NEL}\u001b[2J@evil.example`;
    const mallory = featureManagementClientAs(t.emulator, { email, name: "Mallory" });
    try {
      await mallory.patchExperiment(appId, "Production", "checkout.bannerColor", [{ op: "replace", path: "/value", value: "green" }]);
      const error = (await t.preview({ refresh: true, expectNoChanges: true }).catch((e: unknown) => e)) as ProgramRunError;
      expect(error).toBeInstanceOf(ProgramRunError);
      expect(error.warnings).toHaveLength(1);
      // Every line of the host's output: the forged text is in the one warning line, and starts none of its own.
      expect(error.hostOutput.split("\n").filter((l) => l.includes("forged"))).toEqual([`warning: ${error.warnings[0]}`]);
      expect(error.warnings[0]).toMatch(/^FlagConfiguration checkout\.bannerColor\/Production changed outside this stack by "/);
      expectOneQuotedLine(error.warnings[0]!, email);
    } finally {
      await mallory.close();
    }
  });
});
