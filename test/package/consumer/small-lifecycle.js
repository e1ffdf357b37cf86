// @ts-check
// The life cycle of small/index.js against the emulator with pulumi-cloudbees/testing: preview, up, a refresh that
// must find nothing, an up that changes nothing, destroy. Prints one JSON line for the package test.
const assert = require("node:assert/strict");
const path = require("node:path");
const { closeClients } = require("pulumi-cloudbees");
const { changesOf, formatPlan, ProgramTest, startEmulator } = require("pulumi-cloudbees/testing");

async function main() {
  const emulator = await startEmulator();
  const test = await ProgramTest.start({
    dir: path.join(__dirname, "small"),
    emulator,
    config: { "consumer:controllerUrl": emulator.controllerUrls["team-b/controller-b"] },
  });
  try {
    const preview = await test.preview();
    assert.ok(preview.length === 3 && preview.every((e) => e.op === "create"), formatPlan(preview));
    const up = await test.up();
    assert.equal(up.filter((e) => e.op === "create").length, 3, formatPlan(up));
    const outputs = test.outputs().outputs;
    assert.equal(emulator.state.assignments()["team-b/controller-b"], "team-b");
    await test.refresh({ expectNoChanges: true });
    const again = await test.up();
    assert.deepEqual(changesOf(again), [], formatPlan(again));
    const destroy = await test.destroy();
    assert.equal(destroy.length, 3, formatPlan(destroy));
    assert.deepEqual(test.state().resources, []);
    console.log(JSON.stringify({ outputs }));
  } finally {
    await closeClients();
    await test.close();
    await emulator.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
