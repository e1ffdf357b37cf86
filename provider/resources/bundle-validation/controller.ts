/**
 * BundleValidation: stops a bad bundle before it is checked out, assigned or reloaded. Other resources depend on it
 * (dependsOn): when it fails, the engine creates and updates none of them.
 *
 * | operation | calls | notes |
 * |---|---|---|
 * | check | nothing (reads the local files) | exactly one of bundlePath / bundleTreePath, an existing folder; computes contentHash |
 * | diff | nothing | bundlePath / bundleTreePath change replaces; contentHash, instanceUrl, bundles (as a set), branch or triggers change validates again (update) |
 * | create, update | lint (provider/bundle), then POST casc-bundle-mgnt/casc-bundle-validate on the instance, or POST casc-bundle/pre-validate-bundle on the operations center | any ERROR (lint or server) fails the step, listing every message |
 * | read | nothing | the state stays (a refresh must not take in a changed bundle without validating it) |
 * | delete | nothing | validation changed nothing remotely |
 *
 * check runs in the provider host, whose working directory is the program's folder: relative paths resolve from
 * there, as they do for the program. contentHash is computed there, so that the diff sees a changed bundle (and
 * validates it again) and an unchanged one makes no request: bundlePath, the SHA-256 of the bundle's files
 * (bundleHash); bundleTreePath, the SHA-256 of the deterministic zip sent to pre-validate-bundle (the bundles asked
 * for and their parents).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { InstanceValidation, PreValidationEntry } from "../../clients/casc-types";
import { readableItems } from "../../clients/readable-items";
import type { ReadableList } from "../../clients/readable-list-types";
import { bounded } from "../../http/response-text";
import { branchFolderName, zipBundleTree } from "../../bundle/bundle-zips";
import { DESCRIPTOR_FILE, readBundleFolder, readBundleTree } from "../../bundle/files";
import { hashFiles } from "../../bundle/hash";
import { lintBundle, type LintResult } from "../../bundle/lint";
import { zipFiles } from "../../bundle/zip";
import { RequestRejectedError, ServerError } from "../../http/errors";
import { actionDiff, changed, echoInputs, unchangedRead } from "../shared/actions";
import { InputChecker } from "../shared/check";
import { messageOf, operationFailed, warn } from "../shared/errors";
import { instance, instanceCallFailed, operationsCenterInstance, type InstanceConnection } from "../shared/instance";
import type { CheckResult, DiffResult, Props, ReadResult, ResourceController } from "../shared/types";
import { containsUnknown, isUnknown, plain, sameJson } from "../shared/values";
import { bundleSet, ECHOED_KEYS, idOf, TYPE_NAME } from "./types";
import { printable, quoted } from "../../text/printable";

/** What is validated, read from disk once: the zip sent, its hash and the local lint. */
interface Prepared {
  zip: Buffer;
  contentHash: string;
  lint: { prefix: string; result: LintResult }[];
}

function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The bundle folders below `root`; none when it cannot be read (the caller reports unreadable paths itself). */
function bundleFolders(root: string): string[] {
  try {
    return [...readBundleTree(root).keys()];
  } catch {
    return [];
  }
}

const treeMode = (inputs: Props): boolean => typeof inputs.bundleTreePath === "string";
const optionalString = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

async function prepare(inputs: Props, withLint: boolean): Promise<Prepared> {
  if (treeMode(inputs)) {
    const root = path.resolve(String(inputs.bundleTreePath));
    const bundles = Array.isArray(inputs.bundles) ? (inputs.bundles as string[]) : undefined;
    const zip = await zipBundleTree(root, { bundles, branch: optionalString(inputs.branch) });
    const names = bundles ?? [...readBundleTree(root).keys()];
    const lint = withLint ? names.map((name) => ({ prefix: `${name}: `, result: lintBundle(path.join(root, ...name.split("/")), { siblingsRoot: root }) })) : [];
    return { zip, contentHash: createHash("sha256").update(zip).digest("hex"), lint };
  }
  const dir = path.resolve(String(inputs.bundlePath));
  const { files } = readBundleFolder(dir);
  const lint = withLint ? [{ prefix: "", result: lintBundle(dir) }] : [];
  return { zip: await zipFiles(files), contentHash: hashFiles(files), lint };
}

