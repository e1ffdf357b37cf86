/* istanbul ignore file */
/**
 * The sample source tree of the code-reference tests (issue 64), written to a temporary folder: namespaced names in
 * the vendor SDK's three shapes of container, aliases in every case, nested `.gitignore` files, a binary file, a file
 * over the size bound, links (out of the tree, into it, a loop, a broken one, one into a skipped folder) and a FIFO.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const FLAGS = ["checkout.newFlow", "checkout.darkMode", "cart.newFlow", "payments.newFlow", "summer-sale"];
export const LITERAL = { "summer-sale": ["legacyBanner"] };

/** The tree's files, by path: text, or bytes. */
export const FILES: Record<string, string | Buffer> = {
  ".gitignore": "# build output\nbuild/\n*.log\n!keep.log\n/secret.ts\n",
  "keep.log": 'started with "summer-sale"\n',
  "debug.log": '"summer-sale"\n',
  "secret.ts": 'export const on = "summer-sale";\n',
  "build/out.js": '"summer-sale"\n',
  "node_modules/x/index.js": '"summer-sale"\n',
  "image.png": Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n\0\0"), Buffer.from('"summer-sale"')]),
  "huge.txt": `"summer-sale"\n${"x".repeat(1024 * 1024)}\n`,
  "unreadable.ts": '"summer-sale"\n',
  // An object literal registered by name (rox-node's README shape).
  "src/checkout.ts": [
    'import Rox from "rox-node";',
    "",
    "export const checkoutFlags = {",
    "  newFlow: new Rox.Flag(),",
    "  darkMode: new Rox.Flag(false),",
    "};",
    'Rox.register("checkout", checkoutFlags);',
    'if (checkoutFlags.newFlow.isEnabled()) render("dark-mode");',
    "",
  ].join("\n"),
  // A class registered as an instance, and a literal with a shorthand property registered inline.
  "src/cart.ts": [
    'import Rox from "rox-node";',
    "class CartFlags {",
    "  public readonly newFlow = new Rox.Flag();",
    "}",
    "const newFlow = new Rox.Flag();",
    'Rox.register("cart", { newFlow });',
    'Rox.register("payments", new CartFlags());',
    "",
  ].join("\n"),
  "src/flags.py": ['CHECKOUT_NEW_FLOW = "checkout.newFlow"', "SUMMER = 'summer-sale'  # summerSale, SUMMER_SALE", ""].join("\n"),
  "src/legacy.js": ["// the old banner", "const legacyBanner = client.get(`summer_sale`);", ""].join("\n"),
  "src/secret.ts": 'export const on = "summer-sale";\n',
  "src/generated/.gitignore": "*.gen.ts\n",
  "src/generated/a.gen.ts": '"summer-sale"\n',
  "src/generated/b.ts": 'x("summerSale");\n',
};

/** Writes the tree under a new temporary folder; its root, and a file outside it that a link points to. */
export function writeSampleTree(): { root: string; outside: string; cleanup: () => void } {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), "code-references-"));
  const root = path.join(top, "repo");
  for (const [file, content] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  const outside = path.join(top, "outside.ts");
  fs.writeFileSync(outside, '"summer-sale"\n');
  fs.symlinkSync(outside, path.join(root, "link-out"));
  fs.symlinkSync("src", path.join(root, "link-in"));
  fs.symlinkSync(".", path.join(root, "loop"));
  fs.symlinkSync("missing", path.join(root, "broken"));
  fs.symlinkSync("node_modules/x", path.join(root, "vendor-link"));
  const fifo = spawnSync("mkfifo", [path.join(root, "fifo")]);
  if (fifo.status !== 0) throw new Error(`mkfifo: ${fifo.stderr}`);
  return { root, outside, cleanup: () => fs.rmSync(top, { recursive: true, force: true }) };
}
