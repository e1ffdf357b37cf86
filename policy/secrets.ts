/**
 * Which inputs the engine sent as secrets. @pulumi/policy hands a policy the inputs with secrets unwrapped (plain
 * values), so a policy cannot tell a token typed into the program from one read from a secret config. The engine
 * does send the distinction: this wraps the library's deserializer to note, per inputs object, the paths that came
 * wrapped as secrets. The values themselves are never kept.
 */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";

type Deserialize = (struct: { toJavaScript(): Record<string, unknown> }, proxySecrets: boolean) => Record<string, unknown>;
const deserialize = require("@pulumi/policy/deserialize") as { deserializeProperties: Deserialize; secretsNoted?: true };
// @pulumi/policy's proxies answer this key with the object they wrap.
const PROXY_TARGET = "__getSpecialProxyTarget";

const secretPaths = new WeakMap<object, Set<string>>();

function collect(value: unknown, at: string, into: Set<string>): void {
  if (value === null || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  if (record[specialSigKey] === specialSecretSig) {
    into.add(at);
    return;
  }
  for (const [k, v] of Object.entries(record)) collect(v, at ? `${at}.${k}` : k, into);
}

/** Installs the wrapper (once per process: the pack loads once). */
export function noteSecrets(): void {
  if (deserialize.secretsNoted) return;
  const original = deserialize.deserializeProperties;
  deserialize.deserializeProperties = (struct, proxySecrets) => {
    const props = original(struct, proxySecrets);
    const paths = new Set<string>();
    collect(struct.toJavaScript(), "", paths);
    secretPaths.set(props, paths);
    return props;
  };
  deserialize.secretsNoted = true;
}

/**
 * Whether the input at `path` (`apiToken`, `connections.prod.apiToken`) was sent as a secret, or inside one.
 * Undefined: the inputs did not come through the wrapper (a test's constructed arguments, say).
 */
export function isSecret(props: Record<string, unknown>, path: string): boolean | undefined {
  const target = ((props as Record<string, unknown>)[PROXY_TARGET] as object | undefined) ?? props;
  const paths = secretPaths.get(target);
  if (!paths) return undefined;
  const parts = path.split(".");
  return parts.some((_, i) => paths.has(parts.slice(0, i + 1).join(".")));
}

/** For tests: marks `paths` of a constructed inputs object as sent secret. */
export function markSecret(props: Record<string, unknown>, paths: string[]): Record<string, unknown> {
  secretPaths.set(props, new Set(paths));
  return props;
}
