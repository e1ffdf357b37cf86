// Product code (what ships, the examples users copy, the bench and the soak) never imports from test/: test/ holds only tests, their
// helpers and fixtures. The engine stand-in lives in testing/ (pulumi-cloudbees/testing).
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");

function sources(dir: string): string[] {
  return (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith(".ts") && !f.split(path.sep).includes("node_modules"))
    .map((f) => path.join(dir, f));
}

it("provider/, sdk/, cli/, emulator/, testing/, examples/, bench/ and soak/ import nothing from test/", () => {
  const files = ["provider", "sdk", "cli", "emulator", "testing", "examples", "bench", "soak"].flatMap(sources);
  expect(files).toContain(path.join("examples", "main-job.ts"));
  expect(files).toContain(path.join("bench", "harness.ts"));
  const offenders = files.filter((f) => {
    const text = fs.readFileSync(path.join(ROOT, f), "utf8");
    return [...text.matchAll(/(?:from |require\(|import\()"([^"]+)"/g)].some(([, spec]) => {
      if (!spec!.startsWith(".")) return false;
      const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(f), spec!));
      return target === "test" || target.startsWith(`test${path.sep}`);
    });
  });
  expect(offenders).toEqual([]);
});

// The package's commands are built where its manifest says (`bin`), in a folder it ships (`files`): `npm test` and
// `npm run build` write dist/ before this runs.
it("every bin of package.json is a built file under a folder that `files` ships", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string>; files: string[] };
  expect(pkg.bin["pulumi-cloudbees"]).toBe("dist/cli/main.js");
  for (const [name, file] of Object.entries(pkg.bin)) {
    expect({ name, built: fs.existsSync(path.join(ROOT, file)), shipped: pkg.files.some((f) => file.startsWith(`${f}/`)) }).toEqual({ name, built: true, shipped: true });
    // The source beside: a bin whose source moved would still find a stale build.
    expect({ name, source: fs.existsSync(path.join(ROOT, file.replace(/^dist\//, "").replace(/\.js$/, ".ts"))) }).toEqual({ name, source: true });
  }
});
