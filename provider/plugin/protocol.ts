import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import type * as engineGrpcTypes from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as enginePbTypes from "@pulumi/pulumi/proto/engine_pb";
import type * as plugpbTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as provgrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as statuspbTypes from "@pulumi/pulumi/proto/status_pb";

/**
 * The protocol's pieces, loaded from the user's `@pulumi/pulumi` (pulumi-sdk.ts checked its version): its gRPC, its
 * generated stubs of the ResourceProvider service, and the protobuf well-known types they are built on. Loaded once,
 * at start, after the version check: a version outside the range never gets this far.
 */
export interface Protocol {
  grpc: typeof grpcTypes;
  provgrpc: typeof provgrpcTypes;
  provpb: typeof provpbTypes;
  plugpb: typeof plugpbTypes;
  statuspb: typeof statuspbTypes;
  /** The engine's own service: the plugin logs its warnings there (engine-log.ts). */
  enginegrpc: typeof engineGrpcTypes;
  enginepb: typeof enginePbTypes;
  structpb: typeof structTypes;
  emptypb: { Empty: new () => unknown };
  anypb: { Any: new () => { pack(bytes: Uint8Array, typeName: string): void } };
}

export function loadProtocol(pulumiRoot: string): Protocol {
  const fromPulumi = <T>(id: string) => require(require.resolve(id, { paths: [pulumiRoot] })) as T;
  const proto = <T>(file: string) => require(path.join(pulumiRoot, "proto", file)) as T;
  return {
    grpc: fromPulumi("@grpc/grpc-js"),
    provgrpc: proto("provider_grpc_pb"),
    provpb: proto("provider_pb"),
    plugpb: proto("plugin_pb"),
    statuspb: proto("status_pb"),
    enginegrpc: proto("engine_grpc_pb"),
    enginepb: proto("engine_pb"),
    structpb: fromPulumi("google-protobuf/google/protobuf/struct_pb"),
    emptypb: fromPulumi("google-protobuf/google/protobuf/empty_pb"),
    anypb: fromPulumi("google-protobuf/google/protobuf/any_pb"),
  };
}
