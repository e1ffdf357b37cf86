/**
 * The drift page's chart: drifted stacks and drifted paths per run, by generatedAt, as inline SVG drawn here (no
 * script, no library, no request). Two rows that share the runs' axis, each on its own scale (paths outnumber stacks
 * by far), each point with a <title> that names its run and counts. Every text from a report is HTML-escaped.
 */
import type { DriftReport } from "./report";
import { noun } from "../report/noun";

const WIDTH = 640;
const ROW = 64;
const LEFT = 130;
const RIGHT = 16;
const TOP = 8;

export interface ChartRun {
  generatedAt: string;
  stacks: number;
  paths: number;
}

/** The reports oldest first, by generatedAt (ties kept in the order given). */
export function byGeneratedAt(reports: DriftReport[]): DriftReport[] {
  return reports
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r.generatedAt < b.r.generatedAt ? -1 : a.r.generatedAt > b.r.generatedAt ? 1 : a.i - b.i))
    .map(({ r }) => r);
}

/** The runs to chart, oldest first, with their counts as numbers (a hand-edited report's text counts as none). */
export function chartRuns(reports: DriftReport[]): ChartRun[] {
  return byGeneratedAt(reports).map((r) => ({ generatedAt: String(r.generatedAt), stacks: num(r.summary?.drifted), paths: num(r.summary?.driftedPaths) }));
}

function num(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : 0;
}

export function driftChart(runs: ChartRun[], escape: (text: string, max: number) => string): string {
  const height = TOP + 2 * ROW + 20;
  const x = (i: number) => (runs.length === 1 ? (LEFT + WIDTH - RIGHT) / 2 : LEFT + (i * (WIDTH - RIGHT - LEFT)) / (runs.length - 1));
  const series = (key: "stacks" | "paths", label: string, row: number): string => {
    const max = Math.max(1, ...runs.map((r) => r[key]));
    const base = TOP + (row + 1) * ROW - 8;
    const y = (v: number) => base - (v / max) * (ROW - 20);
    const points = runs.map((r, i) => `${x(i).toFixed(1)},${y(r[key]).toFixed(1)}`).join(" ");
    const dots = runs
      .map((r, i) => `<circle class="${key}" cx="${x(i).toFixed(1)}" cy="${y(r[key]).toFixed(1)}" r="3"><title>${escape(r.generatedAt, 40)}: ${r.stacks} drifted stacks, ${r.paths} drifted paths</title></circle>`)
      .join("");
    const last = runs[runs.length - 1][key];
    return [
      `<line class="axis" x1="${LEFT}" y1="${base}" x2="${WIDTH - RIGHT}" y2="${base}"/>`,
      `<text x="0" y="${base - ROW / 2 + 8}">${label}</text>`,
      `<text x="0" y="${base - ROW / 2 + 22}">now ${last}, most ${max}</text>`,
      `<polyline class="${key}" points="${points}"/>`,
      dots,
    ].join("");
  };
  const first = escape(runs[0].generatedAt.slice(0, 10), 10);
  const lastRun = escape(runs[runs.length - 1].generatedAt.slice(0, 10), 10);
  const axis = `<text x="${LEFT}" y="${height - 4}">${first}</text><text x="${WIDTH - RIGHT}" y="${height - 4}" text-anchor="end">${lastRun}</text>`;
  const title = `Drift over ${runs.length} ${noun(runs.length, "run")}`;
  return `<svg id="chart" role="img" aria-label="${title}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}">${series("stacks", "drifted stacks", 0)}${series("paths", "drifted paths", 1)}${axis}</svg>`;
}
