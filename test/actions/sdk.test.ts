/* istanbul ignore file */
import * as pulumi from "@pulumi/pulumi";
import { BundleCheckout, BundleReload, BundleValidation, ControllerBundleToken, Items } from "../../sdk";
import { providerShell } from "../../sdk/resources/provider-shell";
import { serializeProviderDetailed } from "../harness";
import { useRecordingMocks } from "../harness/recording-mocks";
import { ACTION_KINDS, ACTION_TYPES } from "./helpers";

// Credentials in this process's environment must never reach a provider text.
const TOKEN = "env-api-token-must-not-leak-7c1d";
process.env.CLOUDBEES_API_TOKEN = TOKEN;

describe("action provider shells", () => {
  it.each(ACTION_KINDS)("%s serializes to a small text that requires the implementation by package name and holds nothing else", async (kind) => {
    const { text, containsSecrets } = await serializeProviderDetailed(providerShell(kind));
    expect(containsSecrets).toBe(false);
    expect(text.length).toBeLessThan(2500);
    expect(text).toContain('require("pulumi-cloudbees/provider")');
    expect(text).toContain(`kind: "${kind}"`);
    for (const forbidden of [TOKEN, "undici", "zod", "Agent", "authorization", "Basic ", "/work/", "dist/", "yaml"]) {
      expect(text).not.toContain(forbidden);
    }
    for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) expect(text).toContain(`${method}:`);
  });

  it("every action kind is registered where the shells look for it", () => {
    const { resources } = require("../../provider") as typeof import("../../provider");
    for (const kind of ACTION_KINDS) {
      for (const method of ["check", "diff", "create", "read", "update", "delete"] as const) expect(typeof resources[kind][method]).toBe("function");
    }
  });
});

describe("action SDK classes under mocks", () => {
  let seen: pulumi.runtime.MockResourceArgs[] = [];
  beforeAll(async () => {
    // What a create would have returned, as the provider's outputs.
    seen = await useRecordingMocks({
      [ACTION_TYPES.bundleCheckout]: { remotes: [{ name: "local-folder", bundles: [] }], bundles: ["base"] },
      [ACTION_TYPES.controllerBundleToken]: { url: "https://oc/config-bundle/base", token: "t", linkFileContent: "https://oc/config-bundle/base\nt" },
      [ACTION_TYPES.bundleReload]: { updateAvailable: true, reloaded: true, reason: "", version: "v2" },
      [ACTION_TYPES.items]: { basePath: "apps" },
      [ACTION_TYPES.bundleValidation]: { contentHash: "abc", messages: [], lintMessages: [] },
    });
  });

  const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

  it("register pulumi-nodejs:dynamic/cloudbees:<Name> with the shell's text as __provider; only given inputs travel; outputs resolve", async () => {
    const validation = new BundleValidation("validate", { bundlePath: "bundles/base" });
    const checkout = new BundleCheckout("checkout", { triggers: [validation.contentHash] }, { dependsOn: [validation] });
    const token = new ControllerBundleToken("token", { controllerPath: "sandbox" });
    const reload = new BundleReload("reload", { allowRestartRequired: true });
    const items = new Items("items", { yaml: "items: []\n", path: "apps" });

    expect(await value(checkout.bundles)).toEqual(["base"]);
    expect(await value(token.url)).toBe("https://oc/config-bundle/base");
    expect(await value(reload.reloaded)).toBe(true);
    expect(await value(reload.version)).toBe("v2");
    expect(await value(items.basePath)).toBe("apps");
    expect(await value(validation.contentHash)).toBe("abc");

    const byType = Object.fromEntries(seen.map((a) => [a.type, a]));
    for (const kind of ACTION_KINDS) {
      const args = byType[ACTION_TYPES[kind]]!;
      expect(args).toBeDefined();
      expect(args.inputs.__provider).toBe((await serializeProviderDetailed(providerShell(kind))).text);
    }
    expect(Object.keys(byType[ACTION_TYPES.bundleValidation]!.inputs).sort()).toEqual(["__provider", "bundlePath"]);
    expect(Object.keys(byType[ACTION_TYPES.bundleCheckout]!.inputs).sort()).toEqual(["__provider", "triggers"]);
    expect(byType[ACTION_TYPES.bundleCheckout]!.inputs.triggers).toEqual(["abc"]);
    expect(Object.keys(byType[ACTION_TYPES.bundleReload]!.inputs).sort()).toEqual(["__provider", "allowRestartRequired"]);
  });
});