async function check(_olds: Props, news: Props): Promise<CheckResult> {
  const c = new InputChecker(news, ECHOED_KEYS);
  const inputs: Props = { ...news };
  delete inputs.contentHash;
  const hasBundle = c.has("bundlePath");
  const hasTree = c.has("bundleTreePath");
  if (hasBundle && hasTree && !c.unknown("bundlePath") && !c.unknown("bundleTreePath")) {
    c.fail("bundlePath", "give either bundlePath (one bundle folder, validated with casc-bundle-validate) or bundleTreePath (a folder of bundle folders, pre-validated on the operations center), not both");
  } else if (!hasBundle && !hasTree) {
    c.fail("bundlePath", 'give bundlePath (a bundle folder holding bundle.yaml, e.g. bundlePath: "bundles/team-a") or bundleTreePath (a folder of bundle folders, e.g. bundleTreePath: "bundles")');
  }
  const cwd = process.cwd();
  const bundlePath = hasBundle ? c.filePath("bundlePath", { required: false, example: "bundles/team-a" }) : undefined;
  if (bundlePath !== undefined) {
    const abs = path.resolve(bundlePath);
    if (!isFolder(abs)) {
      c.fail("bundlePath", `bundlePath "${bundlePath}" is not a folder (resolved from ${cwd}, the program's folder, to ${abs}). Fix the path: relative paths start at the program's folder`);
    } else if (!fs.existsSync(path.join(abs, DESCRIPTOR_FILE))) {
      const holdsBundles = bundleFolders(abs).length > 0;
      c.fail(
        "bundlePath",
        `bundlePath "${bundlePath}" holds no bundle.yaml, so it is not a bundle folder` +
          (holdsBundles ? `; it holds bundle folders: to validate them, write bundleTreePath: "${bundlePath}" instead` : `. Fix: point it at the folder that holds bundle.yaml`),
      );
    }
  }
  const treePath = hasTree ? c.filePath("bundleTreePath", { required: false, example: "bundles" }) : undefined;
  let treeNames: string[] | undefined;
  if (treePath !== undefined) {
    const abs = path.resolve(treePath);
    if (!isFolder(abs)) {
      c.fail("bundleTreePath", `bundleTreePath "${treePath}" is not a folder (resolved from ${cwd}, the program's folder, to ${abs}). Fix the path: relative paths start at the program's folder`);
    } else {
      try {
        treeNames = [...readBundleTree(abs).keys()];
      } catch (e) {
        treeNames = [];
        c.fail("bundleTreePath", `bundleTreePath "${treePath}" cannot be read (resolved to ${abs}): ${messageOf(e)}. Fix the path or the folder's permissions`);
      }
      if (treeNames.length === 0 && c.failures.every((f) => f.property !== "bundleTreePath")) {
        c.fail(
          "bundleTreePath",
          `bundleTreePath "${treePath}" holds no bundle folder (a folder with a bundle.yaml)` +
            (fs.existsSync(path.join(abs, DESCRIPTOR_FILE)) ? `; it is a bundle itself: write bundlePath: "${treePath}" instead` : ""),
        );
      }
    }
  }
  const bundles = c.stringList("bundles", { required: false, example: "team-a" });
  if (c.has("bundles") && !hasTree) c.fail("bundles", "bundles goes with bundleTreePath (the bundles of the tree to pre-validate); with bundlePath, leave it out");
  if (bundles && treeNames && treeNames.length > 0) {
    for (const name of bundles) {
      if (!treeNames.includes(name)) {
        c.fail("bundles", `bundles: "${name}" is not a bundle folder below bundleTreePath "${treePath}"; the bundles there are ${treeNames.map((n) => `"${n}"`).join(", ")}`);
      }
    }
  }
  const branch = c.text("branch", { required: false, example: "main" });
  if (branch !== undefined) {
    if (!hasTree) c.fail("branch", "branch goes with bundleTreePath (the zip's branch folder); with bundlePath, leave it out");
    try {
      branchFolderName(branch);
    } catch (e) {
      c.fail("branch", `branch: ${messageOf(e)}, e.g. "main" or "feature/new-agents"`);
    }
  }
  c.instanceUrl("instanceUrl");
  if (c.has("instanceUrl") && hasTree) {
    c.fail("instanceUrl", "instanceUrl goes with bundlePath: pre-validate-bundle (bundleTreePath) runs on the operations center only; leave it out");
  }
  c.triggers();

  // The hash of what would be validated, so that diff sees a changed bundle; unknown while a path is not known yet.
  const pathsKnown = !containsUnknown(news.bundlePath) && !containsUnknown(news.bundleTreePath) && !containsUnknown(news.bundles) && !isUnknown(news.branch);
  if (c.failures.length === 0 && pathsKnown) {
    try {
      inputs.contentHash = (await prepare(news, false)).contentHash;
    } catch (e) {
      c.fail(hasTree ? "bundleTreePath" : "bundlePath", `cannot read the bundle files: ${messageOf(e)}`);
    }
  }
  return c.result(inputs);
}

