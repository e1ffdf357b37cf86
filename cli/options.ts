/** What the commands' option parsers share. */

/** `text` as a whole number from `min` to `max`, or an Error naming the option. */
export function wholeNumber(text: string, option: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(text)) throw new Error(`${option} ${JSON.stringify(text)} is not a whole number`);
  const n = Number(text);
  if (n < min || n > max) throw new Error(`${option} ${n} is outside ${min}-${max}`);
  return n;
}
