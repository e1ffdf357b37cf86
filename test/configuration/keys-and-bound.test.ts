import { UNSAFE_CHARACTERS } from "../../provider/text/printable";
import { configurationDigests, type ConfigurationView, describeDrift, MAX_CONFIGURATION_PATHS } from "../../provider/configuration";
import { MAX_KEY_LENGTH } from "../../provider/configuration/keys";

// The state keeps one digest per key: keys are bounded in number and length, printable whatever the server wrote.

/** A jenkins.yaml with `n` leaves spread over `groups` mappings of a few levels. */
function wide(n: number, groups: number, value = (i: number) => `v${i}`): ConfigurationView {
  const jenkins: Record<string, Record<string, Record<string, string>>> = {};
  for (let i = 0; i < n; i++) {
    const g = `g${i % groups}`;
    const s = `s${Math.floor(i / groups) % 7}`;
    ((jenkins[g] ??= {})[s] ??= {})[`leaf${i}`] = value(i);
  }
  return { jenkins };
}

describe("the bound on keys", () => {
  it("a view with 5000 leaves gives at most MAX_CONFIGURATION_PATHS keys, the same ones every time", () => {
    const view = wide(5000, 40);
    const a = configurationDigests(view, view, []);
    const b = configurationDigests(structuredClone(view), structuredClone(view), []);
    const keys = Object.keys(a.expected);
    expect(keys.length).toBeLessThanOrEqual(MAX_CONFIGURATION_PATHS);
    expect(keys.length).toBeGreaterThan(MAX_CONFIGURATION_PATHS / 2);
    expect(b).toEqual(a);
    expect(describeDrift(a.expected, a.running)).toEqual([]);
  });

  it("the same keys fold the same way whatever order the YAML lists them in", () => {
    const view = wide(3000, 25) as { jenkins: Record<string, unknown> };
    const reversed = { jenkins: Object.fromEntries(Object.entries(view.jenkins).reverse()) };
    expect(Object.keys(configurationDigests(reversed, reversed, []).expected)).toEqual(Object.keys(configurationDigests(view, view, []).expected));
  });

  it("a change below a folded path is still drift, named by the folded path", () => {
    const view = wide(5000, 40);
    const running = wide(5000, 40, (i) => (i === 1234 ? "changed" : `v${i}`));
    const d = configurationDigests(view, running, []);
    const lines = describeDrift(d.expected, d.running);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^jenkins\.yaml: g34(\.s\d)? changed$/);
  });

  it("a view within the bound is not folded", () => {
    const view = wide(900, 30);
    expect(Object.keys(configurationDigests(view, view, []).expected)).toHaveLength(900);
  });
});

describe("hostile names", () => {
  const ESC = "\u001b[31m";
  const long = (c: string) => c.repeat(20_000);

  it("control characters and line breaks in a key, an identity or an item name are escaped", () => {
    const expected: ConfigurationView = {
      jenkins: { [`evil${ESC}\nkey`]: 1, list: [{ id: `id\r\n##vso[task.setvariable]${ESC}`, v: 1 }] },
      items: { removeStrategy: "none", items: [{ name: `job\u202e\n`, kind: "pipeline" }] },
      plugins: [`plug\nin`],
    };
    const d = configurationDigests(expected, undefined, []);
    const lines = describeDrift(d.expected, d.running);
    for (const text of [...Object.keys(d.expected), ...lines]) {
      expect(text).not.toMatch(UNSAFE_CHARACTERS);
      expect(text).not.toContain("##vso[");
    }
    expect(Object.keys(d.expected)).toEqual(
      expect.arrayContaining(['jenkins.yaml: "evil\\u001b[31m\\nkey"', 'items.yaml: item "job\\u202e\\n"', 'plugins.yaml: "plug\\nin"']),
    );
  });

  it("very long names are bounded, and two long names stay two keys", () => {
    const expected: ConfigurationView = {
      jenkins: { [long("a")]: 1, [`${long("a")}b`]: 2, deep: { list: [{ name: long("n"), v: 1 }, { name: `${long("n")}x`, v: 2 }] } },
      items: { removeStrategy: "none", items: [{ name: long("i"), kind: "freeStyle" }] },
    };
    const keys = Object.keys(configurationDigests(expected, undefined, []).expected);
    expect(keys).toHaveLength(7); // two keys of 20,000 characters, two list entries (name, v), one item
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
  });

  it("a path too long as a whole is cut with a hash of the whole, distinct keys staying distinct", () => {
    let a: Record<string, unknown> = { leaf: 1 };
    let b: Record<string, unknown> = { leaf: 2, other: 3 };
    for (let i = 0; i < 100; i++) {
      a = { [`level${i}`]: a };
      b = { [`level${i}`]: b };
    }
    const keys = Object.keys(configurationDigests({ jenkins: { x: a, y: b } }, undefined, []).expected);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
  });
});
