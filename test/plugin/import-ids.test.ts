// The ids `pulumi import` takes are the resources' own ids (their types.ts idOf), read back into the properties a
// read starts from; the examples the docs and errors show have that form.
import { IMPORT_IDS, propsForRead } from "../../provider/plugin/import-ids";
import { kinds, typeNameOf } from "../../provider/plugin/tokens";
import { pageOf, sectionOf } from "../../scripts/schema/docs";
import { idOf as flagId } from "../../provider/resources/flag/types";
import { idOf as configurationId } from "../../provider/resources/flag-configuration/types";
import { idOf as targetGroupId } from "../../provider/resources/target-group/types";
import { idOf as availabilityId } from "../../provider/resources/bundle-availability/types";
import { idOf as assignmentId } from "../../provider/resources/controller-bundle-assignment/types";
import { idOf as tokenId } from "../../provider/resources/controller-bundle-token/types";
import { ID as globalPatternId } from "../../provider/resources/global-availability-pattern/types";

const read = (kind: Parameters<typeof propsForRead>[0], id: string) => propsForRead(kind, typeNameOf(kind), id, {});

it("the feature-flag ids carry the identity their idOf puts in them", () => {
  expect(read("flag", flagId("app1", "checkout.newFlow"))).toEqual({ applicationId: "app1", name: "checkout.newFlow" });
  expect(read("targetGroup", targetGroupId("app1", "beta users"))).toEqual({ applicationId: "app1", name: "beta users" });
  expect(read("flagConfiguration", configurationId("app1", "Production", "ns/flag"))).toEqual({ applicationId: "app1", environment: "Production", flag: "ns/flag" });
  // An environment's id is its key, which a user does not know: it is imported by <applicationId>/<name>.
  expect(read("environment", "app1/Staging")).toEqual({ applicationId: "app1", name: "Staging" });
});

it("the CasC ids are read by the controllers themselves; only the properties are empty", () => {
  for (const [kind, id] of [
    ["bundleAvailability", availabilityId("team-a")],
    ["controllerBundleAssignment", assignmentId("team-a/controller-a")],
    ["controllerBundleToken", tokenId("team-a/controller-a")],
    ["globalAvailabilityPattern", globalPatternId],
  ] as const) {
    expect(read(kind, id)).toEqual({});
  }
});

it("every example id is of its own form; a state's properties are used as they are", () => {
  for (const [kind, scheme] of Object.entries(IMPORT_IDS)) expect({ kind, props: scheme.read(scheme.example) }).not.toEqual({ kind, props: undefined });
  expect(propsForRead("flag", "Flag", "whatever", { applicationId: "a", name: "n" })).toEqual({ applicationId: "a", name: "n" });
});

it("a kind without an import says why, and a malformed id names the form", () => {
  const importable = Object.keys(IMPORT_IDS).sort();
  expect(kinds().filter((k) => !importable.includes(k)).sort()).toEqual(["bundleCheckout", "bundleReload", "bundleValidation", "defaultBundle", "items"]);
  expect(() => read("items", "items/operations-center")).toThrow("Items cannot be imported: it is an action (items created from YAML), with nothing to adopt; declare it instead");
  expect(() => read("flagConfiguration", "app1/Production")).toThrow('importing FlagConfiguration: "app1/Production" is not an id of the form "6b04319012a9f465249c6dce/Production/checkout.newFlow"');
});

describe("each resource page's Import section shows the command, or says it cannot be imported", () => {
  for (const kind of kinds()) {
    const type = typeNameOf(kind);
    it(type, () => {
      const section = sectionOf(pageOf(type), "Import");
      const commands = [...section.matchAll(/^pulumi import (\S+) (\S+) (\S+)$/gm)];
      if (!IMPORT_IDS[kind]) {
        expect({ commands: commands.length, says: /cannot adopt it/.test(section) }).toEqual({ commands: 0, says: true });
        return;
      }
      expect(commands).toHaveLength(1);
      const [, token, , id] = commands[0]!;
      expect(token).toBe(`cloudbees:index:${type}`);
      expect(() => read(kind, id!)).not.toThrow();
    });
  }
});
