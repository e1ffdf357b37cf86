import { inspect } from "node:util";

/**
 * Holds the secrets of one client (tokens, passwords and the Basic header built from them) and scrubs them out of
 * any text before it goes into an error. Secrets shorter than 4 characters are not scrubbed (they would shred
 * ordinary words); such credentials are refused at configuration time anyway.
 */
export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: Array<string | undefined>) {
    const unique = new Set(secrets.filter((s): s is string => typeof s === "string" && s.length >= 4));
    // Longest first, so that a secret containing another is replaced whole.
    this.secrets = [...unique].sort((a, b) => b.length - a.length);
    Object.defineProperty(this, "secrets", { enumerable: false });
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join("[redacted]");
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
