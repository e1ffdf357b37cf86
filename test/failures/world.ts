/* istanbul ignore file */
import { startActionWorld, type ActionWorld } from "../actions/helpers";

/**
 * One action world (emulator and provider host) for the test file, its faults and journal cleared before each test.
 * Returns the world's getter: the world exists once beforeAll has run.
 */
export function actionWorldPerFile(options: Parameters<typeof startActionWorld>[0] = {}): () => ActionWorld {
  let w: ActionWorld | undefined;
  beforeAll(async () => {
    w = await startActionWorld(options);
  });
  afterAll(async () => {
    await w?.close();
  });
  beforeEach(() => {
    w!.emu.faults.clear();
    w!.emu.journal.clear();
  });
  return () => w!;
}
