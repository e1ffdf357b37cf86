/* istanbul ignore file */
/**
 * Every shape a real CasC export gives a section that holds nothing is read as "present, possibly empty" (issue 52):
 * a controller started with such an export (the emulator's runningConfigurations), watched through the real provider
 * host against the bundle made from it, shows no drift; and the bundle toolkit (lintBundle) and the emulated
 * operations center (validate-uploaded-bundle, over HTTP) give that bundle the verdict the public sources support:
 *
 * - items.yaml with only removeStrategy (a controller without items, measured in issue 52): valid, one WARNING,
 *   pankajy-dev/cloudbees-casc-client-workshop src/main/resources/com/cloudbees/jenkins/plugins/casc/validation/
 *   validation-details.json (ItemsValidator: "Empty (no items) yaml file, generating a warning");
 * - rbac.yaml with only removeStrategy: valid, one WARNING, the same file (RbacValidator: "RBAC file is present but
 *   doesn't define any configuration, generating a warning");
 * - empty files (0 bytes, or only a comment: what BundleExporter.java's exporters write when there is nothing, zipped
 *   by BundleExport.java's doZipExport): refused, the workshop's
 *   src/main/java/com/cloudbees/jenkins/plugins/casc/validation/AbstractValidator.java (checkFiles: "is empty or has
 *   an invalid yaml format");
 * - plugins.yaml with no list: no source shows the verdict; the emulator's reading pluginsWithoutList, at its default
 *   here (refused); test/emulator/export-shapes.test.ts runs both values.
 *
 * Beside each, the bundle bundleutils makes of the same export (tsmp-falcon-platform/ci-bundle-utils
 * bundleutilspkg/src/bundleutilspkg/bundleutils.py: fetch_yaml_docs and _update_bundle drop such files): valid, and no
 * drift either.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { lintBundle, validationCodeOf } from "../../provider/bundle";
import { dynamicType } from "../harness";
import { providerTextsOf } from "../harness/provider-texts";
import { startWorld, type World } from "../resources/helpers";
import { SHAPE_NAMES, writeBundleutilsBundle, writeExport, type ShapeName } from "../configuration/export-shapes";

const controllerOf = (shape: ShapeName) => `shapes/${shape}`;

/** What lint and the operations center say of the bundle made as is from each export (quiet: no INFO). */
const VERDICTS: Record<ShapeName, { valid: boolean; messages: string[] }> = {
  "no-items": { valid: true, messages: ["WARNING - [ITEMS] - The file 'items.yaml' defines no items."] },
  "empty-files": {
    valid: false,
    messages: [
      "ERROR - [PLUGINVAL] - The bundle.yaml file references plugins.yaml in the plugins section that is empty or has an invalid yaml format. Impossible to validate plugins.",
      "ERROR - [CATALOGVAL] - The bundle.yaml file references plugin-catalog.yaml in the plugin catalog section that is empty or has an invalid yaml format. Impossible to validate plugin catalog.",
      "ERROR - [RBAC] - The bundle.yaml file references rbac.yaml in the RBAC section that is empty or has an invalid yaml format. Impossible to validate RBAC.",
      "ERROR - [ITEMS] - The bundle.yaml file references items.yaml in the items section that is empty or has an invalid yaml format. Impossible to validate items.",
    ],
  },
  "plugins-without-list": {
    valid: false,
    messages: [
      "ERROR - [SCHEMA] - The file 'plugins.yaml' must hold a 'plugins' list of entries with an 'id'.",
      "WARNING - [ITEMS] - The file 'items.yaml' defines no items.",
    ],
  },
  "rbac-strategy-only": { valid: true, messages: ["WARNING - [RBAC] - The file 'rbac.yaml' defines no roles and no groups."] },
};

const root = fs.mkdtempSync(path.join(os.tmpdir(), "export-shapes-"));
/** The program's bundle tree, and the operations center's bundle location. */
const tree = path.join(root, "bundles");
let w: World;
let text: string;

