import { providerState } from "./state";
import { readStackConfig } from "./settings";

export {
  SETTINGS,
  DEFAULT_CONNECTION,
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
  resolveConnection,
  connectionNames,
  nameProblem,
  instanceSettings,
  parseConnections,
  type ConnectionSettings,
  type InstanceSettings,
  type CredentialSources,
} from "./connections";
export { currentScope, inScope, type ConnectionScope } from "./scope";
export {
  currentSettings,
  operationsCenter,
  operationsCenterFor,
  featureManagement,
  featureManagementFor,
  instanceFor,
  namedInstanceFor,
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
