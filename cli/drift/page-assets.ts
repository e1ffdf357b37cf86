/**
 * The drift page's own style and script (render-html.ts inlines both, allowed by their hashes in its Content Security
 * Policy). The script builds each stack's table from the JSON that the page embeds, with textContent only (never
 * innerHTML), so no server text can become markup; then it applies the filters (status, new only, text over type, path
 * and URN) by hiding rows and stacks, which stays fast for hundreds of stacks: each row's search text is computed once.
 * Plain ES2017 with no dependency: the page makes no request.
 */

export const PAGE_STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--line:#d1d9e0;--head:#f6f8fa;--clean:#1a7f37;--drifted:#bc4c00;--error:#cf222e;--locked:#8250df;--timeout:#9a6700;--new:#fff8c5}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#3d444d;--head:#151b23;--new:#3b2e00}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1200px;padding:16px 24px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:24px 0 8px}h3{font-size:14px;margin:0;font-weight:600}
.muted,.meta{color:var(--muted)}
table{border-collapse:collapse;width:100%;margin:6px 0}
th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
#stacks table,#causes{table-layout:fixed}
#stacks th:nth-child(1){width:12%}#stacks th:nth-child(2){width:6%}#stacks th:nth-child(3){width:13%}#stacks th:nth-child(4){width:13%}
#stacks th:nth-child(5),#stacks th:nth-child(6){width:12%}#stacks th:nth-child(7){width:16%}#stacks th:nth-child(8){width:16%}
#causes th:nth-child(1){width:6%}#causes th:nth-child(2){width:20%}#causes th:nth-child(3){width:15%}#causes th:nth-child(4){width:12%}
#causes th:nth-child(5){width:10%}
th{background:var(--head);font-weight:600}
td.num,th.num{text-align:right}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
.badge{display:inline-block;min-width:58px;padding:0 6px;border-radius:10px;color:#fff;font-size:12px;text-align:center}
.badge.clean{background:var(--clean)}.badge.drifted{background:var(--drifted)}.badge.error{background:var(--error)}
.badge.locked{background:var(--locked)}.badge.timeout{background:var(--timeout)}
.stack{border-top:1px solid var(--line);padding:6px 0}
.stack.clean h3,.stack.clean .meta{display:inline;margin-right:8px}
tr.new td{background:var(--new)}
#filters{position:sticky;top:0;background:var(--bg);padding:8px 0;border-bottom:1px solid var(--line);display:flex;gap:16px;align-items:center;flex-wrap:wrap}
#filters input[type=search]{width:320px;padding:3px 6px}
svg text{fill:var(--muted);font-size:11px}
svg .stacks{stroke:var(--drifted);fill:none;stroke-width:2}svg .paths{stroke:var(--locked);fill:none;stroke-width:2}
svg circle.stacks{fill:var(--drifted)}svg circle.paths{fill:var(--locked)}
svg .axis{stroke:var(--line)}
[hidden]{display:none!important}
`;

export const PAGE_SCRIPT = `
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("drift-data").textContent);
  var HEAD = ["Resource", "Op", "Type", "Path", "Declared", "Actual", "Changed", "Drift"];
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  var stacks = [];
  var fragment = document.createDocumentFragment();
  data.stacks.forEach(function (s) {
    var section = el("section", "stack " + s.status);
    var h = el("h3");
    h.appendChild(el("span", "badge " + s.status, s.status));
    h.appendChild(document.createTextNode(" "));
    h.appendChild(el("span", "mono", s.id));
    section.appendChild(h);
    section.appendChild(el("p", "meta", s.line));
    var rows = [];
    if (s.rows.length) {
      var table = el("table");
      var tr = el("tr");
      HEAD.forEach(function (t) { tr.appendChild(el("th", "", t)); });
      table.appendChild(el("thead")).appendChild(tr);
      var body = el("tbody");
      s.rows.forEach(function (r) {
        var row = el("tr", r.isNew ? "new" : "");
        [r.name, r.op, r.type, r.path, r.declared, r.actual, r.changed, r.isNew ? "new" : "known since " + r.firstSeen].forEach(function (t, i) {
          var td = el("td", i >= 2 && i <= 5 ? "mono" : "", t);
          if (i === 0) td.title = r.urn;
          row.appendChild(td);
        });
        body.appendChild(row);
        rows.push({ tr: row, isNew: r.isNew, text: (r.type + " " + r.path + " " + r.urn).toLowerCase() });
      });
      table.appendChild(body);
      section.appendChild(table);
    }
    if (s.more) section.appendChild(el("p", "meta", s.more));
    fragment.appendChild(section);
    stacks.push({ el: section, status: s.status, rows: rows });
  });
  document.getElementById("stacks").appendChild(fragment);

  var status = document.getElementById("f-status");
  var newOnly = document.getElementById("f-new");
  var search = document.getElementById("f-search");
  var shown = document.getElementById("f-shown");
  function apply() {
    var want = status.value, onlyNew = newOnly.checked, q = search.value.trim().toLowerCase();
    var stacksShown = 0, rowsShown = 0;
    stacks.forEach(function (s) {
      var statusOk = want === "all" || s.status === want;
      var n = 0;
      s.rows.forEach(function (r) {
        var ok = statusOk && (!onlyNew || r.isNew) && (!q || r.text.indexOf(q) >= 0);
        r.tr.hidden = !ok;
        if (ok) n++;
      });
      var show = statusOk && (s.rows.length ? n > 0 : !onlyNew && !q);
      s.el.hidden = !show;
      if (show) stacksShown++;
      rowsShown += n;
    });
    shown.textContent = stacksShown + " of " + stacks.length + " stacks, " + rowsShown + " drifted paths shown";
  }
  status.addEventListener("change", apply);
  newOnly.addEventListener("change", apply);
  search.addEventListener("input", apply);
  apply();
})();
`;
