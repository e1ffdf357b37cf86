import { resources } from "../../provider/resources";
import { InputChecker } from "../../provider/resources/shared/check";
import { checkAvailableValues, checkConditions, checkValue } from "../../provider/resources/feature-flags/rules";

// check refuses only what the service refuses (issue 39): every form the service wrote itself (rollout/sound-redux-cac;
// the whole corpus is test/resources/real-experiments-program.test.ts) passes; the odd ones pass with a warning that
// says what they will do. The commits cited are where the service wrote each form.
const { flag, flagConfiguration: fc, targetGroup: tg } = resources;
const APP = "5f1e2d3c4b5a69788796a5b4";
const base = { applicationId: APP, environment: "Production", flag: "default.followingView" };

describe("forms the service wrote pass check", () => {
  it.each([
    ["a schedule whose entries carry option (pm_desired_feature, 70ba505)", { value: [{ from: "2022-02-23T11:29:53.808Z", percentage: 0, option: true }, { from: "2022-02-28T19:00:00.000Z", percentage: 100, option: true }] }],
    ["a condition with only a value, the dashboard's All users (matt.testFlag)", { conditions: [{ value: true }] }],
    ["an empty condition (ef1aab6)", { conditions: [{}] }],
    ["a clause without a value (5a5421f)", { conditions: [{ group: { name: "DJ" } }] }],
    ["the group operator nor (a2e6f45)", { conditions: [{ group: { operator: "nor", name: ["DJ", "Beta Users"] }, value: false }] }],
    ["archived (94046ce)", { archived: true }],
    ["labels as one text (bbce2b5)", { labels: "internal" }],
    ["a dependency's value as text (2752eff)", { conditions: [{ dependency: { flag: "default.shuffle", value: "true" }, value: true }] }],
  ])("%s", async (_what, extra) => {
    expect((await fc.check({}, { ...base, ...extra })).failures).toEqual([]);
  });

  it.each([
    ["availableValues holding \"\" (Test.flag)", flag, { applicationId: APP, name: "Test.flag", availableValues: ["", "a"] }],
    ["availableValues [] (titleColors42, 4c4f802)", flag, { applicationId: APP, name: "titleColors42", availableValues: [] }],
    ["a target group with conditions null (SomeNewGroup)", tg, { applicationId: APP, name: "SomeNewGroup", conditions: null }],
    ["a target group without conditions", tg, { applicationId: APP, name: "SomeNewGroup" }],
  ] as const)("%s", async (_what, controller, news) => {
    expect((await (controller as typeof fc).check({}, news)).failures).toEqual([]);
  });
});

describe("odd forms pass with a warning that says what they do", () => {
  const checked = (rule: (c: InputChecker) => void) => {
    const c = new InputChecker({}, []);
    rule(c);
    return { failures: c.failures, warnings: c.warnings.map((w) => `${w.property}: ${w.reason}`) };
  };

  it("a regex JavaScript cannot compile (default.followingComponent, e3aa286): sent as given; the SDK cannot evaluate it", () => {
    const conditions = [{ property: { name: "email", operator: "regex", operand: "*@cloudbees.com" }, value: true }];
    expect(checked((c) => checkConditions(c, "conditions", conditions, [false, true], () => undefined))).toEqual({
      failures: [],
      warnings: [expect.stringMatching(/^conditions\[0\]\.property\.operand: .*"\*@cloudbees\.com" is not a regular expression JavaScript can compile .*counts as false/)],
    });
  });

  it("a version that is none (semver null, bbce2b5; \"1,2,0\", 2a002a5): no release matches", () => {
    for (const semver of [null, "1,2,0"]) {
      const result = checked((c) => checkConditions(c, "conditions", [{ version: { operator: "semver-gte", semver }, value: true }], [false, true], () => undefined));
      expect(result).toEqual({ failures: [], warnings: [expect.stringMatching(/^conditions\[0\]\.version\.semver: .* is not a version: .*never holds/)] });
    }
  });

  it("a string flag's value outside its available values ('10' of defaultEL.startFollowingWord, 7f1817c)", () => {
    expect(checked((c) => checkValue(c, "value", "10", ["Start Following", "Watch Him", "Follow"]))).toEqual({
      failures: [],
      warnings: [expect.stringMatching(/^value: .*value "10" is not one of the flag.s available values .*takes it as given/)],
    });
  });

  it("a split entry without option ([{percentage: 52}], 59c4f8e); a value offered twice (['', ''], AAAAAAA)", () => {
    expect(checked((c) => checkValue(c, "value", [{ percentage: 52 }], [false, true]))).toEqual({ failures: [], warnings: [expect.stringMatching(/^value\[0\]: .*has no option/)] });
    expect(checked((c) => checkAvailableValues(c, "availableValues", ["", ""]))).toEqual({ failures: [], warnings: [expect.stringMatching(/^availableValues\[1\]: .*appears twice/)] });
  });

  it("check prints each warning once, naming the resource, and fails nothing", async () => {
    const printed: string[] = [];
    const spy = jest.spyOn(console, "warn").mockImplementation((line: string) => void printed.push(line));
    try {
      const result = await fc.check({}, { ...base, conditions: [{ property: { name: "user_email", operator: "regex", operand: "*@cloudbees.com" }, value: true }] });
      expect(result.failures).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    expect(printed).toEqual([expect.stringMatching(/^warning: FlagConfiguration "default\.followingView" in "Production": conditions\[0\]\.property\.operand /)]);
  });
});
