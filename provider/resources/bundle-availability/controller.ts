/**
 * BundleAvailability: the availability pattern of one bundle, set through the API.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing | bundleId required; exactly one of regex / controllers; regex must compile; full paths only |
 * | diff | nothing | bundleId change replaces; pattern compared canonically (controllers as a set) |
 * | create, update | the shared GET casc-bundle/list; POST casc-bundle/set-availability-pattern unless the API pattern is already the one asked for; nothing is read back (the answer is the state) | takeover: no write |
 * | read | the shared GET casc-bundle/list | bundle gone, or its API pattern gone: dropped |
 * | delete | POST casc-bundle/clear-availability-pattern | bundle.yaml's pattern (if any) applies again |
 *
 * Outputs are the pattern as the server holds it (and the controllers it was built from): who may use the bundle,
 * and who uses it, change with other resources and people, so they are not state (getBundle and getControllers
 * give them).
 */
import type { ListedBundle } from "../../clients/casc-types";
import { encodedQueryLength } from "../../clients/inputs";
import { MAX_QUERY_LENGTH } from "../../clients/limits";
import { NotFoundError, RequestRejectedError } from "../../http/errors";
import { availabilityPatternSet } from "../shared/bundle-list-cache";
import { bundleNamesText, callFailed, casc, findBundleOrFail, listBundles, type Casc } from "../shared/casc";
import { InputChecker } from "../shared/check";
import { operationFailed } from "../shared/errors";
import { controllersToPattern, patternToControllers, regexProblem } from "../shared/pattern";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { containsUnknown, isStringList, isUnknown, plain, sameSet } from "../shared/values";
import { bundleIdOf, idOf, TYPE_NAME, type BundleAvailabilityInputs, type BundleAvailabilityOutputs, INPUT_KEYS } from "./types";
import { quoted } from "../../text/printable";

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, INPUT_KEYS);
  const bundleId = c.text("bundleId", { required: true, example: "team-a" });
  const hasRegex = c.has("regex");
  const hasControllers = c.has("controllers");
  // A value not known yet may still turn out undefined: only two known values conflict.
  if (hasRegex && hasControllers && !c.unknown("regex") && !c.unknown("controllers")) {
    c.fail("regex", "give either regex or controllers, not both: regex is a pattern over full controller paths, controllers a list of them");
  } else if (!hasRegex && !hasControllers) {
    c.fail(
      "controllers",
      'give either regex (a pattern over full controller paths, e.g. regex: "team-a/.*") or controllers (e.g. controllers: ["team-a/controller-a"])',
    );
  }
  if (hasRegex && !c.unknown("regex")) {
    const regex = news.regex;
    if (typeof regex !== "string") {
      c.fail("regex", `regex must be a string (a regular expression over full controller paths), got ${typeof regex}`);
    } else {
      const problem = regexProblem(regex);
      if (problem) {
        c.fail("regex", `regex "${regex}" is not a valid regular expression: ${problem}. Fix the pattern, or list the controllers with controllers: [...]`);
      }
    }
  }
  if (hasControllers && !c.unknown("controllers")) {
    const list = news.controllers;
    if (!Array.isArray(list)) {
      c.fail("controllers", `controllers must be a list of full controller paths, e.g. ["team-a/controller-a"]`);
    } else if (list.length === 0) {
      c.fail(
        "controllers",
        'controllers must name at least one controller; to make the bundle available to none, use regex: "^$" (matches no controller)',
      );
    } else {
      // The pattern's length binds long before the list's: say that first.
      const fits = !(typeof bundleId === "string" && isStringList(list)) || queryFits(c, "controllers", bundleId, controllersToPattern(list), `the pattern of these ${list.length} controllers`);
      let ok = fits && c.listLength("controllers", list);
      list.forEach((item, i) => {
        if (!ok || isUnknown(item)) return;
        if (typeof item !== "string" || item.trim() === "") {
          c.fail("controllers", `controllers[${i}] must be a non-empty full controller path, e.g. "team-a/controller-a"`);
          ok = false;
        } else if (!c.fullPath(`controllers[${i}]`, item)) {
          ok = false;
        }
      });
    }
  }
  if (typeof bundleId === "string" && typeof news.regex === "string" && !c.failures.some((f) => f.property === "regex")) {
    queryFits(c, "regex", bundleId, news.regex, "regex");
  }
  return c.result();
}

/**
 * set-availability-pattern sends the pattern in the query string: one the server's header limit refuses (a bare 431)
 * fails here instead, naming the input and the limit.
 */
function queryFits(c: InputChecker, property: string, bundleId: string, regex: string, what: string): boolean {
  const length = encodedQueryLength({ bundleId, regex });
  if (length <= MAX_QUERY_LENGTH) return true;
  c.fail(
    property,
    `${what} would make a query string of ${length} characters once encoded; servers refuse more than about ` +
      `${MAX_QUERY_LENGTH} (431 Request Header Fields Too Large). Fix: use a shorter regex that matches them (e.g. "team-a/.*"), or fewer controllers`,
  );
  return false;
}

/** The pattern the inputs ask for. */
function desiredPattern(inputs: Props): string {
  return isStringList(inputs.controllers) ? controllersToPattern(inputs.controllers) : String(inputs.regex ?? "");
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const replaces = isUnknown(news.bundleId) || news.bundleId !== olds.bundleId ? ["bundleId"] : [];
  const changes =
    replaces.length > 0 ||
    containsUnknown(news.regex) ||
    containsUnknown(news.controllers) ||
    // The form changed (regex <-> controllers): same pattern perhaps, but the outputs must follow the inputs.
    isStringList(olds.controllers) !== isStringList(news.controllers) ||
    desiredPattern(news) !== olds.regex ||
    (isStringList(olds.controllers) && isStringList(news.controllers) && !sameSet(olds.controllers, news.controllers));
  return { changes, replaces, deleteBeforeReplace: false };
}

