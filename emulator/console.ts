/**
 * What the emulator's command (cli.ts) prints, built here so that every line is one line whatever a client sent:
 * names that came over HTTP are quoted (provider/text/printable.ts), as any message of the package quotes a value,
 * and any other text is printed with its unsafe characters escaped. A name may hold no control character (the
 * emulator refuses one: name-characters.ts), but line separators, bidi overrides and CI commands are not control
 * characters, and the console is often a CI job's log.
 */
import { printable, quoted } from "../provider/text/printable";

/** The URL the SDK of an application's environment reads in roxy mode, printed once per environment. */
export function roxyLine(application: string, account: string, environment: string, url: string): string {
  return `roxy: application ${quoted(application)} (${account}), environment ${quoted(environment)}: ${url}`;
}

/** A failure to start, as printed before exiting: its own line breaks (the usage) kept, nothing else raw. */
export function failureText(error: unknown): string {
  return printable(error instanceof Error ? error.message : String(error), { keepNewlines: true });
}
