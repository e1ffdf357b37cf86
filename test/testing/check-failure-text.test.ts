/* istanbul ignore file */
/**
 * The words of a failed check (testing/engine/engine-errors.ts), beside pulumi/pulumi v3.248.0: step_generator.go
 * issueCheckFailures, sdk/go/common/diag/errors.go (codes 2002, 2003) and resource.PropertyValue.String()
 * (properties.go: `{%v}` of the value). The values' forms are Go's fmt %v: a float64 as %g with the shortest digits
 * (strconv.FormatFloat(f, 'g', -1, 64): the exponent form when it is below -4 or from 6 on, at least two digits), a
 * slice as `[a b]`, a map as `map[k:v]` with its keys sorted, nil as `<nil>`. test/testing/engine-diffs.test.ts runs
 * a failed check on both engines.
 */
import { CheckFailedError, goPropertyValue } from "../../testing/engine/engine-errors";
import { secret, UNKNOWN } from "../../testing/engine/values";

describe("goPropertyValue", () => {
  it.each([
    ["text", "{text}"],
    [true, "{true}"],
    [5, "{5}"],
    [-1.5, "{-1.5}"],
    [123456, "{123456}"],
    [1234567, "{1.234567e+06}"],
    [1e21, "{1e+21}"],
    [0.0001, "{0.0001}"],
    [0.00001, "{1e-05}"],
    [null, "{<nil>}"],
    [undefined, "{<nil>}"],
    [["a", 1], "{[{a} {1}]}"],
    [{ b: [true], a: {} }, "{map[a:{map[]} b:{[{true}]}]}"],
  ])("%j prints as %s", (value, text) => {
    expect(goPropertyValue(value)).toBe(text);
  });

  it("a secret's value never shows (the engine would print it); an unknown shows as the engine's computed form", () => {
    expect(goPropertyValue(secret("s3cr3t"))).toBe("{[secret]}");
    expect(goPropertyValue({ token: secret("s3cr3t") })).toBe("{map[token:{[secret]}]}");
    expect(goPropertyValue(UNKNOWN)).toBe("{output{}}");
  });
});

describe("CheckFailedError", () => {
  const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/cloudbees:Group$pulumi-nodejs:dynamic/cloudbees:Flag::a::b";

  it("one line per failure, led by the URN: a property's with its value, the resource's without", () => {
    const e = new CheckFailedError(urn, [{ property: "name", reason: "bad name" }, { property: "", reason: "bad resource" }], { name: "x/y" });
    expect(e.message).toBe(
      `${urn}: pulumi-nodejs:dynamic/cloudbees:Flag resource 'a::b': property name value {x/y} has a problem: bad name\n` +
        `${urn}: pulumi-nodejs:dynamic/cloudbees:Flag resource 'a::b' has a problem: bad resource`,
    );
    expect(e.failures).toHaveLength(2);
  });

  it("a nested property is no key of the inputs: its value prints as nil, as the engine's lookup finds none", () => {
    const e = new CheckFailedError(urn, [{ property: "rules[0]", reason: "r" }], { rules: [1] });
    expect(e.message).toContain("property rules[0] value {<nil>} has a problem: r");
  });
});
