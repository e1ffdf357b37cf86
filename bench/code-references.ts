/**
 * Code references over a large tree (issue 64): provider/hygiene/code-references.ts's scan against `git grep -F`
 * with the same spellings, on 10,000 generated source files in a temporary git repository, 200 flag names (each
 * looked for in four spellings: its name and its camelCase, snake_case and UPPER_SNAKE aliases), best of 3, the two
 * interleaved. Both must give the same hits: git grep (`-F -n`, the spellings in a patterns file, `-f`) names each
 * line that holds one, so the lines our hits stand on must be the same lines. (git grep's `-o --column` would give
 * every hit, but it matches the patterns one by one then, about 60 times slower, and its columns after a line's first
 * match are off: git 2.39 gives 48 for a second match at 42.) Files a `.gitignore` leaves out are in the tree,
 * untracked, for both to skip. The scan runs in this process (its first run warms it up); git grep is a process of
 * its own each time.
 *
 * git grep with many patterns looks for them one after another (18 to 55 s here for 800 spellings), so a third
 * figure, with no target, sets the scan beside a matcher of every pattern at once: GNU grep -F over the tracked
 * files (`git ls-files -z | xargs -0 grep -F -n -H -f`), the same lines asserted.
 *
 * Runnable alone: `npm run bench -- --only code-references`; `BENCH_CODE_REFERENCE_FILES` sets the files' count.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { aliasesOf, type CaseStyle } from "../provider/hygiene/aliases";
import { scanCodeReferences } from "../provider/hygiene/code-references";
import { ms, row } from "./table";

const FILES = Number(process.env.BENCH_CODE_REFERENCE_FILES ?? 10_000);
const FLAGS = 200;
const FOLDERS = 100;
const LINES = 40;
const REPS = 3;
/** kebab-case is the name itself: the three others are the aliases looked for. */
const CASES: CaseStyle[] = ["camelCase", "snake_case", "UPPER_SNAKE"];
const WORDS = ["checkout", "search", "banner", "pricing", "cart", "profile", "export", "billing", "onboarding", "theme"];

const flagName = (i: number) => `flag-${String(i).padStart(3, "0")}-${WORDS[i % WORDS.length]}-${WORDS[(i * 7 + 3) % WORDS.length]}`;

