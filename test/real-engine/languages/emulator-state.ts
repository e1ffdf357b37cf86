import type { Emulator } from "../../../emulator";

const ACCOUNT = "acme";

/**
 * What a program left on the emulator, every object the languages' programs can make, with what differs from one
 * run to the next masked (the services' ids and keys, times, bundle tokens): two programs that made the same objects
 * have equal states.
 */
export function emulatorState(emu: Emulator): unknown {
  const applications = emu.state.applications(ACCOUNT).map((app) => ({
    name: app.name,
    environments: emu.state.environments(app.id).map((e) => ({ name: e.name, description: e.description })),
    flags: emu.state.flags(app.id),
    targetGroups: emu.state.targetGroups(app.id),
  }));
  const state = {
    applications,
    teamMembers: emu.state.teamMembers(ACCOUNT),
    assignments: emu.state.assignments(),
    availabilityPatterns: emu.state.apiAvailabilityPatterns(),
    defaultBundle: emu.state.defaultBundle(),
    globalVisibility: emu.state.globalVisibility(),
  };
  return JSON.parse(
    JSON.stringify(state)
      .replace(/\b[0-9a-f]{24}\b/g, "<id>")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>"),
  ) as unknown;
}
