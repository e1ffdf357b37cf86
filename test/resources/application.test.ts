/* istanbul ignore file */
import { CheckFailedError, ProviderHostError, type ManagedResource } from "../harness";
import { startWorld, TYPES, type World } from "./helpers";

// The feature-flag service allows one request per second: the emulator enforces it here (status 555), and the
// provider's one client per process must never trip it. Each call below therefore costs about a second: few calls.
let w: World;
beforeAll(async () => {
  w = await startWorld({ emulator: { featureManagementRateLimit: true } });
});
afterAll(async () => {
  await w?.close();
});

const app = (name: string, inputs: Record<string, unknown>): ManagedResource =>
  w.lc.resource(TYPES.application, name, w.texts.application, inputs);
const APPS = "/feature-management/public-api/applications";
const apps = () => w.emu.state.applications("acme");

describe("Application life cycle through the real provider host", () => {
  let a: ManagedResource;
  let adopter: ManagedResource;
  let firstId: string;

  it("creates an application; its id is the resource id", async () => {
    a = app("web-shop", { name: "web-shop" });
    expect(await a.up()).toMatchObject({ op: "create", changedFields: ["name"] });
    firstId = a.state!.id;
    expect(apps()).toEqual([{ id: firstId, name: "web-shop" }]);
    expect(a.state!.outputs).toEqual({ applicationId: firstId, name: "web-shop", adopted: false, __provider: w.texts.application });
  });

  it("reads back the same state; the same inputs make no diff", async () => {
    const before = a.state!;
    expect(await a.refresh()).toMatchObject({ changedFields: [] });
    expect(a.state).toEqual(before);
    expect(await a.up()).toMatchObject({ op: "same" });
  });

  it("adoptExisting adopts the account's application of that name instead of creating a second one", async () => {
    adopter = app("adopter", { name: "web-shop", adoptExisting: true });
    await adopter.up();
    expect(adopter.state!.id).toBe(firstId);
    expect(adopter.state!.outputs).toMatchObject({ applicationId: firstId, adopted: true, adoptExisting: true });
    expect(apps()).toHaveLength(1);
  });

  it("shows a rename made outside Pulumi on refresh; the API cannot rename, so up replaces and warns about the old one", async () => {
    // Renamed in the UI: the API has no rename, so the emulator's answer is faked for this one read.
    w.emu.faults.inject({ method: "GET", path: `${APPS}/${firstId}`, status: 200, body: JSON.stringify({ id: firstId, name: "web-shop-old" }) });
    expect(await a.refresh()).toMatchObject({ changedFields: ["name"] });
    expect(a.state!.inputs).toMatchObject({ name: "web-shop-old" });
    expect(await a.preview({ name: "web-shop" })).toMatchObject({ op: "replace", replaces: ["name"] });
    w.host.takeOutput();
    expect(await a.up({ name: "web-shop" })).toMatchObject({ op: "replace", replaces: ["name"], deleteBeforeReplace: false });
    expect(a.state!.id).not.toBe(firstId);
    const warning = await w.host.waitForOutput(/stays in the feature-flag account/);
    expect(warning).toContain(`Application "web-shop-old" (${firstId}) stays in the feature-flag account`);
    expect(apps().map((x) => x.id)).toEqual([firstId, a.state!.id]);
  });

  it("adoptExisting fails when several applications have the name, listing their ids", async () => {
    const error = (await app("ambiguous", { name: "web-shop", adoptExisting: true }).up().catch((e: unknown) => e)) as ProviderHostError;
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error.details).toContain(`adoptExisting: the account has 2 applications named "web-shop" (ids "${firstId}", "${a.state!.id}")`);
    expect(apps()).toHaveLength(2);
  });

  it("an application deleted outside Pulumi is dropped on refresh", async () => {
    w.emu.faults.inject({ method: "GET", path: `${APPS}/${firstId}`, status: 404, body: JSON.stringify({ error: `Application '${firstId}' not found` }) });
    expect(await adopter.refresh()).toMatchObject({ op: "refresh", dropped: true });
  });

  it("delete removes it from the stack only, with a warning naming the application that stays", async () => {
    w.host.takeOutput();
    const sent = w.emu.journal.entries().length;
    const id = a.state!.id;
    await a.destroy();
    expect(await w.host.waitForOutput(/stays in the feature-flag account/)).toContain(`Application "web-shop" (${id})`);
    expect(w.emu.journal.entries()).toHaveLength(sent);
    expect(apps()).toHaveLength(2);
  });

  it("never went over one request per second", () => {
    // The emulator's rate limiter (on for this file) answers 555 to a request less than a second after the last.
    const calls = w.emu.journal.entries().filter((e) => e.path.startsWith(APPS));
    expect(calls.length).toBeGreaterThanOrEqual(6);
    expect(calls.filter((e) => e.status === 555)).toEqual([]);
  });

  it("bad input fails in check, naming the input, before any request", async () => {
    w.emu.journal.clear();
    const empty = (await app("empty", { name: " " }).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(empty.failures).toEqual([{ property: "name", reason: 'name must not be empty: give it, e.g. name: "web-shop"' }]);
    const adopt = (await app("adopt", { name: "x", adoptExisting: "yes" }).up().catch((e: unknown) => e)) as CheckFailedError;
    expect(adopt.failures).toEqual([{ property: "adoptExisting", reason: 'adoptExisting must be true or false, got "yes"' }]);
    expect(w.emu.journal.entries()).toEqual([]);
  });
});
