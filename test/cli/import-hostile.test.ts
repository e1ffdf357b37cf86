/* istanbul ignore file */
/**
 * `pulumi-cloudbees import` of a hostile installation (issue 26): ids, names and patterns planted by whoever can
 * push to the bundle repository, administer the operations center or hold a feature-flag token, each carrying code
 * after a line terminator (LF, U+2028, U+2029) that ends a `//` comment. The written program must type-check, run
 * nothing of what it quotes when it loads, and hand every value to the resources exactly as the server holds it.
 * Each payload writes a marker file; the program runs with a stand-in for the package that records what it
 * declares, so that only what the program itself executes could write one.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import * as ts from "typescript";
import { startEmulator, type Emulator } from "../../emulator";
import { FeatureManagementClient, OperationsCenterClient } from "../../provider";
import { assertBuiltPackage, BLANK_ENV, REPO_ROOT } from "../resources/helpers";
import { cliEnvironment } from "./cli-environment";

const BIN = path.join(REPO_ROOT, "dist", "cli", "main.js");
const LS = "\u2028";
const PS = "\u2029";
/** Code that writes the marker of `route` when it runs (no "/" in it: bundle ids come from folder names). */
const payload = (route: string, quote = "'") => `require(${quote}fs${quote}).writeFileSync(process.env.CB_MARKS+${quote}-${route}${quote},${quote}${quote})`;

/** A bundle id with U+2028 whose code runs on main: its "/*" and the pattern's "*\/" hide the rest of the line. */
const ID_WITH_LS = `e${LS}${payload("bundle-id")};/*`;
const ID_WITH_LF = `line\nbreak`;
const PATTERN_WITH_LS = `x${LS}${payload("pattern-api")}//`;
const YAML_PATTERN_WITH_PS = `y${PS}${payload("pattern-yaml")}//`;
const DUPLICATE_APP = `dup${LS}${payload("applications")}//`;
/** Every bundle but the one with a line feed (its own case below: on main it broke the whole program). */
const FILTER = `(?!line)[\\s\\S]*|z${LS}${payload("filter", '"')}//`;
/** Names that held on main too: quotes, backticks, "${", "*\/", and U+2028 inside literals. */
const ENVIRONMENT = "Stage`${process.exit(3)}`\"'";
/** A name the API cannot carry in its paths: neither read nor declared. */
const ENVIRONMENT_WITH_SLASH = "Prod*/`${process.exit(3)}`";
const GROUP = `g${LS}${payload("group")}//`;
const FLAG = `f${LS}${payload("flag")};`;
const DESCRIPTION = `d${PS}${payload("description")}//\r\n*/ \`\${1}\``;
/** A condition's property: a name, so no control character (the provider and the emulator refuse one), but U+2029. */
const PROPERTY = `p${PS}${payload("property")}//`;

let emu: Emulator;
let dir: string;

beforeAll(async () => {
  assertBuiltPackage();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-import-hostile-"));
  const bundles = path.join(dir, "bundles");
  const bundle = (id: string, extra = "") => {
    fs.mkdirSync(path.join(bundles, ...id.split("/")), { recursive: true });
    fs.writeFileSync(path.join(bundles, ...id.split("/"), "bundle.yaml"), `apiVersion: "1"\nid: "b"\nversion: "1"\n${extra}`);
  };
  bundle("base");
  bundle(ID_WITH_LS);
  bundle(ID_WITH_LF);
  bundle("patterned");
  bundle("yaml-patterned", `availabilityPattern: ${JSON.stringify(YAML_PATTERN_WITH_PS)}\n`);
  emu = await startEmulator({ bundlesDir: bundles, controllers: ["team/controller"] });

  const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
  const fm = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  try {
    await oc.setAvailabilityPattern(ID_WITH_LS, "x*///");
    await oc.setAvailabilityPattern("patterned", PATTERN_WITH_LS);
    await oc.setAvailabilityPattern("base", ".*");
    await oc.setControllerToBundle("base", "team/controller");
    await fm.createApplication(DUPLICATE_APP);
    await fm.createApplication(DUPLICATE_APP);
    const app = (await fm.createApplication("hostile")).id;
    await fm.createEnvironment(app, { name: ENVIRONMENT, description: DESCRIPTION });
    await fm.createEnvironment(app, { name: ENVIRONMENT_WITH_SLASH });
    await fm.putTargetGroup(app, { type: "target-group", name: GROUP, description: DESCRIPTION, conditions: [{ property: PROPERTY, operator: "eq", operand: DESCRIPTION }] });
    await fm.createFlag(app, { name: FLAG });
    await fm.putExperiment(app, ENVIRONMENT, { type: "experiment", flag: FLAG, description: DESCRIPTION, conditions: [{ group: { name: GROUP }, value: true }], value: false });
  } finally {
    await oc.close();
    await fm.close();
  }
});

