import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import type { Props } from "../resources/shared/types";

/**
 * Secrets through the plugin. Unlike the dynamic-provider host, the plugin tells the engine it accepts secrets, so
 * a secret input arrives wrapped (`{<sig key>: <secret sig>, value}`) and what the plugin returns unwrapped is
 * stored in clear. The controllers work on plain values (the dynamic face hands them plain values too): the plugin
 * takes the wrappers off on the way in, remembering which top-level properties held a secret anywhere inside, and
 * puts them back on the way out, around those properties and the outputs a resource always marks secret (a bundle
 * token). A property with a secret anywhere inside comes back secret whole: never less secret than it came. Check
 * is told which inputs came secret (resources/shared/secret-inputs.ts), as the TypeScript face tells it.
 */

export interface Unwrapped {
  plain: Props;
  /** The top-level properties that held a secret. */
  secretKeys: Set<string>;
}

function isSecretWrapper(value: unknown): value is { value?: unknown } {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[specialSigKey] === specialSecretSig;
}

/** The value without any secret wrapper, and whether it held one. */
function strip(value: unknown): { value: unknown; secret: boolean } {
  if (isSecretWrapper(value)) return { value: strip(value.value).value, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(strip);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (typeof value === "object" && value !== null) {
    let secret = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const s = strip(v);
      out[k] = s.value;
      secret ||= s.secret;
    }
    return { value: out, secret };
  }
  return { value, secret: false };
}

export function unwrapSecrets(props: Props | undefined): Unwrapped {
  const plain: Props = {};
  const secretKeys = new Set<string>();
  for (const [k, v] of Object.entries(props ?? {})) {
    const s = strip(v);
    plain[k] = s.value;
    if (s.secret) secretKeys.add(k);
  }
  return { plain, secretKeys };
}

export function secret(value: unknown): Record<string, unknown> {
  return { [specialSigKey]: specialSecretSig, value };
}

/** `props` with each of `keys` that it holds wrapped as a secret (once). */
export function wrapSecrets(props: Props | undefined, keys: Iterable<string>): Props | undefined {
  if (props === undefined) return undefined;
  const out: Props = { ...props };
  for (const k of keys) {
    if (k in out && out[k] !== undefined && !isSecretWrapper(out[k])) out[k] = secret(out[k]);
  }
  return out;
}
