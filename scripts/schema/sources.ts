/**
 * The TypeScript sources the schema is made from, read with the compiler's own parser and type checker: the SDK's
 * resource classes and their Args (sdk/resources), the program functions (sdk/functions, and the invoke forms of those
 * that take or give zips: provider/plugin/file-invokes.ts), the settings (provider/config/settings.ts). Nothing is run from them here; scripts/schema/schema.ts walks what this finds.
 */
import * as path from "node:path";
import * as ts from "typescript";

export const ROOT = path.join(__dirname, "..", "..");

export interface Sources {
  program: ts.Program;
  checker: ts.TypeChecker;
  /** The exports of a module (its file, relative to the repository), by name, aliases followed. */
  exportsOf(file: string): Map<string, ts.Symbol>;
}

export function readSources(): Sources {
  const configFile = path.join(ROOT, "tsconfig.json");
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configFile, ts.sys.readFile).config, ts.sys, ROOT);
  const roots = ["sdk/resources/index.ts", "sdk/functions/index.ts", "provider/plugin/file-invokes.ts", "provider/config/settings.ts"].map((f) => path.join(ROOT, f));
  const program = ts.createProgram(roots, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  return {
    program,
    checker,
    exportsOf(file) {
      const source = program.getSourceFile(path.join(ROOT, file));
      const moduleSymbol = source && checker.getSymbolAtLocation(source);
      if (!moduleSymbol) throw new Error(`scripts/schema: cannot read ${file}`);
      const out = new Map<string, ts.Symbol>();
      for (const s of checker.getExportsOfModule(moduleSymbol)) out.set(s.name, resolved(checker, s));
      return out;
    },
  };
}

/** The symbol an import or re-export names. */
export function resolved(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/**
 * A symbol's documentation as a schema description: its JSDoc text with wrapped lines joined (paragraphs and list
 * items kept), the `Under \`setMocks\`` notes left out (they are about TypeScript's unit tests).
 */
export function descriptionOf(checker: ts.TypeChecker, symbol: ts.Symbol): string | undefined {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const paragraphs = text.split(/\n\s*\n/).map((paragraph) =>
    paragraph
      .split("\n")
      .map((l) => l.trim())
      .reduce((out, line) => (out === "" ? line : /^[-*] /.test(line) ? `${out}\n${line}` : `${out} ${line}`), "")
      .replace(/\s*Under `setMocks`.*$/s, ""),
  );
  const description = paragraphs.filter((p) => p !== "").join("\n\n");
  return description === "" ? undefined : description;
}
