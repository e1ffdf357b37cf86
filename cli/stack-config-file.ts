import * as fs from "node:fs";
import { parse as parseYaml } from "yaml";
import { CONNECTIONS_KEY, SETTINGS, type RawConfig, type SettingName, type SettingSpec } from "../provider/config/settings";
import { printable, quoted } from "../provider/text/printable";

/**
 * The `cloudbees:*` settings (and `cloudbees:connections`) of a stack config file (`config:` of `Pulumi.<stack>.yaml`). An encrypted value fails
 * with the environment variable to use instead: only the Pulumi CLI can decrypt it.
 */
export function readStackConfigFile(file: string): RawConfig {
  let doc: unknown;
  try {
    doc = parseYaml(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`reading the stack config file ${quoted(file)}: ${printable((e as Error).message)}`);
  }
  const config = (doc as { config?: unknown } | null)?.config;
  if (config === undefined || config === null) return {};
  if (typeof config !== "object" || Array.isArray(config)) throw new Error(`${quoted(file)}: "config" must be a map of keys to values`);
  const out: RawConfig = {};
  for (const [name, spec] of Object.entries(SETTINGS) as [SettingName, SettingSpec][]) {
    const value = (config as Record<string, unknown>)[spec.key];
    if (value === undefined || value === null || value === "") continue;
    if (typeof value === "object") {
      throw new Error(
        `${quoted(file)}: ${spec.key} is encrypted (secure), and only the Pulumi CLI can decrypt it. Give it in the environment ` +
          `instead: ${spec.env}=... (e.g. ${spec.env}="$(pulumi config get ${spec.key})")`,
      );
    }
    out[name] = value;
  }
  // The named connections, for their instances' URLs (import --bundle-tree); an encrypted value nested in them is
  // kept as it is: the import reads URLs only.
  const connections = (config as Record<string, unknown>)[CONNECTIONS_KEY];
  if (connections !== undefined && connections !== null) out.connections = connections;
  return out;
}
