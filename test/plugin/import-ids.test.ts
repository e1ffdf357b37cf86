// The ids `pulumi import` takes are the resources' own ids (their types.ts idOf), read back into the properties a
// read starts from; the examples the docs and errors show have that form.
import { IMPORT_IDS, importStart, propsForRead } from "../../provider/plugin/import-ids";
import { kinds, typeNameOf } from "../../provider/plugin/tokens";
import { pageOf, sectionOf } from "../../scripts/schema/docs";
import { idOf as flagId } from "../../provider/resources/flag/types";
import { idOf as configurationId } from "../../provider/resources/flag-configuration/types";
import { idOf as targetGroupId } from "../../provider/resources/target-group/types";
import { idOf as availabilityId } from "../../provider/resources/bundle-availability/types";
import { idOf as assignmentId } from "../../provider/resources/controller-bundle-assignment/types";
import { idOf as tokenId } from "../../provider/resources/controller-bundle-token/types";
import { ID as globalPatternId } from "../../provider/resources/global-availability-pattern/types";
import { operationFailed } from "../../provider/resources/shared/errors";
import { printable } from "../../provider/text/printable";

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
  expect(kinds().filter((k) => !importable.includes(k)).sort()).toEqual(["bundleCheckout", "bundleReload", "bundleValidation", "controllerConfiguration", "defaultBundle", "items"]);
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
      // The default connection's command, then the same from a named connection (`prod:<id>`).
      expect(commands).toHaveLength(2);
      const [, token, name, id] = commands[0]!;
      expect(token).toBe(`cloudbees:index:${type}`);
      expect(() => read(kind, id!)).not.toThrow();
      expect(commands[1]!.slice(1)).toEqual([token, name, `prod:${id}`]);
      expect(importStart(kind, type, commands[1]![3]!)).toEqual({ id, props: { ...read(kind, id!), connection: "prod" } });
    });
  }
});

describe("an import id in an error is quoted, escaped and bounded, on every path", () => {
  const hostile = ["a\u001b[2J\nb", "x\n::error::forged", "x ##vso[task.setvariable variable=a]b", "\u202eevil"];

  it("an id no object can have is refused before any request, shown quoted and escaped on one line", () => {
    for (const id of hostile) {
      const message = (() => {
        try {
          read("flag", id);
          return "read";
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect({ id, printable: printable(message) === message }).toEqual({ id, printable: true });
      expect(message).toMatch(/^importing Flag: ".*" names no Flag: an id has at most 1000 characters/);
    }
  });

  it("a 200 KB id is shown cut to 200 characters, with its length, once", () => {
    const id = `app/${"x".repeat(200 * 1024)}`;
    const message = (() => {
      try {
        read("flag", id);
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message).toContain(`(${id.length} characters)`);
    expect(message.length).toBeLessThan(600);
  });

  it("an id that passes reaches the controllers' errors escaped and bounded too (operationFailed)", () => {
    expect(operationFailed("reading Flag", "app/f", "gone").message).toBe("reading Flag (app/f): gone");
    const forged = operationFailed("reading Flag", "app/f\n::error::forged", "gone").message;
    expect(forged).toBe('reading Flag ("app/f\\n::error::forged"): gone');
    expect(operationFailed("reading Flag", "y".repeat(5000), "gone").message.length).toBeLessThan(300);
  });
});

describe("an import from a named connection: <connection>:<id>", () => {
  it("names the connection before the id, which keeps its own form", () => {
    expect(importStart("flag", "Flag", "prod:app1/checkout.newFlow")).toEqual({ id: "app1/checkout.newFlow", props: { applicationId: "app1", name: "checkout.newFlow", connection: "prod" } });
    expect(importStart("bundleAvailability", "BundleAvailability", "prod:bundle-availability/team-a")).toEqual({ id: "bundle-availability/team-a", props: { connection: "prod" } });
    expect(importStart("teamMember", "TeamMember", "staging_2:dana@checkout.example")).toEqual({ id: "dana@checkout.example", props: { connection: "staging_2" } });
  });

  it("an id without a prefix is the default connection's, even with a colon of its own after a slash", () => {
    expect(importStart("flag", "Flag", "app1/ns:flag")).toEqual({ id: "app1/ns:flag", props: { applicationId: "app1", name: "ns:flag" } });
    expect(importStart("application", "Application", "6b04319012a9f465249c6dce")).toEqual({ id: "6b04319012a9f465249c6dce", props: {} });
  });
});
