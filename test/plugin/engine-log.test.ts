/**
 * The plugin's warnings reach the engine's log (provider/plugin/engine-log.ts): the engine hides a resource plugin's
 * stderr, so a warning printed there is never seen. A stand-in Engine service receives them here.
 */
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineGrpcTypes from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as enginePbTypes from "@pulumi/pulumi/proto/engine_pb";
import { engineAddressOf, warningsToEngine } from "../../provider/plugin/engine-log";
import { loadProtocol } from "../../provider/plugin/protocol";
import { sendWarningsTo, stderrWarning, warn } from "../../provider/resources/shared/errors";
import { pulumiRoot } from "../../testing/processes/provider-host";

const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiRoot] })) as typeof grpcTypes;
const engineGrpc = require(path.join(pulumiRoot, "proto", "engine_grpc_pb")) as typeof engineGrpcTypes;
const enginePb = require(path.join(pulumiRoot, "proto", "engine_pb")) as typeof enginePbTypes;
const emptypb = require(require.resolve("google-protobuf/google/protobuf/empty_pb", { paths: [pulumiRoot] })) as { Empty: new () => unknown };

afterEach(() => sendWarningsTo(stderrWarning));

it("the engine's address is the first argument that is not one of the engine's flags", () => {
  expect(engineAddressOf(["--logtostderr", "-v=9", "--tracing", "127.0.0.1:9", "127.0.0.1:4000"])).toBe("127.0.0.1:4000");
  expect(engineAddressOf(["127.0.0.1:4000", "--logtostderr"])).toBe("127.0.0.1:4000");
  expect(engineAddressOf(["--logtostderr"])).toBeUndefined();
});

it("a warning goes to the engine's Log as a warning, as it is", async () => {
  const received: Array<{ severity: number; message: string }> = [];
  const server = new grpc.Server();
  let got: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (got = resolve));
  server.addService(engineGrpc.EngineService, {
    log(call: grpcTypes.ServerUnaryCall<enginePbTypes.LogRequest, unknown>, callback: grpcTypes.sendUnaryData<unknown>) {
      received.push({ severity: call.request.getSeverity(), message: call.request.getMessage() });
      callback(null, new emptypb.Empty());
      got();
    },
  } as never);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  const printed = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    warningsToEngine(`127.0.0.1:${port}`, loadProtocol(pulumiRoot));
    warn('FlagConfiguration f/Staging changed outside this stack by "alice@example.com"');
    await arrived;
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toEqual([{ severity: enginePb.LogSeverity.WARNING, message: 'FlagConfiguration f/Staging changed outside this stack by "alice@example.com"' }]);
    expect(printed).not.toHaveBeenCalled();
  } finally {
    // Gracefully: the plugin's call ends with the engine's answer, not a failure that would print it after all.
    await new Promise((resolve) => server.tryShutdown(resolve));
    printed.mockRestore();
  }
});

it("a warning the engine does not take goes to stderr", async () => {
  const printed = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    warningsToEngine("127.0.0.1:1", loadProtocol(pulumiRoot));
    warn("Flag f changed outside this stack");
    for (let i = 0; i < 100 && printed.mock.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(printed.mock.calls).toEqual([["warning: Flag f changed outside this stack"]]);
  } finally {
    printed.mockRestore();
  }
});
