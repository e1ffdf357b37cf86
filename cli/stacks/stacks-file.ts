/**
 * The stacks a command runs over (`drift`, `flags --stacks`): `<folder>#<stack>` each, from the command line or a
 * stacks file, a YAML or JSON list `[{folder: infra/flags, stack: prod}, "infra/ci#dev", ...]` (or `{stacks: [...]}`)
 * whose folders are relative to the file's folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface StackTarget {
  /** `<folder>#<stack>`, the folder as given. */
  id: string;
  folder: string;
  stack: string;
  /** The folder resolved. */
  dir: string;
}

/** `<folder>#<stack>`, the folder relative to `base`; `option` names where it was given in the error. */
export function stackTarget(text: string, base: string, option = "--stack"): StackTarget {
  const at = text.lastIndexOf("#");
  if (at <= 0 || at === text.length - 1) throw new Error(`${option} ${JSON.stringify(text)}: expected <folder>#<stack>, e.g. infra/flags#prod`);
  return entry(text.slice(0, at), text.slice(at + 1), base);
}

function entry(folder: string, stack: string, base: string): StackTarget {
  if (!/^[\w.\-/]+$/.test(stack)) throw new Error(`stack name ${JSON.stringify(stack)} is not a stack name`);
  return { id: `${folder}#${stack}`, folder, stack, dir: path.resolve(base, folder) };
}

/** The stacks of a stacks file; `option` names the option that gave it in errors. */
export function readStacksFile(file: string, option = "--stacks-file"): StackTarget[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`${option} ${JSON.stringify(file)} cannot be read: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = (require("yaml") as typeof import("yaml")).parse(text);
  } catch (e) {
    throw new Error(`${option} ${JSON.stringify(file)} is neither YAML nor JSON: ${(e as Error).message.split("\n")[0]}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { stacks?: unknown } | null)?.stacks;
  if (!Array.isArray(list)) throw new Error(`${option} ${JSON.stringify(file)}: expected a list of stacks, or {stacks: [...]}`);
  const base = path.dirname(file);
  return list.map((item, i) => {
    if (typeof item === "string") return stackTarget(item, base, option);
    const { folder, stack } = (item ?? {}) as { folder?: unknown; stack?: unknown };
    if (typeof folder !== "string" || typeof stack !== "string") throw new Error(`${option} ${JSON.stringify(file)}: item ${i + 1} needs folder and stack`);
    return entry(folder, stack, base);
  });
}

/** The stacks, or an Error naming the first given twice. */
export function distinctStacks(stacks: StackTarget[]): StackTarget[] {
  const ids = new Set<string>();
  for (const s of stacks) {
    if (ids.has(s.id)) throw new Error(`the stack ${JSON.stringify(s.id)} is given twice`);
    ids.add(s.id);
  }
  return stacks;
}

/** Why `t` cannot be a stack's folder (missing, or no Pulumi project), or undefined. */
export function projectFolderProblem(t: StackTarget): string | undefined {
  if (!fs.statSync(t.dir, { throwIfNoEntry: false })?.isDirectory()) return `the folder ${JSON.stringify(t.folder)} does not exist`;
  if (!["Pulumi.yaml", "Pulumi.yml"].some((f) => fs.existsSync(path.join(t.dir, f)))) return `the folder ${JSON.stringify(t.folder)} has no Pulumi.yaml: give a Pulumi project's folder`;
  return undefined;
}
