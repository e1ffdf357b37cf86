/**
 * Every method of the ResourceProvider service once, as the engine calls it, on a started plugin: the same checks on
 * each @pulumi/pulumi the plugin may run on (protocol.test.ts on the lockfile's, sdk-versions.test.ts on the peer
 * range's floor and the newest). Against the emulator, over real HTTP.
 */
import type { Emulator } from "../../emulator";
import { emulatorConnection } from "../../testing/emulator-config";
import { isSecret, secret } from "../../testing/engine/values";
import { emptypb, grpc, plugpb, PluginProcess, provpb, structpb, urnOf } from "./plugin-process";

/** The default provider's inputs: the stack's cloudbees:* config without the namespace, tokens secret. */
export function providerInputs(e: Emulator): Record<string, unknown> {
  const c = emulatorConnection(e);
  return { ...c, apiToken: secret(c.apiToken), featureManagementToken: secret(c.featureManagementToken) };
}

/** The methods the plugin does not serve, and a request of each: the engine reads UNIMPLEMENTED as "none here". */
export const UNSERVED_REQUESTS: Array<[string, () => unknown]> = [
  ["handshake", () => new provpb.ProviderHandshakeRequest()],
  ["parameterize", () => new provpb.ParameterizeRequest()],
  ["construct", () => new provpb.ConstructRequest()],
  ["call", () => new provpb.CallRequest()],
  ["getMapping", () => new provpb.GetMappingRequest()],
  ["getMappings", () => new provpb.GetMappingsRequest()],
];

export async function configAndInfoMethods(plugin: PluginProcess, emu: Emulator, version: string, schema: string): Promise<void> {
  expect(await plugin.pluginInfo()).toBe(version);
  expect(await plugin.schema()).toBe(schema);
  const check = new provpb.CheckRequest();
  check.setUrn("urn:pulumi:stack::project::pulumi:providers:cloudbees::default");
  check.setNews(structpb.Struct.fromJavaScript({ url: "https://cjoc.example" }));
  const checked = await plugin.status("checkConfig", check);
  expect({ code: checked.code, inputs: (checked.response as { getInputs(): { toJavaScript(): unknown } }).getInputs().toJavaScript() }).toEqual({ code: 0, inputs: { url: "https://cjoc.example" } });
  const diff = new provpb.DiffRequest();
  diff.setOlds(structpb.Struct.fromJavaScript({ url: "a" }));
  diff.setNews(structpb.Struct.fromJavaScript({ url: "b" }));
  const diffed = await plugin.status("diffConfig", diff);
  expect((diffed.response as { getChanges(): number }).getChanges()).toBe(provpb.DiffResponse.DiffChanges.DIFF_SOME);
  expect(await plugin.configure(providerInputs(emu))).toEqual({ acceptSecrets: true });
  const attach = new plugpb.PluginAttach();
  attach.setAddress("127.0.0.1:1");
  expect((await plugin.status("attach", attach)).code).toBe(0);
  for (const [method, request] of UNSERVED_REQUESTS) {
    const answer = await plugin.status(method, request());
    expect({ method, code: answer.code }).toEqual({ method, code: grpc.status.UNIMPLEMENTED });
  }
}

/** A resource's whole life, a read by id alone, a gone object, an invoke: one of each call. */
export async function resourceMethods(plugin: PluginProcess): Promise<void> {
  const urn = urnOf("Application", "every-method");
  const bad = await plugin.check(urn, {}, { name: 5 });
  expect(bad.failures.map((f) => f.property)).toEqual(["name"]);
  const checked = await plugin.check(urn, {}, { name: secret("every-method-app") });
  expect(isSecret(checked.inputs.name)).toBe(true);
  const created = await plugin.create(urn, checked.inputs);
  expect(created.properties.name).toEqual(secret("every-method-app"));
  expect(await plugin.read(urn, created.id, created.properties)).toMatchObject({ id: created.id, properties: created.properties });
  expect(await plugin.read(urnOf("Application", "imported"), created.id)).toMatchObject({ id: created.id, inputs: { name: "every-method-app" } });
  expect(await plugin.read(urnOf("Flag", "missing"), `${created.id}/nothing`)).toEqual({ id: "", properties: undefined, inputs: undefined });
  // A new name replaces an application (the service renames none); an availability's controllers are updated.
  expect(await plugin.diff(urn, created.id, created.properties, { name: "renamed" })).toMatchObject({ changes: true, replaces: ["name"] });
  expect(await plugin.invoke("cloudbees:index:getApplication", { applicationId: created.id })).toEqual({ id: created.id, name: "every-method-app" });
  await plugin.delete(urn, created.id, created.properties);
  // The API deletes no application: delete warns, on stderr, where the engine reads a plugin's warnings.
  expect(await plugin.stderrLine(/^warning: Application "every-method-app" \(\w+\) stays in the feature-flag account/m)).toBeTruthy();
  const availability = urnOf("BundleAvailability", "every-method");
  const made = await plugin.create(availability, { bundleId: "base", controllers: ["sandbox"] });
  expect(await plugin.update(availability, made.id, made.properties, { bundleId: "base", regex: "sandbox|team-a/.*" })).toEqual({ bundleId: "base", regex: "sandbox|team-a/.*" });
  await plugin.delete(availability, made.id, { bundleId: "base", regex: "sandbox|team-a/.*" });
}

/** Cancel is acknowledged, and the plugin then stops by itself, cleanly. */
export async function cancelStops(plugin: PluginProcess): Promise<void> {
  expect((await plugin.status("cancel", new emptypb.Empty())).code).toBe(0);
  expect(await plugin.exited()).toBe(0);
}
