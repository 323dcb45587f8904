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

from typing import Any

__all__ = ["build_for_view", "summary_intervals", "summary_view"]


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


def summary_intervals(n_classes: int) -> set[str]:
    """The intervals the summary view shows: its headline metrics
    (:func:`confmat.report.findings.headline_names`), its per-class rows (F1 of a binary
    problem among them) and a partial AUC asked for; not the ROC band, which it does not draw.

    Parameters
    ----------
    n_classes : int
        Classes of the report.

    Returns
    -------
    set of str
        Names for ``build_report(interval_metrics=...)``.

    Examples
    --------
    >>> sorted(summary_intervals(2))[:4]
    ['accuracy', 'balanced_accuracy', 'f1', 'mcc']
    """
    from ..metrics import list_metrics
    from ..report.build import REPORT_INTERVALS
    from ..report.findings import headline_names
    from ..report.render_text import SUMMARY_PER_CLASS

    names = {*SUMMARY_PER_CLASS, *headline_names(n_classes), "partial_auc"}
    if n_classes == 2:
        names.add("f1")
    known = {m.name for m in list_metrics()} | set(REPORT_INTERVALS)
    return {n for n in names if n in known}  # rows of score metrics have no such interval


def build_for_view(cm: Any, *, summary: bool, intervals: bool, **kwargs: Any) -> Any:
    """:func:`confmat.report.build_report`, with intervals for the summary view's rows only
    when ``summary`` (:func:`summary_intervals`).

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
    >>> [round(v, 3) for v in rep.headline[0].interval]  # accuracy, Wilson
    [0.863, 0.957]
    """
    from ..report import build_report

    names = summary_intervals(cm.n_classes) if summary else None
    return build_report(cm, intervals=intervals, interval_metrics=names, **kwargs)
