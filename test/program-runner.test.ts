/**
 * Proof of ProgramRunner: a real Pulumi program (test/fixtures/toy-program) run under the SDK's mocks in its own
 * process, its dynamic resources driven through the SDK's real dynamic-provider host, step after step with the state
 * carried between steps. The toy provider keeps its "remote" objects in a temp JSON file, so every assertion below
 * is about what really happened in the host.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
    formatPlan,
    isSecret,
    ProgramRunError,
    ProgramRunner,
    secret,
    UNKNOWN,
    type ProgramPlan,
    type ProgramState,
} from "./harness";

const FIXTURE = path.join(__dirname, "fixtures", "toy-program");
const TEAM = "pulumi-nodejs:dynamic/toy:Team";
const MEMBER = "pulumi-nodejs:dynamic/toy:Member";
const urn = (type: string, name: string) => `urn:pulumi:dev::toy-program::${type}::${name}`;

interface ToyDb {
    nextId: number;
    objects: Record<string, Record<string, any>>;
    log: string[];
    checks: string[];
    token?: string | null;
}

let tmp: string;
beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "program-runner-"));
});
afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function newDb(name: string, objects: ToyDb["objects"] = {}, nextId = 1): { file: string; read(): ToyDb; edit(f: (d: ToyDb) => void): void } {
    const file = path.join(tmp, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify({ nextId, objects, log: [], checks: [] }));
    const read = (): ToyDb => JSON.parse(fs.readFileSync(file, "utf8"));
    return {
        file,
        read,
        edit(f) {
            const d = read();
            f(d);
            fs.writeFileSync(file, JSON.stringify(d));
        },
    };
}

const summary = (plan: ProgramPlan) => plan.map((e) => [e.name, e.op, e.changedFields]);
const resource = (st: ProgramState, name: string) => st.resources.find((r) => r.name === name)!;

describe("ProgramRunner: the toy program through up / refresh / preview / destroy", () => {
    let db: ReturnType<typeof newDb>;
    let runner: ProgramRunner;
    let stateFile: string;

    beforeAll(async () => {
        db = newDb("main");
        stateFile = path.join(tmp, "state.json");
        runner = await ProgramRunner.start({
            cwd: FIXTURE,
            stack: "dev",
            config: { "toy:dbFile": db.file, "toy:alicePassword": secret("s3cret"), "toy:apiToken": secret("tok-1") },
            stateFile,
            timeoutMs: 20_000,
        });
    });
    afterAll(async () => {
        await runner?.close();
    });

    it("preview of a new stack plans creates with unknowns downstream and creates nothing", async () => {
        const plan = await runner.preview();
        expect(plan.map((e) => [e.urn, e.type, e.op, e.changedFields])).toEqual([
            [urn(TEAM, "core"), TEAM, "create", ["size", "title"]],
            [urn(MEMBER, "alice"), MEMBER, "create", ["password", "teamSlug", "user"]],
            [urn(MEMBER, "bob"), MEMBER, "create", ["teamSlug", "user"]],
        ]);
        // The team's slug is known only once it exists: the members' check saw the unknown sentinel.
        expect(plan[1].outputs!.teamSlug).toBe(UNKNOWN);
        expect(db.read().checks).toEqual([
            'team {"title":"Core","size":3}',
            `member {"teamSlug":"${UNKNOWN}","user":"alice","password":"s3cret"}`,
            `member {"teamSlug":"${UNKNOWN}","user":"bob"}`,
        ]);
        expect(db.read().objects).toEqual({});
        expect(db.read().log).toEqual([]);
        expect(runner.state().resources).toEqual([]);
        expect(runner.last!.outputs).toMatchObject({ teamSlug: UNKNOWN, aliceHandle: UNKNOWN, alicePassword: secret("s3cret") });
    });

    it("up creates everything, feeding outputs into inputs; secrets are plain for the provider, marked in the state", async () => {
        const plan = await runner.up();
        expect(summary(plan)).toEqual([
            ["core", "create", ["size", "title"]],
            ["alice", "create", ["password", "teamSlug", "user"]],
            ["bob", "create", ["teamSlug", "user"]],
        ]);
        const d = db.read();
        expect(d.objects).toEqual({
            "team-1": { title: "Core", size: 3, slug: "core-1", version: 1 },
            "member-2": { teamSlug: "core-1", user: "alice", password: "s3cret", handle: "core-1/alice", version: 1 },
            "member-3": { teamSlug: "core-1", user: "bob", password: null, handle: "core-1/bob", version: 1 },
        });
        // The secret stack config reached the provider's configure unwrapped.
        expect(d.token).toBe("tok-1");

        expect(runner.outputs()).toEqual({
            teamSlug: "core-1",
            aliceHandle: "core-1/alice",
            alicePassword: secret("s3cret"),
            members: ["alice", "bob"],
        });

        const st = runner.state();
        expect(st.resources.map((r) => [r.urn, r.id])).toEqual([
            [urn(TEAM, "core"), "team-1"],
            [urn(MEMBER, "alice"), "member-2"],
            [urn(MEMBER, "bob"), "member-3"],
        ]);
        const alice = resource(st, "alice");
        expect(alice.inputs.password).toEqual(secret("s3cret"));
        expect(alice.outputs.password).toEqual(secret("s3cret"));
        expect(alice.outputs).toMatchObject({ teamSlug: "core-1", handle: "core-1/alice", version: 1 });
        expect(alice.outputs.__provider).toEqual(expect.stringContaining("exports.handler"));
        expect(alice.dependencies).toEqual([urn(TEAM, "core")]);
        expect([...resource(st, "bob").dependencies].sort()).toEqual([urn(MEMBER, "alice"), urn(TEAM, "core")].sort());
        // The state file holds the same state, and a new runner picks it up. It holds the password in clear inside
        // its wrapper, so only its owner may read it (issue 26).
        expect(JSON.parse(fs.readFileSync(stateFile, "utf8"))).toEqual(st);
        expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600);
        const again = await ProgramRunner.start({ cwd: FIXTURE, stack: "dev", stateFile });
        expect(again.state()).toEqual(st);
        await again.close();

        const table = formatPlan(plan);
        expect(table.split("\n")[0]).toMatch(/^RESOURCE\s+TYPE\s+OPERATION\s+CHANGED FIELDS$/);
        expect(table).toMatch(/alice\s+toy:Member\s+create\s+password, teamSlug, user/);
        expect(table).toContain("(3 create)");
    });

    it("a second up finds every resource the same", async () => {
        const plan = await runner.up();
        expect(summary(plan)).toEqual([
            ["core", "same", []],
            ["alice", "same", []],
            ["bob", "same", []],
        ]);
        expect(db.read().log).toEqual(["create team-1", "create member-2", "create member-3"]);
    });

    it("refresh shows remote drift as changedFields and drops objects that vanished", async () => {
        db.edit((d) => {
            d.objects["team-1"].size = 9;
            delete d.objects["member-3"];
        });
        const plan = await runner.refresh();
        expect(plan.map((e) => [e.name, e.op, e.changedFields, e.dropped ?? false])).toEqual([
            ["core", "refresh", ["size"], false],
            ["alice", "refresh", [], false],
            ["bob", "refresh", [], true],
        ]);
        const st = runner.state();
        expect(st.resources.map((r) => r.name)).toEqual(["core", "alice"]);
        expect(resource(st, "core").outputs.size).toBe(9);
        expect(resource(st, "core").inputs.size).toBe(9);
        expect(isSecret(resource(st, "alice").outputs.password)).toBe(true);
        expect(formatPlan(plan)).toMatch(/bob\s+toy:Member\s+refresh\s+gone: dropped from the state/);
    });

    it("the next up corrects the drift and re-creates what vanished", async () => {
        const plan = await runner.up();
        expect(summary(plan)).toEqual([
            ["core", "update", ["size"]],
            ["alice", "same", []],
            ["bob", "create", ["teamSlug", "user"]],
        ]);
        expect(db.read().objects["team-1"]).toMatchObject({ size: 3, version: 2 });
        expect(db.read().objects["member-4"]).toMatchObject({ user: "bob", teamSlug: "core-1" });
    });

    it("expectNoChanges: a clean refresh and preview --refresh pass; drift fails them, listing the changes", async () => {
        await expect(runner.refresh({ expectNoChanges: true })).resolves.toHaveLength(3);
        const clean = await runner.preview(undefined, { refresh: true, expectNoChanges: true });
        expect(clean.map((e) => [e.name, e.op])).toEqual([
            ["core", "refresh"], ["alice", "refresh"], ["bob", "refresh"], ["core", "same"], ["alice", "same"], ["bob", "same"],
        ]);

        db.edit((d) => {
            d.objects["team-1"].size = 7;
        });
        const stateBefore = runner.state();
        const error = (await runner.preview(undefined, { refresh: true, expectNoChanges: true }).catch((e: unknown) => e)) as ProgramRunError;
        expect(error).toBeInstanceOf(ProgramRunError);
        // The team's drift, and the update it plans (with its members, whose input is the team's slug, unknown now).
        expect(error.message).toMatch(/no changes were expected \(expectNoChanges\), but 4 were found:\n/);
        expect(error.message).toMatch(/core\s+toy:Team\s+refresh\s+size/);
        expect(error.message).toMatch(/core\s+toy:Team\s+update\s+size/);
        // A preview keeps the refreshed state to itself; a refresh keeps what it read.
        expect(runner.state()).toEqual(stateBefore);
        await expect(runner.refresh({ expectNoChanges: true })).rejects.toThrow(/but 1 were found:\n[^]*core\s+toy:Team\s+refresh\s+size/);
        expect(resource(runner.state(), "core").inputs.size).toBe(7);
    }, 90_000);

    it("preview of changed inputs plans a replacement, unknowns downstream, and changes nothing", async () => {
        runner.setConfig("toy:teamTitle", "Platform");
        runner.setConfig("toy:teamSize", "5");
        const before = db.read();
        const plan = await runner.preview();
        expect(plan.map((e) => [e.name, e.op, e.changedFields, e.replaces])).toEqual([
            ["core", "replace", ["size", "title"], ["title"]],
            ["alice", "update", ["teamSlug"], []],
            ["bob", "update", ["teamSlug"], []],
        ]);
        expect(plan[1].outputs!.teamSlug).toBe(UNKNOWN);
        const after = db.read();
        expect(after.objects).toEqual(before.objects);
        expect(after.log).toEqual(before.log);
        expect(runner.outputs().teamSlug).toBe("core-1");
    });

    it("up of changed inputs replaces the team and updates the members in place with its new slug", async () => {
        const logBefore = db.read().log.length;
        const plan = await runner.up();
        expect(plan.map((e) => [e.name, e.op, e.changedFields, e.replaces])).toEqual([
            ["core", "replace", ["size", "title"], ["title"]],
            ["alice", "update", ["teamSlug"], []],
            ["bob", "update", ["teamSlug"], []],
        ]);
        const d = db.read();
        expect(d.objects["team-1"]).toBeUndefined();
        expect(d.objects["team-5"]).toEqual({ title: "Platform", size: 5, slug: "platform-5", version: 1 });
        expect(d.objects["member-2"]).toMatchObject({ teamSlug: "platform-5", handle: "platform-5/alice", password: "s3cret", version: 2 });
        expect(d.objects["member-4"]).toMatchObject({ teamSlug: "platform-5", version: 2 });
        // The old team is deleted at the end of the deployment, after its members moved to the new one.
        expect(d.log.slice(logBefore)).toEqual(["create team-5", "update member-2", "update member-4", "delete team-1"]);
        expect(runner.outputs()).toMatchObject({ teamSlug: "platform-5", aliceHandle: "platform-5/alice", alicePassword: secret("s3cret") });
        expect(resource(runner.state(), "core").id).toBe("team-5");
    });

    it("removing a resource from the program deletes it", async () => {
        runner.setConfig("toy:withBob", "false");
        const plan = await runner.up();
        expect(summary(plan)).toEqual([
            ["core", "same", []],
            ["alice", "same", []],
            ["bob", "delete", []],
        ]);
        expect(db.read().objects["member-4"]).toBeUndefined();
        expect(db.read().log.at(-1)).toBe("delete member-4");
        expect(runner.state().resources.map((r) => r.name)).toEqual(["core", "alice"]);
        expect(runner.outputs().members).toEqual(["alice"]);
    });

    it("destroy deletes everything in reverse dependency order", async () => {
        const plan = await runner.destroy();
        expect(summary(plan)).toEqual([
            ["alice", "delete", []],
            ["core", "delete", []],
        ]);
        expect(db.read().objects).toEqual({});
        expect(db.read().log.slice(-2)).toEqual(["delete member-2", "delete team-5"]);
        expect(runner.state()).toEqual({ version: 1, resources: [], outputs: {} });
        expect(JSON.parse(fs.readFileSync(stateFile, "utf8")).resources).toEqual([]);
    });
});

describe("ProgramRunner: failures and reads", () => {
    let db: ReturnType<typeof newDb>;
    let runner: ProgramRunner;

    beforeAll(async () => {
        // One object created out of band, for the read.
        db = newDb("failures", { "team-99": { title: "Legacy", size: 2, slug: "legacy-99", version: 7 } }, 100);
        runner = await ProgramRunner.start({
            cwd: FIXTURE,
            config: { "toy:dbFile": db.file, "toy:existingId": "team-99" },
            timeoutMs: 20_000,
        });
    });
    afterAll(async () => {
        await runner?.close();
    });

    it("a failing check fails the up; the steps that completed stay in the state", async () => {
        const err = (await runner.up("variants/check-failure.ts").catch((e: unknown) => e)) as ProgramRunError;
        expect(err).toBeInstanceOf(ProgramRunError);
        expect(err.message).toContain("urn:pulumi:stack::toy-program::pulumi-nodejs:dynamic/toy:Member::nobody");
        expect(err.message).toContain("pulumi-nodejs:dynamic/toy:Member resource 'nobody': property user value {} has a problem: user is required");
        expect(summary(err.plan)).toEqual([["core", "create", ["size", "title"]]]);
        expect(runner.state().resources.map((r) => [r.name, r.id])).toEqual([["core", "team-100"]]);
        expect(db.read().objects["team-100"]).toMatchObject({ title: "Core" });
    });

    it("reads an existing object (the id option) and never deletes it; undeclared resources are deleted", async () => {
        const plan = await runner.up("variants/read.ts");
        expect(summary(plan)).toEqual([
            ["imported", "read", ["size", "slug", "title", "version"]],
            ["core", "delete", []],
        ]);
        expect(runner.outputs()).toEqual({ importedSlug: "legacy-99" });
        expect(runner.state().resources.map((r) => [r.name, r.id, r.external])).toEqual([["imported", "team-99", true]]);
        expect(db.read().objects["team-100"]).toBeUndefined();

        const destroyed = await runner.destroy();
        expect(destroyed.map((e) => [e.name, e.op, e.retained])).toEqual([["imported", "delete", true]]);
        expect(db.read().objects["team-99"]).toMatchObject({ slug: "legacy-99" });
    });

    it("a provider the SDK cannot serialize fails the run quickly with the serializer's message", async () => {
        // Without the runner's handling it would hang until the step deadline, whose error lacks the serializer's message.
        const err = (await runner.up("variants/unserializable.ts").catch((e: unknown) => e)) as ProgramRunError;
        expect(err).toBeInstanceOf(ProgramRunError);
        expect(err.message).toContain('error serializing property "__provider"');
        expect(err.message).toContain("bound max");
    });

    it("a program that never finishes hits the deadline with a clear error", async () => {
        const err = (await runner.up("variants/hangs.ts", { timeoutMs: 800 }).catch((e: unknown) => e)) as ProgramRunError;
        expect(err).toBeInstanceOf(ProgramRunError);
        expect(err.message).toMatch(/did not finish within 800 ms\. No provider step was running/);
        expect(runner.state().resources).toEqual([]);
    });
});
