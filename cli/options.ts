/** What the commands share in reading their arguments and speaking on standard error. */
import { printable } from "../provider/text/printable";

/** `text` as a whole number from `min` to `max`, or an Error naming the option. */
export function wholeNumber(text: string, option: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(text)) throw new Error(`${option} ${JSON.stringify(text)} is not a whole number`);
  const n = Number(text);
  if (n < min || n > max) throw new Error(`${option} ${n} is outside ${min}-${max}`);
  return n;
}

/** A command's messages on standard error: each prefixed with its name (`pulumi-cloudbees drift: ...`), printable. */
export function commandVoice(name: string, err: NodeJS.WritableStream): (text: string) => void {
  return (text) => err.write(`pulumi-cloudbees ${name}: ${printable(text, { keepNewlines: true })}\n`);
}

/**
 * A command's arguments parsed, or why it ends before running: `help` (its usage printed on standard output) or
 * `bad` (the error and its usage said).
 */
export function argumentsOf<T extends { kind: string }>(argv: string[], parse: (argv: string[]) => T, usage: string, say: (text: string) => void): T | "bad" {
  let parsed: T;
  try {
    parsed = parse(argv);
  } catch (e) {
    say(`${(e as Error).message}\n\n${usage}`);
    return "bad";
  }
  if (parsed.kind === "help") process.stdout.write(usage);
  return parsed;
}
