import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provgrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import { readStackConfig, type RawConfig } from "../config";
import { providerState } from "../config/state";
import { unwrapSecrets } from "./secrets";

/**
 * What `@pulumi/pulumi/provider`'s `main` (3.248) leaves out of the provider protocol, added to the service it
 * registers:
 * - Configure, which main answers without reading the request (CheckConfig and DiffConfig are unimplemented). Its
 *   `Provider` interface has no configure: Pulumi's own TypeScript packages served this way (awsx, eks) manage
 *   components, which read the program's config in Construct. This provider needs the stack's `cloudbees:*`
 *   settings: they go where the dynamic providers' configure puts them (providerState().stackConfig, read by the same
 *   config code), and into the runtime's config, where the program functions read them when they serve invokes.
 * - Read by id alone (`pulumi import`, `Resource.get`), where the engine sends no properties and main fails on them.
 */

const pulumiRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
// The gRPC and protobuf copies @pulumi/pulumi uses: a message of another copy would not be accepted by its server.
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiRoot] })) as typeof grpcTypes;
const provgrpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof provgrpcTypes;
const provpb = require("@pulumi/pulumi/proto/provider_pb") as typeof provpbTypes;
const structpb = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiRoot] })) as typeof import("google-protobuf/google/protobuf/struct_pb");

type Callback = (error: unknown, response?: unknown) => void;
type Call<Req> = { request: Req };

/**
 * The settings of a ConfigureRequest: its `args` (the provider's inputs: a default provider's are the stack's
 * `cloudbees:*` config, an explicit `cloudbees.Provider`'s its inputs), keyed by setting name, secrets unwrapped.
 * Older engines send only `variables` (`cloudbees:config:<name>` or `cloudbees:<name>`, JSON text for objects).
 */
export function settingsOfRequest(args: Record<string, unknown> | undefined, variables: Map<string, string>): RawConfig {
  const byName = new Map<string, unknown>();
  for (const [key, value] of variables) byName.set(key.slice(key.lastIndexOf(":") + 1), value);
  for (const [key, value] of Object.entries(unwrapSecrets(args).plain)) byName.set(key.slice(key.lastIndexOf(":") + 1), value);
  return readStackConfig({ get: (key) => byName.get(key.slice(key.indexOf(":") + 1)) });
}

/** The settings, where the providers and the functions read them. */
export function applySettings(config: RawConfig): void {
  providerState().stackConfig = config;
  const runtimeConfig: Record<string, string> = {};
  for (const [name, value] of Object.entries(config)) {
    if (value !== undefined && value !== null) runtimeConfig[`cloudbees:${name}`] = typeof value === "string" ? value : JSON.stringify(value);
  }
  const runtime = require("@pulumi/pulumi/runtime/config") as typeof import("@pulumi/pulumi/runtime/config");
  runtime.setAllConfig(runtimeConfig, Object.keys(runtimeConfig));
}

const configMethods = {
  configure(call: Call<provpbTypes.ConfigureRequest>, callback: Callback): void {
    try {
      const req = call.request;
      const args = req.getArgs()?.toJavaScript() as Record<string, unknown> | undefined;
      const variables = new Map<string, string>(req.getVariablesMap().toArray() as [string, string][]);
      applySettings(settingsOfRequest(args, variables));
      const resp = new provpb.ConfigureResponse();
      resp.setAcceptsecrets(true);
      resp.setAcceptresources(true);
      resp.setSupportspreview(false);
      callback(undefined, resp);
    } catch (e) {
      callback(e);
    }
  },
  // Nothing is checked here, as with the dynamic providers: a missing setting fails the first call that needs it,
  // so that a stack of Applications needs no operations center.
  checkConfig(call: Call<provpbTypes.CheckRequest>, callback: Callback): void {
    const resp = new provpb.CheckResponse();
    resp.setInputs(call.request.getNews());
    callback(undefined, resp);
  },
  // Other settings are another server for what follows, never a reason to replace the provider (and with it every
  // resource): a change is an update of the provider.
  diffConfig(call: Call<provpbTypes.DiffRequest>, callback: Callback): void {
    const req = call.request;
    const same = JSON.stringify(req.getOlds()?.toJavaScript() ?? {}) === JSON.stringify(req.getNews()?.toJavaScript() ?? {});
    const resp = new provpb.DiffResponse();
    resp.setChanges(same ? provpb.DiffResponse.DiffChanges.DIFF_NONE : provpb.DiffResponse.DiffChanges.DIFF_SOME);
    callback(undefined, resp);
  },
};

/**
 * Read by id alone (`pulumi import`, `Resource.get`): the engine sends no properties, and main's read takes them
 * as given (3.248: `getProperties().toJavaScript()` of nothing fails). An empty set is what the provider reads from.
 */
function readWithProperties(mainRead: (call: Call<provpbTypes.ReadRequest>, callback: Callback) => unknown) {
  return function read(this: unknown, call: Call<provpbTypes.ReadRequest>, callback: Callback) {
    if (!call.request.getProperties()) call.request.setProperties(new structpb.Struct());
    return mainRead.call(this, call, callback);
  };
}

/**
 * Makes the next ResourceProvider service added to a gRPC server (the one `main` starts) answer Configure,
 * CheckConfig and DiffConfig as above, and Read by id alone; its other methods are main's own.
 */
export function completeNextProviderService(): void {
  const server = grpc.Server.prototype as unknown as { addService(service: unknown, implementation: object): void };
  const original = server.addService;
  server.addService = function addService(this: unknown, service: unknown, implementation: object) {
    if (service === provgrpc.ResourceProviderService) {
      server.addService = original;
      const mainRead = (implementation as { read: (call: Call<provpbTypes.ReadRequest>, callback: Callback) => unknown }).read;
      implementation = Object.assign(Object.create(implementation) as object, configMethods, { read: readWithProperties(mainRead) });
    }
    return original.call(this, service, implementation);
  };
}
