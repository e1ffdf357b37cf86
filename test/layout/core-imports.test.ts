import { providerSources, specifiersOf, violations } from "./import-rules";

// One core under two faces: nothing under provider/ imports sdk/ or provider/plugin/, and the plugin (a face)
// does not import sdk/. Read from the sources (every import, export-from, require() and import()), not from what
// a run happens to load.

describe("the core imports no face", () => {
  it("no file under provider/ imports sdk/ or (outside the plugin) provider/plugin/, and the plugin imports no sdk/", () => {
    const files = providerSources();
    expect(files.size).toBeGreaterThan(100);
    expect(files.has("provider/plugin/invokes.ts")).toBe(true);
    expect(violations(files)).toEqual([]);
  });

  it("catches the plugin's require of sdk/functions that invokes.ts had (issue 43)", () => {
    // The line as provider/plugin/invokes.ts had it before the functions moved below both faces.
    const before = `const functions = require("../../sdk/functions") as Record<string, ProgramFunction>;`;
    expect(violations(new Map([["provider/plugin/invokes.ts", before]]))).toEqual([
      { file: "provider/plugin/invokes.ts", specifier: "../../sdk/functions", face: "sdk/ (the TypeScript face)" },
    ]);
  });

  it("catches a core file reaching either face, by path, by export-from, by import() or by the package's name", () => {
    const files = new Map([
      ["provider/functions/calls.ts", `import { programHost } from "../../sdk/functions/host";`],
      ["provider/resources/shared/x.ts", `export { invoke } from "../../plugin/invokes";`],
      ["provider/config/y.ts", `async function f() { return import("pulumi-cloudbees"); }`],
      ["provider/plugin/z.ts", `import { INVOKES } from "./invokes"; import { configure } from "pulumi-cloudbees/provider";`],
      ["sdk/functions/ok.ts", `import { getFlags } from "../../provider/functions";`],
    ]);
    expect(violations(files).map((v) => `${v.file} -> ${v.specifier}`)).toEqual([
      "provider/functions/calls.ts -> ../../sdk/functions/host",
      "provider/resources/shared/x.ts -> ../../plugin/invokes",
      "provider/config/y.ts -> pulumi-cloudbees",
    ]);
  });

  it("the commands (cli/) stand above everything: no file under provider/ or sdk/ imports them", () => {
    const sdk = providerSources("sdk");
    expect(sdk.has("sdk/index.ts")).toBe(true);
    expect(violations(new Map([...providerSources(), ...sdk]))).toEqual([]);
    const files = new Map([
      ["sdk/resources/x.ts", `import { driftCommand } from "../../cli/drift/command";`],
      ["provider/hygiene/y.ts", `import { md } from "../../cli/report/markdown";`],
      ["sdk/functions/ok.ts", `import { getFlags } from "../../provider/functions";`],
    ]);
    expect(violations(files).map((v) => `${v.file} -> ${v.face}`)).toEqual(["sdk/resources/x.ts -> cli/ (the commands)", "provider/hygiene/y.ts -> cli/ (the commands)"]);
  });

  it("reads no specifier from comments", () => {
    expect(specifiersOf(`// require("../../sdk/functions")\n/* import "../../sdk" */\nimport { a } from "./a";`)).toEqual(["./a"]);
  });
});
