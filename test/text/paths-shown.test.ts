// Issue 63: a local path is never a credential. A checkout under a commit id (`/builds/<40 hex>/...`, as CI systems and
// build caches name theirs), a content digest or a folder named like a Jenkins token is shown in full in every error
// about it, on both faces: the functions' errors (the call they quote and the sentence after it), the resources'
// check failures (the TypeScript face's controllers, the plugin's check). A token typed where a name belongs is still
// hidden, everywhere in the message. No folder is created or cloned: the paths do not exist, as a mistyped one.
import * as os from "node:os";
import * as path from "node:path";
import { validateBundle, preValidateBundles, getEffectiveBundle, getBundle } from "../../sdk";
import { resources } from "../../provider/resources";
import { HIDDEN } from "../../provider/text/credentials";
import { checkingPlugin, urnOf } from "../plugin/plugin-process";

const COMMIT = "3f786850e387550fdab836ed7e6dc881de23001b";
const DIGEST = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const JENKINS_TOKEN = "11a3f09c2e4b5d6f7a8b9c0d1e2f3a4b5c";

/** Each run of hex digits as the first, a middle and the last folder of an absolute path. */
const PATHS = Object.entries({ "a commit id": COMMIT, "a digest": DIGEST, "a Jenkins-style token": JENKINS_TOKEN }).flatMap(([what, hex]) => [
  [`${what}, the first folder`, path.join(os.tmpdir(), hex, "examples", "bundles", "no-such-bundle")],
  [`${what}, a middle folder`, path.join(os.tmpdir(), "builds", hex, "bundles", "no-such-bundle")],
  [`${what}, the last folder`, path.join(os.tmpdir(), "builds", "bundles", hex)],
]);

describe("the functions (TypeScript face): the path in full, in the call and in the sentence after it", () => {
  it.each(PATHS)("%s", async (_where, missing) => {
    const calls: Array<[() => Promise<unknown>, string]> = [
      [() => validateBundle(missing), `validateBundle(bundle: "${missing}"): invalid bundle: no folder or zip file at "${missing}".`],
      [() => preValidateBundles(missing), `preValidateBundles(tree: "${missing}"): invalid tree: no folder or zip file at "${missing}".`],
      [() => getEffectiveBundle(missing, "team-a"), `getEffectiveBundle(tree: "${missing}", bundle: "team-a"): invalid tree: no folder or zip file at "${missing}".`],
    ];
    for (const [call, message] of calls) {
      const error = (await call().catch((e: unknown) => e)) as Error;
      expect(error.message).toBe(message);
    }
  });

  it("a token typed where a name belongs is hidden in the call and in every sentence after it", async () => {
    const error = (await getBundle(`${JENKINS_TOKEN} `, { settings: { operationsCenterUrl: "https://127.0.0.1:1/cjoc/" } }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(`getBundle(name: "${HIDDEN} ")`);
    expect(error.message).not.toContain(JENKINS_TOKEN.slice(0, 12));
  });
});

describe("the resources' check failures: the path in full, the property named", () => {
  const plugin = checkingPlugin();

  const cases = (missing: string) =>
    [
      ["BundleValidation", "bundleValidation", { bundlePath: missing }, "bundlePath"],
      ["BundleValidation", "bundleValidation", { bundleTreePath: missing }, "bundleTreePath"],
      ["ControllerConfiguration", "controllerConfiguration", { controllerPath: "team-a/c", instanceUrl: "https://ci.example.com/c/", bundleId: "team-a", bundleTreePath: missing }, "bundleId"],
    ] as const;

  it.each(PATHS)("%s", async (_where, missing) => {
    for (const [type, kind, news, property] of cases(missing)) {
      const ours = await resources[kind].check({}, news);
      const theirs = await plugin().check(urnOf(type, "paths"), {}, news as never);
      for (const { failures } of [ours, theirs]) {
        const about = failures.filter((f) => f.property === property);
        expect([type, property, about.length > 0]).toEqual([type, property, true]);
        for (const f of about) {
          expect(f.reason).toContain(missing);
          expect(f.reason).not.toContain(HIDDEN);
        }
      }
    }
  });
});
