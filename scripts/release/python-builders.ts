/**
 * The Python that builds the Python SDK (`python -m build --no-isolation` needs build, setuptools and wheel), so that
 * `npm run release` makes what it needs (issue 52). In order:
 * - `--python <path>`: the caller's own interpreter, used as it is; one that lacks them is refused (nothing is
 *   installed into someone's own Python).
 * - `python3` on PATH, when it has all three.
 * - Otherwise a virtual environment made from that python3 outside the repository, in
 *   `<cache>/python-build/py<version>-<key>` (beside the cache of `npm run pulumi-cli`;
 *   PULUMI_CLOUDBEES_PYTHON_BUILD_CACHE moves it), with BUILDERS installed from PyPI by pip (the machine's pip
 *   settings apply). The key is the interpreter and the pins: a later run finds it and fetches nothing, a new python3
 *   or new pins make another.
 * Debian's and Ubuntu's python3 without python3-venv has venv but not ensurepip, so `python3 -m venv` fails there: the
 * environment is then made `--without-pip`, and pip's own wheel (downloaded by the system's pip) installs into it,
 * run as a zipapp. Without venv or any pip, the error says what to install.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { CACHE_COMPLETE_FILE, toolCacheDir } from "../../testing/cli/pulumi-cli";

/** Pinned: the newest that still run on Python 3.9, the Python SDK's floor (its requires-python). */
export const BUILDERS: Readonly<Record<string, string>> = { build: "1.4.4", setuptools: "82.0.1", wheel: "0.48.0" };
/** pip's wheel run as a zipapp, where the environment has no pip of its own (also the newest for 3.9). */
export const PIP_VERSION = "26.0.1";

const NAMES = Object.keys(BUILDERS).join(", ");
const INSTALL = `pip install ${Object.keys(BUILDERS).join(" ")}`;
const PINS = Object.entries(BUILDERS).map(([name, version]) => `${name}==${version}`);

export interface PythonBuildOptions {
  /** `--python`: the interpreter to use as it is. */
  python?: string;
  /** The interpreter looked for first, and the environment's base: default python3 (the tests give a fake). */
  systemPython?: string;
  /** Default pythonBuildCacheRoot(). */
  cacheRoot?: string;
  say?: (message: string) => void;
}

export function pythonBuildCacheRoot(): string {
  return toolCacheDir("python-build", process.env.PULUMI_CLOUDBEES_PYTHON_BUILD_CACHE);
}

/** The path of an environment's interpreter (only ever run as `python -m`: its scripts' #! lines name the folder it was made in). */
export function venvPython(dir: string): string {
  return process.platform === "win32" ? path.join(dir, "Scripts", "python.exe") : path.join(dir, "bin", "python");
}

function run(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    const err = e as { code?: string; stderr?: string; message: string };
    if (err.code === "ENOENT") throw new Error(`no ${command}`);
    const said = (err.stderr ?? "").trim().split("\n").slice(-3).join(" / ");
    throw new Error(said || err.message);
  }
}

interface Probe {
  executable: string;
  version: string;
  missing: string[];
}

/** One process asks the interpreter what it is and which builders it lacks. */
function probe(python: string): Probe {
  const code = [
    "import importlib.util, json, sys",
    `print(json.dumps({"executable": sys.executable, "version": "%d.%d.%d" % sys.version_info[:3], "missing": [m for m in ${JSON.stringify(Object.keys(BUILDERS))} if importlib.util.find_spec(m) is None]}))`,
  ].join("\n");
  const out = run(python, ["-c", code]);
  return JSON.parse(out.trim().split("\n").pop()!) as Probe;
}

/** The folder of `found`'s environment: the interpreter's version, then a digest of its path and every pin. */
export function environmentName(found: Pick<Probe, "executable" | "version">): string {
  const key = createHash("sha256").update(JSON.stringify([found.executable, found.version, BUILDERS, PIP_VERSION])).digest("hex");
  return `py${found.version}-${key.slice(0, 12)}`;
}

