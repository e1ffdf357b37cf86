/**
 * One user program of examples/plugin in one language, through the real CLI against an emulator of its own,
 * installed as the README says: YAML and Python and Go through the plugin installed from its archive (`pulumi plugin
 * install resource cloudbees <version> --file`), TypeScript through the plugin found on PATH (the packed package's
 * bin) with the generated Node.js SDK. The whole life cycle: up, a preview and refresh with no change, an update,
 * drift reported by `preview --refresh --expect-no-changes`, the repair, secrets in `stack export` and `stack output`,
 * destroy; in YAML and Python, a flag configuration changed by a person fails the drift job with the warning that
 * names who and when. The dynamic providers (examples/plugin/dynamic) and the programs on the lowest Pulumi SDK their
 * generated SDK declares (SDK_FLOORS) go through up, a no-change preview and destroy.
 *
 * Each language is a test file of its own (test/real-engine/language-*.test.ts), since jest's workers balance files;
 * what ties them together is the emulator's objects after `up`, which must be the same whatever the language and the
 * same as with the dynamic providers: each file records its own (recordedStates) and compares it with every one
 * recorded before it in this tier run, so that, once all have run, every pair has been compared.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../../emulator";
import { OperationsCenterClient } from "../../../provider";
import { emulatorConnection } from "../../../testing/emulator-config";
import { featureManagementClientAs } from "../../../testing/out-of-band";
import { ROOT } from "../../package/consumer-project";
import { workspace } from "../tier-cli";
import { CliProject } from "./cli-project";
import { emulatorState } from "./emulator-state";
import { recordedStates } from "./recorded-states";
import { previewSecretCheck } from "./secret-check";

export interface Language {
  /** What the tests call it. */
  name: string;
  /** The folder of examples/plugin. */
  program: string;
  /** Where the program's copy goes (a Node.js program: inside the installed project), given the workspace. */
  place(workspaceDir: string): Promise<string>;
  prepare?(project: string, env: NodeJS.ProcessEnv): Promise<void>;
  /** Installs the plugin into the project's PULUMI_HOME from its archive (else it is found on PATH, or not needed). */
  installPlugin?(cli: CliProject): Promise<void>;
  /** The whole life cycle (else up, a no-change preview and destroy: the dynamic providers' own tier checks the rest). */
  lifeCycle: boolean;
  /** A flag configuration changed by a person: the drift job's warning names who. */
  driftNamesWho?: boolean;
  /** The node_modules/.bin of its Node.js project goes first on PATH (the plugin of the packed package). */
  nodeBin?: boolean;
  /** A failing check on inputs marked secret, previewed beside the program (secret-check.ts): one per face. */
  secretCheck?: "yaml" | "dynamic";
}

