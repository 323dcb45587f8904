"""Multilabel indicator input (one 0/1 column per label) and label-vector losses.

The indicator checks (:func:`is_indicator`, :func:`check_indicators`) live in the input door,
``confmat.inputs.indicators``, and are re-exported here."""

from __future__ import annotations

from typing import Any

import numpy as np

from .inputs.encode import check_sample_weight
from .inputs.indicators import check_indicators, is_indicator
from .inputs.options import check_flag
from .matrix import ConfusionMatrix

__all__ = ["check_indicators", "hamming_loss", "indicator_counts", "is_indicator",
           "multilabel_confusion_matrix"]


def indicator_counts(
    y_true: Any, y_pred: Any, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-label ``tp, fp, fn, tn`` of indicator matrices (sums of weights with ``sample_weight``).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples, n_labels)
        The indicator matrices.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.

    Returns
    -------
    tp, fp, fn, tn : ndarray of shape (n_labels,)

    Raises
    ------
    ValueError, TypeError
        Bad indicator matrices or weights.

    Examples
    --------
    >>> [x.tolist() for x in indicator_counts([[1, 0], [0, 1], [1, 1]], [[1, 0], [1, 1], [0, 1]])]
    [[1, 2], [1, 0], [1, 0], [0, 1]]
    """
    t, p = check_indicators(y_true, y_pred)
    w = check_sample_weight(sample_weight, t.shape[0])
    n_labels = t.shape[1]

    def column_sums(mask: np.ndarray) -> np.ndarray:
        # weights summed per column in sample order (matches scikit-learn to the last digit)
        if w is None:
            return mask.sum(axis=0).astype(np.int64)
        rows, cols = np.nonzero(mask)
        return np.bincount(cols, weights=w[rows], minlength=n_labels).astype(np.float64)

    tp = column_sums(t & p)
    fp = column_sums(p) - tp
    fn = column_sums(t) - tp
    total = t.shape[0] if w is None else w.sum()
    tn = total - tp - fp - fn
    return tp, fp, fn, tn


def multilabel_confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
) -> np.ndarray:
    """One 2 x 2 table ``[[TN, FP], [FN, TP]]`` per label, as scikit-learn lays them out.

    Works for multilabel indicator matrices (one table per column) and for multi-class label
    vectors (one-vs-rest table per class).

    Parameters
    ----------
    y_true, y_pred : array-like
        Label vectors of shape (n_samples,) or indicator matrices of shape
        (n_samples, n_labels).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    labels : sequence, optional
        Classes (label vectors) or column indices (indicator matrices) to keep, in order.
    samplewise : bool, default False
        For indicator matrices: one table per sample (over its label columns) instead of one
        per label, each sample's counts times its weight, as scikit-learn's.

    Returns
    -------
    ndarray of shape (n_labels, 2, 2), or (n_samples, 2, 2) with ``samplewise``

    Raises
    ------
    ValueError
        Bad inputs, ``labels`` that are not column indices for indicator input, or
        ``samplewise`` with label vectors.
    TypeError
        ``samplewise`` that is not a bool.

    Examples
    --------
    >>> multilabel_confusion_matrix([[1, 0], [0, 1], [1, 1]], [[1, 0], [1, 1], [0, 1]]).tolist()
    [[[0, 1], [1, 1]], [[1, 0], [0, 2]]]
    >>> multilabel_confusion_matrix([[1, 0], [0, 1], [1, 1]], [[1, 0], [1, 1], [0, 1]],
    ...                             samplewise=True).tolist()
    [[[1, 0], [0, 1]], [[0, 1], [0, 1]], [[0, 0], [1, 1]]]
    """
    check_flag(samplewise, "samplewise")
    if is_indicator(y_true) or is_indicator(y_pred):
        t, p = check_indicators(y_true, y_pred)
        if labels is not None:
            idx = np.asarray(labels)
            if idx.dtype.kind not in "iu" or (idx < 0).any() or (idx >= t.shape[1]).any():
                raise ValueError(
                    f"labels must be column indices in [0, {t.shape[1]}) for indicator input"
                )
            t, p = t[:, idx], p[:, idx]
        if samplewise:
            w = check_sample_weight(sample_weight, t.shape[0])
            tp, fp, fn, tn = indicator_counts(t.T, p.T)  # samples as the columns
            if w is not None:
                tp, fp, fn, tn = (x * w for x in (tp, fp, fn, tn))
        else:
            tp, fp, fn, tn = indicator_counts(t, p, sample_weight)
        return np.stack([tn, fp, fn, tp], axis=-1).reshape(-1, 2, 2)
    if samplewise:
        raise ValueError("samplewise=True needs multilabel indicator matrices; y_true and "
                         "y_pred are label vectors")
    return ConfusionMatrix.from_predictions(  # as scikit-learn's: any labels
        y_true, y_pred, labels=labels, sample_weight=sample_weight, strict_labels=False
    ).one_vs_rest()


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Fraction of wrong labels.

    For label vectors this is the (weighted) error rate; for multilabel indicator matrices, the
    (weighted) mean over samples of the share of label columns predicted wrongly.

    Parameters
    ----------
    y_true, y_pred : array-like
        Label vectors or indicator matrices.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Bad inputs, or weights that sum to zero.

    Examples
    --------
    >>> hamming_loss([0, 1, 1, 2], [0, 1, 2, 2])
    0.25
    >>> round(hamming_loss([[1, 0], [0, 1], [1, 1]], [[1, 0], [1, 1], [0, 1]]), 4)
    0.3333
    """
    if is_indicator(y_true) or is_indicator(y_pred):
        t, p = check_indicators(y_true, y_pred)
        w = check_sample_weight(sample_weight, t.shape[0])
        wrong = (t != p).mean(axis=1)
        if w is None:
            return float(wrong.mean())
        if w.sum() == 0:
            raise ValueError("sample_weight sums to zero")
        return float(np.average(wrong, weights=w))
    return ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=sample_weight).metric(
        "hamming_loss"
    )
