/**
 * Text a hostile server, account member or local user would plant in a value that ends up in front of a person
 * (issue 37): every line terminator, terminal escape sequences, bidirectional overrides, and the in-band commands of
 * CI logs. Each output of the package (warnings, errors, the CLI's and the emulator's console) is fed all of them.
 *
 * - A line ends at LF, CR, CRLF, VT, FF, NEL, U+2028 or U+2029 for one reader or another (a terminal, a CI log
 *   viewer, Pulumi's plugin reader: pulumi/pulumi pkg/resource/plugin/plugin.go `runtrace`, ReadString('\n')).
 * - GitHub Actions acts on `::command::` at the start of a line after spaces (actions/runner
 *   src/Runner.Common/ActionCommand.cs, TryParseV2: TrimStart, StartsWith "::"); Azure Pipelines on `##vso[`
 *   anywhere in a line (microsoft/azure-pipelines-agent src/Microsoft.VisualStudio.Services.Agent/Command.cs,
 *   TryParse: IndexOf "##vso["), as the runner's legacy `##[` form.
 */

export const LINE_TERMINATORS = {
  LF: "\n",
  CR: "\r",
  CRLF: "\r\n",
  VT: "\u000b",
  FF: "\u000c",
  NEL: "\u0085",
  LS: "\u2028",
  PS: "\u2029",
} as const;

const ESC = "\u001b";

/** Escape sequences and invisible reordering: what a terminal acts on. */
export const ESCAPE_SEQUENCES = {
  "CSI clear screen": `${ESC}[2J${ESC}[H`,
  "CSI colour": `${ESC}[31mred${ESC}[0m`,
  "C1 CSI": "\u009b31m",
  "OSC 52 clipboard write": `${ESC}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007`,
  BEL: "\u0007",
  "C1 controls": "\u0080\u008d\u0090\u009c\u009f",
  "bidi overrides": "\u202eevil\u202c\u2066x\u2069\u200f",
  "NUL and DEL": "\u0000\u007f",
} as const;

/** Lines that would be acted on, or read as the package's own, if a value could start a line. */
export const CI_COMMANDS = {
  "::add-mask::": "::add-mask::s3cret",
  "::error::": "::error file=main.ts::forged failure",
  "##vso[": "##vso[task.setvariable variable=PATH]/tmp/evil",
  "##[": "##[error]forged",
  "warning:": "warning: FlagConfiguration a/Production changed outside this stack by \"someone else\"",
} as const;

/**
 * Every hostile value, named: each line terminator before a CI command (the forged line; the commands in turn, so
 * that each follows one), each escape sequence, each command alone (for the ones that act anywhere in a line).
 */
const COMMANDS = Object.entries(CI_COMMANDS);
export const HOSTILE_VALUES: [name: string, value: string][] = [
  ...Object.entries(LINE_TERMINATORS).map(([t, lt], i): [string, string] => {
    const [c, cmd] = COMMANDS[i % COMMANDS.length]!;
    return [`${t} then ${c}`, `mallory${lt}${cmd}`];
  }),
  ...Object.entries(ESCAPE_SEQUENCES).map(([name, seq]) => [name, `mallory${seq}`] as [string, string]),
  ...Object.entries(CI_COMMANDS).map(([name, cmd]) => [`${name} inline`, cmd] as [string, string]),
  ["quotes and backslashes", 'mallory" by "alice\\" at \\u000a'],
];

/** Every value at once (one output line must hold them all). */
export const ALL_HOSTILE = HOSTILE_VALUES.map(([, v]) => v).join("|");

/**
 * Characters that must never reach a person raw: C0 (but tab), DEL, C1, the line and paragraph separators, bidi
 * controls. A line of output that holds none of them is one line on every reader.
 */
export const RAW_UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Asserts that `output` (what was printed, its trailing newline included or not) is one line with no raw unsafe
 * character and no CI command a log would act on, and that it holds `value` quoted: a `"..."` in it reads back as
 * exactly `value` by JSON's rules (quoted() writes JSON's escapes only), so the reader sees where the value starts
 * and ends, and all of it.
 */
export function expectOneQuotedLine(output: string, value: string): void {
  const line = output.replace(/\n$/, "");
  expect(line).not.toMatch(RAW_UNSAFE);
  expect(line).not.toMatch(/##(vso)?\[/i);
  expect(line.trimStart()).not.toMatch(/^::/);
  expect(quotedValuesOf(line)).toContain(value);
}

/** The values of the `"..."` literals of a line, read as JSON reads them (one that does not parse is skipped). */
export function quotedValuesOf(line: string): string[] {
  return [...line.matchAll(/"(?:[^"\\]|\\.)*"/g)].flatMap(([literal]) => {
    try {
      return [JSON.parse(literal) as string];
    } catch {
      return [];
    }
  });
}
