/**
 * Text read from a server, written into the program `pulumi-cloudbees import` generates: one escaping function per
 * place it can land (a string literal, a `//` comment, a shell word), so that no value can end the place it is in.
 * TypeScript ends a `//` comment and a line at LF, CR, U+2028 and U+2029; a JSON string leaves the last two as
 * they are. Other invisible characters (C1 controls, bidirectional overrides, zero-width characters) are escaped
 * too, so that what a reviewer reads is what the compiler reads: the set of characters of every message to a person
 * (provider/text/printable.ts), which is the target of the CLI's own messages. The program goes to standard output
 * without --out, a CI job's log: a CI command (`##vso[`) in a literal or a comment is escaped too.
 */
import { CI_COMMAND, UNSAFE_CHARACTERS, unicodeEscape } from "../provider/text/printable";

const UNSAFE = UNSAFE_CHARACTERS;
const HAS_UNSAFE = new RegExp(UNSAFE.source);

/**
 * A TypeScript string literal whose value is exactly `value`, on one line, in printable ASCII or visible characters
 * only: safe in code and, quoted, in a comment.
 */
export function tsString(value: string): string {
  return JSON.stringify(value).replace(UNSAFE, unicodeEscape).replace(CI_COMMAND, "\\u0023");
}

/**
 * One `//` comment line holding `text`: every character that would end the comment (or hide what follows) is shown
 * as its `\uXXXX` escape instead. Server values inside `text` are best quoted with `tsString` first, so that a reader
 * sees where they start and end.
 */
export function tsComment(text: string): string {
  return `// ${text.replace(UNSAFE, unicodeEscape).replace(CI_COMMAND, "\\u0023")}`;
}

/**
 * One argument as a POSIX shell reads it back: bare when it is plainly safe, in single quotes otherwise, and in
 * ANSI-C quotes (`$'...'`, bash and zsh) when it holds a character that single quotes would keep raw (a line break).
 */
export function shellWord(arg: string): string {
  if (/^[\w./:=@%+,-]+$/.test(arg)) return arg;
  if (!HAS_UNSAFE.test(arg)) return `'${arg.replace(/'/g, "'\\''")}'`;
  const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
  const escaped = arg.replace(/[\\']/g, (c) => `\\${c}`).replace(UNSAFE, (c) => named[c] ?? unicodeEscape(c));
  return `$'${escaped}'`;
}
