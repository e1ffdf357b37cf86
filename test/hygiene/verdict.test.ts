/**
 * provider/hygiene/verdict.ts: each verdict from the signals that give it, and none of the removals from a permanent
 * flag or from missing data (an environment without a usable status, code references not scanned, the last change
 * not known).
 */
import type { FlagStatus } from "../../provider/hygiene/flag-status";
import { flagVerdict, removalOrder, type CodeReferenceCount, type DeclaredResource, type EnvironmentSignal, type LastChange, type VerdictInput } from "../../provider/hygiene/verdict";

const AS_OF = new Date("2030-03-15T12:00:00.000Z");
const daysAgo = (n: number) => new Date(AS_OF.getTime() - n * 86_400_000).toISOString();
const UNCHANGED: LastChange = { kind: "unchanged", since: daysAgo(30) };
const REFS = (count: number): CodeReferenceCount => ({ known: true, count });

/** An environment by its two statuses: the lexicon's (7 days) and the threshold's (N days); `value` for stale ones. */
function env(environment: string, status: FlagStatus, overThreshold: FlagStatus = status, value?: string, critical = true): EnvironmentSignal {
  const s = (st: FlagStatus) => ({ status: st, reason: `${st} because`, ...(st === "stale" && value !== undefined ? { value } : {}) });
  return { environment, critical, status: s(status), overThreshold: s(overThreshold) };
}

function verdict(environments: EnvironmentSignal[], rest: Partial<VerdictInput> = {}) {
  return flagVerdict({ flag: "f", environments, lastChange: UNCHANGED, codeReferences: REFS(2), asOf: AS_OF, staleDays: 30, ...rest });
}

describe("keep", () => {
  it("a permanent flag, whatever its impressions and references, even inactive everywhere with no reference", () => {
    expect(verdict([env("Production", "inactive")], { isPermanent: true, codeReferences: REFS(0) })).toMatchObject({ verdict: "keep", reason: expect.stringContaining("permanent") });
    expect(verdict([env("Production", "permanent")], { codeReferences: REFS(0) }).verdict).toBe("keep");
  });

  it("a flag active in any environment, critical or not", () => {
    expect(verdict([env("Production", "stale", "stale", "true"), env("Dev", "active", "active", undefined, false)])).toMatchObject({ verdict: "keep", reason: 'active in "Dev": impressions with different values' });
  });

  it("a flag changed in the last N days, even stale everywhere with references", () => {
    const v = verdict([env("Production", "stale", "stale", "true")], { lastChange: { kind: "changed", at: daysAgo(29), by: "alice@example.com" } });
    expect(v).toMatchObject({ verdict: "keep", reason: expect.stringMatching(/^changed in the last 30 days \(.*by "alice@example\.com"\)$/) });
    expect(verdict([env("Production", "stale", "stale", "true")], { lastChange: { kind: "changed", at: daysAgo(31) } }).verdict).toBe("remove-from-code");
  });

  it("stale for fewer than N days (stale this week, two values over the N days)", () => {
    expect(verdict([env("Production", "stale", "active", "true")])).toMatchObject({ verdict: "keep", reason: 'stale for fewer than 30 days in "Production"' });
  });

  it("stale in every critical environment with different values: a configuration per environment", () => {
    expect(verdict([env("Production", "stale", "stale", "true"), env("Staging", "stale", "stale", "false")]).verdict).toBe("keep");
  });

  it("stale but no code reference in the sources scanned; inactive but referenced", () => {
    expect(verdict([env("Production", "stale", "stale", "true")], { codeReferences: REFS(0) })).toMatchObject({ verdict: "keep", reason: expect.stringContaining("no code reference in the sources scanned") });
    expect(verdict([env("Production", "inactive")], { codeReferences: REFS(3) })).toMatchObject({ verdict: "keep", reason: expect.stringContaining("but 3 code references") });
  });

  it("still evaluated but not stale in every critical environment", () => {
    const v = verdict([env("Production", "stale", "stale", "true"), env("Staging", "inactive")]);
    expect(v).toMatchObject({ verdict: "keep", reason: 'still evaluated in "Production", but not stale in every critical environment ("Staging": inactive)' });
  });
});

