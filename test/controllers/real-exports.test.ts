/* istanbul ignore file */
/**
 * A controller started with a real export, watched against the bundle made from it, shows no drift (issue 44): the
 * pair is bundleutils' own test data (tsmp-falcon-platform/ci-bundle-utils@abb223a,
 * bundleutilspkg/tests/resources/credentials/fetched-bundle: a real export with encrypted credentials, and
 * audit-no-hash-expected: the bundle bundleutils makes of it, secrets as variables; see
 * test/fixtures/real-exports/SOURCE.md). The controller runs the export as fetched (the emulator's
 * runningConfigurations), the bundle is in the program's bundle tree; the provider's read, through the real provider
 * host, finds only the bundle version it has not applied, and no secret reaches what it returns.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { dynamicType } from "../harness";
import { providerTextsOf } from "../harness/provider-texts";
import { startWorld, type World } from "../resources/helpers";

const PAIR = path.resolve(__dirname, "..", "fixtures", "real-exports", "bundleutils", "credentials");
const CONTROLLER = "sandbox";

let w: World;
let tree: string;

beforeAll(async () => {
  tree = fs.mkdtempSync(path.join(os.tmpdir(), "real-pair-"));
  fs.cpSync(path.join(PAIR, "audit-no-hash-expected"), path.join(tree, "controller1"), { recursive: true });
  w = await startWorld({ emulator: { bundlesDir: tree, runningConfigurations: { [CONTROLLER]: path.join(PAIR, "fetched-bundle") } } });
  await w.oc.setAvailabilityPattern("controller1", CONTROLLER);
  await w.oc.setControllerToBundle("controller1", CONTROLLER);
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(tree, { recursive: true, force: true });
});

it("the real export against the bundle made from it: no path drifts, only the version not applied yet; no secret", async () => {
  const text = (await providerTextsOf(["controllerConfiguration"])).controllerConfiguration;
  const inputs = { controllerPath: CONTROLLER, instanceUrl: w.emu.controllerUrls[CONTROLLER]!, bundleTreePath: tree, bundleId: "controller1", __provider: text };
  const id = `controller-configuration/${CONTROLLER}`;
  const read = await w.host.read(id, `urn:pulumi:s::p::${dynamicType("cloudbees", "ControllerConfiguration")}::c`, inputs, inputs);
  const outs = read.props as { drift: string[]; configuration: Record<string, string>; pendingUpdate: string };
  expect(outs.drift).toEqual([`bundle version: ${outs.pendingUpdate}`]);
  expect(outs.pendingUpdate).toMatch(/^N\/A -> \S+ \(RELOAD\)$/);
  // The credentials are compared (ids, descriptions, the secrets' presence): many paths, none drifted.
  expect(Object.keys(outs.configuration).filter((k) => k.startsWith("jenkins.yaml: credentials.")).length).toBeGreaterThan(10);
  const returned = JSON.stringify(read);
  expect(returned).not.toMatch(/AQAAAB|blablabla/);
});
