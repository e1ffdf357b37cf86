/**
 * The drift page (cli/drift/render-html.ts) in a real browser: Debian's chromium (/usr/bin/chromium), driven by
 * playwright-core with the system browser (playwright's own browser download cannot reach this machine's network).
 * A 200-stack report over four runs, opened from a file:// URL as a pipeline's artifact is: its filters show the rows
 * they should, nothing leaves the page (no request, no CSP violation), hostile server text shows as text and runs
 * nothing; and the screenshot in docs/drift-detection.md is taken here (docs/images/drift-report.png). How fast it
 * renders is the bench's to say (`npm run bench -- --only drift`), not a test's.
 *
 * No browser is not a skip: the test fails and says how to install one. .ci/run installs it on a machine without it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { renderHtml } from "../../cli/drift/render-html";
import { estateReport, hostileReport } from "../cli/drift-reports";
import { REAL_RUN_REPORT } from "./real-drift-report";

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = path.join(__dirname, "..", "..", "docs", "images", "drift-report.png");
const REAL_RUN_SCREENSHOT = path.join(__dirname, "..", "..", "docs", "images", "drift-report-real-run.png");
// As root (CI) chromium needs --no-sandbox; the rest keep it from reaching for Google's hosts on a closed network.
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let browser: Browser;
let dir: string;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`the drift page's test needs Debian's chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-page-"));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  /** Requests for anything but the page's own file, and CSP reports, script errors and dialogs: all should be none. */
  leaks: string[];
}

async function open(name: string, html: string): Promise<Opened> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, html);
  const url = pathToFileURL(file).href;
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const leaks: string[] = [];
  page.on("request", (r) => void (r.url() !== url && leaks.push(`request ${r.url()}`)));
  page.on("console", (m) => void (/Content Security Policy|Refused to/i.test(m.text()) && leaks.push(`csp ${m.text()}`)));
  page.on("pageerror", (e) => void leaks.push(`error ${e.message}`));
  page.on("dialog", (d) => void (leaks.push(`dialog ${d.message()}`), d.dismiss()));
  await page.goto(url, { waitUntil: "load" });
  await page.locator("#f-shown").filter({ hasText: "stacks" }).waitFor();
  return { page, leaks };
}

/** Stacks and path rows shown now, as the DOM has them and as the page says. */
async function shown(page: Page): Promise<{ stacks: number; rows: number; says: string }> {
  return {
    stacks: await page.locator("#stacks > section:visible").count(),
    rows: await page.locator("#stacks tbody tr:visible").count(),
    says: (await page.locator("#f-shown").textContent()) ?? "",
  };
}

it("shows 200 stacks over four runs, filters them, sends nothing, and is the docs' screenshot", async () => {
  const runs = [
    estateReport(200, 8, "2026-11-25T06:00:00.000Z"),
    estateReport(200, 14, "2026-11-26T06:00:00.000Z"),
    estateReport(200, 12, "2026-11-27T06:00:00.000Z"),
    estateReport(200, 20, "2026-11-28T06:00:00.000Z"),
  ];
  const { page, leaks } = await open("estate.html", renderHtml(runs));
  expect(await shown(page)).toEqual({ stacks: 200, rows: 40, says: "200 of 200 stacks, 40 drifted paths shown" });
  expect(await page.locator("#chart circle").count()).toBe(8);

  await page.selectOption("#f-status", "drifted");
  expect(await shown(page)).toEqual({ stacks: 20, rows: 40, says: "20 of 200 stacks, 40 drifted paths shown" });
  await page.check("#f-new");
  expect(await shown(page)).toEqual({ stacks: 20, rows: 20, says: "20 of 200 stacks, 20 drifted paths shown" });
  await page.fill("#f-search", "controllerconfiguration");
  const controllers = runs[3].stacks.filter((s) => s.resources?.[0]?.type === "cloudbees:index:ControllerConfiguration").length;
  expect(controllers).toBeGreaterThan(0);
  expect(await shown(page)).toMatchObject({ stacks: controllers, rows: controllers });
  await page.fill("#f-search", "::team-30::");
  expect(await shown(page)).toMatchObject({ stacks: 1, rows: 1 });
  await page.uncheck("#f-new");
  await page.fill("#f-search", "");
  await page.selectOption("#f-status", "error");
  expect(await shown(page)).toEqual({ stacks: 1, rows: 0, says: "1 of 200 stacks, 0 drifted paths shown" });
  await page.selectOption("#f-status", "clean");
  expect(await shown(page)).toMatchObject({ stacks: 179, rows: 0 });
  await page.check("#f-new");
  expect(await shown(page)).toMatchObject({ stacks: 0, rows: 0 });

  // The screenshot: the drifted stacks, as a person triaging would filter them.
  await page.uncheck("#f-new");
  await page.selectOption("#f-status", "drifted");
  fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  const png = await page.screenshot({ path: SCREENSHOT });
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  expect(leaks).toEqual([]);
  await page.close();
}, 60_000);

it("shows the report of a real run (npm start's, main-job.test.ts keeps the fixture true) and is the docs' screenshot of it", async () => {
  const report = JSON.parse(fs.readFileSync(REAL_RUN_REPORT, "utf8")) as Parameters<typeof renderHtml>[0][number];
  const { page, leaks } = await open("real-run.html", renderHtml([report]));
  expect(await shown(page)).toEqual({ stacks: 2, rows: 5, says: "2 of 2 stacks, 5 drifted paths shown" });
  // Who changed the flag, and the controller's drifted keys, are on the page.
  const text = (await page.locator("#stacks").textContent()) ?? "";
  const seenText = ["alice@example.com", 'configuration["jenkins.yaml: jenkins.systemMessage"]', 'configuration["plugins.yaml: git-client"]', "team-c/.*|sandbox"];
  for (const seen of [...seenText, "4 paths in 2 of 4 resources", "1 path in 1 of 11 resources"]) {
    expect(text).toContain(seen);
  }
  const png = await page.screenshot({ path: REAL_RUN_SCREENSHOT, fullPage: true });
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  expect(leaks).toEqual([]);
  await page.close();
}, 60_000);

it("shows hostile server text as text: no script of it runs, no element of it is made", async () => {
  const { page, leaks } = await open("hostile.html", renderHtml([hostileReport()]));
  expect(await page.locator("script").count()).toBe(2);
  expect(await page.locator("body *").count()).toBeGreaterThan(50);
  const cells = await page.locator("#stacks td").allTextContents();
  expect(cells).toContain('tags["script"]<script>alert(1)</script>');
  expect(cells).toContain('"\\u001b[2J"');
  expect(await page.locator("#stacks section.error .meta").textContent()).toBe("::error::x\\n<script>alert(1)</script> \\u001b[2J · 1.2 s");
  expect(await page.locator("#causes td").nth(1).textContent()).toBe("```js\\nx`y`` on 2 flags");
  // The hostile resource's name is in its URN, so all its eight paths match.
  await page.fill("#f-search", "<script>");
  expect(await shown(page)).toMatchObject({ stacks: 1, rows: 8 });
  expect(leaks).toEqual([]);
  await page.close();
}, 60_000);
