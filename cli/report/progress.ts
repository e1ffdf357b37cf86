/**
 * Progress of a command over many items (stacks, application environments): on a terminal one line that updates in
 * place (items done of total, flagged so far); in CI, one plain line per item. Ids and statuses are printed through
 * printable(): a folder's or an environment's name is data.
 */
import { printable } from "../../provider/text/printable";
import { seconds } from "./text";

/** How a command's progress says itself: `pulumi-cloudbees drift: [1/3] ...`, `1/3 stacks checked, 1 drifted`. */
export interface ProgressWords {
  command: string;
  /** The items, plural: "stacks". */
  items: string;
  /** What is done to each: "checked". */
  verb: string;
  /** What a flagged item is: "drifted". */
  flagged: string;
}

export interface ProgressItem {
  id: string;
  status: string;
  /** Counted among the flagged. */
  flagged: boolean;
  /** Said after the status in CI: "2 paths". */
  detail?: string;
  durationMs: number;
}

export class Progress {
  private done = 0;
  private flagged = 0;

  constructor(
    private total: number,
    private readonly words: ProgressWords,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  /** The total, once known (a command that learns it after it starts). */
  setTotal(total: number): void {
    this.total = total;
  }

  itemDone(item: ProgressItem): void {
    this.done++;
    if (item.flagged) this.flagged++;
    const w = this.words;
    if (this.out.isTTY) {
      this.out.write(`\r\x1b[2K${this.done}/${this.total} ${w.items} ${w.verb}, ${this.flagged} ${w.flagged} (last: ${printable(item.id).slice(0, 60)} ${printable(item.status)})`);
      if (this.done === this.total) this.out.write("\n");
    } else {
      const detail = item.detail ? ` (${printable(item.detail)})` : "";
      this.out.write(`pulumi-cloudbees ${w.command}: [${this.done}/${this.total}] ${printable(item.id)}: ${printable(item.status)}${detail} in ${seconds(item.durationMs)}\n`);
    }
  }
}
