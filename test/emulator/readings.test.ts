import * as fs from "node:fs";
import * as path from "node:path";
import { listReadings, startEmulator, type Emulator, type ReadingChoice } from "../../emulator";
import { readingsTable } from "../../emulator/readings-table";
import { call, copyBundles, makeZip, post, sampleBundleFiles, ZIP_HEADERS } from "./helpers";

// Each reading of the emulator (emulator/readings.ts) changes what it answers: for every name, one request shows the
// default value's answer and each other value's, over HTTP. What the provider makes of them is
// test/readings/life-cycles.test.ts.

const READING_ENV = "CLOUDBEES_EMULATOR_READINGS";

interface Fm {
  request(method: string, sub: string, body?: unknown): Promise<{ status: number; text: string; json: any; headers: Headers }>;
  app(name?: string): Promise<string>;
}

function fmOf(emu: Emulator): Fm {
  const request = (method: string, sub: string, body?: unknown) =>
    call(emu, `${emu.featureManagementUrl}public-api/${sub}`, {
      method,
      authorization: `Bearer ${emu.credentials.featureManagementToken}`,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    request,
    app: async (name = "app") => (await request("POST", "applications", { applicationName: name })).json.id as string,
  };
}

const GROUP = { name: "beta", conditions: [{ property: "plan", operator: "in-array", operand: ["beta"] }] };

/** One observable per reading: what the emulator answers where the reading decides. */
const PROBES: Record<string, (emu: Emulator) => Promise<unknown>> = {
  createStatus: async (emu) => (await fmOf(emu).request("POST", "applications", { applicationName: "a" })).status,
  environmentNames: async (emu) => {
    const fm = fmOf(emu);
    return (await fm.request("GET", `applications/${await fm.app()}/production/flags`)).status;
  },
  createExistingFlag: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    await fm.request("PUT", `applications/${app}/flags`, { name: "f" });
    return (await fm.request("PUT", `applications/${app}/flags`, { name: "f" })).status;
  },
  putExistingEnvironment: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    await fm.request("PUT", `applications/${app}/environments/key`, { name: "Staging" });
    return (await fm.request("PUT", `applications/${app}/environments/key`, { name: "Staging", description: "x" })).status;
  },
  putExistingTargetGroup: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    await fm.request("PUT", `applications/${app}/target-groups`, GROUP);
    return (await fm.request("PUT", `applications/${app}/target-groups`, GROUP)).status;
  },
  unconfiguredExperiment: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    await fm.request("PUT", `applications/${app}/flags`, { name: "f" });
    const answer = await fm.request("GET", `applications/${app}/Production/experiments/f`);
    return answer.status === 200 ? { status: 200, enabled: answer.json.enabled } : answer.status;
  },
  deleteUnconfiguredExperiment: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    await fm.request("PUT", `applications/${app}/flags`, { name: "f" });
    return (await fm.request("DELETE", `applications/${app}/Production/experiments/f`)).status;
  },
  deleteStatus: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    await fm.request("PUT", `applications/${app}/flags`, { name: "f" });
    const answer = await fm.request("DELETE", `applications/${app}/flags/f`);
    return { status: answer.status, body: answer.text };
  },
  unknownFields: async (emu) => {
    const fm = fmOf(emu);
    return (await fm.request("PUT", `applications/${await fm.app()}/flags`, { name: "f", colour: "red" })).status;
  },
  legacyExperimentPaths: async (emu) => {
    const fm = fmOf(emu);
    return (await fm.request("GET", `${await fm.app()}/Production/experiments`)).status;
  },
  duplicateApplicationNames: async (emu) => {
    const fm = fmOf(emu);
    await fm.app("same");
    return (await fm.request("POST", "applications", { applicationName: "same" })).status;
  },
  errorBody: async (emu) => {
    const answer = await fmOf(emu).request("GET", "applications/0123456789abcdef01234567");
    return { status: answer.status, type: answer.headers.get("content-type"), body: answer.text };
  },
  rateLimitOrder: async (emu) => {
    emu.setFeatureManagementRateLimit(true);
    const bad = () => call(emu, `${emu.featureManagementUrl}public-api/applications`, { authorization: "Bearer nope" });
    return [(await bad()).status, (await bad()).status];
  },
  retryAfterOn555: async (emu) => {
    emu.setFeatureManagementRateLimit(true);
    const fm = fmOf(emu);
    await fm.request("GET", "applications");
    const limited = await fm.request("GET", "applications");
    return { status: limited.status, retryAfter: limited.headers.get("retry-after") };
  },
  createFlagBody: async (emu) => {
    const fm = fmOf(emu);
    return (await fm.request("PUT", `applications/${await fm.app()}/flags`, { name: "f", enabled: true, labels: [] })).status;
  },
  valueTypes: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    await fm.request("PUT", `applications/${app}/flags`, { name: "f" });
    return (await fm.request("PUT", `applications/${app}/Production/flags/f`, { value: "true" })).json.value;
  },
  flagNameInBody: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    await fm.request("PUT", `applications/${app}/flags`, { name: "f" });
    return (await fm.request("PUT", `applications/${app}/Production/flags/f`, { name: "g", value: true })).status;
  },
  environmentKeyBody: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    const answer = await fm.request("PUT", `applications/${app}/environments/key`, { name: "Staging" });
    const key = emu.state.environments(app).find((e) => e.name === "Staging")!.key;
    return { status: answer.status, type: answer.headers.get("content-type"), body: answer.text.replace(key, "<key>") };
  },
  recordLinks: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    return (await fm.request("GET", `applications/${app}/environments`)).json[0]._links ?? null;
  },
  impressionsAnswer: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    emu.impressions.record({ applicationId: app, environment: "Production", flag: "f", value: true });
    const now = Math.floor(emu.impressions.now().getTime() / 1000);
    const answer = await fm.request("GET", `applications/${app}/environments/Production/impressions?mode=daily&from=${now - 86_400}&to=${now}&platforms=aggregatedOnly`);
    if (answer.status !== 200) return answer.status;
    return Array.isArray(answer.json) ? Object.keys(answer.json[0]).sort() : Object.keys(answer.json);
  },
  flagsStatusEndpoint: async (emu) => {
    const fm = fmOf(emu);
    const app = await fm.app();
    await fm.request("PUT", `applications/${app}/flags`, { name: "f" });
    const key = emu.state.environments(app)[0]!.key;
    const answer = await call(emu, `${emu.featureManagementUrl}v1/applications/${app}/environments/${key}/flags-status`, { authorization: `Bearer ${emu.credentials.featureManagementToken}` });
    return answer.status === 200 ? answer.json : answer.status;
  },
  vanishedBundleState: async (emu) => {
    const oc = emu.operationsCenterUrl;
    await post(emu, `${oc}casc-bundle/set-availability-pattern?bundleId=team-b&regex=sandbox`);
    fs.renameSync(path.join(emu.bundlesDir, "team-b"), path.join(emu.bundlesDir, ".gone"));
    await post(emu, `${oc}casc-bundle/check-out`);
    fs.renameSync(path.join(emu.bundlesDir, ".gone"), path.join(emu.bundlesDir, "team-b"));
    await post(emu, `${oc}casc-bundle/check-out`);
    return emu.state.apiAvailabilityPatterns()["team-b"] ?? null;
  },
  controllerFilter: async (emu) => {
    const log = await call(emu, `${emu.operationsCenterUrl}casc-bundle/effective-bundle-validation-log?controller=controller-a`);
    return log.json["validation-log"].map((e: { controller: string }) => e.controller);
  },
  branchlessBundles: async (emu) => {
    const zip = await makeZip(sampleBundleFiles("", ["base"]));
    return (await post(emu, `${emu.operationsCenterUrl}casc-bundle/pre-validate-bundle`, { body: zip, headers: ZIP_HEADERS })).status;
  },
  reloadWithoutChange: async (emu) => {
    const controller = emu.controllerUrls["sandbox"]!;
    await post(emu, `${emu.operationsCenterUrl}casc-bundle/set-global-availability-pattern-behavior?visibility=true`);
    await post(emu, `${emu.operationsCenterUrl}casc-bundle/set-controller-to-bundle?bundleId=base&controllerPath=sandbox`);
    await post(emu, `${controller}casc-bundle-mgnt/reload-bundle`);
    await post(emu, `${controller}casc-bundle-mgnt/reload-bundle`);
    return (await call(emu, `${controller}casc-bundle-mgnt/casc-bundle-update-log`)).json.versions.length;
  },
  uploadedParent: async (emu) => {
    const files = Object.entries(sampleBundleFiles("", ["team-a"])).map(([name, content]) => [name.replace(/^team-a\//, ""), content]);
    const zip = await makeZip(Object.fromEntries(files));
    const answer = await post(emu, `${emu.operationsCenterUrl}casc-bundle-mgnt/casc-bundle-validate`, { body: zip, headers: ZIP_HEADERS });
    const messages: string[] = answer.json["validation-messages"];
    return messages.filter((m) => m.includes("'parent'")).map((m) => m.split(" - ")[0]);
  },
  pluginsWithoutList: async (emu) => {
    const bundle = { "bundle.yaml": 'apiVersion: "1"\nid: "p"\nversion: "1"\nplugins:\n  - "plugins.yaml"\n', "plugins.yaml": "plugins:\n" };
    const answer = await post(emu, `${emu.operationsCenterUrl}casc-bundle-mgnt/casc-bundle-validate`, { body: await makeZip(bundle), headers: ZIP_HEADERS });
    return answer.json.valid;
  },
  nonBasicAuth: async (emu) => (await call(emu, `${emu.operationsCenterUrl}casc-bundle/list`, { authorization: "Bearer x" })).status,
  regenerateTokenBundleId: async (emu) => {
    await post(emu, `${emu.operationsCenterUrl}casc-bundle/set-controller-to-bundle?bundleId=team-a&controllerPath=team-a/controller-a`);
    const before = emu.state.controllerToken("team-a/controller-a");
    const answer = await post(emu, `${emu.operationsCenterUrl}casc-bundle/regenerate-token?bundleId=team-a`);
    return { status: answer.status, tokenChanged: emu.state.controllerToken("team-a/controller-a") !== before };
  },
};

/** What each probe gives under each value, the default first (in listReadings' order of values). */
const EXPECTED: Record<string, unknown[]> = {
  createStatus: [200, 201],
  environmentNames: [200, 404],
  createExistingFlag: [200, 409],
  putExistingEnvironment: [200, 409],
  putExistingTargetGroup: [200, 409],
  unconfiguredExperiment: [404, { status: 200, enabled: false }],
  deleteUnconfiguredExperiment: [204, 404],
  deleteStatus: [{ status: 204, body: "" }, { status: 200, body: "" }],
  unknownFields: [400, 200],
  legacyExperimentPaths: [200, 404],
  duplicateApplicationNames: [200, 409],
  errorBody: [
    { status: 404, type: "application/json;charset=utf-8", body: JSON.stringify({ error: "Application '0123456789abcdef01234567' not found" }) },
    { status: 404, type: "text/plain;charset=utf-8", body: "Application '0123456789abcdef01234567' not found" },
  ],
  rateLimitOrder: [
    [401, 555],
    [401, 401],
  ],
  retryAfterOn555: [
    { status: 555, retryAfter: null },
    { status: 555, retryAfter: "1" },
  ],
  createFlagBody: [200, 400],
  valueTypes: [true, "true"],
  flagNameInBody: [400, 200],
  environmentKeyBody: [
    { status: 200, type: "application/json;charset=utf-8", body: '"<key>"' },
    { status: 200, type: "text/plain;charset=utf-8", body: "<key>" },
    { status: 200, type: "application/json;charset=utf-8", body: '{"name":"Staging","key":"<key>","description":""}' },
    { status: 204, type: null, body: "" },
  ],
  recordLinks: [null, { self: { href: expect.stringMatching(/^\/feature-management\/public-api\/applications\/[0-9a-f]+\/environments$/) } }],
  impressionsAnswer: [["analytics"], ["count", "date", "flag", "value"], ["count", "flag", "from", "value"], 404],
  flagsStatusEndpoint: [404, { flagsStatus: { f: { flagName: "f", status: "setup" } } }],
  vanishedBundleState: ["sandbox", null],
  controllerFilter: [["team-a/controller-a"], []],
  branchlessBundles: [200, 400],
  reloadWithoutChange: [1, 2],
  uploadedParent: [["WARNING"], ["ERROR"]],
  pluginsWithoutList: [false, true],
  nonBasicAuth: [403, 401],
  regenerateTokenBundleId: [
    { status: 400, tokenChanged: false },
    { status: 200, tokenChanged: true },
  ],
};

const bundleDirs: string[] = [];
afterAll(() => {
  for (const d of bundleDirs) fs.rmSync(d, { recursive: true, force: true });
});

async function probe(name: string, readings: ReadingChoice): Promise<unknown> {
  const bundlesDir = copyBundles();
  bundleDirs.push(bundlesDir);
  const emu = await startEmulator({ readings, bundlesDir });
  try {
    return await PROBES[name]!(emu);
  } finally {
    await emu.close();
  }
}

describe("listReadings", () => {
  it("is what emulator/README.md's table shows (npm run docs:readings writes it)", () => {
    const readme = fs.readFileSync(path.join(__dirname, "..", "..", "emulator", "README.md"), "utf8");
    expect(readme).toContain(readingsTable());
    for (const r of listReadings()) expect(readingsTable()).toContain(`| \`${r.name}\` |`);
  });

  it("names each open choice once, with its default first among two or more values and a reason", () => {
    const list = listReadings();
    expect(new Set(list.map((r) => r.name)).size).toBe(list.length);
    for (const r of list) {
      expect(r.values[0]).toBe(r.default);
      expect(r.values.length).toBeGreaterThanOrEqual(2);
      expect(r.reason.length).toBeGreaterThan(40);
    }
    // Every reading has a probe here and an expectation per value.
    expect(Object.keys(PROBES).sort()).toEqual(list.map((r) => r.name).sort());
    for (const r of list) expect(EXPECTED[r.name]).toHaveLength(r.values.length);
  });

  it("gives copies: changing what it returned changes nothing", () => {
    const first = listReadings();
    first[0]!.values.push("x");
    expect(listReadings()[0]!.values).not.toContain("x");
  });
});

describe.each(listReadings().map((r) => [r.name, r] as const))("reading %s", (name, info) => {
  it.each(info.values.map((v, i) => [String(v), v, i] as const))("= %s", async (_label, value, index) => {
    await expect(probe(name, { [name]: value } as ReadingChoice)).resolves.toEqual(EXPECTED[name]![index]);
  });
});

describe("choosing readings", () => {
  it("takes several at once, and reports them all on the emulator", async () => {
    const emu = await startEmulator({ readings: { createStatus: 201, errorBody: "text" } });
    try {
      expect(emu.readings).toMatchObject({ createStatus: 201, errorBody: "text", environmentNames: "ignore-case" });
      expect((await fmOf(emu).request("POST", "applications", { applicationName: "a" })).status).toBe(201);
      expect((await fmOf(emu).request("GET", "applications/nope")).headers.get("content-type")).toMatch(/^text\/plain/);
    } finally {
      await emu.close();
    }
  });

  it("refuses an unknown name or value, naming what is allowed", async () => {
    await expect(startEmulator({ readings: { nope: 1 } as unknown as ReadingChoice })).rejects.toThrow(/"nope" is not a reading of the emulator \(known: createStatus, /);
    await expect(startEmulator({ readings: { createStatus: 202 } as unknown as ReadingChoice })).rejects.toThrow(/createStatus cannot be 202 \(one of: 200, 201\)/);
  });

  it(`reads ${READING_ENV} (name=value,...), under the options' own choices`, async () => {
    const saved = process.env[READING_ENV];
    process.env[READING_ENV] = "createStatus=201, environmentNames=case-sensitive";
    try {
      const emu = await startEmulator({ readings: { environmentNames: "ignore-case" } });
      expect(emu.readings).toMatchObject({ createStatus: 201, environmentNames: "ignore-case" });
      await emu.close();
      process.env[READING_ENV] = "createStatus";
      await expect(startEmulator()).rejects.toThrow(`${READING_ENV}: "createStatus" is not name=value`);
    } finally {
      if (saved === undefined) delete process.env[READING_ENV];
      else process.env[READING_ENV] = saved;
    }
  });
});
