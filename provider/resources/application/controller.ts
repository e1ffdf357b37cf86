/**
 * Application: an application of the feature-flag service. The service allows about one request per second per
 * client: every call goes through the process's one client per settings, which spaces them.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | name required |
 * | diff | nothing | a name change replaces; adoptExisting only matters to create |
 * | create | GET /public-api/applications (once per deployment: account-snapshot.ts), then POST /public-api/applications | a lost answer: GET the list again, adopt the one new application of the name, or create again when there is none (see createReconciled); an entry of the list it cannot read is skipped with a warning, but one that could be the application looked for (adoptExisting, or after a lost answer: its name, or no readable name) stops the create before a POST that could duplicate it (UnreadableEntryError) |
 * | read | GET /public-api/applications/{id}; a pending create: GET /public-api/applications | 404: dropped |
 * | update | nothing; a pending create: the reconcile of create | only adoptExisting can change in place |
 * | delete | nothing (a warning) | the API cannot delete: the application stays in the account |
 */
import { featureManagement, type FeatureManagementConnection } from "../../config/clients";
import type { Application } from "../../clients/feature-management-types";
import { NotFoundError, outcomeUnknown } from "../../http/errors";
import { InputChecker } from "../shared/check";
import { accessProblem, messageOf, operationFailed, partiallyCreated, warn } from "../shared/errors";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { isUnknown, plain } from "../shared/values";
import { accountSnapshotOf, LISTING } from "./account-snapshot";
import type { UnreadableItem } from "../../clients/readable-list-types";
import { couldBeNamed, mayDuplicate, readableEntries } from "../shared/unreadable-entries";
import { INPUT_KEYS, PENDING_ID_PREFIX, TYPE_NAME, type ApplicationOutputs } from "./types";
import { quoted } from "../../text/printable";

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.text("name", { required: true, example: "web-shop" });
  c.boolean("adoptExisting", { required: false });
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = isUnknown(news.name) || news.name !== olds.name ? ["name"] : [];
  // A create whose outcome is unknown (pending) is finished by an update.
  const pending = pendingIds(olds) !== undefined && !olds.applicationId;
  return { changes: replaces.length > 0 || pending, replaces, deleteBeforeReplace: false };
}

function connect(operation: string, id: string | undefined): FeatureManagementConnection {
  try {
    return featureManagement();
  } catch (e) {
    throw operationFailed(operation, id, accessProblem(e) ?? messageOf(e), e);
  }
}

function failed(operation: string, id: string | undefined, e: unknown): Error {
  const access = accessProblem(e);
  return operationFailed(operation, id, access ?? messageOf(e), access ? e : undefined);
}

function outputsOf(app: Application, inputs: Props, adopted: boolean): ApplicationOutputs {
  const out: ApplicationOutputs = { applicationId: app.id, name: app.name, adopted };
  if (typeof inputs.adoptExisting === "boolean") out.adoptExisting = inputs.adoptExisting;
  return out;
}

/** Rounds of create after answers that proved nothing was created, before giving up. */
const CREATE_ROUNDS = 3;

/** What the account holds after a create whose answer was lost. */
type Reconciled =
  | { kind: "created"; app: Application }
  | { kind: "absent" }
  | { kind: "several"; apps: Application[] }
  | { kind: "unreadable"; entry: UnreadableItem }
  | { kind: "unknown"; error: unknown };

/**
 * Lists the account: the applications of this name that were not there before (`existingIds`) are what the lost
 * create made. One: that is ours. None: it was not created, unless an entry the client cannot read could be it (its
 * name, or no readable name): then nothing can be told. Several: others create the same name at the same time.
 */
async function reconcile(fm: FeatureManagementConnection, name: string, existingIds: readonly string[]): Promise<Reconciled> {
  let apps: Application[];
  let unreadable: UnreadableItem[];
  try {
    const answer = await fm.client.readApplicationList();
    apps = readableEntries(answer, "application", LISTING);
    unreadable = answer.unreadable;
  } catch (error) {
    return { kind: "unknown", error };
  }
  const fresh = apps.filter((a) => a.name === name && !existingIds.includes(a.id));
  if (fresh.length === 1) return { kind: "created", app: fresh[0]! };
  if (fresh.length > 1) return { kind: "several", apps: fresh };
  const entry = couldBeNamed(unreadable, name);
  return entry ? { kind: "unreadable", entry } : { kind: "absent" };
}

