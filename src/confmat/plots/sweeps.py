"""What the curve displays read from a :class:`~confmat.curves.ThresholdSweep`: registry
metrics at its thresholds, marked thresholds, thinning, and the sweep of one score vector
(``pos_label`` resolved by the input door, never here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..curves import ThresholdSweep, average_precision, roc_auc, threshold_sweep
from ..inputs.probabilities import in_unit_interval
from ..inputs.targets import binary_target, encoded_truth
from ..metrics import Stats, evaluate, get_metric

MARKED_THRESHOLDS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
"""The score thresholds marked on the ROC and precision-recall plots (``mark_thresholds=True``,
the default) when every score lies in [0, 1], as Kneusel (2021, Figure 11-1) marks them; other
scores are marked at five quantiles (:func:`marked_points`)."""


def thin_index(m: int, max_points: int | None) -> np.ndarray:
    """Indices of at most ``max_points`` evenly spaced points out of ``m`` (first and last kept).

    Parameters
    ----------
    m : int
        Number of points.
    max_points : int or None
        Largest number of points to keep; None keeps all.

    Returns
    -------
    ndarray of int64
        Increasing indices into the ``m`` points.

    Examples
    --------
    >>> thin_index(10, 4).tolist()
    [0, 3, 6, 9]
    >>> thin_index(3, 4).tolist()
    [0, 1, 2]
    """
    if max_points is None or m <= max_points:
        return np.arange(m, dtype=np.int64)
    return np.unique(np.linspace(0, m - 1, max_points).round().astype(np.int64))


def sweep_metric(sweep: ThresholdSweep, name: str, index: Any = None,
                 zero_division: Any = 0) -> np.ndarray:
    """A registry metric of the positive class at the sweep's thresholds (or some of them).

    The stacked 2 x 2 tables (``sweep.tables``, layout ``[[TN, FP], [FN, TP]]``) go through
    :func:`confmat.metrics.evaluate`; per-class metrics are those of the positive class.

    Parameters
    ----------
    sweep : ThresholdSweep
        Counts of a binary problem at every threshold.
    name : str
        Registry name or alias.
    index : array-like of int, optional
        Positions in ``sweep.thresholds`` (default: all).
    zero_division : 0, 1, nan or "warn"
        Value of undefined ratios.

    Returns
    -------
    ndarray of float64, shape (len(index),)
        The metric at each threshold asked for.

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> sweep_metric(sw, "precision", [0, 2]).round(3).tolist()
    [1.0, 0.667]
    """
    tables = sweep.tables if index is None else sweep.tables[np.asarray(index, np.int64)]
    spec = get_metric(name)
    out = evaluate(spec.name, Stats(np.asarray(tables, np.float64), zero_division=zero_division),
                   None, warn=False)
    return np.asarray(out[..., 1] if spec.kind == "per_class" else out, np.float64)


def sweep_from_predictions(y_true: Any, y_score: Any, *, pos_label: Any = None,
                           sample_weight: Any = None
                           ) -> tuple[ThresholdSweep, float | None, float | None]:
    """The threshold sweep, ROC AUC and average precision of one score vector.

    ``pos_label`` is resolved by the input door (:func:`confmat.inputs.targets.binary_target`):
    labels {0, 1}, {-1, 1} or {False, True} need none, any others do. ``y_true`` is encoded
    once (:func:`confmat.inputs.targets.encoded_truth`) for the sweep and the areas.

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels of a binary problem, or the :class:`~confmat.inputs.truth.EncodedTruth`
        of a caller that holds them encoded (a report's score curves share one).
    y_score : array-like of shape (n,)
        Scores of the positive class.
    pos_label : label, optional
        The positive class; needed unless the labels are {0, 1}, {-1, 1} or {False, True}.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each sample.

    Returns
    -------
    sweep : ThresholdSweep
        Counts at every distinct score (rule ``score >= threshold``).
    auc, average_precision : float or None
        None when ``y_true`` has one class only.

    Raises
    ------
    ValueError
        Labels other than {0, 1}, {-1, 1}, {False, True} without ``pos_label``; bad scores.

    Examples
    --------
    >>> sw, auc, ap = sweep_from_predictions(["a", "b", "b"], [0.2, 0.9, 0.4], pos_label="b")
    >>> sw.labels, auc, ap
    (['a', 'b'], 1.0, 1.0)
    """
    y_true = encoded_truth(y_true)
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    sweep = threshold_sweep(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if b.pos.all() or not b.pos.any():
        return sweep, None, None
    return (sweep, float(roc_auc(b.pos, b.score, sample_weight=b.weight)),
            float(average_precision(b.pos, b.score, sample_weight=b.weight)))


def marked_points(sweep: ThresholdSweep, thresholds: Sequence[float] | None = None,
                  zero_division: Any = 1) -> list[dict[str, Any]]:
    """FPR, TPR and precision at a few thresholds, from the registry.

    By default the thresholds 0.1 ... 0.9 (:data:`MARKED_THRESHOLDS`) when the scores lie in
    [0, 1], else five score quantiles; on a binned sweep each of them that is not a bin edge
    gives way to the nearest of the sweep's own thresholds. Counts come from
    :meth:`ThresholdSweep.at`.

    Parameters
    ----------
    sweep : ThresholdSweep
        Counts of a binary problem at every threshold.
    thresholds : sequence of float, optional
        The thresholds to mark (default: as described above).
    zero_division : 0, 1 or nan, default 1
        The precision of an empty prediction (0 / 0): 1 places the point where scikit-learn's
        PR curve starts; a table of numbers uses its own rule (the report's: 0).

    Returns
    -------
    list of dict
        ``{"threshold", "fpr", "tpr", "precision", "precision_undefined"}`` per threshold
        (``precision_undefined``: no sample is predicted positive there, and the precision is
        ``zero_division``).

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> marked_points(sw, [0.3])
    [{'threshold': 0.3, 'fpr': 0.5, 'tpr': 1.0, 'precision': 0.6666666666666666, 'precision_undefined': False}]
    >>> [(p["precision"], p["precision_undefined"]) for p in marked_points(sw, [0.9], 0)]
    [(0.0, True)]
    """
    if thresholds is None:
        t = np.asarray(sweep.thresholds, np.float64)
        if len(t) and in_unit_interval(t):
            thresholds = list(MARKED_THRESHOLDS)
        elif len(t):
            thresholds = [float(v) for v in np.quantile(t, [0.1, 0.3, 0.5, 0.7, 0.9])]
        else:
            thresholds = []
        # a binned sweep knows its counts only at bin edges: each default threshold it cannot
        # answer is replaced by the nearest of its own thresholds (the non-empty bins' edges)
        thresholds = list(dict.fromkeys(
            v if sweep.exact_at(v) else float(t[np.argmin(np.abs(t - v))])
            for v in thresholds))
    ts = [float(v) for v in thresholds]
    if not ts:
        return []
    tables = np.stack([np.asarray(sweep.at(t).counts, np.float64) for t in ts])

    def per_class(name: str, zd: Any) -> np.ndarray:
        return np.asarray(evaluate(name, Stats(tables, zero_division=zd), None, warn=False)
                          )[..., 1]

    fpr, tpr = per_class("fpr", 0), per_class("recall", 0)
    ppv, open_ppv = per_class("precision", zero_division), per_class("precision", np.nan)
    return [{"threshold": t, "fpr": float(a), "tpr": float(b), "precision": float(c),
             "precision_undefined": bool(np.isnan(d))}
            for t, a, b, c, d in zip(ts, fpr, tpr, ppv, open_ppv, strict=True)]
