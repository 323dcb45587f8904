"""Multilabel indicator input (one 0/1 column per label) and label-vector losses."""

from __future__ import annotations

from typing import Any

import numpy as np

from .inputs.encode import check_sample_weight
from .matrix import ConfusionMatrix


def is_indicator(y: Any) -> bool:
    """True for a 2-D array-like with more than one column (a multilabel indicator matrix),
    a list of rows, or a sparse matrix.

    Parameters
    ----------
    y : array-like
        Labels or an indicator matrix.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_indicator([[1, 0], [0, 1]]), is_indicator([0, 1, 1])
    (True, False)
    """
    if hasattr(y, "toarray"):
        return True
    if isinstance(y, list | tuple) and y and isinstance(y[0], list | tuple | np.ndarray):
        return True
    arr = y if isinstance(y, np.ndarray) else None
    if arr is None and hasattr(y, "shape"):
        return len(y.shape) == 2 and y.shape[1] > 1
    return arr is not None and arr.ndim == 2 and arr.shape[1] > 1


def check_indicators(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    """Validate two multilabel indicator matrices of the same shape with 0/1 entries.

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix of shape (n_samples, n_labels)
        The indicator matrices.

    Returns
    -------
    (ndarray of bool, ndarray of bool)

    Raises
    ------
    ValueError
        Not 2-D, entries other than 0 and 1, different shapes, or no samples.
    TypeError
        Entries that are not numbers.

    Examples
    --------
    >>> t, p = check_indicators([[1, 0]], [[1, 1]])
    >>> p.tolist()
    [[True, True]]
    >>> check_indicators([[2, 0]], [[1, 1]])
    Traceback (most recent call last):
    ...
    ValueError: y_true must contain only 0 and 1 in a multilabel indicator matrix
    """
    out = []
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        arr = y.toarray() if hasattr(y, "toarray") else np.asarray(y)
        if arr.ndim != 2:
            raise ValueError(f"{name} must be a 2-D indicator matrix, got shape {arr.shape}")
        if arr.dtype.kind not in "biuf":
            raise TypeError(f"{name} must be a 0/1 indicator matrix, got dtype {arr.dtype}")
        if arr.size and not np.isin(arr, (0, 1)).all():
            raise ValueError(f"{name} must contain only 0 and 1 in a multilabel indicator matrix")
        out.append(arr.astype(bool))
    if out[0].shape != out[1].shape:
        raise ValueError(
            f"y_true and y_pred have different shapes: {out[0].shape} and {out[1].shape}"
        )
    if out[0].shape[0] == 0:
        raise ValueError("y_true and y_pred are empty; at least one sample is needed")
    return out[0], out[1]


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

    Returns
    -------
    ndarray of shape (n_labels, 2, 2)

    Raises
    ------
    ValueError
        Bad inputs, or ``labels`` that are not column indices for indicator input.

    Examples
    --------
    >>> multilabel_confusion_matrix([[1, 0], [0, 1], [1, 1]], [[1, 0], [1, 1], [0, 1]]).tolist()
    [[[0, 1], [1, 1]], [[1, 0], [0, 2]]]
    """
    if is_indicator(y_true) or is_indicator(y_pred):
        tp, fp, fn, tn = indicator_counts(y_true, y_pred, sample_weight)
        out = np.stack([tn, fp, fn, tp], axis=-1).reshape(-1, 2, 2)
        if labels is not None:
            idx = np.asarray(labels)
            if idx.dtype.kind not in "iu" or (idx < 0).any() or (idx >= out.shape[0]).any():
                raise ValueError(
                    f"labels must be column indices in [0, {out.shape[0]}) for indicator input"
                )
            out = out[idx]
        return out
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
