/**
 * Progress: on a terminal one line that updates in place (stacks done of total, drifted so far); in CI, one plain
 * line per stack. Stack ids and statuses are printed through printable(): a folder's name is data.
 */
import { printable } from "../../../provider/text/printable";
import type { StackReport } from "./report";
import { noun } from "./noun";

export class Progress {
  private done = 0;
  private drifted = 0;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  stackDone(s: StackReport): void {
    this.done++;
    if (s.status === "drifted") this.drifted++;
    if (this.out.isTTY) {
      this.out.write(`\r\x1b[2K${this.done}/${this.total} stacks checked, ${this.drifted} drifted (last: ${printable(s.id).slice(0, 60)} ${s.status})`);
      if (this.done === this.total) this.out.write("\n");
    } else {
      this.out.write(`pulumi-cloudbees drift: [${this.done}/${this.total}] ${printable(s.id)}: ${s.status}${s.status === "drifted" ? ` (${s.counts.paths} ${noun(s.counts.paths, "path")})` : ""} in ${(s.durationMs / 1000).toFixed(1)} s\n`);
    }
  }
}
