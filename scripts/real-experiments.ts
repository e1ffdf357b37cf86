// `npm run corpus:real-experiments -- --git-dir <clone of rollout/sound-redux-cac>`: writes the test corpus of the
// forms the feature-flag service wrote (test/fixtures/real-experiments/, one JSON file per item) from the
// repository's whole history. Offline: it reads the clone with git; it needs that clone, with every branch.
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { cloneProblem, recordFileVersions, writtenByService } from "./real-experiments/history";
import { selectCorpus, type Candidate, type WholeRecord } from "./real-experiments/select";
import { isObject, type RecordKind } from "./real-experiments/shapes";

const REPOSITORY = "rollout/sound-redux-cac";
const NEEDS =
  `This script reads a clone of https://github.com/${REPOSITORY} with every branch (each branch is an environment):\n` +
  `  git clone --mirror https://github.com/${REPOSITORY}.git /tmp/sound-redux-cac.git\n` +
  `then pass its git directory: npm run corpus:real-experiments -- --git-dir /tmp/sound-redux-cac.git\n` +
  `(or set SOUND_REDUX_CAC_GIT_DIR). It sends no request of its own.`;

/** Records kept whole, every field as the service wrote it (select.ts). */
const WHOLE: WholeRecord[] = [
  {
    commit: "94046cea1d2884e85822795c7f4ebbfdb9f20696",
    path: "experiments/default.shuffle.yml",
    why:
      "issue 43: an archived experiment with platforms, reported to lose `archived` when declared through FlagConfiguration; " +
      "the service moved this content unchanged to experiments/archived/default.shuffle.yml in e17bb59",
  },
];

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function main(): number {
  const gitDir = option("--git-dir") ?? process.env.SOUND_REDUX_CAC_GIT_DIR;
  if (!gitDir) {
    console.error(`No clone given.\n${NEEDS}`);
    return 2;
  }
  const problem = cloneProblem(gitDir);
  if (problem) {
    console.error(`${problem}.\n${NEEDS}`);
    return 2;
  }
  const out = path.resolve(option("--out") ?? path.join(__dirname, "..", "test", "fixtures", "real-experiments"));

  const versions = recordFileVersions(gitDir);
  const candidates: Candidate[] = [];
  let unreadable = 0;
  for (const v of versions) {
    let record: unknown;
    try {
      record = YAML.parse(v.text);
    } catch {
      // A hand edit that broke the YAML (the service could not read it either).
      unreadable++;
      continue;
    }
    if (!isObject(record)) continue;
    const kind: RecordKind = v.path.startsWith("target_groups/") ? "target-group" : "experiment";
    const writer = writtenByService(v.subject) ? "service" : "git";
    candidates.push({ kind, record, commit: v.commit, date: v.date, subject: v.subject, path: v.path, writer, size: v.text.length });
  }
  const items = selectCorpus(candidates, WHOLE);

  fs.mkdirSync(out, { recursive: true });
  for (const old of fs.readdirSync(out).filter((f) => f.endsWith(".json"))) fs.unlinkSync(path.join(out, old));
  items.forEach((item, i) => {
    const c = item.candidate;
    const file = `${String(i + 1).padStart(2, "0")}-${c.kind}-${c.commit.slice(0, 7)}.json`;
    const content = {
      source: { repository: REPOSITORY, commit: c.commit, path: c.path, date: c.date, writer: c.writer, subject: c.subject.slice(0, 160) },
      shapes: item.shapes,
      ...(item.whole ? { whole: item.whole } : {}),
      removed: item.removed,
      [c.kind === "experiment" ? "experiment" : "targetGroup"]: item.record,
    };
    // "wx": a new file, never written through a link left in its place.
    fs.writeFileSync(path.join(out, file), `${JSON.stringify(content, null, 2)}\n`, { flag: "wx" });
  });
  const service = candidates.filter((c) => c.writer === "service").length;
  console.log(
    `${versions.length} file versions (${service} written by the service, ${candidates.length - service} edited in Git, ` +
      `${unreadable} not YAML): ${new Set(items.flatMap((i) => i.shapes)).size} forms in ${items.length} items, written to ${path.relative(process.cwd(), out)}`,
  );
  return 0;
}

process.exitCode = main();
