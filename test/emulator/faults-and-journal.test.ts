import { Emulator, startEmulator } from "../../emulator";
import { basic, call, post } from "./helpers";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  await emu.close();
});
beforeEach(() => {
  emu.faults.clear();
  emu.journal.clear();
});

const listPath = "/cjoc/casc-bundle/list";
const listUrl = () => `${emu.baseUrl}cjoc/casc-bundle/list`;

describe("journal", () => {
  it("records method, path, query, lower-case headers, body and status of every request", async () => {
    await post(emu, `${emu.operationsCenterUrl}casc-bundle/set-availability-pattern?bundleId=team-b&regex=sandbox`, {
      body: "ignored body",
      headers: { "X-Custom": "Value" },
    });
    await call(emu, listUrl(), { authorization: null });
    const entries = emu.journal.entries();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      method: "POST",
      path: "/cjoc/casc-bundle/set-availability-pattern",
      query: { bundleId: "team-b", regex: "sandbox" },
      status: 200,
    });
    expect(entries[0]!.headers["x-custom"]).toBe("Value");
    expect(entries[0]!.headers["authorization"]).toBe(basic(emu.credentials.admin));
    expect(entries[0]!.body.toString()).toBe("ignored body");
    expect(entries[1]).toMatchObject({ method: "GET", path: listPath, query: {}, status: 403 });
    expect(Buffer.isBuffer(entries[1]!.body)).toBe(true);
  });

  it("hands out copies and can be cleared", async () => {
    await call(emu, listUrl());
    const copy = emu.journal.entries();
    copy[0]!.status = 999;
    copy.pop();
    expect(emu.journal.entries()).toHaveLength(1);
    expect(emu.journal.entries()[0]!.status).toBe(200);
    emu.journal.clear();
    expect(emu.journal.entries()).toEqual([]);
  });
});

describe("fault injection", () => {
  it("answers with the injected status once by default (default body), then normally; faulted requests are journaled", async () => {
    emu.faults.inject({ path: listPath, status: 500 });
    const faulted = await call(emu, listUrl());
    expect(faulted.status).toBe(500);
    expect(faulted.json).toEqual({ error: "injected fault" });
    expect((await call(emu, listUrl())).status).toBe(200);
    expect(emu.journal.entries().map((e) => e.status)).toEqual([500, 200]);
    expect(emu.faults.pending()).toEqual([]);
  });

  it("applies `times`, custom body and headers, and precedes authentication", async () => {
    emu.faults.inject({
      path: "/feature-management/public-api/applications",
      status: 555,
      body: "slow down",
      headers: { "Retry-After": "1" },
      times: 2,
    });
    for (let i = 0; i < 2; i++) {
      const r = await call(emu, `${emu.featureManagementUrl}public-api/applications`, { authorization: null });
      expect(r.status).toBe(555);
      expect(r.text).toBe("slow down");
      expect(r.headers.get("retry-after")).toBe("1");
    }
    const third = await call(emu, `${emu.featureManagementUrl}public-api/applications`, { authorization: null });
    expect(third.status).toBe(401);
  });

  it("matches the method when given, and the pathname exactly (query ignored)", async () => {
    emu.faults.inject({ method: "POST", path: "/cjoc/casc-bundle/check-out", status: 503 });
    expect((await call(emu, `${emu.operationsCenterUrl}casc-bundle/list?x=1`)).status).toBe(200);
    expect((await call(emu, `${emu.operationsCenterUrl}casc-bundle/check-out`)).status).toBe(404);
    expect(emu.faults.pending()).toEqual([expect.objectContaining({ path: "/cjoc/casc-bundle/check-out", remaining: 1 })]);
    expect((await post(emu, `${emu.operationsCenterUrl}casc-bundle/check-out?timeout=5`)).status).toBe(503);
    expect((await post(emu, `${emu.operationsCenterUrl}casc-bundle/check-out?timeout=5`)).status).toBe(200);
  });

  // Delays are checked by order of answers (a request sent later but not delayed answers first), not by the clock.
  const order: string[] = [];
  const tracked = <T>(name: string, p: Promise<T>) => p.then((r) => (order.push(name), r));
  const undelayed = () => call(emu, `${emu.operationsCenterUrl}casc-bundle/effective-bundle-validation-log`);

  it("delays, then answers normally", async () => {
    order.length = 0;
    emu.faults.inject({ path: listPath, delayMs: 300 });
    const delayed = tracked("delayed", call(emu, listUrl()));
    await tracked("undelayed", undelayed());
    const r = await delayed;
    expect(order).toEqual(["undelayed", "delayed"]);
    expect(r.status).toBe(200);
    expect(r.json.bundles).toHaveLength(3);
  });

  it("delays, then answers with the fault status when both are given", async () => {
    order.length = 0;
    emu.faults.inject({ path: listPath, delayMs: 300, status: 502 });
    const delayed = tracked("delayed", call(emu, listUrl()));
    await tracked("undelayed", undelayed());
    expect((await delayed).status).toBe(502);
    expect(order).toEqual(["undelayed", "delayed"]);
  });

  it("drops the connection without an answer and journals status 0", async () => {
    emu.faults.inject({ path: listPath, drop: true });
    await expect(fetch(listUrl(), { headers: { authorization: basic(emu.credentials.admin) } })).rejects.toThrow();
    expect(emu.journal.entries()).toEqual([expect.objectContaining({ path: listPath, status: 0 })]);
    expect((await call(emu, listUrl())).status).toBe(200);
  });

  it("applies faults in injection order and clears them", async () => {
    emu.faults.inject({ path: listPath, status: 500 });
    emu.faults.inject({ path: listPath, status: 502, times: Infinity });
    expect((await call(emu, listUrl())).status).toBe(500);
    expect((await call(emu, listUrl())).status).toBe(502);
    expect((await call(emu, listUrl())).status).toBe(502);
    emu.faults.clear();
    expect((await call(emu, listUrl())).status).toBe(200);
  });

  it("rejects malformed fault specs", () => {
    expect(() => emu.faults.inject({ path: "cjoc/no-slash", status: 500 })).toThrow();
    expect(() => emu.faults.inject({ path: "/x?y=1", status: 500 })).toThrow();
    expect(() => emu.faults.inject({ path: "/x", times: 0 })).toThrow();
    expect(() => emu.faults.inject({ path: "/x", status: 42 })).toThrow();
  });

  it("close() does not wait for a pending delay", async () => {
    const other = await startEmulator();
    // Ten minutes: a close() that waited for it would fail this test by its timeout.
    other.faults.inject({ path: "/cjoc/casc-bundle/list", delayMs: 600_000 });
    const pending = fetch(`${other.operationsCenterUrl}casc-bundle/list`, { headers: { authorization: basic(other.credentials.admin) } }).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    expect(String(await pending)).toMatch(/fetch failed/);
  });
});
