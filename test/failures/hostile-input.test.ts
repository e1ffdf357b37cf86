/**
 * Issue 8, items 4, 5 and 6, through the real provider host: huge inputs give short failures naming the input and
 * the limit (and the host keeps answering), check never throws, and an unknown field fails with the nearest name.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { makeUrn, type JsonObject } from "../harness";
import { FeatureManagementClient, InvalidInputError } from "../../provider";
import { TYPES, startWorld, type World } from "../resources/helpers";
import { ACTION_TYPES, actionTexts, tempDir } from "../actions/helpers";

let w: World;
let actions: Awaited<ReturnType<typeof actionTexts>>;
beforeAll(async () => {
  w = await startWorld();
  actions = await actionTexts();
});
afterAll(async () => {
  await w?.close();
});

/** Check through the host, as the engine sends it: the failures, or the error if check threw. */
async function check(type: string, text: string, news: JsonObject) {
  const urn = makeUrn("project", "stack", type, "r");
  return w.host.check(urn, {}, { ...news, __provider: text });
}

const availability = (news: JsonObject) => check(TYPES.bundleAvailability, w.texts.bundleAvailability, news);

describe("huge inputs", () => {
  it.each([
    ["a 70 KB bundleId", { bundleId: "b".repeat(70_000), regex: "sandbox" }, "bundleId", /bundleId is 70000 characters long; at most 255/],
    ["a 200 KB bundleId", { bundleId: "b".repeat(200_000), regex: "sandbox" }, "bundleId", /bundleId is 200000 characters long/],
    ["a 200 KB regex", { bundleId: "base", regex: "r".repeat(200_000) }, "regex", /regex would make a query string of 200020 characters once encoded; servers refuse more than about 6000 \(431/],
  ])("%s fails check with a short reason naming the input and the limit", async (_name, news, property, reason) => {
    const { failures } = await availability(news);
    expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(failures[0]!.reason.length).toBeLessThanOrEqual(1000);
  });

  it("a 70 KB controllerPath fails check; sent to create anyway, the error is short and the host still answers", async () => {
    const news = { controllerPath: `team-a/${"c".repeat(70_000)}`, bundleId: "team-a" };
    const { failures } = await check(TYPES.controllerBundleAssignment, w.texts.controllerBundleAssignment, news);
    expect(failures).toEqual([{ property: "controllerPath", reason: expect.stringMatching(/controllerPath is 70007 characters long; at most 1024/) }]);

    const urn = makeUrn("project", "stack", TYPES.controllerBundleAssignment, "huge");
    const error = (await w.host.create(urn, { ...news, __provider: w.texts.controllerBundleAssignment }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/controllerPath/);
    expect(error.message.length).toBeLessThan(5000);
    // The host answers the next call (before, it stopped answering after an error it could not deliver).
    expect((await availability({ bundleId: "base", regex: "sandbox" })).failures).toEqual([]);
  });

  it("3,000 controllers fail check naming the pattern's encoded length, not a bare 431 at up", async () => {
    const controllers = Array.from({ length: 3000 }, (_, i) => `team-a/controller-${i}`);
    const { failures } = await availability({ bundleId: "team-a", controllers });
    expect(failures).toEqual([{ property: "controllers", reason: expect.stringMatching(/query string of \d+ characters.*431/) }]);
  });

  it("more than 1,000 triggers fail check naming the list's limit", async () => {
    const triggers = Array.from({ length: 1001 }, (_, i) => i);
    const { failures } = await check(ACTION_TYPES.bundleCheckout, actions.bundleCheckout, { triggers });
    expect(failures).toEqual([{ property: "triggers", reason: "triggers has 1001 items; at most 1000 are allowed" }]);
  });

  it("a controller path with a character Jenkins refuses in item names fails check", async () => {
    const { failures } = await availability({ bundleId: "team-a", controllers: ["team-a/build#1"] });
    expect(failures).toEqual([{ property: "controllers[0]", reason: expect.stringMatching(/holds "#", which Jenkins refuses in item names/) }]);
  });
});

describe("check never throws", () => {
  it("an alias bomb in the items yaml is a failure naming yaml", async () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...Array.from({ length: 8 }, (_, i) => {
        const prev = i === 0 ? "a" : `l${i - 1}`;
        return `l${i}: &l${i} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`;
      }),
      "items: *l7",
    ].join("\n");
    const { failures } = await check(ACTION_TYPES.items, actions.items, { yaml: bomb });
    expect(failures).toEqual([{ property: "yaml", reason: expect.stringMatching(/^yaml cannot be read: .*alias/i) }]);
  });

  it("a bundle folder that cannot be read (a dangling link inside) is a failure naming the input", async () => {
    const dir = tempDir("unreadable-");
    try {
      fs.symlinkSync(path.join(dir, "does-not-exist"), path.join(dir, "ghost"));
      const single = await check(ACTION_TYPES.bundleValidation, actions.bundleValidation, { bundlePath: dir });
      expect(single.failures).toEqual([{ property: "bundlePath", reason: expect.stringMatching(/holds no bundle.yaml/) }]);
      const tree = await check(ACTION_TYPES.bundleValidation, actions.bundleValidation, { bundleTreePath: dir });
      // The folder reader reports the dangling link instead of throwing (provider/bundle/files.ts): no bundle is left.
      expect(tree.failures).toEqual([{ property: "bundleTreePath", reason: expect.stringMatching(/holds no bundle folder/) }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("unknown inputs", () => {
  it("fail check with the nearest known name, and are not stored", async () => {
    const { inputs, failures } = await availability({ bundleId: "team-a", controlers: ["sandbox"] } as JsonObject);
    expect(failures).toEqual(
      expect.arrayContaining([
        { property: "controlers", reason: "unknown input controlers; did you mean controllers? (the inputs are bundleId, regex, controllers)" },
      ]),
    );
    expect(inputs).not.toHaveProperty("controlers");
  });

  it.each([
    ["application", TYPES.application, "application", { name: "web", adoptExisting: true, adoptExsting: true }, "adoptExsting", "adoptExisting"],
    ["bundleCheckout", ACTION_TYPES.bundleCheckout, "bundleCheckout", { timeout: 600 }, "timeout", "timeoutSeconds"],
    ["controllerBundleToken", ACTION_TYPES.controllerBundleToken, "controllerBundleToken", { controllerPath: "sandbox", trigger: [1] }, "trigger", "triggers"],
  ] as const)("%s", async (_name, type, kind, news, typo, near) => {
    const text = (w.texts as Record<string, string>)[kind] ?? (actions as Record<string, string>)[kind]!;
    const { failures } = await check(type, text, news as JsonObject);
    expect(failures).toEqual([{ property: typo, reason: expect.stringMatching(new RegExp(`^unknown input ${typo}; did you mean ${near}\\?`)) }]);
  });
});

describe("issue 19: forged lines, path segments and YAML anchors", () => {
  it.each([
    ["Application name", TYPES.application, "application", "name", { name: "web\nerror: forged line" }, "\\n"],
    ["BundleAvailability bundleId", TYPES.bundleAvailability, "bundleAvailability", "bundleId", { bundleId: "team-a\u001b[31m", regex: "x" }, "\\u001b"],
    ["DefaultBundle bundleId", TYPES.defaultBundle, "defaultBundle", "bundleId", { bundleId: "base\u0000" }, "\\u0000"],
    ["BundleAvailability bundleId (C1)", TYPES.bundleAvailability, "bundleAvailability", "bundleId", { bundleId: "team-a\u009b31m", regex: "x" }, "\\u009b"],
  ] as const)("finding 10: a control character in %s fails check, echoed as an escape", async (_name, type, kind, property, news, escape) => {
    // Before: check accepted them, and errors echoed them raw (a forged `error:` line appeared).
    const { failures } = await check(type, (w.texts as Record<string, string>)[kind]!, news as JsonObject);
    expect(failures).toEqual([{ property, reason: expect.stringMatching(/control character/) }]);
    expect(failures[0]!.reason).toContain(escape);
    expect(failures[0]!.reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it("finding 10: a bidi override in an error's echoed value is shown as an escape", async () => {
    const { failures } = await availability({ bundleId: " team-\u202eb", regex: "x" });
    expect(failures).toHaveLength(1);
    expect(failures[0]!.reason).toContain("\\u202e");
    expect(failures[0]!.reason).not.toContain("\u202e");
  });

  it("finding 11: an items yaml with more aliases than the bound fails check naming the count", async () => {
    // Before: accepted, and 20,000 anchors and aliases took 10 s of check (the alias resolution is quadratic).
    const yaml = `items:\n  - &f {kind: "folder", name: "x"}\n${"  - *f\n".repeat(1001)}`;
    const { failures } = await check(ACTION_TYPES.items, actions.items, { yaml });
    expect(failures).toEqual([{ property: "yaml", reason: expect.stringMatching(/yaml has 1001 aliases \(\*name\); at most 1000/) }]);
  });
});

describe("issue 19, finding 9: one path segment", () => {
  it.each(["..", ".", "", "a/b", "a\\b"])("getApplication(%j) is refused before any request", async (id) => {
    // Before: ".." sent GET .../public-api/ with the token and took the answer as an application; "." read the list.
    const fm = new FeatureManagementClient({ baseUrl: w.emu.featureManagementUrl, token: w.emu.credentials.featureManagementToken, maxRetries: 0 });
    w.emu.journal.clear();
    try {
      const error = await fm.getApplication(id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).input).toBe("applicationId");
      expect(w.emu.journal.entries()).toEqual([]);
    } finally {
      await fm.close();
    }
  });
});
