"""The self-contained HTML report: one file, inline CSS, JS and images, no network access.

Every user-supplied string (labels, titles, file and column names) goes through
:func:`html.escape`; the data for the threshold slider is embedded as JSON in a
``<script type="application/json">`` block with ``<``, ``>`` and ``&`` escaped, and read by
the page's script with ``textContent`` only. The slider's script computes no metric: every
count and value it shows at every threshold it can stop at was computed by the registry
(:meth:`Report.slider_data`) and is only looked up in the page. Plots are matplotlib SVGs embedded as base64
``data:`` images (an ``<img>`` never runs scripts), so no label reaches the DOM as markup.
A Content-Security-Policy forbids any network access from the page.
"""

from __future__ import annotations

import base64
import io
import json
import math
from html import escape
from importlib import resources
from typing import Any

import numpy as np

from ..metrics import get_metric
from ..plots import PrecisionRecallDisplay, RocComparisonDisplay, RocCurveDisplay, ThresholdDisplay
from .comparison import Comparison
from .findings import headline_names
from .model import Report
from .render_text import fmt, fmt_count
from .scores import SLIDER_METRICS, ScoreCurve

#: points per curve in the page's figures (the slider keeps its own, larger, exact set)
FIGURE_POINTS = 4000

CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")


def _version() -> str:
    from ..version import __version__

    return __version__


def _asset(name: str) -> str:
    return resources.files("confmat.report").joinpath("templates", name).read_text("utf-8")


def _scoped_css(scope: str) -> str:
    """The report's CSS with every rule limited to ``scope`` (for notebook fragments, which
    must not restyle the rest of the notebook)."""
    out = []
    for block in _asset("report.css").split("}"):
        if "{" not in block:
            continue
        selectors, body = block.split("{", 1)
        scoped = []
        for sel in selectors.split(","):
            sel = sel.strip()
            if sel == "main":
                continue
            if sel in (":root", "body", "*"):
                scoped.append(scope if sel != "*" else f"{scope} *")
            else:
                scoped.append(f"{scope} {sel}")
        if scoped:
            out.append(f"{', '.join(scoped)} {{{body}}}")
    return "\n".join(out)


def e(x: Any) -> str:
    """Escape any value for HTML text or a quoted attribute.

    Parameters
    ----------
    x : object

    Returns
    -------
    str

    Examples
    --------
    >>> e("<b>")
    '&lt;b&gt;'
    """
    return escape(str(x), quote=True)


