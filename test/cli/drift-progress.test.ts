/**
 * cli/report/progress.ts, as the drift command says its stacks: on a terminal one line rewritten in place (stacks done of total, drifted so far), ended
 * when the last stack is done; in CI a plain line per stack. A stack id is data: no escape or line break of it
 * reaches the terminal.
 */
import { Progress } from "../../cli/report/progress";
import { DRIFT_PROGRESS, progressItem } from "../../cli/drift/command";
import type { StackReport } from "../../cli/drift/report";

function sink(isTTY: boolean): { out: NodeJS.WriteStream; text: () => string } {
  let text = "";
  return { out: { isTTY, write: (t: string) => ((text += t), true) } as unknown as NodeJS.WriteStream, text: () => text };
}

function stackProgress(total: number, out: NodeJS.WriteStream): { stackDone(s: StackReport): void } {
  const progress = new Progress(total, DRIFT_PROGRESS, out);
  return { stackDone: (s) => progress.itemDone(progressItem(s)) };
}

const stack = (id: string, status: StackReport["status"], paths = 0): StackReport => ({
  id,
  folder: id.split("#")[0]!,
  stack: id.split("#")[1]!,
  status,
  durationMs: 1234,
  counts: { resources: 5, drifted: paths ? 1 : 0, paths },
});

it("on a terminal: one line updated in place, drifted so far, a newline after the last stack", () => {
  const { out, text } = sink(true);
  const progress = stackProgress(3, out);
  progress.stackDone(stack("a#dev", "drifted", 2));
  progress.stackDone(stack("b#dev", "clean"));
  expect(text()).toBe("\r\x1b[2K1/3 stacks checked, 1 drifted (last: a#dev drifted)\r\x1b[2K2/3 stacks checked, 1 drifted (last: b#dev clean)");
  progress.stackDone(stack("c#dev", "locked"));
  expect(text().endsWith("3/3 stacks checked, 1 drifted (last: c#dev locked)\n")).toBe(true);
});

it("in CI: a plain line per stack, with its paths and time", () => {
  const { out, text } = sink(false);
  const progress = stackProgress(2, out);
  progress.stackDone(stack("a#dev", "drifted", 1));
  progress.stackDone(stack("b#dev", "error"));
  expect(text()).toBe("pulumi-cloudbees drift: [1/2] a#dev: drifted (1 path) in 1.2 s\npulumi-cloudbees drift: [2/2] b#dev: error in 1.2 s\n");
});

it("a stack id's escapes and line breaks stay data", () => {
  for (const isTTY of [true, false]) {
    const { out, text } = sink(isTTY);
    stackProgress(1, out).stackDone(stack("evil\x1b]0;owned\x07\n::error::x#dev", "clean"));
    expect(text()).not.toMatch(/\x1b\]|\x07|\n::error::/);
  }
});
