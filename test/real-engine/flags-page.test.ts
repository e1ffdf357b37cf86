/**
 * The flags page (cli/flags/render-html.ts) in a real browser, as drift-page.test.ts does the drift page: Debian's
 * chromium driven by playwright-core, the page opened from a file:// URL as a pipeline's artifact is. The report is
 * a real one: `pulumi-cloudbees flags` (in this process) against the emulator's two applications with impressions
 * over past days (test/cli/flags-estate.ts) and the sample source tree. Its filters show the flags they should, each
 * flag's chart has a line per value served and follows the environment filter, nothing leaves the page (no request,
 * no CSP violation, no script error), hostile server text shows as text; and the screenshot in docs/flag-hygiene.md
 * is taken here (docs/images/flags-report.png).
 *
 * No browser is not a skip: the test fails and says how to install one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { flagsCommand } from "../../cli/flags/command";
import { renderFlagsHtml } from "../../cli/flags/render-html";
import { startEmulator, type Emulator } from "../../emulator";
import { cliEnvironment } from "../cli/cli-environment";
import { AS_OF, COMMON_ARGS, setUpFlagsEstate, type FlagsEstate } from "../cli/flags-estate";
import { hostileFlagsReport } from "../cli/flags-reports";

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = path.join(__dirname, "..", "..", "docs", "images", "flags-report.png");
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let browser: Browser;
let emu: Emulator;
let estate: FlagsEstate;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`the flags page's test needs Debian's chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  emu = await startEmulator();
  estate = await setUpFlagsEstate(emu);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await emu?.close();
  estate?.cleanup();
});

async function open(name: string): Promise<{ page: Page; leaks: string[] }> {
  const url = pathToFileURL(path.join(estate.dir, name)).href;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const leaks: string[] = [];
  page.on("request", (r) => void (r.url() !== url && leaks.push(`request ${r.url()}`)));
  page.on("console", (m) => void ((m.type() === "error" || /Content Security Policy|Refused to/i.test(m.text())) && leaks.push(`console ${m.text()}`)));
  page.on("pageerror", (e) => void leaks.push(`error ${e.message}`));
  page.on("dialog", (d) => void (leaks.push(`dialog ${d.message()}`), d.dismiss()));
  await page.goto(url, { waitUntil: "load" });
  await page.locator("#f-shown").filter({ hasText: "flags shown" }).waitFor();
  return { page, leaks };
}

const visible = (page: Page) => page.locator("#flags tbody tr:visible td:nth-child(2)").allTextContents();
const says = async (page: Page) => (await page.locator("#f-shown").textContent()) ?? "";

it("a real report: the filters, a chart per flag following the environment, nothing sent; the docs' screenshot", async () => {
  const env = cliEnvironment(emu);
  const err = { write: () => true } as unknown as NodeJS.WriteStream;
  // Run where the sources are, as a pipeline does (`--source source`), at a fixed time: the screenshot stays the same.
  const cwd = process.cwd();
  process.chdir(estate.dir);
  let code: number;
  try {
    code = await flagsCommand([...COMMON_ARGS, "--source", "source", "--context", "1", "--out", "report"], { env, err, now: () => new Date(AS_OF) });
  } finally {
    process.chdir(cwd);
  }
  expect(code).toBe(1);
  const { page, leaks } = await open("report/flags-report.html");
  expect(await says(page)).toBe("8 of 8 flags shown");

  await page.selectOption("#f-verdict", "candidates");
  expect((await visible(page)).sort()).toEqual(["checkout.newFlow", "kiosk.mode", "old.banner"]);
  await page.selectOption("#f-verdict", "remove-from-code");
  await page.selectOption("#f-application", "kiosk");
  expect(await visible(page)).toEqual(["kiosk.mode"]);
  expect(await page.locator("#flags tbody tr:visible .plan").textContent()).toContain('Hard-code "on"');
  await page.selectOption("#f-verdict", "all");
  await page.selectOption("#f-application", "all");
  await page.selectOption("#f-environment", "Edge");
  expect((await visible(page)).sort()).toEqual(["kiosk.legacy", "kiosk.mode"]);
  await page.selectOption("#f-environment", "all");
  await page.fill("#f-search", "theme");
  expect(await visible(page)).toEqual(["ui.theme"]);

  // ui.theme served light and dark in both environments this week: two lines; in Staging alone, its share of them.
  const theme = page.locator("#flags tbody tr:visible .impressions");
  expect(await theme.locator("polyline").count()).toBe(2);
  expect(await theme.locator("title").allTextContents()).toEqual(["dark: 6 impressions", "light: 6 impressions"]);
  await page.selectOption("#f-environment", "Staging");
  expect(await theme.locator("title").allTextContents()).toEqual(["dark: 3 impressions", "light: 3 impressions"]);
  await page.selectOption("#f-environment", "all");
  await page.fill("#f-search", "");
  // A flag never evaluated has an empty chart that says so.
  await page.fill("#f-search", "perm.kill");
  expect(await page.locator("#flags tbody tr:visible .impressions").textContent()).toBe("no impressions");
  await page.fill("#f-search", "");
  expect(await says(page)).toBe("8 of 8 flags shown");

  fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  const png = await page.screenshot({ path: SCREENSHOT, fullPage: true });
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  expect(leaks).toEqual([]);
  await page.close();
}, 60_000);

it("hostile server and source text shows as text: no script of it runs, no element of it is made, nothing is fetched", async () => {
  fs.writeFileSync(path.join(estate.dir, "hostile.html"), renderFlagsHtml(hostileFlagsReport()));
  const { page, leaks } = await open("hostile.html");
  expect(await page.locator("script").count()).toBe(2);
  expect(await page.locator("img").count()).toBe(0);
  expect(await page.locator("#flags tbody tr td:nth-child(2)").allTextContents()).toEqual(["checkout.<script>alert(1)</script>", "ui.a|b||c"]);
  const statuses = await page.locator("#flags tbody tr").first().locator(".env").allTextContents();
  expect(statuses[0]).toBe('Prod <script>alert(1)</script>: stale "<img src=https://evil.example/x.png>"');
  expect(await page.locator("#flags tbody tr").first().locator(".legend span").allTextContents()).toEqual(["<img src=https://evil.example/x.png> 9", "on 2", "::error::x 1"]);
  await page.selectOption("#f-environment", "Prod <script>alert(1)</script>");
  expect(await says(page)).toBe("2 of 2 flags shown");
  await page.fill("#f-search", "<script>alert(1)</script> reason");
  expect(await says(page)).toBe("2 of 2 flags shown");
  expect(leaks).toEqual([]);
  await page.close();
}, 60_000);
