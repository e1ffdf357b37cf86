import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { leaseDispatcher } from "../../provider/http/dispatcher";
import { resolveHttpOptions } from "../../provider/http/options";
import { InstanceClient } from "../../provider/clients/instance-client";

// Clients of one origin share one connection pool (controllers under one host), counted: the last to close closes it.

/** undici's own flag (DispatcherBase), which its types leave out. */
const closed = (d: unknown): boolean => (d as { closed: boolean }).closed;

describe("leaseDispatcher", () => {
  const options = resolveHttpOptions({});

  it("gives clients of one origin and TLS settings one dispatcher, and closes it with the last of them", async () => {
    const a = leaseDispatcher(new URL("http://127.0.0.1:1/team-a/"), options);
    const b = leaseDispatcher(new URL("http://127.0.0.1:1/team-b/"), options);
    const other = leaseDispatcher(new URL("http://127.0.0.1:1/team-c/"), resolveHttpOptions({ insecureSkipTlsVerify: true }));
    expect(b.dispatcher).toBe(a.dispatcher);
    expect(other.dispatcher).not.toBe(a.dispatcher);
    await a.release();
    await a.release(); // once only
    expect(closed(b.dispatcher)).toBe(false);
    await b.release();
    expect(closed(b.dispatcher)).toBe(true);
    // A client made afterwards gets a new one.
    const c = leaseDispatcher(new URL("http://127.0.0.1:1/team-a/"), options);
    expect(c.dispatcher).not.toBe(a.dispatcher);
    await Promise.all([c.release(), other.release()]);
  });

  it("fifty controllers' clients under one host reuse connections", async () => {
    const sockets = new Set<unknown>();
    const server = http.createServer((req, res) => {
      sockets.add(req.socket);
      res.setHeader("content-type", "application/json");
      res.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clients = Array.from({ length: 50 }, (_, i) => new InstanceClient({ baseUrl: `${base}/c${i}/`, username: "u", apiToken: "t" }));
    try {
      for (let wave = 0; wave < 5; wave++) await Promise.all(clients.slice(wave * 10, wave * 10 + 10).map((c) => c.exportConfigurationZip()));
      // One connection per client before: 50.
      expect(sockets.size).toBeLessThanOrEqual(25);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
