/**
 * Items: creates (or updates) the items of an items.yaml text on an instance, in the style of pulumi-command: it
 * runs on create and again when `yaml`, `path` or `triggers` change.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | yaml parses as YAML and holds an `items` list; path a full path; instanceUrl an http(s) base URL |
 * | diff | nothing | instanceUrl change replaces; yaml, path or triggers change runs again (update) |
 * | create, update | POST casc-items/create-items?path= with the YAML as the body (text/yaml) | never repeated blindly: a lost answer is reconciled by reading the items (POST job/.../export/download/items.yaml): at most 50, none after one fails, none past 2 minutes; what is not read is a partial create |
 * | read | nothing | the API has no read of "the items of this YAML": the state stays |
 * | delete | on the operations center, for each controller the yaml declares: POST job/.../stopAction, then job/.../doDelete (as cb-ci/ci-casc-api-samples deleteManagedController.sh does); a warning for the other items | the CasC API cannot delete other items: they stay on the instance |
 */
import { CONTROLLER_ITEM_KINDS } from "../../bundle/item-kinds";
import { cascToJs, readYaml } from "../../bundle/yaml-reader";
import { yaml } from "../../libraries";
import { NotFoundError, outcomeUnknown, RequestRejectedError } from "../../http/errors";
import { actionDiff, echoInputs, unchangedRead, type ActionInputsSpec } from "../shared/actions";
import { InputChecker } from "../shared/check";
import { MAX_TEXT_BYTES, MAX_YAML_ALIASES } from "../../clients/limits";
import { messageOf, OutcomeUnknownError, partiallyCreated, warn } from "../shared/errors";
import { instance, instanceCallFailed, instanceDescription, type InstanceConnection, type OperationsCenterInstance } from "../shared/instance";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { isUnknown, plain } from "../shared/values";
import { idOf, INPUT_KEYS, TYPE_NAME } from "./types";
import { quoted } from "../../text/printable";
import { readableEntries } from "../shared/unreadable-entries";
import type { ReadableList } from "../../clients/readable-list-types";

const SPEC: ActionInputsSpec = { replaceOn: ["instanceUrl"], rerunOn: ["yaml", "path"] };

const EXAMPLE_YAML = 'items:\\n  - kind: "folder"\\n    name: "team-a"';

/** Anchors and aliases of a YAML text, counted in one pass of the lexer (their resolution by the parser is quadratic). */
function countReferences(text: string): { anchors: number; aliases: number } {
  const out = { anchors: 0, aliases: 0 };
  for (const token of new (yaml().Lexer)().lex(text)) {
    if (token[0] === "&") out.anchors++;
    else if (token[0] === "*") out.aliases++;
  }
  return out;
}

/** Why the items YAML cannot work, or undefined: it is read here as the instance will read it. */
export function itemsYamlProblem(text: string): string | undefined {
  if (Buffer.byteLength(text) > MAX_TEXT_BYTES) return `yaml is ${Buffer.byteLength(text)} bytes long; at most ${MAX_TEXT_BYTES} are allowed`;
  // Counted first, in one pass: the reader below would spend seconds on an anchor bomb.
  const references = countReferences(text);
  if (references.aliases > MAX_YAML_ALIASES) {
    return `yaml has ${references.aliases} aliases (*name); at most ${MAX_YAML_ALIASES} are allowed. Fix: write the items out instead of repeating aliases`;
  }
  if (references.anchors > MAX_YAML_ALIASES) return `yaml has ${references.anchors} anchors (&name); at most ${MAX_YAML_ALIASES} are allowed`;
  // The bundle toolkit's reader, as the instance reads it: YAML 1.1, one document, CASC_YAML_MAX_ALIASES.
  const read = readYaml(text);
  if (!read.ok && read.bound) {
    return `yaml cannot be read: ${read.error}. Fix: write the items out instead of nesting aliases (*name) of aliases`;
  }
  if (!read.ok) return `yaml is not valid YAML: ${read.error}`;
  const value = cascToJs(read.node);
  if (value === null || typeof value !== "object" || Array.isArray(value) || !Array.isArray((value as Record<string, unknown>).items)) {
    return `yaml must hold a mapping with an "items" list (as an items.yaml file does), e.g. "${EXAMPLE_YAML}"`;
  }
  return undefined;
}

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  // Not c.text: a YAML text may well end with a newline.
  const yaml = news.yaml;
  if (yaml === undefined || yaml === null) {
    c.fail("yaml", `yaml is required: give the items.yaml text, e.g. yaml: "${EXAMPLE_YAML}" (or fs.readFileSync("items.yaml", "utf8"))`);
  } else if (!isUnknown(yaml)) {
    if (typeof yaml !== "string") c.fail("yaml", `yaml must be the items.yaml text (a string), got ${typeof yaml}`);
    else if (yaml.trim() === "") c.fail("yaml", `yaml must not be empty: give the items.yaml text, e.g. "${EXAMPLE_YAML}"`);
    else {
      const problem = itemsYamlProblem(yaml);
      if (problem) c.fail("yaml", problem);
    }
  }
  c.fullPathText("path", { required: false, example: "team-a" });
  c.instanceUrl("instanceUrl");
  c.triggers();
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  return actionDiff(olds, news, SPEC);
}

