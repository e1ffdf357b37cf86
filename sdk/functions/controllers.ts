import * as core from "../../provider/functions/controllers";
import type { FunctionOptions } from "../../provider/functions/calls";
import type { ControllerItem, ControllerSummary } from "../../provider/functions/controllers";
import { programHost } from "./host";

// The controllers an operations center knows of: the TypeScript face of provider/functions/controllers.ts, with the
// program's settings (host.ts).

/**
 * Every controller the operations center's bundle list knows of, sorted by path, with its bundle and the bundles
 * available to it (one GET `casc-bundle/list`). The API has no controller list: a controller that no bundle is
 * available to and that uses none does not appear. A bundle this version cannot read is skipped (its controllers
 * are read from the others), with a warning that names it and why.
 *
 * These are the facts that other resources and people change (an assignment changes a bundle's `usedBy`, a pattern
 * its `availableFor`), so they are read here rather than kept in any resource's state.
 *
 * Under `setMocks`: token `cloudbees:index:getControllers`.
 */
export async function getControllers(options?: FunctionOptions): Promise<ControllerSummary[]> {
  return core.getControllers(programHost, options);
}

/**
 * Every controller the operations center holds as an item, managed or client, inside folders too, sorted by full
 * path (one GET `view/Controllers/api/json`, the view the vendor's samples read). Unlike getControllers, this lists a
 * controller no bundle is available to; it says nothing about bundles. An item this version cannot read is skipped,
 * with a warning that names it and why; the others are returned.
 *
 * Under `setMocks`: token `cloudbees:index:getControllerItems`.
 */
export async function getControllerItems(options?: FunctionOptions): Promise<ControllerItem[]> {
  return core.getControllerItems(programHost, options);
}
