/**
 * The property paths of ignoreChanges and replaceOnChanges, as pulumi/pulumi reads them
 * (sdk/go/common/resource/property_path.go: ParsePropertyPath, PropertyPath.Reset, PropertyPath.Contains; the
 * engine's use in pkg/resource/deploy/step_generator.go processIgnoreChanges). engine-diffs.test.ts runs them
 * through the real provider host; these pin the path rules themselves.
 */
import { parsePropertyPath, pathContains, processIgnoreChanges } from "../../testing/property-path";
import { secret } from "../../testing/values";

describe("ParsePropertyPath", () => {
  it("reads keys, indexes, quoted keys and wildcards", () => {
    expect(parsePropertyPath("a.b")).toEqual(["a", "b"]);
    expect(parsePropertyPath("rules[0].value")).toEqual(["rules", 0, "value"]);
    expect(parsePropertyPath('tags["a.b"]')).toEqual(["tags", "a.b"]);
    expect(parsePropertyPath("list[*].x")).toEqual(["list", "*", "x"]);
    expect(() => parsePropertyPath("a[x]")).toThrow(/not an array index/);
  });
});

describe("Contains (replaceOnChanges against the changed top-level keys)", () => {
  it("a path contains itself and what is under it; a nested path never contains a top-level key", () => {
    expect(pathContains(["a"], ["a"])).toBe(true);
    expect(pathContains(["a"], ["a", "b"])).toBe(true);
    expect(pathContains(["a", "b"], ["a"])).toBe(false);
    expect(pathContains(["*"], ["anything"])).toBe(true);
  });
});

describe("processIgnoreChanges (Reset)", () => {
  it("sets the old value back at a nested path, and removes what the old inputs did not have", () => {
    const olds = { a: { b: 1, c: 1 }, rules: [{ value: 1 }] };
    expect(processIgnoreChanges({ a: { b: 2, c: 2 }, rules: [{ value: 9 }] }, olds, ["a.b", "rules[0].value"])).toEqual({ a: { b: 1, c: 2 }, rules: [{ value: 1 }] });
    expect(processIgnoreChanges({ a: { b: 2, c: 1, d: 3 } }, { a: { b: 2, c: 1 } }, ["a.d"])).toEqual({ a: { b: 2, c: 1 } });
  });

  it("does not create what is missing on both sides; a path missing on one side only is an error", () => {
    expect(processIgnoreChanges({ x: 1 }, { x: 1 }, ["a.b"])).toEqual({ x: 1 });
    expect(() => processIgnoreChanges({ a: 1 }, { a: { b: 1 } }, ["a.b"])).toThrow(
      'cannot ignore changes to the following properties because one or more elements of the path are missing: "a.b"',
    );
    expect(() => processIgnoreChanges({ rules: [] }, { rules: [{ value: 1 }] }, ["rules[0].value"])).toThrow(/"rules\[0\]\.value"/);
  });

  it("an old secret stays secret where it is put back", () => {
    expect(processIgnoreChanges({ s: { k: "new" } }, { s: secret({ k: "old" }) }, ["s.k"])).toEqual({ s: { k: secret("old") } });
  });
});