/** The names of the top-level items of an items.yaml text (those create-items puts in the folder). */
function topLevelNames(text: string): string[] {
  const read = readYaml(text);
  const doc = (read.ok ? cascToJs(read.node) : null) as { items?: Array<{ name?: unknown }> } | null;
  return (doc?.items ?? []).map((i) => i?.name).filter((n): n is string => typeof n === "string");
}

/** `job/team-a/job/jobs/job/<name>`: an item's URI path below the instance. */
function itemUri(folder: string | undefined, name: string): string {
  return [...(folder ? folder.split("/") : []), name].map((segment) => `job/${segment}`).join("/");
}

interface Holdings {
  present: string[];
  missing: string[];
  unreadable: string[];
  /** Not read: past MAX_RECONCILE_READS, after an item that could not be read, or past the deadline. */
  unchecked: string[];
}

/** Items read at most to reconcile one lost create-items: each read is a request with its own retries. */
const MAX_RECONCILE_READS = 50;
/** The reconcile's overall time: no read starts after it (each read has the client's deadline too). */
const RECONCILE_DEADLINE_MS = 120_000;

/**
 * Which top-level items of the YAML the instance holds now (read one by one with the item export), within a bound:
 * at most MAX_RECONCILE_READS reads, none after one failed (the server is failing: asking about the others only
 * repeats that), none past the deadline. What is not read is reported as not checked.
 */
async function holdings(conn: InstanceConnection, path: string | undefined, names: string[]): Promise<Holdings> {
  const out: Holdings = { present: [], missing: [], unreadable: [], unchecked: [] };
  const deadline = Date.now() + RECONCILE_DEADLINE_MS;
  for (const [i, name] of names.entries()) {
    if (i >= MAX_RECONCILE_READS || out.unreadable.length > 0 || Date.now() > deadline) {
      out.unchecked = names.slice(i);
      break;
    }
    try {
      await conn.client.exportItem(itemUri(path, name), { section: "items.yaml" });
      out.present.push(name);
    } catch (e) {
      (e instanceof NotFoundError ? out.missing : out.unreadable).push(name);
    }
  }
  return out;
}

function listNames(names: string[]): string {
  const shown = names.slice(0, 20).map(quoted).join(", ");
  return names.length > 20 ? `${shown} and ${names.length - 20} more` : shown;
}

/**
 * POST casc-items/create-items, reconciled: when the answer is lost (no answer, a 5xx, an unreadable body), the
 * instance is asked which of the YAML's top-level items it holds before anything else is done. All of them: the
 * call went through. None: it did not, and it is sent once more. Otherwise the outcome is reported as it stands.
 */
async function createItems(operation: string, id: string, inputs: Props): Promise<Props> {
  const instanceUrl = typeof inputs.instanceUrl === "string" ? inputs.instanceUrl : undefined;
  const path = typeof inputs.path === "string" ? inputs.path : undefined;
  const conn = instance(operation, id, instanceUrl);
  const where = conn.isOperationsCenter ? "the operations center" : `the instance at ${conn.url}`;
  const names = topLevelNames(String(inputs.yaml));
  const done = (basePath: string) => plain({ ...echoInputs(inputs, INPUT_KEYS), basePath });
  for (let round = 1; ; round++) {
    try {
      const result = await conn.client.createItems(String(inputs.yaml), path === undefined ? {} : { path });
      return done(result.basePath);
    } catch (e) {
      if (!outcomeUnknown(e) || names.length === 0) throw itemsFailed(conn, operation, id, e, path, where);
      const held = await holdings(conn, path, names);
      if (held.present.length === names.length) {
        warn(`${TYPE_NAME} (${id}): create-items got no answer from ${where}, but the instance now holds every item of the yaml (${listNames(names)})`);
        return done(path ?? "");
      }
      if (held.present.length === 0 && held.unreadable.length === 0 && held.unchecked.length === 0 && round < 2) continue;
      throw new OutcomeUnknownError(
        `${operation} (${id}): create-items got no answer from ${where} (${messageOf(e)}). The instance now holds ` +
          `${held.present.length ? listNames(held.present) : "none"} of the yaml's ${names.length} top-level items` +
          (held.missing.length ? `; missing: ${listNames(held.missing)}` : "") +
          (held.unreadable.length ? `; could not be read: ${listNames(held.unreadable)}` : "") +
          (held.unchecked.length ? `; not checked: ${listNames(held.unchecked)}` : "") +
          `. Check ${path ? `folder "${path}" of ` : ""}${where}, then run \`pulumi up\`: it sends the items again (create-items updates the items that exist)`,
        e,
      );
    }
  }
}

