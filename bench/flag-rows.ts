/**
 * The bench's feature-flag rows: an application's flags and configurations created, refreshed and applied again under
 * the service's rate limit.
 */
import type { ProviderKind } from "../provider/resources";
import type { EmulatorProcess } from "./emulator-client";
import type { Lifecycle } from "./harness";
import { timed, wave } from "./steps";
import { row, seconds } from "./table";

const FM_PATH = "/feature-management/";
const WRITES = ["POST", "PUT", "PATCH", "DELETE"];
const TYPE = (name: string) => `pulumi-nodejs:dynamic/cloudbees:${name}`;

/**
 * An application, 3 environments (Production taken over, 2 created), 10 boolean flags and their 30 configurations,
 * with the emulator's 1 request/s limit on and the provider's default spacing: the create's wall time against
 * (requests x 1 s), the requests of a refresh (one list per application and environment), and the writes of a
 * second up. Each step is a deployment of its own (a fresh host), as the engine runs them.
 */
export async function flagRows(newHost: () => Promise<Lifecycle>, texts: Record<ProviderKind, string>, emu: EmulatorProcess): Promise<void> {
  // 10 flags (49 requests, 49 s at 1/s), not 20 (89 s): the row is the wall time against its floor (one second a
  // request), and the fixed costs (a host's start, the first check: under a second) stay a small part of it.
  const FLAGS = 10;
  const ENVIRONMENTS = ["Production", "Staging", "QA"];
  const count = (methods?: string[], status?: number) =>
    emu.ask<number>({ op: "countPrefix", prefix: FM_PATH, ...(methods ? { methods } : {}), ...(status === undefined ? {} : { status }) });
  let applicationId = "";
  const declare = (lc: Lifecycle) => {
    const app = lc.resource(TYPE("Application"), "flags-app", texts.application, { name: "bench-flags" });
    const rest = () => {
      const environments = ENVIRONMENTS.map((name) => lc.resource(TYPE("Environment"), `env-${name}`, texts.environment, { applicationId, name }));
      const flags = Array.from({ length: FLAGS }, (_, i) => lc.resource(TYPE("Flag"), `flag-${i}`, texts.flag, { applicationId, name: `bench.flag${i}` }));
      const configurations = ENVIRONMENTS.flatMap((environment) =>
        Array.from({ length: FLAGS }, (_, i) =>
          lc.resource(TYPE("FlagConfiguration"), `configuration-${environment}-${i}`, texts.flagConfiguration, {
            applicationId,
            environment,
            flag: `bench.flag${i}`,
            value: [{ option: true, percentage: (i * 5) % 100 }],
            labels: ["bench"],
          }),
        ),
      );
      return { environments, flags, configurations };
    };
    return { app, rest };
  };
  // The engine's order: the application, then what takes its id, then what names the flags and environments.
  const first = await newHost();
  await emu.clear();
  const created = declare(first);
  let createdRest: ReturnType<typeof created.rest> | undefined;
  const [, createMs] = await timed(async () => {
    await created.app.up();
    applicationId = String(created.app.state!.outputs.applicationId);
    createdRest = created.rest();
    await wave([...createdRest.environments, ...createdRest.flags], (r) => r.up(), 10);
    await wave(createdRest.configurations, (r) => r.up(), 10);
  });
  const createRequests = await count();
  const created555 = await count(undefined, 555);
  const floorMs = createRequests * 1000;
  row(`flags: create 1 application, 3 environments, ${FLAGS} flags, ${FLAGS * 3} configurations: requests`, String(createRequests));
  row("flags: create: wall time", seconds(createMs), `${seconds(floorMs)} (${createRequests} requests, 1/s)`, createMs / floorMs, { text: "<= 1.1", met: createMs / floorMs <= 1.1 });
  row("flags: create: 555 answers", String(created555), "0", undefined, { text: "0", met: created555 === 0 });
  /** The same resources in a new deployment, with the states the create left. */
  const carried = (lc: Lifecycle) => {
    const d = declare(lc);
    d.app.state = created.app.state;
    const rest = d.rest();
    for (const key of ["environments", "flags", "configurations"] as const) rest[key].forEach((r, i) => (r.state = createdRest![key][i]!.state));
    return [d.app, ...rest.environments, ...rest.flags, ...rest.configurations];
  };

  const refreshHost = await newHost();
  const refreshing = carried(refreshHost);
  await emu.clear();
  await wave(refreshing, (r) => r.refresh(), 0);
  const refreshRequests = await count();
  const refresh555 = await count(undefined, 555);
  row(`flags: refresh of ${refreshing.length} resources: requests`, String(refreshRequests), "6 (1 application, 1 environment list, 1 flag list, 3 configuration lists)", refreshRequests / 6, {
    text: "<= 6",
    met: refreshRequests <= 6,
  });
  row("flags: refresh: 555 answers", String(refresh555), "0", undefined, { text: "0", met: refresh555 === 0 });

  const againHost = await newHost();
  const again = carried(againHost);
  await emu.clear();
  await again[0]!.up();
  await wave(again.slice(1, 1 + ENVIRONMENTS.length + FLAGS), (r) => r.up(), 10);
  await wave(again.slice(1 + ENVIRONMENTS.length + FLAGS), (r) => r.up(), 10);
  const writes = await count(WRITES);
  row(`flags: second up of ${again.length} resources: writes`, String(writes), "0", undefined, { text: "0", met: writes === 0 });
  row("flags: second up: requests (reads)", String(await count()));
}
