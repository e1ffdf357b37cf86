/**
 * ControllerBundleAssignment: which bundle a controller uses.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | controllerPath a full path; bundleId required; fallbackBundleId differs from bundleId |
 * | diff | nothing | controllerPath change replaces; bundleId change updates in place |
 * | create | the shared GET casc-bundle/list; POST casc-bundle/set-controller-to-bundle unless the controller already uses the bundle | takeover: no write; fallbackBundleId must be available to the controller |
 * | update | as create, when bundleId changed | fallbackBundleId alone: the list, to check it |
 * | read | the shared GET casc-bundle/list | the bundle whose usedBy holds the controller; none: dropped |
 * | delete | with fallbackBundleId: shared list, then set-controller-to-bundle(fallback); else nothing | no unassign API |
 *
 * fallbackBundleId is checked when it is set (create, update), not first at destroy: a fallback that names no
 * bundle, or one not available to the controller, would fail the destroy late, with the rest of the stack left in the
 * state. Its availability may be declared in the same program (a BundleAvailability in dependsOn).
 */
import type { ListedBundle } from "../../clients/casc-types";
import { NotFoundError, RequestRejectedError } from "../../http/errors";
import { bundleNamesText, callFailed, casc, findBundleUsedBy, listBundles, listBundlesOrFail, type Casc } from "../shared/casc";
import { bundleNamed, bundleUsedBy } from "../shared/bundle-index";
import { controllerAssigned } from "../shared/bundle-list-cache";
import { InputChecker } from "../shared/check";
import { operationFailed, warn } from "../shared/errors";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { containsUnknown, isUnknown, plain } from "../shared/values";
import { controllerPathOf, idOf, TYPE_NAME, type ControllerBundleAssignmentInputs, INPUT_KEYS } from "./types";
import { quoted } from "../../text/printable";

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  c.fullPathText("controllerPath", { required: true, example: "team-a/controller-a" });
  const bundleId = c.text("bundleId", { required: true, example: "team-a" });
  const fallback = c.text("fallbackBundleId", { required: false, example: "base" });
  if (fallback !== undefined && fallback === bundleId) {
    c.fail("fallbackBundleId", `fallbackBundleId must differ from bundleId ("${bundleId}"): it is the bundle the controller gets when this resource is deleted; leave it out to keep the bundle`);
  }
  return c.result();
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = isUnknown(news.controllerPath) || news.controllerPath !== olds.controllerPath ? ["controllerPath"] : [];
  const changes =
    replaces.length > 0 ||
    containsUnknown(news.bundleId) ||
    news.bundleId !== olds.bundleId ||
    containsUnknown(news.fallbackBundleId) ||
    (news.fallbackBundleId ?? null) !== (olds.fallbackBundleId ?? null);
  return { changes, replaces, deleteBeforeReplace: false };
}

function outputsOf(inputs: Props): Props {
  return plain({ controllerPath: inputs.controllerPath, bundleId: inputs.bundleId, fallbackBundleId: inputs.fallbackBundleId });
}

/** Controllers the bundle list knows of (those that can use or use some bundle): for "unknown controller" messages. */
function knownControllers(bundles: ListedBundle[]): string[] {
  return [...new Set(bundles.flatMap((b) => [...b.availableFor, ...b.usedBy]))].sort();
}

/**
 * set-controller-to-bundle with errors that say which input is wrong: the list (fresh, after the failure) tells an
 * unknown bundle from an unknown controller, and a bundle not available to the controller from other refusals.
 */
async function assign(c: Casc, operation: string, id: string, controllerPath: string, bundleId: string, bundleInput: string): Promise<void> {
  try {
    await c.bundles.write(() => c.oc.client.setControllerToBundle(bundleId, controllerPath), controllerAssigned(bundleId, controllerPath));
  } catch (e) {
    if (e instanceof NotFoundError || e instanceof RequestRejectedError) {
      const bundles = await listBundles(c).catch(() => undefined);
      const bundle = bundles?.find((b) => b.name === bundleId);
      if (bundles && !bundle) {
        throw operationFailed(
          operation,
          id,
          `${bundleInput} "${bundleId}" names no bundle: ${bundleNamesText(bundles)}. Fix: set ${bundleInput} to one of them, ` +
            `or add the bundle to the bundle location and check it out`,
          e,
        );
      }
      if (bundle && e instanceof NotFoundError) {
        const known = knownControllers(bundles!);
        throw operationFailed(
          operation,
          id,
          `controllerPath "${controllerPath}" names no controller on the operations center. Fix: give the controller's ` +
            `full path as the operations center shows it (folder1/controller1)` +
            (known.length ? `; controllers seen in the bundle list: ${known.map(quoted).join(", ")}` : ""),
          e,
        );
      }
      if (bundle && e instanceof RequestRejectedError && !bundle.availableFor.includes(controllerPath)) {
        throw operationFailed(
          operation,
          id,
          `bundle "${bundleId}" (${bundleInput}) is not available to controller "${controllerPath}": the operations center ` +
            `assigns a bundle only to controllers its availability pattern allows. Fix: declare a BundleAvailability for ` +
            `bundle "${bundleId}" whose controllers (or regex) include "${controllerPath}", e.g. ` +
            `new BundleAvailability("...", { bundleId: "${bundleId}", controllers: ["${controllerPath}"] }), and make this ` +
            `resource depend on it (dependsOn); or, for a bundle without pattern, a GlobalAvailabilityPattern with visibility: true`,
          e,
        );
      }
    }
    throw callFailed(c, operation, id, e);
  }
}