beforeAll(async () => {
  const runningConfigurations: Record<string, string> = {};
  for (const shape of SHAPE_NAMES) {
    const exported = writeExport(path.join(root, "exports", shape), shape, shape);
    runningConfigurations[controllerOf(shape)] = exported;
    fs.cpSync(exported, path.join(tree, shape), { recursive: true });
    writeBundleutilsBundle(path.join(tree, `${shape}-bundleutils`), exported);
  }
  w = await startWorld({ emulator: { bundlesDir: tree, controllers: SHAPE_NAMES.map(controllerOf), runningConfigurations } });
  text = (await providerTextsOf(["controllerConfiguration"])).controllerConfiguration;
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function driftOf(shape: ShapeName, bundleId: string): Promise<{ drift: string[]; configuration: Record<string, string>; pendingUpdate: string }> {
  const controllerPath = controllerOf(shape);
  const inputs = { controllerPath, instanceUrl: w.emu.controllerUrls[controllerPath]!, bundleTreePath: tree, bundleId, __provider: text };
  const urn = `urn:pulumi:s::p::${dynamicType("cloudbees", "ControllerConfiguration")}::${shape}`;
  const read = await w.host.read(`controller-configuration/${controllerPath}`, urn, inputs, inputs);
  return read.props as { drift: string[]; configuration: Record<string, string>; pendingUpdate: string };
}

describe.each(SHAPE_NAMES.map((s) => [s] as const))("an export with %s", (shape) => {
  it.each([shape, `${shape}-bundleutils`])("against the bundle %s made from it: no drift", async (bundleId) => {
    const outs = await driftOf(shape, bundleId);
    expect(outs.drift).toEqual([]);
    expect(outs.pendingUpdate).toBe("none");
    // The comparison ran: the real export's credentials are compared path by path.
    expect(Object.keys(outs.configuration).filter((k) => k.startsWith("jenkins.yaml: credentials.")).length).toBeGreaterThan(10);
  });

  it("the bundle made as is: lint and the operations center give the sources' verdict", async () => {
    const lint = lintBundle(path.join(tree, shape), { siblingsRoot: tree });
    expect({ valid: lint.valid, messages: lint.format({ quiet: true }) }).toEqual(VERDICTS[shape]);
    const server = await w.oc.validateUploadedBundle(shape, { quiet: true });
    expect(server.valid).toBe(VERDICTS[shape].valid);
    expect(server.structureValidations).toEqual(
      lint.messages.filter((m) => m.level !== "INFO").map((m) => ({ level: m.level, validationCode: validationCodeOf(m.code), message: `[${m.code}] - ${m.message}` })),
    );
  });

  it("the bundle bundleutils makes of it is valid, with nothing to say", async () => {
    const lint = lintBundle(path.join(tree, `${shape}-bundleutils`), { siblingsRoot: tree });
    expect({ valid: lint.valid, messages: lint.format({ quiet: true }) }).toEqual({ valid: true, messages: [] });
    expect((await w.oc.validateUploadedBundle(`${shape}-bundleutils`, { quiet: true })).valid).toBe(true);
  });
});

describe("the empty sections are present: what the controller gains beyond them is drift", () => {
  it("a plugin installed by hand beside the comment-only plugins.yaml, a role beside the rbac.yaml with only SYNC", async () => {
    w.emu.installPlugin(controllerOf("empty-files"), "ssh-agent");
    w.emu.changeConfiguration(controllerOf("rbac-strategy-only"), "rbac.yaml", "roles[0]", { name: "by-hand", permissions: ["hudson.model.Hudson.Read"] });
    // A new provider process: a deployment reads each controller's export once.
    await w.nextDeployment();
    expect((await driftOf("empty-files", "empty-files")).drift).toEqual(["plugins.yaml: +ssh-agent"]);
    // The bundleutils bundle has no plugins section: plugins are the controller's own there.
    expect((await driftOf("empty-files", "empty-files-bundleutils")).drift).toEqual([]);
    expect((await driftOf("rbac-strategy-only", "rbac-strategy-only")).drift).toEqual(['rbac.yaml: role "by-hand" added']);
  });
});
