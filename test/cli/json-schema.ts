/**
 * A small validator of the keywords the reports' JSON Schemas use (type, required, properties, additionalProperties,
 * enum, const, items, anyOf, $ref to $defs, minimum, maximum, pattern): the problems of `value`, each with its path.
 * The reports' tests (drift-command, flags-command) check what the commands write against the schemas they ship.
 */
export function schemaProblems(schema: Record<string, unknown>, value: unknown, root: Record<string, unknown> = schema, at = "$"): string[] {
  if (typeof schema.$ref === "string") return schemaProblems((root.$defs as Record<string, Record<string, unknown>>)[schema.$ref.split("/").pop()!]!, value, root, at);
  if (Array.isArray(schema.anyOf)) {
    const each = (schema.anyOf as Record<string, unknown>[]).map((s) => schemaProblems(s, value, root, at));
    return each.some((p) => p.length === 0) ? [] : [`${at}: matches none of anyOf (${each.map((p) => p[0]).join("; ")})`];
  }
  const problems: string[] = [];
  if ("const" in schema && value !== schema.const) problems.push(`${at}: not ${String(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) problems.push(`${at}: not one of ${schema.enum.join(", ")}`);
  const type = schema.type as string | undefined;
  if (type === "object") {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${at}: not an object`];
    const obj = value as Record<string, unknown>;
    for (const k of (schema.required as string[] | undefined) ?? []) if (!(k in obj)) problems.push(`${at}: no ${k}`);
    const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) problems.push(...schemaProblems(props[k]!, v, root, `${at}.${k}`));
      else if (schema.additionalProperties === false) problems.push(`${at}: unexpected ${k}`);
      else if (typeof schema.additionalProperties === "object") problems.push(...schemaProblems(schema.additionalProperties as Record<string, unknown>, v, root, `${at}.${k}`));
    }
  } else if (type === "array") {
    if (!Array.isArray(value)) return [`${at}: not an array`];
    value.forEach((v, i) => problems.push(...schemaProblems(schema.items as Record<string, unknown>, v, root, `${at}[${i}]`)));
  } else if (type === "string") {
    if (typeof value !== "string") problems.push(`${at}: not a string`);
    else if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value)) problems.push(`${at}: does not match ${schema.pattern}`);
  } else if (type === "integer" || type === "number") {
    if (type === "integer" ? !Number.isInteger(value) : typeof value !== "number") problems.push(`${at}: not an ${type}`);
    else {
      if (typeof schema.minimum === "number" && (value as number) < schema.minimum) problems.push(`${at}: below ${schema.minimum}`);
      if (typeof schema.maximum === "number" && (value as number) > schema.maximum) problems.push(`${at}: above ${schema.maximum}`);
    }
  } else if (type === "boolean" && typeof value !== "boolean") problems.push(`${at}: not a boolean`);
  else if (type === "null" && value !== null) problems.push(`${at}: not null`);
  return problems;
}
