#!/usr/bin/env node
/**
 * After `npm run build`: the plugin (dist/provider/plugin) is a program the engine runs, not an API a program
 * imports, so its declarations do not ship. They name the gRPC and protobuf modules of the user's @pulumi/pulumi,
 * which a consumer's project need not be able to resolve (test/package/consumer.test.ts checks what the shipped
 * declarations import).
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const dir = path.join(__dirname, "..", "dist", "provider", "plugin");
for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  if (file.endsWith(".d.ts")) fs.rmSync(path.join(dir, file));
}
