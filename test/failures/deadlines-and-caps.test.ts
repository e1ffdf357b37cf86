/**
 * Issue 8, items 1, 3, 4 (timeoutSeconds) and 7, at the client: each call's deadline is the one that decides (the
 * transport never cuts it short), secrets the API returns never reach an error, and what is read has a bound.
 */
import JSZip from "jszip";
import { startEmulator, type Emulator } from "../../emulator";
import {
  FeatureManagementClient,
  InvalidInputError,
  OperationsCenterClient,
  ResponseTooLargeError,
  UnexpectedResponseError,
  ServerError,
} from "../../provider";
import { unzipBundle, ZipTooLargeError } from "../../provider/bundle/zip";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(() => {
  emu.faults.clear();
  emu.journal.clear();
});

const CHECK_OUT = "/cjoc/casc-bundle/check-out";
const posts = (path: string) => emu.journal.entries().filter((e) => e.method === "POST" && e.path === path).length;

describe("deadlines per operation", () => {
  it("a check-out slower than timeoutMs completes: it waits for its own timeout, and runs once", async () => {
    // Before: undici's headersTimeout was timeoutMs, so this failed after 4 attempts, each running the check-out.
    const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, timeoutMs: 1000, retryBaseDelayMs: 10 });
    emu.faults.inject({ path: CHECK_OUT, delayMs: 2500, times: Infinity });
    try {
      const result = await oc.checkOut({ timeoutSeconds: 30 });
      expect(result.remotes.length).toBeGreaterThan(0);
      expect(posts(CHECK_OUT)).toBe(1);
    } finally {
      await oc.close();
    }
  });

  it("a timeoutSeconds no timer can hold is refused before anything is sent", async () => {
    // Before: a RangeError of the deadline timer, retried as a network failure.
    const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, retryBaseDelayMs: 10 });
    try {
      const error = await oc.checkOut({ timeoutSeconds: 1e12 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).input).toBe("timeoutSeconds");
      expect(emu.journal.entries()).toEqual([]);
    } finally {
      await oc.close();
    }
  });
});

describe("bounds that fit what they bound", () => {
  it("a long items yaml and a long item path are not held to an id's 255 characters", async () => {
    const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, maxRetries: 0 });
    const names = Array.from({ length: 40 }, (_, i) => `pipeline-with-a-long-name-${i}`);
    const yaml = `items:\n${names.map((n) => `  - kind: "pipeline"\n    name: "${n}"\n`).join("")}`;
    try {
      expect(yaml.length).toBeGreaterThan(2000);
      await expect(oc.createItems(yaml)).resolves.toEqual({ basePath: "" });
      const deep = Array.from({ length: 30 }, () => "folder").join("/");
      await expect(oc.exportItem(`job/${deep.split("/").join("/job/")}`)).rejects.toThrow(/not found \(404\)/);
    } finally {
      await oc.close();
    }
  });
});

describe("secrets the API returns", () => {
  it("a 2xx body of the wrong shape of an endpoint returning tokens is not quoted", async () => {
    const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, maxRetries: 0 });
    const token = "tok-7f3a9c1e55d04b2a";
    emu.faults.inject({
      path: "/cjoc/casc-bundle/regenerate-token",
      status: 200,
      body: JSON.stringify({ name: "team-a", token, linkFileContent: `https://oc.example.com/link\n${token}` }),
    });
    try {
      const error = (await oc.regenerateToken("team-a/controller-a").catch((e: unknown) => e)) as UnexpectedResponseError;
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error.message).toContain("(not quoted: this endpoint's answers hold credentials)");
      expect(error.message).not.toContain(token);
      expect(JSON.stringify(error)).not.toContain(token);
    } finally {
      await oc.close();
    }
  });

  it("a token read once is scrubbed from the client's later errors", async () => {
    const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, maxRetries: 0 });
    try {
      await oc.setControllerToBundle("team-a", "team-a/controller-a");
      const { token } = await oc.getBundleDownloadLink("team-a/controller-a");
      expect(token.length).toBeGreaterThan(8);
      emu.faults.inject({ path: "/cjoc/casc-bundle/list", status: 500, body: `<html><body>Broken link file ${token}</body></html>` });
      const error = (await oc.listBundles().catch((e: unknown) => e)) as ServerError;
      expect(error).toBeInstanceOf(ServerError);
      expect(error.message).toContain("Broken link file [redacted]");
      expect(error.message).not.toContain(token);
    } finally {
      await oc.close();
    }
  });
});

describe("caps on what is read", () => {
  it("a response body past maxResponseBytes fails with ResponseTooLargeError, not an out-of-memory host", async () => {
    const fm = new FeatureManagementClient({
      baseUrl: emu.featureManagementUrl,
      token: emu.credentials.featureManagementToken,
      minRequestIntervalMs: 1,
      maxResponseBytes: 1000,
      maxRetries: 0,
    });
    emu.faults.inject({ path: "/feature-management/public-api/applications", status: 200, body: JSON.stringify([{ name: "x".repeat(5000), id: "1" }]) });
    try {
      const error = (await fm.listApplications().catch((e: unknown) => e)) as ResponseTooLargeError;
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.message).toMatch(/larger than the limit of 1000 bytes/);
    } finally {
      await fm.close();
    }
  });

  it("a zip that inflates past the limit, or holds too many entries, fails with ZipTooLargeError", async () => {
    const zip = new JSZip();
    zip.file("bundle.yaml", Buffer.alloc(3 * 1024 * 1024, 0x61));
    const small = await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
    expect(small.length).toBeLessThan(20_000);
    await expect(unzipBundle(small, { maxEntries: 10, maxInflatedBytes: 1024 * 1024 })).rejects.toBeInstanceOf(ZipTooLargeError);
    await expect(unzipBundle(small, { maxEntries: 10, maxInflatedBytes: 1024 * 1024 })).rejects.toThrow(/inflates to more than 1048576 bytes/);

    const many = new JSZip();
    for (let i = 0; i < 12; i++) many.file(`f${i}.yaml`, "a: 1\n");
    const manyZip = await many.generateAsync({ type: "nodebuffer" });
    await expect(unzipBundle(manyZip, { maxEntries: 10, maxInflatedBytes: 1024 * 1024 })).rejects.toThrow(/12 entries; at most 10/);
    expect(Object.keys(await unzipBundle(manyZip))).toHaveLength(12);
  });
});
