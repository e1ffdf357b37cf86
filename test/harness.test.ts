/* istanbul ignore file */
// (Coverage counters would be serialized into the toy provider's text and bloat it past what the host can return in
// an error's details; real providers are measured with direct unit tests, not through the host.)
/**
 * Proof of the harness: a toy dynamic provider run through the SDK's real dynamic-provider host over gRPC.
 * The toy keeps its "remote" objects in a temp JSON file that it require("fs")s inside its method bodies, so
 * the test can look at what the provider really saw and did in the host process.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
    CheckFailedError,
    dynamicType,
    isSecret,
    Lifecycle,
    ProviderHostError,
    secret,
    serializeProvider,
    startProviderHost,
    UNKNOWN,
    type ProviderHost,
} from "./harness";

interface ToyDb {
    nextId: number;
    config?: { token: unknown; region: unknown };
    objects: Record<string, Record<string, unknown>>;
    log: string[];
}

/** Everything a method body uses is a parameter or a local literal: captured by value, nothing at module scope. */
function makeToyProvider(dbFile: string) {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const load = () => JSON.parse(require("fs").readFileSync(dbFile, "utf8"));
    const save = (db: unknown) => require("fs").writeFileSync(dbFile, JSON.stringify(db, null, 2));
    return {
        async configure(req: { config: { get(k: string): string | undefined } }) {
            const db = load();
            // A namespaced key, and an unqualified one (resolved against the host's project name).
            db.config = { token: req.config.get("cloudbees:apiToken") ?? null, region: req.config.get("region") ?? null };
            save(db);
            console.log("toy: configured");
        },
        async check(_olds: any, news: any) {
            if (news.name === "explode") throw new Error("toy provider exploded in check");
            console.log(`toy: check size=${news.size}`);
            const failures: { property: string; reason: string }[] = [];
            if (typeof news.name !== "string" || news.name === "") failures.push({ property: "name", reason: "name is required" });
            // Unknown values arrive as the sentinel string whatever the field's type: let them through.
            if (news.size !== undefined && news.size !== unknown && typeof news.size !== "number") {
                failures.push({ property: "size", reason: "size must be a number" });
            }
            return { inputs: { ...news, flavor: news.flavor ?? "vanilla" }, failures };
        },
        async diff(_id: string, olds: any, news: any) {
            const keys = ["name", "size", "flavor", "password"];
            const changes = keys.some((k) => news[k] === unknown || JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
            return { changes, replaces: olds.name !== news.name ? ["name"] : [], deleteBeforeReplace: news.dbr === true };
        },
        async create(inputs: any) {
            const db = load();
            if (inputs.name === "fail-create") throw new Error("toy create refused: fail-create");
            const id = `obj-${db.nextId++}`;
            db.objects[id] = {
                name: inputs.name, size: inputs.size ?? 1, flavor: inputs.flavor, password: inputs.password ?? null,
                version: 1, seenToken: db.config?.token ?? null,
            };
            db.log.push(`create ${id}`);
            save(db);
            console.log(`toy: created ${id}`);
            if (inputs.name === "partial") {
                // Created remotely, then failed: the error carries the id so the engine records the resource.
                // Its properties must carry __provider: the host finds the provider for a later read/delete there.
                const properties = { name: inputs.name, size: 1, __provider: inputs.__provider };
                throw Object.assign(new Error("toy: partial failure"), { id, properties, reasons: ["not ready"] });
            }
            return { id, outs: { ...db.objects[id] } };
        },
        async read(id: string, _props: any) {
            const obj = load().objects[id];
            if (!obj) return {};
            const inputs: Record<string, unknown> = { name: obj.name, size: obj.size, flavor: obj.flavor };
            if (obj.password !== null) inputs.password = obj.password;
            return { id, props: { ...obj }, inputs };
        },
        async update(id: string, _olds: any, news: any) {
            const db = load();
            const obj = db.objects[id];
            Object.assign(obj, { size: news.size, flavor: news.flavor, password: news.password ?? null, version: obj.version + 1 });
            db.log.push(`update ${id}`);
            save(db);
            return { outs: { ...obj } };
        },
        async delete(id: string, _props: any) {
            const db = load();
            delete db.objects[id];
            db.log.push(`delete ${id}`);
            save(db);
        },
    };
}

const TYPE = dynamicType("cloudbees", "Toy");
let tmp: string;
let dbFile: string;
let host: ProviderHost;
let lc: Lifecycle;
let providerText: string;

const db = (): ToyDb => JSON.parse(fs.readFileSync(dbFile, "utf8"));
const editDb = (f: (d: ToyDb) => void) => {
    const d = db();
    f(d);
    fs.writeFileSync(dbFile, JSON.stringify(d));
};

beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "harness-"));
    dbFile = path.join(tmp, "db.json");
    fs.writeFileSync(dbFile, JSON.stringify({ nextId: 1, objects: {}, log: [] }));
    providerText = await serializeProvider(makeToyProvider(dbFile));
    // The toy only needs node built-ins; the repository root resolves @pulumi/pulumi for the host itself.
    host = await startProviderHost({ cwd: path.resolve(__dirname, "..") });
    lc = new Lifecycle(host);
});

