/* istanbul ignore file */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import {
  Application,
  BundleAvailability,
  ControllerBundleAssignment,
  DefaultBundle,
  GlobalAvailabilityPattern,
} from "../../sdk";
import { providerShell } from "../../sdk/resources/provider-shell";
import { serializeProviderDetailed } from "../harness";
import { providerTextsOf } from "../harness/provider-texts";
import { providerText } from "../../sdk/resources/provider-text";
import { useRecordingMocks } from "../harness/recording-mocks";
import { resources, type ProviderKind } from "../../provider/resources";
import { KINDS, TYPES } from "./helpers";

// Credentials in this process's environment and config must never reach a provider text.
const TOKEN = "env-api-token-must-not-leak-3f9a";
process.env.CLOUDBEES_API_TOKEN = TOKEN;
process.env.CLOUDBEES_FEATURE_MANAGEMENT_TOKEN = TOKEN;

describe("provider shells", () => {
  it.each(KINDS)("%s serializes to a small text that requires the implementation by package name and holds nothing else", async (kind) => {
    const { text, containsSecrets } = await serializeProviderDetailed(providerShell(kind));
    expect(containsSecrets).toBe(false);
    expect(text.length).toBeLessThan(2500);
    expect(text).toContain('require("pulumi-cloudbees/provider")');
    expect(text).toContain(`kind: "${kind}"`);
    for (const forbidden of [TOKEN, "undici", "zod", "Agent", "authorization", "Basic ", "/work/", "dist/"]) {
      expect(text).not.toContain(forbidden);
    }
    // Every method the host calls is there; nothing else is.
    for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) expect(text).toContain(`${method}:`);
  });

  it("the texts resources store (written out in sdk/resources/provider-text.ts, sent by the other test files) are what the SDK's serializer makes of the shells", async () => {
    // Every kind, the action and feature-flag ones too.
    const kinds = Object.keys(resources) as ProviderKind[];
    const shared = await providerTextsOf(kinds);
    for (const kind of kinds) {
      const serialized = await serializeProviderDetailed(providerShell(kind));
      expect([kind, providerText(kind), serialized.containsSecrets]).toEqual([kind, serialized.text, false]);
      expect([kind, shared[kind]]).toEqual([kind, serialized.text]);
    }
  });

  // The text every resource's state holds as `__provider`: a change shows as a diff on every resource of every stack
  // after the package's upgrade, and fails `--expect-no-changes` (pulumi/pulumi#12401). Change the pinned text only
  // on purpose, and say so in the release notes (test/real-engine/upgrade.test.ts runs an upgrade with the real CLI).
  it.each(Object.keys(resources) as ProviderKind[])("%s serializes to the pinned text (test/fixtures/provider-shell-text.txt)", async (kind) => {
    const pinned = fs.readFileSync(path.join(__dirname, "..", "fixtures", "provider-shell-text.txt"), "utf8");
    const { text } = await serializeProviderDetailed(providerShell(kind));
    expect(text).toBe(pinned.replaceAll('kind: "<kind>"', `kind: ${JSON.stringify(kind)}`));
  });

  // This file's shells go through jest's transform (esbuild); the package ships tsc's output of the same file
  // (dist/, which `npm test` builds first). Both must give the pinned text.
  it.each(Object.keys(resources) as ProviderKind[])("%s as the package ships it (dist/, built by tsc) serializes to the pinned text too", async (kind) => {
    const pinned = fs.readFileSync(path.join(__dirname, "..", "fixtures", "provider-shell-text.txt"), "utf8");
    const shipped = require(path.join(__dirname, "..", "..", "dist", "sdk", "resources", "provider-shell.js")) as typeof import("../../sdk/resources/provider-shell");
    const { text } = await serializeProviderDetailed(shipped.providerShell(kind));
    expect(text).toBe(pinned.replaceAll('kind: "<kind>"', `kind: ${JSON.stringify(kind)}`));
  });

});

describe("SDK classes under mocks", () => {
  let seen: pulumi.runtime.MockResourceArgs[] = [];
  beforeAll(async () => {
    // What a create would have returned, as the provider's outputs.
    seen = await useRecordingMocks({
      [TYPES.application]: { applicationId: "5e95ad1fa6de037e1793732b", adopted: false },
      [TYPES.bundleAvailability]: { regex: "^(?:sandbox)$" },
    });
  });

  const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

  it("register the type tokens pulumi-nodejs:dynamic/cloudbees:<Name> with the shell's text as __provider, and outputs resolve", async () => {
    const app = new Application("app", { name: "web-shop" });
    const avail = new BundleAvailability("avail", { bundleId: "team-b", controllers: ["sandbox"] });
    const assign = new ControllerBundleAssignment("assign", { controllerPath: "sandbox", bundleId: "team-b" }, { dependsOn: [avail] });
    const dflt = new DefaultBundle("default", { bundleId: "team-b" });
    const global = new GlobalAvailabilityPattern("global", { visibility: false });

    expect(await value(app.applicationId)).toBe("5e95ad1fa6de037e1793732b");
    expect(await value(app.name)).toBe("web-shop");
    expect(await value(app.adopted)).toBe(false);
    expect(await value(avail.regex)).toBe("^(?:sandbox)$");
    expect(await value(assign.bundleId)).toBe("team-b");
    expect(await value(dflt.bundleId)).toBe("team-b");
    expect(await value(global.visibility)).toBe(false);

    const byType = Object.fromEntries(seen.map((a) => [a.type, a]));
    for (const kind of KINDS) {
      const args = byType[TYPES[kind]]!;
      expect(args).toBeDefined();
      const { text } = await serializeProviderDetailed(providerShell(kind));
      expect(args.inputs.__provider).toBe(text);
    }
    // Only the declared inputs travel; the output keys seeded as undefined are not inputs.
    expect(Object.keys(byType[TYPES.application]!.inputs).sort()).toEqual(["__provider", "name"]);
    expect(Object.keys(byType[TYPES.bundleAvailability]!.inputs).sort()).toEqual(["__provider", "bundleId", "controllers"]);
  });

  // Issue 63: the host receives inputs without their secret marks; the names (never the values) go along.
  it("name the inputs the program marked secret, a secret inside a list too, in __secretInputs", async () => {
    const before = seen.length;
    const avail = new BundleAvailability("secret-avail", { bundleId: pulumi.secret("team-b"), controllers: ["sandbox", pulumi.secret("hidden")] });
    const plain = new BundleAvailability("plain-avail", { bundleId: pulumi.output("team-b"), controllers: ["sandbox"] });
    await value(avail.urn);
    await value(plain.urn);
    const byName = Object.fromEntries(seen.slice(before).map((a) => [a.name, a.inputs]));
    expect(byName["secret-avail"]!.__secretInputs).toEqual(["bundleId", "controllers"]);
    expect(byName["plain-avail"]).not.toHaveProperty("__secretInputs");
  });
});
