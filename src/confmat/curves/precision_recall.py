"""Precision-recall curves: points from cumulative counts, average precision and
:class:`PRCurve`."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs.kinds import py_scalar
from ..inputs.targets import binary_target
from .common import trapezoid
from .rank import cumulative_counts


def pr_points(
    thr: np.ndarray, tps: np.ndarray, fps: np.ndarray, drop_intermediate: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall points from cumulative counts, scikit-learn's convention: recall
    decreasing, a final point (recall 0, precision 1), thresholds increasing.

    Parameters
    ----------
    thr : ndarray
        Distinct scores, decreasing (:func:`~confmat.curves.rank.cumulative_counts`).
    tps, fps : ndarray of shape (T,) or (..., T)
        Positive and negative counts (or weights) at or above each score; a stack of
        curves along the leading axes (then ``thr`` has the same shape and
        ``drop_intermediate`` must be False).
    drop_intermediate : bool
        Drop the thresholds where recall does not change.

    Returns
    -------
    precision, recall : ndarray of float64
        One more point than thresholds (along the last axis). Precision is 0 where nothing
        is predicted positive; without positives recall is 1 everywhere (with a
        ``UserWarning``).
    thresholds : ndarray of float64
        Increasing.

    Examples
    --------
    >>> p, r, t = pr_points(np.array([0.8, 0.4]), np.array([1, 1]), np.array([0, 1]), False)
    >>> p.tolist(), r.tolist(), t.tolist()
    ([0.5, 1.0, 1.0], [1.0, 1.0, 0.0], [0.4, 0.8])
    """
    tps = np.asarray(tps, dtype=np.float64)
    fps = np.asarray(fps, dtype=np.float64)
    if drop_intermediate and tps.ndim > 1:
        raise ValueError("drop_intermediate applies to one curve, not a stack of curves")
    if drop_intermediate and fps.shape[0] > 2:
        step = np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:]))
        keep = np.flatnonzero(np.concatenate([[True], step, [True]]))
        thr, tps, fps = thr[keep], tps[keep], fps[keep]
    ps = tps + fps
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(ps != 0, tps / np.where(ps != 0, ps, 1.0), 0.0)
    total = tps[..., -1:]
    if (total == 0).any():
        warnings.warn(
            "No positive class found in y_true, recall is set to one for all thresholds.",
            UserWarning,
            stacklevel=3,
        )
    recall = np.where(total != 0, tps / np.where(total != 0, total, 1.0), 1.0)
    end = np.ones((*tps.shape[:-1], 1))
    return (
        np.concatenate([precision[..., ::-1], end], axis=-1),
        np.concatenate([recall[..., ::-1], 0.0 * end], axis=-1),
        np.asarray(thr)[..., ::-1].astype(np.float64),
    )