afterAll(async () => {
    await host?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("serializeProvider", () => {
    it("produces the same text as dynamic.Resource stores in __provider", async () => {
        const pulumi = await import("@pulumi/pulumi");
        const provider = makeToyProvider(dbFile);
        const seen = new Promise<string>((resolve) => {
            void pulumi.runtime.setMocks({
                newResource: (args) => {
                    resolve(args.inputs.__provider);
                    return { id: "x", state: args.inputs };
                },
                call: () => ({}),
            });
        });
        class Toy extends pulumi.dynamic.Resource {}
        new Toy(provider as any, "toy", { name: "a" }, {}, "cloudbees", "Toy");
        expect(await seen).toBe(await serializeProvider(provider));
        expect(providerText).toContain("exports.handler");
        expect(providerText).not.toContain("grpc");
    });
});

describe("the real dynamic-provider host", () => {
    const r = () => resource;
    let resource: ReturnType<Lifecycle["resource"]>;

    it("configures: acceptSecrets=false, no preview support; configure() gets the unwrapped config", async () => {
        const res = await host.configure({ "cloudbees:apiToken": secret("tok-123"), "project:region": "eu-1" });
        expect(res).toEqual({ acceptSecrets: false, supportsPreview: false });
        // The provider's configure runs lazily, when the host first rebuilds it for a request.
        await host.check("urn:pulumi:stack::project::" + TYPE + "::probe", {}, { name: "probe", __provider: providerText });
        expect(db().config).toEqual({ token: "tok-123", region: "eu-1" });
        await host.waitForOutput("toy: configured");
        host.takeOutput();
    });

    it("check returns failures, and the driver turns them into an error", async () => {
        const urn = "urn:pulumi:stack::project::" + TYPE + "::bad";
        const res = await host.check(urn, {}, { name: "", size: "big", __provider: providerText });
        expect(res.failures).toEqual([
            { property: "name", reason: "name is required" },
            { property: "size", reason: "size must be a number" },
        ]);
        expect(res.inputs).toMatchObject({ name: "", flavor: "vanilla", __provider: providerText });
        const bad = lc.resource(TYPE, "bad", providerText, { name: "" });
        await expect(bad.up()).rejects.toBeInstanceOf(CheckFailedError);
        await expect(bad.up()).rejects.toThrow(`${urn}: ${TYPE} resource 'bad': property name value {} has a problem: name is required`);
        expect(bad.state).toBeUndefined();
    });

    it("previews a create with an unknown value without creating anything", async () => {
        resource = lc.resource(TYPE, "app", providerText, { name: "app-1", size: 1, password: secret("hunter2") });
        const plan = await r().preview({ name: "app-1", size: UNKNOWN });
        expect(plan).toEqual({
            urn: r().urn,
            name: "app",
            type: TYPE,
            op: "create",
            changedFields: ["flavor", "name", "size"],
            outputs: { name: "app-1", size: UNKNOWN, flavor: "vanilla", __provider: providerText },
        });
        await host.waitForOutput(`toy: check size=${UNKNOWN}`);
        host.takeOutput();
        expect(db().objects).toEqual({});
        expect(r().state).toBeUndefined();
    });

    it("creates; a secret input reaches the provider unwrapped and its output is re-marked secret", async () => {
        const plan = await r().up();
        expect(plan).toEqual({ urn: r().urn, name: "app", type: TYPE, op: "create", changedFields: ["flavor", "name", "password", "size"] });
        expect(r().state!.id).toBe("obj-1");
        expect(db().objects["obj-1"]).toEqual({
            name: "app-1", size: 1, flavor: "vanilla", password: "hunter2", version: 1, seenToken: "tok-123",
        });
        const outs = r().state!.outputs;
        expect(outs).toMatchObject({ name: "app-1", size: 1, version: 1, seenToken: "tok-123", __provider: providerText });
        expect(isSecret(outs.password)).toBe(true);
        expect(outs.password).toEqual(secret("hunter2"));
        expect(isSecret(r().state!.inputs.password)).toBe(true);
        await host.waitForOutput("toy: created obj-1");
        host.takeOutput();
    });

    it("reads the object back", async () => {
        const read = await host.read("obj-1", r().urn, r().state!.outputs, r().state!.inputs);
        expect(read.id).toBe("obj-1");
        expect(read.props).toMatchObject({ name: "app-1", size: 1, password: "hunter2", __provider: providerText });
        expect(read.inputs).toEqual({ name: "app-1", size: 1, flavor: "vanilla", password: "hunter2", __provider: providerText });
        const plan = await r().refresh();
        expect(plan).toEqual({ urn: r().urn, name: "app", type: TYPE, op: "refresh", changedFields: [] });
    });

    it("diff reports changes and replaces", async () => {
        const st = r().state!;
        const news = { ...st.inputs, name: "app-renamed" };
        await expect(host.diff(st.id, r().urn, st.outputs, news)).resolves.toEqual({
            changes: true, replaces: ["name"], deleteBeforeReplace: false, diffs: [],
        });
        await expect(host.diff(st.id, r().urn, st.outputs, st.inputs)).resolves.toMatchObject({ changes: false, replaces: [] });
    });

    it("previews an update with an unknown value as a change", async () => {
        const plan = await r().preview({ name: "app-1", size: UNKNOWN, password: secret("hunter2") });
        expect(plan).toMatchObject({ op: "update", changedFields: ["size"], replaces: [] });
        expect(plan.outputs!.size).toBe(UNKNOWN);
        expect(db().log).toEqual(["create obj-1"]);
    });

    it("updates in place, then does nothing when inputs are unchanged", async () => {
        const inputs = { name: "app-1", size: 2, password: secret("hunter2") };
        expect(await r().up(inputs)).toEqual({ urn: r().urn, name: "app", type: TYPE, op: "update", changedFields: ["size"], replaces: [], deleteBeforeReplace: false });
        expect(r().state).toMatchObject({ id: "obj-1", outputs: { size: 2, version: 2 } });
        expect(isSecret(r().state!.outputs.password)).toBe(true);
        expect(await r().up(inputs)).toEqual({ urn: r().urn, name: "app", type: TYPE, op: "same", changedFields: [] });
        expect(db().log).toEqual(["create obj-1", "update obj-1"]);
    });

    it("refresh records drift in outputs and inputs, and the next up repairs it", async () => {
        editDb((d) => (d.objects["obj-1"].size = 5));
        expect(await r().refresh()).toEqual({ urn: r().urn, name: "app", type: TYPE, op: "refresh", changedFields: ["size"] });
        expect(r().state!.inputs.size).toBe(5);
        expect(isSecret(r().state!.outputs.password)).toBe(true);
        expect(await r().up()).toMatchObject({ op: "update", changedFields: ["size"] });
        expect(db().objects["obj-1"].size).toBe(2);
    });

    it("replaces create-before-delete, or delete-before-create when the diff asks", async () => {
        expect(await r().up({ name: "app-2", size: 2 })).toEqual({
            urn: r().urn, name: "app", type: TYPE, op: "replace", changedFields: ["name", "password"], replaces: ["name"], deleteBeforeReplace: false,
        });
        expect(r().state!.id).toBe("obj-2");
        expect(db().log.slice(-2)).toEqual(["create obj-2", "delete obj-1"]);

        expect(await r().up({ name: "app-3", size: 2, dbr: true })).toMatchObject({ op: "replace", deleteBeforeReplace: true });
        expect(r().state!.id).toBe("obj-3");
        expect(db().log.slice(-2)).toEqual(["delete obj-2", "create obj-3"]);
        expect(Object.keys(db().objects)).toEqual(["obj-3"]);
    });

    it("destroys", async () => {
        expect(await r().destroy()).toEqual({ urn: r().urn, name: "app", type: TYPE, op: "delete", changedFields: [] });
        expect(r().state).toBeUndefined();
        expect(db().objects).toEqual({});
    });

    it("refresh drops a resource whose object vanished", async () => {
        const gone = lc.resource(TYPE, "gone", providerText, { name: "gone" });
        await gone.up();
        const id = gone.state!.id;
        editDb((d) => delete d.objects[id]);
        const read = await host.read(id, gone.urn, gone.state!.outputs);
        expect(read.id).toBe("");
        expect(await gone.refresh()).toEqual({ urn: gone.urn, name: "gone", type: TYPE, op: "refresh", changedFields: [], dropped: true });
        expect(gone.state).toBeUndefined();
    });

    it("a provider that throws: the error message reaches the test", async () => {
        const boom = lc.resource(TYPE, "boom", providerText, { name: "fail-create" });
        const err = await boom.up().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ProviderHostError);
        expect((err as ProviderHostError).message).toContain("toy create refused: fail-create");
        expect((err as ProviderHostError).method).toBe("create");
        expect(boom.state).toBeUndefined();

        await expect(lc.resource(TYPE, "x", providerText, { name: "explode" }).up()).rejects.toThrow(
            "check failed: toy provider exploded in check",
        );
        // The host logs the stack trace of errors from check/diff/read/delete to stderr.
        expect(host.stderr()).toContain("toy provider exploded in check");
    });

    it("an error carrying an id records a partially created resource", async () => {
        const partial = lc.resource(TYPE, "partial", providerText, { name: "partial" });
        const err = (await partial.up().catch((e: unknown) => e)) as ProviderHostError;
        expect(err.message).toContain("toy: partial failure");
        expect(err.initFailure).toEqual({
            id: expect.stringMatching(/^obj-/),
            properties: { name: "partial", size: 1, __provider: providerText },
            reasons: ["not ready"],
        });
        expect(partial.state).toMatchObject({ id: err.initFailure!.id, outputs: { name: "partial", size: 1 } });
        await partial.destroy();
        expect(db().objects[err.initFailure!.id]).toBeUndefined();
    });

    it("a new deployment in the same host: the provider's reads forgotten, its stack config kept, the output afresh", async () => {
        // The provider's per-process state (provider/config/state.ts), as the built package keeps it.
        const stateModule = path.resolve(__dirname, "..", "dist", "provider", "config", "state.js");
        const remembering = await serializeProvider({
            async create(inputs: any) {
                const state = require(stateModule).providerState();
                const seenBefore = state.bundleLists.has("marker");
                state.bundleLists.set("marker", true);
                state.stackConfig ??= { kept: "from the first deployment" };
                console.log(`remembering: created ${inputs.name}`);
                return { id: `m-${inputs.name}`, outs: { seenBefore, config: JSON.stringify(state.stackConfig) } };
            },
        });
        const create = async (name: string) => (await host.create(`urn:pulumi:stack::project::${TYPE}::${name}`, { name, __provider: remembering })).outs;
        expect(await create("first")).toMatchObject({ seenBefore: false });
        expect(await create("second")).toMatchObject({ seenBefore: true });
        await host.waitForOutput("remembering: created second");
        expect(await host.newDeployment()).toBe(true);
        expect(host.output()).toBe("");
        expect(await create("third")).toEqual({ seenBefore: false, config: JSON.stringify({ kept: "from the first deployment" }), __provider: remembering });
        expect(await host.waitForOutput("remembering: created third")).not.toContain("second");
    });

    it("settleOutput: every line the host wrote before its answer is there, the barrier's own lines are not", async () => {
        // Half a megabyte on stderr just before the answer: the last of it is still in the pipe when the answer comes.
        const loud = await serializeProvider({
            async create(inputs: any) {
                for (let i = 0; i < 512; i++) console.error(`${i} ${"x".repeat(1000)}`);
                console.error(`warning: the last line of ${inputs.name}`);
                return { id: `l-${inputs.name}`, outs: {} };
            },
        });
        host.takeOutput();
        await host.create(`urn:pulumi:stack::project::${TYPE}::loud`, { name: "loud", __provider: loud });
        await host.settleOutput();
        const out = host.takeOutput();
        expect(out.split("\n").filter((l) => / x+$/.test(l))).toHaveLength(512);
        expect(out).toContain("warning: the last line of loud\n");
        expect(host.output()).not.toContain("pulumi-cloudbees:output-barrier");
        expect(host.stderr()).not.toContain("pulumi-cloudbees:output-barrier");
    });

    it("without diff, the engine diffs all inputs: a new provider text alone means an update (#12401)", async () => {
        const file = dbFile;
        const noDiff = (tag: string) => ({
            async create(inputs: any) {
                return { id: `nd-${inputs.name}`, outs: { name: inputs.name, tag } };
            },
            async update(_id: string, _olds: any, news: any) {
                require("fs").appendFileSync(file + ".nodiff", `update ${news.name}\n`);
                return { outs: { name: news.name, tag } };
            },
        });
        const v1 = await serializeProvider(noDiff("v1"));
        const v2 = await serializeProvider(noDiff("v2"));
        expect(v2).not.toBe(v1);
        const nd = lc.resource(TYPE, "nodiff", v1, { name: "n" });
        await nd.up();
        expect(await nd.up()).toMatchObject({ op: "same" });
        expect(await nd.up(undefined, { provider: v2 })).toEqual({
            urn: nd.urn, name: "nodiff", type: TYPE, op: "update", changedFields: ["__provider"], replaces: [], deleteBeforeReplace: false,
        });
        // The host builds the provider from the *new* text for update (news.__provider).
        expect(nd.state!.outputs).toEqual({ name: "n", tag: "v2", __provider: v2 });
        expect(fs.readFileSync(file + ".nodiff", "utf8")).toBe("update n\n");
    });
});