def _json_for_script(obj: Any) -> str:
    text = json.dumps(obj, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# ------------------------------------------------------------------------------ figures
def _figure_img(draw: Any, alt: str, caption: str) -> str:
    """Draw with ``draw(ax)`` on a fresh matplotlib Figure (no pyplot state) and embed it as
    a base64 SVG ``<img>``; an empty string when matplotlib is missing."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return ""
    fig = Figure(figsize=(5.6, 4.8))
    ax = fig.add_subplot()
    draw(ax)
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    b64 = base64.b64encode(buf.getvalue()).decode("ascii")
    return (f'<figure><img alt="{e(alt)}" src="data:image/svg+xml;base64,{b64}">'
            f"<figcaption>{e(caption)}</figcaption></figure>")


def _curve_figures(rep: Report) -> str:
    if not rep.curves:
        return ""
    parts = []
    pts = FIGURE_POINTS
    if len(rep.curves) == 1:
        c = rep.curves[0]
        auc, ap = c.auc, c.average_precision
        parts.append(_figure_img(lambda ax: RocCurveDisplay(c.sweep, roc_auc=auc).plot(
            ax=ax, max_points=pts), "ROC curve",
            "ROC curve: thresholds θ marked; dashed: chance; star: perfect."))
        parts.append(_figure_img(lambda ax: PrecisionRecallDisplay(c.sweep, average_precision=ap).plot(
            ax=ax, max_points=pts), "PR curve",
            "Precision-recall curve; dashed: chance (the prevalence)."))
        parts.append(_figure_img(lambda ax: ThresholdDisplay(c.sweep).plot(
            ax=ax, metrics=("mcc", "precision"), max_points=pts),
            "metrics against threshold", "MCC and precision (PPV) as the threshold θ moves."))
    else:
        curves = rep.curves

        def roc_all(ax: Any) -> None:
            for c in curves:
                RocCurveDisplay(c.sweep).plot(ax=ax, mark_thresholds=False, chance=c is curves[0],
                                              label=f"{c.pos_label} (AUC = {fmt(c.auc, 3)})",
                                              max_points=pts)

        def pr_all(ax: Any) -> None:
            for c in curves:
                PrecisionRecallDisplay(c.sweep).plot(
                    ax=ax, mark_thresholds=False, chance=False, max_points=pts,
                    label=f"{c.pos_label} (AP = {fmt(c.average_precision, 3)})")

        parts.append(_figure_img(roc_all, "one-vs-rest ROC curves",
                                 "One-vs-rest ROC curves, one per class; dashed: chance."))
        parts.append(_figure_img(pr_all, "one-vs-rest PR curves",
                                 "One-vs-rest precision-recall curves, one per class."))
    return f'<div class="figs">{"".join(parts)}</div>'


def _roc_overlay(cmp: Comparison) -> str:
    curves = {name: rep.curves[0] for name, rep in zip(cmp.names, cmp.reports, strict=True)
              if len(rep.curves) == 1}
    if not curves or len({str(c.pos_label) for c in curves.values()}) != 1:
        return ""
    disp = RocComparisonDisplay({k: c.sweep for k, c in curves.items()},
                                {k: c.auc for k, c in curves.items()})
    img = _figure_img(lambda ax: disp.plot(ax=ax, max_points=FIGURE_POINTS), "ROC overlay",
                      "ROC curves of every model with scores; inset: the top-left corner enlarged.")
    return f'<h2>ROC curves compared</h2><div class="figs">{img}</div>'


# ------------------------------------------------------------------------------ tables
def _heatmap(rep: Report) -> str:
    names = [e(v) for v in rep.labels]
    pct = rep.row_percentages
    head = "".join(f"<th>{n}</th>" for n in names)
    rows = []
    for i, n in enumerate(names):
        cells = []
        for j in range(len(names)):
            p = pct[i, j]
            bg = f"rgba(31,111,178,{p / 100:.3f})"
            color = "#fff" if p > 55 else "#1d232b"
            cells.append(f'<td style="background:{bg};color:{color}" title="true {n}, predicted '
                         f'{names[j]}">{fmt_count(rep.counts[i, j])}<small>{p:.1f}%</small></td>')
        rows.append(f"<tr><th>{n}</th>{''.join(cells)}<td class='tot'>"
                    f"{fmt_count(rep.support[i])}</td></tr>")
    colsum = rep.counts.sum(axis=0)
    foot = "".join(f"<td>{fmt_count(v)}</td>" for v in colsum)
    return (
        '<div class="scroll"><table class="heat"><thead>'
        f'<tr><th class="axis">true ↓ / predicted →</th>{head}<th>total</th></tr></thead>'
        f"<tbody>{''.join(rows)}<tr><th>total</th>{foot}<td>{fmt_count(rep.n)}</td></tr>"
        "</tbody></table></div>"
        '<p class="note">Each cell: count, and percent of its true class (the row) — the '
        "diagonal is each class's recall (the accuracy matrix of Kneusel 2021).</p>"
    )


def _iv(iv: Any) -> str:
    if iv is None or not all(v is not None and math.isfinite(float(v)) for v in iv):
        return ""
    return f' <span class="iv">[{fmt(iv[0], 3)}, {fmt(iv[1], 3)}]</span>'


def _per_class_table(rep: Report) -> str:
    names = [e(v) for v in rep.labels]
    head = "".join(f"<th>{n}</th>" for n in names)
    rows = [f"<tr><td class='name'>support</td>{''.join(f'<td>{fmt_count(v)}</td>' for v in rep.support)}"
            f"<td></td><td></td><td>{fmt_count(rep.n)}</td></tr>"]
    for r in rep.per_class:
        ivs: list[Any] = list(r.intervals) if r.intervals else [None] * len(r.values)
        cells = "".join(f"<td>{fmt(v)}{_iv(iv)}</td>" for v, iv in zip(r.values, ivs, strict=True))
        avgs = "".join(f"<td>{fmt(r.averages[a])}</td>" for a in ("micro", "macro", "weighted"))
        rows.append(f'<tr><td class="name" title="{e(r.full_name)}">{e(r.name)}</td>{cells}{avgs}</tr>')
    return ('<div class="scroll"><table class="per-class"><thead><tr><th>metric</th>'
            f"{head}<th>micro</th><th>macro</th><th>weighted</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def _bar(m: Any) -> str:
    lo, hi = m.range
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo or not math.isfinite(m.value):
        return ""

    def pos(v: float) -> float:
        return max(0.0, min(100.0, 100.0 * (v - lo) / (hi - lo)))

    ci = ""
    if m.interval is not None and all(math.isfinite(v) for v in m.interval):
        a, b = pos(m.interval[0]), pos(m.interval[1])
        ci = f'<span class="ci" style="left:{a:.1f}%;width:{max(b - a, 0.8):.1f}%"></span>'
    return f'<span class="bar"><span class="fill" style="width:{pos(m.value):.1f}%"></span>{ci}</span>'


def _overall_table(rep: Report, metrics: list[Any] | None = None, css: str = "overall") -> str:
    metrics = rep.overall if metrics is None else metrics
    has_iv = any(m.interval for m in metrics)
    has_int = any(m.interpretation for m in metrics)
    head = "<th>metric</th><th>value</th>"
    head += f"<th>{rep.level:.0%} interval</th>" if has_iv else ""
    head += "<th>interpretation</th>" if has_int else ""
    head += "<th>on its range</th><th style='text-align:left'>full name</th>"
    rows = []
    for m in metrics:
        cells = f"<td class='name'>{e(m.name)}</td><td>{fmt(m.value)}</td>"
        if has_iv:
            how = f" title='{e(m.interval_method)}'" if m.interval_method else ""
            cells += f"<td{how}>{_iv(m.interval)}</td>"
        if has_int:
            band = f"<span class='band'>{e(m.interpretation)}</span>" if m.interpretation else ""
            cells += f"<td>{band}</td>"
        cells += f"<td>{_bar(m)}</td><td class='name'>{e(m.full_name)}</td>"
        rows.append(f"<tr>{cells}</tr>")
    return (f'<div class="scroll"><table class="{css}"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


# ------------------------------------------------------------------------------ slider
def _slider(key: str, curves: list[ScoreCurve], payload: list[dict[str, Any]]) -> str:
    select = ""
    if len(curves) > 1:
        opts = "".join(f'<option value="{i}">{e(c.pos_label)}</option>' for i, c in enumerate(curves))
        select = f'<label>Positive class: <select>{opts}</select></label>. '
    pos = f"Positive class: <b>{e(curves[0].pos_label)}</b>. " if len(curves) == 1 else ""
    mrows = "".join(
        f'<tr><td class="name">{e(payload[0]["full_names"][n])}</td>'
        f'<td data-metric="{e(n)}"></td></tr>' for n in SLIDER_METRICS)
    thinned = any(p["thinned"] for p in payload)
    note = (" Long score lists are thinned to evenly spaced thresholds; counts at each are exact."
            if thinned else "")
    return f"""
<div class="cm-slider" data-widget="{e(key)}">
  <div class="controls">
    <p>{select}{pos}Predict positive when score ≥ θ (one class against the rest).</p>
    <p><label>θ = <input type="text" class="thr" data-out="threshold" inputmode="decimal"
    size="12" spellcheck="false" aria-label="threshold θ (type a value, then Enter)"></label>
    <span class="note" data-out="typed"></span></p>
    <input type="range" min="0" max="0" step="1" value="0" aria-label="decision threshold">
    <p class="note" data-out="start-note">{e(payload[0]["start_note"])}</p>
    <p class="note">Drag the slider, use the arrow keys, or type θ. Every count and metric
    shown was computed by confmat's metric registry at each threshold; the page only looks
    them up.{note}</p>
    <table class="two"><thead><tr><th></th><th>predicted positive</th><th>predicted negative</th></tr></thead>
    <tbody><tr><th>actual positive</th><td class="tp" data-out="tp"></td><td class="fn" data-out="fn"></td></tr>
    <tr><th>actual negative</th><td class="fp" data-out="fp"></td><td class="tn" data-out="tn"></td></tr></tbody></table>
  </div>
  <div><table class="slider-metrics"><tbody>{mrows}</tbody></table></div>
  <div><svg viewBox="-2 -2 104 104" role="img" aria-label="ROC curve with the current threshold"></svg>
  <p class="note">ROC curve; red dot: current θ.</p></div>
</div>"""


# ------------------------------------------------------------------------------ pages
def _meta(obj: Report | Comparison) -> str:
    items = [f"<span>{e(k)}: <b>{e(v)}</b></span>" for k, v in obj.source.items()
             if v not in (None, "", [])]
    if isinstance(obj, Report):
        items.append(f"<span>samples: <b>{fmt_count(obj.n)}</b></span>")
        items.append(f"<span>classes: <b>{len(obj.labels)}</b></span>")
    return f'<p class="meta">{"".join(items)}</p>'


def _notes(notes: list[str]) -> str:
    if not notes:
        return ""
    return "<h3>Notes</h3><ul class='note'>" + "".join(f"<li>{e(n)}</li>" for n in notes) + "</ul>"


def _warnings(warnings: list[str]) -> str:
    if not warnings:
        return ""
    return ('<div class="warn" role="alert"><b>Warnings</b><ul>'
            + "".join(f"<li>{e(w)}</li>" for w in warnings) + "</ul></div>")


def _findings(rep: Report, h: int) -> str:
    """The top of a report: headline metrics with intervals and the findings in words."""
    items = "".join(f"<li>{e(f)}</li>" for f in rep.findings)
    return (f"<h{h}>Findings</h{h}>"
            + _overall_table(rep, rep.headline, "summary")
            + (f'<ul class="findings">{items}</ul>' if items else ""))


def _family_sections(rep: Report) -> str:
    """Every overall metric, one collapsible section per registry family."""
    families = list(dict.fromkeys(m.family for m in rep.overall))
    out = []
    for fam in families:
        ms = [m for m in rep.overall if m.family == fam]
        out.append(f"<details class='family'><summary>{e(fam)} ({len(ms)})</summary>"
                   f"{_overall_table(rep, ms)}</details>")
    return "".join(out)


def _report_body(rep: Report, key: str, widgets: dict[str, Any], h: int = 2,
                 figures: bool = True) -> str:
    parts = [_warnings(rep.warnings), _findings(rep, h),
             f"<h{h}>Confusion matrix</h{h}>", _heatmap(rep)]
    if rep.curves:
        payload = rep.slider_data()
        widgets[key] = payload
        aucs = ", ".join(f"{e(c.pos_label)}: ROC AUC {fmt(c.auc)}, AP {fmt(c.average_precision)}"
                         for c in rep.curves)
        parts += [f"<h{h}>Scores and thresholds</h{h}>", f'<p class="note">{aucs}</p>',
                  _curve_figures(rep) if figures else "",
                  f"<h{h + 1}>Threshold slider</h{h + 1}>",
                  _slider(key, rep.curves, payload)]
    parts += [f"<h{h}>Every metric</h{h}>",
              "<details class='family'><summary>per-class metrics and averages</summary>"
              '<p class="note">Each class against the rest'
              + (f"; brackets: {rep.level:.0%} confidence intervals"
                 if any(r.intervals for r in rep.per_class) else "")
              + ".</p>" + _per_class_table(rep) + "</details>",
              _family_sections(rep)]
    parts.append(_notes(rep.notes))
    return "\n".join(parts)


def _comparison_body(cmp: Comparison, widgets: dict[str, Any], model_figures: bool) -> str:
    keys = [k for k in cmp.table[0] if k != "model" and not k.endswith("_interval")]
    head = "".join(f"<th>{e(k)}</th>" for k in keys)
    rows = []
    for r in cmp.table:
        cells = "".join(f"<td>{fmt(r[k])}{_iv(r.get(k + '_interval'))}</td>" for k in keys)
        rows.append(f"<tr><td class='name'>{e(r['model'])}</td>{cells}</tr>")
    parts = ["<h2>Models side by side</h2>",
             f'<div class="scroll"><table class="compare"><thead><tr><th>model</th>{head}</tr>'
             f"</thead><tbody>{''.join(rows)}</tbody></table></div>"]
    if cmp.tests:
        corr = e(cmp.result.correction.capitalize())
        trs = "".join(
            f"<tr><td class='name'>{e(t['model_a'])}</td><td class='name'>{e(t['model_b'])}</td>"
            f"<td class='name'>{e(t['metric'])}</td><td class='name'>{e(t['method'])}</td>"
            f"<td>{fmt(t.get('difference'))}</td><td>{fmt(t.get('statistic'))}</td>"
            f"<td>{fmt(t.get('pvalue'))}</td><td>{fmt(t.get('pvalue_adjusted'))}</td></tr>"
            for t in cmp.tests)
        parts += ["<h2>Pairwise tests</h2>",
                  '<table class="tests"><thead><tr><th>model A</th><th>model B</th><th>metric</th>'
                  "<th>test</th><th>difference</th><th>statistic</th><th>p</th>"
                  f"<th>p ({corr})</th></tr></thead><tbody>{trs}</tbody></table>"]
    parts.append(_roc_overlay(cmp))
    parts.append("<h2>Each model</h2>")
    for i, rep in enumerate(cmp.reports):
        body = _report_body(rep, f"m{i}", widgets, h=3, figures=model_figures)
        parts.append(f"<details{' open' if i == 0 else ''}><summary>{e(rep.title)}</summary>"
                     f"{body}</details>")
    parts.append(_notes(cmp.notes))
    return "\n".join(parts)


def render_html(obj: Report | Comparison, *, model_figures: bool = False) -> str:
    """The report (or comparison) as one self-contained HTML page.

    Parameters
    ----------
    obj : Report or Comparison
    model_figures : bool, default False
        For a comparison, also draw each model's ROC, PR and threshold figures (the page
        always has the ROC overlay and each model's tables and threshold slider).

    Returns
    -------
    str
        The page; no network access (Content-Security-Policy), every user string escaped.

    Raises
    ------
    TypeError
        ``obj`` is neither a Report nor a Comparison.

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> page = render_html(build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False))
    >>> page.startswith("<!DOCTYPE html>")
    True
    """
    widgets: dict[str, Any] = {}
    if isinstance(obj, Comparison):
        body = _comparison_body(obj, widgets, model_figures)
    elif isinstance(obj, Report):
        body = _report_body(obj, "r0", widgets)
    else:
        raise TypeError(f"expected a Report or Comparison, got {type(obj).__name__}")
    data = _json_for_script({"widgets": widgets})
    script = f'<script type="application/json" id="confmat-data">{data}</script>\n' \
             f"<script>{_asset('report.js')}</script>" if widgets else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(obj.title)}</title>
<style>{_asset('report.css')}</style>
</head>
<body>
<main>
<h1>{e(obj.title)}</h1>
{_meta(obj)}
{body}
<footer>Generated by confmat {e(_version())}. Rows of every matrix are the true class, columns the
predicted class. This page is self-contained and makes no network requests.</footer>
</main>
{script}
</body>
</html>
"""


