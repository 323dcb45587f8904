"""The terminal's summary view: a report whose confidence intervals are computed only for the
values the view shows.

``confmat matrix`` / ``report`` / ``compare`` print, by default, the matrix, the headline
metrics with intervals and a short per-class table
(:data:`confmat.report.render_text.SUMMARY_PER_CLASS`); ``--all`` prints every registry
metric. Every metric value is computed either way (the registry is fast); the intervals, which
cost a bootstrap each for most metrics, are computed for the shown rows only, with exactly the
calls :func:`confmat.report.build_report` makes, so the numbers equal those of the full report.
"""

from __future__ import annotations

import warnings
from collections.abc import Collection
from typing import Any

import numpy as np

__all__ = ["build_for_view", "fill_intervals", "summary_view"]


def _ci(cm: Any, name: str, level: float, n_resamples: int, average: str | None = None) -> Any:
    """``cm.ci(name)`` as a report computes it (seed 0), or None where it is not available."""
    kw: dict[str, Any] = {"level": level, "random_state": 0, "n_resamples": n_resamples}
    if average is not None:
        kw["average"] = average
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return cm.ci(name, **kw)
    except (ValueError, TypeError, NotImplementedError, ZeroDivisionError):
        return None


def fill_intervals(rep: Any, per_class: Collection[str], n_resamples: int | None = None) -> Any:
    """Add confidence intervals to a report built without them, for its headline metrics
    and the per-class rows named in ``per_class`` only.

    Parameters
    ----------
    rep : Report
        A report from ``build_report(cm, intervals=False)``; changed in place.
    per_class : collection of str
        Registry names of the per-class rows that get intervals.
    n_resamples : int, optional
        Bootstrap resamples; by default those of a report
        (:data:`confmat.report.build.REPORT_RESAMPLES`).

    Returns
    -------
    Report
        ``rep``.

    Raises
    ------
    ValueError
        If the report holds no confusion matrix.

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> rep = fill_intervals(build_report(ConfusionMatrix([[61, 2], [8, 58]]),
    ...                                   intervals=False), ["recall"])
    >>> [round(v, 3) for v in rep.headline[0].interval]  # accuracy, Wilson
    [0.863, 0.957]
    """
    from ..metrics import get_metric
    from ..report.build import REPORT_RESAMPLES, honest_interval
    from ..report.findings import headline_names

    cm = rep.matrix
    if cm is None:
        raise ValueError("rep must hold its ConfusionMatrix (rep.matrix is None)")
    n_res = REPORT_RESAMPLES if n_resamples is None else n_resamples
    level = rep.level
    for row in rep.per_class:
        if row.name not in per_class and not (row.name == "f1" and len(rep.labels) == 2):
            continue
        spec = get_metric(row.name)
        raw = _ci(cm, row.name, level, n_res)
        if raw is None:
            continue
        lo, hi = (np.asarray(v, np.float64).reshape(-1) for v in (raw.low, raw.high))
        if len(lo) != len(row.values):
            continue
        ivals = [honest_interval(spec, float(v), (float(a), float(b)))
                 for v, a, b in zip(row.values, lo, hi, strict=True)]
        if any(ivals):
            row.intervals = ivals
            method = getattr(raw, "method", None)
            row.interval_method = str(method) if method else None
    shown = set(headline_names(len(rep.labels)))
    for m in rep.overall:
        if m.name not in shown:
            continue
        spec = get_metric(m.name)
        raw = _ci(cm, m.name, level, n_res)
        pair = None if raw is None else (float(raw.low), float(raw.high))
        m.interval = honest_interval(spec, m.value, pair)
        method = getattr(raw, "method", None) if m.interval is not None else None
        m.interval_method = str(method) if method is not None else None
    if "f1_macro" in shown and len(rep.labels) > 2:
        raw = _ci(cm, "f1", level, n_res, average="macro")
        pair = None if raw is None else (float(raw.low), float(raw.high))
        rep.extra_intervals["f1_macro"] = honest_interval(
            get_metric("f1"), float(cm.metric("f1", average="macro")), pair)
    return rep


def summary_view(fmt: str, output: str | None, all_metrics: bool) -> bool:
    """Whether a command prints the summary view: text to the terminal without ``--all``.

    Parameters
    ----------
    fmt : str
        The output format (:func:`confmat.cli.common.format_for`).
    output : str or None
        ``-o``; files always get every metric.
    all_metrics : bool
        ``--all``.

    Returns
    -------
    bool

    Examples
    --------
    >>> summary_view("text", None, False), summary_view("text", None, True)
    (True, False)
    >>> summary_view("json", None, False), summary_view("text", "out.txt", False)
    (False, False)
    """
    return fmt == "text" and output is None and not all_metrics


def build_for_view(cm: Any, *, summary: bool, intervals: bool, **kwargs: Any) -> Any:
    """:func:`confmat.report.build_report`, with intervals for the summary view's rows only
    when ``summary`` (:func:`fill_intervals`, and the partial AUC's when asked for; the ROC
    confidence band, which the summary does not show, is left out).

    Parameters
    ----------
    cm : ConfusionMatrix
        The evaluation.
    summary : bool
        The report is shown in the summary view (:func:`summary_view`).
    intervals : bool
        Add confidence intervals.
    **kwargs
        The other arguments of :func:`confmat.report.build_report`.

    Returns
    -------
    Report

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> rep = build_for_view(ConfusionMatrix([[61, 2], [8, 58]]), summary=True, intervals=True)
    >>> [r.name for r in rep.per_class if r.intervals]
    ['recall', 'specificity', 'precision', 'f1']
    """
    from ..report import build_report
    from ..report.build import add_partial_auc
    from ..report.render_text import SUMMARY_PER_CLASS

    rep = build_report(cm, intervals=intervals and not summary, **kwargs)
    if intervals and summary:
        fill_intervals(rep, SUMMARY_PER_CLASS)
        if rep.partial_auc is not None:  # asked for, so shown: with its interval
            add_partial_auc(rep, kwargs["y_true"], kwargs["y_score"],
                            kwargs.get("sample_weight"), kwargs["partial_auc"])
    return rep