afterAll(async () => {
  await emu?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI's import into `<dir>/project/<file>` and returns the program. */
async function importProgram(args: string[], file: string): Promise<string> {
  const out = path.join(dir, "project", file);
  await promisify(execFile)(process.execPath, [BIN, "import", "--out", out, "--force", ...args], { cwd: dir, env: cliEnvironment(emu) });
  return fs.readFileSync(out, "utf8");
}

/**
 * The type checker's complaints about each written program, against the package's own types: one checker for all
 * of them (the package's declarations are read once). Complaints about no file count for every file.
 */
function diagnosticsOf(files: string[]): Map<string, string[]> {
  const paths = files.map((f) => path.join(dir, "project", f));
  const program = ts.createProgram(paths, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    skipLibCheck: true,
    types: [],
    lib: ["lib.es2022.d.ts"],
  });
  const all = ts.getPreEmitDiagnostics(program);
  return new Map(
    files.map((f, i) => [
      f,
      all.filter((d) => !d.file || path.resolve(d.file.fileName) === paths[i]).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    ]),
  );
}

interface Declared {
  type: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * Compiles the program as Pulumi's TypeScript runtime does (transpile only) and runs it with a stand-in for the
 * package that records each resource it declares. Returns the declarations and the markers the run left.
 */
async function run(text: string): Promise<{ declared: Declared[]; markers: string[] }> {
  const sandbox = fs.mkdtempSync(path.join(dir, "run-"));
  const stub = path.join(sandbox, "node_modules", "pulumi-cloudbees");
  fs.mkdirSync(stub, { recursive: true });
  fs.writeFileSync(
    path.join(stub, "index.js"),
    `const declared = [];
process.on("exit", () => require("fs").writeFileSync(process.env.CB_RECORD, JSON.stringify(declared)));
module.exports = new Proxy({}, { get: (_, type) => class {
  constructor(name, args) {
    declared.push({ type, name, args });
    return new Proxy(this, { get: (_, output) => "output:" + name + "." + String(output) });
  }
} });
`,
  );
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } }).outputText;
  fs.writeFileSync(path.join(sandbox, "index.js"), js);
  const marks = path.join(sandbox, "marker");
  const record = path.join(sandbox, "declared.json");
  await promisify(execFile)(process.execPath, [path.join(sandbox, "index.js")], { cwd: sandbox, env: { ...BLANK_ENV, PATH: process.env.PATH ?? "", CB_MARKS: marks, CB_RECORD: record } });
  const markers = fs.readdirSync(sandbox).filter((f) => f.startsWith("marker-"));
  return { declared: JSON.parse(fs.readFileSync(record, "utf8")) as Declared[], markers };
}

