/**
 * The plugin as a user's project holds it, on another `@pulumi/pulumi` than the lockfile's: a folder with
 * node_modules/pulumi-cloudbees (a copy of the built package: its require of "@pulumi/pulumi" resolves from where it
 * lies, so a link back here would find ours) and node_modules/@pulumi/pulumi linked to one of the aliases in our
 * devDependencies (pulumi-sdk-lowest: 3.216.0, the peer range's floor; pulumi-sdk-newest: the newest on npm when
 * written). The package's own dependencies (zod, undici, ...) come from ours through NODE_PATH, which Node reads only
 * after the folder's own node_modules.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
/** What the plugin loads of the built package: the faces and the core (never the tests). */
const DIST_PARTS = ["provider", "sdk", "emulator", "testing"];

export type SdkAlias = "pulumi-sdk-lowest" | "pulumi-sdk-newest";

export interface SdkLayout {
  /** The copied plugin's main.js. */
  main: string;
  env: NodeJS.ProcessEnv;
  version: string;
  cleanup(): void;
}

/** The plugin in a fresh folder on `@pulumi/pulumi` from `pulumiDir` (a package folder: an alias, or a fake one). */
export function layoutOn(pulumiDir: string): SdkLayout {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-plugin-sdk-"));
  const own = path.join(dir, "node_modules", "pulumi-cloudbees");
  fs.mkdirSync(path.join(own, "dist"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(own, "package.json"));
  fs.symlinkSync(path.join(ROOT, "generated"), path.join(own, "generated"));
  for (const part of DIST_PARTS) fs.cpSync(path.join(ROOT, "dist", part), path.join(own, "dist", part), { recursive: true });
  fs.mkdirSync(path.join(dir, "node_modules", "@pulumi"));
  fs.symlinkSync(pulumiDir, path.join(dir, "node_modules", "@pulumi", "pulumi"), "dir");
  const { version } = JSON.parse(fs.readFileSync(path.join(pulumiDir, "package.json"), "utf8")) as { version: string };
  return {
    main: path.join(own, "dist", "provider", "plugin", "main.js"),
    env: { NODE_PATH: path.join(ROOT, "node_modules") },
    version,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export function layoutOnAlias(alias: SdkAlias): SdkLayout {
  return layoutOn(path.join(ROOT, "node_modules", alias));
}
