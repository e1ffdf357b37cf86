import type { Emulator } from "../../emulator";
import { emulatorConnection, secret } from "../../testing";

// The config of test/fixtures/readings-program, which declares the examples' resources once per target, for the
// suites that run it (test/readings/life-cycles.test.ts, test/example-unreadable-entries.test.ts).

/** A target: a named connection to its own emulator, on which the program declares one example's resources. */
export interface ProgramTarget {
  connection: string;
  example: "flags" | "platform" | "pipeline";
  emu: Emulator;
  /** The emulator's bundle location (a copy): the pipeline example validates and checks out from it. */
  bundlesDir: string;
}

/** The examples' settings of a first up. */
export const BEFORE = {
  "flags:stagingPercentage": "50",
  "flags:betaEmail": "@example\\.com$",
  "flags:betaPlans": JSON.stringify(["beta", "preview"]),
  "example:teamBControllers": JSON.stringify(["team-b/controller-b"]),
  "example:baseRegex": "sandbox",
};

/** The targets' connections, and what the program declares on each (a pipeline: its bundles and controllers). */
export function targetsConfig(targets: ProgramTarget[]): Record<string, unknown> {
  return {
    "cloudbees:connections": secret(Object.fromEntries(targets.map((t) => [t.connection, emulatorConnection(t.emu)]))),
    "readings:targets": JSON.stringify(
      targets.map((t) => ({
        connection: t.connection,
        example: t.example,
        ...(t.example === "pipeline"
          ? {
              bundlesDir: t.bundlesDir,
              controllers: {
                "team-a/controller-a": { bundle: "team-a", url: t.emu.controllerUrls["team-a/controller-a"] },
                "team-b/controller-b": { bundle: "team-b", url: t.emu.controllerUrls["team-b/controller-b"] },
              },
            }
          : {}),
      })),
    ),
  };
}
