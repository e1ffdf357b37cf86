/**
 * pulumi-cloudbees/testing's startRoxClient and its loopback guard: rox-node@6.0.16 against the emulator, and the
 * proof that it never connects anywhere else. A tripwire on net.Socket.prototype.connect and dns.lookup (installed
 * for the whole file, before rox-node loads) sees every connection this process makes, whoever makes it.
 */
import * as http from "node:http";
import * as net from "node:net";
import { LoopbackGuard, LoopbackRefusedError, loopbackAddress, startRoxClient, type RoxClient, type RoxSdk } from "../../testing";
import { startFlagSetup, type FlagSetup } from "../emulator/feature-flag-setup";
import { installTripwire, isLoopbackTarget, type Tripwire } from "./network-tripwire";

let tripwire: Tripwire;
let s: FlagSetup;
let rox: RoxSdk;
beforeAll(async () => {
  tripwire = installTripwire();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  rox = require("rox-node") as RoxSdk;
  s = await startFlagSetup();
});
afterAll(async () => {
  await s?.close();
  tripwire?.restore();
});

const PROD = "Production";

describe("loopbackAddress", () => {
  it("takes 127.0.0.0/8, ::1 (and IPv4-mapped 127/8) and localhost; nothing else, and never resolves a name", () => {
    const hosts = ["127.0.0.1", "127.1.2.3", "[::1]", "[::ffff:7f00:1]", "localhost", "LOCALHOST", "198.51.100.1", "0.0.0.0", "[::]", "[2001:db8::1]", "example.com", "127.0.0.1.nip.io", "localhost.example"];
    expect(Object.fromEntries(hosts.map((h) => [h, loopbackAddress(h)?.address ?? null]))).toEqual({
      "127.0.0.1": "127.0.0.1",
      "127.1.2.3": "127.1.2.3",
      "[::1]": "::1",
      "[::ffff:7f00:1]": "::ffff:7f00:1",
      localhost: "127.0.0.1",
      LOCALHOST: "127.0.0.1",
      "198.51.100.1": null,
      "0.0.0.0": null,
      "[::]": null,
      "[2001:db8::1]": null,
      "example.com": null,
      "127.0.0.1.nip.io": null,
      "localhost.example": null,
    });
  });
});

