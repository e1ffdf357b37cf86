/**
 * A noun as its count asks: "1 path", "2 paths". One place, so that the drift command's lines, its summary, the
 * Markdown, the page and the causes say a count alike (the page once said "1 paths").
 */
export function noun(count: unknown, singular: string): string {
  return count === 1 ? singular : `${singular}s`;
}