def render_fragment(obj: Report | Comparison) -> str:
    """A compact HTML fragment for notebooks: warnings, headline metrics with intervals,
    findings and the heatmap (no scripts).

    Parameters
    ----------
    obj : Report or Comparison

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> frag = render_fragment(build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False))
    >>> "<script" in frag
    False
    """
    if isinstance(obj, Comparison):
        return _comparison_body_static(obj)
    return (f"<div class='confmat-report'><style>{_scoped_css('.confmat-report')}</style>"
            f"<h3>{e(obj.title)}</h3>{_meta(obj)}{_warnings(obj.warnings)}{_findings(obj, 4)}"
            f"{_heatmap(obj)}<p class='note'>Every metric: str(report), or render_html(report)."
            "</p></div>")


def _comparison_body_static(cmp: Comparison) -> str:
    keys = [k for k in cmp.table[0] if k != "model" and not k.endswith("_interval")]
    head = "".join(f"<th>{e(k)}</th>" for k in keys)
    rows = "".join(
        f"<tr><td class='name'>{e(r['model'])}</td>"
        + "".join(f"<td>{fmt(r[k])}{_iv(r.get(k + '_interval'))}</td>" for k in keys) + "</tr>"
        for r in cmp.table)
    return (f"<div class='confmat-report'><style>{_scoped_css('.confmat-report')}</style>"
            f"<h3>{e(cmp.title)}</h3><table><thead><tr><th>model</th>{head}</tr></thead>"
            f"<tbody>{rows}</tbody></table></div>")


