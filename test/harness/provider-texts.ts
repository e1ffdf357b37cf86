/* istanbul ignore file */
/**
 * The provider shells' `__provider` texts, serialized once per jest run (test/global-setup.ts) and read by every test
 * file that sends them to a provider host. Serializing in each file would load @pulumi/pulumi into that file's module
 * registry and run the closure serializer: about three seconds of CPU per file, some thirty files. The texts are the
 * SDK's own (`serializeFunction` of the same shells, as `new pulumi.dynamic.Resource` stores them); the SDK-class
 * tests (test/resources/sdk.test.ts and the like) still serialize in their own file and compare with these.
 */
import * as fs from "node:fs";
import { resources, type ProviderKind } from "../../provider/resources";
import { providerShell } from "../../sdk/resources/provider-shell";
import { serializeProvider } from "./serialize";

/** The file global-setup.ts wrote the texts to, for the workers (they inherit its environment). */
export const PROVIDER_TEXTS_FILE_VARIABLE = "PULUMI_CLOUDBEES_TEST_PROVIDER_TEXTS";

let shared: Partial<Record<ProviderKind, string>> | undefined;

/** Every kind's text, written to `file` (global-setup.ts). */
export async function writeProviderTexts(file: string): Promise<void> {
  // The variable is not set yet in global-setup.ts: providerTextsOf serializes them.
  fs.writeFileSync(file, JSON.stringify(await providerTextsOf(Object.keys(resources) as ProviderKind[])));
}

/** The texts of `kinds`: those of the run when global-setup.ts wrote them, else serialized here. */
export async function providerTextsOf<K extends ProviderKind>(kinds: readonly K[]): Promise<Record<K, string>> {
  const file = process.env[PROVIDER_TEXTS_FILE_VARIABLE];
  if (shared === undefined && file && fs.existsSync(file)) shared = JSON.parse(fs.readFileSync(file, "utf8")) as typeof shared;
  const out = {} as Record<K, string>;
  for (const kind of kinds) out[kind] = shared?.[kind] ?? (await serializeProvider(providerShell(kind)));
  return out;
}
