import type { FunctionHost } from "../functions/host";
import type { Props } from "../resources/shared/types";
import { pluginHost } from "./function-host";
import { inCallersWords } from "./input-spellings";

/**
 * The program functions the plugin serves as invokes (`cloudbees:index:<name>`), for programs in every language:
 * the reads of both APIs, run by the core's functions (provider/functions), which a TypeScript program calls through
 * sdk/functions, with the stack's `cloudbees:*` settings that configure gave the plugin. The schema's functions are made from this table and the
 * functions' TypeScript signatures (scripts/schema): an invoke's inputs are the function's parameters by name, and
 * its options (`connection`, `instance`, ...; never `settings`, which the stack config gives).
 *
 * The functions that take or give zips (validateBundle, preValidateBundles, getEffectiveBundle, exportEffectiveBundle,
 * exportConfigurationZip) are served in their invoke form (file-invokes.ts: zips as base64 text, no paths).
 *
 * Left out: getControllerBundleLink, whose token the ControllerBundleToken resource keeps as a secret.
 */
export interface InvokeSpec {
  /** The function's parameters before its options, by name, in order. */
  params: string[];
  /** A function that answers a list: the property of the invoke's result that holds it (an invoke answers an object). */
  listProperty?: string;
  /** A function that answers a text or a free-form object: the property of the invoke's result that holds it. */
  valueProperty?: string;
  /** Served in its invoke form (file-invokes.ts: zips as base64), not as the TypeScript face's function. */
  zips?: true;
}

export const INVOKES: Record<string, InvokeSpec> = {
  getApplications: { params: [], listProperty: "applications" },
  getApplication: { params: ["applicationId"] },
  getEnvironments: { params: ["applicationId"], listProperty: "environments" },
  getFlags: { params: ["applicationId", "environment"], listProperty: "flags" },
  getFlag: { params: ["applicationId", "environment", "flag"] },
  getExperiments: { params: ["applicationId", "environment"], listProperty: "experiments" },
  getTargetGroups: { params: ["applicationId"], listProperty: "targetGroups" },
  getAuditLogs: { params: ["applicationId", "environment", "startDate"], listProperty: "auditLogs" },
  getTeamMembers: { params: [], listProperty: "teamMembers" },
  getTeamMember: { params: ["email"] },
  getBundles: { params: [], listProperty: "bundles" },
  getBundle: { params: ["name"] },
  getControllers: { params: [], listProperty: "controllers" },
  getControllerItems: { params: [], listProperty: "items" },
  getRawBundleValidationLog: { params: [] },
  getEffectiveBundleValidationLog: { params: [] },
  getUpdateLog: { params: [] },
  checkBundleUpdate: { params: [] },
  exportConfiguration: { params: [], valueProperty: "text" },
  downloadEffectiveBundleFile: { params: ["fileName"], valueProperty: "text" },
  exportItem: { params: ["itemUri"], valueProperty: "text" },
  downloadSchema: { params: ["name"], valueProperty: "schema" },
  validateUploadedBundle: { params: ["bundleId"] },
  validateBundle: { params: ["bundleZip"], zips: true },
  preValidateBundles: { params: ["treeZip"], zips: true },
  getEffectiveBundle: { params: ["treeZip", "bundle"], zips: true },
  exportEffectiveBundle: { params: [], zips: true },
  exportConfigurationZip: { params: [], zips: true },
};

type CoreFunction = (host: FunctionHost, ...args: unknown[]) => Promise<unknown>;
type InvokeForm = (...args: unknown[]) => Promise<unknown>;

/** Runs the function `name` with the invoke's arguments; its result as plain JSON (no undefined). */
export async function invoke(name: string, args: Props): Promise<Props> {
  const spec = Object.prototype.hasOwnProperty.call(INVOKES, name) ? INVOKES[name] : undefined;
  if (!spec) throw new Error(`cloudbees has no function ${name} (it has ${Object.keys(INVOKES).join(", ")})`);
  // Loaded at the first invoke: a plugin that only manages resources never loads the functions.
  const run: InvokeForm = spec.zips
    ? (require("./file-invokes") as Record<string, InvokeForm>)[name]!
    : (...a) => (require("../functions") as Record<string, CoreFunction>)[name]!(pluginHost, ...a);
  const options: Props = {};
  for (const [k, v] of Object.entries(args)) {
    if (!spec.params.includes(k) && v !== undefined && v !== null) options[k] = v;
  }
  if ("settings" in options) throw new Error(`${name}: settings come from the stack's cloudbees:* config, not from an argument`);
  let result: unknown;
  try {
    result = await run(...spec.params.map((p) => args[p] ?? undefined), options);
  } catch (e) {
    throw inCallersWords(e);
  }
  const plain = JSON.parse(JSON.stringify(result ?? null)) as unknown;
  const property = spec.listProperty ?? spec.valueProperty;
  return property ? { [property]: plain } : (plain as Props);
}