/** How an application is taken over by its id, whose list entry this version cannot read. */
const IMPORT = "import it by its id (the Feature Management UI, App Settings): pulumi import cloudbees:index:Application <name> <id>, through the provider plugin";

/**
 * The create of `name` stopped before its POST: `entry` could be the application it looks for, the one to adopt or
 * (`lost`) the one a POST whose answer was lost may have made.
 */
function unreadableMayBeIt(operation: string, id: string | undefined, entry: UnreadableItem, lost = false): Error {
  if (lost) {
    const wayOut = `look in the Feature Management UI for an application of that name made just now: if there is one, ${IMPORT}; if not, remove this resource from the state (pulumi state delete) and run pulumi up again`;
    return mayDuplicate(operation, id, "application", entry, "a create got no answer and may have made it; the service accepts duplicate names", wayOut);
  }
  const wayOut = `if it is another application, set adoptExisting: false to create this one beside it, or give this one another name; if it is this one, ${IMPORT}`;
  return mayDuplicate(operation, id, "application", entry, "the service accepts duplicate names", wayOut);
}

/**
 * POST /public-api/applications, reconciled: after a failure that may have created the application (no answer, a
 * 5xx, an unreadable body), the account is listed before anything else is done, so that a lost answer never makes
 * a second application. Returns the application, or throws: a plain failure when nothing was created, a partial
 * create (id `pending/<name>`, no applicationId) when the outcome stays unknown.
 */
async function createReconciled(
  fm: FeatureManagementConnection,
  operation: string,
  name: string,
  inputs: Props,
  existingIds: readonly string[],
): Promise<Application> {
  for (let round = 1; ; round++) {
    try {
      return await fm.client.createApplication(name);
    } catch (e) {
      if (!outcomeUnknown(e)) throw failed(operation, undefined, e);
      const found = await reconcile(fm, name, existingIds);
      if (found.kind === "created") return found.app;
      if (found.kind === "absent" && round < CREATE_ROUNDS) continue;
      if (found.kind === "absent") {
        throw failed(operation, undefined, e);
      }
      if (found.kind === "several") throw severalNew(operation, undefined, name, found.apps, e);
      if (found.kind === "unreadable") {
        // The POST may have made it: recorded as pending, so the next up or refresh looks again before anything else.
        const stopped = unreadableMayBeIt(operation, undefined, found.entry, true);
        const pending = `${stopped.message}. It is recorded as pending: the next \`pulumi up\` or \`pulumi refresh\` lists the account again`;
        throw partiallyCreated(pending, `${PENDING_ID_PREFIX}${name}`, pendingOutputs(name, inputs, existingIds), inputs, e);
      }
      throw partiallyCreated(
        `${operation}: the create got no answer (${messageOf(e)}) and the account could not be listed to find out ` +
          `whether the application was created (${messageOf(found.error)}). It is recorded as pending: the next ` +
          `\`pulumi up\` or \`pulumi refresh\` looks for a new application named "${name}" and adopts it, or creates it ` +
          `when there is none. To check by hand: list the account's applications named "${name}"`,
        `${PENDING_ID_PREFIX}${name}`,
        pendingOutputs(name, inputs, existingIds),
        inputs,
        e,
      );
    }
  }
}

/** Several applications of the name appeared during a create whose answer was lost: none can be told to be ours. */
function severalNew(operation: string, id: string | undefined, name: string, apps: Application[], cause?: unknown): Error {
  return operationFailed(
    operation,
    id,
    `a create of "${name}" got no answer, and ${apps.length} new applications of that name appeared meanwhile ` +
      `(ids ${apps.map((a) => quoted(a.id)).join(", ")}): another process creates the same name. Fix: keep one, remove the ` +
      `others in the Feature Management UI, and run \`pulumi up\` with adoptExisting: true`,
    cause,
  );
}

/** A create whose outcome is unknown: no applicationId yet, and the ids that existed before it. */
function pendingOutputs(name: string, inputs: Props, existingIds: readonly string[]): Props {
  const out: Props = { applicationId: "", name, adopted: false, pendingCreate: { existingIds: [...existingIds] } };
  if (typeof inputs.adoptExisting === "boolean") out.adoptExisting = inputs.adoptExisting;
  return plain(out);
}

