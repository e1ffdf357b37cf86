import type { ListedBundle } from "../clients/casc-types";
import { lazyZod } from "../http/lazy-zod";
import { operationsCenterOf, run, type FunctionOptions } from "./calls";
import { defineFunction, type FunctionHost } from "./host";
import { controllerItemSchema, controllerSummarySchema } from "./result-schemas";
import { readableItems } from "../clients/readable-items";

// Loaded when the first schema is built, not with this module (lazy-zod.ts).
const z = lazyZod();

const GET_CONTROLLERS = defineFunction("getControllers", () => z.array(controllerSummarySchema()));
const GET_CONTROLLER_ITEMS = defineFunction("getControllerItems", () => z.array(controllerItemSchema()));

/** A controller as an item of the operations center (its Controllers view). */
export interface ControllerItem {
  /** The item's name (its last path segment). */
  name: string;
  /** Full path of the controller item (`team-a/controller-a`), the path the bundle endpoints take. */
  fullPath: string;
  /** The item's URL on the operations center. */
  url: string;
}

/** A controller as the operations center's bundle list shows it. */
export interface ControllerSummary {
  /** Full path of the controller item (`team-a/controller-a`). */
  controllerPath: string;
  /** The bundle the controller is assigned (the bundle whose `usedBy` holds it), or null when none lists it. */
  bundleId: string | null;
  /** Bundles whose availability pattern (or the global visibility) lets the controller use them, sorted. */
  availableBundles: string[];
}

/** getControllers: documented on its TypeScript face (sdk/functions/controllers.ts), which the schema's description is made from. */
export async function getControllers(host: FunctionHost, options?: FunctionOptions): Promise<ControllerSummary[]> {
  return run(host, GET_CONTROLLERS, {}, async (operation) => controllersOf(readableItems(host, await operationsCenterOf(host, options, operation).client.readBundleList(), "bundle", operation)), options);
}

/** getControllerItems: documented on its TypeScript face (sdk/functions/controllers.ts), which the schema's description is made from. */
export async function getControllerItems(host: FunctionHost, options?: FunctionOptions): Promise<ControllerItem[]> {
  return run(
    host,
    GET_CONTROLLER_ITEMS,
    {},
    async (operation) => {
      const items = readableItems(host, await operationsCenterOf(host, options, operation).client.readControllerItemList(), "controller", operation);
      return items.sort((a, b) => compare(a.fullPath, b.fullPath));
    },
    options,
  );
}

/** The controllers of a bundle list (see getControllers). */
export function controllersOf(bundles: readonly ListedBundle[]): ControllerSummary[] {
  const byPath = new Map<string, ControllerSummary>();
  const entry = (controllerPath: string): ControllerSummary => {
    let c = byPath.get(controllerPath);
    if (!c) byPath.set(controllerPath, (c = { controllerPath, bundleId: null, availableBundles: [] }));
    return c;
  };
  for (const bundle of bundles) {
    for (const path of bundle.availableFor) entry(path).availableBundles.push(bundle.name);
    for (const path of bundle.usedBy) entry(path).bundleId = bundle.name;
  }
  const out = [...byPath.values()].sort((a, b) => compare(a.controllerPath, b.controllerPath));
  for (const c of out) c.availableBundles = [...new Set(c.availableBundles)].sort(compare);
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
