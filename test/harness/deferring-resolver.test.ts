/**
 * test/harness/deferring-resolver.js, jest's resolver for `npm test`: it defers exactly what
 * testing/processes/deferred-modules.ts defers (each request from the folder of the SDK file that asks for it), each
 * stand-in answers as the real module once used, and nothing else is touched.
 */
import * as path from "node:path";
import { DEFERRED } from "../../testing/processes/deferred-modules";

const resolver = require("./deferring-resolver") as {
  (request: string, options: { basedir: string; defaultResolver(request: string, options: unknown): string }): string;
  REQUESTS: Record<string, string[]>;
  standInFile(request: string): string;
};

const PULUMI = path.join(__dirname, "..", "..", "node_modules", "@pulumi", "pulumi");
const byDefault = (request: string) => `default:${request}`;
const resolve = (request: string, basedir: string) => resolver(request, { basedir, defaultResolver: byDefault });

describe("the deferring resolver", () => {
  it("defers deferred-modules.ts's requests, each from the folder of the file that asks, and no others", () => {
    const fromTable: Record<string, string[]> = {};
    for (const d of DEFERRED) (fromTable[d.request] ??= []).push(path.posix.dirname(d.from.replace("/@pulumi/pulumi/", "")).replace(/^\.$/, ""));
    expect(resolver.REQUESTS).toEqual(fromTable);
    for (const d of DEFERRED) {
      const folder = path.dirname(path.join(PULUMI, d.from.replace("/@pulumi/pulumi/", "")));
      expect(resolve(d.request, folder)).toBe(resolver.standInFile(d.request));
      // The same request from elsewhere (a test file, the Automation API's own files) is the real module.
      expect(resolve(d.request, path.join(PULUMI, "automation"))).toBe(`default:${d.request}`);
      expect(resolve(d.request, __dirname)).toBe(`default:${d.request}`);
    }
    expect(resolve("zod", PULUMI)).toBe("default:zod");
  });

  it("gives stand-ins that answer as the real modules", () => {
    // Loaded through the stand-ins in this file's registry: @pulumi/pulumi's index.js asks for ./automation, rpc.js for semver.
    const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
    expect(typeof pulumi.automation.LocalWorkspace.create).toBe("function");
    const standInSemver = require(resolver.standInFile("semver")) as typeof import("semver");
    expect(standInSemver.satisfies("3.216.0", "^3.0.0")).toBe(true);
    const ts = require(resolver.standInFile("typescript")) as typeof import("typescript");
    expect(ts.transpileModule("const a: number = 1;", {}).outputText).toContain("var a = 1;");
  });
});
