// Threshold slider: the 2x2 table and its metrics at every threshold, from the per-threshold
// cumulative counts that confmat computed and embedded as JSON (rule: score >= threshold).
(function () {
  "use strict";
  var node = document.getElementById("confmat-data");
  if (!node) { return; }
  var data = JSON.parse(node.textContent);
  function div(a, b) { return b === 0 ? NaN : a / b; }
  var F = {
    recall: function (c) { return div(c.tp, c.tp + c.fn); },
    specificity: function (c) { return div(c.tn, c.tn + c.fp); },
    precision: function (c) { return div(c.tp, c.tp + c.fp); },
    npv: function (c) { return div(c.tn, c.tn + c.fn); },
    f1: function (c) { return div(2 * c.tp, 2 * c.tp + c.fp + c.fn); },
    accuracy: function (c) { return div(c.tp + c.tn, c.tp + c.tn + c.fp + c.fn); },
    balanced_accuracy: function (c) { return (F.recall(c) + F.specificity(c)) / 2; },
    informedness: function (c) { return F.recall(c) + F.specificity(c) - 1; },
    markedness: function (c) { return F.precision(c) + F.npv(c) - 1; },
    mcc: function (c) {
      var d = Math.sqrt((c.tp + c.fp) * (c.tp + c.fn) * (c.tn + c.fp) * (c.tn + c.fn));
      return d === 0 ? 0 : (c.tp * c.tn - c.fp * c.fn) / d;
    }
  };
  function fmt(v) { return isFinite(v) ? v.toFixed(4) : "undefined"; }
  function count(v) { return Number.isInteger(v) ? String(v) : v.toPrecision(6); }
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
      var T = c.thresholds.length;
      var i = T - 1 - Number(rng.value);
      var k = { tp: c.tp[i], fp: c.fp[i] };
      k.fn = c.positives - k.tp;
      k.tn = c.negatives - k.fp;
      out("threshold").textContent = String(c.thresholds[i]);
      ["tp", "fn", "fp", "tn"].forEach(function (n) { out(n).textContent = count(k[n]); });
      w.querySelectorAll("[data-metric]").forEach(function (m) {
        var f = F[m.getAttribute("data-metric")];
        m.textContent = f ? fmt(f(k)) : "";
      });
      var x = c.negatives ? k.fp / c.negatives : 0, y = c.positives ? k.tp / c.positives : 0;
      dot.setAttribute("cx", (x * 100).toFixed(2));
      dot.setAttribute("cy", (100 - y * 100).toFixed(2));
    }
    function choose() {
      c = curves[sel ? Number(sel.value) : 0];
      var T = c.thresholds.length;
      rng.max = String(T - 1);
      var best = 0, bestd = Infinity;
      for (var j = 0; j < T; j++) {
        var d = Math.abs(c.thresholds[j] - c.default_threshold);
        if (d < bestd) { bestd = d; best = j; }
      }
      rng.value = String(T - 1 - best);
      while (svg.firstChild) { svg.removeChild(svg.firstChild); }
      svg.appendChild(el("line", { x1: 0, y1: 100, x2: 100, y2: 0, stroke: "#999", "stroke-dasharray": "3,3", "stroke-width": 0.6 }));
      var pts = ["0,100"];
      for (var q = 0; q < T; q++) {
        var fx = c.negatives ? c.fp[q] / c.negatives : 0, ty = c.positives ? c.tp[q] / c.positives : 0;
        pts.push((fx * 100).toFixed(2) + "," + (100 - ty * 100).toFixed(2));
      }
      svg.appendChild(el("polyline", { points: pts.join(" "), fill: "none", stroke: "#1f6fb2", "stroke-width": 1.2 }));
      dot = el("circle", { r: 2.6, fill: "#d62728" });
      svg.appendChild(dot);
      update();
    }
    rng.addEventListener("input", update);
    if (sel) { sel.addEventListener("change", choose); }
    choose();
  });
})();