function pendingIds(props: Props): string[] | undefined {
  const pending = props.pendingCreate as { existingIds?: unknown } | undefined;
  return pending && Array.isArray(pending.existingIds) ? pending.existingIds.map(String) : undefined;
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const name = String(inputs.name);
  const operation = `creating ${TYPE_NAME} "${name}"`;
  const fm = connect(operation, undefined);
  // The account before the create: what a lost answer is reconciled against (and what adoptExisting adopts).
  const account = accountSnapshotOf(fm.client);
  let listed: Awaited<ReturnType<typeof account.applications>>;
  try {
    listed = await account.applications();
  } catch (e) {
    throw failed(operation, undefined, e);
  }
  const same = listed.apps.filter((a) => a.name === name);
  if (inputs.adoptExisting === true) {
    if (same.length > 1) {
      throw operationFailed(
        operation,
        undefined,
        `adoptExisting: the account has ${same.length} applications named "${name}" (ids ${same.map((a) => quoted(a.id)).join(", ")}), ` +
          `so there is no single one to adopt. Fix: rename or remove the extra ones in the Feature Management UI, or give a new name`,
      );
    }
    if (same.length === 1) return { id: same[0]!.id, outs: plain({ ...outputsOf(same[0]!, inputs, true) }) };
    // The application to adopt may be one the list holds in a form this version cannot read: a POST would duplicate it.
    const entry = couldBeNamed(listed.unreadable, name);
    if (entry) throw unreadableMayBeIt(operation, undefined, entry);
  }
  const app = await createReconciled(fm, operation, name, inputs, same.map((a) => a.id));
  account.record(app);
  return { id: app.id, outs: plain({ ...outputsOf(app, inputs, false) }) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const operation = `reading ${TYPE_NAME}`;
  const fm = connect(operation, id);
  const existingIds = pendingIds(props);
  if (existingIds && !props.applicationId) {
    // A create whose outcome was unknown: the account says now.
    const name = String(props.name);
    const found = await reconcile(fm, name, existingIds);
    if (found.kind === "absent") return {};
    if (found.kind === "unknown") throw failed(operation, id, found.error);
    if (found.kind === "unreadable") throw unreadableMayBeIt(operation, id, found.entry, true);
    if (found.kind === "several") {
      throw severalNew(operation, id, name, found.apps);
    }
    const inputs: Props = { name: found.app.name };
    if (typeof props.adoptExisting === "boolean") inputs.adoptExisting = props.adoptExisting;
    return { id: found.app.id, props: plain({ ...outputsOf(found.app, props, false) }), inputs };
  }
  let app: Application;
  try {
    app = await fm.client.getApplication(typeof props.applicationId === "string" && props.applicationId ? props.applicationId : id);
  } catch (e) {
    if (e instanceof NotFoundError) return {};
    throw failed(operation, id, e);
  }
  const outs = outputsOf(app, props, props.adopted === true);
  const inputs: Props = { name: app.name };
  if (typeof props.adoptExisting === "boolean") inputs.adoptExisting = props.adoptExisting;
  return { id, props: plain({ ...outs }), inputs };
}

async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const existingIds = pendingIds(olds);
  if (existingIds && !olds.applicationId) {
    // Finishing a create whose outcome was unknown: adopt what it made, or create it now that it is known absent.
    const name = String(news.name);
    const operation = `updating ${TYPE_NAME} "${name}"`;
    const fm = connect(operation, id);
    const found = await reconcile(fm, name, existingIds);
    if (found.kind === "created") return { outs: plain({ ...outputsOf(found.app, news, false) }) };
    if (found.kind === "unknown") throw failed(operation, id, found.error);
    if (found.kind === "unreadable") throw unreadableMayBeIt(operation, id, found.entry, true);
    if (found.kind === "several") {
      throw severalNew(operation, id, name, found.apps);
    }
    const app = await createReconciled(fm, operation, name, news, existingIds);
    return { outs: plain({ ...outputsOf(app, news, false) }) };
  }
  // diff replaces on a name change, so only adoptExisting (create-only) can differ here: nothing to send.
  const app = { id, name: String(olds.name ?? news.name) };
  return { outs: plain({ ...outputsOf(app, news, olds.adopted === true) }) };
}

async function remove(id: string, props: Props): Promise<void> {
  warn(
    `${TYPE_NAME} "${String(props.name)}" (${id}) stays in the feature-flag account: the applications API cannot delete ` +
      `applications. It is removed from the stack only; delete it in the CloudBees Feature Management UI if it is no longer needed.`,
  );
}

export const application: ResourceController = { check, diff, create, read, update, delete: remove };
