import type { ListedBundle } from "../../provider";
import { availabilityPatternSet, BundleListCache } from "../../provider/resources/shared/bundle-list-cache";

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
  it("a lone read asks at once; callers meanwhile join it; later reads get the kept list", async () => {
    const s = server();
    const cache = new BundleListCache();
    const first = cache.list(s.fetch);
    // Sent before list() returned: no gathering timer.
    expect(s.fetches).toBe(1);
    const lists = await Promise.all([first, ...Array.from({ length: 20 }, () => cache.list(s.fetch))]);
    expect(new Set(lists).size).toBe(1);
    s.set(["b"]);
    // Until this process writes, the deployment's list serves every read (a change made elsewhere shows next time).
    expect((await cache.list(s.fetch)).map((b) => b.name)).toEqual(["a"]);
    expect(s.fetches).toBe(1);
  });

  it("a write forgets the kept list: the next read asks again and sees it", async () => {
    const s = server();
    const cache = new BundleListCache();
    await cache.list(s.fetch);
    await cache.write(async () => s.set(["written"]));
    expect((await cache.list(s.fetch)).map((b) => b.name)).toEqual(["written"]);
    expect(s.fetches).toBe(2);
  });

  it("reads asked for during writes wait for them all to end, then share one list that sees them", async () => {
    const s = server();
    const cache = new BundleListCache();
    const finish: Array<() => void> = [];
    const writes = [1, 2, 3].map(() => cache.write(() => new Promise<void>((r) => finish.push(r))));
    const reads = [cache.list(s.fetch), cache.list(s.fetch)];
    s.set(["first"]);
    finish[0]!();
    await writes[0];
    reads.push(cache.list(s.fetch));
    await new Promise((r) => setImmediate(r));
    expect(s.fetches).toBe(0);
    s.set(["all"]);
    finish[1]!();
    finish[2]!();
    const lists = await Promise.all(reads);
    expect(new Set(lists).size).toBe(1);
    expect(lists[0]!.map((b) => b.name)).toEqual(["all"]);
    expect(s.fetches).toBe(1);
  });

  it("a write that starts while a list is in flight: readers meanwhile share that list, readers after it ask again", async () => {
    const s = server();
    const cache = new BundleListCache();
    const before = cache.list(s.fetch);
    let finish!: () => void;
    const write = cache.write(() => new Promise<void>((r) => (finish = r)));
    const during = cache.list(s.fetch);
    s.set(["after"]);
    finish();
    await write;
    const after = await cache.list(s.fetch);
    expect(await during).toBe(await before);
    expect((await before).map((b) => b.name)).toEqual(["a"]);
    expect(after.map((b) => b.name)).toEqual(["after"]);
    expect(s.fetches).toBe(2);
  });

  it("a failed list fails its callers and is not kept", async () => {
    const cache = new BundleListCache();
    const failing = () => Promise.reject(new Error("boom"));
    await expect(Promise.all([cache.list(failing), cache.list(failing)])).rejects.toThrow("boom");
    const s = server();
    await expect(cache.list(s.fetch)).resolves.toHaveLength(1);
    expect(s.fetches).toBe(1);
  });

  it("a failed write still forgets the kept list (the server may have acted) and lets lists through", async () => {
    const s = server();
    const cache = new BundleListCache();
    await cache.list(s.fetch);
    await expect(cache.write(() => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await expect(cache.list(s.fetch)).resolves.toHaveLength(1);
    expect(s.fetches).toBe(2);
  });

  it("a write whose answer says what changed updates the kept list instead: no second list", async () => {
    const s = server();
    const cache = new BundleListCache();
    await cache.list(s.fetch);
    const answer = await cache.write(async () => ["c1", "c2"], availabilityPatternSet("a", "c[12]"));
    expect(answer).toEqual(["c1", "c2"]);
    const [a] = await cache.list(s.fetch);
    expect(a).toEqual({ ...bundle("a"), regex: "c[12]", availabilityPatternFromYaml: false, availableFor: ["c1", "c2"] });
    expect(s.fetches).toBe(1);
  });

  it("an update that does not fit the kept list (a bundle it lacks) reads the list again", async () => {
    const s = server();
    const cache = new BundleListCache();
    await cache.list(s.fetch);
    s.set(["a", "new"]);
    await cache.write(async () => ["c1"], availabilityPatternSet("new", "c1"));
    expect((await cache.list(s.fetch)).map((b) => b.name)).toEqual(["a", "new"]);
    expect(s.fetches).toBe(2);
  });
});
