/**
 * Issue 63 under the real CLI: a Flag whose every text input the program marks secret, each with a value its check
 * refuses (a control character), previewed beside the language's program in a project of its own. The engine prints
 * the value of the property a failure names, a secret's too (pulumi/pulumi step_generator.go issueCheckFailures):
 * the failures name none, and their reasons name the inputs without their values. Nothing of the values may appear
 * in the CLI's stdout, stderr, event log or the stack's state. Every input of every resource, on both faces, is
 * test/resources/secret-inputs.test.ts's.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { leakedRuns, secretRuns } from "../../text/secret-runs";
import { CliProject } from "./cli-project";

/** The values, one per input: each holds a line break, which no name or id may hold. */
const SECRETS = { applicationId: "app-4f0e\nhunter2-Qx81", name: "hunter2 is\nmy-s3cr3t-Zq9x", connection: "conn\nhunter2-Vb27" };

const PROGRAMS: Record<"yaml" | "dynamic", { file: string; text: string; runtime: string }> = {
  yaml: {
    file: "Pulumi.yaml",
    runtime: "yaml",
    text: [
      "resources:",
      "  leaky:",
      "    type: cloudbees:index:Flag",
      "    properties:",
      ...Object.entries(SECRETS).map(([k, v]) => `      ${k}:\n        fn::secret: ${JSON.stringify(v)}`),
      "      availableValues:",
      "        fn::secret: [false, true]",
    ].join("\n"),
  },
  dynamic: {
    file: "index.ts",
    runtime: "nodejs",
    text: [
      'import * as pulumi from "@pulumi/pulumi";',
      'import * as cloudbees from "pulumi-cloudbees";',
      'new cloudbees.Flag("leaky", {',
      ...Object.entries(SECRETS).map(([k, v]) => `  ${k}: pulumi.secret(${JSON.stringify(v)}),`),
      "  availableValues: pulumi.secret([false, true]),",
      "});",
    ].join("\n"),
  },
};

/** Runs of 6 characters of each value, as it is and as a message escapes it. */
const RUNS = secretRuns(Object.values(SECRETS));

/** The preview of the failing program beside `project`; the failures and everything the CLI wrote. */
export async function previewSecretCheck(face: "yaml" | "dynamic", project: string, env: NodeJS.ProcessEnv): Promise<void> {
  const program = PROGRAMS[face];
  const dir = `${project}-secret-inputs`;
  fs.mkdirSync(dir);
  const header = `name: secret-inputs-${face}\nruntime: ${program.runtime}\n`;
  if (program.file === "Pulumi.yaml") fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `${header}${program.text}\n`, { flag: "wx" });
  else {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), header, { flag: "wx" });
    fs.writeFileSync(path.join(dir, program.file), `${program.text}\n`, { flag: "wx" });
  }
  // --event-log is among the CLI's debug commands' flags.
  const cli = new CliProject(dir, { ...env, PULUMI_DEBUG_COMMANDS: "true" });
  await cli.ok("stack", "init", "dev");
  const eventLog = path.join(dir, "events.jsonl");
  const preview = await cli.run("preview", "--event-log", eventLog);
  const state = (await cli.ok("stack", "export")).stdout;
  const events = fs.existsSync(eventLog) ? fs.readFileSync(eventLog, "utf8") : "";
  const written = [preview.stdout, preview.stderr, events, state].join("\n");
  expect({ failed: preview.code !== 0, written }).toEqual({ failed: true, written: expect.stringContaining("has a problem") });
  expect(events).toContain('"diagnosticEvent"');
  // The check ran and refused the inputs by name, with the rule.
  expect(written).toMatch(/has a problem: name (\([^)]*\) )?<hidden[^>]*> holds a control character/);
  expect(written).not.toMatch(/property \w+ value/);
  expect(leakedRuns(written, RUNS)).toEqual([]);
}