/** A deterministic stream of numbers below `n`. */
function lcg(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** One file of TypeScript-like code, a flag's spelling on about one line in eight, in the four forms code takes. */
function source(file: number, spellings: string[][], rand: (n: number) => number): string {
  const lines: string[] = [`// module ${file}: generated for the code-references bench`, `import { client, log } from "../shared";`, ""];
  for (let l = 0; l < LINES; l++) {
    const f = spellings[rand(FLAGS)]!;
    switch (rand(12)) {
      case 0:
        lines.push(`  if (client.isEnabled("${f[0]}")) log("value ${l}", ${rand(1000)});`);
        break;
      case 1:
        lines.push(`export const ${f[3]} = '${f[0]}';`);
        break;
      case 2:
        lines.push(`  const on = flags.${f[1]}.isEnabled(context) && count${l} > ${rand(50)};`);
        break;
      case 3:
        lines.push(`  settings["${f[2]}"] = \`${f[0]}\`; // read in two spellings`);
        break;
      default:
        lines.push(`  const value${l} = compute(input${l % 7}, "text ${rand(100000)} of the line", ${rand(1000)}); // nothing`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The tree, committed to a fresh git repository, with ignored untracked files beside it. */
function makeRepository(dir: string, flags: string[], spellings: string[][]): void {
  const rand = lcg(64);
  for (let d = 0; d < FOLDERS; d++) fs.mkdirSync(path.join(dir, "src", `module-${String(d).padStart(2, "0")}`), { recursive: true });
  for (let f = 0; f < FILES; f++) {
    fs.writeFileSync(path.join(dir, "src", `module-${String(f % FOLDERS).padStart(2, "0")}`, `file-${String(f).padStart(5, "0")}.ts`), source(f, spellings, rand));
  }
  fs.writeFileSync(path.join(dir, ".gitignore"), "dist/\n*.log\n");
  fs.mkdirSync(path.join(dir, "dist"));
  fs.writeFileSync(path.join(dir, "dist", "bundle.js"), `"${flags[0]}"\n`);
  fs.writeFileSync(path.join(dir, "src", "debug.log"), `"${flags[1]}"\n`);
  const git = (...args: string[]) => {
    const r = spawnSync("git", args, { cwd: dir, encoding: "utf8", maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  };
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "generated tree");
}

/** The lines a grep's `-n` output names, as `file:line` (the generated paths hold no colon). */
const namedLines = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.split(":", 2).join(":"));

/** The lines git grep names, as `file:line`. */
function gitGrep(dir: string, patterns: string): string[] {
  const r = spawnSync("git", ["grep", "--no-color", "-F", "-n", "-f", patterns], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git grep: ${r.status} ${r.stderr}`);
  return namedLines(r.stdout);
}

/** The lines GNU grep names in the tracked files, as `file:line`; undefined without grep and xargs. */
function gnuGrep(dir: string, patterns: string): string[] | undefined {
  const r = spawnSync("sh", ["-c", `git ls-files -z | xargs -0 grep -F -n -H -f '${patterns}' --`], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 30 });
  return r.status === 0 ? namedLines(r.stdout) : undefined;
}

/** Our hits, and the lines they stand on as `file:line`. */
function ourScan(dir: string, flags: string[]): { hits: number; lines: string[] } {
  const scan = scanCodeReferences({ roots: [dir], flags, aliases: { cases: CASES } });
  return { hits: scan.references.length, lines: [...new Set(scan.references.map((r) => `${r.file}:${r.line}`))] };
}

export async function codeReferenceRows(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-code-references-"));
  try {
    console.error(`code references: ${FILES} files, ${FLAGS} flags, ours against git grep -F and GNU grep -F (about 2 min)`);
    const flags = Array.from({ length: FLAGS }, (_, i) => flagName(i));
    const aliases = aliasesOf(flags, { cases: CASES });
    // name, camelCase, snake_case, UPPER_SNAKE: the generator's four forms.
    const spellings = flags.map((f) => aliases.filter((a) => a.flag === f).map((a) => a.text));
    if (spellings.some((s) => s.length !== 4)) throw new Error("each bench flag has four distinct spellings");
    makeRepository(dir, flags, spellings);
    const patterns = path.join(os.tmpdir(), `${path.basename(dir)}.patterns`);
    fs.writeFileSync(patterns, `${aliases.map((a) => a.text).join("\n")}\n`);
    try {
      const ours: number[] = [];
      const theirs: number[] = [];
      let oursHits = { hits: 0, lines: [] as string[] };
      let gitLines: string[] = [];
      const gnu: number[] = [];
      let gnuLines: string[] | undefined;
      for (let rep = 0; rep < REPS; rep++) {
        let t = performance.now();
        oursHits = ourScan(dir, flags);
        ours.push(performance.now() - t);
        t = performance.now();
        gitLines = gitGrep(dir, patterns);
        theirs.push(performance.now() - t);
        t = performance.now();
        gnuLines = gnuGrep(dir, patterns);
        gnu.push(performance.now() - t);
      }
      const oursLines = oursHits.lines;
      const sameAs = (peer: string[], name: string) => {
        const same = oursLines.length === peer.length && [...oursLines].sort().join("\n") === [...peer].sort().join("\n");
        if (!same) {
          const p = new Set(peer);
          const o = new Set(oursLines);
          console.error(`  only ours: ${oursLines.filter((h) => !p.has(h)).slice(0, 5).join(", ")}; only ${name}: ${peer.filter((h) => !o.has(h)).slice(0, 5).join(", ")}`);
        }
        return same;
      };
      const same = sameAs(gitLines, "git grep");
      const best = (xs: number[]) => Math.min(...xs);
      const bytes = fs.readdirSync(path.join(dir, "src"), { recursive: true, withFileTypes: true }).reduce((n, e) => n + (e.isFile() ? fs.statSync(path.join(e.parentPath, e.name)).size : 0), 0);
      row(`code references: lines with hits in ${FILES} files (${(bytes / 2 ** 20).toFixed(1)} MiB), ${FLAGS} flags x 4 spellings`, `${oursLines.length} (${oursHits.hits} hits)`, `${gitLines.length} (git grep -F -n)`, undefined, {
        text: "the same lines",
        met: same,
      });
      row(`code references: scan of ${FILES} files, best of ${REPS}`, ms(best(ours)), `${ms(best(theirs))} (git grep -F -n -f, ${os.cpus().length} threads)`, best(ours) / best(theirs), {
        text: "<= 1.5",
        met: best(ours) / best(theirs) <= 1.5,
      });
      if (gnuLines !== undefined) {
        row(`code references: scan of ${FILES} files against GNU grep, best of ${REPS}`, ms(best(ours)), `${ms(best(gnu))} (git ls-files | xargs grep -F -n -f, ${sameAs(gnuLines, "GNU grep") ? "the same lines" : "OTHER LINES"})`, best(ours) / best(gnu));
      }
    } finally {
      fs.rmSync(patterns, { force: true });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
