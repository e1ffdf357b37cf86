/**
 * Issue 45: one version and one download location. package.json's `version` and `repository` are the source; the
 * schema (version, pluginDownloadURL), every SDK's pulumi-plugin.json (`version`, `server`), the Node.js SDK's
 * package.json, the Python SDK's pyproject.toml and the version the plugin reports (GetPluginInfo, from the same
 * package.json) must all say the same, or the engine looks for a plugin that no release holds.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { releaseNotes } from "../../scripts/release/release";
import { githubRepository } from "../../scripts/schema/schema";

const ROOT = path.join(__dirname, "..", "..");
const read = (...p: string[]) => fs.readFileSync(path.join(ROOT, ...p), "utf8");
const json = (...p: string[]) => JSON.parse(read(...p)) as Record<string, unknown>;

const manifest = json("package.json") as { version: string; repository: { url: string } };
const server = `github://api.github.com/${githubRepository(manifest.repository.url)}`;

it("package.json's repository is the project's GitHub repository, and the download location is its releases", () => {
  expect(server).toBe("github://api.github.com/pulumi-cloudbees/pulumi-cloudbees");
});

it("the schema says package.json's version and the releases' location, with no ${VERSION} template", () => {
  const schema = json("generated", "schema.json");
  expect({ version: schema.version, pluginDownloadURL: schema.pluginDownloadURL }).toEqual({ version: manifest.version, pluginDownloadURL: server });
});

it.each([
  ["nodejs", "package.json"],
  ["python", "pulumi_cloudbees/pulumi-plugin.json"],
  ["go", "cloudbees/pulumi-plugin.json"],
])("the %s SDK's plugin manifest names the same version and server", (language, file) => {
  const data = json("generated", "sdk", language, file);
  const plugin = (language === "nodejs" ? data.pulumi : data) as { version?: string; server?: string; resource?: boolean; name?: string };
  expect({ resource: plugin.resource, name: plugin.name, version: plugin.version, server: plugin.server }).toEqual({ resource: true, name: "cloudbees", version: manifest.version, server });
  if (language === "nodejs") expect(data.version).toBe(manifest.version);
});

it("the Python SDK's project version is package.json's", () => {
  expect(/^\s*version = "([^"]+)"/m.exec(read("generated", "sdk", "python", "pyproject.toml"))?.[1]).toBe(manifest.version);
});

describe("CHANGELOG.md moves with the version: the release's notes are its section of package.json's version", () => {
  it("CHANGELOG.md's newest section is package.json's version", () => {
    expect(/^## (\S+)/m.exec(read("CHANGELOG.md"))?.[1]).toBe(manifest.version);
  });
  const changelog = "# Changelog\n\n## 0.2.0 (2026-12-01)\n\n- Two.\n\n## 0.1.0 (2026-11-01)\n\n- One.\n";
  it("the notes of a version are its section's body", () => {
    expect(releaseNotes(changelog, "0.1.0")).toBe("- One.");
    expect(releaseNotes(changelog, "0.2.0")).toBe("- Two.");
  });
  it("a version without a section, or one marked unreleased, is refused with the way out", () => {
    expect(() => releaseNotes(changelog, "0.3.0")).toThrow('CHANGELOG.md has no section "## 0.3.0": write what this release changes before tagging it');
    expect(() => releaseNotes("## 0.3.0 (unreleased)\n- Three.\n", "0.3.0")).toThrow("marked unreleased: date it before tagging v0.3.0");
  });
});
