/**
 * The alias URNs the engine stand-in computes, rule by rule, as pulumi/pulumi's step generator does
 * (pkg/resource/deploy/step_generator.go collapseAliasToUrn, inheritedChildAlias, generateAliases).
 * engine-options.test.ts runs renames, moves and retypes through the real provider host.
 */
import { aliasUrns, createUrn, type AliasContext } from "../../testing/engine/aliases";

const STACK_URN = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
const urn = (qualifiedType: string, name: string) => `urn:pulumi:dev::proj::${qualifiedType}::${name}`;
const ctx = (known: Record<string, string[]> = {}): AliasContext => ({ project: "proj", stack: "dev", parentAliases: (u) => known[u] ?? [] });
const spec = (s: Partial<{ name: string; type: string; stack: string; project: string; parentUrn: string; noParent: boolean }>) => ({
  name: "", type: "", stack: "", project: "", parentUrn: "", noParent: false, ...s,
});

describe("collapseAliasToUrn", () => {
  it("fills what the alias leaves empty from the resource; a root-stack parent is no parent", () => {
    const goal = { type: "t:m:R", name: "new", parent: STACK_URN };
    expect(aliasUrns(ctx(), { ...goal, aliases: [spec({ name: "old", parentUrn: STACK_URN })] })).toEqual([urn("t:m:R", "old")]);
    expect(aliasUrns(ctx(), { ...goal, aliases: [spec({ type: "t:m:Old", parentUrn: STACK_URN })] })).toEqual([urn("t:m:Old", "new")]);
    expect(aliasUrns(ctx(), { ...goal, aliases: [{ urn: "urn:given" }] })).toEqual(["urn:given"]);
  });

  it("a parent's type chain goes into the URN; noParent drops it; other stacks and projects are named", () => {
    const parent = urn("c:m:Group", "g");
    const goal = { type: "t:m:R", name: "r", parent };
    expect(aliasUrns(ctx(), { ...goal, aliases: [spec({ name: "old", parentUrn: parent })] })).toEqual([urn("c:m:Group$t:m:R", "old")]);
    expect(aliasUrns(ctx(), { ...goal, aliases: [spec({ noParent: true })] })).toEqual([urn("t:m:R", "r")]);
    expect(aliasUrns(ctx(), { ...goal, aliases: [spec({ stack: "prod", project: "other", noParent: true })] })).toEqual(["urn:pulumi:prod::other::t:m:R::r"]);
  });
});

describe("generateAliases: the parent's aliases multiplied out", () => {
  it("a child of an aliased parent gets the parent's old URN in its own; a name made from the parent's follows its rename", () => {
    const parent = urn("c:m:Group", "newapp");
    const oldParent = urn("c:m:Group", "app");
    const known = ctx({ [parent]: [oldParent] });
    expect(aliasUrns(known, { type: "t:m:R", name: "newapp-function", parent, aliases: [] })).toEqual([urn("c:m:Group$t:m:R", "app-function")]);
    expect(aliasUrns(known, { type: "t:m:R", name: "other", parent, aliases: [] })).toEqual([urn("c:m:Group$t:m:R", "other")]);
  });

  it("an alias of the child under the parent's old URN as well", () => {
    const parent = urn("c:m:Panel", "ui");
    const oldParent = urn("c:m:Group", "ui");
    expect(aliasUrns(ctx({ [parent]: [oldParent] }), { type: "t:m:R", name: "new", parent, aliases: [spec({ name: "old", parentUrn: parent })] })).toEqual([
      urn("c:m:Group$t:m:R", "old"),
      urn("c:m:Group$t:m:R", "new"),
    ]);
  });

  it("createUrn", () => {
    expect(createUrn("n", "t:m:R", "", "p", "s")).toBe("urn:pulumi:s::p::t:m:R::n");
    expect(createUrn("n", "t:m:R", "urn:pulumi:s::p::a:b:C$d:e:F::x", "p", "s")).toBe("urn:pulumi:s::p::a:b:C$d:e:F$t:m:R::n");
  });
});
