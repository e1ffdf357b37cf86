/**
 * Every string the emulator accepts is well-formed Unicode. JSON and YAML escapes (`"\ud800"`) can carry a lone
 * surrogate, which no UTF-8 answer can hold: stored, it made later answers fail (the SDK's configuration endpoint
 * answered 500 for the whole application). Requests are refused at the door instead, naming the field.
 */

/** The path (`body.conditions[0].operand`) of the first string or key of `value` that is not well-formed, or undefined. */
export function illFormedStringIn(value: unknown, path = "body", depth = 0): string | undefined {
  if (typeof value === "string") return isWellFormed(value) ? undefined : path;
  if (depth > 64 || typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = illFormedStringIn(item, `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (!isWellFormed(key)) return `${path} (a key)`;
    const found = illFormedStringIn(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Why `value` cannot be accepted, for a 400 answer; undefined when every string in it is well-formed. */
export function illFormedReason(value: unknown, path = "body"): string | undefined {
  const at = illFormedStringIn(value, path);
  return at ? `${at}: holds a lone surrogate: strings must be well-formed Unicode` : undefined;
}

function isWellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}
