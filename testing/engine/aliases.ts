/**
 * The URNs a registration's aliases stand for, as the step generator computes them (pulumi/pulumi
 * pkg/resource/deploy/step_generator.go: collapseAliasToUrn, inheritedChildAlias, generateAliases): each alias
 * spec with the resource's own name, type, parent, project and stack filling what it leaves empty, then the
 * aliases its parent's aliases give it (a component renamed, retyped or moved takes its children along).
 */
import type { AliasSpec } from "../processes/program-protocol";

const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

export interface AliasContext {
    project: string;
    stack: string;
    /** The old URNs a parent (by its URN in this deployment) is known by: its matched alias, or a component's. */
    parentAliases(parentUrn: string): string[];
}

interface Goal {
    type: string;
    name: string;
    parent: string;
    aliases: AliasSpec[];
}

/** The URN's qualified type: the parent type chain and the type (`a:b:C$d:e:F`). */
export function qualifiedType(urn: string): string {
    return urn.split("::")[2] ?? "";
}

/** The URN's name (the part after the type). */
export function urnName(urn: string): string {
    return urn.split("::").slice(3).join("::");
}

/** resource.CreateURN: the parent's qualified type before the type, except for a root-level resource. */
export function createUrn(name: string, type: string, parent: string, project: string, stack: string): string {
    const qualified = parent ? `${qualifiedType(parent)}$${type}` : type;
    return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

function collapse(ctx: AliasContext, goal: Goal, alias: AliasSpec): string {
    if ("urn" in alias) return alias.urn;
    const name = alias.name || goal.name;
    const type = alias.type || goal.type;
    let parent = alias.parentUrn || goal.parent;
    // The alias's parent matched an alias itself: its old URN is the one this resource had under it.
    const parentOld = alias.parentUrn ? ctx.parentAliases(alias.parentUrn)[0] : undefined;
    if (parentOld) parent = parentOld;
    if (alias.noParent || (parent && qualifiedType(parent) === ROOT_STACK_TYPE)) parent = "";
    return createUrn(name, type, parent, alias.project || ctx.project, alias.stack || ctx.stack);
}

/** The child's alias under an alias of its parent; a name starting with the parent's name follows its rename. */
function inheritedChildAlias(ctx: AliasContext, childType: string, childName: string, parentName: string, parentAlias: string): string {
    const aliasName = childName.startsWith(parentName) ? urnName(parentAlias) + childName.slice(parentName.length) : childName;
    return `urn:pulumi:${ctx.stack}::${ctx.project}::${qualifiedType(parentAlias)}$${childType}::${aliasName}`;
}

/** generateAliases: the registration's alias URNs, in the engine's order, without duplicates. */
export function aliasUrns(ctx: AliasContext, goal: Goal): string[] {
    const out: string[] = [];
    const add = (u: string) => {
        if (!out.includes(u)) out.push(u);
    };
    const parentOlds = goal.parent ? ctx.parentAliases(goal.parent) : [];
    for (const alias of goal.aliases) add(collapse(ctx, goal, alias));
    for (const parentAlias of parentOlds) {
        const parentName = urnName(goal.parent);
        add(inheritedChildAlias(ctx, goal.type, goal.name, parentName, parentAlias));
        for (const alias of goal.aliases) {
            const own = collapse(ctx, goal, alias);
            add(inheritedChildAlias(ctx, own.split("::")[2]!.split("$").at(-1)!, urnName(own), parentName, parentAlias));
        }
    }
    return out;
}
