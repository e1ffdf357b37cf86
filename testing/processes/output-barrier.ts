/**
 * A barrier on a provider host's output: once its marker line has arrived on both stdout and stderr, everything the
 * host wrote before the request has been received, since each pipe keeps the order of its writes. A dynamic
 * provider's warnings go to stderr while its answers go over gRPC, so an answer can arrive before the warning written
 * just before it: a step's output read at the answer may lack its last warning (seen on a loaded machine: the
 * Application's "stays in the account" warning, the last delete of examples/flags' destroy, missing from the
 * stand-in's step), and a host that serves the next deployment would give it to that one.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";

export const OUTPUT_BARRIER = "pulumi-cloudbees:output-barrier";

/** In the host (host-preload.ts): answers each request by writing its marker as a line of its own on both streams. */
export function listenForOutputBarriers(): void {
    process.on("message", (message: { type?: unknown; marker?: unknown }) => {
        if (message?.type !== OUTPUT_BARRIER || typeof message.marker !== "string") return;
        process.stdout.write(`${message.marker}\n`);
        process.stderr.write(`${message.marker}\n`);
    });
    // As new-deployment.ts: the channel must not keep the host alive.
    process.channel?.unref();
}

/**
 * In the kit: sends a barrier to the host and resolves with its line once `arrived(line)` (called on each chunk the
 * host writes, through `waiters`) says both streams hold it, or once the host has exited.
 */
export function requestOutputBarrier(child: ChildProcess, waiters: Set<() => void>, arrived: (line: string) => boolean, timeoutMs: number): Promise<string> {
    // A line no provider writes.
    const marker = `${OUTPUT_BARRIER}:${randomUUID()}`;
    const line = `${marker}\n`;
    return new Promise((resolve, reject) => {
        const check = () => {
            if (arrived(line)) done(() => resolve(line));
        };
        const onExit = () => done(() => resolve(line));
        const timer = setTimeout(() => done(() => reject(new Error(`the provider host did not answer an output barrier within ${timeoutMs} ms`))), timeoutMs);
        function done(settle: () => void): void {
            clearTimeout(timer);
            waiters.delete(check);
            child.off("exit", onExit);
            settle();
        }
        waiters.add(check);
        child.once("exit", onExit);
        child.send({ type: OUTPUT_BARRIER, marker });
    });
}

/** `text` without `line` (every time it stands there), and where `index` (a position in `text`) is then. */
export function withoutLine(text: string, line: string, index: number): { text: string; index: number } {
    let at: number;
    while ((at = text.indexOf(line)) >= 0) {
        text = text.slice(0, at) + text.slice(at + line.length);
        if (at < index) index -= Math.min(line.length, index - at);
    }
    return { text, index };
}
