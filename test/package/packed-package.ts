/**
 * The package as `npm pack` makes it, packed once per jest run and shared by the files that install it (the consumer
 * test, the README's project, the upgrade, the languages' Node.js projects): each only reads the tarball.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { sharedOnce } from "../harness/shared-once";
import { pack } from "./consumer-project";

let packed: Promise<string> | undefined;

/** The tarball's path. */
export function packedPackage(): Promise<string> {
  return (packed ??= sharedOnce("packed-package", async (dir) => {
    await pack(dir);
  }).then((dir) => path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith(".tgz"))!)));
}
