/**
 * Issue 52: `npm run release` makes its own Python build environment when python3 lacks build, setuptools and wheel.
 * The interpreters here are fakes (a Node.js script answering as python would, and logging each call), the cache a
 * temporary folder: nothing reaches PyPI. A fake keeps its state in `<itself>.json`: the builders it lacks, whether
 * `-m venv` works (with pip, only --without-pip, or not at all), whether it has pip, whether pip reaches PyPI.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BUILDERS, environmentName, PIP_VERSION, pythonForBuild, venvPython } from "../../scripts/release/python-builders";

const ALL = Object.keys(BUILDERS);

interface FakeState {
  version: string;
  missing: string[];
  venv: "ok" | "without-pip-only" | "none";
  pip: boolean;
  offline: boolean;
  log: string;
}

const FAKE = `
const fs = require("fs"), path = require("path");
const me = process.argv[1], stateFile = me + ".json";
const state = JSON.parse(fs.readFileSync(stateFile, "utf8"));
const args = process.argv.slice(2);
fs.appendFileSync(state.log, JSON.stringify([me, ...args]) + "\\n");
const fail = (m) => { process.stderr.write(m + "\\n"); process.exit(1); };
const install = () => {
  if (state.offline) fail("ERROR: Could not find a version that satisfies the requirement build");
  fs.writeFileSync(stateFile, JSON.stringify({ ...state, missing: [] }));
};
if (args[0] === "-c") {
  console.log(JSON.stringify({ executable: me, version: state.version, missing: state.missing }));
} else if (args[0] === "-m" && args[1] === "venv") {
  const withoutPip = args.includes("--without-pip");
  if (state.venv === "none") fail("No module named venv");
  if (state.venv === "without-pip-only" && !withoutPip) fail("The virtual environment was not created successfully because ensurepip is not available.");
  const python = path.join(args[args.length - 1], "bin", "python");
  fs.mkdirSync(path.dirname(python), { recursive: true });
  fs.copyFileSync(me, python);
  fs.chmodSync(python, 0o755);
  fs.writeFileSync(python + ".json", JSON.stringify({ ...state, missing: ${JSON.stringify(ALL)}, venv: "ok", pip: !withoutPip }));
} else if (args[0] === "-m" && args[1] === "pip" && args[2] === "download") {
  if (!state.pip) fail("No module named pip");
  const dest = args[args.indexOf("--dest") + 1], spec = args[args.length - 1].split("==");
  fs.writeFileSync(path.join(dest, spec[0] + "-" + spec[1] + "-py3-none-any.whl"), "");
} else if (args[0] === "-m" && args[1] === "pip" && args[2] === "install") {
  if (!state.pip) fail("No module named pip");
  install();
} else if (args[0] && args[0].endsWith(".whl/pip") && fs.existsSync(path.dirname(args[0]))) {
  install();
} else fail("fake python: unexpected " + args.join(" "));
`;

let dir: string;
let cache: string;
let log: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "python-builders-"));
  cache = path.join(dir, "cache");
  log = path.join(dir, "calls.log");
  fs.writeFileSync(log, "");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A fake interpreter at `<dir>/<name>`. */
