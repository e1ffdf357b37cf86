/**
 * provider/libraries.ts loads undici's Agent, EnvHttpProxyAgent and the dispatcher methods from undici's own files
 * rather than its index (a third of the cost). They must be the index's own parts, wired as the index wires them, so
 * that an undici release that moves or rewires them fails here (the provider would then fall back to the index).
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT, assertBuiltPackage } from "../resources/helpers";

it("are undici's own Agent and EnvHttpProxyAgent, with every method its index gives a dispatcher, without loading the index", () => {
  assertBuiltPackage();
  const script = `
    const { undici } = require(${JSON.stringify(path.join(REPO_ROOT, "dist", "provider", "libraries.js"))});
    const indexLoaded = () => Object.keys(require.cache).some((k) => k.endsWith("/node_modules/undici/index.js"));
    const parts = undici();
    const Dispatcher = require("undici/lib/dispatcher/dispatcher");
    const methods = () => Object.fromEntries(Object.getOwnPropertyNames(Dispatcher.prototype).map((k) => [k, Dispatcher.prototype[k]]));
    const before = methods();
    const report = { indexLoadedByParts: indexLoaded(), agentMethods: ["request", "connect", "stream", "pipeline", "upgrade"].filter((m) => typeof new parts.Agent()[m] === "function") };
    const index = require("undici");
    const after = methods();
    report.sameClasses = parts.Agent === index.Agent && parts.EnvHttpProxyAgent === index.EnvHttpProxyAgent;
    report.indexChangedMethods = Object.keys(after).filter((k) => after[k] !== before[k]);
    console.log(JSON.stringify(report));`;
  const res = spawnSync(process.execPath, ["-e", script], { cwd: REPO_ROOT, encoding: "utf8", timeout: 30_000 });
  expect(res.stderr).toBe("");
  expect(JSON.parse(res.stdout)).toEqual({
    indexLoadedByParts: false,
    agentMethods: ["request", "connect", "stream", "pipeline", "upgrade"],
    sameClasses: true,
    indexChangedMethods: [],
  });
});