/** The failure of a create-items whose outcome is known, naming the input at fault. */
function itemsFailed(conn: InstanceConnection, operation: string, id: string, e: unknown, path: string | undefined, where: string): Error {
  if (e instanceof NotFoundError && path !== undefined) {
    return instanceCallFailed(
      conn,
      operation,
      id,
      e,
      `path "${path}" names no folder on ${where}: create-items puts items only in a folder that exists. Fix: create ` +
        `the folder first (an Items resource at its parent whose yaml declares it, with dependsOn), or correct path`,
    );
  }
  if (e instanceof RequestRejectedError) {
    return instanceCallFailed(
      conn,
      operation,
      id,
      e,
      `${where} refused the items (${e.status}): ${e.bodyExcerpt ?? "no reason given"}. Fix the yaml input` +
        (path !== undefined ? ` (or path "${path}", if it is not a folder)` : ""),
    );
  }
  return instanceCallFailed(conn, operation, id, e);
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const id = idOf(typeof inputs.instanceUrl === "string" ? inputs.instanceUrl : undefined, typeof inputs.path === "string" ? inputs.path : undefined);
  try {
    return { id, outs: await createItems(`creating ${TYPE_NAME}`, id, inputs) };
  } catch (e) {
    if (!(e instanceof OutcomeUnknownError)) throw e;
    // Recorded without `yaml`, so that the next up runs create-items again rather than taking it as done.
    const outs = echoInputs(inputs, INPUT_KEYS.filter((k) => k !== "yaml"));
    throw partiallyCreated(e.message, id, outs, inputs, e.cause);
  }
}

async function read(id: string, props: Props): Promise<ReadResult> {
  return unchangedRead(id, props, INPUT_KEYS);
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  // Every change but instanceUrl (a replace) is one that re-runs: yaml, path, triggers.
  return { outs: await createItems(`updating ${TYPE_NAME}`, id, news) };
}

/** The full paths of the controllers an items.yaml text declares (folders walked), below `basePath`. */
function controllersOf(text: string, basePath: string): string[] {
  const read = readYaml(text);
  const doc = (read.ok ? cascToJs(read.node) : null) as { items?: unknown } | null;
  const out: string[] = [];
  const walk = (items: unknown, prefix: string[]): void => {
    if (!Array.isArray(items)) return;
    for (const item of items as Array<{ kind?: unknown; name?: unknown; items?: unknown }>) {
      if (typeof item?.name !== "string") continue;
      if (CONTROLLER_ITEM_KINDS.includes(String(item.kind))) out.push([...prefix, item.name].join("/"));
      else walk(item.items, [...prefix, item.name]);
    }
  };
  walk(doc?.items, basePath === "" ? [] : basePath.split("/"));
  return out;
}

async function remove(id: string, props: Props): Promise<void> {
  const operation = `deleting ${TYPE_NAME}`;
  const instanceUrl = typeof props.instanceUrl === "string" ? props.instanceUrl : undefined;
  const basePath = typeof props.basePath === "string" ? props.basePath : "";
  const controllers = typeof props.yaml === "string" ? controllersOf(props.yaml, basePath) : [];
  const conn = controllers.length > 0 ? instance(operation, id, instanceUrl) : undefined;
  if (conn?.isOperationsCenter) await deleteControllers(conn as OperationsCenterInstance, operation, id, controllers);
  const deleted = conn?.isOperationsCenter ? controllers : [];
  const others = topLevelNames(typeof props.yaml === "string" ? props.yaml : "").filter((n) => !deleted.includes([basePath, n].filter(Boolean).join("/")));
  if (others.length === 0) return;
  const where = instanceDescription(instanceUrl);
  const folder = basePath !== "" ? `folder "${basePath}"` : "the root";
  warn(
    `${TYPE_NAME} (${id}): the CasC API cannot delete items, so ${listNames(others)} of this YAML stay in ${folder} of ${where}. ` +
      `Delete them in the UI, or let a bundle's items remove strategy (sync, remove-all) remove them.`,
  );
}

/**
 * Stops and deletes each controller, as the samples do; one already gone counts as deleted. A lost answer of the
 * delete is reconciled by listing the controllers.
 */
async function deleteControllers(conn: OperationsCenterInstance, operation: string, id: string, controllers: string[]): Promise<void> {
  for (const controller of controllers) {
    try {
      await conn.client.stopController(controller);
      await conn.client.deleteItem(controller);
    } catch (e) {
      if (e instanceof NotFoundError) continue;
      if (outcomeUnknown(e)) {
        const listed = await conn.client.readControllerItemList().catch(() => undefined);
        if (listed && isGone(listed, controller)) continue;
      }
      throw instanceCallFailed(conn, operation, id, e, `controller "${controller}" could not be deleted: ${messageOf(e)}. Run \`pulumi destroy\` again`);
    }
  }
}

/**
 * Whether the Controllers view shows the controller gone: no item read is it, and no item it cannot read may be it
 * (named by its full path or its name, or not named at all). Those it cannot read are said once, in a warning.
 */
function isGone(listed: ReadableList<{ fullPath: string }>, controller: string): boolean {
  const name = controller.slice(controller.lastIndexOf("/") + 1);
  const read = readableEntries(listed, "controller", "listing the controllers");
  return !read.some((c) => c.fullPath === controller) && !listed.unreadable.some((u) => u.name === undefined || u.name === controller || u.name === name);
}

export const items: ResourceController = { check, diff, create, read, update, delete: remove };
