/**
 * TypeScript types as Pulumi schema types (https://www.pulumi.com/docs/iac/extending-pulumi/schema/): the types
 * programs give and get (`pulumi.Input<string>`, `ConditionInput[]`, `Record<string, ...>`) become `string`, arrays
 * of `#/types/cloudbees:index:Condition`, maps. An interface (or an object type written inline) becomes a named
 * object type; its input form and its output form (`ConditionInput` in the SDK's Args, `Condition` in its outputs)
 * are one schema type, whose properties are both's and whose required properties are those both require. A value
 * of several forms (a flag value: an option, a split or a schedule) is `pulumi.json#/Any`, described in words.
 */
import * as ts from "typescript";
import { descriptionOf } from "./sources";

export type TypeSpec =
  | { type: "string" | "number" | "integer" | "boolean" }
  | { type: "array"; items: TypeSpec }
  | { type: "object"; additionalProperties: TypeSpec }
  | { $ref: string };

export type PropertySpec = TypeSpec & { description?: string; secret?: boolean; replaceOnChanges?: boolean };

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };
const STRING: TypeSpec = { type: "string" };

/** Wrappers a value passes through unchanged: a program's Input, a resource's Output, a function's Promise. */
const TRANSPARENT = new Set(["pulumi.Input", "pulumi.Output", "Input", "Output", "Promise"]);

const capitalized = (s: string) => s[0]!.toUpperCase() + s.slice(1);
/** The name of one item of a list or map named `name` (`Versions` -> `Version`). */
const singular = (name: string) => (/[^s]s$/.test(name) ? name.slice(0, -1) : name);

function same(a: TypeSpec, b: TypeSpec): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class TypeMapper {
  /** The named object types, by name (their token is `cloudbees:index:<name>`). */
  readonly types = new Map<string, ObjectTypeSpec>();
  /** The declarations each named type was made from, so that a second visit of one adds nothing. */
  private readonly seen = new Map<string, Set<ts.Node>>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly tokenOf: (name: string) => string,
    /** Names taken by resources: a type of the same name gets `Info` after it (the records `Environment`, `Flag`). */
    private readonly resourceNames: ReadonlySet<string>,
  ) {}

  /** A type written in the sources, and whether it allows undefined (or null: an absent value in the schema). */
  map(node: ts.TypeNode, context: string): { spec: TypeSpec; optional: boolean } {
    if (ts.isParenthesizedTypeNode(node)) return this.map(node.type, context);
    if (ts.isTypeOperatorNode(node)) return this.map(node.type, context);
    if (ts.isArrayTypeNode(node)) return { spec: { type: "array", items: this.map(node.elementType, singular(context)).spec }, optional: false };
    if (ts.isUnionTypeNode(node)) return this.union(node, context);
    if (ts.isTypeLiteralNode(node)) return { spec: this.objectType(context, node, this.checker.getTypeFromTypeNode(node)), optional: false };
    if (ts.isLiteralTypeNode(node)) {
      if (node.literal.kind === ts.SyntaxKind.NullKeyword) return { spec: ANY, optional: true };
      return { spec: this.classify(this.checker.getTypeFromTypeNode(node)), optional: false };
    }
    if (node.kind === ts.SyntaxKind.UndefinedKeyword) return { spec: ANY, optional: true };
    if (node.kind === ts.SyntaxKind.StringKeyword) return { spec: STRING, optional: false };
    if (node.kind === ts.SyntaxKind.NumberKeyword) return { spec: { type: "number" }, optional: false };
    if (node.kind === ts.SyntaxKind.BooleanKeyword) return { spec: { type: "boolean" }, optional: false };
    if (ts.isTypeReferenceNode(node)) return this.reference(node, context);
    return { spec: this.classify(this.checker.getTypeFromTypeNode(node)), optional: false };
  }

  private union(node: ts.UnionTypeNode, context: string): { spec: TypeSpec; optional: boolean } {
    const members = node.types.map((t) => ({ node: t, ...this.map(t, context) }));
    const optional = members.some((m) => m.optional);
    const present = members.filter((m) => m.node.kind !== ts.SyntaxKind.UndefinedKeyword && !isNullLiteral(m.node));
    const specs = present.map((m) => m.spec);
    if (specs.length > 0 && specs.every((s) => same(s, specs[0]!))) return { spec: specs[0]!, optional };
    return { spec: ANY, optional };
  }

  private reference(node: ts.TypeReferenceNode, context: string): { spec: TypeSpec; optional: boolean } {
    const name = node.typeName.getText();
    const args = node.typeArguments ?? ts.factory.createNodeArray<ts.TypeNode>();
    if (TRANSPARENT.has(name) && args[0]) return this.map(args[0], context);
    if ((name === "Array" || name === "ReadonlyArray") && args[0]) {
      return { spec: { type: "array", items: this.map(args[0], singular(context)).spec }, optional: false };
    }
    if (name === "Record" && args[1]) return { spec: { type: "object", additionalProperties: this.map(args[1], singular(context)).spec }, optional: false };
    if (name === "Date") return { spec: STRING, optional: false };
    const symbol = this.checker.getSymbolAtLocation(node.typeName);
    const target = symbol && (symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol);
    const decl = target?.declarations?.[0];
    if (decl && ts.isInterfaceDeclaration(decl)) {
      return { spec: this.objectType(decl.name.text, decl, this.checker.getTypeAtLocation(decl), target), optional: false };
    }
    if (decl && ts.isTypeAliasDeclaration(decl) && !decl.typeParameters) return this.map(decl.type, decl.name.text);
    return { spec: this.classify(this.checker.getTypeFromTypeNode(node)), optional: false };
  }

  /** A type the syntax does not show (`(typeof OPERATORS)[number]`): text, number, true/false, or anything. */
  private classify(type: ts.Type): TypeSpec {
    const parts = (type.isUnion() ? type.types : [type]).filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
    if (parts.every((t) => t.flags & ts.TypeFlags.StringLike)) return STRING;
    if (parts.every((t) => t.flags & ts.TypeFlags.NumberLike)) return { type: "number" };
    if (parts.every((t) => t.flags & ts.TypeFlags.BooleanLike)) return { type: "boolean" };
    return ANY;
  }

  /** The properties of an object type (inherited ones too), each with its description and whether it is required. */
  properties(type: ts.Type, context: string): { properties: Record<string, PropertySpec>; required: string[] } {
    const properties: Record<string, PropertySpec> = {};
    const required: string[] = [];
    for (const symbol of this.checker.getPropertiesOfType(type)) {
      const decl = symbol.valueDeclaration;
      if (!decl || !(ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) || !decl.type) {
        throw new Error(`scripts/schema: ${context}.${symbol.name} has no written type`);
      }
      const mapped = this.map(decl.type, `${context}${capitalized(symbol.name)}`);
      const description = descriptionOf(this.checker, symbol);
      properties[symbol.name] = description ? { ...mapped.spec, description } : { ...mapped.spec };
      if (!mapped.optional && !decl.questionToken) required.push(symbol.name);
    }
    return { properties, required };
  }

  /** The named object type of a declaration (registered once; a second form of it merged in). */
  private objectType(rawName: string, decl: ts.Node, type: ts.Type, symbol?: ts.Symbol): TypeSpec {
    let name = rawName.replace(/Input$/, "");
    if (this.resourceNames.has(name)) name = `${name}Info`;
    const ref = { $ref: `#/types/${this.tokenOf(name)}` };
    const seen = this.seen.get(name) ?? new Set<ts.Node>();
    if (seen.has(decl)) return ref;
    seen.add(decl);
    this.seen.set(name, seen);
    const existing = this.types.get(name);
    // Registered before its properties are mapped: a type that refers to itself ends here.
    if (!existing) this.types.set(name, { type: "object", properties: {} });
    const { properties, required } = this.properties(type, name);
    const description = symbol && descriptionOf(this.checker, symbol);
    this.types.set(name, existing ? merged(name, existing, properties, required) : withRequired({ type: "object", ...(description ? { description } : {}), properties }, required));
    return ref;
  }
}

