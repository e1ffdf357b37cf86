/**
 * The property paths of ignoreChanges and replaceOnChanges, as pulumi/pulumi reads them
 * (sdk/go/common/resource/property_path.go: ParsePropertyPath, PropertyPath.Reset, PropertyPath.Contains; the
 * engine's use in pkg/resource/deploy/step_generator.go processIgnoreChanges). engine-diffs.test.ts runs them
 * through the real provider host; these pin the path rules themselves.
 */
import { invalidPathsMessage, parsePropertyPath, pathContains, processIgnoreChanges } from "../../testing/engine/property-path";
import { secret } from "../../testing/engine/values";

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
  const ignore = (news: Record<string, unknown>, olds: Record<string, unknown>, paths: string[]) => processIgnoreChanges(news, olds, paths).inputs;

  it("sets the old value back at a nested path, and removes what the old inputs did not have", () => {
    const olds = { a: { b: 1, c: 1 }, rules: [{ value: 1 }] };
    expect(ignore({ a: { b: 2, c: 2 }, rules: [{ value: 9 }] }, olds, ["a.b", "rules[0].value"])).toEqual({ a: { b: 1, c: 2 }, rules: [{ value: 1 }] });
    expect(ignore({ a: { b: 2, c: 1, d: 3 } }, { a: { b: 2, c: 1 } }, ["a.d"])).toEqual({ a: { b: 2, c: 1 } });
  });

  it("does not create what is missing on both sides; a path missing on one side only resets nothing and is listed", () => {
    expect(processIgnoreChanges({ x: 1 }, { x: 1 }, ["a.b"])).toEqual({ inputs: { x: 1 }, invalid: [] });
    expect(processIgnoreChanges({ a: 1 }, { a: { b: 1 } }, ["a.b"])).toEqual({ inputs: { a: 1 }, invalid: ["a.b"] });
    const missing = processIgnoreChanges({ rules: [] }, { rules: [{ value: 1 }] }, ["rules[0].value", "x[1]"]);
    expect(missing.invalid).toEqual(["rules[0].value"]);
    // pulumi v3.248.0 step_generator.go processIgnoreChanges: an info message, Go's %q of the list.
    expect(invalidPathsMessage(["rules[0].value", "a.b"])).toBe('cannot ignore changes in added or removed elements of the path: "rules[0].value, a.b"');
  });

  it("copies the top level only, as PropertyMap.Copy: a nested reset changes the program's inputs too, a top-level one does not", () => {
    const news = { spec: { a: 7, b: 2 }, rules: [{ value: 4 }], text: "new" };
    const olds = { spec: { a: 5, b: 2 }, rules: [{ value: 9 }] };
    expect(ignore(news, olds, ["spec.a", "rules", "text"])).toEqual({ spec: { a: 5, b: 2 }, rules: [{ value: 9 }] });
    expect(news).toEqual({ spec: { a: 5, b: 2 }, rules: [{ value: 4 }], text: "new" });
    // What was carried over is a copy: the old inputs stay as they were.
    const patched = ignore({ spec: { a: 1 } }, olds, ["spec"]);
    (patched.spec as { a: number }).a = 0;
    expect(olds.spec.a).toBe(5);
  });

  it("an old secret stays secret where it is put back", () => {
    expect(ignore({ s: { k: "new" } }, { s: secret({ k: "old" }) }, ["s.k"])).toEqual({ s: { k: secret("old") } });
  });
});
