import type { ListedBundle } from "../../clients/casc-types";
import type { UnreadableItem } from "../../clients/readable-list-types";
import type { OperationsCenterConnection } from "../../config/clients";
import { providerState } from "../../config/state";
import { moveController, replaceBundle } from "./bundle-index";
import { ownCopy } from "./named-list";

/**
 * What a write changed in the list, computed from its own answer: the kept list is updated instead of read again.
 * undefined when the answer does not fit the list (it is then read again).
 */
export type ListChange<T> = (bundles: ListedBundle[], answer: T) => ListedBundle[] | undefined;

/**
 * One bundle list shared by every bundle resource of the provider process, per operations center and user.
 *
 * The engine starts a provider host for one deployment (an `up`, a `refresh`, a `preview --refresh`), so the list
 * this process has read serves every later read of that deployment, until this process itself writes:
 * - a read with no list kept asks the server at once (no gathering wait); readers arriving meanwhile join it;
 * - a write whose answer says exactly what changed (set-availability-pattern answers the controllers the bundle is
 *   now available for) updates the kept list; any other write (an assignment, the global switch, a check-out, ...),
 *   or a failed one (the server may have acted), forgets it: what is read after a write reflects it;
 * - a read while writes are in progress waits for them all to end and then asks once for every such reader (it first
 *   lets the process start the calls it has already received, which may write too: a yield, not a timer).
 * A change made outside Pulumi during the deployment shows in the next deployment (the next provider process).
 */
export class BundleListCache {
  /** The list read since the last write that could not update it: in flight or answered. */
  private kept: Promise<ListedBundle[]> | undefined;
  /** A list asked for during writes, sent once they have all ended. */
  private afterWrites: Promise<ListedBundle[]> | undefined;
  private writes = 0;
  private writesEnded: { promise: Promise<void>; resolve: () => void } | undefined;
  /** How the last reader read the list: a write whose change does not fit reads it again the same way. */
  private fetchList: (() => Promise<ListedBundle[]>) | undefined;
  /**
   * The bundles the last answer held in a form this version cannot read (set by the reader's `fetchList`): left out
   * of the list, and kept here so that a resource of one of them fails, naming it, instead of finding it missing.
   */
  unreadable: UnreadableItem[] = [];

  /** The kept list, or a new one made with `fetchList`. */
  list(fetchList: () => Promise<ListedBundle[]>): Promise<ListedBundle[]> {
    this.fetchList = fetchList;
    if (this.kept) return this.kept;
    if (this.writes === 0 && !this.afterWrites) return this.keep(fetchList());
    return (this.afterWrites ??= this.sendAfterWrites(fetchList));
  }

  private keep(list: Promise<ListedBundle[]>): Promise<ListedBundle[]> {
    this.kept = list;
    // A failed list is not kept: the next reader asks again.
    list.catch(() => {
      if (this.kept === list) this.kept = undefined;
    });
    return list;
  }

  private async sendAfterWrites(fetchList: () => Promise<ListedBundle[]>): Promise<ListedBundle[]> {
    try {
      do {
        while (this.writes > 0) await this.writesEnded!.promise;
        // Calls the process has received but not started yet may write too: let them start first.
        await new Promise((resolve) => setImmediate(resolve));
      } while (this.writes > 0);
    } finally {
      this.afterWrites = undefined;
    }
    return this.kept ?? this.keep(fetchList());
  }

  /**
   * Runs a request that changes bundles, availability or assignments. When it has succeeded and `change` is given,
   * the kept list (in flight or answered) is updated with it; otherwise the kept list is forgotten.
   */
  async write<T>(task: () => Promise<T>, change?: ListChange<T>): Promise<T> {
    if (this.writes++ === 0) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.writesEnded = { promise, resolve };
    }
    let answered = false;
    let answer!: T;
    try {
      answer = await task();
      answered = true;
      return answer;
    } finally {
      const kept = this.kept;
      const fetchList = this.fetchList;
      this.kept = undefined;
      if (answered && change && kept && fetchList) {
        // Applied to whatever the list said, whether it was read before or after this write: the result is the same.
        this.keep(kept.then((bundles) => change(ownCopy(bundles), answer) ?? fetchList()));
      }
      if (--this.writes === 0) {
        const ended = this.writesEnded!;
        this.writesEnded = undefined;
        ended.resolve();
      }
    }
  }
}

/**
 * set-availability-pattern's change: the bundle now has the API pattern `regex` (bundle.yaml's no longer applies)
 * and is available to the controllers the answer lists. A bundle missing from the kept list makes it unusable.
 * The kept list is changed in place, in O(1) (bundle-index.ts), once BundleListCache.write has made it its own copy.
 */
export function availabilityPatternSet(bundleId: string, regex: string): ListChange<string[]> {
  return (bundles, availableFor) =>
    replaceBundle(bundles, bundleId, (b) => ({ ...b, regex, availabilityPatternFromYaml: false, availableFor })) ? bundles : undefined;
}

/**
 * set-controller-to-bundle's change: the controller now uses `bundleId` and no other bundle (a controller has one
 * bundle). Only `usedBy` changes (kept sorted; nothing here depends on its order). In place, as above.
 */
export function controllerAssigned(bundleId: string, controllerPath: string): ListChange<unknown> {
  return (bundles) => (moveController(bundles, bundleId, controllerPath) ? bundles : undefined);
}

/** A write that the bundle list does not show (set-default-bundle: no endpoint reads the default). */
export const listUnchanged: ListChange<unknown> = (bundles) => bundles;

/** The process's bundle list for this operations center and user. */
export function bundleListOf(oc: OperationsCenterConnection): BundleListCache {
  const lists = providerState().bundleLists;
  let cache = lists.get(oc.key) as BundleListCache | undefined;
  // A cache built by another copy of this module is used as is: same shape, same behaviour.
  if (!cache) {
    cache = new BundleListCache();
    lists.set(oc.key, cache);
  }
  return cache;
}
