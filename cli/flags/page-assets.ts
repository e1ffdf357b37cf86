/**
 * The flags page's own style and script (render-html.ts inlines both, allowed by their hashes in its Content Security
 * Policy). The script builds one table row per flag from the JSON the page embeds, with textContent only (never
 * innerHTML), so no server or source text can become markup; it draws each flag's chart (a line per value of its
 * impressions per day, summed over the environments shown) and applies the filters (verdict, application,
 * environment, text) by hiding rows; the environment filter also narrows each row's statuses and chart to it. Each
 * row's search text is computed once. Plain ES2017 with no dependency: the page makes no request.
 */

export const FLAGS_PAGE_STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--line:#d1d9e0;--head:#f6f8fa;--keep:#1a7f37;--code:#bc4c00;--iac:#cf222e;--unknown:#6e7781;--new:#fff8c5;
--v0:#0969da;--v1:#bc4c00;--v2:#1a7f37;--v3:#8250df;--v4:#bf3989;--v5:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#3d444d;--head:#151b23;--new:#3b2e00}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1280px;padding:16px 24px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:24px 0 8px}
.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%;margin:6px 0}
th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:var(--head);font-weight:600}
#summary th{overflow-wrap:normal}
td.num,th.num{text-align:right}
#flags{table-layout:fixed}
#flags th:nth-child(1){width:9%}#flags th:nth-child(2){width:14%}#flags th:nth-child(3){width:17%}#flags th:nth-child(4){width:17%}
#flags th:nth-child(5){width:230px}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
.badge{display:inline-block;padding:0 6px;border-radius:10px;color:#fff;font-size:12px;text-align:center}
.badge.keep{background:var(--keep)}.badge.remove-from-code{background:var(--code)}.badge.remove-from-iac{background:var(--iac)}.badge.unknown{background:var(--unknown)}
.reason,.candidate{color:var(--muted);font-size:12px}
tr.new td{background:var(--new)}
.env.critical .name{font-weight:600}
.plan div{font-size:12px}
#filters{position:sticky;top:0;background:var(--bg);padding:8px 0;border-bottom:1px solid var(--line);display:flex;gap:16px;align-items:center;flex-wrap:wrap}
#filters input[type=search]{width:260px;padding:3px 6px}
svg.chart{display:block}
svg.chart .axis{stroke:var(--line)}
svg.chart polyline{fill:none;stroke-width:1.5}
.v0{stroke:var(--v0);color:var(--v0)}.v1{stroke:var(--v1);color:var(--v1)}.v2{stroke:var(--v2);color:var(--v2)}
.v3{stroke:var(--v3);color:var(--v3)}.v4{stroke:var(--v4);color:var(--v4)}.v5{stroke:var(--v5);color:var(--v5)}
.legend span{margin-right:8px;font-size:11px}
.legend span::before{content:"\\25A0 "}
[hidden]{display:none!important}
`;

export const FLAGS_PAGE_SCRIPT = `
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("flags-data").textContent);
  var NS = document.getElementById("svg-ns").namespaceURI;
  var W = 220, H = 44, PAD = 2, COLORS = 6;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  var days = data.days;
  // A flag's chart over the environments named by want ("all": every one): a line per value, its total in its title.
  function chart(cell, f, want) {
    while (cell.firstChild) cell.removeChild(cell.firstChild);
    var byValue = {}, order = [];
    f.environments.forEach(function (e) {
      if (want !== "all" && e.name !== want) return;
      e.series.forEach(function (s) {
        if (!byValue[s.value]) { byValue[s.value] = days.map(function () { return 0; }); order.push(s.value); }
        s.counts.forEach(function (n, i) { byValue[s.value][i] += n; });
      });
    });
    var max = 1;
    order.forEach(function (v) { byValue[v].forEach(function (n) { if (n > max) max = n; }); });
    var box = svg("svg", { "class": "chart", viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img" });
    box.appendChild(svg("line", { "class": "axis", x1: 0, y1: H - PAD, x2: W, y2: H - PAD }));
    var x = function (i) { return days.length > 1 ? (i * (W - 2 * PAD)) / (days.length - 1) + PAD : W / 2; };
    var y = function (n) { return H - PAD - (n / max) * (H - 2 * PAD); };
    var legend = el("div", "legend");
    order.forEach(function (v, k) {
      var counts = byValue[v], total = 0;
      var points = counts.map(function (n, i) { total += n; return x(i).toFixed(1) + "," + y(n).toFixed(1); }).join(" ");
      var line = svg("polyline", { "class": "v" + (k % COLORS), points: points });
      var title = svg("title", {});
      title.textContent = v + ": " + total + " impressions";
      line.appendChild(title);
      box.appendChild(line);
      legend.appendChild(el("span", "v" + (k % COLORS), v + " " + total));
    });
    box.setAttribute("aria-label", order.length ? order.length + " values" : "no impressions");
    cell.appendChild(box);
    cell.appendChild(order.length ? legend : el("div", "legend muted", "no impressions"));
  }
  var rows = [];
  var body = document.querySelector("#flags tbody");
  var fragment = document.createDocumentFragment();
  data.flags.forEach(function (f) {
    var tr = el("tr", f.candidate === "new" ? "new" : "");
    tr.appendChild(el("td", "", f.application));
    tr.appendChild(el("td", "mono", f.name));
    var verdict = el("td");
    verdict.appendChild(el("span", "badge " + f.verdict, f.verdict));
    if (f.candidate) verdict.appendChild(el("div", "candidate", f.candidate));
    verdict.appendChild(el("div", "reason", f.reason));
    tr.appendChild(verdict);
    var statuses = el("td"), envLines = [];
    f.environments.forEach(function (e) {
      var line = el("div", "env " + e.status + (e.critical ? " critical" : ""));
      line.appendChild(el("span", "name", e.name + ": "));
      line.appendChild(document.createTextNode(e.line));
      statuses.appendChild(line);
      envLines.push({ el: line, name: e.name });
    });
    tr.appendChild(statuses);
    var chartCell = el("td", "impressions");
    tr.appendChild(chartCell);
    var plan = el("td", "plan");
    f.plan.forEach(function (p) { plan.appendChild(el("div", "", p)); });
    tr.appendChild(plan);
    fragment.appendChild(tr);
    var names = f.environments.map(function (e) { return e.name; });
    rows.push({ tr: tr, f: f, chart: chartCell, envLines: envLines, names: names, drawn: null });
  });
  body.appendChild(fragment);

  var verdictSel = document.getElementById("f-verdict");
  var appSel = document.getElementById("f-application");
  var envSel = document.getElementById("f-environment");
  var search = document.getElementById("f-search");
  var shownOut = document.getElementById("f-shown");
  function apply() {
    var v = verdictSel.value, a = appSel.value, env = envSel.value, q = search.value.trim().toLowerCase();
    var n = 0;
    rows.forEach(function (r) {
      var f = r.f;
      var ok = (v === "all" || f.verdict === v || (v === "candidates" && (f.verdict === "remove-from-code" || f.verdict === "remove-from-iac"))) &&
        (a === "all" || f.application === a) && (env === "all" || r.names.indexOf(env) >= 0) && (!q || f.text.indexOf(q) >= 0);
      r.tr.hidden = !ok;
      if (!ok) return;
      n++;
      r.envLines.forEach(function (l) { l.el.hidden = env !== "all" && l.name !== env; });
      if (r.drawn !== env) { chart(r.chart, f, env); r.drawn = env; }
    });
    shownOut.textContent = n + " of " + rows.length + " flags shown";
  }
  [verdictSel, appSel, envSel].forEach(function (s) { s.addEventListener("change", apply); });
  search.addEventListener("input", apply);
  apply();
})();
`;
