/**
 * `pulumi-cloudbees/testing`: test your own Pulumi programs offline, against the emulator of the CloudBees APIs:
 * through Pulumi's real dynamic-provider host with an engine stand-in (no Pulumi CLI needed), or through the real
 * Pulumi CLI. See docs/testing.md for what the stand-in models, what it does not, and when to use which.
 */
export { ProgramTest, changesOf, type ProgramTestOptions } from "./program-test";
export { emulatorConnection, emulatorStackConfig, type EmulatorStackConfigOptions } from "./emulator-config";
export { featureManagementClientAs, type OutOfBandPerson } from "./out-of-band";
export { ProgramRunner } from "./processes/program-runner";
export { PulumiCliRunner, type PulumiCliRunnerOptions } from "./cli/cli-runner";
export { findPulumiCli, pulumiCliCacheRoot, type PulumiCli } from "./cli/pulumi-cli";
export { ProgramRunError, warningsOf, type StepRecord } from "./engine/step-record";
export type { ProgramRunnerOptions, RunStepOptions, StackRunner } from "./processes/runner-options";
export { formatPlan, shortType, type ProgramOp, type ProgramPlan, type ProgramPlanEntry } from "./engine/plan";
export type { ProgramState, StateResource } from "./engine/state";
export { startRoxClient, type RoxClient, type RoxClientOptions } from "./flags-sdk/rox-client";
export { LoopbackGuard, LoopbackRefusedError, loopbackAddress, type LoopbackGuardStats } from "./loopback-guard";
export type { RoxContext, RoxFetchResult, RoxSdk, RoxDynamicApi, RoxPropertyValue } from "./flags-sdk/rox-sdk";
export { secret, isSecret, unwrapSecrets, UNKNOWN, type SecretValue } from "./engine/values";
export type { JsonObject } from "./processes/provider-host";
export {
  startEmulator,
  type Emulator,
  type EmulatorOptions,
  type EmulatorStateView,
  type ConfigurationFile,
  type RunningConfigurationView,
  type Journal,
  type JournalEntry,
  type FaultSpec,
  type Faults,
} from "../emulator";
