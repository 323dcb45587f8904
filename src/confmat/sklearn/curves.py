"""Threshold curves with scikit-learn's signatures: ``confusion_matrix_at_thresholds``,
``roc_curve``, ``precision_recall_curve`` and ``det_curve``.

Every curve starts from confmat's one sort (:func:`confmat.curves.rank.cumulative_counts`):
the distinct scores in decreasing order with the positive and negative weight at or above each.
ROC and precision-recall points follow scikit-learn's conventions (Fawcett 2006); the DET curve
plots miss rate against false alarm rate (Martin et al. 1997).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..curves.precision_recall import pr_points
from ..curves.rank import cumulative_counts
from ..curves.roc import roc_points
from ._door import positive_mask, scores_1d, weights
from ._params import keyword_only_warning
from ._targets import (
    check_consistent_length,
    column_or_1d,
    sklearn_warnings,
    type_of_target,
)

__all__ = ["confusion_matrix_at_thresholds", "det_curve", "precision_recall_curve", "roc_curve"]


def binary_counts(
    y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Decreasing distinct thresholds with the true and false positives at or above each
    (float64), after scikit-learn's checks of a binary score problem.

    Parameters
    ----------
    y_true
        array-like
    y_score
        array-like
    pos_label
        label or None
    sample_weight
        array-like or None

    Returns
    -------
    (ndarray, ndarray, ndarray)
        Thresholds, true positives, false positives.
    """
    kind = type_of_target(y_true, input_name="y_true")
    if not (kind == "binary" or (kind == "multiclass" and pos_label is not None)):
        raise ValueError(f"{kind} format is not supported (y_true)")
    check_consistent_length(y_true, y_score, sample_weight)
    pos, _ = positive_mask(y_true, pos_label)
    score = scores_1d(y_score, pos.shape[0])
    w = weights(sample_weight, pos.shape[0])
    thr, tps, fps = cumulative_counts(pos, score, w)
    return thr, np.asarray(tps, dtype=np.float64), np.asarray(fps, dtype=np.float64)


def in_score_dtype(thresholds: np.ndarray, y_score: Any) -> np.ndarray:
    """Thresholds (distinct scores, counted in float64) in the type of ``y_score``, as
    scikit-learn returns them where they are scores themselves (integer, boolean or float32
    scores give integer, boolean or float32 thresholds; the values are exact, integers beyond
    2**53, which float64 rounds, included).

    Parameters
    ----------
    thresholds
        ndarray of float64, values taken from ``y_score``.
    y_score
        array-like, the user's scores (already checked).

    Returns
    -------
    ndarray
        The thresholds.
    """
    scores = column_or_1d(y_score, "y_score")
    dtype = scores.dtype
    if dtype == thresholds.dtype or dtype.kind not in "biuf":
        return thresholds
    if dtype.kind in "iu" and thresholds.size and (
            thresholds.max() >= 2.0**53 or thresholds.min() <= -(2.0**53)):
        # float64 rounds such integers; the door refused scores it would merge, so each
        # threshold is the float64 image of exactly one distinct score: take that score back
        distinct = np.unique(scores)
        images = distinct.astype(np.float64)  # increasing, no two equal
        return distinct[np.searchsorted(images, thresholds)]
    return thresholds.astype(dtype)


@keyword_only_warning(("pos_label", "sample_weight"), "1.11")
def confusion_matrix_at_thresholds(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """True negatives, false positives, false negatives and true positives at every distinct
    score (decreasing), the decision rule being ``score >= threshold``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels in {0, 1} or {-1, 1}, or any labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more likely positive.
    pos_label : int, float, bool or str, optional
        The positive class.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights (zero-weight samples create no threshold).

    Returns
    -------
    tns, fps, fns, tps : ndarray of float64
        Counts at each threshold.
    thresholds : ndarray
        Decreasing distinct scores, of the type of ``y_score``.

    Raises
    ------
    ValueError
        Continuous or multiclass ``y_true`` without ``pos_label``, labels outside {0, 1} /
        {-1, 1} without ``pos_label``, non-finite scores, inconsistent lengths.

    Examples
    --------
    >>> from confmat.sklearn import confusion_matrix_at_thresholds
    >>> tns, fps, fns, tps, thr = confusion_matrix_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> tps.tolist(), fps.tolist(), thr.tolist()
    ([1.0, 1.0, 2.0, 2.0], [0.0, 1.0, 1.0, 2.0], [0.8, 0.4, 0.35, 0.1])
    """
    thr, tps, fps = binary_counts(y_true, y_score, pos_label, sample_weight)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, in_score_dtype(thr, y_score)


@sklearn_warnings
def roc_curve(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Receiver operating characteristic: false and true positive rates at each threshold.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=True
        Drop thresholds that are not corners of the curve.

    Returns
    -------
    fpr, tpr : ndarray
        Increasing rates (NaN, with a warning, when a class is absent).
    thresholds : ndarray
        Decreasing thresholds, the first ``inf``.

    Raises
    ------
    ValueError
        As :func:`confusion_matrix_at_thresholds`.

    Examples
    --------
    >>> from confmat.sklearn import roc_curve
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    thr, tps, fps = binary_counts(y_true, y_score, pos_label, sample_weight)
    return roc_points(thr, tps, fps, drop_intermediate)


def precision_recall_curve(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision and recall at each threshold, recall decreasing, ending at (recall 0,
    precision 1).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=False
        Drop thresholds where recall does not change.

    Returns
    -------
    precision, recall : ndarray
        One point more than thresholds.
    thresholds : ndarray
        Increasing thresholds, of the type of ``y_score``.

    Raises
    ------
    ValueError
        As :func:`confusion_matrix_at_thresholds`.

    Examples
    --------
    >>> from confmat.sklearn import precision_recall_curve
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> r.tolist(), t.tolist()
    ([1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    thr, tps, fps = binary_counts(y_true, y_score, pos_label, sample_weight)
    precision, recall, thresholds = pr_points(thr, tps, fps, drop_intermediate)
    return precision, recall, in_score_dtype(thresholds, y_score)


def det_curve(
    y_true: Any, y_score: Any, pos_label: Any = None, sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Detection error tradeoff: false positive rate and false negative rate per threshold
    (Martin et al. 1997).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=False
        Drop thresholds where the miss rate does not change.

    Returns
    -------
    fpr, fnr : ndarray
        False positive and false negative rates.
    thresholds : ndarray
        Increasing thresholds (``inf`` last when kept).

    Raises
    ------
    ValueError
        As :func:`confusion_matrix_at_thresholds`; ``y_true`` with one class only.

    Examples
    --------
    >>> from confmat.sklearn import det_curve
    >>> fpr, fnr, thr = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), thr.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    thr, tps, fps = binary_counts(y_true, y_score, pos_label, sample_weight)
    tps = np.concatenate([[0.0], tps])
    fps = np.concatenate([[0.0], fps])
    thr = np.concatenate([[np.inf], thr.astype(np.float64)])
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.concatenate([[True], np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), [True]])
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    if len(set(np.asarray(y_true).ravel().tolist())) != 2:
        raise ValueError(
            "Only one class is present in y_true. Detection error tradeoff curve is not "
            "defined in that case."
        )
    fns = tps[-1] - tps
    first = int(np.searchsorted(fps, fps[0], side="right")) - 1
    start = first if first >= 0 else None
    last = int(np.searchsorted(tps, tps[-1])) + 1
    part = slice(start, last)
    return fps[part][::-1] / fps[-1], fns[part][::-1] / tps[-1], thr[part][::-1]
