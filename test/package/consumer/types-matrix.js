"use strict";
// Type-checks template/ (a program reaching every entry point) with the tsconfig.json of Pulumi's TypeScript
// template and with the strictest common variants of it, never skipLibCheck: the published declarations must compile
// wherever a user's program does (issue 31). Prints {variant: [problems]} as JSON.
const path = require("node:path");
const ts = require("typescript");

const dir = path.join(__dirname, "template");
const { config } = ts.readConfigFile(path.join(dir, "tsconfig.json"), ts.sys.readFile);
const template = ts.parseJsonConfigFileContent(config, ts.sys, dir);
const variants = {
  template: {},
  esModuleInterop: { esModuleInterop: true },
  node16: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
  bundler: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
};
// One parse of each file for every variant (the lib files and @pulumi/pulumi's declarations dominate the time).
const parsed = new Map();
const base = ts.createCompilerHost(template.options);
const host = {
  ...base,
  getSourceFile(fileName, languageVersionOrOptions, ...rest) {
    const key = `${fileName}\0${JSON.stringify(languageVersionOrOptions)}`;
    if (!parsed.has(key)) parsed.set(key, base.getSourceFile(fileName, languageVersionOrOptions, ...rest));
    return parsed.get(key);
  },
};
const report = {};
for (const [name, options] of Object.entries(variants)) {
  const program = ts.createProgram({ rootNames: template.fileNames, options: { ...template.options, ...options, skipLibCheck: false, noEmit: true }, host });
  report[name] = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(__dirname, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : "";
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}
console.log(JSON.stringify(report));
