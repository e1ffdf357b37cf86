/** The bench's one table: a row per figure, with its floor or peer, the ratio, the target and whether it is met. */
export interface Row {
  figure: string;
  value: string;
  peer: string;
  ratio: string;
  target: string;
  met: string;
}

export const rows: Row[] = [];

/** Adds a row (and says it on stderr as it is measured). */
export function row(figure: string, value: string, peer = "", ratio?: number, target?: { text: string; met: boolean }): void {
  rows.push({ figure, value, peer, ratio: ratio === undefined ? "" : ratio.toFixed(2), target: target?.text ?? "", met: target ? (target.met ? "yes" : "NO") : "" });
  console.error(`  ${figure}: ${value}${peer ? ` (peer ${peer})` : ""}`);
}

export type RowFn = typeof row;

export const ms = (t: number) => `${Math.round(t)} ms`;
export const seconds = (t: number) => `${(t / 1000).toFixed(1)} s`;
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The table as Markdown, and the rows whose target is not met. */
export function table(): { text: string; missed: Row[] } {
  const text = [
    "| figure | value | floor or peer | ratio | target | met |",
    "|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.figure} | ${r.value} | ${r.peer} | ${r.ratio} | ${r.target} | ${r.met} |`),
  ].join("\n");
  return { text, missed: rows.filter((r) => r.met === "NO") };
}
