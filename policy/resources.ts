/**
 * How the pack recognises this package's resources, on both faces: the plugin's type tokens
 * (`cloudbees:index:<Name>`, generated/schema.json) and the dynamic providers' (`pulumi-nodejs:dynamic/cloudbees:<Name>`,
 * sdk/resources/provider-shell.ts), and what policies read of them without tripping over a value a preview cannot know.
 */
import type { PolicyResource } from "@pulumi/policy";

export type Kind =
  | "BundleAvailability"
  | "BundleReload"
  | "BundleValidation"
  | "ControllerBundleAssignment"
  | "ControllerConfiguration"
  | "FlagConfiguration"
  | "GlobalAvailabilityPattern"
  | "TargetGroup"
  | "TeamMember";

const PLUGIN_PREFIX = "cloudbees:index:";
const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/cloudbees:";
/** The plugin's explicit provider resource. */
export const PROVIDER_TYPE = "pulumi:providers:cloudbees";

/** The resource's kind when it is one of this package's (either face), else undefined. */
export function kindOf(type: string): string | undefined {
  if (type.startsWith(PLUGIN_PREFIX)) return type.slice(PLUGIN_PREFIX.length);
  if (type.startsWith(DYNAMIC_PREFIX)) return type.slice(DYNAMIC_PREFIX.length);
  return undefined;
}

export function isKind(type: string, kind: Kind): boolean {
  return kindOf(type) === kind;
}

/** `Kind 'name'`, how a message names a resource (the name quoted and bounded: it is the program's text). */
export function label(r: { type: string; name: string }): string {
  return `${kindOf(r.type) ?? r.type} ${quote(r.name)}`;
}

export function quote(text: unknown): string {
  const s = JSON.stringify(String(text)) ?? '""';
  return s.length > 122 ? `${s.slice(0, 120)}…"` : s;
}

// @pulumi/policy's own error for a value unknown in preview: a policy that throws it is reported once, as advisory
// ("can't run policy ... during preview: <message>"), instead of passing or failing.
const proxy = require("@pulumi/policy/proxy") as {
  UnknownValueError: new (sentinel: unknown, path: string[]) => Error;
  unknownStringValue: unknown;
};

export function isUnknownError(e: unknown): boolean {
  return e instanceof proxy.UnknownValueError;
}

/**
 * What a policy could not see: each value a preview does not know yet is noted (the resource and the input) and the
 * policy goes on with the other resources; `finish` then says so once, naming them all.
 */
export class Unseen {
  private readonly seen: string[] = [];

  /** `read()`, or undefined (and noted) when the value is unknown in this preview. */
  read<T>(what: string, r: { type: string; name: string }, read: () => T): { value: T } | undefined {
    try {
      return { value: read() };
    } catch (e) {
      if (!isUnknownError(e)) throw e;
      this.seen.push(`${what} of ${label(r)}`);
      return undefined;
    }
  }

  /** Throws @pulumi/policy's unknown-value error naming everything unseen, when there was any. */
  finish(): void {
    if (this.seen.length === 0) return;
    cannotSee(`it cannot see ${[...new Set(this.seen)].join(", ")} (unknown until the resources they come from exist); pulumi up checks it with the values known, at the end of the update`);
  }
}

/** Says, once and as advisory (@pulumi/policy's unknown-value error), what the policy could not see: never a pass or a fail. */
export function cannotSee(message: string): never {
  const error = new proxy.UnknownValueError(proxy.unknownStringValue, []);
  error.message = message;
  throw error;
}

/** Every resource `r` depends on, directly or through others (dependsOn and the inputs' outputs). */
export function dependenciesOf(r: PolicyResource): Set<PolicyResource> {
  const found = new Set<PolicyResource>();
  const walk = (from: PolicyResource): void => {
    const direct = [...(from.dependencies ?? []), ...Object.values(from.propertyDependencies ?? {}).flat()];
    for (const d of direct) {
      if (d && !found.has(d)) {
        found.add(d);
        walk(d);
      }
    }
  };
  walk(r);
  return found;
}

/**
 * What identifies an input that names another resource: the URN of the resource its value comes from (an output,
 * known in preview too), else its value. Two flags of one application compare equal before the application exists.
 */
export function identity(r: PolicyResource, input: string, unseen: Unseen): string | undefined {
  const source = r.propertyDependencies?.[input]?.[0];
  if (source) return `urn:${source.urn}`;
  const value = unseen.read(input, r, () => r.props[input] as unknown);
  return value === undefined ? undefined : `value:${String(value.value)}`;
}

/** The string list a policy's setting holds (absent: `fallback`). */
export function stringList(value: unknown, fallback: string[] = []): string[] {
  return Array.isArray(value) ? value.map(String) : fallback;
}

/** A plain copy of the inputs `keys` (reading each through the unknown-checking proxy: an unknown one throws). */
export function pick(props: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k of keys) if (props[k] !== undefined) copy[k] = JSON.parse(JSON.stringify(props[k])) as unknown;
  return copy;
}
