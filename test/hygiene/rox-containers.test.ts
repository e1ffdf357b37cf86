// The vendor SDK's containers and registrations as read from source (provider/hygiene/rox-containers.ts), in the
// shapes rox-node 6.0.16 accepts (dist/rox-node.js: register(name, container), RoxClassRegister.handleContainer).
import { resolveContainers, roxFacts } from "../../provider/hygiene/rox-containers";

const names = (...files: string[]) => resolveContainers(files.map(roxFacts)).keys.map((k) => `${k.file}:${k.key.line}:${k.key.column} ${k.flag}`);

describe("rox containers", () => {
  it("reads object literals, classes (fields and this.x in the constructor) and inline literals", () => {
    const source = [
      "// Rox.register('commented', { no: 1 });",
      "const flags: Record<string, Flag> = { a: new Flag(), 'b-c': new Flag(), nested: { not: 1 }, ...spread, method() { return 1; } };",
      "class Settings extends Base {",
      "  static readonly first = new Rox.Flag();",
      "  second!: Flag;",
      "  constructor() { super(); this.second = new Rox.Flag(); const local = { no: 1 }; }",
      "  helper() { return `{ not: ${1} }`; }",
      "}",
      "const settings = new Settings();",
      'Rox.register("ns", flags);',
      'Rox.register("cls", settings);',
      "Rox.register({ top });",
      'register(name, container); // a namespace that is no literal: not read',
    ].join("\n");
    expect(names(source)).toEqual([
      "0:2:39 ns.a",
      "0:2:55 ns.b-c",
      "0:2:73 ns.nested",
      "0:4:19 cls.first",
      "0:5:3 cls.second",
      "0:6:33 cls.second",
      "0:12:16 top",
    ]);
  });

  it("resolves a registration by name in its own file first, then in the others", () => {
    const decl = "export const shared = { here: new Flag() };";
    const other = "const shared = { elsewhere: new Flag() };";
    expect(names('Rox.register("a", shared);', decl)).toEqual(["1:1:25 a.here"]);
    expect(names(`${other}\nRox.register("b", shared);`, decl)).toEqual(["0:1:18 b.elsewhere"]);
    expect(resolveContainers([roxFacts('Rox.register("a", shared);')]).registeredNames).toEqual(new Map([["shared", new Set(["a"])]]));
  });
});
