import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import type { Props } from "../resources/shared/types";
import type { PluginProvider } from "./provider";
import type { Protocol } from "./protocol";
import { applySettings, settingsOfRequest } from "./settings";

/**
 * The ResourceProvider gRPC service, as the engine of every Pulumi version in the peer range calls it: each method
 * the plugin serves, and UNIMPLEMENTED for the others, which is how the engine expects a provider to say it has none
 * (pulumi/pulumi pkg/resource/plugin/provider_plugin.go):
 * - Handshake: the engine falls back to Configure, as with any provider older than the handshake.
 * - GetMapping, GetMappings: read as "no mapping" (`pulumi convert` from Terraform finds none here).
 * - Parameterize, Construct, Call, List (3.27x): the package has no parameters, components, methods or listing; the
 *   engine calls them only for a schema that declares them, which this one does not.
 * Methods a newer engine adds are UNIMPLEMENTED too, until the plugin learns them.
 */

type Callback = (error: unknown, response?: unknown) => void;
type Call<Req> = { request: Req };
type Handler = (call: Call<unknown> & { emit?: (event: string, error: unknown) => void }, callback?: Callback) => void;

export interface ServiceOptions {
  version: string;
  /** The package's schema (generated/schema.json). */
  schema: () => string;
  provider: PluginProvider;
  /** The engine asked the plugin to stop (Cancel): answered, then the server shuts down once in-flight calls end. */
  onCancel: () => void;
}

/** Why a method is not served, in the words the engine logs (it reads only the code). */
const UNSERVED: Record<string, string> = {
  handshake: "the plugin is configured with Configure",
  parameterize: "the cloudbees package takes no parameters",
  construct: "the cloudbees package has no component resources",
  call: "the cloudbees package has no resource methods",
  getMapping: "the cloudbees package maps no other provider's resources",
  getMappings: "the cloudbees package maps no other provider's resources",
  list: "the cloudbees package does not list resources",
};