function outputsOf(inputs: Props, bundle: ListedBundle): BundleAvailabilityOutputs {
  const out: BundleAvailabilityOutputs = { bundleId: bundle.name, regex: bundle.regex };
  if (isStringList(inputs.controllers)) out.controllers = inputs.controllers;
  return out;
}

/** The outputs once set-availability-pattern has answered: the pattern asked for is the one in force. */
function desiredOutputs(inputs: Props): BundleAvailabilityOutputs {
  const out: BundleAvailabilityOutputs = { bundleId: String(inputs.bundleId), regex: desiredPattern(inputs) };
  if (isStringList(inputs.controllers)) out.controllers = inputs.controllers;
  return out;
}

/** The server already holds the pattern the inputs ask for, set through the API (not bundle.yaml's). */
function holdsPattern(bundle: ListedBundle | undefined, inputs: Props): bundle is ListedBundle {
  return bundle !== undefined && !bundle.availabilityPatternFromYaml && bundle.regex === desiredPattern(inputs);
}

/** set-availability-pattern with errors that name the input at fault and the fix. */
async function setPattern(c: Casc, operation: string, inputs: BundleAvailabilityInputs): Promise<void> {
  const id = idOf(inputs.bundleId);
  const regex = desiredPattern(inputs as unknown as Props);
  try {
    await c.bundles.write(() => c.oc.client.setAvailabilityPattern(inputs.bundleId, regex), availabilityPatternSet(inputs.bundleId, regex));
  } catch (e) {
    if (e instanceof NotFoundError) {
      const bundles = await listBundles(c).catch(() => undefined);
      if (bundles && !bundles.some((b) => b.name === inputs.bundleId)) {
        throw operationFailed(
          operation,
          id,
          `bundleId "${inputs.bundleId}" names no bundle: ${bundleNamesText(bundles)}. Fix: set bundleId to one of ` +
            `them, or add the bundle to the bundle location and check it out (POST casc-bundle/check-out)`,
          e,
        );
      }
    }
    if (e instanceof RequestRejectedError && e.status === 400) {
      throw operationFailed(
        operation,
        id,
        `the operations center refused the pattern "${regex}" (${e.bodyExcerpt === undefined ? "400" : quoted(e.bodyExcerpt)}). Fix the ${
          isStringList(inputs.controllers) ? "controllers" : "regex"
        } input`,
        e,
      );
    }
    throw callFailed(c, operation, id, e);
  }
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const ins = inputs as unknown as BundleAvailabilityInputs;
  const id = idOf(ins.bundleId);
  const operation = `creating ${TYPE_NAME}`;
  const c = casc(operation, id);
  // Takeover: a pattern the server already holds is recorded, not sent again.
  const current = await findBundleOrFail(c, ins.bundleId, operation, id);
  if (holdsPattern(current, inputs)) return { id, outs: plain({ ...outputsOf(inputs, current) }) };
  await setPattern(c, operation, ins);
  // The server answered the write: it holds the pattern asked for, so nothing is read back (and nothing can fail
  // after the pattern is set, leaving it half-created).
  return { id, outs: plain({ ...desiredOutputs(inputs) }) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  const bundleId = typeof props.bundleId === "string" ? props.bundleId : bundleIdOf(id);
  const operation = `reading ${TYPE_NAME}`;
  const c = casc(operation, id);
  const bundle = await findBundleOrFail(c, bundleId, operation, id);
  // Gone: the bundle left the location, or its API pattern was cleared (bundle.yaml's, or none, is in force).
  if (!bundle) return {};
  if (bundle.availabilityPatternFromYaml) return {};
  if (bundle.regex === "" && typeof props.regex === "string" && props.regex !== "") return {};

  // Drift shows in the form the program uses: controllers while the pattern still has that form, else regex.
  const inputs: Props = { bundleId };
  const listed = patternToControllers(bundle.regex);
  if (isStringList(props.controllers) && listed) {
    inputs.controllers = sameSet(listed, props.controllers) ? props.controllers : listed;
  } else {
    inputs.regex = bundle.regex;
  }
  return { id, props: plain({ ...outputsOf(inputs, bundle) }), inputs: plain(inputs) };
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  const ins = news as unknown as BundleAvailabilityInputs;
  const operation = `updating ${TYPE_NAME}`;
  const c = casc(operation, id);
  const current = await findBundleOrFail(c, ins.bundleId, operation, id);
  if (holdsPattern(current, news)) return { outs: plain({ ...outputsOf(news, current) }) };
  await setPattern(c, operation, ins);
  return { outs: plain({ ...desiredOutputs(news) }) };
}

async function remove(id: string, props: Props): Promise<void> {
  const bundleId = typeof props.bundleId === "string" ? props.bundleId : bundleIdOf(id);
  const operation = `deleting ${TYPE_NAME}`;
  const c = casc(operation, id);
  try {
    await c.bundles.write(() => c.oc.client.clearAvailabilityPattern(bundleId));
  } catch (e) {
    // The bundle is gone, and its pattern with it: nothing left to undo (any other 404 is an error).
    if (e instanceof NotFoundError) {
      const bundles = await listBundles(c).catch(() => undefined);
      if (bundles && !bundles.some((b) => b.name === bundleId)) return;
    }
    throw callFailed(c, operation, id, e);
  }
}

export const bundleAvailability: ResourceController = { check, diff, create, read, update, delete: remove };
