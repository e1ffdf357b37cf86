/**
 * The cost of watching what controllers run (issue 44): a refresh of a stack of 50 controllers, each with a
 * ControllerBundleAssignment and a ControllerConfiguration, against the same stack where each ControllerConfiguration
 * is a BundleReload on the same controller (a resource whose refresh reads nothing): the requests per controller and
 * the refresh's wall time (best of REPS, the two stacks interleaved, each refresh a deployment of its own: a fresh
 * provider host, so no read is cached from the one before), at the bench's parallelism and unbounded. Through the
 * SDK's real dynamic-provider host, against the emulator in a process of its own, whose controllers run their bundles
 * (examples/bundles: team-a, inheriting base, and team-b, assigned alternately).
 *
 * Runnable alone: `npx ts-node --transpile-only bench/controller-configuration.ts` (after `npm run build` and
 * `node scripts/link-self.js`), or `npm run bench -- --only controllers`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { request } from "undici";
import { providerShell } from "../sdk/resources/provider-shell";
import { EmulatorProcess } from "./emulator-client";
import { blankCloudbeesEnv, closeSerializerSession, Lifecycle, serializeProvider, startProviderHost, type ManagedResource, type ProviderHost } from "./harness";
import { wave } from "./steps";
import { ms, row, table } from "./table";

const REPO_ROOT = path.resolve(__dirname, "..");
const CONTROLLERS = 50;
const REPS = 5;
const GOAL = 1.3;
const TYPE = (name: string) => `pulumi-nodejs:dynamic/cloudbees:${name}`;
const BUNDLES = ["team-a", "team-b"];

const controllerPath = (i: number) => `team-${i % 5}/controller-${String(i).padStart(2, "0")}`;
const bundleOf = (i: number) => BUNDLES[i % BUNDLES.length]!;

type Stack = "configuration" | "reload";

export async function controllerConfigurationRows(): Promise<void> {
  const bundlesDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-controllers-"));
  fs.cpSync(path.join(REPO_ROOT, "examples", "bundles"), bundlesDir, { recursive: true });
  const controllers = Array.from({ length: CONTROLLERS }, (_, i) => controllerPath(i));
  const emu = await EmulatorProcess.start({ bundlesDir, controllers });
  const { info } = emu;
  const authorization = emu.adminAuthorization;
  const env = blankCloudbeesEnv();
  const hosts: ProviderHost[] = [];
  const newHost = async () => {
    const host = await startProviderHost({ cwd: REPO_ROOT, env, callTimeoutMs: 120_000 });
    hosts.push(host);
    await host.configure(emu.stackConfig());
    return new Lifecycle(host);
  };
  const post = async (url: string) => {
    const res = await request(url, { method: "POST", headers: { authorization } });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${text.slice(0, 200)}`);
  };
  try {
    // The installation: each controller assigned (outside Pulumi) and running its bundle, as after a restart. team-b
    // has no availability pattern: every controller may use it.
    await post(`${info.operationsCenterUrl}casc-bundle/set-global-availability-pattern-behavior?visibility=true`);
    for (const [i, c] of controllers.entries()) {
      await post(`${info.operationsCenterUrl}casc-bundle/set-controller-to-bundle?${new URLSearchParams({ bundleId: bundleOf(i), controllerPath: c })}`);
      await post(`${info.controllerUrls[c]!}casc-bundle-mgnt/reload-bundle`);
    }
    const texts = {
      assignment: await serializeProvider(providerShell("controllerBundleAssignment")),
      configuration: await serializeProvider(providerShell("controllerConfiguration")),
      reload: await serializeProvider(providerShell("bundleReload")),
    };
    const declare = (lc: Lifecycle, stack: Stack): ManagedResource[] =>
      controllers.flatMap((c, i) => [
        lc.resource(TYPE("ControllerBundleAssignment"), `${stack}-assign-${c}`, texts.assignment, { controllerPath: c, bundleId: bundleOf(i) }),
        stack === "configuration"
          ? lc.resource(TYPE("ControllerConfiguration"), `configuration-${c}`, texts.configuration, {
              controllerPath: c,
              instanceUrl: info.controllerUrls[c]!,
              bundleTreePath: bundlesDir,
              bundleId: bundleOf(i),
            })
          : lc.resource(TYPE("BundleReload"), `reload-${c}`, texts.reload, { instanceUrl: info.controllerUrls[c]! }),
      ]);

    // Each stack created once (adopted: the controllers run their bundles, so neither writes).
    const states = {} as Record<Stack, ManagedResource[]>;
    for (const stack of ["configuration", "reload"] as const) {
      states[stack] = declare(await newHost(), stack);
      await emu.clear();
      await wave(states[stack], (r) => r.up(), 10);
      const writes = await emu.ask<unknown[]>({ op: "writes" });
      if (writes.length > 0) throw new Error(`creating the ${stack} stack wrote ${writes.length} requests: the controllers do not run their bundles`);
    }

    /** One refresh of the stack in a new deployment: its wall time and its requests. */
    const refresh = async (stack: Stack, parallel: number) => {
      const lc = await newHost();
      const rs = declare(lc, stack);
      rs.forEach((r, i) => (r.state = states[stack][i]!.state));
      await emu.clear();
      const started = performance.now();
      await wave(rs, (r) => r.refresh(), parallel);
      const t = performance.now() - started;
      const controllerRequests = await emu.ask<number>({ op: "countPrefix", prefix: "/controllers/" });
      const all = await emu.ask<number>({ op: "countPrefix", prefix: "/" });
      for (const h of hosts.splice(0)) await h.close();
      return { t, controllerRequests, all };
    };
    for (const parallel of [10, 0]) {
      const best: Record<Stack, { t: number; controllerRequests: number; all: number }> = { configuration: { t: Infinity, controllerRequests: 0, all: 0 }, reload: { t: Infinity, controllerRequests: 0, all: 0 } };
      for (let rep = 0; rep < REPS; rep++) {
        for (const stack of ["configuration", "reload"] as const) {
          const r = await refresh(stack, parallel);
          if (r.t < best[stack].t) best[stack] = r;
        }
      }
      const at = `parallelism ${parallel || "unbounded"}`;
      const c = best.configuration;
      const b = best.reload;
      row(
        `refresh of ${CONTROLLERS} controllers (assignment + ControllerConfiguration each), ${at}: requests per controller`,
        `${(c.controllerRequests / CONTROLLERS).toFixed(2)} (${c.all} requests in all)`,
        `${(b.controllerRequests / CONTROLLERS).toFixed(2)} (${b.all} in all; BundleReload in its place)`,
      );
      const ratio = c.t / b.t;
      row(`refresh of ${CONTROLLERS} controllers, ${at}: wall time, best of ${REPS}`, ms(c.t), `${ms(b.t)} (BundleReload in its place: no controller read)`, ratio, {
        text: `<= ${GOAL}`,
        met: ratio <= GOAL,
      });
    }
  } finally {
    for (const h of hosts) await h.close();
    await emu.close();
    fs.rmSync(bundlesDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  controllerConfigurationRows()
    .then(async () => {
      await closeSerializerSession();
      console.log(table().text);
    })
    .catch((e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
      process.exit(1);
    });
}
