"""The self-contained HTML report: one file, inline CSS, JS and images, no network access.

The page is rendered by jinja2 templates (``confmat/report/templates/*.html.j2``) with
autoescaping on, so every user-supplied string (labels, titles, file and column names, notes)
reaches the page as text. The few pieces that bypass escaping are made in one module,
:mod:`confmat.report.html_env`: the slider's JSON (``<``, ``>`` and ``&`` escaped, read by the
page's script with ``textContent`` only), the package's own CSS and JavaScript, and CSS rules
made of numbers. The slider's script computes no metric: every count and value it shows at
every threshold it can stop at was computed by the registry (:meth:`Report.slider_data`) and is
only looked up in the page. Plots are matplotlib SVGs embedded as base64 ``data:`` images (an
``<img>`` never runs scripts). A Content-Security-Policy forbids any network access and lets
only the page's own style and script blocks run, by the SHA-256 hash of their text: no inline
event handler, style attribute or injected script would.
"""

from __future__ import annotations

import base64
import io
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..curves.partial import PartialRange
from ..metrics import get_metric
from ..plots import PrecisionRecallDisplay, RocComparisonDisplay, RocCurveDisplay, ThresholdDisplay
from ..plots.calibration import CalibrationDisplay
from ..plots.common import literal_text, place_legend
from ..plots.groups import draw_group_forest
from ..plots.multiclass import OneVsRestRocDisplay
from ..plots.roc_shading import draw_partial_range
from .build import zero_division_fills
from .comparison import Comparison
from .findings import headline_names
from .html_env import (
    content_security_policy,
    environment,
    heat_level,
    page_style,
    scoped_style,
    trusted_asset,
    trusted_json,
)
from .marks import ZERO_DIVISION_MARK, empty_rows_note, marked, row_percentages
from .model import Report
from .render_text import fmt, fmt_count
from .slider import SLIDER_METRICS

__all__ = ["matrix_html", "render_fragment", "render_html", "roc_figure", "slider_view"]

#: points per curve in the page's figures (the slider keeps its own, larger, exact set)
FIGURE_POINTS = 4000
#: above this many classes the per-class table lists the classes as rows
CLASSES_AS_COLUMNS_MAX = 4
#: heatmap cells carry a static tooltip (``title``) up to this many classes (400 cells); beyond,
#: the page's script writes the same sentence on hover (notebook views, which have no script,
#: have none). A ``title`` on each cell of 200 classes weighed 2-3 MB (40,000 sentences),
#: while the cell's text holds its numbers and the scoped headers name its row and column
#: for a screen reader
HEAT_TITLES_MAX = 20


def _version() -> str:
    from ..version import __version__

    return __version__


