/**
 * Application: an application of the feature-flag service. The service allows about one request per second per
 * client: every call goes through the process's one client per settings, which spaces them.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | name required |
 * | diff | nothing | a name change replaces; adoptExisting only matters to create |
 * | create | POST /public-api/applications; with adoptExisting, GET /public-api/applications first | |
 * | read | GET /public-api/applications/{id} | 404: dropped |
 * | update | nothing | only adoptExisting can change in place |
 * | delete | nothing (a warning) | the API cannot delete: the application stays in the account |
 */
import { featureManagement, type FeatureManagementConnection } from "../../config/clients";
import type { Application } from "../../clients/feature-management-schemas";
import { NotFoundError } from "../../http/errors";
import { InputChecker } from "../shared/check";
import { accessProblem, messageOf, operationFailed, warn } from "../shared/errors";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { isUnknown, plain } from "../shared/values";
import { TYPE_NAME, type ApplicationOutputs, INPUT_KEYS } from "./types";

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.text("name", { required: true, example: "web-shop" });
  c.boolean("adoptExisting", { required: false });
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = isUnknown(news.name) || news.name !== olds.name ? ["name"] : [];
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
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

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const name = String(inputs.name);
  const operation = `creating ${TYPE_NAME} "${name}"`;
  const fm = connect(operation, undefined);
  if (inputs.adoptExisting === true) {
    let apps: Application[];
    try {
      apps = await fm.client.listApplications();
    } catch (e) {
      throw failed(operation, undefined, e);
    }
    const same = apps.filter((a) => a.name === name);
    if (same.length > 1) {
      throw operationFailed(
        operation,
        undefined,
        `adoptExisting: the account has ${same.length} applications named "${name}" (ids ${same.map((a) => a.id).join(", ")}), ` +
          `so there is no single one to adopt. Fix: rename or remove the extra ones in the Feature Management UI, or give a new name`,
      );
    }
    if (same.length === 1) return { id: same[0]!.id, outs: plain({ ...outputsOf(same[0]!, inputs, true) }) };
  }
  let app: Application;
  try {
    app = await fm.client.createApplication(name);
  } catch (e) {
    throw failed(operation, undefined, e);
  }
  return { id: app.id, outs: plain({ ...outputsOf(app, inputs, false) }) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const operation = `reading ${TYPE_NAME}`;
  const fm = connect(operation, id);
  let app: Application;
  try {
    app = await fm.client.getApplication(id);
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
