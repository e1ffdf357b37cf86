// A short tour of the typed clients (docs/clients.md) against an emulator started in the same process. From a clone:
// `npx ts-node --transpile-only examples/client-walkthrough.ts` (`npm start` runs the example programs instead).
import { startEmulator } from "../emulator";
import { FeatureManagementClient, InstanceClient, OperationsCenterClient } from "../provider";

async function main(): Promise<void> {
  const emu = await startEmulator();
  const { admin, featureManagementToken } = emu.credentials;
  console.log(`emulator: operations center ${emu.operationsCenterUrl}, feature flags ${emu.featureManagementUrl}`);
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...admin });
  const flags = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: featureManagementToken });
  try {
    const app = await flags.createApplication("checkout-service");
    console.log(`created application ${app.name} (${app.id})`);
    for (const b of await oc.listBundles()) console.log(`bundle ${b.name}: regex "${b.regex}", available for [${b.availableFor.join(", ")}]`);
    console.log(`team-b available for: ${(await oc.setAvailabilityPattern("team-b", "team-b/.*")).join(", ")}`);
    console.log(`assigned ${(await oc.setControllerToBundle("team-b", "team-b/controller-b")).name} to team-b/controller-b`);
    const controller = new InstanceClient({ baseUrl: emu.controllerUrls["team-b/controller-b"], ...admin });
    const update = await controller.checkBundleUpdate();
    console.log(`controller: update available ${update["update-available"]}; reload -> ${JSON.stringify(await controller.reloadBundle())}`);
    await controller.close();
  } finally {
    await Promise.all([oc.close(), flags.close()]);
    await emu.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