describe("LoopbackGuard", () => {
  it("refuses other addresses before any connection or DNS query, and counts them", async () => {
    const guard = new LoopbackGuard();
    const api = guard.networkApi();
    const before = { connections: tripwire.connections().length, lookups: tripwire.lookups().length };
    const urls = ["https://conf.rollout.io/x/y", "http://203.0.113.7/roxy/k", "http://[2001:db8::1]:8080/", "ftp://127.0.0.1/", "not a url"];
    for (const url of urls) await expect(api.get(url)).rejects.toBeInstanceOf(LoopbackRefusedError);
    await expect(api.post("https://x-api.rollout.io/device/get_configuration/k/b", { a: 1 })).rejects.toThrow(/Refused by the loopback guard, no connection made/);
    expect(guard.stats()).toEqual({ allowed: 0, refused: 6, refusedUrls: [...urls, "https://x-api.rollout.io/device/get_configuration/k/b"] });
    expect(tripwire.connections().length).toBe(before.connections);
    expect(tripwire.lookups().length).toBe(before.lookups);
  });

  it("lets loopback through, answering as rox-node's network layer does (JSON parsed; non-2xx rejects with response)", async () => {
    const server = http.createServer((req, res) => {
      const status = req.url === "/missing" ? 404 : 200;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ path: req.url, host: req.headers.host }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    try {
      const guard = new LoopbackGuard();
      const api = guard.networkApi();
      expect(await api.get(`http://127.0.0.1:${port}/a?b=1`)).toMatchObject({ status: 200, data: { path: "/a?b=1", host: `127.0.0.1:${port}` } });
      // localhost is taken as 127.0.0.1 without asking DNS.
      const lookups = tripwire.lookups().length;
      expect(await api.get(`http://localhost:${port}/b`)).toMatchObject({ status: 200, data: { host: `localhost:${port}` } });
      expect(tripwire.lookups().length).toBe(lookups);
      const missing = (await api.get(`http://127.0.0.1:${port}/missing`).catch((e: unknown) => e)) as { response: { status: number } };
      expect(missing.response.status).toBe(404);
      expect(guard.stats()).toMatchObject({ allowed: 3, refused: 0 });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("startRoxClient against the emulator", () => {
  let app: string;
  let key: string;
  let client: RoxClient;

  beforeAll(async () => {
    app = await s.newApplication();
    key = s.emu.state.environments(app)[0]!.key;
    await s.client.putTargetGroup(app, { type: "target-group", name: "beta", conditions: [{ property: "email", operator: "regex", operand: "@beta\\.example$" }] });
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "checkout.new", value: false, conditions: [{ group: { name: "beta" }, value: true }] });
    await s.client.createFlag(app, { name: "banner", availableValues: ["hello", "bonjour"] });
    await s.client.putExperiment(app, PROD, { type: "experiment", flag: "banner", value: "hello" });
  });

  it("sets rox-node up with roxy and fetches: the SDK evaluates what the emulator holds", async () => {
    const fetches = () => s.emu.journal.entries().filter((e) => e.path === `/roxy/${key}/`).length;
    const before = fetches();
    client = await startRoxClient({ roxyUrl: s.emu.roxyUrl(key), rox });
    expect(fetches()).toBe(before + 1);
    expect(client.isEnabled("checkout.new", { email: "ann@beta.example" })).toBe(true);
    expect(client.isEnabled("checkout.new", { email: "bob@example.com" })).toBe(false);
    expect(client.getString("banner", "code-default")).toBe("hello");
    expect(client.getString("not.declared", "code-default")).toBe("code-default");
  });

  it("fetch() resolves once the new configuration applies", async () => {
    await s.client.patchExperiment(app, PROD, "banner", [{ op: "replace", path: "/value", value: "bonjour" }]);
    expect(client.getString("banner", "code-default")).toBe("hello");
    expect(await client.fetch()).toMatchObject({ fetcherStatus: "APPLIED_FROM_NETWORK", hasChanges: true });
    expect(client.getString("banner", "code-default")).toBe("bonjour");
  });

  it("a second client while one is active is refused: rox-node's Rox is one per process", async () => {
    await expect(startRoxClient({ roxyUrl: s.emu.roxyUrl(key), rox })).rejects.toThrow(/one per process and already serves/);
  });

  it("only loopback traffic, and every SDK request went through the guard", () => {
    expect(client.guard()).toEqual({ allowed: 2, refused: 0, refusedUrls: [] });
  });

  it("an environment key the emulator does not know fails the fetch with the 404 and the fix", async () => {
    await client.close();
    const unknown = await startRoxClient({ roxyUrl: s.emu.roxyUrl("0123456789abcdef01234567"), rox, fetchOnStart: false });
    await expect(unknown.fetch()).rejects.toThrow(/could not fetch its configuration from .*0123456789abcdef01234567\/ \(no environment has this key/);
    // The SDK keeps what it had.
    expect(unknown.getString("banner", "code-default")).toBe("bonjour");
    await unknown.close();
  });

  it("a roxy URL off the machine is refused by the guard before any connection", async () => {
    const before = tripwire.connections().length;
    const outside = await startRoxClient({ roxyUrl: `http://203.0.113.7/roxy/${key}`, rox, fetchOnStart: false });
    await expect(outside.fetch()).rejects.toThrow(/Refused by the loopback guard/);
    expect(outside.guard()).toEqual({ allowed: 0, refused: 1, refusedUrls: [`http://203.0.113.7/roxy/${key}`] });
    expect(tripwire.connections().length).toBe(before);
    await outside.close();
  });

  it("the guard is in rox-node's real path: without roxy, the SDK's own hosts (configuration CDN, state store) are refused", async () => {
    // rox-node's default mode, as an application would run it, behind the same guard (no flag is evaluated, so no
    // impression is queued). Last in this file: it leaves rox-node in its default mode.
    const guard = new LoopbackGuard();
    const fetched = new Promise<{ fetcherStatus: string }>((resolve) => {
      void rox.setup(key, {
        fetchIntervalInSec: 0,
        disablePushUpdateListener: true,
        networkApi: guard.networkApi(),
        eventSourceImpl: guard.eventSourceClass(),
        configurationFetchedHandler: resolve,
      });
    });
    rox.fetch();
    await fetched;
    const hosts = [...new Set(guard.stats().refusedUrls.map((u) => new URL(u).host))].sort();
    // rox-node: fetchFromCDN and stateFromCDN treat a failure without an HTTP status as final (no fallback to x-api).
    expect(hosts).toEqual(["conf.rollout.io", "statestore.rollout.io"]);
    expect(guard.stats().allowed).toBe(0);
  });

  it("after a fetch that timed out, the next one is refused: a late result could not be told from its own", async () => {
    // A stand-in for rox-node whose fetch never reports (a configuration that takes too long), so the timeout is sure.
    const silent = { setup: async () => undefined, fetch: () => undefined } as unknown as RoxSdk;
    const late = await startRoxClient({ roxyUrl: s.emu.roxyUrl("0123456789abcdef01234567"), rox: silent, fetchOnStart: false, timeoutMs: 50 });
    await expect(late.fetch()).rejects.toThrow(/fetched nothing from .* within 50 ms/);
    await expect(late.fetch()).rejects.toThrow(/may still come and would answer this fetch: close this client and start another/);
    await late.close();
  });

  it("during this whole file, every connection of the process went to loopback and no name was resolved", () => {
    expect(tripwire.connections().length).toBeGreaterThan(0);
    expect(tripwire.connections().filter((c) => !isLoopbackTarget(c))).toEqual([]);
    // Clients hand IP literals to dns.lookup, which answers them without a query; no name other than localhost.
    expect(tripwire.lookups().filter((h) => net.isIP(h) === 0 && h !== "localhost")).toEqual([]);
  });
});
