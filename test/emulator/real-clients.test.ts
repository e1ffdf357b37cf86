/**
 * Issue 27: the emulator answers as a real operations center does where public clients of the CasC API rely on it.
 * Each case cites the client (or the plugin source, or the real export) that shows the behaviour; the requests are
 * sent as those clients send them, over HTTP.
 */
import YAML from "yaml";
import { Emulator, startEmulator } from "../../emulator";
import { call, post, readZip } from "./helpers";

let emu: Emulator;
let oc: string;
let teamA: string;
beforeAll(async () => {
  emu = await startEmulator();
  oc = emu.operationsCenterUrl;
  teamA = emu.controllerUrls["team-a/controller-a"]!;
  const assign = await post(emu, `${oc}casc-bundle/set-controller-to-bundle?bundleId=team-a&controllerPath=team-a/controller-a`);
  expect(assign.status).toBe(200);
  expect((await post(emu, `${teamA}casc-bundle-mgnt/reload-bundle`)).status).toBe(200);
});
afterAll(async () => {
  await emu.close();
});

/**
 * The files of a core-casc-export text as bundleutils reads them (tsmp-falcon-platform/ci-bundle-utils,
 * bundleutils.py: each document's opening `# <file>` comment names the file; a line `--- <text>` is a catalog
 * warning that aborts the fetch).
 */
function filesOfExport(text: string): Map<string, unknown> {
  expect(text).not.toMatch(/^--- .*$/m);
  const files = new Map<string, unknown>();
  for (const chunk of text.split(/^---\n/m).filter((c) => c !== "")) {
    const m = /^# (\S+)\n([\s\S]*)$/.exec(chunk);
    expect(m).not.toBeNull();
    files.set(m![1]!, YAML.parse(m![2]!));
  }
  return files;
}

describe("1. the Jenkins configuration file is jenkins.yaml in every export", () => {
  // bundleutils fetch dies with "Jenkins YAML file ... does not exist" without it; the real export kept in its
  // repository (examples/offline-test-run/bundlecontent.yaml) lists `jcasc: ["jenkins.yaml"]`.
  it("in a controller's core-casc-export, as bundleutils fetch reads it", async () => {
    const r = await call(emu, `${teamA}core-casc-export`);
    expect(r.status).toBe(200);
    const files = filesOfExport(r.text);
    expect([...files.keys()]).toEqual(["bundle.yaml", "jenkins.yaml", "plugins.yaml", "items.yaml"]);
    expect(files.get("bundle.yaml")).toMatchObject({ apiVersion: "1", jcasc: ["jenkins.yaml"] });
    expect(files.get("jenkins.yaml")).toMatchObject({ jenkins: { systemMessage: "Managed by CasC: team A" } });
  });

  it("in its zipExport, and in the item export of the operations center", async () => {
    const zip = await readZip((await call(emu, `${teamA}core-casc-export/zipExport`)).bytes);
    expect(Object.keys(zip)).toContain("jenkins.yaml");
    const descriptor = YAML.parse((await post(emu, `${oc}job/team-a/export/download/bundle.yaml`)).text);
    expect(descriptor.jcasc).toEqual(["jenkins.yaml"]);
  });
});

describe("2. per-file export", () => {
  it("serves core-casc-export/bundle.yaml, then each file it lists, as the whole export has them", async () => {
    const whole = filesOfExport((await call(emu, `${teamA}core-casc-export`)).text);
    const descriptor = await call(emu, `${teamA}core-casc-export/bundle.yaml`);
    expect(descriptor.status).toBe(200);
    const listed = ["jcasc", "plugins", "items"].flatMap((k) => YAML.parse(descriptor.text)[k] as string[]);
    for (const file of listed) {
      const r = await call(emu, `${teamA}core-casc-export/${file}`);
      expect([file, r.status]).toEqual([file, 200]);
      expect(YAML.parse(r.text)).toEqual(whole.get(file));
    }
    expect((await call(emu, `${teamA}core-casc-export/rbac.yaml`)).status).toBe(404);
    // The plugin's code names the zip route full-export (BundleExport.java); the docs, zipExport.
    expect((await call(emu, `${teamA}core-casc-export/full-export`)).headers.get("content-type")).toBe("application/zip");
  });
});

