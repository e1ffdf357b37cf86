// The package schema (generated/schema.json) is what the sources make (scripts/schema), and every resource's page in
// docs/resources names the same inputs, required ones and outputs: TypeScript types, schema and docs cannot disagree.
import * as fs from "node:fs";
import { tableRows } from "../../scripts/schema/docs";
import { kinds, typeNameOf } from "../../provider/plugin/tokens";
import { makeSchema, SCHEMA_PATH } from "../../scripts/schema/schema";

interface Resource {
  properties: Record<string, { secret?: boolean; replaceOnChanges?: boolean }>;
  inputProperties: Record<string, { replaceOnChanges?: boolean }>;
  requiredInputs?: string[];
}

let made: Record<string, unknown>;
beforeAll(() => {
  made = makeSchema();
});

it("generated/schema.json is what the sources make (npm run schema writes it)", () => {
  const committed = JSON.parse(fs.readFileSync(SCHEMA_PATH, "utf8")) as unknown;
  expect(committed).toEqual(made);
});

it("has a resource per SDK class, with the SDK's type tokens, and the settings as config", () => {
  const resources = made.resources as Record<string, Resource>;
  expect(Object.keys(resources)).toHaveLength(16);
  expect(resources["cloudbees:index:ControllerBundleToken"]!.properties.token!.secret).toBe(true);
  expect(resources["cloudbees:index:ControllerBundleToken"]!.properties.linkFileContent!.secret).toBe(true);
  const variables = (made.config as { variables: Record<string, { secret?: boolean }> }).variables;
  expect(Object.entries(variables).filter(([, v]) => v.secret).map(([k]) => k).sort()).toEqual(["apiToken", "featureManagementToken"]);
});

describe("each resource's page agrees with the schema", () => {
  const resources = JSON.parse(fs.readFileSync(SCHEMA_PATH, "utf8")).resources as Record<string, Resource>;
  for (const [token, resource] of Object.entries(resources)) {
    const name = token.split(":")[2]!;
    it(`${name}: the Inputs table names every input, required ones "yes"; the Outputs table every other output`, () => {
      const inputs = tableRows(name, "Inputs");
      expect(inputs.map((r) => r.name).sort()).toEqual(Object.keys(resource.inputProperties).sort());
      expect(inputs.filter((r) => r.cells[2] === "yes").map((r) => r.name).sort()).toEqual([...(resource.requiredInputs ?? [])].sort());
      const outputs = tableRows(name, "Outputs").map((r) => r.name);
      const computed = Object.keys(resource.properties).filter((k) => !(k in resource.inputProperties));
      expect(outputs.filter((o) => !(o in resource.properties))).toEqual([]);
      expect(computed.filter((o) => !outputs.includes(o))).toEqual([]);
    });
  }
});

it("each resource's TYPE_NAME (its types.ts) is the name in its token", () => {
  for (const kind of kinds()) {
    const folder = kind.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    expect({ kind, name: (require(`../../provider/resources/${folder}/types`) as { TYPE_NAME: string }).TYPE_NAME }).toEqual({ kind, name: typeNameOf(kind) });
  }
});
