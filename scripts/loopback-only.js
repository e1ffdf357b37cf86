#!/usr/bin/env node
/**
 * `node scripts/loopback-only.js <command> [args...]`: runs the command in a network namespace of its own whose only
 * interface is loopback (`unshare --user --map-root-user --net`, then `ip link set lo up`), so that nothing it starts
 * (the Pulumi CLI, its language hosts, programs in Node.js, Python and Go, pip, go) can reach any address but 127.0.0.1
 * and ::1: a connection elsewhere fails before it is made, whatever the client. The real-engine tier runs this way.
 * Where namespaces are not available (another OS, or user namespaces disabled), it says so and runs the command as it
 * is.
 */
"use strict";
const { spawnSync } = require("node:child_process");

const MARK = "PULUMI_CLOUDBEES_LOOPBACK_ONLY";
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node scripts/loopback-only.js <command> [args...]");
  process.exit(2);
}

function run(cmd, argv, env) {
  const result = spawnSync(cmd, argv, { stdio: "inherit", env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

if (process.env[MARK] !== "1" && process.platform === "linux") {
  // The probe: can this machine make such a namespace at all?
  const probe = spawnSync("unshare", ["--user", "--map-root-user", "--net", "true"], { stdio: "ignore" });
  if (probe.status === 0) {
    const script = 'ip link set lo up && exec "$@"';
    process.exit(run("unshare", ["--user", "--map-root-user", "--net", "sh", "-c", script, "sh", command, ...args], { ...process.env, [MARK]: "1" }));
  }
  console.error("loopback-only: no network namespace can be made here (unshare --user --net failed): running with the machine's network");
}
process.exit(run(command, args, process.env));
