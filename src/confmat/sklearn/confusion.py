"""Confusion tables with scikit-learn's signatures: ``confusion_matrix`` and
``multilabel_confusion_matrix``, and the per-label counts every set-wise score starts from."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..counting.kernels import confusion_counts
from ..inputs.encode import as_1d, encode_pair
from ..multilabel import indicator_counts
from ._door import weights
from ._params import check_flag
from ._targets import Targets, check_labels_mix, check_targets, labels_as_targets

__all__ = [
    "LabelCounts", "confusion_matrix", "exact_integer_table", "label_counts",
    "multilabel_confusion_matrix",
]


def integer_weights(sample_weight: Any) -> bool:
    """True when ``sample_weight`` is absent or of an integer / boolean dtype (the table then
    holds integers, as scikit-learn's does).

    Parameters
    ----------
    sample_weight
        array-like or None

    Returns
    -------
    bool
        Whether the table holds integers.
    """
    if sample_weight is None:
        return True
    return np.asarray(sample_weight).dtype.kind in "iub"


#: weighted sums below this are exact in float64
_EXACT_FLOAT = 2.0**53
_INT64_MAX = int(np.iinfo(np.int64).max)


def exact_integer_table(tg: Targets, book: list[Any], table: np.ndarray) -> np.ndarray:
    """The int64 table of unweighted or integer-weighted targets, exact in every cell.

    The counting kernel sums weights in float64, which is exact while the sum of ``|w|`` stays
    below 2**53 (every realistic input). Beyond that the cells are summed again with Python
    integers; a cell outside the int64 range is an error, never a wrapped-around count
    (scikit-learn's own result wraps around silently there).

    Parameters
    ----------
    tg
        Targets (checked, 1-D)
    book
        list, the table's labels
    table
        ndarray, the kernel's float table over ``book``

    Returns
    -------
    ndarray of int64
        The table.

    Raises
    ------
    ValueError
        A weighted count beyond the int64 range.
    """
    if tg.sample_weight is None:
        return np.rint(table).astype(np.int64)
    w = np.asarray(tg.sample_weight)
    if w.size == 0 or float(np.abs(w.astype(np.float64)).sum()) < _EXACT_FLOAT:
        return np.rint(table).astype(np.int64)
    index = {label: i for i, label in enumerate(book)}
    exact = [[0] * len(book) for _ in book]
    for t, p, wi in zip(np.asarray(tg.y_true).tolist(), np.asarray(tg.y_pred).tolist(),
                        w.tolist(), strict=True):
        i, j = index.get(t), index.get(p)
        if i is not None and j is not None:
            exact[i][j] += int(wi)
    big = max(abs(c) for row in exact for c in row)
    if big > _INT64_MAX:
        raise ValueError(
            f"sample_weight: the weighted counts exceed the int64 range (a cell sums to {big}); "
            "pass float weights to count in float64"
        )
    return np.array(exact, dtype=np.int64)


def table_of(tg: Targets, labels: Any = None, strict: bool = False) -> tuple[np.ndarray, list[Any]]:
    """The confusion table of checked 1-D targets over ``labels`` (sorted union by default),
    with the row and column of labels outside ``labels`` last when there are any.

    Parameters
    ----------
    tg
        Targets
    labels
        sequence, optional
    strict
        bool, default=False

    Returns
    -------
    (ndarray, list)
        The table and its labels.
    """
    w = weights(tg.sample_weight, tg.y_true.shape[0])
    table, book, _ = confusion_counts(
        tg.y_true, tg.y_pred, labels=labels, sample_weight=w, strict_labels=strict
    )
    if tg.sample_weight is not None:  # weighted counts are floats in scikit-learn
        table = table.astype(np.float64)
    if len(book) > 2 and tg.kind == "binary":
        tg.kind = "multiclass"
    return table, book


@dataclass
class LabelCounts:
    """Per-label true positives, predicted and true counts (sums of weights) of checked targets.

    Attributes
    ----------
    kind : str
        The targets' type (``'binary'``, ``'multiclass'`` or ``'multilabel-indicator'``).
    labels : list
        The labels the counts belong to (column indices for indicator matrices; samples'
        positions with ``samplewise``).
    tp, pred, true : ndarray
        True positives, predicted positives and true positives + false negatives per label.
    total : ndarray or float
        Number (weight) of samples, per sample with ``samplewise``.
    present : list
        Sorted labels present in the data (every column index for indicator matrices).
    integral : bool
        Whether scikit-learn's counts would be integers: without weights unless no label
        vector sample is right (its table then turns float); with integer weights for
        samplewise counts, and for indicator columns holding no 1 at all.

    Parameters
    ----------
    kind
        str
    labels
        list
    tp
        ndarray
    pred
        ndarray
    true
        ndarray
    total
        ndarray or float
    present
        list
    integral
        bool, default=True
    """

    kind: str
    labels: list[Any]
    tp: np.ndarray
    pred: np.ndarray
    true: np.ndarray
    total: Any
    present: list[Any]
    integral: bool = True


def _indicator_labels(labels: Any, n_labels: int) -> np.ndarray | None:
    if labels is None:
        return None
    idx = np.asarray(labels)
    if idx.size == 0:
        return idx.astype(np.int64)
    if idx.max() > n_labels - 1:
        raise ValueError(
            "All labels must be in [0, n labels) for multilabel targets. "
            f"Got {idx.max()} > {n_labels - 1}"
        )
    if idx.min() < 0:
        raise ValueError(
            f"All labels must be in [0, n labels) for multilabel targets. Got {idx.min()} < 0"
        )
    return idx.astype(np.int64)


def label_counts(
    tg: Targets, labels: Any = None, samplewise: bool = False, name: str = "labels"
) -> LabelCounts:
    """Count checked targets per label (or per sample with ``samplewise``) as scikit-learn's
    ``multilabel_confusion_matrix`` does: a label list may name absent labels (counted 0) and
    leave present ones out (their samples still count as false positives / negatives).

    Parameters
    ----------
    tg
        Targets
    labels
        sequence, optional
    samplewise
        bool, default=False
    name
        str, default='labels': the argument ``labels`` came from, named in errors.

    Returns
    -------
    LabelCounts
        The counts.
    """
    int_weights = integer_weights(tg.sample_weight)
    if tg.kind == "multilabel-indicator":
        n_labels = tg.y_true.shape[1]
        idx = _indicator_labels(labels, n_labels)
        t, p = tg.y_true, tg.y_pred
        if idx is not None:
            t, p = t[:, idx], p[:, idx]
        present = list(range(n_labels))
        if samplewise:
            w = weights(tg.sample_weight, t.shape[0])
            if t.shape[1] == 0:  # labels=[]: every sample's counts are 0
                tp = fp = fn = np.zeros(t.shape[0], dtype=np.int64)
            else:
                tp, fp, fn, _ = indicator_counts(t.T, p.T)
            tp, pred, true = tp, tp + fp, tp + fn
            total = np.full(t.shape[0], t.shape[1])
            if tg.sample_weight is not None:  # counts times weights, integers for integer weights
                one = np.ones(t.shape[0]) if w is None else w
                tp, pred, true, total = (
                    _as_counts(a * one, int_weights) for a in (tp, pred, true, total)
                )
            return LabelCounts(tg.kind, list(range(t.shape[0])), tp, pred, true, total, present,
                               int_weights)
        tp, fp, fn, tn = indicator_counts(t, p, weights(tg.sample_weight, t.shape[0]))
        # scikit-learn's weighted column sums are floats, except with integer weights when the
        # chosen columns hold no 1 at all (numpy's sum of no weights keeps their integer type)
        integral = tg.sample_weight is None or (int_weights and not (t.any() or p.any()))
        tp, fp, fn, tn = (_as_counts(a, integral) for a in (tp, fp, fn, tn))
        total = tp + fp + fn + tn if tp.size else np.zeros(0)
        out_labels = present if idx is None else idx.tolist()
        return LabelCounts(tg.kind, out_labels, tp, tp + fp, tp + fn, total, present, integral)
    if samplewise:
        raise ValueError(
            "Samplewise metrics are not available outside of multilabel classification."
        )
    table, book = table_of(tg)  # every label: left-out labels still make FP and FN
    # scikit-learn's counts are integers without weights, and turn float when no sample is right
    integral = tg.sample_weight is None and bool(np.diagonal(table).any())
    if not integral:
        table = table.astype(np.float64)
    tp_all = np.diagonal(table)
    pred_all = table.sum(axis=0)
    true_all = table.sum(axis=1)
    grand: Any = table.sum()
    if tg.sample_weight is not None and not int_weights:
        tp_all, pred_all, true_all, grand = _sample_order_sums(tg, book)
    if labels is None:
        pick = np.arange(len(book))
        out_labels = book
    else:
        index = {v: i for i, v in enumerate(book)}
        given = as_1d(labels, "labels")  # exact: np.asarray makes floats of [2**64 - 1, 1]
        if given.size and book and any(isinstance(v, str) for v in given.tolist()):
            # '1' would silently match no class of integer targets (scikit-learn coerces it
            # to the class 1); numbers for text targets are classes with no sample, as there
            check_labels_mix(np.asarray(tg.y_true[:1]), given, names=f"y_true and {name}")
        out_labels = given.tolist()
        pick = np.array([index.get(v, -1) for v in out_labels], dtype=np.int64)
    found = pick >= 0
    zero = np.zeros((), dtype=table.dtype)

    def take(a: np.ndarray) -> np.ndarray:
        return np.where(found, a[np.where(found, pick, 0)] if a.size else zero, zero)

    return LabelCounts(
        tg.kind, out_labels, take(tp_all), take(pred_all), take(true_all), grand, book, integral,
    )


def _as_counts(a: np.ndarray, integral: bool) -> np.ndarray:
    """Counts as int64 when scikit-learn's are integers, else float64."""
    return np.rint(a).astype(np.int64) if integral else np.asarray(a, dtype=np.float64)


def _sample_order_sums(
    tg: Targets, book: list[Any]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Per-label TP, predicted and true sums of float weights, and the total weight, each
    added in sample order as scikit-learn adds them (so that printed float supports agree to
    the last digit); predicted and true are TP plus the rest, as scikit-learn rebuilds them
    from its 2 x 2 tables."""
    t, p, _, _ = encode_pair(tg.y_true, tg.y_pred, book)
    w = weights(tg.sample_weight, t.shape[0])
    if w is None:  # float weights all equal to 1
        w = np.ones(t.shape[0])
    k = len(book)
    hit = t == p
    tp = np.bincount(t[hit], weights=w[hit], minlength=k)
    pred = np.bincount(p, weights=w, minlength=k)
    true = np.bincount(t, weights=w, minlength=k)
    return tp, tp + (pred - tp), tp + (true - tp), float(np.add.accumulate(w)[-1])


def confusion_matrix(
    y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None,
    normalize: Any = None,
) -> np.ndarray:
    """Confusion matrix ``C[i, j]``: samples of true class ``i`` predicted as class ``j``.

    scikit-learn's ``confusion_matrix``, counted by confmat's kernel.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (column vectors of shape (n, 1) are accepted).
    labels : array-like of shape (n_classes,), optional
        Classes and their order; samples of other classes are left out. By default the
        sorted labels of ``y_true`` and ``y_pred``.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.
    normalize : {'true', 'pred', 'all'}, optional
        Divide by the row sums, the column sums or the total (0 where a sum is 0).

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        Integers without weights (or with integer weights), floats otherwise.

    Raises
    ------
    ValueError
        Inconsistent lengths, empty input, multilabel or continuous targets, an empty
        ``labels`` or one naming no class of ``y_true``, an unknown ``normalize``.

    Examples
    --------
    >>> from confmat.sklearn import confusion_matrix
    >>> confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2]).tolist()
    [[2, 0, 0], [0, 0, 1], [1, 0, 2]]
    """
    if normalize not in (None, "true", "pred", "all"):
        raise ValueError(
            "The 'normalize' parameter of confusion_matrix must be a str among "
            f"{{'all', 'pred', 'true'}} or None. Got {normalize!r} instead."
        )
    tg = check_targets(y_true, y_pred, sample_weight)
    if tg.kind not in ("binary", "multiclass"):
        raise ValueError(f"{tg.kind} is not supported (y_true and y_pred)")
    if labels is not None:
        book = as_1d(labels, "labels")  # np.asarray makes floats of [2**64 - 1, 1]
        if book.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if not np.isin(book, np.asarray(tg.y_true)).any():
            raise ValueError("At least one label specified must be in y_true")
        labels = labels_as_targets(tg, book.tolist())
    table, book_out = table_of(tg, labels, strict=False)
    k = len(book_out)
    cm = table[:k, :k]
    if integer_weights(sample_weight):
        cm = exact_integer_table(tg, book_out, cm)
    else:
        cm = cm.astype(np.float64)
    if normalize is not None:
        with np.errstate(all="ignore"):
            if normalize == "true":
                cm = cm / cm.sum(axis=1, keepdims=True)
            elif normalize == "pred":
                cm = cm / cm.sum(axis=0, keepdims=True)
            else:
                cm = cm / cm.sum()
        cm = np.nan_to_num(cm)
    if cm.shape == (1, 1):
        warnings.warn(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to "
            "have the correct shape, use the 'labels' parameter to pass all known labels.",
            UserWarning,
            stacklevel=2,
        )
    return np.ascontiguousarray(cm)


def multilabel_confusion_matrix(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, labels: Any = None,
    samplewise: bool = False,
) -> np.ndarray:
    """One 2 x 2 table ``[[TN, FP], [FN, TP]]`` per class (or per sample).

    scikit-learn's ``multilabel_confusion_matrix``: one-vs-rest tables of multiclass labels,
    one table per column of a multilabel indicator matrix, or one per sample with
    ``samplewise=True`` (indicator matrices only).

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix
        Labels of shape (n_samples,) or indicator matrices of shape (n_samples, n_labels).
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.
    labels : array-like, optional
        Classes (or column indices) to report, in order.
    samplewise : bool, default=False
        One table per sample (multilabel input only).

    Returns
    -------
    ndarray of shape (n_outputs, 2, 2)

    Raises
    ------
    ValueError
        Bad targets, column indices out of range, ``samplewise`` on label vectors.

    Examples
    --------
    >>> from confmat.sklearn import multilabel_confusion_matrix
    >>> multilabel_confusion_matrix([[1, 0], [0, 1]], [[1, 1], [0, 1]]).tolist()
    [[[1, 0], [0, 1]], [[0, 1], [0, 1]]]
    """
    check_flag(samplewise, "samplewise", "multilabel_confusion_matrix")
    tg = check_targets(y_true, y_pred, sample_weight)
    c = label_counts(tg, labels, samplewise)
    fp = c.pred - c.tp
    fn = c.true - c.tp
    tn = c.total - c.tp - fp - fn
    out = np.stack([tn, fp, fn, c.tp], axis=-1).reshape(-1, 2, 2)
    return _as_counts(out, c.integral)
