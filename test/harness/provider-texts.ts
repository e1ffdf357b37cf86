/* istanbul ignore file */
/**
 * The provider shells' `__provider` texts that test files send to provider hosts: the SDK's written-out texts
 * (sdk/resources/provider-text.ts), exactly what its resources store. test/resources/sdk.test.ts checks that they
 * are what the SDK's closure serializer makes of the shells, so no other file needs to serialize (which loads
 * TypeScript's parser into the file's module registry: about a second of CPU per file).
 */
import type { ProviderKind } from "../../provider/resources";
import { providerText } from "../../sdk/resources/provider-text";

/** The texts of `kinds`. */
export async function providerTextsOf<K extends ProviderKind>(kinds: readonly K[]): Promise<Record<K, string>> {
  return Object.fromEntries(kinds.map((kind) => [kind, providerText(kind)])) as Record<K, string>;
}
