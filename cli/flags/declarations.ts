/**
 * Where each flag is declared: the stacks of a stacks file (the drift command's), each stack's state read with the
 * real CLI's `pulumi stack export --stack <stack>` in the stack's folder (a child process of its own, as the drift
 * command runs the CLI), and in it every Flag and FlagConfiguration of this package, as the plugin's SDKs type them
 * (`cloudbees:index:Flag`) and as the dynamic providers do (`pulumi-nodejs:dynamic/cloudbees:Flag`): which stack,
 * resource name, type and URN, the application and flag it is of (its outputs, else its inputs), and the source
 * position where the state has one: the program's line, the first of the resource's own position and its stack
 * trace's frames that is not inside a package (a dynamic resource records its class's line in this package first). A stack that cannot be read is named, and the others still read. The reader is
 * a parameter: a test gives saved exports.
 */
import { bounded } from "../report/text";
import { inPool } from "../report/pool";
import { lastLines, NO_STACK, pulumiEnvironment, runChild } from "../stacks/run-pulumi";
import { projectFolderProblem, type StackTarget } from "../stacks/stacks-file";
import type { DeclaredResource } from "../../provider/hygiene/verdict";
import { MAX_ERROR_CHARS, type ReportError, type StackRead } from "./report";

/** A declaration, with the application and flag it is of. */
export interface Declaration extends DeclaredResource {
  applicationId: string;
  flag: string;
}

/** Reads one stack's state (`pulumi stack export`'s JSON, parsed); throws an Error saying why not. */
export type StateReader = (t: StackTarget) => Promise<unknown>;

/** The largest export read: a state of many thousands of resources. */
const MAX_EXPORT_BYTES = 256 * 1024 * 1024;
const TYPE = /^(?:cloudbees:index|pulumi-nodejs:dynamic\/cloudbees):(Flag|FlagConfiguration)$/;

/** The real CLI's `stack export`, in the stack's folder, within the deadline. */
export function pulumiStateReader(pulumi: string, timeoutMs: number, env?: NodeJS.ProcessEnv): StateReader {
  return async (t) => {
    const problem = projectFolderProblem(t);
    if (problem) throw new Error(problem);
    const r = await runChild(pulumi, ["stack", "export", "--stack", t.stack, "--non-interactive"], t.dir, pulumiEnvironment(env), timeoutMs, MAX_EXPORT_BYTES);
    if (r.timedOut) throw new Error(`no answer within the deadline of ${timeoutMs / 1000} s: the CLI was stopped`);
    if (r.code !== 0) {
      const noStack = NO_STACK.exec(r.stderr);
      throw new Error(noStack ? `unknown stack ${JSON.stringify(noStack[1])} in ${JSON.stringify(t.folder)} (pulumi stack ls there lists them)` : lastLines(r.stderr) || `pulumi exited ${r.code}`);
    }
    try {
      return JSON.parse(r.stdout) as unknown;
    } catch (e) {
      throw new Error(`pulumi stack export answered what is not JSON: ${(e as Error).message.split("\n")[0]}`);
    }
  };
}

/** Every stack's declarations, four stacks at a time; each stack that cannot be read is named in `errors`. */
export async function readDeclarations(stacks: readonly StackTarget[], read: StateReader): Promise<{ stacks: StackRead[]; declarations: Declaration[]; errors: ReportError[] }> {
  const errors: ReportError[] = [];
  const results = await inPool([...stacks], 4, async (t): Promise<{ read: StackRead; declarations: Declaration[] }> => {
    try {
      const { resources, declarations } = declarationsOf(t.id, await read(t));
      return { read: { id: t.id, status: "read", resources, declarations: declarations.length }, declarations };
    } catch (e) {
      const message = bounded((e as Error).message ?? String(e), MAX_ERROR_CHARS);
      errors.push({ kind: "stack", stack: t.id, message: `its state could not be read: ${message}` });
      return { read: { id: t.id, status: "error", resources: 0, declarations: 0, error: message }, declarations: [] };
    }
  });
  return { stacks: results.map((r) => r.read), declarations: results.flatMap((r) => r.declarations), errors };
}

/** The Flags and FlagConfigurations in one stack's export (`{version, deployment: {resources}}`), and how many resources it has. */
export function declarationsOf(stack: string, doc: unknown): { resources: number; declarations: Declaration[] } {
  const resources = (doc as { deployment?: { resources?: unknown } } | null)?.deployment?.resources;
  if (resources === undefined || resources === null) return { resources: 0, declarations: [] };
  if (!Array.isArray(resources)) throw new Error("the export's deployment.resources is not a list: not a `pulumi stack export` of a known version");
  const declarations: Declaration[] = [];
  for (const r of resources as Record<string, unknown>[]) {
    if (!r || typeof r !== "object" || typeof r.urn !== "string" || typeof r.type !== "string" || r.delete === true) continue;
    const kind = TYPE.exec(r.type)?.[1] as DeclaredResource["kind"] | undefined;
    if (!kind) continue;
    const field = (name: string): string | undefined => {
      for (const props of [r.outputs, r.inputs]) {
        const v = (props as Record<string, unknown> | undefined)?.[name];
        if (typeof v === "string") return v;
      }
      return undefined;
    };
    const applicationId = field("applicationId");
    const flag = field(kind === "Flag" ? "name" : "flag");
    // A secret or unknown value cannot be matched to a flag: the resource is left out rather than guessed.
    if (applicationId === undefined || flag === undefined) continue;
    const environment = kind === "FlagConfiguration" ? field("environment") : undefined;
    declarations.push({
      stack,
      urn: r.urn,
      type: r.type,
      name: r.urn.slice(r.urn.lastIndexOf("::") + 2),
      kind,
      ...(environment !== undefined ? { environment } : {}),
      ...sourcePositionOf(r),
      applicationId,
      flag,
    });
  }
  return { resources: resources.length, declarations };
}

/** A position in a package: under node_modules/, or this package's own resource classes (a linked copy's path). */
const PACKAGE_LINE = /(^|\/)node_modules\/|\/dist\/sdk\/resources\/[\w-]+\.js#/;

/** The program's line that declares the resource: the first recorded position outside a package, if any. */
function sourcePositionOf(r: Record<string, unknown>): { sourcePosition?: string } {
  const frames = Array.isArray(r.stackTrace) ? (r.stackTrace as { sourcePosition?: unknown }[]).map((f) => f?.sourcePosition) : [];
  const position = [r.sourcePosition, ...frames].find((p): p is string => typeof p === "string" && p !== "" && !PACKAGE_LINE.test(p));
  return position === undefined ? {} : { sourcePosition: position };
}
