/**
 * A message about an input the program marked secret, without any of its value: the value however a message quotes
 * it (withoutTexts), then every run of SHARED or more characters that the value also holds (a part a message cut,
 * `"hunter2 is my-pass...`), then a short value where it stands as a word. Unlike a credential found by its shape,
 * a secret is known to be one: any of its text is hidden, whatever its form.
 *
 * Linear in the message and the value: the message's windows (a reason is at most a few KB) are looked up while the
 * value is read once.
 */
import { HIDDEN, withoutTexts } from "./credentials";
import { printable, quoted } from "./printable";

/** The shortest run shared with a secret that is hidden: shorter ones stand in too many other words. */
const SHARED = 6;
/**
 * How much of each text of a secret is looked through for shared runs: messages quote the start of a value (a value
 * longer than an input's bound is said too long, not quoted), and the walk stays bounded whatever the value's size.
 */
const MAX_SCANNED = 64 * 1024;

export function withoutSecretTexts(text: string, secrets: string[]): string {
  const texts = secrets.filter((s) => s !== "");
  if (texts.length === 0) return text;
  let out = withoutTexts(text, texts);
  out = withoutSharedRuns(out, texts.flatMap((s) => [s, printable(s), quoted(s).slice(1, -1)].map((f) => f.slice(0, MAX_SCANNED))));
  for (const s of texts) if (s.length < SHARED) out = out.replace(wordPattern(s), HIDDEN);
  return out;
}

/**
 * `text` with every run of at least SHARED characters that one of `forms` also holds replaced by HIDDEN; what is
 * hidden already stays as it is.
 */
function withoutSharedRuns(text: string, forms: string[]): string {
  return text
    .split(HIDDEN)
    .map((piece) => withoutRunsIn(piece, forms))
    .join(HIDDEN);
}

function withoutRunsIn(text: string, forms: string[]): string {
  if (text.length < SHARED) return text;
  const windows = new Map<string, number[]>();
  for (let i = 0; i + SHARED <= text.length; i++) {
    const w = text.slice(i, i + SHARED);
    const at = windows.get(w);
    if (at) at.push(i);
    else windows.set(w, [i]);
  }
  const covered = new Uint8Array(text.length);
  for (const form of new Set(forms)) {
    for (let j = 0; j + SHARED <= form.length; j++) {
      const at = windows.get(form.slice(j, j + SHARED));
      if (!at) continue;
      for (const i of at) covered.fill(1, i, i + SHARED);
      windows.delete(form.slice(j, j + SHARED));
    }
  }
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += HIDDEN;
  }
  return out;
}

/** `s` standing alone: not inside a longer word. */
function wordPattern(s: string): RegExp {
  const escaped = s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`, "g");
}
