/**
 * A feature-flag account for `pulumi-cloudbees flags` (flags-command.test.ts, flags-declarations.test.ts): two
 * applications in the emulator, impressions recorded over past days as of a fixed time (the emulator's clock and the
 * command's --as-of), and a copy of the sample source tree (test/fixtures/flags/source) with a .gitignore'd copy
 * that must not count. Each flag is named for what the command should say of it with --critical Production
 * --critical Staging --roxy Edge and N = 30 days:
 *
 * shop (Production, Staging):
 * - checkout.newFlow: "true" alone for 30 days in both, "false" before; referenced (a registered container's key and
 *   `checkout.newFlow`): remove-from-code, hard-code "true";
 * - old.banner: impressions 40 days ago only; no reference (but in the ignored copy): remove-from-iac;
 * - ui.theme: two values this week: keep (active);
 * - perm.kill: permanent, never evaluated, no reference: keep;
 * - new.search: never evaluated, referenced: keep (referenced but not evaluated);
 * - checkout.legacyCart: stale in Production, two values 10 days ago in Staging: keep;
 * kiosk (Production, Edge served through roxy):
 * - kiosk.mode: "on" alone for 30 days in Production (Edge is not critical); referenced from Python: remove-from-code "on";
 * - kiosk.legacy: impressions 50 days ago in Production, Edge unknown: unknown (never a removal from missing data).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator";
import { FeatureManagementClient } from "../../provider";
import type { ImpressionRecord } from "../../emulator/impressions";

export const AS_OF = "2030-03-15T12:00:00.000Z";
export const COMMON_ARGS = ["--critical", "Production", "--critical", "Staging", "--roxy", "Edge", "--as-of", AS_OF, "--stale-days", "30"];

export interface FlagsEstate {
  shop: string;
  kiosk: string;
  /** A folder of its own: the sources under `source/`, the command's outputs beside. */
  dir: string;
  cleanup(): void;
}

export async function setUpFlagsEstate(emu: Emulator): Promise<FlagsEstate> {
  const client = new FeatureManagementClient({ baseUrl: emu.featureManagementUrl, token: emu.credentials.featureManagementToken, minRequestIntervalMs: 0 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudbees-flags-"));
  try {
    const shop = (await client.createApplication("shop")).id;
    await client.createEnvironment(shop, { name: "Staging" });
    for (const name of ["checkout.newFlow", "checkout.legacyCart", "old.banner", "new.search"]) await client.createFlag(shop, { name });
    await client.createFlag(shop, { name: "ui.theme", availableValues: ["light", "dark"] });
    await client.createFlag(shop, { name: "perm.kill", isPermanent: true });
    const kiosk = (await client.createApplication("kiosk")).id;
    await client.createEnvironment(kiosk, { name: "Edge" });
    for (const name of ["kiosk.mode", "kiosk.legacy"]) await client.createFlag(kiosk, { name });

    emu.impressions.setClock(AS_OF);
    const at = (applicationId: string, environment: string, flag: string, value: string | boolean, days: number[], count = 3): ImpressionRecord[] =>
      days.map((daysAgo) => ({ applicationId, environment, flag, value, daysAgo, count }));
    for (const env of ["Production", "Staging"]) {
      emu.impressions.record(
        ...at(shop, env, "checkout.newFlow", true, [0, 5, 12, 20, 29]),
        ...at(shop, env, "checkout.newFlow", false, [45]),
        ...at(shop, env, "old.banner", false, [40]),
        ...at(shop, env, "ui.theme", "light", [1]),
        ...at(shop, env, "ui.theme", "dark", [2]),
      );
    }
    emu.impressions.record(
      ...at(shop, "Production", "checkout.legacyCart", false, [0, 3, 10, 25]),
      ...at(shop, "Staging", "checkout.legacyCart", true, [10]),
      ...at(shop, "Staging", "checkout.legacyCart", false, [11]),
      ...at(kiosk, "Production", "kiosk.mode", "on", [0, 7, 14, 21, 28]),
      ...at(kiosk, "Production", "kiosk.legacy", "x", [50]),
    );

    fs.cpSync(path.join(__dirname, "..", "fixtures", "flags", "source"), path.join(dir, "source"), { recursive: true });
    // Ignored (.gitignore): its reference to old.banner must not count.
    fs.writeFileSync(path.join(dir, "source", ".gitignore"), "vendor-copy/\n");
    fs.mkdirSync(path.join(dir, "source", "vendor-copy"));
    fs.writeFileSync(path.join(dir, "source", "vendor-copy", "old.js"), 'const banner = "old.banner";\n');
    return { shop, kiosk, dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
  } finally {
    await client.close();
  }
}
