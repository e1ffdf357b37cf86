// The life cycle of index.ts against the emulator, with pulumi-cloudbees/testing: what a user's own test does (here
// with node:assert, so the consumer project needs no test framework). Prints one JSON line for the package test.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { closeClients, getBundles } from "pulumi-cloudbees";
import { changesOf, formatPlan, ProgramTest, startEmulator } from "pulumi-cloudbees/testing";

async function main(): Promise<void> {
  // The operations center's bundle location is a scratch copy of the package's example bundles.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "consumer-bundles-"));
  const bundlesDir = path.join(scratch, "bundles");
  fs.cpSync(path.join(path.dirname(require.resolve("pulumi-cloudbees/package.json")), "examples", "bundles"), bundlesDir, { recursive: true });
  const emulator = await startEmulator({ bundlesDir });
  const test = await ProgramTest.start({
    dir: __dirname,
    emulator,
    config: { "consumer:bundlesDir": bundlesDir, "consumer:controllerUrl": emulator.controllerUrls["team-b/controller-b"] },
  });
  const steps: Record<string, string> = {};
  try {
    const preview = await test.preview();
    steps.preview = formatPlan(preview);
    assert.ok(preview.length >= 10 && preview.every((e) => e.op === "create"), steps.preview);
    assert.deepEqual(emulator.state.applications("acme"), [], "preview changes nothing");

    const up = await test.up();
    steps.up = formatPlan(up);
    assert.equal(up.filter((e) => e.op === "create").length, 10, steps.up);
    const outputs = test.outputs().outputs as Record<string, unknown>;
    assert.equal(emulator.state.appliedBundle("team-b/controller-b")?.bundle, "team-b");
    assert.ok(emulator.journal.entries().some((e) => e.path.endsWith("/casc-bundle/check-out")));

    // The drift job of a pipeline: a refresh right after a clean up finds nothing (it throws, listing the changes).
    const refresh = await test.refresh({ expectNoChanges: true });
    steps.refresh = formatPlan(refresh);
    const again = await test.up();
    steps.again = formatPlan(again);
    assert.deepEqual(changesOf(again), [], steps.again);

    const destroy = await test.destroy();
    steps.destroy = formatPlan(destroy);
    assert.equal(destroy.length, 10, steps.destroy);
    // The applications API cannot delete: the application stays in the account, and the provider warned.
    assert.deepEqual(emulator.state.applications("acme").map((a) => a.name), ["consumer-app"]);
    assert.match(test.runner.last!.hostOutput, /stays in the feature-flag account/);
    assert.deepEqual(test.state().resources, []);

    // A script's view of the same server, with settings instead of stack config.
    const settings = { operationsCenterUrl: emulator.operationsCenterUrl, ...emulator.credentials.admin };
    const names = (await getBundles({ settings })).map((b) => b.name).sort();
    console.log(JSON.stringify({ outputs, names, steps }));
  } finally {
    await closeClients();
    await test.close();
    await emulator.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
});
