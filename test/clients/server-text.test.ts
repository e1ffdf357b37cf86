/**
 * Issue 37: what the typed clients make of a hostile server's text, over real HTTP against the emulator (its answers
 * replaced by injected faults). The server's words in an error are data, quoted on one line; every parser of server
 * text runs in one pass with a bound on a field the spec leaves unbounded. Outcomes are asserted, never times.
 */
import { startEmulator, type Emulator } from "../../emulator";
import { MAX_ITEM_URL_LENGTH } from "../../provider/clients/limits";
import { CloudBeesError, OperationsCenterClient } from "../../provider";
import { trimCharacter } from "../../provider/text/trim";
import { expectOneQuotedLine, HOSTILE_VALUES } from "../harness/hostile-text";
import { FAST } from "./fast-options";

let emu: Emulator;
let oc: OperationsCenterClient;
const VIEW = "/cjoc/view/Controllers/api/json";

beforeAll(async () => {
  emu = await startEmulator();
  oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, ...FAST, maxRetries: 0 });
});
afterAll(async () => {
  await oc.close();
  await emu.close();
});
beforeEach(() => emu.faults.clear());

describe("the server's words in an error", () => {
  it.each(HOSTILE_VALUES)("%s: one line, quoted after 'Server said'", async (_name, words) => {
    emu.faults.inject({ path: "/cjoc/casc-bundle/list", status: 400, body: JSON.stringify({ error: words }) });
    const error = (await oc.listBundles().catch((e: unknown) => e)) as CloudBeesError;
    expect(error).toBeInstanceOf(CloudBeesError);
    expect(error.message).toContain("Server said: ");
    // An excerpt folds runs of white space (line breaks among them) into one space: what it quotes is that.
    expectOneQuotedLine(error.message, words.replace(/\s+/g, " ").trim());
  });
});

describe("the Controllers view's item URLs (the samples read .jobs[].url: getConnectedControllers.sh)", () => {
  const oc$ = () => emu.operationsCenterUrl;
  const view = (jobs: object[]) => emu.faults.inject({ path: VIEW, status: 200, body: JSON.stringify({ jobs }) });

  it("a URL of 192 KB of /job/a segments: past the bound, the item keeps its URL and its name stands for its path; the others are read", async () => {
    const hostile = `${oc$()}${"job/a/".repeat(32 * 1024)}`;
    expect(hostile.length).toBeGreaterThan(MAX_ITEM_URL_LENGTH);
    view([
      { name: "a", url: hostile },
      { name: "controller-c", url: `${oc$()}job/teams/job/controller-c/` },
    ]);
    expect(await oc.listControllerItems()).toEqual([
      { name: "a", url: hostile, fullPath: "a" },
      { name: "controller-c", url: `${oc$()}job/teams/job/controller-c/`, fullPath: "teams/controller-c" },
    ]);
  });

  it("a long URL within the bound is read whole, segment by segment", async () => {
    const segments = Math.floor((MAX_ITEM_URL_LENGTH - oc$().length) / "job/b/".length);
    const url = `${oc$()}${"job/b/".repeat(segments)}`;
    expect(url.length).toBeLessThanOrEqual(MAX_ITEM_URL_LENGTH);
    view([{ name: "b", url }]);
    const [item] = await oc.listControllerItems();
    expect(item!.fullPath).toBe(Array(segments).fill("b").join("/"));
  });

  it("the path's segments as the old pattern read them: percent-decoded, a name that is 'job', no trailing job/ of its own", async () => {
    const base = oc$();
    view([
      { name: "y", url: `${base}job/t%C3%A9am/job/y/` },
      { name: "x", url: `${base}job/job/job/x` },
      { name: "odd", url: `${base}job/job/odd/` },
      { name: "plain", url: `${base}computer/plain/` },
      { name: "bad", url: `${base}job/%E0%A4%A/` },
      { name: "full", url: "http://elsewhere/", fullName: "folder/full" },
    ]);
    expect((await oc.listControllerItems()).map((i) => i.fullPath)).toEqual(["téam/y", "job/x", "odd", "plain", "bad", "folder/full"]);
  });
});

it("trimCharacter: runs at either end, in one pass whatever their length", () => {
  // `/^-+|-+$/g` took seconds on this (every `-` of the run was a start of `-+$`).
  const hostile = `${"-".repeat(200_000)}x`;
  expect(trimCharacter(hostile, "-")).toBe("x");
  expect(trimCharacter(`${"/".repeat(200_000)}a${"/".repeat(200_000)}b`, "/", { start: false })).toBe(`${"/".repeat(200_000)}a${"/".repeat(200_000)}b`);
  expect(trimCharacter("//a/b//", "/")).toBe("a/b");
  expect(trimCharacter("//a/b//", "/", { start: false })).toBe("//a/b");
  expect(trimCharacter("----", "-")).toBe("");
});
