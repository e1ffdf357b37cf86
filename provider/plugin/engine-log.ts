/**
 * The plugin's warnings go to the engine's log (its Engine service's Log, at the address the engine passes as the
 * plugin's first argument), not to stderr: the engine shows the stderr of the dynamic providers' host, but keeps a
 * resource plugin's to its debug log, unless the plugin fails to start (pulumi/pulumi
 * sdk/go/common/resource/plugin/plugin.go, "Hiding logs"). A warning that the engine does not take goes to stderr.
 */
import type { Protocol } from "./protocol";
import { sendWarningsTo, stderrWarning } from "../resources/shared/errors";

/** The engine's address among a plugin's arguments, as @pulumi/pulumi/provider's main reads it (its flags skipped). */
export function engineAddressOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (args[i] !== "--logtostderr" && !args[i]!.startsWith("-v=")) return args[i];
  }
  return undefined;
}

/** From now on, warn() sends each warning to the engine at `address` (nothing changes without one). */
export function warningsToEngine(address: string | undefined, { grpc, enginegrpc, enginepb }: Protocol): void {
  if (!address) return;
  const engine = new enginegrpc.EngineClient(address, grpc.credentials.createInsecure());
  sendWarningsTo((line) => {
    const request = new enginepb.LogRequest().setSeverity(enginepb.LogSeverity.WARNING).setMessage(line).setUrn("").setEphemeral(false);
    engine.log(request, (err) => {
      if (err) stderrWarning(line);
    });
  });
}
