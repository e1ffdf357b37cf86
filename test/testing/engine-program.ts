/* istanbul ignore file */
/**
 * The program of test/fixtures/engine-program through the testing kit, for the engine tests: next to a Flag on the
 * emulator, Memo (no `diff`) and Stamp (a `diff` on `text` only) resources whose provider keeps its objects, and a log
 * of its calls, in a JSON file.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ProgramTest } from "../../testing";

export const PROGRAM = path.resolve(__dirname, "..", "fixtures", "engine-program");
export const MEMO = "pulumi-nodejs:dynamic/engine:Memo";
export const STAMP = "pulumi-nodejs:dynamic/engine:Stamp";
export const FLAG = "pulumi-nodejs:dynamic/cloudbees:Flag";
export const RELOAD = "pulumi-nodejs:dynamic/cloudbees:BundleReload";
export const STEP_MS = 120_000;

/**
 * The engine these tests run on: the stand-in under `npm test`; the real CLI in the real-engine tier, whose global
 * setup sets PULUMI_CLOUDBEES_TEST_ENGINE=pulumi and runs these same files (jest.pulumi.config.js), so that what they
 * expect of the engine is checked against the real one too.
 */
export function testEngine(): { engine: "stand-in" | "pulumi" } {
  return process.env.PULUMI_CLOUDBEES_TEST_ENGINE === "pulumi" ? { engine: "pulumi" } : { engine: "stand-in" };
}

/** The Memo provider's file: its objects by id, and its calls in order. */
export interface MemoDb {
  nextId: number;
  objects: Record<string, Record<string, any>>;
  log: string[];
  /** Ids whose delete fails. */
  failDeletes?: string[];
}

export interface MemoProgram {
  /** The program under test (started in beforeAll). */
  readonly test: ProgramTest;
  db(): MemoDb;
  edit(change: (db: MemoDb) => void): void;
  /** The provider's log since entry `from`. */
  logSince(from: number): string[];
}

/** Starts the program for this test file (beforeAll) and stops it (afterAll); `appName` names its application. */
export function useMemoProgram(appName: string): MemoProgram {
  let tmp = "";
  let file = "";
  let test: ProgramTest | undefined;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), `${appName}-`));
    file = path.join(tmp, "memos.json");
    fs.writeFileSync(file, JSON.stringify({ nextId: 1, objects: {}, log: [] }));
    test = await ProgramTest.start({ dir: PROGRAM, stack: "dev", config: { "engine:appName": appName, "engine:memoFile": file }, ...testEngine() });
  }, STEP_MS);
  afterAll(async () => {
    await test?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });
  const db = (): MemoDb => JSON.parse(fs.readFileSync(file, "utf8")) as MemoDb;
  return {
    get test() {
      if (!test) throw new Error("the program starts in beforeAll");
      return test;
    },
    db,
    edit(change) {
      const d = db();
      change(d);
      fs.writeFileSync(file, JSON.stringify(d));
    },
    logSince: (from) => db().log.slice(from),
  };
}
