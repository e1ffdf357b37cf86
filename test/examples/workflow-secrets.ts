/** Every string of a parsed workflow that names `secrets.`, with where it stands (`jobs.drift.steps.3.env.TOKEN`). */
export function secretReferences(workflow: unknown): { where: string; value: string }[] {
  const found: { where: string; value: string }[] = [];
  const walk = (node: unknown, where: string[]) => {
    if (typeof node === "string") {
      if (/secrets\./.test(node)) found.push({ where: where.join("."), value: node });
    } else if (Array.isArray(node)) node.forEach((n, i) => walk(n, [...where, String(i)]));
    else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) walk(v, [...where, k]);
  };
  walk(workflow, []);
  return found;
}
