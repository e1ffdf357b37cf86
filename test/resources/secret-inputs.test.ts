// Issue 63: a value the program marks secret never appears in a check failure. Every input of every resource (the
// schema's), marked secret as each face marks it (the TypeScript face's `__secretInputs`, the plugin's wrappers),
// given a value its check refuses, as a text, in a list and in an object: no failure names the input as its property
// (the engine would print the value: pulumi/pulumi step_generator.go issueCheckFailures) and no failure holds any
// run of the value. The real CLI's lines are test/real-engine/secret-inputs.test.ts's.
import * as fs from "node:fs";
import * as path from "node:path";
import { resources, type ProviderKind } from "../../provider/resources";
import { SECRET_INPUTS_KEY } from "../../provider/resources/shared/secret-inputs";
import { leakedRuns, secretRuns } from "../text/secret-runs";
import { secret } from "../../testing/engine/values";
import { checkingPlugin, urnOf } from "../plugin/plugin-process";
import { REPO_ROOT } from "./helpers";

const SECRET = "hunter2 is\nmy-s3cr3t-Zq9x";
const SHAPES: Array<[string, unknown]> = [
  ["a text", SECRET],
  ["a list", [SECRET]],
  ["an object", { property: SECRET, values: [SECRET] }],
];

const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "generated", "schema.json"), "utf8")) as {
  resources: Record<string, { inputProperties?: Record<string, unknown> }>;
};
const INPUTS = Object.entries(schema.resources).flatMap(([token, r]) => Object.keys(r.inputProperties ?? {}).map((input) => [token.split(":").pop()!, input] as const));
const kindOf = (type: string) => (type[0]!.toLowerCase() + type.slice(1)) as ProviderKind;

type Failure = { property: string; reason: string };

/** Runs of 6 characters of the value, as it is and as a message escapes it: none may appear anywhere. */
const RUNS = secretRuns([SECRET]);

function expectNoSecret(failures: Failure[], input: string): void {
  const text = JSON.stringify(failures);
  expect(leakedRuns(text, RUNS)).toEqual([]);
  expect(failures.filter((f) => f.property === input || f.property.startsWith(`${input}.`) || f.property.startsWith(`${input}[`))).toEqual([]);
}

/** The inputs a failure was about, by its reason: they are named there. */
const named = new Set<string>();

it("every resource of the schema has inputs, and every one is a kind the dynamic providers serve", () => {
  expect(INPUTS.length).toBeGreaterThan(60);
  for (const [type] of INPUTS) expect(resources[kindOf(type)]).toBeDefined();
});

describe("the TypeScript face's controllers, the secret inputs named in __secretInputs", () => {
  it.each(INPUTS)("%s.%s", async (type, input) => {
    for (const [, value] of SHAPES) {
      const { inputs, failures } = await resources[kindOf(type)].check({}, { [input]: value, [SECRET_INPUTS_KEY]: [input] });
      expectNoSecret(failures, input);
      expect(inputs).not.toHaveProperty(SECRET_INPUTS_KEY);
      if (failures.some((f) => f.reason.startsWith(input) || f.reason.includes(` ${input} `))) named.add(`${type}.${input}`);
    }
  });

  it("every input was refused in at least one shape, its failure naming it", () => {
    expect(INPUTS.map(([t, i]) => `${t}.${i}`).filter((k) => !named.has(k))).toEqual([]);
  });
});

describe("the plugin, the secret inputs wrapped as the engine sends them", () => {
  const plugin = checkingPlugin();

  it.each(INPUTS)("%s.%s", async (type, input) => {
    for (const [, value] of SHAPES) {
      const { failures } = await plugin().check(urnOf(type, "leaky"), {}, { [input]: secret(value) } as never);
      expectNoSecret(failures, input);
    }
    expect(plugin().stderr).not.toContain("s3cr3t");
  });
});