async function diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
  const base = actionDiff(olds, news, { replaceOn: ["bundlePath", "bundleTreePath"], rerunOn: ["contentHash", "instanceUrl", "branch"] });
  const bundlesChanged = containsUnknown(news.bundles) || !sameJson(bundleSet(olds.bundles), bundleSet(news.bundles));
  // A hash not computed (a path not known yet) is a change too: `changed` sees undefined against the old hash.
  return { ...base, changes: base.changes || bundlesChanged || changed(olds, news, "contentHash") };
}

/** The server's verdict as message strings, and whether it found an ERROR. */
function serverMessages(result: InstanceValidation): { messages: string[]; failed: boolean } {
  const messages = result["validation-messages"] ?? [];
  return { messages, failed: !result.valid || messages.some((m) => m.startsWith("ERROR")) };
}

/**
 * The pre-validation's verdicts as message strings, and whether one found an ERROR. A verdict this version cannot
 * read is said once (a warning naming its bundle) and is no pass: the step fails, naming it (`unread`).
 */
function preValidationMessages(list: ReadableList<PreValidationEntry>): { messages: string[]; failed: boolean; unread?: string } {
  const messages: string[] = [];
  let failed = list.unreadable.length > 0;
  const unread = list.unreadable.map((u) => (u.name === undefined ? `verdict ${u.index + 1}` : `the verdict of ${quoted(bounded(u.name, 200))}`));
  for (const { bundle, result: r } of readableItems({ warn }, list, "bundle", "pre-validating bundles")) {
    if (!r.valid) failed = true;
    for (const v of r.structureValidations) {
      messages.push(`${bundle}: ${v.level} - ${v.message}`);
      if (v.level === "ERROR") failed = true;
    }
    for (const cv of r.controllerValidations) {
      for (const v of cv.validations ?? []) {
        messages.push(`${bundle} on controller ${cv.controller}: ${v.level} - ${v.message}`);
        if (v.level === "ERROR") failed = true;
      }
    }
  }
  return { messages, failed, ...(unread.length ? { unread: unread.join(", ") } : {}) };
}

/** Messages one a line, indented: each one line (printable), so that no message of a server adds a line of its own. */
function indent(lines: string[]): string {
  return lines.map((l) => `  ${printable(l)}`).join("\n");
}

