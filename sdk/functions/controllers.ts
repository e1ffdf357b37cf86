import type { ListedBundle } from "../../provider/clients/casc-schemas";
import { z } from "zod";
import { operationsCenterOf, run, type FunctionOptions } from "./context";
import { defineFunction } from "./mocks";
import { controllerSummarySchema } from "./result-schemas";

const GET_CONTROLLERS = defineFunction("getControllers", () => z.array(controllerSummarySchema()));

/** A controller as the operations center's bundle list shows it. */
export interface ControllerSummary {
  /** Full path of the controller item (`team-a/controller-a`). */
  controllerPath: string;
  /** The bundle the controller is assigned (the bundle whose `usedBy` holds it), or null when none lists it. */
  bundleId: string | null;
  /** Bundles whose availability pattern (or the global visibility) lets the controller use them, sorted. */
  availableBundles: string[];
}

/**
 * Every controller the operations center's bundle list knows of, sorted by path, with its bundle and the bundles
 * available to it (one GET `casc-bundle/list`). The API has no controller list: a controller that no bundle is
 * available to and that uses none does not appear.
 *
 * These are the facts that other resources and people change (an assignment changes a bundle's `usedBy`, a pattern
 * its `availableFor`), so they are read here rather than kept in any resource's state.
 *
 * Under `setMocks`: token `cloudbees:index:getControllers`.
 */
export async function getControllers(options?: FunctionOptions): Promise<ControllerSummary[]> {
  return run(GET_CONTROLLERS, {}, async (operation) => controllersOf(await operationsCenterOf(options, operation).client.listBundles()), options);
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
