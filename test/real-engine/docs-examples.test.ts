/**
 * Every resource page's example in Python, Go and YAML (docs/resources, "In Python, Go and YAML"), checked against
 * the SDKs generated from the schema, as their languages check a program: the Python one runs under Pulumi's mocks
 * with the generated SDK (a misspelt or missing argument raises); the Go ones type-check (`go vet`) against the
 * generated module; the YAML ones are previewed through the plugin against an emulator (the YAML runtime types every
 * property by the schema). And generated/sdk is what the CLI makes of the current schema (npm run sdks).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { differences, generateSdks, SDK_DIR } from "../../scripts/sdks";
import { kinds, typeNameOf } from "../../provider/plugin/tokens";
import { pageOf } from "../../scripts/schema/docs";
import { ROOT } from "../package/consumer-project";
import { run, workspace } from "./tier-cli";
import { CliProject, mustRun } from "./languages/cli-project";
import { installPlugin, pythonVirtualenv } from "./languages/toolchains";

const TYPES = kinds().map(typeNameOf);

/** The one block of `language` in the page's section "In Python, Go and YAML". */
function example(type: string, language: string): string {
  const text = fs.readFileSync(path.join(ROOT, pageOf(type)), "utf8");
  const blocks = [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]!);
  expect({ page: pageOf(type), language, blocks: blocks.length }).toEqual({ page: pageOf(type), language, blocks: 1 });
  return blocks[0]!;
}

/** A folder with what the examples read: the sample bundles as ./bundles, an items file. */
function projectFolder(dir: string): string {
  fs.mkdirSync(path.join(dir, "items"), { recursive: true });
  fs.cpSync(path.join(ROOT, "examples", "bundles"), path.join(dir, "bundles"), { recursive: true });
  fs.writeFileSync(path.join(dir, "items", "team-a.yaml"), "items:\n  - kind: folder\n    name: jobs\n");
  return dir;
}

let ws: ReturnType<typeof workspace>;
beforeAll(() => {
  ws = workspace("docs-examples");
});
afterAll(() => ws?.cleanup());

it("generated/sdk is what the CLI makes of generated/schema.json (npm run sdks)", () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "sdks-"));
  try {
    generateSdks(out);
    expect(differences(out, SDK_DIR)).toEqual([]);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});

it("every page's Python example runs under mocks with the generated SDK, declaring the page's resource", async () => {
  const dir = projectFolder(path.join(ws.dir, "python"));
  await pythonVirtualenv(dir, ws.env);
  const files = TYPES.map((type) => {
    const file = path.join(dir, `${type}.py`);
    fs.writeFileSync(file, example(type, "python"));
    return file;
  });
  // One Python process runs them all, each under fresh mocks, in a block of its own (run_with_mocks.py).
  const r = await run(path.join(dir, "venv", "bin", "python"), [path.join(__dirname, "languages", "run_with_mocks.py"), path.join(ROOT, "generated", "schema.json"), ...files], dir, ws.env);
  const blocks = new Map(r.stdout.split(/^== /m).slice(1).map((b) => [b.slice(0, b.indexOf("\n")), b] as const));
  for (const [type, file] of TYPES.map((t, i) => [t, files[i]!] as const)) {
    const failure = r.stderr.split(/^!! /m).find((b) => b.startsWith(`${file}\n`)) ?? "";
    expect({ type, failure }).toEqual({ type, failure: "" });
    expect({ type, declared: blocks.get(file)?.includes(`cloudbees:index:${type}::`) }).toEqual({ type, declared: true });
  }
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
});

it("every page's Go example type-checks against the generated Go SDK (go vet), declaring the page's resource", async () => {
  const dir = path.join(ws.dir, "go");
  fs.mkdirSync(dir);
  fs.copyFileSync(path.join(ROOT, "examples", "plugin", "go", "go.mod"), path.join(dir, "go.mod"));
  fs.copyFileSync(path.join(ROOT, "examples", "plugin", "go", "go.sum"), path.join(dir, "go.sum"));
  await mustRun("go", ["mod", "edit", "-module=pulumi-cloudbees.local/docs", `-replace=github.com/pulumi-cloudbees/pulumi-cloudbees/generated/sdk/go=${path.join(ROOT, "generated", "sdk", "go")}`], dir, ws.env);
  for (const type of TYPES) {
    const code = example(type, "go");
    expect({ type, declares: code.includes(`cloudbees.New${type}(ctx,`) }).toEqual({ type, declares: true });
    fs.mkdirSync(path.join(dir, type));
    fs.writeFileSync(path.join(dir, type, "main.go"), code);
  }
  await mustRun("go", ["vet", "./..."], dir, ws.env);
});

describe("every page's YAML example previews through the plugin, against an emulator", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator();
    await installPlugin(new CliProject(ws.dir, ws.env));
  });
  afterAll(() => emu?.close());

  for (const type of TYPES) {
    it(type, async () => {
      const code = example(type, "yaml");
      expect(code).toContain(`type: cloudbees:${type}\n`);
      const dir = projectFolder(path.join(ws.dir, "yaml", type));
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), code);
      const cli = new CliProject(dir, ws.env);
      await cli.initFor(emu, type.toLowerCase());
      const preview = await cli.ok("preview");
      expect(preview.stdout).toMatch(new RegExp(`\\+ +cloudbees:index:${type} `));
    });
  }
});
