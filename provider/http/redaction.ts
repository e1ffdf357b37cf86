import { inspect } from "node:util";

/**
 * Holds the secrets of one client (tokens, passwords and the Basic header built from them, then the secrets its
 * responses carried: bundle tokens, link files) and scrubs them out of any text before it goes into an error.
 * Secrets shorter than 4 characters are not scrubbed (they would shred ordinary words); such credentials are refused
 * at configuration time anyway.
 */
export class Redactor {
  /** Every secret learnt: a set, so that learning one is O(1) however many are known (a 40,000-bundle list). */
  private secrets = new Set<string>();
  /** The secrets longest first, so that a secret containing another is replaced whole; rebuilt on the next redact. */
  private ordered: string[] | undefined = [];

  constructor(secrets: Array<string | undefined>) {
    Object.defineProperty(this, "secrets", { enumerable: false, writable: true });
    Object.defineProperty(this, "ordered", { enumerable: false, writable: true });
    this.learn(secrets);
  }

  /** Adds secrets to scrub from now on (a bundle token a response returned, say). */
  learn(secrets: Array<string | undefined>): void {
    for (const s of secrets) {
      if (typeof s !== "string" || s.length < 4 || this.secrets.has(s)) continue;
      this.secrets.add(s);
      this.ordered = undefined;
    }
  }

  redact(text: string): string {
    this.ordered ??= [...this.secrets].sort((a, b) => b.length - a.length);
    let out = text;
    for (const secret of this.ordered) if (out.includes(secret)) out = out.split(secret).join("[redacted]");
    return out;
  }

  toJSON(): string {
    return "[Redactor]";
  }

  [inspect.custom](): string {
    return "[Redactor]";
  }
}

/**
 * A credential value that prints as "[redacted]" through console.log, JSON.stringify, String() and template
 * literals, so that a client object logged by a user does not leak it. `reveal()` is the only way to read it.
 */
export class Secret {
  constructor(private readonly value: string) {
    Object.defineProperty(this, "value", { enumerable: false });
  }

  reveal(): string {
    return this.value;
  }

  toString(): string {
    return "[redacted]";
  }

  toJSON(): string {
    return "[redacted]";
  }

  [inspect.custom](): string {
    return "[redacted]";
  }
}
