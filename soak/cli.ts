/**
 * `npm run soak [-- --rates 10,30,50 --runs 10 --seed 1]`: the fault soak (soak.ts) at each rate, printing each life
 * cycle as it ends and then the table. Exit code 1 when any mismatch, duplicate or blind repeat was seen, or when
 * fewer life cycles completed than the targets (all at 10 %, 95 % at 30 %).
 */
import { formatSoakTable, runSoak, type SoakResult } from "./soak";

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

async function main(): Promise<void> {
  const rates = option("rates", "10,30,50").split(",").map((r) => Number(r) / 100);
  const runs = Number(option("runs", "10"));
  const seed = Number(option("seed", "1"));
  const results: SoakResult[] = [];
  for (const rate of rates) {
    console.log(`\nfault rate ${Math.round(rate * 100)} %: ${runs} life cycles (up, refresh, up, destroy), seeds ${seed}..${seed + runs - 1}`);
    results.push(
      await runSoak({
        rate,
        runs,
        seed,
        onRun: (r) => {
          const problems = [...r.mismatches, ...r.blindRepeats, ...(r.duplicateApplications ? [`${r.duplicateApplications} duplicate application(s)`] : [])];
          console.log(
            `  ${r.program.padEnd(8)} seed ${String(r.seed).padEnd(4)} ${r.completed ? "completed" : "INCOMPLETE"}  failed steps ${r.failedSteps}  ` +
              `requests ${r.requests} (${r.faulted} faulted)`,
          );
          for (const f of r.failures) console.log(`    failed: ${f}`);
          for (const p of problems) console.log(`    ! ${p}`);
        },
      }),
    );
    console.log(`\n${formatSoakTable(results)}`);
  }
  const bad = results.some(
    (r) =>
      r.runs.some((x) => x.mismatches.length || x.duplicateApplications || x.blindRepeats.length) ||
      (r.rate <= 0.1 && r.runs.some((x) => !x.completed)) ||
      (r.rate <= 0.3 && r.runs.filter((x) => x.completed).length < 0.95 * r.runs.length),
  );
  process.exitCode = bad ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