def matrix_html(cm: Any) -> str:
    """Notebook view of a ConfusionMatrix: the heatmap (counts and row percentages) and its
    headline metrics (:func:`confmat.report.findings.headline_names`; F1 macro-averaged).
    No scripts.

    Parameters
    ----------
    cm : ConfusionMatrix

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> "100.0%" in matrix_html(ConfusionMatrix([[3, 1], [0, 4]]))
    True
    """
    import warnings

    rep = Report("", cm.labels, np.asarray(cm.counts), [], [])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shown = [(n, get_metric(n).full_name, cm.metric(n))
                 for n in headline_names(cm.n_classes) if n in ("accuracy", "balanced_accuracy",
                                                                 "mcc", "kappa")]
        shown.insert(3, ("f1_macro", "macro-averaged F1", cm.metric("f1", average="macro")))
        items = "".join(f"<span class='item' title='{e(full)}'>{e(name)} <b>{fmt(v)}</b></span> "
                        for name, full, v in shown)
    return (f"<div class='confmat-matrix'><style>{_scoped_css('.confmat-matrix')}</style>"
            f"<p class='meta'>ConfusionMatrix: {cm.n_classes} classes, n = {fmt_count(cm.n)}; "
            f"rows = true class, columns = predicted class</p>{_heatmap(rep)}"
            f"<p class='meta'>{items}</p></div>")
