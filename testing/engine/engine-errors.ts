/**
 * The real engine's words for what fails a step, so that a test reads the same text whichever engine runs it (the
 * stand-in, or the Pulumi CLI through PulumiCliRunner, which leads a resource's error with its URN the same way).
 * Texts of pulumi/pulumi v3.248.0 (the CLI of the lockfile's SDK): pkg/resource/deploy/step_generator.go,
 * step.go, sdk/go/common/resource/plugin/provider_plugin.go and sdk/go/common/diag/errors.go.
 */
import { qualifiedType, urnName } from "./aliases";
import { ProviderHostError, type CheckFailure, type InitFailure, type JsonObject } from "../processes/provider-host-api";
import { isSecret, UNKNOWN } from "./values";

/** The gRPC status the dynamic host answers with when the provider threw (grpcResponseFromError). */
const PROVIDER_THREW = 2;

/**
 * Check answered failures: the step is invalid. The engine prints one error per failure (step_generator.go
 * issueCheckFailures, diag codes 2002 / 2003), then bails with "resource <urn> is invalid", which it does not print
 * again. The message is those errors, one a line, each led by the URN as every step error of the kit is.
 */
export class CheckFailedError extends Error {
    constructor(
        readonly urn: string,
        readonly failures: CheckFailure[],
        /** The inputs that were checked (the program's, after ignoreChanges): the engine prints a failed one's value. */
        inputs: JsonObject = {},
        type: string = qualifiedType(urn).split("$").at(-1) ?? "",
    ) {
        super(failures.map((f) => `${urn}: ${checkFailureText(type, urnName(urn), f, inputs)}`).join("\n"));
        this.name = "CheckFailedError";
    }
}

/** One failure as diag.GetResourcePropertyInvalidValueError / GetResourceInvalidError word it. */
export function checkFailureText(type: string, name: string, f: CheckFailure, inputs: JsonObject): string {
    return f.property
        ? `${type} resource '${name}': property ${f.property} value ${goPropertyValue(inputs[f.property])} has a problem: ${f.reason}`
        : `${type} resource '${name}' has a problem: ${f.reason}`;
}

/**
 * A value as Go's resource.PropertyValue.String() prints it (`{%v}` of the underlying value): `{text}`, `{1.5}`,
 * `{1e+06}`, `{true}`, `{<nil>}` (null or missing), `{[{a} {b}]}`, `{map[k:{v}]}` (keys sorted). One difference:
 * the engine prints a secret's value there, the kit prints `[secret]` (secrets never appear in its errors).
 */
export function goPropertyValue(v: unknown): string {
    if (isSecret(v)) return "{[secret]}";
    if (v === UNKNOWN) return "{output{}}";
    if (v === undefined || v === null) return "{<nil>}";
    if (typeof v === "number") return `{${goNumber(v)}}`;
    if (Array.isArray(v)) return `{[${v.map(goPropertyValue).join(" ")}]}`;
    if (typeof v === "object") {
        const keys = Object.keys(v).sort();
        return `{map[${keys.map((k) => `${k}:${goPropertyValue((v as JsonObject)[k])}`).join(" ")}]}`;
    }
    return `{${String(v)}}`;
}

/** A float64 as Go's %v prints it (%g, shortest digits): the exponent form below 1e-4 and from 1e6 on. */
function goNumber(n: number): string {
    if (n === 0 || !Number.isFinite(n)) return n === 0 ? "0" : n > 0 ? "+Inf" : Number.isNaN(n) ? "NaN" : "-Inf";
    const [mantissa, exp] = n.toExponential().split("e") as [string, string];
    const e = Number(exp);
    if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
    return String(n);
}

/** Refused by the engine: a replacement or a delete of a protected resource. */
export class ProtectedError extends Error {
    constructor(
        readonly urn: string,
        action: "replace" | "delete",
        /** A delete refused in a preview: the engine reports a failed step of a preview as such (GetPreviewFailedError). */
        preview = false,
    ) {
        super(
            action === "replace"
                ? // step_generator.go continueStepsFromDiff
                  `unable to replace resource "${urn}"\nas it is currently marked for protection. To unprotect the resource, ` +
                      "remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`"
                : // step.go deleteProtectedError
                  `${preview ? "Preview failed: " : ""}resource "${urn}" cannot be deleted\nbecause it is protected. To unprotect the ` +
                      "resource, either remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`, or use " +
                      `the command:\n\`pulumi state unprotect '${urn}'\``,
        );
        this.name = "ProtectedError";
    }
}

/** step_generator.go calculateDependentReplacements: a protected dependent of a delete-before-replace resource. */
export function protectedDependentError(dependent: string, root: string): Error {
    return new Error(
        `unable to replace resource "${dependent}" as part of replacing "${root}" as it is currently marked for protection. ` +
            "To unprotect the resource, remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`, " +
            `or use the command:\n\`pulumi state unprotect '${dependent}'\``,
    );
}

/**
 * step.go DeleteStep.Apply refuses to delete a protected resource; the step executor goes on with the other deletes
 * and fails the deployment at the end, naming every one refused: the one refusal, or all in one error, one a line.
 */
export function throwIfRefused(refused: ProtectedError[]): void {
    if (refused.length === 1) throw refused[0];
    if (refused.length > 1) throw new Error(refused.map((e) => e.message).join("\n"));
}

/**
 * What the engine says when a provider call of a step failed: the provider's own message; for a partial failure (an
 * error carrying an id) the reasons, as provider_plugin.go InitError lists them. Any other failure of the stand-in
 * (a host that did not answer, or died) keeps its own explanation.
 */
export function providerFailureText(e: unknown): string {
    if (e instanceof ProviderHostError && e.code === PROVIDER_THREW) {
        return e.initFailure ? initErrorText(e.initFailure.reasons ?? []) : e.details;
    }
    return String((e as Error)?.message ?? e);
}

/** InitError.Error(): the reasons in hashicorp/go-multierror's list form. */
export function initErrorText(reasons: string[]): string {
    if (reasons.length === 0) return "resource init failed";
    if (reasons.length === 1) return `1 error occurred:\n\t* ${reasons[0]}`;
    return `${reasons.length} errors occurred:\n\t${reasons.map((r) => `* ${r}`).join("\n\t")}`;
}

/** A step of the resource `urn` failed: its error as the engine reports it, led by the URN (unless it names it). */
export function stepFailed(urn: string, e: unknown): Error {
    const text = providerFailureText(e);
    return new Error(text.includes(urn) ? text : `${urn}: ${text}`, { cause: e });
}

/** The partial failure a create or update threw (an error carrying an id: ErrorResourceInitFailed), if it is one. */
export function initFailureOf(e: unknown): InitFailure | undefined {
    const init = (e as { initFailure?: Partial<InitFailure> }).initFailure;
    return init?.id ? { id: init.id, properties: init.properties ?? {}, reasons: init.reasons ?? [] } : undefined;
}
