/**
 * The plugin as one self-contained executable (issue 45): the entry the release bundles, with Node.js itself, into
 * `pulumi-resource-cloudbees` (scripts/release/plugin-executable.ts). No @pulumi/pulumi is installed beside it (a
 * Python, Go or YAML user has none), so the protocol's pieces are bundled from the package's own copy, and the
 * version and schema are the release's, embedded at build time.
 */
import * as grpc from "@grpc/grpc-js";
import * as structpb from "google-protobuf/google/protobuf/struct_pb";
import * as emptypb from "google-protobuf/google/protobuf/empty_pb";
import * as anypb from "google-protobuf/google/protobuf/any_pb";
import * as enginegrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as enginepb from "@pulumi/pulumi/proto/engine_pb";
import * as plugpb from "@pulumi/pulumi/proto/plugin_pb";
import * as provgrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provpb from "@pulumi/pulumi/proto/provider_pb";
import * as statuspb from "@pulumi/pulumi/proto/status_pb";
import { serveWith } from "./main";
import type { Protocol } from "./protocol";

/** Set by the bundler (esbuild `define`): the release's version and schema text. */
declare const PLUGIN_VERSION: string;
declare const PLUGIN_SCHEMA: string;

const protocol = { grpc, structpb, emptypb, anypb, enginegrpc, enginepb, plugpb, provgrpc, provpb, statuspb } as unknown as Protocol;

serveWith(process.argv.slice(2), { protocol, version: PLUGIN_VERSION, readSchema: () => PLUGIN_SCHEMA }).catch((e: unknown) => {
  console.error(`pulumi-resource-cloudbees: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
