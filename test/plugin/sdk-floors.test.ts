// The lowest Pulumi SDK each generated SDK declares (SDK_FLOORS) is the one the real-engine tier's floor programs run
// on (test/real-engine/language-*-floor.test.ts), the one the npm alias pulumi-sdk-lowest installs, and the one the
// README says.
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_FLOORS } from "../../scripts/schema/languages";

const ROOT = path.join(__dirname, "..", "..");

it("each generated SDK declares its floor (SDK_FLOORS), the floor the tier's programs run on, and the README says it", () => {
  const sdk = (...file: string[]) => fs.readFileSync(path.join(ROOT, "generated", "sdk", ...file), "utf8");
  const escaped = (text: string) => text.replace(/[.^$*+?()[\]{}|\\/]/g, "\\$&");
  expect(sdk("python", "pyproject.toml")).toContain(`"pulumi>=${SDK_FLOORS.python},<4.0.0"`);
  expect(sdk("go", "go.mod")).toMatch(new RegExp(`\\sgithub\\.com/pulumi/pulumi/sdk/v3 v${escaped(SDK_FLOORS.go)}\\n`));
  expect((JSON.parse(sdk("nodejs", "package.json")) as { dependencies: Record<string, string> }).dependencies["@pulumi/pulumi"]).toBe(`^${SDK_FLOORS.nodejs}`);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  expect(pkg.devDependencies["pulumi-sdk-lowest"]).toBe(`npm:@pulumi/pulumi@${SDK_FLOORS.nodejs}`);
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## Every Pulumi language\n"), readme.indexOf("\n## The main job\n"));
  for (const said of [`\`pulumi>=${SDK_FLOORS.python}\``, `\`github.com/pulumi/pulumi/sdk/v3\` v${SDK_FLOORS.go}`, `\`@pulumi/pulumi\` \`^${SDK_FLOORS.nodejs}\``]) {
    expect({ said, inReadme: section.includes(said) }).toEqual({ said, inReadme: true });
  }
});
