import type { ListedBundle } from "../../provider";
import { BundleListCache } from "../../provider/resources/shared/bundle-list-cache";

const bundle = (name: string): ListedBundle => ({
  name,
  linkFileContent: "",
  url: "",
  token: "",
  regex: "",
  availabilityPatternFromYaml: false,
  usedBy: [],
  availableFor: [],
});

/** A fake server: each fetch returns the current bundles after `ms`. */
function server(ms = 5) {
  let bundles = [bundle("a")];
  let fetches = 0;
  return {
    fetch: async () => {
      fetches++;
      const snapshot = bundles;
      await new Promise((r) => setTimeout(r, ms));
      return snapshot;
    },
    set(names: string[]) {
      bundles = names.map(bundle);
    },
    get fetches() {
      return fetches;
    },
  };
}

describe("BundleListCache", () => {
  it("concurrent callers share one request; a later caller asks again", async () => {
    const s = server();
    const cache = new BundleListCache(10);
    const lists = await Promise.all(Array.from({ length: 20 }, () => cache.list(s.fetch)));
    expect(s.fetches).toBe(1);
    expect(new Set(lists).size).toBe(1);
    s.set(["b"]);
    expect((await cache.list(s.fetch)).map((b) => b.name)).toEqual(["b"]);
    expect(s.fetches).toBe(2);
  });

  it("callers arriving within the gathering window join; one arriving after the answer asks again", async () => {
    const s = server();
    const cache = new BundleListCache(20);
    const first = cache.list(s.fetch);
    await new Promise((r) => setTimeout(r, 10));
    const second = cache.list(s.fetch);
    expect(await second).toBe(await first);
    await cache.list(s.fetch);
    expect(s.fetches).toBe(2);
  });

  it("a list asked for during a write waits for it, and sees it", async () => {
    const s = server();
    const cache = new BundleListCache(1);
    let finishWrite!: () => void;
    const write = cache.write(() => new Promise<void>((r) => (finishWrite = r)));
    const listed = cache.list(s.fetch);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.fetches).toBe(0);
    s.set(["written"]);
    finishWrite();
    await write;
    expect((await listed).map((b) => b.name)).toEqual(["written"]);
  });

  it("after a write, callers never join a list sent before it", async () => {
    const s = server(30);
    const cache = new BundleListCache(1);
    const before = cache.list(s.fetch);
    await new Promise((r) => setTimeout(r, 10)); // sent, not answered
    await cache.write(async () => s.set(["after"]));
    const after = await cache.list(s.fetch);
    expect((await before).map((b) => b.name)).toEqual(["a"]);
    expect(after.map((b) => b.name)).toEqual(["after"]);
    expect(s.fetches).toBe(2);
  });

  it("a failed list fails its callers and is not kept", async () => {
    const cache = new BundleListCache(1);
    const failing = () => Promise.reject(new Error("boom"));
    await expect(Promise.all([cache.list(failing), cache.list(failing)])).rejects.toThrow("boom");
    const s = server();
    await expect(cache.list(s.fetch)).resolves.toHaveLength(1);
  });

  it("a failed write still lets lists through", async () => {
    const s = server();
    const cache = new BundleListCache(1);
    await expect(cache.write(() => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await expect(cache.list(s.fetch)).resolves.toHaveLength(1);
  });
});