# ------------------------------------------------------------------------------ figures
def _figure(draw: Callable[[Any], Any], alt: str, caption: str) -> dict[str, str] | None:
    """Draw with ``draw(ax)`` on a fresh matplotlib Figure (no pyplot state); the figure as a
    base64 SVG ``data:`` URI with its alt text and caption, or None without matplotlib."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return None
    fig = Figure(figsize=(5.6, 4.8))
    ax = fig.add_subplot()
    draw(ax)
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    b64 = base64.b64encode(buf.getvalue()).decode("ascii")
    return {"alt": alt, "src": f"data:image/svg+xml;base64,{b64}", "caption": caption}


def _curve_figures(rep: Report) -> list[dict[str, str]]:
    pts = FIGURE_POINTS
    figs: list[dict[str, str] | None] = []
    if len(rep.curves) == 1:
        c = rep.curves[0]
        ap = c.average_precision
        band = rep.roc_band
        shaded = "" if band is None else (
            f"; shaded: {band.legend} of the sensitivity at {len(band.specificities)} "
            "specificities (every point in the JSON)")
        pa = rep.partial_auc
        if pa is not None:
            shaded += f"; {_strip_caption(pa.label, pa.focus, pa.bounds)}"
        figs.append(_figure(lambda ax: roc_figure(rep, ax), "ROC curve",
                            f"ROC curve: thresholds θ marked{shaded}; dashed: chance; "
                            "star: perfect."))
        figs.append(_figure(lambda ax: PrecisionRecallDisplay(c.sweep, average_precision=ap).plot(
            ax=ax, max_points=pts), "PR curve",
            "Precision-recall curve; dashed: chance (the prevalence)."))
        figs.append(_figure(lambda ax: ThresholdDisplay(c.sweep).plot(
            ax=ax, metrics=("mcc", "precision"), max_points=pts),
            "metrics against threshold", "MCC and precision (PPV) as the threshold θ moves."))
    elif rep.curves:
        curves = rep.curves  # in class order; the chance line is drawn last, after them

        averages = rep.roc_averages

        def roc_all(ax: Any) -> None:
            for c in curves:
                RocCurveDisplay(c.sweep).plot(
                    ax=ax, mark_thresholds=False, chance=c is curves[-1],
                    label=f"{literal_text(c.pos_label)} (AUC = {fmt(c.auc, 3)})",
                    max_points=pts, legend=False)
            if averages is not None:  # micro and macro averages, after the classes
                OneVsRestRocDisplay(averages.ovr).plot(ax=ax, per_class=False, max_points=pts,
                                                       legend=False)
            place_legend(ax)

        def pr_all(ax: Any) -> None:
            for c in curves:
                PrecisionRecallDisplay(c.sweep).plot(
                    ax=ax, mark_thresholds=False, chance=False, max_points=pts,
                    label=f"{literal_text(c.pos_label)} (AP = {fmt(c.average_precision, 3)})",
                    legend=False)
            place_legend(ax, loc="lower left")

        figs.append(_figure(roc_all, "one-vs-rest ROC curves",
                            "One-vs-rest ROC curves, one per class"
                            + ("; dotted: micro average, dash-dot: macro average"
                               if averages is not None else "") + "; dashed: chance."))
        figs.append(_figure(pr_all, "one-vs-rest PR curves",
                            "One-vs-rest precision-recall curves, one per class."))
    if rep.calibration is not None:
        cal = rep.calibration
        figs.append(_figure(lambda ax: CalibrationDisplay(cal).plot(ax=ax), "reliability diagram",
                            "Reliability diagram: mean predicted probability against observed "
                            "frequency per bin; dashed: perfectly calibrated; grey bars: samples "
                            f"per bin. Brier score {cal.brier:.3f}, log loss {cal.log_loss:.3f}."
                            ))
    return [f for f in figs if f is not None]


#: ``id`` of the band's group in the ROC figure's SVG, and of its legend entry
BAND_GID, BAND_LEGEND_GID = "roc-ci-band", "roc-ci-band-legend"
#: ``id`` of the shaded range of the partial AUC in the ROC figure's SVG, and of its legend entry
PARTIAL_GID, PARTIAL_LEGEND_GID = "roc-partial-auc", "roc-partial-auc-legend"


def roc_figure(rep: Report, ax: Any) -> RocCurveDisplay:
    """Draw the ROC figure of a report with one score curve on ``ax``: the curve, its
    thresholds and, when the report has one, its confidence band (:attr:`Report.roc_band`,
    drawn from the same numbers as the JSON's ``roc_band``, SVG ids :data:`BAND_GID` and
    :data:`BAND_LEGEND_GID`) and the range of its partial AUC (:attr:`Report.partial_auc`,
    a grey strip whose legend entry names the range and the value, SVG ids
    :data:`PARTIAL_GID` and :data:`PARTIAL_LEGEND_GID`;
    :func:`confmat.plots.roc_shading.draw_partial_range`).

    Parameters
    ----------
    rep : Report
        A report with exactly one score curve.
    ax : matplotlib Axes

    Returns
    -------
    RocCurveDisplay
        The drawn display (``band_``: the shaded band, ``partial_range_``: the shaded range
        of the partial AUC, when there are).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> y, s = [0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9]
    >>> rep = build_report(ConfusionMatrix.from_predictions(y, [0, 1, 0, 1, 0, 1]),
    ...                    y_true=y, y_score=s, n_resamples=200)
    >>> d = roc_figure(rep, Figure().add_subplot())
    >>> d.band_.get_gid(), d.band_.get_label()
    ('roc-ci-band', '95% CI, stratified bootstrap (200 resamples)')
    >>> rep = build_report(ConfusionMatrix.from_predictions(y, [0, 1, 0, 1, 0, 1]),
    ...                    y_true=y, y_score=s, intervals=False, partial_auc=(0.5, 1))
    >>> roc_figure(rep, Figure().add_subplot()).partial_range_.get_label()  # (1 + 19/27) / 2
    'partial AUC = 0.852 (specificity 0.5 to 1, McClish-corrected)'
    """
    c = rep.curves[0]
    band = rep.roc_band
    pa = rep.partial_auc
    kw: dict[str, Any] = {}
    if band is not None:
        kw = {"band": band.ci, "band_kw": {"label": band.legend, "gid": BAND_GID}}
    if pa is not None:
        kw |= {"partial_auc": pa.bounds, "partial_auc_focus": pa.focus,
               "partial_auc_correct": pa.corrected, "partial_auc_value": pa.value,
               "partial_auc_kw": {"gid": PARTIAL_GID}}
    disp = RocCurveDisplay(c.sweep, roc_auc=c.auc).plot(ax=ax, max_points=FIGURE_POINTS, **kw)
    legend = ax.get_legend()
    ids = {band.legend: BAND_LEGEND_GID} if band is not None else {}
    if pa is not None:
        ids[disp.partial_range_.get_label()] = PARTIAL_LEGEND_GID
    if legend is not None:
        for text in legend.get_texts():
            if text.get_text() in ids:
                text.set_gid(ids[text.get_text()])
    return disp


#: the ROC overlay of a comparison shades the models' bands by default up to this many curves
OVERLAY_BANDS_MAX = 2


def _strip_caption(label: str, focus: str, bounds: Any) -> str:
    """The caption's words for the grey strip of a partial AUC's range."""
    strip = ("false positive rates " + " to ".join(f"{1 - v:g}" for v in bounds[::-1])
             if focus == "specificity" else
             "true positive rates " + " to ".join(f"{v:g}" for v in bounds))
    return f"grey strip: the range of the {label} ({strip})"


def _roc_overlay(cmp: Comparison, bands: bool | None) -> dict[str, str] | None:
    curves = {name: rep.curves[0] for name, rep in zip(cmp.names, cmp.reports, strict=True)
              if len(rep.curves) == 1}
    if not curves or len({str(c.pos_label) for c in curves.values()}) != 1:
        return None
    disp = RocComparisonDisplay({k: c.sweep for k, c in curves.items()},
                                {k: c.auc for k, c in curves.items()})
    if bands is None:
        bands = len(curves) <= OVERLAY_BANDS_MAX
    drawn = {name: rep.roc_band for name, rep in zip(cmp.names, cmp.reports, strict=True)
             if bands and name in curves and rep.roc_band is not None}
    caption = "ROC curves of every model with scores; inset: the top-left corner enlarged."
    if drawn:
        legends = {b.legend for b in drawn.values()}
        caption += (" Shaded lightly in each model's colour: its "
                     f"{' / '.join(sorted(legends))} of the sensitivity at each specificity.")
    pa = cmp.partial_auc  # the range every model's partial AUC is on (one strip)
    if pa is not None:
        lo, hi = pa["range"]
        prange = PartialRange(pa["focus"], lo, hi, pa["corrected"])
        words = _strip_caption(f"partial AUC, {pa['label']}", pa["focus"], (lo, hi))
        caption += f" {words[0].upper()}{words[1:]}; each model's value is in the table."

    def draw(ax: Any) -> None:
        disp.plot(ax=ax, max_points=FIGURE_POINTS, bands={k: b.ci for k, b in drawn.items()})
        if pa is not None:
            draw_partial_range(ax, prange, {"gid": PARTIAL_GID})

    return _figure(draw, "ROC overlay", caption)


# ------------------------------------------------------------------------------ contexts
def _heatmap(labels: list[Any], counts: np.ndarray, levels: set[int],
             titles: bool = False) -> dict[str, Any]:
    """What the heatmap macro reads; ``titles``: static tooltips (pages without a script).
    Row percentages and the rows that divide by zero (marked, with their note) by the one
    rule of :func:`confmat.report.marks.row_percentages`."""
    pct, empty = row_percentages(counts)
    rows = []
    for i, t in enumerate(labels):
        cells = []
        for j, p in enumerate(labels):
            level = heat_level(float(pct[i, j]))
            levels.add(level)
            cells.append({"count": counts[i, j], "pct": float(pct[i, j]), "level": level,
                          "pred": p, "undefined": bool(empty[i])})
        rows.append({"label": t, "cells": cells, "support": counts[i].sum()})
    return {"labels": labels, "rows": rows, "colsum": list(counts.sum(axis=0)),
            "n": counts.sum(), "titles": titles and len(labels) <= HEAT_TITLES_MAX,
            "empty_note": empty_rows_note(labels, empty)}


#: keys of :meth:`Report.slider_data` the page keeps as they are (the class it is about, and
#: what the script reads)
SLIDER_KEYS = ("pos_label", "thresholds", "theta_text", "start", "start_note", "thinned",
               "cost_optimal")


def slider_view(curve: dict[str, Any]) -> dict[str, Any]:
    """What the page's slider script reads of one curve of :meth:`Report.slider_data`: every
    number it shows already written as text, by the formats of the printed tables.

    Counts as :func:`~confmat.report.render_text.fmt_count` writes them (the printed matrix),
    metrics and expected costs as :func:`~confmat.report.render_text.fmt` does (4 decimals,
    ``nan`` for a value that is not a number), a metric that comes from the zero-division
    rule with the tables' mark after it (:func:`confmat.report.marks.marked`), so the
    opening state reads exactly as the printed matrix and tables, and the script formats
    nothing (JavaScript's ``toFixed`` rounds the halfway
    0.03125 up, Python down). The FPR and TPR place the ROC dot only, rounded to 4 decimals
    (0.01 of the drawing's 100 units). The thresholds stay exact: a typed θ is compared with
    them. The first stop's threshold, ``inf`` (above every score: no sample predicted
    positive), is written ``null``, JSON having no infinity; its ``theta_text`` says
    "above every score".

    Parameters
    ----------
    curve : dict
        One item of :meth:`Report.slider_data`.

    Returns
    -------
    dict

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> rep = build_report(ConfusionMatrix.from_predictions(y, [0, 1, 0, 1]), y_true=y,
    ...                    y_score=s, intervals=False)
    >>> v = slider_view(rep.slider_data()[0])
    >>> v["tp"][v["start"]], v["metrics"]["precision"][v["start"]]
    ('1', '0.5000')
    >>> v["metrics"]["npv"][-1]  # θ = 0.1: every sample predicted positive, NPV = 0 / 0
    '0.0000†'
    >>> v["thresholds"][0], v["theta_text"][0], v["metrics"]["precision"][0]  # TP + FP = 0
    (None, 'above every score', '0.0000†')
    """
    out = {k: curve[k] for k in SLIDER_KEYS if k in curve}
    out["thresholds"] = [v if math.isfinite(v) else None for v in curve["thresholds"]]
    for k in ("tp", "fn", "fp", "tn"):
        out[k] = [fmt_count(v) for v in curve[k]]
    undefined = curve.get("undefined", {})
    out["metrics"] = {}
    for m, vs in curve["metrics"].items():
        fills = set(undefined.get(m, ()))
        out["metrics"][m] = [marked(fmt(math.nan if v is None else v), i in fills)
                             for i, v in enumerate(vs)]
    if "expected_cost" in curve:
        out["expected_cost"] = [fmt(math.nan if v is None else v)
                                for v in curve["expected_cost"]]
    for k in ("fpr", "tpr"):
        out[k] = [None if v is None else round(v, 4) for v in curve[k]]
    return out


def _body(rep: Report, key: str, widgets: dict[str, Any], levels: set[int],
          figures: bool = True) -> dict[str, Any]:
    """Everything the report body template reads about one report."""
    body: dict[str, Any] = {
        "rep": rep, "key": key, "slider": None, "figures": [],
        "heatmap": _heatmap(list(rep.labels), rep.counts, levels,
                            titles=True),
        "per_class": {"rows": rep.per_class, "labels": list(rep.labels),
                      "support": list(rep.support), "n": rep.n,
                      "classes_as_rows": len(rep.labels) > CLASSES_AS_COLUMNS_MAX,
                      "has_intervals": any(r.intervals for r in rep.per_class)},
        "families": [(fam, [m for m in rep.overall if m.family == fam])
                     for fam in dict.fromkeys(m.family for m in rep.overall)],
    }
    body["groups"] = _groups(rep.groups) if rep.groups is not None else None
    if rep.curves:
        payload = rep.slider_data()
        widgets[key] = [slider_view(p) for p in payload]
        body["slider"] = {
            "choices": [c.pos_label for c in rep.curves],
            "start_note": payload[0]["start_note"],
            "thinned": any(p["thinned"] for p in payload),
            "metrics": [(n, payload[0]["full_names"][n]) for n in SLIDER_METRICS],
            "zd_mark": ZERO_DIVISION_MARK,
            "zd_note": f"{ZERO_DIVISION_MARK} undefined at this θ (a zero denominator), "
                       "counted as 0.0 by the zero-division rule, as in the tables:",
        }
        if figures:
            body["figures"] = _curve_figures(rep)
    return body


#: how each kind of disparity compares, for readers
DISPARITY_METHODS = {"between_groups": "between groups", "to_overall": "to all samples",
                     "named": "between groups (fairlearn's measure)"}


def _group_name(g: Any) -> str:
    return " / ".join(map(str, g)) if isinstance(g, list) else str(g)


def _groups(sec: Any, figure: bool = True) -> dict[str, Any]:
    """What the by-group template reads: the section's data, each cell with its sort key
    (``repr`` of the value; empty when undefined, sorted last) and the forest plot."""
    d = sec.to_dict()
    rows = []
    for r in d["rows"]:
        cells = []
        for name in d["metrics"]:
            v = r[name]
            cells.append({"value": v, "key": "" if v is None else repr(float(v)),
                          "iv": r["intervals"].get(name)})
        rows.append({"name": _group_name(r["group"]), "size": r["size"], "small": r["small"],
                     "cells": cells})
    from ..groups.names import registry_spec

    full = {}
    for name in d["metrics"]:
        try:
            full[name] = registry_spec(name).full_name
        except (KeyError, ValueError):
            full[name] = name
    ref = None if d["reference"] is None else _group_name(d["reference"])
    f = d["forest"]
    plot = None
    if f and figure:
        plot = _figure(lambda ax: draw_group_forest(f, ax=ax, min_support=d["min_support"]),
                         f"forest plot of {f['metric']} by group",
                         f"{f['metric']} in each group with its {f['level']:.0%} interval "
                         f"({f['method']}); hollow: fewer than {d['min_support']} samples; "
                         "dashed: all samples.")
    return {"section": d, "rows": rows, "features": " × ".join(d["names"]),
            "n_small": sum(r["small"] for r in d["rows"]), "full_names": full,
            "n": sum(r["size"] for r in d["rows"]), "reference": ref, "figure": plot,
            "has_intervals": any(iv for r in d["rows"] for iv in r["intervals"].values()),
            "has_disparity_intervals": any(x.get("low") is not None for x in d["disparities"]),
            "methods": {**DISPARITY_METHODS, "to_group": f"to group {ref}"}}


def _meta(obj: Report | Comparison) -> list[tuple[str, Any]]:
    items = [(k, v) for k, v in obj.source.items() if v not in (None, "", [])]
    if isinstance(obj, Report):
        items += [("samples", fmt_count(obj.n)), ("classes", len(obj.labels))]
    return items


def _table(cmp: Comparison) -> dict[str, Any]:
    keys = [k for k in cmp.table[0] if k != "model" and not k.endswith("_interval")]
    return {"keys": keys, "rows": cmp.table}


def render_html(obj: Report | Comparison, *, model_figures: bool = False,
                overlay_bands: bool | None = None) -> str:
    """The report (or comparison) as one self-contained HTML page.

    Parameters
    ----------
    obj : Report or Comparison
    model_figures : bool, default False
        For a comparison, also draw each model's ROC, PR and threshold figures (the page
        always has the ROC overlay and each model's tables and threshold slider).
    overlay_bands : bool, optional
        For a comparison, shade each model's confidence band (:attr:`Report.roc_band`,
        lightly, in its colour) in the ROC overlay. By default (None) only when the overlay
        has at most :data:`OVERLAY_BANDS_MAX` curves: the bands of more models overlap into
        one muddy area near the top-left corner that hides the curves they qualify. Each
        model's own ROC figure always draws its band (see ``model_figures``).

    Returns
    -------
    str
        The page: every user string escaped by the template engine; no network access, and
        only the page's own style and script blocks allowed (Content-Security-Policy with
        their SHA-256 hashes).

    Raises
    ------
    TypeError
        ``obj`` is neither a Report nor a Comparison.

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> page = render_html(build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False))
    >>> page.startswith("<!DOCTYPE html>"), "'unsafe-inline'" in page
    (True, False)
    """
    widgets: dict[str, Any] = {}
    levels: set[int] = set()
    ctx: dict[str, Any] = {"title": obj.title, "meta": _meta(obj), "version": _version(),
                           "comparison": None, "body": None}
    if isinstance(obj, Comparison):
        ctx["comparison"] = {
            "table": _table(obj), "tests": obj.tests, "notes": obj.notes,
            "correction": obj.result.correction.capitalize() if obj.tests else "",
            "per_metric": len({t["metric"] for t in obj.tests}) > 1,
            "partial_auc": obj.partial_auc,
            "overlay": _roc_overlay(obj, overlay_bands),
            "bodies": [_body(rep, f"m{i}", widgets, levels, figures=model_figures)
                       for i, rep in enumerate(obj.reports)]}
    elif isinstance(obj, Report):
        ctx["body"] = _body(obj, "r0", widgets, levels)
    else:
        raise TypeError(f"expected a Report or Comparison, got {type(obj).__name__}")
    style = page_style(levels)
    sortable = isinstance(obj, Report) and obj.groups is not None
    bodies = ctx["comparison"]["bodies"] if ctx["comparison"] else [ctx["body"]]
    tips = any(not b["heatmap"]["titles"] for b in bodies)  # the script writes them on hover
    script = trusted_asset("report.js") if widgets or sortable or tips else ""
    ctx.update(style=style, script=script, data=trusted_json({"widgets": widgets}),
               csp=content_security_policy([style], [script] if script else []))
    return environment().get_template("page.html.j2").render(ctx)


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
    env = environment()
    if isinstance(obj, Comparison):
        return env.get_template("comparison_fragment.html.j2").render(
            style=scoped_style(".confmat-report", set()), title=obj.title, table=_table(obj),
            partial_auc=obj.partial_auc)
    levels: set[int] = set()
    body = {"rep": obj, "heatmap": _heatmap(list(obj.labels), obj.counts, levels,
                                            titles=True),
            "groups": None if obj.groups is None else _groups(obj.groups, figure=False)}
    return env.get_template("fragment.html.j2").render(
        style=scoped_style(".confmat-report", levels), body=body, meta=_meta(obj))


def matrix_html(cm: Any) -> str:
    """Notebook view of a ConfusionMatrix: the heatmap (counts and row percentages) and its
    headline metrics (:func:`confmat.report.findings.headline_names`; F1 macro-averaged),
    a value from the zero-division rule marked as in the report. No scripts.

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
    rep = Report("", cm.labels, np.asarray(cm.counts), [], [])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shown = [(n, get_metric(n).full_name, v, bool(zero_division_fills(cm, n, v)))
                 for n in headline_names(cm.n_classes) if n in ("accuracy", "balanced_accuracy",
                                                                 "mcc", "kappa")
                 for v in [cm.metric(n)]]
        shown.insert(3, ("f1_macro", "macro-averaged F1", cm.metric("f1", average="macro"),
                         False))
    levels: set[int] = set()
    heat = _heatmap(list(rep.labels), rep.counts, levels, titles=True)
    return environment().get_template("matrix.html.j2").render(
        style=scoped_style(".confmat-matrix", levels), k=cm.n_classes, n=cm.n, heatmap=heat, shown=shown)
