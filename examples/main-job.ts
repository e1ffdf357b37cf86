// The main job (`npm start`): the example program's whole life cycle against the embedded emulator, through
// Pulumi's real dynamic-provider host, with this repository's engine stand-in playing the CLI's part (the Pulumi CLI
// is not needed). Each step prints its plan: resource, operation, changed fields.
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { OperationsCenterClient } from "../provider";
import { formatPlan, ProgramRunner, type ProgramPlan } from "../test/harness";
import { emulatorStackConfig } from "./emulator-stack";

const ROOT = path.join(__dirname, "..");

function show(title: string, plan: ProgramPlan, runner: ProgramRunner): void {
  console.log(`\n== ${title}\n${formatPlan(plan)}`);
  // What the providers told the user (the CLI shows these as diagnostics).
  const warnings = (runner.last?.hostOutput ?? "").split("\n").filter((line) => line.startsWith("warning: "));
  for (const warning of warnings) console.log(`  ${warning}`);
}

async function main(): Promise<void> {
  const emu = await startEmulator();
  console.log(`emulator: operations center ${emu.operationsCenterUrl}, feature flags ${emu.featureManagementUrl}`);
  const runner = await ProgramRunner.start({ cwd: ROOT, config: emulatorStackConfig(emu) });
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  try {
    show("pulumi up", await runner.up(), runner);
    console.log(`outputs: ${JSON.stringify(runner.outputs())}`);
    show("pulumi up (again: nothing to change)", await runner.up(), runner);

    // Someone changes things by hand in the operations center.
    await oc.setAvailabilityPattern("team-b", "team-b/.*|sandbox");
    await oc.setControllerToBundle("team-b", "sandbox");
    console.log("\n== outside Pulumi: team-b's pattern widened to sandbox, and sandbox moved to team-b");

    show("pulumi refresh (reveals the drift)", await runner.refresh(), runner);
    show("pulumi up (corrects it)", await runner.up(), runner);
    show("pulumi destroy", await runner.destroy(), runner);
    console.log(`\nafter destroy: assignments ${JSON.stringify(emu.state.assignments())} (the API cannot unassign), ` +
      `API patterns ${JSON.stringify(emu.state.apiAvailabilityPatterns())}, global visibility ${emu.state.globalVisibility()}`);
  } finally {
    await oc.close();
    await runner.close();
    await emu.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
