/* istanbul ignore file */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Emulator, JournalEntry } from "../../emulator";
import { SETTINGS } from "../../provider/config";
import type { SettingValues } from "../../sdk";
import { emulatorConnection } from "../../testing";

export const SAMPLE_BUNDLES = path.resolve(__dirname, "..", "..", "examples", "bundles");
const ENV_NAMES = Object.values(SETTINGS).map((s) => s.env);

/**
 * Blanks every CLOUDBEES_* variable for the file's tests (the machine's environment must not leak in) and puts
 * the originals back afterwards. Returns a setter for the tests that read settings from the environment.
 */
export function isolateEnvironment(): (values: Partial<Record<string, string>>) => void {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const name of ENV_NAMES) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
  });
  afterEach(() => {
    for (const name of ENV_NAMES) delete process.env[name];
  });
  afterAll(() => {
    for (const name of ENV_NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  return (values) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/** The emulator's administrator settings as the functions' `settings` option. */
export function adminSettings(emu: Emulator): Partial<SettingValues> {
  const { featureManagementRequestIntervalMs: _interval, ...connection } = emulatorConnection(emu);
  return { ...connection, maxRetries: 0 };
}

/** The same settings as CLOUDBEES_* variables. */
export function adminEnvironment(emu: Emulator): Record<string, string> {
  return {
    CLOUDBEES_OPERATIONS_CENTER_URL: emu.operationsCenterUrl,
    CLOUDBEES_USERNAME: emu.credentials.admin.username,
    CLOUDBEES_API_TOKEN: emu.credentials.admin.apiToken,
    CLOUDBEES_FEATURE_MANAGEMENT_URL: emu.featureManagementUrl,
    CLOUDBEES_FEATURE_MANAGEMENT_TOKEN: emu.credentials.featureManagementToken,
    CLOUDBEES_MAX_RETRIES: "0",
  };
}

/** `METHOD path` of journal entries, for exact comparisons. */
export const requests = (entries: JournalEntry[]): string[] => entries.map((e) => `${e.method} ${e.path}`);

export const basicOf = (username: string, token: string): string => `Basic ${Buffer.from(`${username}:${token}`).toString("base64")}`;

/** A temporary folder with the given files (path -> text); removed by the caller. */
export function writeTree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-functions-"));
  for (const [file, content] of Object.entries(files)) {
    const full = path.join(root, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  return root;
}

/** The resolved value of an Output (tests only). */
export function valueOf<T>(output: { apply<U>(f: (t: T) => U): unknown }): Promise<T> {
  return new Promise<T>((resolve) => output.apply((v: T) => resolve(v)));
}

/** The warnings said while `run` runs (outside a program, pulumi.log.warn writes them with console.warn). */
export async function warningsOf<T>(run: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
  const spy = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    const result = await run();
    return { result, warnings: spy.mock.calls.map((c) => String(c[0])) };
  } finally {
    spy.mockRestore();
  }
}

/** The next `method` request of `path` (the URL's pathname) answers `body` as JSON, with 200: a list a newer server wrote. */
export function answerOnce(emu: Emulator, method: string, path: string, body: unknown): void {
  emu.faults.inject({ method, path, status: 200, body: JSON.stringify(body), times: 1 });
}
