import { quoted } from "../text/printable";
import { shortHash } from "./canonical";

// The key form of a compared path: "<file>: <path>". A path is a list of segments so that it can be folded into
// its parents (bound.ts); a segment is
//   - a mapping key: `adminAddress`, written after a dot; a key that is not a plain name (a dot, a space, a control
//     character, more than 64 characters) is written quoted and escaped: `."my key"`;
//   - a list entry picked by its identity (`id`, else `name`, else the `id`/`name` of the one mapping it wraps, as
//     in `- usernamePassword: {id: x}`): `["github-token"]`;
//   - a list entry picked by its position, in a list of mappings without identities: `[0]`;
//   - in plugins.yaml, plugin-catalog.yaml, rbac.yaml and items.yaml, the entry itself: `ssh-agent`, `role "dev"`,
//     `item "team/deploy"`.
// Server text in a segment is escaped (provider/text/printable) and bounded: a name longer than MAX_NAME_LENGTH keeps
// its start and a hash of the whole, so two long names stay two keys.

/** Longest name (mapping key, identity, item name) written whole in a key. */
export const MAX_NAME_LENGTH = 100;
/** Longest key; a longer one keeps its start and a hash of the whole. */
export const MAX_KEY_LENGTH = 400;

const PLAIN_NAME = /^[A-Za-z0-9_$@-]{1,64}$/;

/** A name cut to MAX_NAME_LENGTH characters, with a hash of the whole when cut. */
export function boundedName(name: string): string {
  return name.length <= MAX_NAME_LENGTH ? name : `${name.slice(0, MAX_NAME_LENGTH - 20)}...${shortHash(name, 12)}`;
}

/** A mapping key as a segment: `adminAddress`, or `"a.b"` quoted and escaped when it is not a plain name. */
export function keySegment(key: string): string {
  return PLAIN_NAME.test(key) ? key : quoted(boundedName(key));
}

/** A list entry picked by its identity. */
export function identitySegment(identity: string): string {
  return `[${quoted(boundedName(identity))}]`;
}

/** A list entry picked by its position. */
export function indexSegment(index: number): string {
  return `[${index}]`;
}

/** A plugin id as a segment (plugin ids are plain names; anything else is quoted). */
export function pluginSegment(id: string): string {
  return /^[A-Za-z0-9_.-]{1,100}$/.test(id) ? id : quoted(boundedName(id));
}

/** An entry of rbac.yaml or items.yaml: `role "developer"`, `item "team/deploy"`. */
export function namedSegment(kind: "item" | "role" | "group", name: string): string {
  return `${kind} ${quoted(boundedName(name))}`;
}

/** The path of segments as written: dots before mapping keys, none before list selectors. */
export function pathText(segments: readonly string[]): string {
  let out = "";
  for (const s of segments) out += out === "" || s.startsWith("[") ? s : `.${s}`;
  return out;
}

/** The key of a path in a file: "<file>: <path>", or the file alone for the empty path (a whole folded file). */
export function keyOf(file: string, segments: readonly string[]): string {
  const key = segments.length === 0 ? file : `${file}: ${pathText(segments)}`;
  return key.length <= MAX_KEY_LENGTH ? key : `${key.slice(0, MAX_KEY_LENGTH - 20)}...${shortHash(key, 12)}`;
}
