/**
 * The step the step generator chooses once it has the provider's diff, as pulumi v3.248.0 does it
 * (pkg/resource/deploy/step_generator.go diffResource, applyReplaceOnChanges, continueStepsFromDiff): same, update
 * or replace, the keys that replace, delete first or not, and the refusal to replace a protected resource. Pure:
 * ManagedResource (engine.ts) makes the Check and Diff calls.
 */
import { ProtectedError } from "./engine-errors";
import type { PlanOp } from "./plan";
import { parsePropertyPath, pathContains, type PropertyPath } from "./property-path";
import type { DiffResult, JsonObject } from "../processes/provider-host";
import { changedKeys, deepEqual, isSecret } from "./values";

/** The resource options the step generator acts on, with the old state's flags where the engine reads those. */
export interface Goal {
    /** `protect` of the program and of the state: a replacement is refused when both are set. */
    protect?: boolean;
    oldProtect?: boolean;
    /** The state's `retainOnDelete`: the old object of a replacement stays on the service (DeleteStep.Apply). */
    oldRetainOnDelete?: boolean;
    /** The `deleteBeforeReplace` option; when set it overrides what the provider's diff says. */
    deleteBeforeReplace?: boolean;
    /** `replaceOnChanges` paths: changes under them replace the resource (applyReplaceOnChanges). */
    replaceOnChanges?: string[];
    /** The state holds init errors (a partial create or update): an update runs even without a diff. */
    hasInitErrors?: boolean;
}

/** The key a replaceOnChanges path names to replace a resource whose state holds init errors (initErrorSpecialKey). */
export const INIT_ERROR_KEY = "#initerror";

export interface StepChoice {
    op: PlanOp;
    /** The input keys that differ (none for `same`). */
    changedFields: string[];
    /** The keys that replace (the diff's ReplaceKeys). */
    replaces: string[];
    /** Delete the old object first. */
    dbr: boolean;
}

/**
 * The step for a resource whose old inputs are `oldInputs`, checked inputs `checked`, and whose provider answered
 * `d`. `pendingReplacement`: the state's entry was deleted by a delete-before-replace whose create failed.
 */
export function chooseStep(d: DiffResult, oldInputs: JsonObject, checked: JsonObject, goal: Goal, pendingReplacement = false): StepChoice {
    const inputDiff = changedKeys(oldInputs, checked);
    let changes = d.changes;
    // The keys the engine knows changed: the diff's `diffs` (the dynamic host never sets them), and no detailed diff.
    let changed = d.diffs ?? [];
    let detailed: PropertyPath[] = [];
    // DIFF_UNKNOWN: the engine compares old and new inputs itself (diffResource): the top-level keys that differ, and
    // a detailed diff of every nested path that does (NewDetailedDiffFromObjectDiff).
    if (changes === undefined) {
        changes = inputDiff.length > 0;
        changed = inputDiff;
        detailed = changedPaths(oldInputs, checked);
    }
    const { replaces, detailedReplace } = applyReplaceOnChanges(changes, changed, detailed, d.replaces, goal);
    if (replaces.includes(INIT_ERROR_KEY)) changes = true;
    // continueStepsFromDiff: no change but init errors = an update, to finish the resource's initialization; a
    // resource pending replacement is replaced whatever the diff says.
    let op: PlanOp = !changes ? (goal.hasInitErrors ? "update" : "same") : replaces.length || detailedReplace ? "replace" : "update";
    if (pendingReplacement) op = "replace";
    // The option overrides the provider's choice either way.
    const dbr = goal.deleteBeforeReplace ?? d.deleteBeforeReplace;
    return { op, changedFields: op === "same" ? [] : inputDiff, replaces, dbr };
}

/**
 * applyReplaceOnChanges: with changes (or init errors), a changed key that a replaceOnChanges path contains becomes a
 * replace key, and an entry of the detailed diff that one contains becomes a replacing one (`detailedReplace`: the
 * diff replaces, DiffResult.Replace, though no key is added); a path containing `#initerror` replaces a resource
 * with init errors. A nested path (`spec.x`) never contains a top-level key, but does contain the detailed diff's
 * `spec.x`: for a provider without a definite diff, nested paths replace too.
 */
export function applyReplaceOnChanges(
    changes: boolean,
    changed: string[],
    detailed: PropertyPath[],
    replaces: string[],
    goal: Goal,
): { replaces: string[]; detailedReplace: boolean } {
    const paths = (goal.replaceOnChanges ?? []).map((p) => parsePropertyPath(p));
    if ((!changes && !goal.hasInitErrors) || paths.length === 0) return { replaces: [...replaces], detailedReplace: false };
    const result = new Set(replaces);
    if (changes) for (const k of changed) if (paths.some((p) => pathContains(p, [k]))) result.add(k);
    const detailedReplace = changes && detailed.some((d) => paths.some((p) => pathContains(p, d)));
    if (goal.hasInitErrors && paths.some((p) => pathContains(p, [INIT_ERROR_KEY]))) result.add(INIT_ERROR_KEY);
    return { replaces: [...result], detailedReplace };
}

/**
 * The paths of an input diff's detailed diff (properties_diff.go Diff, plugin NewDetailedDiffFromObjectDiff): into
 * objects and arrays on both sides, a path for every value added, removed or changed (a secret is one value).
 */
export function changedPaths(olds: unknown, news: unknown, at: PropertyPath = []): PropertyPath[] {
    if (Array.isArray(olds) && Array.isArray(news)) {
        const paths: PropertyPath[] = [];
        for (let i = 0; i < Math.max(olds.length, news.length); i++) {
            if (i < olds.length && i < news.length) paths.push(...changedPaths(olds[i], news[i], [...at, i]));
            else paths.push([...at, i]);
        }
        return paths;
    }
    if (isObject(olds) && isObject(news)) {
        const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
        return [...keys].flatMap((k) => changedPaths(olds[k] ?? null, news[k] ?? null, [...at, k]));
    }
    return deepEqual(olds, news) ? [] : [at];
}

/** continueStepsFromDiff: a replacement of a resource protected in the program and in the state is refused. */
export function refuseProtectedReplace(urn: string, op: PlanOp, goal: Goal | undefined): void {
    if (op === "replace" && goal?.protect && goal.oldProtect) throw new ProtectedError(urn, "replace");
}

function isObject(v: unknown): v is Record<string, unknown> {
    return typeof v === "object" && v !== null && !Array.isArray(v) && !isSecret(v);
}
