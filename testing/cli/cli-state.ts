/**
 * The real engine's state (`pulumi stack export --show-secrets`) in the kit's form (state.ts): the resources the
 * program made, in the engine's order, with inputs and outputs in wire form (a secret is `{sig, value}`, as the
 * engine stand-in keeps it), and the stack outputs. The stack itself and the default providers are the engine's
 * bookkeeping and are left out, as the stand-in has none.
 */
import type { JsonObject } from "../processes/provider-host";
import type { ProgramState, StateResource } from "../engine/state";
import { SECRET_SIG, SPECIAL_SIG_KEY } from "../engine/values";

/** One resource of `stack export` (apitype.ResourceV3), the fields the kit reads. */
export interface ExportedResource {
    urn: string;
    custom?: boolean;
    id?: string;
    type: string;
    inputs?: JsonObject;
    outputs?: JsonObject;
    parent?: string;
    protect?: boolean;
    retainOnDelete?: boolean;
    external?: boolean;
    delete?: boolean;
    pendingReplacement?: boolean;
    dependencies?: string[];
    propertyDependencies?: Record<string, string[]>;
    additionalSecretOutputs?: string[];
    deletedWith?: string;
    initErrors?: string[];
    ignoreChanges?: string[];
}

export interface ExportedDeployment {
    deployment?: { resources?: ExportedResource[] };
}

export function stateOfExport(exported: ExportedDeployment): ProgramState {
    const all = exported.deployment?.resources ?? [];
    const stack = all.find((r) => r.type === "pulumi:pulumi:Stack");
    const resources: StateResource[] = all
        .filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"))
        .map((r) => {
            const resource: StateResource = {
                urn: r.urn,
                type: r.type,
                name: r.urn.split("::").at(-1)!,
                parent: r.parent ?? "",
                id: r.id ?? "",
                inputs: wire(r.inputs ?? {}) as JsonObject,
                outputs: wire(r.outputs ?? {}) as JsonObject,
                dependencies: [...(r.dependencies ?? [])],
                protect: r.protect === true,
                retainOnDelete: r.retainOnDelete === true,
                additionalSecretOutputs: [...(r.additionalSecretOutputs ?? [])],
                external: r.external === true,
            };
            if (r.propertyDependencies) resource.propertyDependencies = r.propertyDependencies;
            if (r.deletedWith) resource.deletedWith = r.deletedWith;
            if (r.ignoreChanges?.length) resource.ignoreChanges = [...r.ignoreChanges];
            if (r.initErrors?.length) resource.initErrors = [...r.initErrors];
            if (r.delete) resource.delete = true;
            if (r.pendingReplacement) resource.pendingReplacement = true;
            return resource;
        });
    return { version: 1, resources, outputs: wire(stack?.outputs ?? {}) as JsonObject };
}

/**
 * A value of `stack export --show-secrets` in wire form: the export writes a secret as `{sig, plaintext: "<JSON
 * text>"}` (and, without --show-secrets, `{sig, ciphertext}`, which stays as it is).
 */
export function wire(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(wire);
    if (value === null || typeof value !== "object") return value;
    const o = value as Record<string, unknown>;
    if (o[SPECIAL_SIG_KEY] === SECRET_SIG && typeof o.plaintext === "string") {
        return { [SPECIAL_SIG_KEY]: SECRET_SIG, value: wire(JSON.parse(o.plaintext)) };
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, wire(v)]));
}
