/**
 * A file backend's stack locks. `pulumi preview` on a file (DIY) backend takes no lock (pkg/backend/diy/backend.go:
 * only update, refresh, destroy and import do), so a stack whose update is under way would be read mid-write; the
 * lock files that update wrote (`.pulumi/locks/<org>/<project>/<stack>/<id>.json`, backend/diy/lock.go) say so. The
 * backend is the project's `backend.url`, else PULUMI_BACKEND_URL; other backends answer for themselves (409).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export function fileBackendLocks(projectDir: string, stack: string, env: NodeJS.ProcessEnv): string[] {
  const url = projectBackend(projectDir) ?? env.PULUMI_BACKEND_URL;
  if (!url?.startsWith("file://")) return [];
  let root: string;
  try {
    root = url === "file://~" || url.startsWith("file://~/") ? path.join(env.HOME ?? "", url.slice("file://~".length)) : fileURLToPath(url.split("?")[0]!);
  } catch {
    return [];
  }
  const project = projectName(projectDir);
  // `org/project/stack` or a bare stack name (the project's, in the organization the CLI uses for files: organization).
  const parts = stack.split("/");
  const [org, proj, name] = parts.length === 3 ? parts : parts.length === 2 ? ["organization", parts[0], parts[1]] : ["organization", project, stack];
  if (!proj || !name) return [];
  const dirs = [path.join(root, ".pulumi", "locks", org!, proj, name), path.join(root, ".pulumi", "locks", name)];
  return dirs.flatMap((d) => (fs.existsSync(d) ? fs.readdirSync(d).filter((f) => f.endsWith(".json")).map((f) => path.join(d, f)) : []));
}

function projectFile(dir: string): string | undefined {
  return ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
}

function projectDoc(dir: string): Record<string, unknown> {
  const file = projectFile(dir);
  if (!file) return {};
  try {
    const YAML = require("yaml") as typeof import("yaml");
    return (YAML.parse(fs.readFileSync(file, "utf8")) ?? {}) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function projectName(dir: string): string | undefined {
  const name = projectDoc(dir).name;
  return typeof name === "string" ? name : undefined;
}

function projectBackend(dir: string): string | undefined {
  const backend = projectDoc(dir).backend as { url?: unknown } | undefined;
  return typeof backend?.url === "string" ? backend.url : undefined;
}
