import { PRESENT } from "./canonical";
import { CONFIGURATION_FILES, type ConfigurationView, isMapping } from "./view";

// What both sides go through before they are compared, as bundleutils' default transform does (tsmp-falcon-platform/
// ci-bundle-utils, data/configs/*.yaml and bundleutils.py): the paths an export adds removed, the carets an export
// escapes variables with undone, every secret and variable reference made a presence marker.

/** jenkins.yaml paths every export adds and no bundle means (bundleutils' default transform removes them). */
export const EXPORT_ADDITIONS: readonly (readonly string[])[] = [["license"], ["jenkins", "labelAtoms"], ["unclassified", "operationsCenterRootAction"]];

/** A jenkins.yaml value without the paths an export adds (a copy: the input is not changed). */
export function removeExportAdditions(jenkins: unknown): unknown {
  if (!isMapping(jenkins)) return jenkins;
  const out: Record<string, unknown> = { ...jenkins };
  for (const path of EXPORT_ADDITIONS) {
    const [first, second] = path as [string, string?];
    if (second === undefined) {
      delete out[first];
      continue;
    }
    const parent = out[first];
    if (!isMapping(parent) || !(second in parent)) continue;
    const { [second]: _removed, ...rest } = parent;
    // A mapping left empty by the removal held nothing but the addition: it goes too (it would declare a mapping).
    if (Object.keys(rest).length === 0) delete out[first];
    else out[first] = rest;
  }
  return out;
}

/**
 * `^${X}` (one caret or more) back to `${X}`: an export escapes variables with carets (more than one when
 * variableInterpolationEnabledForAdmin is on; bundleutils' handle_unwanted_escape_characters, the vendor's SECO-3944).
 * One pass, linear in the text.
 */
export function unescapeCarets(text: string): string {
  if (!text.includes("^")) return text;
  let out = "";
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "^") {
      out += text[i++];
      continue;
    }
    let end = i;
    while (end < text.length && text[end] === "^") end++;
    if (!text.startsWith("${", end)) out += text.slice(i, end);
    i = end;
  }
  return out;
}

/** An encrypted Jenkins secret as an export writes it: base64 in braces (`{AQAAABAAAA...}`). */
const ENCRYPTED_SECRET = /^\{[A-Za-z0-9+/]{8,}={0,2}\}$/;

export function isEncryptedSecret(text: string): boolean {
  return ENCRYPTED_SECRET.test(text);
}

/** A value the controller resolves itself: a `${...}` variable reference anywhere in the text. */
export function isVariableReference(text: string): boolean {
  return text.includes("${");
}

/**
 * Field names whose text is a secret: a bundle may hold one literally; its text must not reach a digest (a short
 * hash of a password can be guessed).
 */
const SECRET_FIELD = /(password|passphrase|secret|secretbytes|privatekey|token|accesskey|apikey)$/i;

export function isSecretFieldName(name: string): boolean {
  return SECRET_FIELD.test(name);
}

/** One leaf as it is compared: carets undone; a secret, a variable or a secret field's text becomes PRESENT. */
export function normalizeLeaf(value: unknown, fieldName?: string): unknown {
  if (typeof value !== "string") return value;
  const text = unescapeCarets(value);
  if (isEncryptedSecret(text) || isVariableReference(text)) return PRESENT;
  if (fieldName !== undefined && isSecretFieldName(fieldName) && text !== "") return PRESENT;
  return text;
}

/** A YAML value with every leaf normalized (a copy). */
export function normalizeTree(value: unknown, fieldName?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => normalizeTree(v, fieldName));
  if (isMapping(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = normalizeTree(v, k);
    return out;
  }
  return normalizeLeaf(value, fieldName);
}

/** A view as it is compared: export additions removed, leaves normalized. Plugin ids stay as they are. */
export function normalizeView(view: ConfigurationView): ConfigurationView {
  const out: ConfigurationView = {};
  if (view.jenkins !== undefined) out.jenkins = normalizeTree(removeExportAdditions(view.jenkins));
  if (view.plugins !== undefined) out.plugins = view.plugins;
  if (view.catalog !== undefined) out.catalog = normalizeTree(view.catalog);
  if (view.rbac !== undefined) out.rbac = normalizeTree(view.rbac);
  if (view.items !== undefined) out.items = { removeStrategy: view.items.removeStrategy, items: view.items.items.map((i) => normalizeTree(i)) };
  return out;
}

const FILE_NAMES: readonly string[] = Object.values(CONFIGURATION_FILES);

/**
 * Whether `key` is left out by an ignore path: the path itself and everything below it (`jenkins.yaml:
 * jenkins.systemMessage` also leaves out `jenkins.systemMessage.x`; a file name alone leaves out the file; `items.yaml:
 * item "team"` also the items inside the folder team).
 */
export function isIgnored(key: string, ignore: readonly string[]): boolean {
  return ignore.some((raw) => {
    const p = raw.trim();
    if (p === "") return false;
    if (key === p) return true;
    if (FILE_NAMES.includes(p)) return key.startsWith(`${p}: `);
    if (key.startsWith(`${p}.`) || key.startsWith(`${p}[`)) return true;
    return p.endsWith('"') && key.startsWith(`${p.slice(0, -1)}/`);
  });
}

/** Why an ignore path can never match, or undefined: it must start with one of the compared files. */
export function ignorePathProblem(path: string): string | undefined {
  const p = path.trim();
  if (FILE_NAMES.includes(p) || FILE_NAMES.some((f) => p.startsWith(`${f}: `) && p.length > f.length + 2)) return undefined;
  return `An ignore path names a compared file and a path in it, like "jenkins.yaml: jenkins.systemMessage" or "plugins.yaml: ssh-agent"; the files are ${FILE_NAMES.join(", ")}.`;
}