export function providerService(p: Protocol, options: ServiceOptions): Record<string, Handler> {
  const { grpc, provpb, plugpb, structpb, emptypb, statuspb, anypb } = p;
  const toStruct = (value: Props) => structpb.Struct.fromJavaScript(value as Record<string, never>);
  const fromStruct = (s: { toJavaScript(): unknown } | undefined): Props => (s ? (s.toJavaScript() as Props) : {});

  /**
   * An error as the engine reads it: the message as the status's details; a create that made the object and then
   * failed (an error with `id`, see provider/resources/shared/errors.ts partiallyCreated) carries an
   * ErrorResourceInitFailed detail with the id and properties, so that the engine records the resource instead of
   * orphaning it (as `@pulumi/pulumi/provider`'s server packs it).
   */
  function serviceError(e: unknown): { code: number; details: string; message: string; metadata?: unknown } {
    const message = e instanceof Error ? e.message : String(e);
    const partial = e as { id?: unknown; properties?: Props; reasons?: string[] };
    if (!(e instanceof Error) || typeof partial.id !== "string" || !partial.id) return { code: grpc.status.UNKNOWN, details: message, message };
    const detail = new provpb.ErrorResourceInitFailed();
    detail.setId(partial.id);
    detail.setProperties(toStruct(partial.properties ?? {}));
    detail.setReasonsList(partial.reasons ?? []);
    const any = new anypb.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statuspb.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any as never);
    const metadata = new grpc.Metadata();
    // The gRPC way to send a structured status: the engine's Go client decodes it from this trailer.
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    return { code: grpc.status.UNKNOWN, details: message, message, metadata };
  }

  /** A unary method: its answer, or its error as above. Never throws into gRPC. */
  function unary<Req>(serve: (request: Req) => Promise<unknown> | unknown): Handler {
    return (call, callback) => {
      Promise.resolve()
        .then(() => serve(call.request as Req))
        .then(
          (response) => callback!(null, response),
          (e: unknown) => {
            const error = serviceError(e);
            callback!(error, null);
          },
        );
    };
  }

  const diffKinds: Record<string, number> = {
    add: 0,
    "add-replace": 1,
    delete: 2,
    "delete-replace": 3,
    update: 4,
    "update-replace": 5,
  };

  const served: Record<string, Handler> = {
    getPluginInfo: unary(() => new plugpb.PluginInfo().setVersion(options.version)),

    getSchema: unary((req: provpbTypes.GetSchemaRequest) => {
      if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
      return new provpb.GetSchemaResponse().setSchema(options.schema());
    }),

    // Nothing is checked here, as with the dynamic providers: a missing setting fails the first call that needs
    // it, so that a stack of Applications needs no operations center.
    checkConfig: unary((req: provpbTypes.CheckRequest) => new provpb.CheckResponse().setInputs(req.getNews())),

    // Other settings are another server for what follows, never a reason to replace the provider (and with it every
    // resource): a change is an update of the provider.
    diffConfig: unary((req: provpbTypes.DiffRequest) => {
      const same = JSON.stringify(fromStruct(req.getOlds())) === JSON.stringify(fromStruct(req.getNews()));
      return new provpb.DiffResponse().setChanges(same ? provpb.DiffResponse.DiffChanges.DIFF_NONE : provpb.DiffResponse.DiffChanges.DIFF_SOME);
    }),

    // The stack's cloudbees:* settings (or an explicit provider's inputs), where the resources and the functions
    // read them. Secrets are accepted: they arrive wrapped, and secrets.ts takes the wrappers off and puts them back.
    configure: unary((req: provpbTypes.ConfigureRequest) => {
      const args = req.getArgs()?.toJavaScript() as Props | undefined;
      const variables = new Map<string, string>(req.getVariablesMap().toArray() as [string, string][]);
      applySettings(settingsOfRequest(args, variables));
      return new provpb.ConfigureResponse().setAcceptsecrets(true).setAcceptresources(true).setSupportspreview(false);
    }),

    check: unary(async (req: provpbTypes.CheckRequest) => {
      const result = await options.provider.check(req.getUrn(), fromStruct(req.getOlds()), fromStruct(req.getNews()));
      const resp = new provpb.CheckResponse().setInputs(toStruct(result.inputs));
      resp.setFailuresList(result.failures.map((f) => new provpb.CheckFailure().setProperty(f.property).setReason(f.reason)));
      return resp;
    }),

    diff: unary(async (req: provpbTypes.DiffRequest) => {
      const result = await options.provider.diff(req.getId(), req.getUrn(), fromStruct(req.getOlds()), fromStruct(req.getNews()));
      const { DiffChanges } = provpb.DiffResponse;
      const resp = new provpb.DiffResponse()
        .setChanges(result.changes === true ? DiffChanges.DIFF_SOME : result.changes === false ? DiffChanges.DIFF_NONE : DiffChanges.DIFF_UNKNOWN)
        .setReplacesList(result.replaces ?? [])
        .setDeletebeforereplace(result.deleteBeforeReplace === true)
        .setStablesList(result.stables ?? []);
      const detailed = result.detailedDiff as Record<string, { kind: string; inputDiff?: boolean }> | undefined;
      if (detailed) {
        resp.setHasdetaileddiff(true);
        const map = resp.getDetaileddiffMap();
        for (const [key, d] of Object.entries(detailed)) {
          map.set(key, new provpb.PropertyDiff().setKind((diffKinds[d.kind] ?? 4) as never).setInputdiff(d.inputDiff === true));
        }
      }
      return resp;
    }),

    create: unary(async (req: provpbTypes.CreateRequest) => {
      const result = await options.provider.create(req.getUrn(), fromStruct(req.getProperties()));
      return new provpb.CreateResponse().setId(result.id).setProperties(toStruct(result.outs));
    }),

    // By id alone (`pulumi import`, `Resource.get`) the engine sends no properties: an empty set is what the
    // provider reads from. Gone: an answer with no id and no properties, which the engine reads as "does not
    // exist" (an import) or drops from the state (a refresh); an empty set of properties would be an object.
    read: unary(async (req: provpbTypes.ReadRequest) => {
      const result = await options.provider.read(req.getId(), req.getUrn(), fromStruct(req.getProperties()), fromStruct(req.getInputs()));
      const resp = new provpb.ReadResponse();
      if (result.props === undefined) return resp;
      resp.setId(result.id ?? req.getId()).setProperties(toStruct(result.props));
      if (result.inputs !== undefined) resp.setInputs(toStruct(result.inputs));
      return resp;
    }),

    update: unary(async (req: provpbTypes.UpdateRequest) => {
      const result = await options.provider.update(req.getId(), req.getUrn(), fromStruct(req.getOlds()), fromStruct(req.getNews()));
      return new provpb.UpdateResponse().setProperties(toStruct(result.outs));
    }),

    delete: unary(async (req: provpbTypes.DeleteRequest) => {
      await options.provider.delete(req.getId(), req.getUrn(), fromStruct(req.getProperties()));
      return new emptypb.Empty();
    }),

    invoke: unary(async (req: provpbTypes.InvokeRequest) => {
      const result = await options.provider.invoke(req.getTok(), fromStruct(req.getArgs()));
      return new provpb.InvokeResponse().setReturn(toStruct(result.outputs));
    }),

    // The engine sends Cancel before it closes the plugin (and on Ctrl-C): acknowledged, then a graceful stop.
    cancel: (_call, callback) => {
      callback!(null, new emptypb.Empty());
      options.onCancel();
    },

    // Debugging (PULUMI_DEBUG_PROVIDERS): the engine attaches to a plugin it did not start. Nothing to keep: the
    // plugin never calls the engine.
    attach: unary(() => new emptypb.Empty()),
  };

  const service: Record<string, Handler> = {};
  for (const [name, method] of Object.entries(p.provgrpc.ResourceProviderService as unknown as Record<string, { responseStream: boolean }>)) {
    const why = UNSERVED[name] ?? "this method is not served by pulumi-resource-cloudbees";
    const unimplemented = { code: grpc.status.UNIMPLEMENTED, details: `${name}: ${why}` };
    service[name] =
      served[name] ??
      (method.responseStream ? (call) => call.emit!("error", unimplemented) : (_call, callback) => callback!(unimplemented, null));
  }
  return service;
}
