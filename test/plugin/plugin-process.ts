/**
 * The plugin `pulumi-resource-cloudbees` (the built dist/provider/plugin/main.js) in a process of its own, driven over
 * gRPC as the engine drives it: Configure, then each resource method and invokes, values as the engine marshals
 * them (secrets wrapped, the plugin having said it accepts them). No CLI: the protocol only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import type * as plugpbTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as provgrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import { pulumiRoot } from "../../testing/processes/provider-host";

const fromPulumi = <T>(id: string) => require(require.resolve(id, { paths: [pulumiRoot] })) as T;
const grpc = fromPulumi<typeof grpcTypes>("@grpc/grpc-js");
const structpb = fromPulumi<typeof structTypes>("google-protobuf/google/protobuf/struct_pb");
const emptypb = fromPulumi<{ Empty: new () => unknown }>("google-protobuf/google/protobuf/empty_pb");
const provpb = require(path.join(pulumiRoot, "proto", "provider_pb")) as typeof provpbTypes;
const plugpb = require(path.join(pulumiRoot, "proto", "plugin_pb")) as typeof plugpbTypes;
const statuspb = require(path.join(pulumiRoot, "proto", "status_pb")) as typeof import("@pulumi/pulumi/proto/status_pb");
const provgrpc = require(path.join(pulumiRoot, "proto", "provider_grpc_pb")) as typeof provgrpcTypes;

export { provpb, plugpb, statuspb, emptypb, structpb, grpc, toStruct };

export const PLUGIN_MAIN = path.join(__dirname, "..", "..", "dist", "provider", "plugin", "main.js");

type Json = Record<string, unknown>;
const toStruct = (v: Json) => structpb.Struct.fromJavaScript(v as Record<string, structTypes.JavaScriptValue>);
const fromStruct = (s: structTypes.Struct | undefined) => (s ? (s.toJavaScript() as Json) : undefined);

export const urnOf = (type: string, name = "res") => `urn:pulumi:stack::project::cloudbees:index:${type}::${name}`;

export class PluginProcess {
  /** Everything the plugin wrote to stderr (its warnings, the stacks main prints). */
  stderr = "";

  private constructor(
    private readonly child: ChildProcess,
    private readonly client: provgrpcTypes.ResourceProviderClient,
  ) {
    child.stderr!.on("data", (d: Buffer) => (this.stderr += d.toString()));
  }

  /** `main`: the plugin's main.js (another copy, on another @pulumi/pulumi: sdk-layout.ts); `args` as the engine passes them. */
  static async start(env: NodeJS.ProcessEnv = {}, main = PLUGIN_MAIN, args = ["127.0.0.1:1"]): Promise<PluginProcess> {
    // The engine's address comes first; CRUD calls never dial it.
    const child = spawn(process.execPath, [main, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      let err = "";
      child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const line = out.split("\n")[0]!;
        if (out.includes("\n")) (/^\d+$/.test(line.trim()) ? resolve(Number(line)) : reject(new Error(`unexpected first line ${line}`)));
      });
      child.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before listening:\n${err}`)));
    });
    const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { "grpc.use_local_subchannel_pool": 1 });
    return new PluginProcess(child, client);
  }

  private call<Req, Res>(method: string, request: Req): Promise<Res> {
    return new Promise((resolve, reject) => {
      const fn = (this.client as unknown as Record<string, Function>)[method]!;
      fn.call(this.client, request, (err: grpcTypes.ServiceError | null, res: Res) => (err ? reject(new Error(`${method}: ${err.details || err.message}`)) : resolve(res)));
    });
  }

  /** A method by name with a request of the lockfile's stubs (the wire is the same), and the gRPC status code it ends with. */
  async status(method: string, request: unknown, withDetails = false): Promise<{ code: number; details: string; response?: unknown; statusDetails?: Uint8Array }> {
    return new Promise((resolve) => {
      const fn = (this.client as unknown as Record<string, Function>)[method]!;
      fn.call(this.client, request, (err: grpcTypes.ServiceError | null, res: unknown) => {
        if (!err) return resolve({ code: 0, details: "", response: res });
        const bin = withDetails ? err.metadata?.get("grpc-status-details-bin")[0] : undefined;
        resolve({ code: err.code, details: err.details, ...(bin ? { statusDetails: new Uint8Array(bin as Buffer) } : {}) });
      });
    });
  }

  /** The first line of stderr that matches, once it arrived (a warning is written before its call's answer). */
  async stderrLine(pattern: RegExp, timeoutMs = 5000): Promise<string | undefined> {
    for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
      const line = this.stderr.split("\n").find((l) => pattern.test(l));
      if (line) return line;
    }
    return undefined;
  }

  /** Whether the process has exited (a Cancel stops it). */
  exited(): Promise<number | null> {
    return this.child.exitCode !== null ? Promise.resolve(this.child.exitCode) : new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  async pluginInfo(): Promise<string> {
    return (await this.call<unknown, plugpbTypes.PluginInfo>("getPluginInfo", new emptypb.Empty())).getVersion();
  }

  async schema(): Promise<string> {
    return (await this.call<provpbTypes.GetSchemaRequest, provpbTypes.GetSchemaResponse>("getSchema", new provpb.GetSchemaRequest())).getSchema();
  }

  /** Configure with the provider's inputs (`args`), as the engine sends a default provider's `cloudbees:*` config. */
  async configure(args: Json): Promise<{ acceptSecrets: boolean }> {
    const req = new provpb.ConfigureRequest();
    req.setArgs(toStruct(args));
    req.setAcceptsecrets(true);
    const res = await this.call<provpbTypes.ConfigureRequest, provpbTypes.ConfigureResponse>("configure", req);
    return { acceptSecrets: res.getAcceptsecrets() };
  }

  async check(urn: string, olds: Json, news: Json): Promise<{ inputs: Json; failures: Array<{ property: string; reason: string }> }> {
    const req = new provpb.CheckRequest();
    req.setUrn(urn);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    const res = await this.call<provpbTypes.CheckRequest, provpbTypes.CheckResponse>("check", req);
    return { inputs: fromStruct(res.getInputs()) ?? {}, failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })) };
  }

  async diff(urn: string, id: string, olds: Json, news: Json): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace?: boolean }> {
    const req = new provpb.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    const res = await this.call<provpbTypes.DiffRequest, provpbTypes.DiffResponse>("diff", req);
    const changes = res.getChanges() === provpb.DiffResponse.DiffChanges.DIFF_SOME;
    return res.getDeletebeforereplace() ? { changes, replaces: res.getReplacesList(), deleteBeforeReplace: true } : { changes, replaces: res.getReplacesList() };
  }

  async create(urn: string, properties: Json): Promise<{ id: string; properties: Json }> {
    const req = new provpb.CreateRequest();
    req.setUrn(urn);
    req.setProperties(toStruct(properties));
    const res = await this.call<provpbTypes.CreateRequest, provpbTypes.CreateResponse>("create", req);
    return { id: res.getId(), properties: fromStruct(res.getProperties()) ?? {} };
  }

  /** Without properties: a read by id alone, as `pulumi import` sends it (no properties at all). */
  async read(urn: string, id: string, properties?: Json, inputs?: Json): Promise<{ id: string; properties?: Json; inputs?: Json }> {
    const req = new provpb.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    if (properties) req.setProperties(toStruct(properties));
    if (inputs) req.setInputs(toStruct(inputs));
    const res = await this.call<provpbTypes.ReadRequest, provpbTypes.ReadResponse>("read", req);
    return { id: res.getId(), properties: fromStruct(res.getProperties()), inputs: fromStruct(res.getInputs()) };
  }

  async update(urn: string, id: string, olds: Json, news: Json): Promise<Json> {
    const req = new provpb.UpdateRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    return fromStruct((await this.call<provpbTypes.UpdateRequest, provpbTypes.UpdateResponse>("update", req)).getProperties()) ?? {};
  }

  async delete(urn: string, id: string, properties: Json): Promise<void> {
    const req = new provpb.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(toStruct(properties));
    await this.call<provpbTypes.DeleteRequest, unknown>("delete", req);
  }

  async invoke(token: string, args: Json): Promise<Json> {
    const req = new provpb.InvokeRequest();
    req.setTok(token);
    req.setArgs(toStruct(args));
    return fromStruct((await this.call<provpbTypes.InvokeRequest, provpbTypes.InvokeResponse>("invoke", req)).getReturn()) ?? {};
  }

  async close(): Promise<void> {
    this.client.close();
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once("exit", resolve));
      this.child.kill();
      await exited;
    }
  }
}

/**
 * A plugin started before the tests of the current block and closed after them, configured with an operations
 * center that is never called (for check alone): `const plugin = checkingPlugin(); ... plugin().check(...)`.
 */
export function checkingPlugin(): () => PluginProcess {
  let plugin: PluginProcess | undefined;
  beforeAll(async () => {
    plugin = await PluginProcess.start();
    await plugin.configure({ operationsCenterUrl: "https://ci.example.com/cjoc/" });
  });
  afterAll(async () => {
    await plugin?.close();
  });
  return () => plugin!;
}
