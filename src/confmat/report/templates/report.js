// Threshold slider. It computes no metric: confmat's metric registry computed every count
// and value at every threshold the slider can stop at (rule: score >= threshold) and
// embedded them as JSON, written as the printed tables write them (render_html.slider_view);
// this script only looks them up by index and displays them. The first stop, at the right
// end of the slider, lies above every score (no sample predicted positive): its threshold is
// +infinity, written null in the JSON (which has no infinity) and shown as its theta_text.
(function () {
  "use strict";
  var node = document.getElementById("confmat-data");
  if (!node) { return; }
  var data = JSON.parse(node.textContent);
  function fmt(v) { return v === null ? "nan" : v; }
  function xy(v) { return v === null ? 0 : v; }
  function threshold(v) { return v === null ? Infinity : v; }
  var SVGNS = "http://www.w3.org/2000/svg";
  function el(name, attrs) {
    var e = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  document.querySelectorAll(".cm-slider").forEach(function (w) {
    var curves = data.widgets[w.getAttribute("data-widget")];
    var sel = w.querySelector("select");
    var rng = w.querySelector("input[type=range]");
    var svg = w.querySelector("svg");
    function out(name) { return w.querySelector("[data-out='" + name + "']"); }
    var c, dot;
    function update() {
      var i = c.thresholds.length - 1 - Number(rng.value);
      out("threshold").value = c.theta_text[i];
      rng.setAttribute("aria-valuetext", c.thresholds[i] === null
        ? "θ " + c.theta_text[i] + ": no sample predicted positive"
        : "θ = " + c.theta_text[i]);
      ["tp", "fn", "fp", "tn"].forEach(function (n) { out(n).textContent = c[n][i]; });
      // a value from the zero-division rule carries the tables' mark (written by confmat);
      // the note under the table names those metrics at this θ
      var zd = out("zd-note"), mark = zd.getAttribute("data-mark"), filled = [];
      w.querySelectorAll("[data-metric]").forEach(function (m) {
        var values = c.metrics[m.getAttribute("data-metric")];
        m.textContent = values ? fmt(values[i]) : "";
        if (mark && m.textContent.slice(-mark.length) === mark) {
          filled.push(m.parentNode.querySelector(".name").textContent);
        }
      });
      out("zd-names").textContent = filled.join(", ");
      zd.hidden = filled.length === 0;
      if (c.expected_cost) {
        out("cost").textContent = fmt(c.expected_cost[i]) +
          (i === c.cost_optimal ? " (the lowest: cost-optimal θ)" : "");
      }
      dot.setAttribute("cx", (xy(c.fpr[i]) * 100).toFixed(2));
      dot.setAttribute("cy", (100 - xy(c.tpr[i]) * 100).toFixed(2));
    }
    function choose() {
      c = curves[sel ? Number(sel.value) : 0];
      var T = c.thresholds.length;
      rng.max = String(T - 1);
      rng.value = String(T - 1 - c.start);
      out("start-note").textContent = c.start_note;
      // costs given: the expected cost at θ, and a way to the threshold that minimises it
      // (both computed by confmat, see Report.slider_data)
      out("cost-row").hidden = !c.expected_cost;
      out("cost-go").hidden = c.cost_optimal === null || c.cost_optimal === undefined;
      out("typed").textContent = "";
      while (svg.firstChild) { svg.removeChild(svg.firstChild); }
      svg.appendChild(el("line", { x1: 0, y1: 100, x2: 100, y2: 0, stroke: "#999", "stroke-dasharray": "3,3", "stroke-width": 0.6 }));
      var pts = ["0,100"];
      for (var q = 0; q < T; q++) {
        pts.push((xy(c.fpr[q]) * 100).toFixed(2) + "," + (100 - xy(c.tpr[q]) * 100).toFixed(2));
      }
      svg.appendChild(el("polyline", { points: pts.join(" "), fill: "none", stroke: "#1f6fb2", "stroke-width": 1.2 }));
      dot = el("circle", { r: 2.6, fill: "#d62728" });
      svg.appendChild(dot);
      update();
    }
    // a typed θ: the stop whose table is that of score >= θ, the lowest threshold at or
    // above θ (exact unless the thresholds were thinned); above every score, the first stop
    // (its label typed back goes there too)
    function typed() {
      var box = out("threshold");
      var say = out("typed");
      var text = box.value.trim();
      var T = c.thresholds.length;
      var v = text === c.theta_text[0] ? Infinity : Number(text.replace("\u2212", "-"));
      say.textContent = "";
      if (text === "" || isNaN(v) || (!isFinite(v) && text !== c.theta_text[0])) {
        say.textContent = "not a number: " + box.value;
        update();
        return;
      }
      var i = 0;
      for (var q = T - 1; q >= 0; q--) {
        if (threshold(c.thresholds[q]) >= v) { i = q; break; }
      }
      if (c.thresholds[i] === null && text !== c.theta_text[0]) {
        say.textContent = "no score reaches " + box.value + ": no sample predicted positive";
      } else if (c.thinned && String(c.theta_text[i]) !== text) {
        say.textContent = "nearest kept threshold at or above " + box.value;
      }
      rng.value = String(T - 1 - i);
      update();
    }
    rng.addEventListener("input", function () { out("typed").textContent = ""; update(); });
    out("threshold").addEventListener("change", typed);  // Enter or leaving the box
    if (sel) { sel.addEventListener("change", choose); }
    out("cost-go").addEventListener("click", function () {
      rng.value = String(c.thresholds.length - 1 - c.cost_optimal);
      out("typed").textContent = "";
      update();
    });
    choose();
  });
})();
// Sortable tables (the by-group section). A header is a button (Enter / Space work too); it
// reorders the rows by the value confmat wrote in each cell's data-v attribute: numbers
// compared as numbers, undefined values (empty) last either way, text in locale order.
(function () {
  "use strict";
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var body = table.tBodies[0];
    var heads = table.querySelectorAll("thead th");
    table.querySelectorAll("thead button.sort").forEach(function (btn) {
      btn.addEventListener("click", function () {
        var th = btn.parentNode;
        var col = Number(btn.getAttribute("data-col"));
        var num = btn.getAttribute("data-type") === "num";
        var asc = th.getAttribute("aria-sort") !== "ascending";
        heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var rows = Array.prototype.slice.call(body.rows);
        function key(r) { return r.cells[col].getAttribute("data-v"); }
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          if (x === "" || y === "") { return (x === "" ? 1 : 0) - (y === "" ? 1 : 0); }
          var d = num ? Number(x) - Number(y) : x.localeCompare(y);
          return asc ? d : -d;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
// Heatmap tooltips of large matrices (small ones carry a title in the page): on hover, a
// cell's title is written from its row and column headers and the numbers it prints, the
// sentence of html_env.heat_tip, so 40,000 cells do not each carry one in the file.
(function () {
  "use strict";
  document.querySelectorAll("table.heat").forEach(function (table) {
    var heads = table.tHead.rows[0].cells;
    function tip(e) {
      var td = e.target.closest ? e.target.closest("td") : null;
      if (!td || td.title || !table.contains(td)) { return; }
      var small = td.querySelector("small");
      var row = td.parentNode.cells[0];
      if (!small || !row || row.tagName !== "TH") { return; }  // totals: no tooltip
      var truth = row.textContent, pred = heads[td.cellIndex].textContent;
      td.title = "true " + truth + ", predicted " + pred + ": " + td.firstChild.textContent +
        " (" + small.textContent + " of true " + truth + ")";
    }
    table.addEventListener("mouseover", tip);
  });
})();
