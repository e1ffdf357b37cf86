/**
 * The package schema of `cloudbees` (generated/schema.json), made from the definitions the TypeScript package is
 * made of, so that the two cannot disagree:
 * - a resource per SDK class (sdk/resources): its inputs from its Args interface, its outputs from the class's
 *   declared Outputs, descriptions from their doc comments, required from `?` and `| undefined`;
 * - secret outputs from the lists the classes and the plugin use (provider/plugin/provider.ts SECRET_OUTPUTS);
 * - what replaces a resource from its page's "What replaces it" (docs/resources), which the plugin's protocol tests
 *   check against the controllers' diff;
 * - a function per invoke the plugin serves (provider/plugin/invokes.ts), typed by the program function's
 *   signature (sdk/functions), or by its invoke form for those that take or give zips (provider/plugin/file-invokes.ts);
 * - the config and the provider's inputs from the settings (provider/config/settings.ts).
 * `npm run schema` writes it; test/plugin/schema.test.ts fails when the file is not what the sources make.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { SETTINGS, type SettingSpec } from "../../provider/config/settings";
import { INVOKES } from "../../provider/plugin/invokes";
import { SECRET_OUTPUTS } from "../../provider/plugin/provider";
import { functionToken, kinds, MODULE, PACKAGE, typeNameOf } from "../../provider/plugin/tokens";
import type { ProviderKind } from "../../provider/resources";
import { replacingInputs } from "./docs";
import { descriptionOf, readSources, resolved, ROOT, type Sources } from "./sources";
import { ANY, TypeMapper, type ObjectTypeSpec, type PropertySpec, type TypeSpec } from "./type-mapper";
import { languageSettings, PACKAGE_DESCRIPTION } from "./languages";

export const SCHEMA_PATH = path.join(ROOT, "generated", "schema.json");

interface ResourceSpec {
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
}

interface FunctionSpec {
  description?: string;
  inputs: { properties: Record<string, PropertySpec>; required?: string[] };
  outputs: { properties: Record<string, PropertySpec>; required?: string[] };
}

const tokenOf = (name: string) => `${PACKAGE}:${MODULE}:${name}`;
const sorted = <T>(entries: Array<[string, T]>): Record<string, T> => Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
const withRequired = (required: string[]) => (required.length ? [...required].sort() : undefined);

function resource(src: Sources, mapper: TypeMapper, kind: ProviderKind, symbol: ts.Symbol): ResourceSpec {
  const name = typeNameOf(kind);
  const decl = symbol.declarations?.find(ts.isClassDeclaration);
  const ctor = decl?.members.find(ts.isConstructorDeclaration);
  const argsType = ctor?.parameters[1]?.type;
  if (!decl || !argsType) throw new Error(`scripts/schema: sdk class ${name} has no constructor(name, args, opts)`);
  const inputs = mapper.properties(src.checker.getTypeFromTypeNode(argsType), name);
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const member of decl.members) {
    if (!ts.isPropertyDeclaration(member) || !member.type || !ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) continue;
    const key = member.name.getText();
    const mapped = mapper.map(member.type, `${name}${key[0]!.toUpperCase()}${key.slice(1)}`);
    const memberSymbol = src.checker.getSymbolAtLocation(member.name);
    const description = (memberSymbol && descriptionOf(src.checker, memberSymbol)) ?? inputs.properties[key]?.description;
    properties[key] = description ? { ...mapped.spec, description } : { ...mapped.spec };
    if (!mapped.optional) required.push(key);
  }
  for (const key of SECRET_OUTPUTS[kind] ?? []) {
    if (!properties[key]) throw new Error(`scripts/schema: ${name} marks ${key} secret but has no such output`);
    properties[key] = { ...properties[key], secret: true };
  }
  for (const key of replacingInputs(name)) {
    if (!inputs.properties[key]) throw new Error(`scripts/schema: docs say a change of ${key} replaces ${name}, which has no such input`);
    inputs.properties[key] = { ...inputs.properties[key], replaceOnChanges: true };
    if (properties[key]) properties[key] = { ...properties[key], replaceOnChanges: true };
  }
  const description = descriptionOf(src.checker, symbol);
  return {
    ...(description ? { description } : {}),
    properties: sorted(Object.entries(properties)),
    required: withRequired(required),
    inputProperties: sorted(Object.entries(inputs.properties)),
    requiredInputs: withRequired(inputs.required),
  };
}

function fn(src: Sources, mapper: TypeMapper, name: string, symbol: ts.Symbol): FunctionSpec {
  const spec = INVOKES[name]!;
  const decl = symbol.declarations?.find(ts.isFunctionDeclaration);
  if (!decl?.type) throw new Error(`scripts/schema: ${name} is no function with a written return type`);
  const params = decl.parameters.map((p) => p.name.getText());
  const positional = params.filter((p) => p !== "options");
  if (JSON.stringify(positional) !== JSON.stringify(spec.params)) {
    throw new Error(`scripts/schema: ${name} takes (${params.join(", ")}), but provider/plugin/invokes.ts says (${spec.params.join(", ")}, options)`);
  }
  const context = `${name[0]!.toUpperCase()}${name.slice(1)}`;
  const inputs: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const p of decl.parameters) {
    if (!p.type) throw new Error(`scripts/schema: ${name}(${p.name.getText()}) has no written type`);
    if (p.name.getText() === "options") {
      const options = mapper.properties(src.checker.getTypeFromTypeNode(p.type), `${context}Options`).properties;
      delete options.settings;
      Object.assign(inputs, options);
      continue;
    }
    const mapped = mapper.map(p.type, `${context}${p.name.getText()}`);
    inputs[p.name.getText()] = mapped.spec;
    if (!mapped.optional && !p.questionToken) required.push(p.name.getText());
  }
  const result = mapper.map(decl.type, `${context}Result`).spec;
  let outputs: FunctionSpec["outputs"];
  if (spec.valueProperty) {
    outputs = { properties: { [spec.valueProperty]: result }, required: [spec.valueProperty] };
  } else if (spec.listProperty) {
    if (!("type" in result) || result.type !== "array") throw new Error(`scripts/schema: ${name} answers no list, but invokes.ts names its list ${spec.listProperty}`);
    outputs = { properties: { [spec.listProperty]: result }, required: [spec.listProperty] };
  } else {
    const type = "$ref" in result ? mapper.types.get(result.$ref.slice(result.$ref.lastIndexOf(":") + 1)) : undefined;
    if (!type) throw new Error(`scripts/schema: ${name} answers no object; give it a listProperty in invokes.ts`);
    outputs = { properties: type.properties, ...(type.required ? { required: type.required } : {}) };
  }
  const description = descriptionOf(src.checker, symbol);
  return {
    ...(description ? { description } : {}),
    inputs: { properties: sorted(Object.entries(inputs)), ...(required.length ? { required } : {}) },
    outputs,
  };
}

/** The settings as config variables and provider inputs: types from SettingValues, the rest from SETTINGS. */
function settings(src: Sources, mapper: TypeMapper): Record<string, PropertySpec> {
  const values = src.exportsOf("provider/config/settings.ts").get("SettingValues");
  const decl = values?.declarations?.[0];
  if (!decl) throw new Error("scripts/schema: provider/config/settings.ts has no SettingValues");
  const typed = mapper.properties(src.checker.getTypeAtLocation(decl), "Settings").properties;
  const out: Record<string, PropertySpec> = {};
  for (const [name, spec] of Object.entries(SETTINGS) as Array<[string, SettingSpec]>) {
    const { description: _d, ...type } = typed[name]!;
    out[name] = { ...(type as TypeSpec), description: `${spec.description[0]!.toUpperCase()}${spec.description.slice(1)}. Environment variable: \`${spec.env}\`.`, ...(spec.secret ? { secret: true } : {}) };
  }
  out.connections = {
    ...ANY,
    description:
      "Named connections, each with the settings above (and `instances`: named controllers with `url`, and their own `username` and " +
      "`apiToken` where they have them), which a resource names with its `connection` input: " +
      "`pulumi config set --path 'cloudbees:connections.prod.operationsCenterUrl' https://ci.example.com/cjoc/`.",
  };
  return sorted(Object.entries(out));
}

