import type { FeatureManagementClient } from "../../clients/feature-management-client";
import type { Environment, Experiment, Flag, TargetGroup, TeamMember } from "../../clients/feature-flag-types";
import type { ReadableList, UnreadableItem } from "../../clients/readable-list-types";
import { named, ownCopy, putNamed, removeNamed } from "../shared/named-list";
import { providerState } from "../../config/state";
import { quoted } from "../../text/printable";
import { readableEntries, unreadableNamed } from "../shared/unreadable-entries";

/**
 * The feature-flag lists one provider process (one deployment) shares between every resource of an account: the
 * environments of an application, its flags as one environment lists them, its configurations (experiments) in one
 * environment, its target groups. The service allows one request per second, so a refresh of 20 flags configured in
 * 3 environments costs 6 lists (environments, flags, 3 experiment lists, target groups), not 80 reads.
 *
 * - The first reader of a list asks the server; readers arriving meanwhile join that request. A failed list is not
 *   kept: the next reader asks again.
 * - A write that the server answered updates the kept list with its answer (every change is an upsert or a removal
 *   by name, so it is right whether the list was read before or after the write); a write that failed forgets the
 *   lists it may have changed (the server may have acted), so the next reader asks again.
 * A change made outside Pulumi during the deployment shows in the next deployment (the next provider process).
 *
 * Every list is read item by item: an item the client cannot read is said once, in a warning naming it, and kept
 * apart, by name (`unreadable`), so that only the resource that manages it fails, naming it; the others read theirs.
 */
export class FeatureFlagLists {
  private readonly kept = new Map<string, Promise<unknown>>();
  /** Answered lists, for `check` (which must not send requests). */
  private readonly known = new Map<string, unknown>();
  /** Per kept list, the items its answer held that the client could not read. */
  private readonly unreadableItems = new Map<string, UnreadableItem[]>();

  constructor(private readonly client: FeatureManagementClient) {}

  environments(applicationId: string): Promise<Environment[]> {
    const k = key("environments", applicationId);
    const operation = `listing the environments of application ${quoted(applicationId)}`;
    return this.list(k, () => this.readable(k, this.client.readEnvironmentList(applicationId), "environment", operation));
  }

  flags(applicationId: string, environment: string): Promise<Flag[]> {
    const k = key("flags", applicationId, environment);
    const operation = `listing the flags of application ${quoted(applicationId)} in environment ${quoted(environment)}`;
    return this.list(k, () => this.readable(k, this.client.readFlagList(applicationId, environment), "flag", operation));
  }

  experiments(applicationId: string, environment: string): Promise<Experiment[]> {
    const k = key("experiments", applicationId, environment);
    const operation = `listing the experiments of application ${quoted(applicationId)} in environment ${quoted(environment)}`;
    return this.list(k, () => this.readable(k, this.client.readExperimentList(applicationId, environment), "experiment", operation));
  }

  targetGroups(applicationId: string): Promise<TargetGroup[]> {
    const k = key("targetGroups", applicationId);
    const operation = `listing the target groups of application ${quoted(applicationId)}`;
    return this.list(k, () => this.readable(k, this.client.readTargetGroupList(applicationId), "target group", operation));
  }

  /** The account's team members (account-wide: one list serves every TeamMember). */
  teamMembers(): Promise<TeamMember[]> {
    const k = key("teamMembers", "");
    return this.list(k, () => this.readable(k, this.client.readTeamMemberList(), "team member", "listing the team members"));
  }

  /**
   * The flags of the application as its first environment lists them (flags are app-wide: one list serves every
   * Flag). undefined when the application has no environment.
   */
  async appFlags(applicationId: string): Promise<Flag[] | undefined> {
    const first = (await this.environments(applicationId))[0];
    return first ? this.flags(applicationId, first.name) : undefined;
  }

  /**
   * The item of this name that the answer of a kept list held and the client could not read (read the list first):
   * `experiments` of an environment, `flags` (the application's, as appFlags reads them), `targetGroups`,
   * `environments`, or `teamMembers` (applicationId "": the list is the account's; emails compared ignoring case).
   */
  async unreadable(kind: Exclude<ListKind, "teamMembers">, applicationId: string, name: string, environment?: string): Promise<UnreadableItem | undefined>;
  async unreadable(kind: "teamMembers", applicationId: "", name: string): Promise<UnreadableItem | undefined>;
  async unreadable(kind: ListKind, applicationId: string, name: string, environment?: string): Promise<UnreadableItem | undefined> {
    const env = kind === "flags" ? (await this.environments(applicationId))[0]?.name : environment;
    const same = kind === "teamMembers" ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase() : undefined;
    return unreadableNamed(this.unreadableItems.get(key(kind, applicationId, env)) ?? [], name, same);
  }

  /** A flag's available values from any list already answered (check sends no request); undefined when none has it. */
  knownAvailableValues(applicationId: string, flag: string): (string | number | boolean)[] | undefined {
    for (const [k, list] of this.known) {
      if (!k.startsWith(key("flags", applicationId)) && !k.startsWith(key("experiments", applicationId))) continue;
      const item = k.startsWith(key("flags", applicationId)) ? named(list as Flag[], flag, flagName) : named(list as Experiment[], flag, experimentFlag);
      if (item?.availableValues) return item.availableValues;
    }
    return undefined;
  }

