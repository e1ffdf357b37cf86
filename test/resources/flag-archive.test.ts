/* istanbul ignore file */
import type { FlagConfiguration } from "../../emulator/feature-flags";
import { ProviderHostError } from "../harness";
import { FM_PREFIX, lines, startFlagWorld, writes, type FlagWorld } from "./feature-flag-helpers";

// A Flag's onDelete through the real provider host against the emulator, over HTTP (issue 64): "archive" keeps the
// flag, its values and its configuration in every environment, each archived and off, writing only what differs;
// "delete" (the default) still deletes; a change of onDelete sends nothing. Each case has a flag of its own.
let w: FlagWorld;
let app: string;
beforeAll(async () => {
  w = await startFlagWorld();
  app = (await w.fm.createApplication("archive")).id;
  await w.fm.createEnvironment(app, { name: "Staging" });
  await w.fm.createEnvironment(app, { name: "Development" });
});
afterAll(async () => {
  await w?.close();
});

const held = (name: string) => w.emu.state.flags(app).find((f) => f.name === name);
const configurations = (name: string): Record<string, FlagConfiguration> => held(name)?.configurations ?? {};
const flag = (name: string, inputs: Record<string, unknown> = {}) => w.ff("flag", name, { applicationId: app, name, ...inputs } as never);
const experiments = (env: string) => `/applications/${app}/${env}/experiments`;
/** A flag (with `inputs`) configured by hand in `env`, value true; then a new deployment. */
async function configuredFlag(name: string, env: string, inputs: Record<string, unknown> = {}) {
  const f = flag(name, inputs);
  await f.up();
  await w.fm.putExperiment(app, env, { type: "experiment", flag: name, value: true });
  await w.nextDeployment();
  return f;
}
/** The requests archiving reads when nothing is left to write: the environments, then each one's configurations. */
const READS = () => [`GET /applications/${app}/environments`, ...["Production", "Staging", "Development"].map((e) => `GET ${experiments(e)}`)];

it("a change of onDelete is an update that sends nothing, and keeps writtenAt; a refresh keeps it; delete still deletes", async () => {
  const f = flag("keep");
  await f.up();
  const writtenAt = f.state!.outputs.writtenAt;
  let mark = w.mark();
  expect(await f.up({ applicationId: app, name: "keep", onDelete: "archive" })).toMatchObject({ op: "update", replaces: [] });
  expect(w.since(mark)).toEqual([]);
  expect(f.state!.outputs).toMatchObject({ onDelete: "archive", writtenAt });

  await w.nextDeployment();
  expect(await f.refresh()).toMatchObject({ changedFields: [] });
  expect(f.state!.outputs.onDelete).toBe("archive");

  mark = w.mark();
  expect(await f.up({ applicationId: app, name: "keep", onDelete: "delete" })).toMatchObject({ op: "update", replaces: [] });
  expect(w.since(mark)).toEqual([]);
  await f.destroy();
  expect(writes(w.since(mark))).toEqual([`DELETE /applications/${app}/flags/keep`]);
  expect(held("keep")).toBeUndefined();
});

it("archive keeps the flag and its values, and archives and turns off its configuration in every environment where it has one, nothing else changed; only what differs is written", async () => {
  const f = flag("checkout.newFlow", { onDelete: "archive", isPermanent: false });
  await f.up();
  const production = w.ff("flagConfiguration", "production", {
    applicationId: app,
    environment: "Production",
    flag: "checkout.newFlow",
    value: [{ option: true, percentage: 30 }],
    labels: ["checkout"],
    description: "the new checkout",
    platforms: [{ name: "Android", value: false }],
  });
  await production.up();
  // Staging: archived and off already (in the UI); Development: never configured.
  await w.fm.putExperiment(app, "Staging", { type: "experiment", flag: "checkout.newFlow", value: true, archived: true, enabled: false });
  const before = configurations("checkout.newFlow");
  expect(Object.keys(before).sort()).toEqual(["Production", "Staging"]);

  await w.nextDeployment();
  const mark = w.mark();
  await f.destroy();
  const sent = lines(w.since(mark));
  expect(sent).toEqual([...READS().slice(0, 2), `PUT ${experiments("Production")}`, ...READS().slice(2)]);
  expect(held("checkout.newFlow")).toMatchObject({ name: "checkout.newFlow", availableValues: [false, true], isPermanent: false });
  expect(configurations("checkout.newFlow")).toEqual({ Production: { ...before.Production, archived: true, enabled: false }, Staging: before.Staging });
  expect(w.emu.state.flags(app).map((x) => x.name)).toContain("checkout.newFlow");

  // Archived and off everywhere it is configured: the next archive of it (a takeover, then a destroy) writes nothing.
  await w.nextDeployment();
  const again = flag("checkout.newFlow", { onDelete: "archive" });
  await again.up();
  const mark2 = w.mark();
  await again.destroy();
  expect(writes(w.since(mark2))).toEqual([]);

  // The configuration resource still manages its configuration: a refresh shows the two inputs it does not declare
  // unchanged, and turning it on again is a write of the declared inputs over the archived configuration.
  await w.nextDeployment();
  expect(await production.refresh()).toMatchObject({ changedFields: [] });
  await production.up({ applicationId: app, environment: "Production", flag: "checkout.newFlow", value: [{ option: true, percentage: 30 }], enabled: true, archived: false });
  expect(configurations("checkout.newFlow").Production).toEqual({ ...before.Production, archived: false, enabled: true });
});

