/**
 * `text` without the runs of `char` at its end, and at its start unless `start: false`, in time linear in the text.
 * The pattern it replaces, `/^-+|-+$/g`, is quadratic: `-+$` is tried from every `-` of a run that does not end the
 * text (an id of 100,000 dashes and an `x` takes seconds), and ids, paths and entries come from servers and files.
 */
export function trimCharacter(text: string, char: string, options: { start?: boolean } = {}): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  let start = 0;
  if (options.start !== false) while (start < end && text[start] === char) start++;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
