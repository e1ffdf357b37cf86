#!/usr/bin/env node
/**
 * `pulumi-resource-cloudbees`: the package's provider plugin, which the Pulumi engine starts for a program in any
 * language (Python, Go, YAML, TypeScript through the generated SDK) and talks to over the provider protocol. Served
 * by `@pulumi/pulumi/provider`'s `main`, as Pulumi's own TypeScript packages are; the engine passes its address as
 * the first argument, and the plugin prints the port it listens on.
 *
 * Installed with `pulumi plugin install resource cloudbees <version> --file <archive>` (npm run plugin:archive makes
 * the archive), found on PATH, or named by a project's `plugins.providers` (README, "Every Pulumi language").
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { completeNextProviderService } from "./service";
import { cloudbeesProvider } from "./provider";

/** The package's root: the folder of its package.json, above dist/provider/plugin (or provider/plugin). */
function packageRoot(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "pulumi-cloudbees") return dir;
    if (path.dirname(dir) === dir) throw new Error(`pulumi-resource-cloudbees: no package.json of pulumi-cloudbees above ${from}`);
  }
}

/** The package's schema, made from the sources by scripts/schema (npm run schema) and shipped with the package. */
export const SCHEMA_FILE = path.join("generated", "schema.json");

export async function serve(args: string[]): Promise<void> {
  const root = packageRoot();
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  const schema = async () => fs.readFileSync(path.join(root, SCHEMA_FILE), "utf8");
  completeNextProviderService();
  const { main } = require("@pulumi/pulumi/provider") as typeof import("@pulumi/pulumi/provider");
  await main(cloudbeesProvider(version, schema), args);
}

if (require.main === module) {
  serve(process.argv.slice(2)).catch((e: unknown) => {
    console.error(`pulumi-resource-cloudbees: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