/**
 * The fallback must be a bundle available to the controller now, so that the destroy that assigns it can succeed.
 * Nothing is written before this check.
 */
function checkFallback(bundles: ListedBundle[], operation: string, id: string, ins: ControllerBundleAssignmentInputs): void {
  const fallback = ins.fallbackBundleId;
  if (!fallback) return;
  const bundle = bundleNamed(bundles, fallback);
  const declare =
    `declare a BundleAvailability for bundle "${fallback}" whose controllers (or regex) include "${ins.controllerPath}", ` +
    `e.g. new BundleAvailability("...", { bundleId: "${fallback}", controllers: ["${ins.controllerPath}"] }), and add it to ` +
    `this resource's dependsOn`;
  if (!bundle) {
    throw operationFailed(
      operation,
      id,
      `fallbackBundleId "${fallback}" names no bundle: ${bundleNamesText(bundles)}. It is assigned when this resource is ` +
        `deleted, so it must exist now. Fix: set fallbackBundleId to one of them, or leave it out`,
    );
  }
  if (!bundle.availableFor.includes(ins.controllerPath)) {
    throw operationFailed(
      operation,
      id,
      `fallbackBundleId "${fallback}" is not available to controller "${ins.controllerPath}", so the delete that assigns it ` +
        `would fail. Fix: ${declare}; or leave fallbackBundleId out`,
    );
  }
}

/**
 * Makes the controller use `ins.bundleId` (after checking the fallback): no write when it already does (takeover).
 */
async function ensureAssigned(c: Casc, operation: string, id: string, ins: ControllerBundleAssignmentInputs): Promise<void> {
  const bundles = await listBundlesOrFail(c, operation, id);
  checkFallback(bundles, operation, id, ins);
  const current = bundleUsedBy(bundles, ins.controllerPath);
  if (current?.name === ins.bundleId) return;
  await assign(c, operation, id, ins.controllerPath, ins.bundleId, "bundleId");
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const ins = inputs as unknown as ControllerBundleAssignmentInputs;
  const id = idOf(ins.controllerPath);
  const operation = `creating ${TYPE_NAME}`;
  await ensureAssigned(casc(operation, id), operation, id, ins);
  return { id, outs: outputsOf(inputs) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const controllerPath = typeof props.controllerPath === "string" ? props.controllerPath : controllerPathOf(id);
  const operation = `reading ${TYPE_NAME}`;
  const c = casc(operation, id);
  let bundle: ListedBundle | undefined;
  try {
    bundle = await findBundleUsedBy(c, controllerPath);
  } catch (e) {
    throw callFailed(c, operation, id, e);
  }
  // No bundle lists the controller: unassigned in the UI, the controller deleted, or its bundle left the location.
  if (!bundle) return {};
  const inputs = plain({ controllerPath, bundleId: bundle.name, fallbackBundleId: props.fallbackBundleId });
  return { id, props: outputsOf(inputs), inputs };
}

async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const ins = news as unknown as ControllerBundleAssignmentInputs;
  if (ins.bundleId !== olds.bundleId || (ins.fallbackBundleId && ins.fallbackBundleId !== olds.fallbackBundleId)) {
    const operation = `updating ${TYPE_NAME}`;
    await ensureAssigned(casc(operation, id), operation, id, ins);
  }
  return { outs: outputsOf(news) };
}

async function remove(id: string, props: Props): Promise<void> {
  const controllerPath = typeof props.controllerPath === "string" ? props.controllerPath : controllerPathOf(id);
  const bundleId = String(props.bundleId ?? "");
  const fallback = typeof props.fallbackBundleId === "string" ? props.fallbackBundleId : undefined;
  const operation = `deleting ${TYPE_NAME}`;
  if (!fallback) {
    warn(
      `${TYPE_NAME} (${id}): the CasC API cannot unassign a bundle, so controller "${controllerPath}" keeps bundle ` +
        `"${bundleId}". Give fallbackBundleId to assign another bundle on delete, or change it in the controller's configuration.`,
    );
    return;
  }
  const c = casc(operation, id);
  let current: ListedBundle | undefined;
  try {
    current = await findBundleUsedBy(c, controllerPath);
  } catch (e) {
    throw callFailed(c, operation, id, e);
  }
  // Someone assigned another bundle since: theirs stays.
  if (current?.name !== bundleId) {
    warn(
      `${TYPE_NAME} (${id}): controller "${controllerPath}" no longer uses bundle "${bundleId}" ` +
        `(${current ? `it uses ${quoted(current.name)}` : "no bundle lists it"}); the fallback bundle "${fallback}" was not assigned.`,
    );
    return;
  }
  await assign(c, operation, id, controllerPath, fallback, "fallbackBundleId");
}

export const controllerBundleAssignment: ResourceController = { check, diff, create, read, update, delete: remove };
