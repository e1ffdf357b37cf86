/**
 * `pulumi-resource-cloudbees` as one executable that runs without Node.js on PATH (issue 45): the plugin bundled
 * into one CommonJS file (esbuild, its dependencies and @pulumi/pulumi's protocol stubs inside, the version and schema
 * embedded), made a Node.js single executable application (node --experimental-sea-config, then postject injects the
 * blob into a copy of this machine's node binary). The executable is for this machine's platform and architecture;
 * the release workflow makes the others on their own runners.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
/** postject's sentinel for Node.js single executable applications (nodejs.org/api/single-executable-applications.html). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

export interface BuiltExecutable {
  file: string;
  bytes: number;
}

export async function buildPluginExecutable(outDir: string, version: string): Promise<BuiltExecutable> {
  const work = fs.mkdtempSync(path.join(outDir, ".plugin-build-"));
  try {
    const bundle = path.join(work, "plugin.cjs");
    const esbuild = require("esbuild") as typeof import("esbuild");
    await esbuild.build({
      entryPoints: [path.join(ROOT, "provider", "plugin", "standalone.ts")],
      bundle: true,
      platform: "node",
      target: `node${process.versions.node.split(".")[0]}`,
      format: "cjs",
      outfile: bundle,
      define: {
        // main.ts serves when it is the program (the Node.js launcher); in the bundle standalone.ts is the program.
        "require.main": "undefined",
        PLUGIN_VERSION: JSON.stringify(version),
        PLUGIN_SCHEMA: JSON.stringify(fs.readFileSync(path.join(ROOT, "generated", "schema.json"), "utf8")),
      },
      logLevel: "warning",
    });
    const config = path.join(work, "sea-config.json");
    const blob = path.join(work, "sea-prep.blob");
    fs.writeFileSync(config, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true }));
    execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: "pipe" });
    const file = path.join(outDir, process.platform === "win32" ? "pulumi-resource-cloudbees.exe" : "pulumi-resource-cloudbees");
    fs.copyFileSync(process.execPath, file);
    fs.chmodSync(file, 0o755);
    // macOS runs only signed binaries: node's signature goes before the blob is injected, an ad-hoc one after.
    if (process.platform === "darwin") execFileSync("codesign", ["--remove-signature", file], { stdio: "pipe" });
    const postject = require.resolve("postject/dist/cli.js");
    const macho = process.platform === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [];
    execFileSync(process.execPath, [postject, file, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE, ...macho], { stdio: "pipe" });
    if (process.platform === "darwin") execFileSync("codesign", ["--sign", "-", file], { stdio: "pipe" });
    return { file, bytes: fs.statSync(file).size };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const version = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  const out = path.resolve(process.argv[2] ?? path.join(ROOT, "dist", "release"));
  fs.mkdirSync(out, { recursive: true });
  buildPluginExecutable(out, version).then(
    (b) => console.log(`${b.file}: ${(b.bytes / 1024 / 1024).toFixed(1)} MiB`),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