function fakePython(name: string, state: Partial<FakeState> = {}): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!${process.execPath}\n${FAKE}`, { mode: 0o755 });
  const full: FakeState = { version: "3.11.7", missing: [], venv: "ok", pip: true, offline: false, log, ...state };
  fs.writeFileSync(`${file}.json`, JSON.stringify(full));
  return file;
}

/** Each call of a fake: its paths relative to the test's folder (a work folder as .make-X), the -c code left out. */
function calls(): string[] {
  const rel = (p: string) => (p.startsWith(dir) ? path.relative(dir, p).replace(/\.make-\w+/, ".make-X") : p);
  return fs
    .readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as string[])
    .map(([python, ...args]) => [rel(python!), ...(args[0] === "-c" ? ["-c"] : args.map(rel))].join(" "));
}

const PINS = Object.entries(BUILDERS).map(([n, v]) => `${n}==${v}`).join(" ");
const INSTALL = `install --disable-pip-version-check --no-input --only-binary=:all: ${PINS}`;

it("a python3 that has build, setuptools and wheel is used as it is, and nothing is made", () => {
  const system = fakePython("python3");
  expect(pythonForBuild({ systemPython: system, cacheRoot: cache })).toBe(system);
  expect(calls()).toEqual(["python3 -c"]);
  expect(fs.existsSync(cache)).toBe(false);
});

it("a python3 that lacks them: an environment is made once in the cache, from it, and a later run reuses it", () => {
  const system = fakePython("python3", { missing: ["build", "wheel"] });
  const said: string[] = [];
  const target = path.join(cache, environmentName({ executable: system, version: "3.11.7" }));
  expect(pythonForBuild({ systemPython: system, cacheRoot: cache, say: (m) => said.push(m) })).toBe(venvPython(target));
  const env = `cache/${path.basename(target)}`;
  expect(calls()).toEqual(["python3 -c", `python3 -m venv ${env}.make-X/env`, `${env}.make-X/env/bin/python -m pip ${INSTALL}`, `${env}/bin/python -c`]);
  expect(said).toEqual([expect.stringMatching(/^.*python3 lacks build, wheel: making the Python build environment .* \(build==.* from PyPI, once\)$/)]);
  expect(fs.readdirSync(cache)).toEqual([path.basename(target)]); // the work folder is gone
  expect(path.basename(target)).toMatch(/^py3\.11\.7-[0-9a-f]{12}$/);

  fs.writeFileSync(log, "");
  expect(pythonForBuild({ systemPython: system, cacheRoot: cache })).toBe(venvPython(target));
  expect(calls()).toEqual(["python3 -c", `${env}/bin/python -c`]);
});

it("another python3 (path or version) gets an environment of its own", () => {
  const a = environmentName({ executable: "/usr/bin/python3", version: "3.11.2" });
  expect(environmentName({ executable: "/usr/bin/python3", version: "3.11.2" })).toBe(a);
  expect(environmentName({ executable: "/usr/bin/python3", version: "3.12.0" })).not.toBe(a);
  expect(environmentName({ executable: "/opt/python3", version: "3.11.2" })).not.toBe(a);
});

it("a cached environment that was never finished is made again", () => {
  const system = fakePython("python3", { missing: ALL });
  const target = path.join(cache, environmentName({ executable: system, version: "3.11.7" }));
  fs.mkdirSync(path.join(target, "bin"), { recursive: true }); // no .complete: an interrupted run
  expect(pythonForBuild({ systemPython: system, cacheRoot: cache })).toBe(venvPython(target));
  expect(calls()).toContain(`python3 -m venv cache/${path.basename(target)}.make-X/env`);
});

it("--python is used as it is, whatever python3 lacks; one that lacks the builders is refused, with nothing made", () => {
  const system = fakePython("python3", { missing: ALL });
  const own = fakePython("own-python");
  expect(pythonForBuild({ python: own, systemPython: system, cacheRoot: cache })).toBe(own);
  expect(calls()).toEqual(["own-python -c"]);

  const lacking = fakePython("lacking-python", { missing: ["setuptools"] });
  expect(() => pythonForBuild({ python: lacking, systemPython: system, cacheRoot: cache })).toThrow(
    `the Python SDK is built with ${lacking}, which lacks setuptools: \`${lacking} -m pip install build setuptools wheel\`, or leave --python out and the release makes an environment of its own`,
  );
  expect(fs.existsSync(cache)).toBe(false);
});

it("without ensurepip (Debian without python3-venv): made --without-pip, and pip's wheel, fetched by the system's pip, installs the builders", () => {
  const system = fakePython("python3", { missing: ALL, venv: "without-pip-only" });
  const target = path.join(cache, environmentName({ executable: system, version: "3.11.7" }));
  expect(pythonForBuild({ systemPython: system, cacheRoot: cache })).toBe(venvPython(target));
  const env = `cache/${path.basename(target)}`;
  expect(calls()).toEqual([
    "python3 -c",
    `python3 -m venv ${env}.make-X/env`,
    `python3 -m venv --without-pip ${env}.make-X/env`,
    `python3 -m pip download --disable-pip-version-check --no-input --no-deps --only-binary=:all: --dest ${env}.make-X pip==${PIP_VERSION}`,
    `${env}.make-X/env/bin/python ${env}.make-X/pip-${PIP_VERSION}-py3-none-any.whl/pip ${INSTALL}`,
    `${env}/bin/python -c`,
  ]);
});

it("says what to install when no environment can be made, and what to do when PyPI is out of reach", () => {
  const noVenv = fakePython("python3", { missing: ALL, venv: "none" });
  expect(() => pythonForBuild({ systemPython: noVenv, cacheRoot: cache })).toThrow(/cannot make a virtual environment \(No module named venv\): install its venv module \(Debian, Ubuntu: `apt-get install python3-venv`\)/);
  const noPip = fakePython("python3-nopip", { missing: ALL, venv: "without-pip-only", pip: false });
  expect(() => pythonForBuild({ systemPython: noPip, cacheRoot: cache })).toThrow(/can make a virtual environment only without pip .*ensurepip is not available.*install python3-venv or python3-pip/);
  const offline = fakePython("python3-offline", { missing: ALL, offline: true });
  expect(() => pythonForBuild({ systemPython: offline, cacheRoot: cache })).toThrow(/could not install build==.* from PyPI into a new environment \(ERROR: Could not find a version .*\): with no network, pass --python/);
  expect(fs.readdirSync(cache)).toEqual([]); // nothing half-made is left to be taken for an environment
});

it("no python3 at all: the error says to install one or pass --python", () => {
  expect(() => pythonForBuild({ systemPython: path.join(dir, "absent-python3"), cacheRoot: cache })).toThrow(/did not answer \(no .*absent-python3\): install Python 3, or pass --python <path>/);
});
