"""Building a :class:`~confmat.report.model.Report` from a confusion matrix (and scores).

Which metrics appear, their names, ranges and directions come from the metric registry;
intervals from :meth:`ConfusionMatrix.ci`, interpretation bands from
:meth:`ConfusionMatrix.interpret`; score curves from :mod:`confmat.report.scores`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..matrix import ConfusionMatrix
from ..metrics.registry import AVERAGES
from .model import MetricValue, PerClassRow, Report, shown_metrics
from .scores import ScoreCurve, score_curves

#: bootstrap resamples per interval in reports (intervals of metrics without an analytic form
#: come from the multinomial bootstrap on the counts)
REPORT_RESAMPLES = 1000


def _interval(cm: ConfusionMatrix, name: str, level: float, average: str | None = None,
              n_resamples: int = REPORT_RESAMPLES) -> Any:
    """``cm.ci(name)`` when confidence intervals are available for this metric, else None."""
    ci = getattr(cm, "ci", None)
    if ci is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kw: dict[str, Any] = {"level": level, "random_state": 0,
                                  "n_resamples": n_resamples}
            if average is not None:
                kw["average"] = average
            return ci(name, **kw)
    except (ValueError, TypeError, NotImplementedError, ZeroDivisionError):
        return None


def _interpret(cm: ConfusionMatrix, name: str) -> str | None:
    fn = getattr(cm, "interpret", None)
    if fn is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(name)
    except (ValueError, TypeError, KeyError, NotImplementedError):
        return None
    if out is None:
        return None
    for attr in ("label", "band", "text"):
        v = getattr(out, attr, None)
        if isinstance(v, str):
            lo, hi = getattr(out, "low", None), getattr(out, "high", None)
            if isinstance(lo, int | float) and isinstance(hi, int | float):
                if math.isinf(hi) and math.isinf(lo):
                    return v
                if math.isinf(hi):
                    return f"{v} (≥ {lo:g})"
                if math.isinf(lo):
                    return f"{v} (< {hi:g})"
                return f"{v} ({lo:g} to {hi:g})"
            return v
    return str(out)


def _pair(x: Any) -> tuple[float, float] | None:
    if x is None:
        return None
    try:
        a, b = (x.low, x.high) if hasattr(x, "low") else x
        return float(a), float(b)
    except (TypeError, ValueError):
        return None


def build_report(
    cm: ConfusionMatrix,
    *,
    y_true: Any = None,
    y_score: Any = None,
    y_pred: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    intervals: bool = True,
    level: float = 0.95,
    n_resamples: int = REPORT_RESAMPLES,
    title: str = "Classification report",
    source: Mapping[str, Any] | None = None,
) -> Report:
    """Build the report of one classifier.

    Parameters
    ----------
    cm : ConfusionMatrix
        The evaluation (rows = true class, columns = predicted class).
    y_true, y_score : array-like, optional
        True labels and scores, for curves and the threshold slider. ``y_score`` is a vector
        of positive-class scores or an ``(n_samples, n_classes)`` array with one column per
        label in ``cm.labels`` (one-vs-rest curves for every class); see
        :func:`confmat.report.scores.score_curves`.
    y_pred : array-like, optional
        The predicted labels behind ``cm``, with ``y_score``: the threshold slider opens
        where ``score >= θ`` reproduces them, and otherwise says so and opens at the
        conventional point (0.5 for probabilities, 0 for decision functions).
    pos_label : label, optional
        The positive class of a score vector (and of a two-column ``y_score``). Required
        unless the labels are {0, 1}, {-1, 1} or {False, True}: confmat's one rule,
        :func:`confmat.inputs.targets.resolve_pos_label`.
    sample_weight : array-like, optional
        Weights of the samples behind ``y_score``.
    intervals : bool
        Add confidence intervals where :meth:`ConfusionMatrix.ci` provides them.
    level : float
        Confidence level of the intervals.
    n_resamples : int
        Bootstrap resamples for intervals without an analytic form (fixed ``random_state=0``,
        so reports are reproducible).
    title : str
        Heading of the report.
    source : mapping, optional
        Where the data came from (file name, columns), shown in the report.

    Returns
    -------
    Report

    Raises
    ------
    TypeError
        ``cm`` is not a ConfusionMatrix.
    ValueError
        ``y_score`` without ``y_true``; scores of the wrong shape or not finite;
        ``pos_label`` missing for labels other than {0, 1}, {-1, 1}, {False, True}, or not
        among the labels.

    Examples
    --------
    >>> cm = ConfusionMatrix.from_predictions([0, 0, 1, 1], [0, 1, 1, 1])
    >>> rep = build_report(cm, y_true=[0, 0, 1, 1], y_score=[0.1, 0.6, 0.7, 0.9],
    ...                    intervals=False)
    >>> rep.overall_value("accuracy"), rep.curves[0].pos_label, rep.curves[0].auc
    (0.75, 1, 1.0)
    """
    if not isinstance(cm, ConfusionMatrix):
        raise TypeError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        per_class = []
        for spec in shown_metrics("per_class"):
            values = np.asarray(cm.metric(spec.name), dtype=np.float64)
            avgs = {a: float(cm.metric(spec.name, average=a)) for a in AVERAGES}
            ivals = None
            method = None
            if intervals:
                iv = _interval(cm, spec.name, level, n_resamples=n_resamples)
                method = getattr(iv, "method", None)
                if iv is not None:
                    lo, hi = (np.asarray(v, np.float64).reshape(-1)
                              for v in ((iv.low, iv.high) if hasattr(iv, "low") else iv))
                    if len(lo) == len(values):
                        ivals = [(float(a), float(b)) for a, b in zip(lo, hi, strict=True)]
            per_class.append(PerClassRow(spec.name, spec.full_name, values.tolist(), avgs, ivals,
                                         spec.higher_is_better, spec.family,
                                         str(method) if ivals and method else None))
        overall = []
        for spec in shown_metrics("overall"):
            value = float(cm.metric(spec.name))
            raw = _interval(cm, spec.name, level, n_resamples=n_resamples) if intervals else None
            iv = _pair(raw)
            method = getattr(raw, "method", None) if iv is not None else None
            overall.append(MetricValue(spec.name, spec.full_name, value, iv,
                                       _interpret(cm, spec.name), spec.higher_is_better,
                                       spec.range, spec.family,
                                       str(method) if method is not None else None))
    for w in caught:
        msg = str(w.message)
        if msg not in notes:
            notes.append(msg)
    if cm.n_outside:
        notes.append(f"{cm.n_outside:g} samples had labels outside the selected classes")
    curves: list[ScoreCurve] = []
    if y_score is not None:
        if y_true is None:
            raise ValueError("y_score was given without y_true; curves need both")
        curves = score_curves(y_true, y_score, cm.labels, pos_label=pos_label,
                              sample_weight=sample_weight, y_pred=y_pred)
    return Report(title, cm.labels, np.array(cm.counts), per_class, overall, curves,
                  dict(source or {}), notes, level, cm)