describe("3. empty path segments, as Jenkins (Stapler) skips them", () => {
  it("answers <oc>//casc-bundle/list as <oc>/casc-bundle/list (jenkins-rest.sh with its .env.example)", async () => {
    // carlosrodlop/cbci.jenkins-lib remote/rest-api/jenkins-rest.sh: '$JENKINS_URL/$REQUEST_OPERATION' with
    // JENKINS_URL=https://ci.example.com/cjoc/ (remote/.env.example).
    const doubled = await call(emu, `${oc}/casc-bundle/list`);
    expect(doubled.status).toBe(200);
    expect(doubled.json).toEqual((await call(emu, `${oc}casc-bundle/list`)).json);
    // bundleutils: url + '/core-casc-export' with a URL that ends in "/".
    expect((await call(emu, `${teamA}/core-casc-export`)).status).toBe(200);
  });

  it("widens nothing else: unknown paths stay 404, and the instance's own prefix must match", async () => {
    expect((await call(emu, `${oc}/casc-bundle/nope`)).status).toBe(404);
    expect((await call(emu, `${emu.baseUrl}/cjoc/casc-bundle/list`)).status).toBe(404);
    expect((await call(emu, `${emu.featureManagementUrl}/public-api/applications`)).status).not.toBe(200);
  });
});

