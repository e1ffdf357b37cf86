/**
 * flags-report.html's rendering (cli/flags/render-html.ts), without a browser: server text and source lines stay
 * data (escaped where the HTML holds them, JSON that cannot close its element where the script gets them), the page
 * names no URL and its policy forbids every request, and the chart's days are the report's N days. The page in
 * Debian's chromium is test/real-engine/flags-page.test.ts.
 */
import { chartDays, renderFlagsHtml } from "../../cli/flags/render-html";
import { HOSTILE } from "./drift-reports";
import { hostileFlagsReport, URL_TEXT } from "./flags-reports";

const html = renderFlagsHtml(hostileFlagsReport());

it("writes no markup, script or URL of the report's text: escaped in HTML, `<` written \\u003c in the script's data", () => {
  // The page's own two scripts and nothing else: no <script>, <img> or URL of the report's text.
  expect(html.match(/<script/g)).toHaveLength(2);
  expect(html).not.toContain("<img");
  // The report's URL is text (escaped, or in the script's data); the page itself names none, and links nothing.
  expect(html.split(URL_TEXT).join("")).not.toMatch(/https?:|\/\/[a-z]/i);
  expect(html).not.toMatch(/<[a-z][^>]*\s(src|href|action)=/i);
  expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  const data = html.match(/<script type="application\/json" id="flags-data">([^]*?)<\/script>/)![1];
  expect(data).not.toContain("<");
  const parsed = JSON.parse(data) as { flags: { name: string; plan: string[] }[] };
  expect(parsed.flags[0].name).toBe(`checkout.${HOSTILE.script}`);
  // Line breaks and control characters are made printable; the CI command is text in a cell, never a line's start.
  expect(parsed.flags[0].plan).toContain("2. one\\r\\ntwo\\u2028three then deploy");
  expect(html).not.toMatch(/^::error::/m);
  expect(html).not.toMatch(/^##vso/m);
});

it("forbids every request in its policy, and allows only its own inline style and script", () => {
  const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)![1];
  expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; base-uri 'none'; form-action 'none'$/);
});

it("offers each verdict, application and environment as a filter, the names escaped", () => {
  expect(html).toContain('<option value="remove-from-iac">remove-from-iac</option>');
  expect(html).toContain('<option value="shop &lt;script&gt;alert(1)&lt;/script&gt;">');
  expect(html).toContain('<option value="Dev">Dev</option>');
});

it("the chart's days: the N days ending on asOf's day; a report without a readable asOf has none", () => {
  const days = chartDays("2030-03-15T12:00:00.000Z", 30);
  expect(days).toHaveLength(30);
  expect([days[0], days[29]]).toEqual(["2030-02-14", "2030-03-15"]);
  expect(chartDays("not a time", 30)).toEqual([]);
  const parsed = JSON.parse(html.match(/id="flags-data">([^]*?)<\/script>/)![1]) as { flags: { environments: { series: { counts: number[] }[] }[] }[] };
  expect(parsed.flags[0].environments[0].series[0].counts.slice(-3)).toEqual([4, 0, 5]);
});