describe("pulumi-cloudbees import of a hostile installation", () => {
  jest.setTimeout(60_000);
  let text: string;
  let declared: Declared[];
  let markers: string[];
  /** The program of the bundle with a line feed in its id: its own import, as on main it broke the whole program. */
  let lineFeed: string;
  let lineFeedDeclared: Declared[];
  let diagnostics: Map<string, string[]>;

  beforeAll(async () => {
    const project = path.join(dir, "project");
    fs.mkdirSync(project, { recursive: true });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"), "dir");
    [text, lineFeed] = await Promise.all([importProgram(["--bundles", FILTER], "index.ts"), importProgram(["--bundles", "line\nbreak"], "line-feed.ts")]);
    const [ran, ranLineFeed] = await Promise.all([run(text), run(lineFeed)]);
    ({ declared, markers } = ran);
    lineFeedDeclared = ranLineFeed.declared;
    diagnostics = diagnosticsOf(["index.ts", "line-feed.ts"]);
  });

  // The routes of issue 26, each of which wrote its marker on main (the code ran as the program loaded).
  it.each([
    { route: "bundle-id", what: "a bundle folder whose name holds U+2028", quoted: `// Bundle "e\\u2028${payload("bundle-id")};/*": available by the pattern "x*///"` },
    { route: "pattern-api", what: "a pattern set through set-availability-pattern", quoted: `// Bundle "patterned": available by the pattern "x\\u2028${payload("pattern-api")}//"` },
    { route: "pattern-yaml", what: "a bundle.yaml availabilityPattern with U+2029", quoted: `// Bundle "yaml-patterned": its bundle.yaml pattern "y\\u2029${payload("pattern-yaml")}//"` },
    { route: "applications", what: "two applications of the same name", quoted: `// Not declared: 2 applications named "dup\\u2028${payload("applications")}//": none can be adopted by name.` },
    // The header's command line, as a shell reads it back (ANSI-C quoting for the line separator).
    { route: "filter", what: "a --bundles filter with U+2028", quoted: `// Generated by \`pulumi-cloudbees import --bundles $'(?!line)[\\\\s\\\\S]*|z\\u2028${payload("filter", '"')}//'\`` },
  ])("$what: runs nothing, and is quoted escaped in a comment", ({ route, quoted }) => {
    expect(markers).not.toContain(`marker-${route}`);
    expect(text).toContain(quoted);
  });

  it("runs nothing planted in names, descriptions and conditions either", () => {
    expect(markers).toEqual([]);
  });

  it("writes a program that type-checks, on lines that only LF ends", () => {
    expect(diagnostics.get("index.ts")).toEqual([]);
    expect(text).not.toMatch(/[\r\u2028\u2029\u0085]/);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it("hands every planted value to the resources exactly as the servers hold it", () => {
    const args = (type: string) => declared.filter((d) => d.type === type).map((d) => d.args);
    expect(args("BundleAvailability")).toEqual(
      expect.arrayContaining([
        { bundleId: ID_WITH_LS, regex: "x*///" },
        { bundleId: "patterned", regex: PATTERN_WITH_LS },
      ]),
    );
    expect(args("Environment")).toContainEqual(expect.objectContaining({ name: ENVIRONMENT, description: DESCRIPTION }));
    expect(args("TargetGroup")).toContainEqual(
      expect.objectContaining({ name: GROUP, description: DESCRIPTION, conditions: [{ property: PROPERTY, operator: "eq", operand: DESCRIPTION }] }),
    );
    expect(args("Flag")).toContainEqual(expect.objectContaining({ name: FLAG }));
    expect(args("FlagConfiguration")).toContainEqual(expect.objectContaining({ description: DESCRIPTION }));
  });

  it("declares nothing the resources would refuse, and says so", () => {
    expect(declared.filter((d) => d.type === "Application").map((d) => d.args.name)).toEqual(["hostile"]);
    expect(text).toContain('// Not declared: the environment "Prod*/`${process.exit(3)}`" of "hostile": its name');
    expect(declared.filter((d) => d.args.name === ENVIRONMENT_WITH_SLASH || d.args.environment === ENVIRONMENT_WITH_SLASH)).toEqual([]);
  });

  it("notes a bundle whose id holds a line feed instead of declaring it (on main the program did not compile)", () => {
    expect(lineFeed).toContain('// Not declared: bundle "line\\nbreak": its id holds a control character (U+000A)');
    expect(lineFeed).toContain("// Generated by `pulumi-cloudbees import --bundles $'line\\nbreak'`");
    expect(diagnostics.get("line-feed.ts")).toEqual([]);
    expect(lineFeedDeclared.filter((d) => JSON.stringify(d.args).includes("line\\nbreak"))).toEqual([]);
  });
});
