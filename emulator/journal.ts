import type { Journal, JournalEntry } from "./types";

function copyEntry(e: JournalEntry): JournalEntry {
  return { ...e, query: { ...e.query }, headers: { ...e.headers }, body: Buffer.from(e.body) };
}

/** Every request the server saw, in arrival-of-answer order; entries are copies so tests cannot alter history. */
export class RequestJournal implements Journal {
  private readonly list: JournalEntry[] = [];

  record(entry: JournalEntry): void {
    this.list.push(copyEntry(entry));
  }

  entries(): JournalEntry[] {
    return this.list.map(copyEntry);
  }

  clear(): void {
    this.list.length = 0;
  }
}