def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall pairs at every distinct score (decision rule ``score >= θ``).

    .. math:: P(\\theta) = \\frac{TP(\\theta)}{TP(\\theta) + FP(\\theta)}, \\qquad
              R(\\theta) = \\frac{TP(\\theta)}{TP(\\theta) + FN(\\theta)}

    Identical to :func:`sklearn.metrics.precision_recall_curve`: recall decreasing, a last
    point (recall 0, precision 1) without threshold, thresholds increasing.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`roc_curve`.
    drop_intermediate : bool, default=False
        Drop thresholds where recall does not change (scikit-learn's option).

    Returns
    -------
    precision, recall : ndarray
        One more point than thresholds.
    thresholds : ndarray
        Increasing distinct scores.

    Raises
    ------
    ValueError, TypeError
        Invalid labels, scores, weights or ``pos_label`` (as :func:`roc_curve`).

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(4).tolist(), r.tolist(), t.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    thr, tps, fps = cumulative_counts(b.pos, b.score, b.weight)
    return pr_points(thr, tps, fps, drop_intermediate)


def ap_from_counts(tps: np.ndarray, fps: np.ndarray, method: str) -> float:
    """Average precision (``method`` step, interpolated or trapezoid) from cumulative counts.

    Parameters
    ----------
    tps, fps : ndarray
        Positive and negative counts (or weights) at or above each distinct score, scores
        decreasing (:func:`~confmat.curves.rank.cumulative_counts`).
    method : {'step', 'interpolated', 'trapezoid'}
        ``'step'``: the sum of precision times the rise in recall (scikit-learn's average
        precision); ``'interpolated'``: the same with each precision replaced by the best
        precision at an equal or higher recall; ``'trapezoid'``: the trapezoidal area.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> ap_from_counts(np.array([1, 1, 2]), np.array([0, 1, 1]), "step")
    0.8333333333333333
    """
    return float(ap_from_count_stack(tps, fps, method))


def ap_from_count_stack(tps: np.ndarray, fps: np.ndarray, method: str) -> np.ndarray:
    """Average precision of one curve or of a stack of curves (the formula of
    :func:`ap_from_counts`, along the last axis).

    A stack may repeat a point (the cumulative counts of a histogram's empty bins): a
    repeated point adds no rise in recall, so the ``'step'`` and ``'interpolated'`` areas do
    not change; the ``'trapezoid'`` area does where the repeated point has no sample above it
    (precision 0 instead of the curve's end), so stacks with empty leading bins should use
    ``'step'`` or ``'interpolated'``.

    Parameters
    ----------
    tps, fps : ndarray of shape (..., T)
        Cumulative positive and negative counts (or weights), scores decreasing along the
        last axis.
    method : {'step', 'interpolated', 'trapezoid'}
        As :func:`ap_from_counts`.

    Returns
    -------
    ndarray of float64, shape (...)
        In [0, 1].

    Examples
    --------
    >>> tps = np.array([[1, 1, 2], [0, 1, 1]])
    >>> fps = np.array([[0, 1, 1], [1, 1, 2]])
    >>> ap_from_count_stack(tps, fps, "step").tolist()
    [0.8333333333333333, 0.5]
    """
    tps = np.asarray(tps)
    precision, recall, _ = pr_points(np.zeros(tps.shape), tps, fps, False)
    if method == "step":
        area = -np.sum(np.diff(recall, axis=-1) * precision[..., :-1], axis=-1)
    elif method == "interpolated":
        # precision at recall r replaced by the best precision at any recall >= r
        best = np.maximum.accumulate(precision, axis=-1)
        area = -np.sum(np.diff(recall, axis=-1) * best[..., :-1], axis=-1)
    else:
        area = -trapezoid(precision, recall, axis=-1)
    return np.maximum(0.0, area)



@dataclass(frozen=True)
class PRCurve:
    """One precision-recall curve (scikit-learn's layout) and its average precision.

    Parameters
    ----------
    precision, recall : ndarray
        Precision and recall (fractions in [0, 1]); recall decreasing, ending at (0, 1).
    thresholds : ndarray
        Increasing score thresholds, one fewer than the points.
    average_precision : float
        Step-wise area under the curve (scikit-learn's average precision).
    label : any
        Name of the curve (model or class), or None.

    Examples
    --------
    >>> from confmat.curves import roc_pr_curves
    >>> _, pr = roc_pr_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> pr.recall.tolist(), round(pr.average_precision, 4)
    ([1.0, 1.0, 0.5, 0.5, 0.0], 0.8333)
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray
    average_precision: float
    label: Any = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict
            Keys ``label``, ``average_precision``, ``precision``, ``recall``, ``thresholds``.

        Examples
        --------
        >>> from confmat.curves import roc_pr_curves
        >>> roc_pr_curves([0, 1], [0.2, 0.7])[1].to_dict()["thresholds"]
        [0.2, 0.7]
        """
        return {
            "label": py_scalar(self.label),
            "average_precision": self.average_precision,
            "precision": self.precision.tolist(),
            "recall": self.recall.tolist(),
            "thresholds": self.thresholds.tolist(),
        }


