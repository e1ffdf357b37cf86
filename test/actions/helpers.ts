/* istanbul ignore file */
/**
 * Set-up of the action-resource tests: test/resources/helpers.ts's world (one emulator and one real provider host
 * per test file, the host running the built package from the repository root) plus the action kinds' provider texts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ActionKind } from "../../provider/resources";
import { dynamicType, type JsonObject, type ManagedResource } from "../harness";
import { providerTextsOf } from "../harness/provider-texts";
import { REPO_ROOT, startWorld, type World } from "../resources/helpers";

export { REPO_ROOT, requests, copyBundles, cascSnapshot, type World } from "../resources/helpers";

export const ACTION_TYPES: Record<ActionKind, string> = {
  bundleCheckout: dynamicType("cloudbees", "BundleCheckout"),
  controllerBundleToken: dynamicType("cloudbees", "ControllerBundleToken"),
  bundleReload: dynamicType("cloudbees", "BundleReload"),
  items: dynamicType("cloudbees", "Items"),
  bundleValidation: dynamicType("cloudbees", "BundleValidation"),
};

export const ACTION_KINDS = Object.keys(ACTION_TYPES) as ActionKind[];

/** The provider texts exactly as the SDK classes store them in `__provider`. */
export function actionTexts(): Promise<Record<ActionKind, string>> {
  return providerTextsOf(ACTION_KINDS);
}

export interface ActionWorld extends World {
  actionTexts: Record<ActionKind, string>;
  /** A resource of an action kind, as `new cloudbees.<Type>(name, inputs)` declares it. */
  action(kind: ActionKind, name: string, inputs: JsonObject): ManagedResource;
}

export async function startActionWorld(options: Parameters<typeof startWorld>[0] = {}): Promise<ActionWorld> {
  const w = await startWorld(options);
  const texts = await actionTexts();
  return Object.assign(w, {
    actionTexts: texts,
    action: (kind: ActionKind, name: string, inputs: JsonObject) => w.lc.resource(ACTION_TYPES[kind], name, texts[kind], inputs),
  });
}

/** The emulator's journal as "METHOD /path" lines (the query left out), to assert which calls a step made. */
export function calls(w: World): string[] {
  return w.emu.journal.entries().map((e) => `${e.method} ${e.path}`);
}

/** A fresh temporary folder, removed by the caller. */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const SAMPLE_BUNDLES = path.join(REPO_ROOT, "examples", "bundles");
