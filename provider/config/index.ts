import { providerState } from "./state";
import { readStackConfig } from "./settings";

export {
  SETTINGS,
  SettingError,
  howToSet,
  missingSettings,
  readStackConfig,
  resolveSettings,
  type SettingName,
  type SettingValues,
  type ResolvedSettings,
  type RawConfig,
} from "./settings";
export {
  operationsCenter,
  operationsCenterFor,
  featureManagement,
  featureManagementFor,
  instanceFor,
  closeClients,
  type OperationsCenterConnection,
  type FeatureManagementConnection,
  type InstanceClientConnection,
} from "./clients";
export { providerState, resetProviderState } from "./state";

/**
 * The dynamic providers' `configure(req)`: keeps the stack's `cloudbees:*` config for this process. The host calls
 * it once per provider text (once per resource type), always with the same stack config. Nothing is checked here:
 * a missing setting fails the first call that needs it, so an Application-only stack needs no operations center.
 */
export async function configure(req: { config: { get(key: string): unknown } }): Promise<void> {
  providerState().stackConfig = readStackConfig(req.config);
}
