/**
 * Items: creates (or updates) the items of an items.yaml text on an instance, in the style of pulumi-command: it
 * runs on create and again when `yaml`, `path` or `triggers` change.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | yaml parses as YAML and holds an `items` list; path a full path; instanceUrl an http(s) base URL |
 * | diff | nothing | instanceUrl change replaces; yaml, path or triggers change runs again (update) |
 * | create, update | POST casc-items/create-items?path= with the YAML as the body (text/yaml) | never retried: it could create items twice |
 * | read | nothing | the API has no read of "the items of this YAML": the state stays |
 * | delete | nothing (a warning) | the API cannot delete items: they stay on the instance |
 */
import { yaml } from "../../libraries";
import { NotFoundError, RequestRejectedError } from "../../http/errors";
import { actionDiff, echoInputs, unchangedRead, type ActionInputsSpec } from "../shared/actions";
import { InputChecker } from "../shared/check";
import { warn } from "../shared/errors";
import { instance, instanceCallFailed } from "../shared/instance";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { isUnknown, plain } from "../shared/values";
import { idOf, INPUT_KEYS, TYPE_NAME } from "./types";

const SPEC: ActionInputsSpec = { replaceOn: ["instanceUrl"], rerunOn: ["yaml", "path"] };

const EXAMPLE_YAML = 'items:\\n  - kind: "folder"\\n    name: "team-a"';

/** Why the items YAML cannot work, or undefined: it is read here as the instance will read it. */
export function itemsYamlProblem(text: string): string | undefined {
  const doc = yaml().parseDocument(text);
  if (doc.errors.length) {
    // The parser's first line names the fault and where ("... at line 2, column 1:").
    return `yaml is not valid YAML: ${doc.errors[0]!.message.split("\n")[0]!.replace(/:$/, "")}`;
  }
  const value: unknown = doc.toJS();
  if (value === null || typeof value !== "object" || Array.isArray(value) || !Array.isArray((value as Record<string, unknown>).items)) {
    return `yaml must hold a mapping with an "items" list (as an items.yaml file does), e.g. "${EXAMPLE_YAML}"`;
  }
  return undefined;
}

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news);
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
  const path = c.text("path", { required: false, example: "team-a" });
  if (path !== undefined) c.fullPath("path", path);
  c.instanceUrl("instanceUrl");
  c.triggers();
  return { inputs: news, failures: c.failures };
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  return actionDiff(olds, news, SPEC);
}

async function createItems(operation: string, id: string, inputs: Props): Promise<Props> {
  const instanceUrl = typeof inputs.instanceUrl === "string" ? inputs.instanceUrl : undefined;
  const path = typeof inputs.path === "string" ? inputs.path : undefined;
  const conn = instance(operation, id, instanceUrl);
  const where = conn.isOperationsCenter ? "the operations center" : `the instance at ${conn.url}`;
  try {
    const result = await conn.client.createItems(String(inputs.yaml), path === undefined ? {} : { path });
    return plain({ ...echoInputs(inputs, INPUT_KEYS), basePath: result.basePath });
  } catch (e) {
    if (e instanceof NotFoundError && path !== undefined) {
      throw instanceCallFailed(
        conn,
        operation,
        id,
        e,
        `path "${path}" names no folder on ${where}: create-items puts items only in a folder that exists. Fix: create ` +
          `the folder first (an Items resource at its parent whose yaml declares it, with dependsOn), or correct path`,
      );
    }
    if (e instanceof RequestRejectedError) {
      throw instanceCallFailed(
        conn,
        operation,
        id,
        e,
        `${where} refused the items (${e.status}): ${e.bodyExcerpt ?? "no reason given"}. Fix the yaml input` +
          (path !== undefined ? ` (or path "${path}", if it is not a folder)` : ""),
      );
    }
    throw instanceCallFailed(conn, operation, id, e);
  }
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const id = idOf(typeof inputs.instanceUrl === "string" ? inputs.instanceUrl : undefined, typeof inputs.path === "string" ? inputs.path : undefined);
  return { id, outs: await createItems(`creating ${TYPE_NAME}`, id, inputs) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  return unchangedRead(id, props, INPUT_KEYS);
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  // Every change but instanceUrl (a replace) is one that re-runs: yaml, path, triggers.
  return { outs: await createItems(`updating ${TYPE_NAME}`, id, news) };
}

async function remove(id: string, props: Props): Promise<void> {
  const where = typeof props.instanceUrl === "string" ? `the instance at ${props.instanceUrl}` : "the operations center";
  const folder = typeof props.basePath === "string" && props.basePath !== "" ? `folder "${props.basePath}"` : "the root";
  warn(
    `${TYPE_NAME} (${id}): the CasC API cannot delete items, so the items of this YAML stay in ${folder} of ${where}. ` +
      `Delete them in the UI, or let a bundle's items remove strategy (sync, remove-all) remove them.`,
  );
}

export const items: ResourceController = { check, diff, create, read, update, delete: remove };
