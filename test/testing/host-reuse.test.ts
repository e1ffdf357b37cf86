/**
 * The engine stand-in's host reuse: a host that served only this package's providers serves the next step with the
 * same stack config, once it has started a new deployment (what a new host would start with: see
 * test/harness.test.ts and the provider-level tests' nextDeployment()); any other host is closed.
 */
import { resources, type ProviderKind } from "../../provider/resources";
import { isProviderText, providerText } from "../../sdk/resources/provider-text";
import { SpareProcesses } from "../../testing/processes/spare-processes";
import { assertBuiltPackage, REPO_ROOT } from "../resources/helpers";

describe("isProviderText", () => {
  it("is true of each kind's own text and of nothing else", () => {
    for (const kind of Object.keys(resources) as ProviderKind[]) expect([kind, isProviderText(providerText(kind))]).toEqual([kind, true]);
    const text = providerText("application");
    expect(isProviderText(`${text}\nrequire("fs").writeFileSync("x", "");`)).toBe(false);
    expect(isProviderText(text.replace('kind: "application"', 'kind: "noSuchKind"'))).toBe(false);
    expect(isProviderText(text.replace(".configure(req)", ".configure(req, 1)"))).toBe(false);
    expect(isProviderText("exports.handler = () => ({});")).toBe(false);
  });
});

describe("SpareProcesses' kept host", () => {
  let spares: SpareProcesses;
  beforeAll(() => {
    assertBuiltPackage();
    spares = new SpareProcesses({ cwd: REPO_ROOT, project: "project", stack: "stack", prestart: false });
  });
  afterAll(() => spares?.close());

  it("serves the next step with the same key, and only that", async () => {
    const first = await spares.takeHost("config A");
    await first.configure({});
    await spares.closeHost(first, "config A");
    expect(first.exited).toBeUndefined();
    const again = await spares.takeHost("config A");
    expect(again.pid).toBe(first.pid);

    // Kept under A, asked for under B: closed, and a new host given.
    await spares.closeHost(again, "config A");
    const other = await spares.takeHost("config B");
    expect(other.pid).not.toBe(first.pid);
    for (let waited = 0; !first.exited && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(first.exited).toBeDefined();
    // Without a key (a provider of the program's own, or a failed step): closed.
    await spares.closeHost(other);
    expect(other.exited).toBeDefined();
    const fresh = await spares.takeHost("config B");
    expect(fresh.pid).not.toBe(other.pid);
    await spares.closeHost(fresh);
  });
});
