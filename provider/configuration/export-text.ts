// core-casc-export's text form: every file of the export as one YAML document, headed by a comment naming the file
// (a real one: tsmp-falcon-platform/ci-bundle-utils bundleutilspkg/tests/resources/fetch/missing-env-values.yaml;
// bundleutils reads each document's first comment as its file name, write_all_yaml_docs_from_comments).

/** Longest file name taken from a header. */
const MAX_NAME = 200;

/**
 * The files of an export's text form (`---` then `# <file>` before each document), as exportedView takes them. A
 * document without a header is left out. Linear in the text.
 */
export function exportTextFiles(text: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let name: string | undefined;
  let body: string[] = [];
  let expectHeader = false;
  const flush = (): void => {
    if (name !== undefined) files.set(name, Buffer.from(body.join("\n")));
    name = undefined;
    body = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (/^---\s*$/.test(line)) {
      flush();
      expectHeader = true;
      continue;
    }
    const header = expectHeader ? /^#\s*(\S.*?)\s*$/.exec(line) : null;
    if (expectHeader && line.trim() === "") continue;
    expectHeader = false;
    if (header && header[1]!.length <= MAX_NAME && !files.has(header[1]!)) {
      name = header[1];
      continue;
    }
    body.push(line);
  }
  flush();
  return files;
}
