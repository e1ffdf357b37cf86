#!/usr/bin/env node
/**
 * Makes this package resolvable by its own name from the repository: node_modules/pulumi-cloudbees -> the
 * repository root. The SDK's provider shells `require("pulumi-cloudbees/provider")` inside the dynamic-provider
 * host, which loads the serialized text with an empty filename, so Node's package self-reference does not apply:
 * the name must resolve from the host's working directory (the program's folder: here, the repository root).
 * Run by `npm test`, `npm start` and `npm run typecheck`, not by an install: the package has no install-time scripts,
 * so a consumer's `npm install` runs nothing of ours.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const name = require(path.join(root, "package.json")).name;
const link = path.join(root, "node_modules", name);

function main() {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  let stat;
  try {
    stat = fs.lstatSync(link);
  } catch {
    stat = undefined;
  }
  if (stat) {
    if (!stat.isSymbolicLink()) {
      // A real install of the package (e.g. from a tarball, to test it): leave it alone.
      console.log(`link-self: ${path.relative(root, link)} is a real folder, left as it is`);
      return;
    }
    if (fs.realpathSync(link) === fs.realpathSync(root)) return;
    fs.unlinkSync(link);
  }
  // Relative, so the link survives moving or copying the repository; a junction on Windows needs no privilege.
  const target = process.platform === "win32" ? root : path.relative(path.dirname(link), root);
  fs.symlinkSync(target, link, process.platform === "win32" ? "junction" : "dir");
  console.log(`link-self: ${path.relative(root, link)} -> ${target}`);
}

main();
