/* istanbul ignore file */
/**
 * Shared set-up of the resource tests: one emulator and one real dynamic-provider host per test file, the host
 * running in the repository root so that `require("pulumi-cloudbees/provider")` in the provider shells resolves to
 * the built package (node_modules/pulumi-cloudbees -> the repository, see scripts/link-self.js).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../emulator";
import { OperationsCenterClient, type ListedBundle } from "../../provider";
import type { ResourceKind } from "../../provider/resources";
import { emulatorStackConfig } from "../../testing/emulator-config";
import { dynamicType, Lifecycle, startProviderHost, type ProviderHost } from "../harness";
import { providerTextsOf } from "../harness/provider-texts";

export const REPO_ROOT = path.resolve(__dirname, "..", "..");

export const TYPES: Record<ResourceKind, string> = {
  application: dynamicType("cloudbees", "Application"),
  bundleAvailability: dynamicType("cloudbees", "BundleAvailability"),
  controllerBundleAssignment: dynamicType("cloudbees", "ControllerBundleAssignment"),
  defaultBundle: dynamicType("cloudbees", "DefaultBundle"),
  globalAvailabilityPattern: dynamicType("cloudbees", "GlobalAvailabilityPattern"),
};

export const KINDS = Object.keys(TYPES) as ResourceKind[];

/** The provider texts exactly as the SDK classes store them in `__provider`. */
export function providerTexts(): Promise<Record<ResourceKind, string>> {
  return providerTextsOf(KINDS);
}

function newestMtime(dir: string, ext: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p, ext));
    else if (entry.name.endsWith(ext)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * The host runs the *built* provider (dist/), found by package name, as do the emulator's bin, scripts that import the
 * package by name, and the kit's program processes. Fail with the fix rather than test stale code (`npm test` builds
 * first; `npx jest` alone does not).
 */
export function assertBuiltPackage(): void {
  let resolved: string;
  try {
    resolved = require.resolve("pulumi-cloudbees/provider", { paths: [REPO_ROOT] });
  } catch {
    throw new Error("pulumi-cloudbees does not resolve from the repository root: run `npm run build && node scripts/link-self.js`");
  }
  const built = fs.statSync(resolved).mtimeMs;
  for (const folder of ["provider", "sdk", "cli", "emulator", "testing"]) {
    if (Math.min(built, newestMtime(path.join(REPO_ROOT, "dist", folder), ".js")) < newestMtime(path.join(REPO_ROOT, folder), ".ts")) {
      throw new Error(`dist/${folder} is older than ${folder}/: run \`npm run build\` (npm test does it for you)`);
    }
  }
}

/** Every CLOUDBEES_* variable blanked in the host, so the test machine's environment cannot leak in. */
export const BLANK_ENV: Record<string, string> = Object.fromEntries(
  [
    "OPERATIONS_CENTER_URL",
    "USERNAME",
    "API_TOKEN",
    "FEATURE_MANAGEMENT_URL",
    "FEATURE_MANAGEMENT_TOKEN",
    "FEATURE_MANAGEMENT_REQUEST_INTERVAL_MS",
    "CA_CERTIFICATE",
    "INSECURE_SKIP_TLS_VERIFY",
    "ALLOW_INSECURE_HTTP",
    "TIMEOUT_MS",
    "MAX_RETRIES",
  ].map((k) => [`CLOUDBEES_${k}`, ""]),
);

/** Stack config of an administrator against the emulator, tokens as secrets (as `pulumi config set --secret`). */
export function adminConfig(emu: Emulator): Record<string, unknown> {
  return {
    ...emulatorStackConfig(emu),
    // Fast failures in tests; defaults otherwise.
    "cloudbees:timeoutMs": "5000",
    "cloudbees:maxRetries": "1",
  };
}

export interface World {
  emu: Emulator;
  /** The provider host of the current deployment (nextDeployment() starts another). */
  readonly host: ProviderHost;
  lc: Lifecycle;
  texts: Record<ResourceKind, string>;
  /** The operations center as an administrator, for changes made outside Pulumi and for looking. */
  oc: OperationsCenterClient;
  /**
   * Ends the deployment: the engine starts a provider host per `up` / `refresh` / `destroy`, and a host keeps the
   * bundle list it read until it writes. A test that changes something outside Pulumi and then expects a step to see
   * it starts the next deployment first. The resources keep their state.
   */
  nextDeployment(): Promise<void>;
  close(): Promise<void>;
}

export async function startWorld(
  options: {
    emulator?: EmulatorOptions;
    /** Stack config sent with Configure (default: an administrator's, adminConfig). */
    config?: (emu: Emulator) => Record<string, unknown>;
    /** Environment of the host, over BLANK_ENV. */
    env?: (emu: Emulator) => Record<string, string>;
  } = {},
): Promise<World> {
  assertBuiltPackage();
  const emu = await startEmulator(options.emulator ?? {});
  const texts = await providerTexts();
  const startHost = async () => {
    const started = await startProviderHost({ cwd: REPO_ROOT, env: { ...BLANK_ENV, ...(options.env?.(emu) ?? {}) } });
    await started.configure((options.config ?? adminConfig)(emu));
    return started;
  };
  const lc = new Lifecycle(await startHost());
  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin, timeoutMs: 5000, maxRetries: 0 });
  return {
    emu,
    get host() {
      return lc.host;
    },
    lc,
    texts,
    oc,
    async nextDeployment() {
      // The same host, its clients and reads forgotten, as a new host would start (a host's start is most of its CPU).
      if (await lc.host.newDeployment()) return;
      const next = await startHost();
      await lc.host.close();
      (lc as { host: ProviderHost }).host = next;
    },
    async close() {
      await oc.close();
      await lc.host.close();
      await emu.close();
    },
  };
}

/** Requests of the journal with this method and path (the path below the emulator's root, e.g. /cjoc/casc-bundle/list). */
export function requests(emu: Emulator, method: string, pathname: string): number {
  return emu.journal.entries().filter((e) => e.method === method && e.path === pathname).length;
}

export const LIST_PATH = "/cjoc/casc-bundle/list";

/** Everything the CasC resources can change, to prove a failed step changed nothing. */
export async function cascSnapshot(w: World): Promise<{ bundles: ListedBundle[]; state: Record<string, unknown> }> {
  const s = w.emu.state;
  return {
    bundles: await w.oc.listBundles(),
    state: {
      defaultBundle: s.defaultBundle(),
      assignments: s.assignments(),
      globalVisibility: s.globalVisibility(),
      apiAvailabilityPatterns: s.apiAvailabilityPatterns(),
    },
  };
}

/** Copy of the sample bundle location, so a test can remove a bundle and check out again. */
export function copyBundles(): string {
  const dir = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "bundles-"));
  fs.cpSync(path.join(REPO_ROOT, "examples", "bundles"), dir, { recursive: true });
  return dir;
}
