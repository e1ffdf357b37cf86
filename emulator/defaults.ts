import * as fs from "node:fs";
import * as path from "node:path";
import type { EmulatorUser, FeatureManagementAccount } from "./types";

// Fixed, documented values (emulator/README.md): tests and example programs rely on them.
export const DEFAULT_ADMIN: EmulatorUser = Object.freeze({ username: "admin", apiToken: "admin-api-token-7f3c9d", admin: true });
export const DEFAULT_NON_ADMIN: EmulatorUser = Object.freeze({
  username: "developer",
  apiToken: "developer-api-token-2b8e41",
  admin: false,
});
export const DEFAULT_FM_ACCOUNTS: readonly FeatureManagementAccount[] = Object.freeze([
  Object.freeze({ token: "fm-token-acme-5d1e0b", account: "acme" }),
  Object.freeze({ token: "fm-token-globex-9a6c2f", account: "globex" }),
]);
export const DEFAULT_CONTROLLERS: readonly string[] = Object.freeze(["team-a/controller-a", "team-b/controller-b", "sandbox"]);

/**
 * <repo>/examples/bundles, found from this file whether it runs from emulator/ (ts-node, jest) or from
 * dist/emulator/ (the built package ships examples/bundles at its root).
 */
export function defaultBundlesDir(): string {
  const candidates = [path.resolve(__dirname, "..", "examples", "bundles"), path.resolve(__dirname, "..", "..", "examples", "bundles")];
  return candidates.find((c) => fs.existsSync(c)) ?? candidates[0]!;
}
