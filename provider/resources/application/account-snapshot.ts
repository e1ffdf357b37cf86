import type { FeatureManagementClient } from "../../clients/feature-management-client";
import type { Application } from "../../clients/feature-management-types";
import type { ReadableList, UnreadableItem } from "../../clients/readable-list-types";
import { providerState } from "../../config/state";
import { readableEntries } from "../shared/unreadable-entries";

/** The client's words for the list (GET /public-api/applications), which warnings of its entries start with. */
export const LISTING = "listing applications";

/**
 * The feature-flag account as this provider process knows it: one list of its applications, read by the first
 * create of the deployment (the engine starts a provider process per deployment), plus every application this
 * process has created since. A create needs it to tell, after a lost answer, which application of its name is new
 * (and adoptExisting, which one to adopt). Reading it once instead of before every create keeps N creates at N + 1
 * requests under the service's one request per second. The price: an application of the same name that someone
 * else creates during the deployment, while one of ours lost its answer, looks new too; two of them are refused
 * as ambiguous, never adopted.
 */
export class AccountSnapshot {
  private listed: Promise<ReadableList<Application>> | undefined;
  private readonly created: Application[] = [];

  constructor(private readonly list: () => Promise<ReadableList<Application>>) {}

  /**
   * The applications, and the entries of the list this version cannot read (each said once: readableEntries): a
   * create must not take one of them for absent when it could be the application it would make.
   */
  async applications(): Promise<{ apps: Application[]; unreadable: UnreadableItem[] }> {
    const listed = (this.listed ??= this.list());
    let answer: ReadableList<Application>;
    try {
      answer = await listed;
    } catch (e) {
      // A failed list is not kept: the next create asks again.
      if (this.listed === listed) this.listed = undefined;
      throw e;
    }
    const apps = readableEntries(answer, "application", LISTING);
    return { apps: [...apps, ...this.created.filter((c) => !apps.some((a) => a.id === c.id))], unreadable: answer.unreadable };
  }

  /** An application this process created (or found created after a lost answer). */
  record(app: Application): void {
    this.created.push(app);
  }
}

/** The process's snapshot of the account this client reaches (clients are one per settings and process). */
export function accountSnapshotOf(client: FeatureManagementClient): AccountSnapshot {
  const state = providerState();
  const snapshots = (state.accountSnapshots ??= new WeakMap());
  let snapshot = snapshots.get(client) as AccountSnapshot | undefined;
  if (!snapshot) {
    snapshot = new AccountSnapshot(() => client.readApplicationList());
    snapshots.set(client, snapshot);
  }
  return snapshot;
}
