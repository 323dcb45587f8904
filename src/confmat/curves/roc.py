"""ROC curves: points from cumulative counts, the binary AUC (full or partial) and
:class:`ROCCurve`."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs.kinds import py_scalar
from ..inputs.targets import binary_target
from ..metrics import UndefinedMetricWarning
from .common import trapezoid_area, undefined_auc
from .rank import cumulative_counts, mann_whitney_auc


def roc_points(
    thr: np.ndarray, tps: np.ndarray, fps: np.ndarray, drop_intermediate: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROC points from cumulative counts (decreasing thresholds), scikit-learn's convention.

    Parameters
    ----------
    thr : ndarray
        Distinct scores, decreasing (:func:`~confmat.curves.rank.cumulative_counts`).
    tps, fps : ndarray
        Positive and negative counts (or weights) at or above each score.
    drop_intermediate : bool
        Drop the points where neither rate changes direction (collinear points).

    Returns
    -------
    fpr, tpr : ndarray of float64
        Starting at 0; NaN everywhere (with an :class:`UndefinedMetricWarning`) when there
        are no negatives, respectively no positives.
    thresholds : ndarray of float64
        ``inf`` first, then ``thr``.

    Examples
    --------
    >>> fpr, tpr, thr = roc_points(np.array([0.8, 0.4]), np.array([1.0, 1.0]),
    ...                            np.array([0.0, 1.0]), False)
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 1.0], [0.0, 1.0, 1.0], [inf, 0.8, 0.4])
    """
    if drop_intermediate and fps.shape[0] > 2:
        corner = np.logical_or(np.diff(fps, 2), np.diff(tps, 2))
        keep = np.flatnonzero(np.concatenate([[True], corner, [True]]))
        thr, tps, fps = thr[keep], tps[keep], fps[keep]
    tps = np.concatenate([[0.0], tps])
    fps = np.concatenate([[0.0], fps])
    thresholds = np.concatenate([[np.inf], thr.astype(np.float64)])
    if fps[-1] <= 0:
        warnings.warn(
            "No negative samples in y_true, false positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        fpr = np.full(fps.shape, np.nan)
    else:
        fpr = fps / fps[-1]
    if tps[-1] <= 0:
        warnings.warn(
            "No positive samples in y_true, true positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        tpr = np.full(tps.shape, np.nan)
    else:
        tpr = tps / tps[-1]
    return fpr, tpr, thresholds




def area_with_max_fpr(fpr: np.ndarray, tpr: np.ndarray, max_fpr: float | None) -> float:
    """Area under a ROC curve; with ``max_fpr`` the standardized partial area (McClish 1989):
    ``0.5 * (1 + (A - m) / (M - m))`` with ``m = max_fpr**2 / 2`` and ``M = max_fpr``.

    Parameters
    ----------
    fpr, tpr : ndarray
        The points of the curve, ``fpr`` increasing from 0 to 1.
    max_fpr : float or None
        The upper limit of the partial area, in (0, 1]; None or 1 gives the full area.

    Returns
    -------
    float

    Examples
    --------
    >>> fpr, tpr = np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 1.0])
    >>> area_with_max_fpr(fpr, tpr, None), area_with_max_fpr(fpr, tpr, 0.5)
    (1.0, 1.0)
    """
    if max_fpr is None or max_fpr == 1:
        return trapezoid_area(fpr, tpr)
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    y_at = np.interp(max_fpr, [fpr[stop - 1], fpr[stop]], [tpr[stop - 1], tpr[stop]])
    partial = trapezoid_area(np.append(fpr[:stop], max_fpr), np.append(tpr[:stop], y_at))
    lo = 0.5 * max_fpr**2
    return 0.5 * (1 + (partial - lo) / (max_fpr - lo))




def binary_auc(
    pos: np.ndarray, score: np.ndarray, weight: np.ndarray | None, max_fpr: float | None
) -> float:
    """ROC AUC of validated binary input (``pos`` a boolean mask), full or partial.

    Parameters
    ----------
    pos : ndarray of bool, shape (n_samples,)
        Which samples are positive.
    score : ndarray of float64, shape (n_samples,)
        Scores.
    weight : ndarray of float64 or None
        Sample weights.
    max_fpr : float or None
        Standardized partial AUC up to this false positive rate (see
        :func:`area_with_max_fpr`).

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, when one class is absent (or carries
        no weight).

    Examples
    --------
    >>> binary_auc(np.array([False, True, True]), np.array([0.2, 0.9, 0.2]), None, None)
    0.75
    """
    n_pos = int(np.count_nonzero(pos))
    if n_pos == 0 or n_pos == pos.shape[0]:
        return undefined_auc()
    if weight is not None and (not weight[pos].any() or not weight[~pos].any()):
        return undefined_auc()
    if weight is None and max_fpr in (None, 1):
        return mann_whitney_auc(pos, score)
    thr, tps, fps = cumulative_counts(pos, score, weight)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        fpr, tpr, _ = roc_points(thr, tps.astype(np.float64), fps.astype(np.float64), True)
    return area_with_max_fpr(fpr, tpr, max_fpr)




def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Receiver operating characteristic curve of a binary scorer.

    At each threshold :math:`\\theta` (the distinct scores, decreasing), samples with
    ``score >= θ`` are predicted positive and

    .. math:: \\mathrm{TPR}(\\theta) = \\frac{TP(\\theta)}{P}, \\qquad
              \\mathrm{FPR}(\\theta) = \\frac{FP(\\theta)}{N}.

    Identical to :func:`sklearn.metrics.roc_curve`, ties and weights included.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels. Without ``pos_label`` they must lie in {0, 1} or {-1, 1}; with it, any
        labels (the other classes are all negative).
    y_score : array-like of shape (n_samples,)
        Finite scores; higher means more likely positive.
    pos_label : label, optional
        The positive class; must occur in ``y_true``.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights; zero-weight samples create no threshold.
    drop_intermediate : bool, default=True
        Drop collinear points that do not change the plotted curve or its area.

    Returns
    -------
    fpr, tpr : ndarray
        Increasing rates, starting at (0, 0).
    thresholds : ndarray
        Decreasing thresholds; ``thresholds[0] = inf`` (nothing predicted positive).

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> thr.tolist()
    [inf, 0.8, 0.4, 0.35, 0.1]
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    thr, tps, fps = cumulative_counts(b.pos, b.score, b.weight)
    return roc_points(thr, tps.astype(np.float64), fps.astype(np.float64), drop_intermediate)




@dataclass(frozen=True)
class ROCCurve:
    """One ROC curve: false/true positive rates at decreasing thresholds, and its area.

    Parameters
    ----------
    fpr, tpr : ndarray
        False and true positive rates (fractions in [0, 1]), increasing.
    thresholds : ndarray
        Decreasing score thresholds (``inf`` first); empty for an averaged curve.
    auc : float
        Trapezoidal area under the curve.
    label : any
        Name of the curve (model or class), or None.

    Examples
    --------
    >>> from confmat.curves import roc_pr_curves
    >>> roc, _ = roc_pr_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], label="a")
    >>> roc.label, roc.auc, roc.tpr.tolist()
    ('a', 0.75, [0.0, 0.5, 0.5, 1.0, 1.0])
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    auc: float
    label: Any = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; infinite thresholds become None.

        Returns
        -------
        dict
            Keys ``label``, ``auc``, ``fpr``, ``tpr``, ``thresholds``.

        Examples
        --------
        >>> ROCCurve(np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([np.inf, 0.5]),
        ...          0.5).to_dict()["thresholds"]
        [None, 0.5]
        """
        return {
            "label": py_scalar(self.label),
            "auc": self.auc,
            "fpr": self.fpr.tolist(),
            "tpr": self.tpr.tolist(),
            "thresholds": [None if not np.isfinite(t) else float(t) for t in self.thresholds],
        }