function isAny(t: TypeSpec): boolean {
  return (t as { $ref?: string }).$ref === "pulumi.json#/Any";
}

function isNullLiteral(node: ts.TypeNode): boolean {
  return ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword;
}

function withRequired(spec: ObjectTypeSpec, required: string[]): ObjectTypeSpec {
  return required.length ? { ...spec, required: [...required].sort() } : spec;
}

/** Two forms of one type: every property of either (each of the same type in both), required where both require it. */
function merged(name: string, a: ObjectTypeSpec, properties: Record<string, PropertySpec>, required: string[]): ObjectTypeSpec {
  const out: Record<string, PropertySpec> = { ...a.properties };
  for (const [key, spec] of Object.entries(properties)) {
    const old = out[key];
    if (!old) {
      out[key] = spec;
      continue;
    }
    const { description: d1, ...t1 } = old;
    const { description: d2, ...t2 } = spec;
    // A record may read more than a program declares (the service's ScheduledValue.option is any value, a
    // program's schedule a boolean): Any covers both forms; any other pair must agree.
    const widest = isAny(t1 as TypeSpec) ? t1 : isAny(t2 as TypeSpec) ? t2 : undefined;
    if (!widest && !same(t1 as TypeSpec, t2 as TypeSpec)) {
      throw new Error(`scripts/schema: ${name}.${key} has two types in the sources: ${JSON.stringify(t1)} and ${JSON.stringify(t2)}`);
    }
    const type = (widest ?? t1) as TypeSpec;
    out[key] = d1 ?? d2 ? { ...type, description: d1 ?? d2 } : (widest ? { ...type } : old);
  }
  const both = (a.required ?? []).filter((r) => required.includes(r) && r in properties);
  const { required: _r, ...rest } = a;
  return withRequired({ ...rest, properties: out }, both);
}