it("a FlagConfiguration of the flag deleted first in the same deployment (the engine deletes dependents first): that configuration goes, the others are archived", async () => {
  const f = flag("promo", { onDelete: "archive" });
  await f.up();
  const inProduction = w.ff("flagConfiguration", "promo-production", { applicationId: app, environment: "Production", flag: "promo", value: true });
  const inStaging = w.ff("flagConfiguration", "promo-staging", { applicationId: app, environment: "Staging", flag: "promo", value: true });
  await inProduction.up();
  await inStaging.up();

  await w.nextDeployment();
  const mark = w.mark();
  // The removal of all three: Staging's configuration deleted, Production's left (retainOnDelete: the engine drops
  // it from the state without a call), then the flag.
  await inStaging.destroy();
  await f.destroy();
  expect(lines(w.since(mark))).toEqual([
    `DELETE ${experiments("Staging")}/promo`,
    ...READS().slice(0, 2),
    `PUT ${experiments("Production")}`,
    ...READS().slice(2),
  ]);
  expect(configurations("promo")).toEqual({ Production: expect.objectContaining({ value: true, archived: true, enabled: false }) });
});

it("the default deletes the flag and its configuration in every environment", async () => {
  const f = await configuredFlag("gone", "Staging");
  const mark = w.mark();
  await f.destroy();
  expect(lines(w.since(mark))).toEqual([`DELETE /applications/${app}/flags/gone`]);
  expect(held("gone")).toBeUndefined();
});

describe("a write whose answer is lost", () => {
  const PUT_PATH = (env: string) => `${FM_PREFIX.slice(0, -1)}${experiments(env)}`;

  it("after the service archived: settled by reading the list again, done without a third write", async () => {
    const f = await configuredFlag("lost", "Production", { onDelete: "archive" });
    // Both tries of the provider's client (cloudbees:maxRetries 1) acted, and neither answer arrived.
    w.emu.faults.inject({ method: "PUT", path: PUT_PATH("Production"), dropAfterHandling: true, times: 2 });
    const mark = w.mark();
    await f.destroy();
    expect(lines(w.since(mark))).toEqual([
      ...READS().slice(0, 2),
      `PUT ${experiments("Production")}`,
      `PUT ${experiments("Production")}`,
      `GET ${experiments("Production")}`,
      ...READS().slice(2),
    ]);
    expect(configurations("lost").Production).toMatchObject({ value: true, archived: true, enabled: false });
  });

  it("before the service acted: the step fails, naming the flag, the resource stays; the next destroy archives it", async () => {
    const f = await configuredFlag("dropped", "Staging", { onDelete: "archive" });
    w.emu.faults.inject({ method: "PUT", path: PUT_PATH("Staging"), drop: true, times: 2 });
    const failure = (await f.destroy().catch((e: unknown) => e)) as ProviderHostError;
    expect(failure).toBeInstanceOf(ProviderHostError);
    expect(failure.details).toMatch(new RegExp(`^archiving Flag \\(${app}/dropped\\): `));
    expect(f.state).toBeDefined();
    expect(configurations("dropped").Staging).toMatchObject({ value: true, enabled: true });
    expect(configurations("dropped").Staging?.archived).toBeUndefined();

    await w.nextDeployment();
    const mark = w.mark();
    await f.destroy();
    expect(writes(w.since(mark))).toEqual([`PUT ${experiments("Staging")}`]);
    expect(configurations("dropped").Staging).toMatchObject({ value: true, archived: true, enabled: false });
  });
});