export function describeLanguage(language: Language): void {
  describe(`examples/plugin/${language.program} under the real CLI (${language.name})`, () => {
    let emu: Emulator;
    let cli: CliProject;
    let cleanup: () => void;
    let project: string;
    const connection = () => emulatorConnection(emu);

    beforeAll(async () => {
      emu = await startEmulator();
      const ws = workspace(`lang-${language.name.replace(/\W+/g, "-")}`);
      cleanup = ws.cleanup;
      project = await language.place(ws.dir);
      fs.cpSync(path.join(ROOT, "examples", "plugin", language.program), project, { recursive: true });
      const env = { ...ws.env };
      if (language.nodeBin) env.PATH = `${path.join(path.dirname(project), "node_modules", ".bin")}${path.delimiter}${env.PATH}`;
      cli = new CliProject(project, env);
      await language.prepare?.(project, env);
      await language.installPlugin?.(cli);
      await cli.initFor(emu);
    });
    afterAll(async () => {
      await emu?.close();
      cleanup?.();
    });

    it("pulumi up creates what the program declares; its outputs come from the plugin and an invoke", async () => {
      const r = await cli.ok("up", "--yes");
      expect(r.stdout).toMatch(/Resources:\n\s+\+ 8 created/);
      // The TypeScript program was type-checked against the generated SDK by that run; the others need not be.
      cli.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
      const outputs = await cli.outputs();
      expect(outputs.firstBundle).toBe("base");
      expect(outputs.linkFile).toBe(`${emu.operationsCenterUrl}config-bundle/team-b\n${emu.state.controllerToken("team-b/controller-b")}`);
      expect(emu.state.assignments()).toEqual({ "team-b/controller-b": "team-b" });
    });

    it("the emulator holds the same objects after up as under every language that ran before it, the dynamic providers too", () => {
      const state = emulatorState(emu);
      expect(JSON.stringify(state)).toMatch(/"name":"checkout.newFlow".*"Staging"/);
      for (const [other, theirs] of recordedStates.record(language.name, state)) {
        expect({ language: language.name, other, state }).toEqual({ language: language.name, other, state: theirs });
      }
    });

    // Issue 52: a read used to add to the inputs what the program left out (a Flag's availableValues and isPermanent),
    // and the refresh showed `[diff: +availableValues,isPermanent]`. The dynamic providers (the TypeScript face) and
    // the plugin learn what was declared in different ways (provider/resources/shared/declared-inputs.ts).
    it("a preview, a refresh and a preview after it find nothing to change; two refreshes leave every input as the program declared it", async () => {
      await cli.ok("preview", "--expect-no-changes");
      if (!language.lifeCycle && language.name !== "dynamic") return;
      const declared = await cli.recordedInputs();
      expect(Object.keys(declared)).toEqual(expect.arrayContaining(["newFlow"]));
      await cli.ok("refresh", "--expect-no-changes", "--yes");
      await cli.ok("preview", "--expect-no-changes");
      expect(await cli.recordedInputs()).toEqual(declared);
      await cli.ok("refresh", "--expect-no-changes", "--yes");
      expect(await cli.recordedInputs()).toEqual(declared);
    });

    if (language.name === "python") {
      // Issue 52 again, after `pulumi import` (the plugin's read by id; the dynamic providers cannot be imported,
      // pulumi/pulumi#16175). The imported flag leaves the state and the service after, so the program's life cycle goes on as before.
      it("pulumi import of a flag made by hand, then two refreshes: its inputs stay as the import recorded them", async () => {
        const app = emu.state.applications("acme")[0]!;
        const bob = featureManagementClientAs(emu, { email: "bob@example.com", name: "Bob" });
        await bob.createFlag(app.id, { name: "checkout.byHand" });
        // No code: the import's state is what is checked (the language host here has no program generator).
        await cli.ok("import", "cloudbees:index:Flag", "byHand", `${app.id}/checkout.byHand`, "--yes", "--protect=false", "--generate-code=false");
        try {
          const imported = (await cli.recordedInputs()).byHand;
          expect(imported).toMatchObject({ applicationId: app.id, name: "checkout.byHand" });
          for (const _round of [1, 2]) {
            await cli.ok("refresh", "--expect-no-changes", "--yes");
            expect((await cli.recordedInputs()).byHand).toEqual(imported);
          }
        } finally {
          await cli.ok("state", "delete", `urn:pulumi:dev::${cli.projectName()}::cloudbees:index:Flag::byHand`, "--yes");
          await bob.deleteFlag(app.id, "checkout.byHand");
          await bob.close();
        }
      });
    }

    if (language.lifeCycle) {
      it("a config change updates the flag's configuration alone", async () => {
        await cli.ok("config", "set", "rolloutPercentage", "25");
        expect(await cli.plannedChanges()).toEqual(["newFlowStaging:update"]);
        await cli.ok("up", "--yes");
        const app = emu.state.applications("acme")[0]!;
        const flag = emu.state.flags(app.id).find((f) => f.name === "checkout.newFlow")!;
        expect(JSON.stringify(flag.configurations.Staging)).toContain('"percentage":25');
        await cli.ok("preview", "--expect-no-changes");
      });

      it("a pattern changed by hand fails the drift job, naming the property; up --refresh repairs it", async () => {
        const oc = new OperationsCenterClient({ baseUrl: emu.operationsCenterUrl, ...emu.credentials.admin });
        await oc.setAvailabilityPattern("team-b", "team-b/.*|sandbox");
        await oc.close();
        const drift = await cli.run("preview", "--refresh", "--expect-no-changes", "--diff");
        expect(drift.code).not.toBe(0);
        expect(drift.stdout + drift.stderr).toMatch(/no changes were expected for preview but changes were proposed/);
        expect(drift.stdout).toMatch(/[~+-] controllers\b/);
        await cli.ok("up", "--refresh", "--yes");
        expect(emu.state.apiAvailabilityPatterns()["team-b"]).toBe("^(?:team-b/controller-b)$");
        await cli.ok("preview", "--refresh", "--expect-no-changes");
      });

      if (language.driftNamesWho) {
        it("a flag configuration changed by a person fails the drift job with a warning naming who and when, on one line", async () => {
          const app = emu.state.applications("acme")[0]!;
          const alice = featureManagementClientAs(emu, { email: "alice@example.com", name: "Alice" });
          await alice.patchExperiment(app.id, "Staging", "checkout.newFlow", [{ op: "replace", path: "/value", value: [{ option: true, percentage: 75 }] }]);
          await alice.close();
          const drift = await cli.run("preview", "--refresh", "--expect-no-changes");
          expect(drift.code).not.toBe(0);
          expect(drift.stdout + drift.stderr).toMatch(
            /warning: FlagConfiguration checkout\.newFlow\/Staging changed outside this stack by "alice@example\.com" at \d{4}-\d\d-\d\dT[\d:.]+Z: "/,
          );
          await cli.ok("up", "--refresh", "--yes");
          await cli.ok("preview", "--refresh", "--expect-no-changes");
        });
      }

      it("stack export holds no credential and no bundle token in clear; the link is a secret output", async () => {
        const exported = (await cli.ok("stack", "export")).stdout;
        const c = connection();
        for (const value of [c.apiToken, c.featureManagementToken, emu.state.controllerToken("team-b/controller-b")]) {
          expect({ leaked: exported.includes(value), value }).toEqual({ leaked: false, value });
        }
        const hidden = JSON.parse((await cli.ok("stack", "output", "--json")).stdout) as Record<string, unknown>;
        expect(hidden.linkFile).toBe("[secret]");
        expect(String((await cli.outputs()).linkFile)).toContain(emu.state.controllerToken("team-b/controller-b"));
      });
    }

    const face = language.secretCheck;
    if (face) {
      it("a check that fails on inputs the program marked secret shows none of them: stdout, stderr, the event log, the state", async () => {
        await previewSecretCheck(face, project, cli.env);
      });
    }

    it("pulumi destroy removes what the API can delete", async () => {
      await cli.ok("destroy", "--yes");
      const app = emu.state.applications("acme")[0]!;
      expect(emu.state.flags(app.id)).toEqual([]);
      expect(emu.state.apiAvailabilityPatterns()).toEqual({});
    });
  });
}
