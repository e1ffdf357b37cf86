import { startEmulator, type Emulator, type EmulatorOptions } from "../../emulator";
import { FeatureManagementClient } from "../../provider";
import { FAST } from "../clients/fast-options";

/** An emulator and a client of its feature-flag service (no throttle: the emulator's rate limit is off). */
export interface FlagSetup {
  emu: Emulator;
  client: FeatureManagementClient;
  /** A new application of the first account; its id. */
  newApplication(name?: string): Promise<string>;
  close(): Promise<void>;
}

let applications = 0;

export async function startFlagSetup(options: EmulatorOptions = {}): Promise<FlagSetup> {
  const emu = await startEmulator(options);
  const client = new FeatureManagementClient({
    baseUrl: emu.featureManagementUrl,
    token: emu.credentials.featureManagementToken,
    minRequestIntervalMs: 1,
    ...FAST,
  });
  return {
    emu,
    client,
    newApplication: async (name = `app-${++applications}`) => (await client.createApplication(name)).id,
    close: async () => {
      await client.close();
      await emu.close();
    },
  };
}

/** The emulator's path prefix of an application's endpoints, as the journal records it. */
export const appPath = (applicationId: string) => `/feature-management/public-api/applications/${applicationId}`;
