/**
 * Issue 19, findings 1, 4, 5 and 12, through the real provider host: a server (or something in the path) answering
 * what it likes cannot hang the host, leak a secret it returned, or crash a walk over its answer; and the emulator
 * answers a pattern that backtracks without end as a stalled server would, while serving its other clients.
 *
 * The CPU-bound findings had no bound at all before: each test here is held to a short jest deadline, which the old
 * code missed by far (seconds to minutes of host CPU per attempt) and the new code meets in milliseconds.
 */
import { DEFAULT_CONTROLLERS } from "../../emulator";
import { ProviderHostError } from "../harness";
import { TYPES } from "../resources/helpers";
import { actionWorldPerFile } from "./world";

// (a+)+$ against this: 2^24 backtracking steps, about 1.5 s in JavaScript, on every list.
const CATASTROPHIC = `${"a".repeat(24)}-x`;
const world = actionWorldPerFile({ emulator: { controllers: [...DEFAULT_CONTROLLERS, CATASTROPHIC] } });

const APPS = "/feature-management/public-api/applications";
const LIST = "/cjoc/casc-bundle/list";
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ProviderHostError);

describe("finding 1: error bodies are cut before they are scrubbed", () => {
  it("a 500 of 100 KB of newlines fails at once, naming the call", async () => {
    // Before: the secret-field scrubber's `\s*` ran across lines over the whole body: 11 s of host CPU per attempt.
    world().emu.faults.inject({ path: LIST, status: 500, body: `"token":${"\n".repeat(100_000)}x`, times: 2 });
    const r = world().lc.resource(TYPES.bundleAvailability, "newlines", world().texts.bundleAvailability, { bundleId: "team-a", regex: "sandbox" });
    const error = await failure(r.up());
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error!.message).toMatch(/server error \(500\)/);
  }, 8_000);

  it("a 200 page of 100,000 unclosed tags fails at once as not JSON", async () => {
    // Before: the tag stripper `<[^>]+>` scanned to the end from every `<`: 9.4 s.
    world().emu.faults.inject({ path: LIST, status: 200, body: `<html>${"<a".repeat(100_000)}` });
    const r = world().lc.resource(TYPES.bundleAvailability, "tags", world().texts.bundleAvailability, { bundleId: "team-a", regex: "sandbox" });
    const error = await failure(r.up());
    expect(error!.message).toMatch(/the body is not JSON: it is an HTML page \(a login page or a proxy's page answers instead of the API\?\)/);
  }, 8_000);

  it("a 200 login page where JSON is required says what it looks like and names the request", async () => {
    // A proxy's single sign-on page in front of the operations center answers every path with 200.
    world().emu.faults.inject({ path: LIST, status: 200, body: "<!DOCTYPE html><html><head><title>Sign in \u2028 to Acme SSO</title></head><body>...</body></html>" });
    const r = world().lc.resource(TYPES.bundleAvailability, "login-page", world().texts.bundleAvailability, { bundleId: "team-a", regex: "sandbox" });
    const error = await failure(r.up());
    // The line separator in the title is whitespace: it is folded, so the error stays one line.
    expect(error!.message).toContain('the body is not JSON: it is an HTML page titled "Sign in to Acme SSO"');
    expect(error!.message).not.toContain("\u2028");
    expect(error!.message).toMatch(/GET \/cjoc\/casc-bundle\/list/);
  }, 8_000);
});

describe("finding 4: endpoints that return secrets never quote their body", () => {
  it("a link answered as text is not quoted by ControllerBundleToken's partial-create error", async () => {
    const token = "leaked-bundle-token-5c1d";
    await world().oc.setControllerToBundle("team-a", "team-a/controller-a");
    world().emu.faults.inject({ path: "/cjoc/config-bundle-download-link", status: 200, body: `http://127.0.0.1/link\n${token}`, times: 2 });
    const r = world().action("controllerBundleToken", "text-link", { controllerPath: "team-a/controller-a" });
    const error = await failure(r.up());
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error!.message).toMatch(/the body is not JSON/);
    expect(error!.message).not.toContain(token);
    expect(JSON.stringify(r.state ?? {})).not.toContain(token);
  });
});

describe("finding 5: deep JSON", () => {
  it("a list answer nested 20,000 deep is an error naming the request and the depth bound", async () => {
    // Before: a bare "Maximum call stack size exceeded" from the recursive secret walk.
    world().emu.faults.inject({ method: "GET", path: APPS, status: 200, body: `${"[".repeat(20_000)}${"]".repeat(20_000)}` });
    const r = world().lc.resource(TYPES.application, "deep", world().texts.application, { name: "deep" });
    const error = await failure(r.up());
    expect(error).toBeInstanceOf(ProviderHostError);
    expect(error!.message).not.toMatch(/call stack/);
    expect(error!.message).toMatch(/GET \/feature-management\/public-api\/applications\).*nested deeper than 64 levels/);
  });
});

describe("finding 12: the emulator bounds availability patterns", () => {
  it("a pattern that backtracks without end makes the list a 500 naming the pattern, and other clients are served", async () => {
    // Before: (a+)+$ ran in JavaScript against every controller on every list, blocking the emulator for minutes.
    // The set call itself evaluates the pattern (its answer lists the controllers it makes the bundle available to).
    await expect(world().oc.setAvailabilityPattern("team-b", "(a+)+$")).rejects.toThrow(/server error \(500\).*took too long/);
    try {
      const list = world().oc.listBundles().then(() => "answered", (e: Error) => e.message);
      const other = world().oc.getRawBundleValidationLog().then(() => "served");
      // The server's words are quoted (their own quotes escaped).
      expect(await list).toMatch(/server error \(500\).*availability pattern of bundle \\"team-b\\" took too long/);
      expect(await other).toBe("served");
      // Every list answers so, at once, until the pattern changes.
      await expect(world().oc.listBundles()).rejects.toThrow(/took too long/);
    } finally {
      await world().oc.clearAvailabilityPattern("team-b");
    }
    await expect(world().oc.listBundles()).resolves.toEqual(expect.any(Array));
  }, 8_000);
});
