/**
 * The languages of the tier (describe-language.ts), one test file each: test/real-engine/language-<key>.test.ts.
 */
import * as path from "node:path";
import { SDK_FLOORS } from "../../../scripts/schema/languages";
import type { Language } from "./describe-language";
import { goFloorProgram, goProgram, installPlugin, nodeFloorProject, nodeProject, pythonFloorVirtualenv, pythonVirtualenv } from "./toolchains";

const inWorkspace = async (dir: string) => path.join(dir, "project");
const inNodeProject = (name: string, project = nodeProject) => async () => path.join(await project(), `${name}-${process.pid}`);

export const LANGUAGES = {
  yaml: { name: "yaml", program: "yaml", place: inWorkspace, installPlugin, lifeCycle: true, driftNamesWho: true, secretCheck: "yaml" },
  python: { name: "python", program: "python", place: inWorkspace, prepare: pythonVirtualenv, installPlugin, lifeCycle: true, driftNamesWho: true },
  go: { name: "go", program: "go", place: inWorkspace, prepare: goProgram, installPlugin, lifeCycle: true },
  typescript: { name: "typescript", program: "typescript", place: inNodeProject("typescript"), lifeCycle: true, nodeBin: true },
  dynamic: { name: "dynamic", program: "dynamic", place: inNodeProject("dynamic"), lifeCycle: false, nodeBin: true, secretCheck: "dynamic" },
  // The lowest Pulumi SDK each generated SDK declares: the plugin from its archive (its own @pulumi/pulumi).
  pythonFloor: { name: `python on pulumi ${SDK_FLOORS.python}`, program: "python", place: inWorkspace, prepare: pythonFloorVirtualenv, installPlugin, lifeCycle: false },
  goFloor: { name: `go on sdk/v3 ${SDK_FLOORS.go}`, program: "go", place: inWorkspace, prepare: goFloorProgram, installPlugin, lifeCycle: false },
  typescriptFloor: {
    name: `typescript on @pulumi/pulumi ${SDK_FLOORS.nodejs}`,
    program: "typescript",
    place: inNodeProject("typescript-floor", nodeFloorProject),
    installPlugin,
    lifeCycle: false,
  },
} satisfies Record<string, Language>;