  /** Target-group names from an answered list, for check; undefined when not read yet. */
  knownTargetGroups(applicationId: string): TargetGroup[] | undefined {
    return this.known.get(key("targetGroups", applicationId)) as TargetGroup[] | undefined;
  }

  /**
   * Runs a write. Answered: `change` updates each kept list it names. Failed: those lists are forgotten. `lists`
   * names the kept lists the write may change (by key prefix).
   */
  async write<T>(task: () => Promise<T>, changes: (answer: T) => ListChange[], mayChange: string[]): Promise<T> {
    let answer: T;
    try {
      answer = await task();
    } catch (e) {
      for (const prefix of mayChange) this.forget(prefix);
      throw e;
    }
    for (const change of changes(answer)) this.apply(change);
    return answer;
  }

  /** The items of a list read item by item; the others said (once per deployment) and kept apart for `unreadable`. */
  private async readable<T>(k: string, answer: Promise<ReadableList<T>>, what: string, operation: string): Promise<T[]> {
    const list = await answer;
    this.unreadableItems.set(k, list.unreadable);
    return readableEntries(list, what, operation);
  }

  private list<T>(k: string, fetch: () => Promise<T[]>): Promise<T[]> {
    let kept = this.kept.get(k) as Promise<T[]> | undefined;
    if (!kept) {
      kept = fetch();
      this.keep(k, kept);
    }
    return kept;
  }

  private keep<T>(k: string, list: Promise<T[]>): void {
    this.kept.set(k, list);
    list.then(
      (value) => {
        if (this.kept.get(k) === list) this.known.set(k, value);
      },
      () => {
        if (this.kept.get(k) === list) {
          this.kept.delete(k);
          this.known.delete(k);
        }
      },
    );
  }

  private apply(change: ListChange): void {
    // The item a write answered (or removed) is no longer the one that could not be read.
    for (const [k, items] of this.unreadableItems) if (k.startsWith(change.prefix)) this.unreadableItems.set(k, items.filter((u) => u.name !== change.name));
    for (const [k, list] of [...this.kept]) {
      if (!k.startsWith(change.prefix)) continue;
      const next = list.then((items) => change.apply(ownCopy(items as unknown[]) as never[]) as unknown[]);
      // A kept list that failed meanwhile is forgotten by keep(): the next reader asks again.
      this.keep(k, next as Promise<unknown[]>);
    }
  }

  private forget(prefix: string): void {
    for (const k of [...this.kept.keys()]) {
      if (k.startsWith(prefix)) {
        this.kept.delete(k);
        this.known.delete(k);
        this.unreadableItems.delete(k);
      }
    }
  }
}

/** The naming of the flag lists and of the configuration (experiment) lists. */
export const flagName = (f: Flag) => f.name;
export const experimentFlag = (e: Experiment) => e.flag;

/** A change of the kept lists whose key starts with `prefix`, to the item `name`. */
export interface ListChange {
  prefix: string;
  name: string;
  apply(items: never[]): unknown[];
}

/**
 * The key of a kept list: `<kind>\n<applicationId>\n[<environment>\n]`. The same text is the prefix of a change:
 * without an environment it names the lists of every environment of the application.
 */
export type ListKind = "environments" | "flags" | "experiments" | "targetGroups" | "teamMembers";

export function key(kind: ListKind, applicationId: string, environment?: string): string {
  return environment === undefined ? `${kind}\n${applicationId}\n` : `${kind}\n${applicationId}\n${environment}\n`;
}

export const prefixOf = key;

/** Replaces the item of the same name (`nameOf`), or appends it. */
export function upsert<T>(prefix: string, item: T, nameOf: (x: T) => string): ListChange {
  return {
    prefix,
    name: nameOf(item),
    apply: (items: never[]) => {
      putNamed(items as unknown as T[], item, nameOf);
      return items;
    },
  };
}

/** Removes the item of this name. */
export function removal<T>(prefix: string, name: string, nameOf: (x: T) => string): ListChange {
  return {
    prefix,
    name,
    apply: (items: never[]) => {
      removeNamed(items as unknown as T[], name, nameOf);
      return items;
    },
  };
}

/**
 * A flag's available values from any list this process has answered, whatever the connection (application ids are
 * the service's own): what `check`, which runs outside any connection and sends no request, can know.
 */
export function knownAvailableValues(applicationId: string, flag: string): (string | number | boolean)[] | undefined {
  for (const lists of (providerState().featureFlagLists?.values() ?? []) as Iterable<FeatureFlagLists>) {
    const values = lists.knownAvailableValues(applicationId, flag);
    if (values) return values;
  }
  return undefined;
}

/** The process's lists for this client (clients are one per settings and process, and kept for the process's life). */
export function featureFlagListsOf(client: FeatureManagementClient): FeatureFlagLists {
  const state = providerState();
  const all = (state.featureFlagLists ??= new Map());
  let lists = all.get(client) as FeatureFlagLists | undefined;
  if (!lists) {
    lists = new FeatureFlagLists(client);
    all.set(client, lists);
  }
  return lists;
}