describe("remove-from-code", () => {
  it("stale in every critical environment for N days with one value and code references: the value to hard-code", () => {
    const v = verdict([env("Production", "stale", "stale", "true"), env("Staging", "stale", "stale", "true")]);
    expect(v).toEqual({ verdict: "remove-from-code", value: "true", reason: 'stale in every critical environment ("Production", "Staging") for at least 30 days, serving "true"; 2 code references to replace with the value' });
  });

  it("only critical environments count: a non-critical one inactive, unknown or stale with another value does not stop it", () => {
    for (const dev of [env("Dev", "inactive", "inactive", undefined, false), env("Dev", "unknown", "unknown", undefined, false), env("Dev", "stale", "stale", "false", false)]) {
      expect(verdict([env("Production", "stale", "stale", "blue"), dev])).toMatchObject({ verdict: "remove-from-code", value: "blue" });
    }
  });

  it("the threshold is an option: stale 10 days passes N = 10, not N = 30", () => {
    const e = [env("Production", "stale", "stale", "true")];
    expect(verdict(e, { staleDays: 10, lastChange: { kind: "changed", at: daysAgo(11) } }).verdict).toBe("remove-from-code");
    expect(verdict(e, { staleDays: 30, lastChange: { kind: "changed", at: daysAgo(11) } }).verdict).toBe("keep");
  });
});

describe("remove-from-iac", () => {
  it("inactive in every environment for N days (critical or not), no code reference", () => {
    const v = verdict([env("Production", "inactive"), env("Dev", "inactive", "inactive", undefined, false)], { codeReferences: REFS(0) });
    expect(v).toEqual({ verdict: "remove-from-iac", reason: "no impressions in any environment for at least 30 days, no code reference: delete its resources" });
  });

  it("never evaluated since the read's start (setup) counts, once unchanged for N days", () => {
    expect(verdict([env("Production", "setup"), env("Staging", "inactive")], { codeReferences: REFS(0) }).verdict).toBe("remove-from-iac");
    expect(verdict([env("Production", "setup")], { codeReferences: REFS(0), lastChange: { kind: "changed", at: daysAgo(2) } }).verdict).toBe("keep");
  });
});

describe("unknown: never a removal from missing data", () => {
  it("a critical environment without a usable status (roxy, no impressions answer) where the others are stale", () => {
    const v = verdict([env("Production", "stale", "stale", "true"), env("Edge", "unknown")]);
    expect(v).toMatchObject({ verdict: "unknown", reason: 'no usable status in "Edge": unknown because' });
  });

  it("an environment without a usable status where the others are inactive", () => {
    expect(verdict([env("Production", "inactive"), env("Edge", "unknown", "unknown", undefined, false)], { codeReferences: REFS(0) }).verdict).toBe("unknown");
  });

  it("every environment unknown", () => {
    expect(verdict([env("Production", "unknown"), env("Staging", "unknown")], { codeReferences: REFS(0) }).verdict).toBe("unknown");
  });

  it("code references not scanned", () => {
    const notScanned: CodeReferenceCount = { known: false, reason: "no --source given" };
    expect(verdict([env("Production", "stale", "stale", "true")], { codeReferences: notScanned })).toMatchObject({ verdict: "unknown", reason: expect.stringContaining("(no --source given)") });
    expect(verdict([env("Production", "inactive")], { codeReferences: notScanned }).verdict).toBe("unknown");
  });

  it("when the flag last changed is not known", () => {
    const lastChange: LastChange = { kind: "unknown", reason: "the audit log answered 500" };
    expect(verdict([env("Production", "stale", "stale", "true")], { lastChange })).toMatchObject({ verdict: "unknown", reason: expect.stringContaining("the audit log answered 500") });
    expect(verdict([env("Production", "setup")], { lastChange, codeReferences: REFS(0) }).verdict).toBe("unknown");
  });

  it("an application without environments", () => {
    expect(verdict([]).verdict).toBe("unknown");
  });

  it("no removal for a permanent flag under any other signal", () => {
    for (const e of [[env("P", "inactive")], [env("P", "stale", "stale", "x")], [env("P", "setup")], [env("P", "unknown")]]) {
      for (const codeReferences of [REFS(0), REFS(5)]) expect(verdict(e, { isPermanent: true, codeReferences }).verdict).toBe("keep");
    }
  });
});

it("a threshold outside 1-365 days is refused", () => {
  expect(() => verdict([], { staleDays: 0 })).toThrow(RangeError);
  expect(() => verdict([], { staleDays: 366 })).toThrow(RangeError);
});

it("removalOrder: each FlagConfiguration before the Flag, then by stack and URN", () => {
  const r = (stack: string, kind: DeclaredResource["kind"], name: string): DeclaredResource => ({ stack, kind, name, urn: `urn:pulumi:${stack}::p::cloudbees:index:${kind}::${name}`, type: `cloudbees:index:${kind}` });
  const order = removalOrder([r("b#prod", "Flag", "f"), r("a#prod", "FlagConfiguration", "f-prod"), r("a#prod", "Flag", "f"), r("a#prod", "FlagConfiguration", "f-dev")]);
  expect(order.map((x) => `${x.stack} ${x.kind} ${x.name}`)).toEqual(["a#prod FlagConfiguration f-dev", "a#prod FlagConfiguration f-prod", "a#prod Flag f", "b#prod Flag f"]);
});