/** Lint, then the server; throws listing every message when either found an ERROR. Returns the outputs. */
async function validate(operation: string, id: string, inputs: Props): Promise<Props> {
  const tree = treeMode(inputs);
  const subject = tree ? `bundle tree "${String(inputs.bundleTreePath)}"` : `bundle "${String(inputs.bundlePath)}"`;
  let prepared: Prepared;
  try {
    prepared = await prepare(inputs, true);
  } catch (e) {
    throw operationFailed(operation, id, `cannot read ${subject}: ${messageOf(e)}. Fix the ${tree ? "bundleTreePath or bundles" : "bundlePath"} input`, e);
  }
  const lintMessages = prepared.lint.flatMap(({ prefix, result }) => result.format().map((m) => `${prefix}${m}`));
  const lintFailed = prepared.lint.some(({ result }) => !result.valid);

  // A bundle tree goes to the operations center's pre-validate-bundle; a single bundle to an instance.
  const oc = tree ? operationsCenterInstance(operation, id) : undefined;
  const conn: InstanceConnection = oc ?? instance(operation, id, optionalString(inputs.instanceUrl));
  const endpoint = tree
    ? `pre-validate-bundle on the operations center (${conn.url})`
    : `casc-bundle-validate on ${conn.isOperationsCenter ? "the operations center" : "the instance"} (${conn.url})`;
  let verdict: { messages: string[]; failed: boolean; refusal?: string; unread?: string };
  try {
    verdict = oc
      ? preValidationMessages(await oc.client.readPreValidation(prepared.zip))
      : serverMessages(await conn.client.validateBundle(prepared.zip));
  } catch (e) {
    // A bundle the server cannot even read (an inconsistency such as a reference to a missing file, a missing
    // descriptor, a zip it cannot open) is refused with an error body: that is its verdict, in its words.
    const verdictError = tree ? e instanceof RequestRejectedError : e instanceof ServerError && /^Invalid /.test(e.bodyExcerpt ?? "");
    if (!verdictError) throw instanceCallFailed(conn, operation, id, e);
    const err = e as RequestRejectedError | ServerError;
    verdict = { messages: [], failed: true, refusal: `${err.bodyExcerpt === undefined ? "no reason given" : quoted(err.bodyExcerpt)} (status ${err.status})` };
  }

  if (verdict.failed || lintFailed) {
    const lintOnly = lintMessages.filter((m) => !verdict.messages.includes(m));
    const errors = [...verdict.messages, ...lintOnly].filter((m) => /(^|: )ERROR - /.test(m)).length;
    const sections: string[] = [];
    if (verdict.refusal) sections.push(`${endpoint} refused it: ${verdict.refusal}`);
    if (verdict.unread) sections.push(`${endpoint} answered ${verdict.unread} in a form this version of pulumi-cloudbees cannot read (see the warning): not a pass`);
    if (verdict.messages.length) sections.push(`${endpoint} reported:\n${indent(verdict.messages)}`);
    else if (!verdict.refusal && !verdict.unread) sections.push(`${endpoint} reported no ERROR`);
    if (lintOnly.length) sections.push(`the local lint (provider/bundle) ${verdict.messages.length || verdict.refusal ? "also " : ""}reported:\n${indent(lintOnly)}`);
    throw operationFailed(
      operation,
      id,
      `${subject} is not valid${errors ? ` (${errors} error${errors === 1 ? "" : "s"})` : ""}. ${sections.join("\n")}\n` +
        `Fix the bundle and run \`pulumi up\` again; resources that depend on this one (dependsOn) are not created or updated until it passes`,
    );
  }
  return plain({ ...echoInputs(inputs, ECHOED_KEYS), contentHash: prepared.contentHash, messages: verdict.messages, lintMessages });
}

async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const id = idOf(inputs);
  return { id, outs: await validate(`creating ${TYPE_NAME}`, id, inputs) };
}

async function read(id: string, props: Props): Promise<ReadResult> {
  return unchangedRead(id, props, ECHOED_KEYS);
}

async function update(id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  // Every change that reaches update (hash, instance, bundles, branch, triggers) asks for a new validation.
  return { outs: await validate(`updating ${TYPE_NAME}`, id, news) };
}

async function remove(): Promise<void> {
  // Nothing to undo: validating changed nothing on the server.
}

export const bundleValidation: ResourceController = { check, diff, create, read, update, delete: remove };