describe("4 and 5. controllers are items of the operations center", () => {
  // cb-ci/ci-casc-api-samples templates/create-mm.yaml: the controller names its bundle in a configurationAsCode
  // property; createManagedController.sh POSTs it to <oc>/casc-items/create-items as text/yaml. Our own fixture.
  const managedController = (name: string, bundle: string) =>
    [
      "removeStrategy:",
      "  rbac: SYNC",
      "  items: NONE",
      "items:",
      "  - kind: folder",
      "    name: teams",
      "    items:",
      "      - kind: managedController",
      `        name: ${name}`,
      "        configuration:",
      "          kubernetes:",
      "            memory: 4096",
      `            domain: ${name}`,
      `        displayName: ${name}`,
      "        properties:",
      "          - configurationAsCode:",
      `              bundle: ${bundle}`,
      "          - healthReporting:",
      "              enabled: true",
      "",
    ].join("\n");
  const createItems = (yaml: string) => post(emu, `${oc}casc-items/create-items`, { body: yaml, headers: { "content-type": "text/yaml" } });

  it("exports a controller's item definition as one mapping, with the bundle it is assigned", async () => {
    // casc-getCjocControllerItemsYaml.sh: POST <oc>/job/<controller>/export/download, form-encoded, no body.
    const r = await post(emu, `${oc}job/team-a/job/controller-a/export/download`, {
      headers: { accept: "text/html,application/xhtml+xml", "content-type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(200);
    expect(YAML.parse(r.text)).toEqual({ kind: "managedController", name: "controller-a", properties: [{ configurationAsCode: { bundle: "team-a" } }] });
  });

  it("registers a managed controller that create-items defines, inside a folder, assigned the bundle it names", async () => {
    expect((await createItems(managedController("controller-c", "base"))).status).toBe(200);
    expect(emu.state.controllers()).toContain("teams/controller-c");
    expect(emu.state.assignments()["teams/controller-c"]).toBe("base");
    const link = await call(emu, `${oc}config-bundle-download-link?id=${encodeURIComponent("teams/controller-c")}`);
    expect(link.status).toBe(200);
    expect(link.json.url).toMatch(/\/base$/);
    // A controller like any other: it has a URL and serves the instance endpoints.
    const url = emu.controllerUrls["teams/controller-c"]!;
    expect(url).toBe(`${emu.baseUrl}controllers/teams/controller-c/`);
    expect((await call(emu, `${url}casc-bundle-mgnt/check-bundle-update`)).status).toBe(200);
    const list = (await call(emu, `${oc}casc-bundle/list`)).json.bundles as { name: string; usedBy: string[] }[];
    expect(list.find((b) => b.name === "base")!.usedBy).toContain("teams/controller-c");
  });

  it("lists it in the Controllers view as the samples read it (.jobs[].name and .jobs[].url)", async () => {
    // getConnectedControllers.sh: GET <oc>/view/Controllers/api/json?depth=2&pretty=true; team controllers are
    // told apart by a url holding job/Teams/job/.
    const r = await call(emu, `${oc}view/Controllers/api/json?depth=2&pretty=true`);
    expect(r.status).toBe(200);
    const jobs = r.json.jobs as { name: string; url: string }[];
    expect(jobs).toContainEqual(expect.objectContaining({ name: "controller-c", url: `${oc}job/teams/job/controller-c/` }));
    expect(jobs.map((j) => j.name).sort()).toEqual(["controller-a", "controller-b", "controller-c", "sandbox"]);
  });

  it("follows an assignment in its export, and re-applying the export changes nothing", async () => {
    expect((await post(emu, `${oc}casc-bundle/set-availability-pattern?bundleId=team-b&regex=teams/.*`)).status).toBe(200);
    expect((await post(emu, `${oc}casc-bundle/set-controller-to-bundle?bundleId=team-b&controllerPath=teams/controller-c`)).status).toBe(200);
    const exported = YAML.parse((await post(emu, `${oc}job/teams/job/controller-c/export/download`)).text);
    expect(exported.properties).toContainEqual({ configurationAsCode: { bundle: "team-b" } });
    expect(exported.configuration).toEqual({ kubernetes: { memory: 4096, domain: "controller-c" } });
    // The sample wraps it: {removeStrategy: {rbac: SYNC, items: NONE}, items: [.]}, and posts it back in its folder.
    const wrapped = YAML.stringify({ removeStrategy: { rbac: "SYNC", items: "NONE" }, items: [exported] });
    expect((await post(emu, `${oc}casc-items/create-items?path=teams`, { body: wrapped, headers: { "content-type": "text/yaml" } })).status).toBe(200);
    expect(emu.state.assignments()["teams/controller-c"]).toBe("team-b");
    expect(YAML.parse((await post(emu, `${oc}job/teams/job/controller-c/export/download`)).text)).toEqual(exported);
  });

  it("stops and deletes it as deleteManagedController.sh does: then it is no controller anywhere", async () => {
    // POST $CJOC_URL/job/<name>/stopAction, then POST .../doDelete, body-less; Jenkins redirects after each.
    const stop = await post(emu, `${oc}job/teams/job/controller-c/stopAction`, { redirect: "manual" });
    expect(stop.status).toBe(302);
    const del = await post(emu, `${oc}job/teams/job/controller-c/doDelete`, { redirect: "manual" });
    expect(del.status).toBe(302);
    expect(del.headers.get("location")).toBe(`${oc}job/teams/`);
    expect(emu.state.controllers()).not.toContain("teams/controller-c");
    expect((await call(emu, `${oc}config-bundle-download-link?id=teams/controller-c`)).status).not.toBe(200);
    expect((await call(emu, `${emu.baseUrl}controllers/teams/controller-c/casc-bundle-mgnt/check-bundle-update`)).status).toBe(404);
    expect(((await call(emu, `${oc}view/Controllers/api/json`)).json.jobs as { name: string }[]).map((j) => j.name)).not.toContain("controller-c");
    // Deleting again: nothing there (the samples ignore the answer).
    expect((await post(emu, `${oc}job/teams/job/controller-c/doDelete`)).status).toBe(404);
  });
});
