import { printable } from "../../provider/text/printable";

/** Runs of 6 characters of each value, as it is and as a message escapes it: none may appear where a secret must not. */
export function secretRuns(values: string[]): string[] {
  return values.flatMap((s) => [s, printable(s)].flatMap((f) => Array.from({ length: f.length - 5 }, (_, i) => f.slice(i, i + 6))));
}

/** The runs that `text` holds, as they are or JSON-escaped (as a JSON event log or state writes them). */
export function leakedRuns(text: string, runs: string[]): string[] {
  return runs.filter((run) => text.includes(run) || text.includes(JSON.stringify(run).slice(1, -1)));
}