/** Drops the named types nothing refers to (a function's result type, whose properties the function's outputs took). */
function referencedOnly(types: Map<string, ObjectTypeSpec>, roots: unknown): Record<string, ObjectTypeSpec> {
  const kept = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      const ref = (value as { $ref?: unknown }).$ref;
      if (typeof ref === "string" && ref.startsWith("#/types/")) {
        const name = ref.slice(ref.lastIndexOf(":") + 1);
        if (!kept.has(name)) {
          kept.add(name);
          visit(types.get(name));
        }
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(roots);
  return sorted([...types].filter(([name]) => kept.has(name)).map(([name, spec]) => [tokenOf(name), spec]));
}

export function makeSchema(): Record<string, unknown> {
  const src = readSources();
  const resourceNames = new Set(kinds().map(typeNameOf));
  const mapper = new TypeMapper(src.checker, tokenOf, resourceNames);
  const classes = src.exportsOf("sdk/resources/index.ts");
  const resources = kinds().map((kind): [string, ResourceSpec] => {
    const symbol = classes.get(typeNameOf(kind));
    if (!symbol || !(symbol.flags & ts.SymbolFlags.Class)) throw new Error(`scripts/schema: sdk/resources exports no class ${typeNameOf(kind)}`);
    return [tokenOf(typeNameOf(kind)), resource(src, mapper, kind, symbol)];
  });
  const functionSymbols = src.exportsOf("sdk/functions/index.ts");
  const zipForms = src.exportsOf("provider/plugin/file-invokes.ts");
  const functions = Object.keys(INVOKES).map((name): [string, FunctionSpec] => {
    const [symbols, file] = INVOKES[name]!.zips ? [zipForms, "provider/plugin/file-invokes.ts"] : [functionSymbols, "sdk/functions"];
    const symbol = symbols.get(name);
    if (!symbol) throw new Error(`scripts/schema: ${file} exports no ${name}`);
    return [functionToken(name), fn(src, mapper, name, resolved(src.checker, symbol))];
  });
  const config = settings(src, mapper);
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; repository: { url: string } };
  const { version } = manifest;
  const repository = githubRepository(manifest.repository.url);
  const body = {
    config: { variables: config },
    provider: {
      description: "The cloudbees provider: the settings of the operations center and the feature-flag account (the stack's `cloudbees:*` config for the default provider).",
      inputProperties: config,
    },
    resources: sorted(resources),
    functions: sorted(functions),
  };
  return {
    name: PACKAGE,
    displayName: "CloudBees",
    version,
    description: PACKAGE_DESCRIPTION,
    keywords: ["pulumi", "cloudbees", "casc", "feature-flags", "kind/native", "category/utility"],
    license: "Apache-2.0",
    repository: `https://github.com/${repository}`,
    // Where the engine downloads the plugin: the project's GitHub releases (the SDKs' pulumi-plugin.json `server`).
    pluginDownloadURL: `github://api.github.com/${repository}`,
    ...body,
    types: referencedOnly(mapper.types, body),
    language: languageSettings(version),
  };
}

/** `owner/name` of package.json's repository URL (`git+https://github.com/owner/name.git`): one source for both. */
export function githubRepository(url: string): string {
  const m = /github\.com[/:]([^/]+\/[^/.]+?)(?:\.git)?$/.exec(url);
  if (!m) throw new Error(`scripts/schema: package.json's repository (${url}) is not a GitHub repository`);
  return m[1]!;
}

/** The schema as the file holds it. */
export function schemaText(): string {
  return `${JSON.stringify(makeSchema(), null, 2)}\n`;
}

if (require.main === module) {
  const text = schemaText();
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(SCHEMA_PATH) ? fs.readFileSync(SCHEMA_PATH, "utf8") : "";
    if (current !== text) {
      console.error(`${path.relative(ROOT, SCHEMA_PATH)} is not what the sources make: run npm run schema`);
      process.exit(1);
    }
  } else {
    fs.mkdirSync(path.dirname(SCHEMA_PATH), { recursive: true });
    fs.writeFileSync(SCHEMA_PATH, text);
    console.log(`wrote ${path.relative(ROOT, SCHEMA_PATH)}`);
  }
}
