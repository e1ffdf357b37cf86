import type { ListedBundle } from "../../clients/casc-schemas";
import type { OperationsCenterConnection } from "../../config/clients";
import { providerState } from "../../config/state";

/**
 * One bundle list shared by every bundle resource of the provider process, per operations center and user.
 *
 * The engine sends the reads of a refresh (and the creates and updates of an up) for many resources at nearly the
 * same time. Instead of one `GET casc-bundle/list` per resource:
 * - a caller joins the list request already in flight, if any;
 * - a new request waits `gatherMs` first, so that the calls of one wave join it, then waits for writes in progress
 *   (set-availability-pattern, set-controller-to-bundle, ...) to finish, so that it sees them;
 * - a write drops a request already sent, for later callers: what is read after a write reflects it.
 * Nothing is kept once a request has answered: a later wave (a later refresh, or a read after a change made outside
 * Pulumi) always asks the server again.
 */
export class BundleListCache {
  private inFlight: { promise: Promise<ListedBundle[]>; sent: boolean } | undefined;
  private writes = 0;
  private writesDone: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(private readonly gatherMs = 20) {}

  /** The list, from the request in flight or a new one made with `fetchList`. */
  list(fetchList: () => Promise<ListedBundle[]>): Promise<ListedBundle[]> {
    if (this.inFlight) return this.inFlight.promise;
    const entry = { promise: undefined as unknown as Promise<ListedBundle[]>, sent: false };
    entry.promise = (async () => {
      await sleep(this.gatherMs);
      while (this.writes > 0) await this.writesDone!.promise;
      entry.sent = true;
      return fetchList();
    })();
    this.inFlight = entry;
    const forget = () => {
      if (this.inFlight === entry) this.inFlight = undefined;
    };
    entry.promise.then(forget, forget);
    return entry.promise;
  }

  /**
   * Runs a request that changes bundles, availability or assignments. A list already sent may not see it, so later
   * callers must not join that one; a list not sent yet waits for this write and sees it, so they still may.
   */
  async write<T>(task: () => Promise<T>): Promise<T> {
    if (this.inFlight?.sent) this.inFlight = undefined;
    if (this.writes++ === 0) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.writesDone = { promise, resolve };
    }
    try {
      return await task();
    } finally {
      if (--this.writes === 0) {
        const done = this.writesDone!;
        this.writesDone = undefined;
        done.resolve();
      }
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

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