/** The interpreter to build the Python SDK with (see above); `say` tells what it makes. */
export function pythonForBuild(o: PythonBuildOptions = {}): string {
  if (o.python) {
    const { missing } = probe(o.python);
    if (missing.length) {
      throw new Error(`the Python SDK is built with ${o.python}, which lacks ${missing.join(", ")}: \`${o.python} -m ${INSTALL}\`, or leave --python out and the release makes an environment of its own`);
    }
    return o.python;
  }
  const system = o.systemPython ?? "python3";
  let found: Probe;
  try {
    found = probe(system);
  } catch (e) {
    throw new Error(`the Python SDK is built with Python 3.9 or later, and ${system} did not answer (${(e as Error).message}): install Python 3, or pass --python <path>`);
  }
  if (!found.missing.length) return system;
  const target = path.join(o.cacheRoot ?? pythonBuildCacheRoot(), environmentName(found));
  const python = venvPython(target);
  if (fs.existsSync(path.join(target, CACHE_COMPLETE_FILE)) && lacks(python).length === 0) {
    o.say?.(`${system} lacks ${found.missing.join(", ")}: using the Python build environment ${target}`);
    return python;
  }
  o.say?.(`${system} lacks ${found.missing.join(", ")}: making the Python build environment ${target} (${PINS.join(" ")} from PyPI, once)`);
  makeEnvironment(system, target);
  const still = lacks(python);
  if (still.length) throw new Error(`the environment ${target} was made, yet lacks ${still.join(", ")}: remove it and run again`);
  return python;
}

function lacks(python: string): string[] {
  try {
    return probe(python).missing;
  } catch {
    return Object.keys(BUILDERS);
  }
}

/** Made in a folder of its own and renamed into place when whole, so an interrupted run is never taken for a cached one. */
function makeEnvironment(system: string, target: string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const work = fs.mkdtempSync(`${target}.make-`);
  try {
    const env = path.join(work, "env");
    installBuilders(system, env, work);
    fs.writeFileSync(path.join(env, CACHE_COMPLETE_FILE), `${JSON.stringify({ python: system, builders: BUILDERS })}\n`);
    fs.rmSync(target, { recursive: true, force: true });
    try {
      fs.renameSync(env, target);
    } catch (e) {
      // Another release made it meanwhile: theirs is as good.
      if (!fs.existsSync(path.join(target, CACHE_COMPLETE_FILE))) throw e;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function installBuilders(system: string, env: string, work: string): void {
  let pip: string[];
  try {
    run(system, ["-m", "venv", env]);
    pip = ["-m", "pip"];
  } catch (withPip) {
    fs.rmSync(env, { recursive: true, force: true });
    try {
      run(system, ["-m", "venv", "--without-pip", env]);
    } catch (e) {
      throw new Error(`${system} cannot make a virtual environment (${(e as Error).message}): install its venv module (Debian, Ubuntu: \`apt-get install python3-venv\`), or pass --python <a python with ${NAMES}>`);
    }
    pip = [pipZipapp(system, work, (withPip as Error).message)];
  }
  const args = ["install", "--disable-pip-version-check", "--no-input", "--only-binary=:all:", ...PINS];
  try {
    run(venvPython(env), [...pip, ...args]);
  } catch (e) {
    throw new Error(`could not install ${PINS.join(" ")} from PyPI into a new environment (${(e as Error).message}): with no network, pass --python <a python with ${NAMES}>`);
  }
}

/** pip's wheel, downloaded by the system's pip into `work`: runnable as `python <wheel>/pip`. */
function pipZipapp(system: string, work: string, venvSaid: string): string {
  try {
    run(system, ["-m", "pip", "download", "--disable-pip-version-check", "--no-input", "--no-deps", "--only-binary=:all:", "--dest", work, `pip==${PIP_VERSION}`]);
  } catch (e) {
    throw new Error(`${system} can make a virtual environment only without pip (${venvSaid}), and has no pip to bring one (${(e as Error).message}): install python3-venv or python3-pip (Debian, Ubuntu: \`apt-get install python3-venv\`), or pass --python <a python with ${NAMES}>`);
  }
  return path.join(work, `pip-${PIP_VERSION}-py3-none-any.whl`, "pip");
}
