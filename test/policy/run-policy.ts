/**
 * Runs one policy of the pack on constructed arguments, as @pulumi/policy's server would (no engine, no CLI), and
 * answers the violations it reported. Values unknown in preview are made with the library's own proxy, so a policy
 * meets them as it does under `pulumi preview`.
 */
import type { PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";

const proxy = require("@pulumi/policy/proxy") as { unknownCheckingProxy<T>(o: T): T; unknownStringValue: unknown; UnknownValueError: new (...a: unknown[]) => Error };

/** The value a preview does not know yet. */
export const UNKNOWN = proxy.unknownStringValue;

export interface Violation {
  message: string;
  urn?: string;
}

/** A resource of the plugin face (`cloudbees:index:<kind>`) or the dynamic providers' (`pulumi-nodejs:dynamic/cloudbees:<kind>`). */
export function resource(kind: string, name: string, props: Record<string, unknown>, face: "plugin" | "dynamic" = "plugin"): PolicyResource {
  const type = face === "plugin" ? `cloudbees:index:${kind}` : `pulumi-nodejs:dynamic/cloudbees:${kind}`;
  return {
    type,
    name,
    urn: `urn:pulumi:dev::guard::${type}::${name}`,
    props: proxy.unknownCheckingProxy(face === "dynamic" ? { __provider: "exports.handler = ...", ...props } : props),
    opts: { protect: false, ignoreChanges: [], aliases: [], customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 }, additionalSecretOutputs: [] },
    dependencies: [],
    propertyDependencies: {},
    isType: () => false,
    asType: () => undefined,
  } as unknown as PolicyResource;
}

/** `r` depends on `on` (dependsOn). */
export function dependsOn(r: PolicyResource, ...on: PolicyResource[]): PolicyResource {
  r.dependencies.push(...on);
  return r;
}

/** What a stack policy reports; `unseen` is the message of its unknown-value error, when it threw one. */
export async function runStack(policy: StackValidationPolicy, resources: PolicyResource[], config: object = {}): Promise<{ violations: Violation[]; unseen?: string }> {
  const violations: Violation[] = [];
  const args = { resources, stackTags: new Map(), getConfig: () => config, notApplicable: () => { throw new Error("not applicable"); } };
  try {
    await policy.validateStack(args as never, (message, urn) => violations.push({ message, urn }));
  } catch (e) {
    if (!(e instanceof proxy.UnknownValueError)) throw e;
    return { violations, unseen: e.message };
  }
  return { violations };
}

/** What a resource policy reports for `r`. */
export async function runResource(policy: ResourceValidationPolicy, r: PolicyResource, config: object = {}): Promise<Violation[]> {
  const violations: Violation[] = [];
  const args = { type: r.type, props: r.props, urn: r.urn, name: r.name, opts: r.opts, stackTags: new Map(), getConfig: () => config, isType: () => false, asType: () => undefined, notApplicable: () => { throw new Error("not applicable"); } };
  const validations = Array.isArray(policy.validateResource) ? policy.validateResource : [policy.validateResource];
  for (const validate of validations) await validate!(args as never, (message, urn) => violations.push({ message, urn: urn ?? r.urn }));
  return violations;
}
