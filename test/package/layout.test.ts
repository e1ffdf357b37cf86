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

it("provider/, sdk/, emulator/, testing/, examples/, bench/ and soak/ import nothing from test/", () => {
  const files = ["provider", "sdk", "emulator", "testing", "examples", "bench", "soak"].flatMap(sources);
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
