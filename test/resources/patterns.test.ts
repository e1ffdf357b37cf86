import { controllersToPattern, escapeRegex, patternToControllers, regexProblem } from "../../provider/resources/shared/pattern";

/** Whole-path match, as the operations center (Java matches()) and the emulator apply a pattern. */
const matches = (pattern: string, path: string) => new RegExp(`^(?:${pattern})$`).test(path);

describe("controllers <-> availability pattern", () => {
  it("builds one canonical, anchored pattern: sorted, without duplicates", () => {
    expect(controllersToPattern(["team-b/controller-b", "sandbox", "sandbox"])).toBe("^(?:sandbox|team-b/controller-b)$");
    expect(controllersToPattern(["sandbox", "team-b/controller-b"])).toBe(controllersToPattern(["team-b/controller-b", "sandbox"]));
  });

  const tricky = ["a.b", "folder (1)/ctl+x", "x|y", "q?", "star*", "[br]", "{c}", "caret^dollar$", "back\\slash", "dash-and space"];

  it("escapes metacharacters so the pattern matches exactly the listed paths", () => {
    const pattern = controllersToPattern(tricky);
    for (const p of tricky) expect(matches(pattern, p)).toBe(true);
    for (const near of ["aXb", "folder 1/ctlx", "x", "y", "q", "sta", "b", "c", "caret", "back/slash", `${tricky[0]}x`, `x${tricky[0]}`]) {
      expect(matches(pattern, near)).toBe(false);
    }
    expect(escapeRegex("a.b(c)")).toBe("a\\.b\\(c\\)");
  });

  it("does not match a longer or shorter path (no prefix or suffix match)", () => {
    const pattern = controllersToPattern(["team-a/controller-a"]);
    expect(matches(pattern, "team-a/controller-a2")).toBe(false);
    expect(matches(pattern, "x/team-a/controller-a")).toBe(false);
    // Even a matcher that searches instead of matching the whole path is held by the anchors.
    expect(new RegExp(pattern).test("x/team-a/controller-a2")).toBe(false);
  });

  it("reads a pattern of that form back as the list, and anything else as undefined", () => {
    expect(patternToControllers(controllersToPattern(tricky))!.sort()).toEqual([...tricky].sort());
    expect(patternToControllers("^(?:b|a)$")).toEqual(["b", "a"]);
    for (const other of ["team-a/.*", "^(?:a.b)$", "^(?:a\\d)$", "^(?:a|)$", "^(?:(a|b))$", "(a|b)", "^(?:a)", "", ".*"]) {
      expect(patternToControllers(other)).toBeUndefined();
    }
  });
});

describe("regexProblem", () => {
  it("passes valid patterns, Java-only syntax included", () => {
    for (const ok of ["team-a/.*", "", "^$", "(?i)team-a/.*", "a++b", "(?>a|b)c", "\\Ateam\\z", "\\p{Alpha}+"]) {
      expect(regexProblem(ok)).toBeUndefined();
    }
  });

  it("names what is wrong with an invalid one", () => {
    expect(regexProblem("team-a/(")).toMatch(/Unterminated group/);
    expect(regexProblem("*a")).toMatch(/Nothing to repeat/);
    expect(regexProblem("[a")).toMatch(/Unterminated character class/);
  });
});
