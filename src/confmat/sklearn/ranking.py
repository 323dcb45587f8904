"""Ranking scores with scikit-learn's signatures: ``roc_auc_score`` (binary, multiclass
one-vs-rest and one-vs-one, multilabel), ``average_precision_score``, ``top_k_accuracy_score``
and ``auc``.

Areas come from confmat's curves: the rank (Mann-Whitney) AUC for unweighted full areas,
the trapezoid under the ROC points otherwise, the standardized partial AUC of McClish (1989)
with ``max_fpr``; the one-vs-one average is Hand & Till (2001).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np

from ..curves.common import trapezoid_area
from ..curves.precision_recall import pr_points
from ..curves.rank import cumulative_counts, fast_binary_auc, mann_whitney_auc
from ..curves.roc import area_with_max_fpr, roc_points
from ..inputs.probabilities import first_row_off_one
from ._door import scores_1d, truth_classes, weights
from ._targets import (
    as_array,
    check_consistent_length,
    column_or_1d,
    sklearn_warnings,
    type_of_target,
    warn_undefined,
)
from .curves import binary_counts

__all__ = ["auc", "average_precision_score", "roc_auc_score", "top_k_accuracy_score"]

Metric = Callable[[Any, Any, Any], float]


def auc(x: Any, y: Any) -> float:
    """Area under a curve by the trapezoidal rule; ``x`` must be monotone.

    Parameters
    ----------
    x : array-like of shape (n,)
        Increasing or decreasing x coordinates (at least 2).
    y : array-like of shape (n,)
        y coordinates.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Fewer than 2 points, ``x`` not monotone, inconsistent lengths.

    Examples
    --------
    >>> from confmat.sklearn import auc
    >>> auc([0, 0.5, 1], [0, 1, 1])
    0.75
    """
    check_consistent_length(x, y)
    xs = column_or_1d(x, "x")
    ys = column_or_1d(y, "y")
    if xs.shape[0] < 2:
        raise ValueError(
            "At least 2 points are needed to compute area under curve, but x.shape = "
            f"{xs.shape[0]}"
        )
    dx = np.diff(xs)
    direction = 1.0
    if np.any(dx < 0):
        if not np.all(dx <= 0):
            raise ValueError(f"x is neither increasing nor decreasing : {xs}.")
        direction = -1.0
    return direction * trapezoid_area(xs.astype(np.float64), ys.astype(np.float64))


def _binary_auc(y01: np.ndarray, score: Any, sample_weight: Any, max_fpr: Any = None) -> float:
    """ROC AUC of a 0/1 vector (NaN with a warning when one class is missing)."""
    if max_fpr is not None and max_fpr != 1 and not 0 < max_fpr <= 1:
        raise ValueError(f"Expected max_fpr in range (0, 1], got: {max_fpr!r}")
    pos = np.asarray(y01) == 1
    if np.all(pos) or not np.any(pos):
        warn_undefined(
            "Only one class is present in y_true. ROC AUC score is not defined in that case.",
            stacklevel=4,
        )
        return float("nan")
    s = scores_1d(score, pos.shape[0])
    w = weights(sample_weight, pos.shape[0])
    if w is None and (max_fpr is None or max_fpr == 1):
        fast = fast_binary_auc(pos.view(np.uint8) if pos.dtype == bool else pos, s)
        return float(fast) if fast is not None else mann_whitney_auc(pos, s)
    thr, tps, fps = cumulative_counts(pos, s, w)
    if max_fpr is not None and max_fpr != 1 and fps[-1] == 0:
        # no negative weight: the partial curve keeps one point, as in scikit-learn
        raise ValueError(
            "y_true and sample_weight leave no negative sample of non-zero weight, so the "
            "partial ROC curve of max_fpr has one point: At least 2 points are needed to "
            "compute area under curve, but x.shape = 1"
        )
    fpr, tpr, _ = roc_points(thr, np.asarray(tps, float), np.asarray(fps, float), True)
    return area_with_max_fpr(fpr, tpr, None if max_fpr == 1 else max_fpr)


def _binary_ap(y01: Any, score: Any, sample_weight: Any, pos_label: Any = 1) -> float:
    thr, tps, fps = binary_counts(y01, score, pos_label, sample_weight)
    precision, recall, _ = pr_points(thr, tps, fps, False)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def average_binary(
    metric: Metric, y_true: Any, y_score: Any, average: Any, sample_weight: Any
) -> Any:
    """Apply a binary score to each column of an indicator matrix and average (scikit-learn's
    rules: 'micro' ravels, 'weighted' by support, 'samples' by rows).

    Parameters
    ----------
    metric
        callable
    y_true
        array-like
    y_score
        array-like
    average
        str or None
    sample_weight
        array-like or None

    Returns
    -------
    float or ndarray
        The averaged (or per-column) score.
    """
    options = (None, "micro", "macro", "weighted", "samples")
    if average not in options:
        raise ValueError(f"average has to be one of {options}")
    kind = type_of_target(y_true)
    if kind not in ("binary", "multilabel-indicator"):
        raise ValueError(f"{kind} format is not supported (y_true)")
    if kind == "binary":
        return metric(y_true, y_score, sample_weight)
    check_consistent_length(y_true, y_score, sample_weight)
    t = as_array(y_true.toarray() if hasattr(y_true, "toarray") else y_true, "y_true")
    s = as_array(y_score, "y_score")
    w = weights(sample_weight, t.shape[0])  # the door: 'samples' weighs rows with them too
    score_w, avg_w, axis = w, None, 1
    if average == "micro":
        score_w = None if w is None else np.repeat(w, t.shape[1])
        t, s = t.ravel(), s.ravel()
    elif average == "weighted":
        avg_w = (t * (1.0 if w is None else w[:, None])).sum(axis=0)
        if np.isclose(avg_w.sum(), 0.0):
            return 0
    elif average == "samples":
        avg_w, score_w, axis = w, None, 0
    t = t.reshape(-1, 1) if t.ndim == 1 else t
    s = s.reshape(-1, 1) if s.ndim == 1 else s
    n = s.shape[axis]
    out = np.zeros(n)
    for c in range(n):
        tc = t[:, c] if axis == 1 else t[c, :]
        sc = s[:, c] if axis == 1 else s[c, :]
        out[c] = metric(tc, sc, score_w)
    if average is None:
        return out
    if avg_w is not None:  # not all zero: the door refused those, 'weighted' returned 0
        out[np.asarray(avg_w) == 0] = 0
    return float(np.average(out, weights=avg_w))


def _check_class_labels(labels: Any, n_columns: int, y_true: np.ndarray) -> list[Any]:
    book = column_or_1d(labels, "labels").tolist()
    ordered = sorted(set(book))
    if len(ordered) != len(book):
        raise ValueError("Parameter 'labels' must be unique")
    if ordered != book:
        raise ValueError("Parameter 'labels' must be ordered")
    if len(book) != n_columns:
        raise ValueError(
            f"Number of given labels, {len(book)}, not equal to the number of columns in "
            f"'y_score', {n_columns}"
        )
    if set(y_true.tolist()) - set(book):
        raise ValueError("'y_true' contains labels not in parameter 'labels'")
    return book


def _multiclass_auc(
    y_true: np.ndarray, y_score: np.ndarray, labels: Any, multi_class: Any, average: Any,
    sample_weight: Any,
) -> Any:
    if y_score.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={y_score.shape}`."
        )
    if first_row_off_one(y_score, relative_to_sum=True) is not None:
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. they should "
            "sum up to 1.0 over classes"
        )
    options: tuple[Any, ...] = ("macro", "weighted", None)
    if multi_class == "ovr":
        options = ("micro", *options)
    if average not in options:
        raise ValueError(f"average must be one of {options} for multiclass problems")
    if multi_class not in ("ovo", "ovr"):
        raise ValueError(
            f"multi_class='{multi_class}' is not supported for multiclass ROC AUC, multi_class "
            "must be in ('ovo', 'ovr')"
        )
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    if labels is not None:
        classes = _check_class_labels(labels, y_score.shape[1], y_true)
    else:
        classes, _ = truth_classes(y_true)
        if len(classes) != y_score.shape[1]:
            raise ValueError(
                "Number of classes in y_true not equal to the number of columns in 'y_score'"
            )
    index = {c: i for i, c in enumerate(classes)}
    codes = np.array([index[v] for v in y_true.tolist()], dtype=np.int64)
    if multi_class == "ovo":
        if sample_weight is not None:
            raise ValueError(
                "sample_weight is not supported for multiclass one-vs-one ROC AUC, "
                "'sample_weight' must be None in this case."
            )
        present = np.unique(codes)
        pairs, prevalence = [], []
        for a, b in combinations(present.tolist(), 2):
            both = (codes == a) | (codes == b)
            sub = codes[both]
            first = _binary_auc((sub == a).astype(np.int64), y_score[both, a], None)
            second = _binary_auc((sub == b).astype(np.int64), y_score[both, b], None)
            pairs.append((first + second) / 2)
            prevalence.append(np.mean(both))
        return float(np.average(pairs, weights=prevalence if average == "weighted" else None))
    onehot = (codes[:, None] == np.arange(len(classes))[None, :]).astype(np.int64)
    return average_binary(_binary_auc, onehot, y_score, average, sample_weight)


@sklearn_warnings
def roc_auc_score(
    y_true: Any, y_score: Any, *, average: Any = "macro", sample_weight: Any = None,
    max_fpr: Any = None, multi_class: Any = "raise", labels: Any = None,
) -> Any:
    """Area under the ROC curve: binary, multiclass (one-vs-rest or one-vs-one, Hand & Till
    2001) or multilabel.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Labels or an indicator matrix.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores of the greater label (binary), class probabilities (multiclass) or one score
        per column (multilabel).
    average : {'micro', 'macro', 'samples', 'weighted'} or None, default='macro'
        How per-class areas are combined.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.
    max_fpr : float in (0, 1], optional
        Standardized partial AUC up to this false positive rate (McClish 1989).
    multi_class : {'raise', 'ovr', 'ovo'}, default='raise'
        Multiclass strategy.
    labels : array-like, optional
        The classes of the columns of ``y_score`` (multiclass).

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        Bad targets, scores or options.

    Examples
    --------
    >>> from confmat.sklearn import roc_auc_score
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    kind = type_of_target(y_true, input_name="y_true")
    t = as_array(y_true, "y_true") if not hasattr(y_true, "toarray") else y_true.toarray()
    s = as_array(y_score, "y_score")
    if s.dtype.kind not in "biuf":
        raise ValueError(f"y_score must be numeric, got dtype {s.dtype}")
    if s.dtype.kind == "f" and not np.isfinite(s).all():
        raise ValueError("Input y_score contains NaN." if np.isnan(s).any()
                         else "Input y_score contains infinity.")
    if kind == "multiclass" or (kind == "binary" and s.ndim == 2 and s.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError(
                "Partial AUC computation not available in multiclass setting, 'max_fpr' must be"
                f" set to `None`, received `max_fpr={max_fpr}` instead"
            )
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr')")
        return _multiclass_auc(column_or_1d(t, "y_true"), s, labels, multi_class, average,
                               sample_weight)

    def metric(yt: Any, ys: Any, sw: Any) -> float:
        return _binary_auc(yt, ys, sw, max_fpr)

    if kind == "binary":
        t1 = column_or_1d(t, "y_true")
        classes, codes = truth_classes(t1)
        y01 = (codes == len(classes) - 1).astype(np.int64) if len(classes) == 2 else np.zeros(
            codes.shape[0], dtype=np.int64)
        return average_binary(metric, y01, s, average, sample_weight)
    return average_binary(metric, t, s, average, sample_weight)


def average_precision_score(
    y_true: Any, y_score: Any, *, average: Any = "macro", pos_label: Any = 1,
    sample_weight: Any = None,
) -> Any:
    """Average precision, ``sum_n (R_n - R_{n-1}) P_n`` over decreasing thresholds (no
    interpolation), per class and averaged.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary or multiclass labels, or an indicator matrix.
    y_score : array-like
        Scores of the positive class, or one column per class.
    average : {'micro', 'samples', 'weighted', 'macro'} or None, default='macro'
        How per-class values are combined.
    pos_label : int, float, bool or str, default=1
        The positive class of binary ``y_true``.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        Bad targets, ``pos_label`` or score shape.

    Examples
    --------
    >>> from confmat.sklearn import average_precision_score
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    kind = type_of_target(y_true, input_name="y_true")
    if kind == "binary":
        present = sorted(set(column_or_1d(y_true, "y_true").tolist()))
        if len(present) == 2 and pos_label not in present:
            raise ValueError(
                f"pos_label={pos_label} is not a valid label. It should be one of "
                f"{np.asarray(present)}"
            )
    elif kind in ("multilabel-indicator", "multiclass") and pos_label != 1:
        raise ValueError(
            f"Parameter pos_label is fixed to 1 for {kind} y_true. Do not set pos_label or set "
            "pos_label to 1."
        )
    if kind == "multiclass":
        classes, codes = truth_classes(y_true)
        y_true = (codes[:, None] == np.arange(len(classes))[None, :]).astype(np.int64)
        if np.shape(y_score) != y_true.shape:
            raise ValueError(
                "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` "
                f"contains multiple classes. Got `y_score.shape={np.shape(y_score)}`."
            )

    def metric(yt: Any, ys: Any, sw: Any) -> float:
        return _binary_ap(yt, ys, sw, pos_label)

    return average_binary(metric, y_true, y_score, average, sample_weight)


def top_k_accuracy_score(
    y_true: Any, y_score: Any, *, k: int = 2, normalize: bool = True,
    sample_weight: Any = None, labels: Any = None,
) -> float:
    """Share of samples whose true class is among the ``k`` highest scores.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores (of the greater label in the binary case).
    k : int, default=2
        Number of top classes counted as hits.
    normalize : bool, default=True
        Return the share; with False the number (sum of weights) of hits.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.
    labels : array-like, optional
        The classes of the columns of ``y_score``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Bad targets, score shapes or labels.

    Examples
    --------
    >>> from confmat.sklearn import top_k_accuracy_score
    >>> top_k_accuracy_score([0, 1, 2], [[0.5, 0.3, 0.2], [0.2, 0.3, 0.5], [0.1, 0.2, 0.7]])
    1.0
    """
    t = column_or_1d(as_array(y_true, "y_true"), "y_true")
    kind = type_of_target(t, input_name="y_true")
    if kind == "binary" and labels is not None and len(labels) > 2:
        kind = "multiclass"
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"y type must be 'binary' or 'multiclass', got '{kind}' instead.")
    s = as_array(y_score, "y_score").astype(np.float64)
    if kind == "binary":
        if s.ndim == 2 and s.shape[1] != 1:
            raise ValueError(
                f"`y_true` is binary while y_score is 2d with {s.shape[1]} classes. If `y_true` "
                "does not contain all the labels, `labels` must be provided."
            )
        s = column_or_1d(s, "y_score")
    elif s.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={s.shape}`."
        )
    check_consistent_length(t, s, sample_weight)
    n_score = s.shape[1] if s.ndim == 2 else 2
    if labels is None:
        classes, _ = truth_classes(t)
        if len(classes) != n_score:
            raise ValueError(
                f"Number of classes in 'y_true' ({len(classes)}) not equal to the number of "
                f"classes in 'y_score' ({n_score}).You can provide a list of all known classes "
                "by assigning it to the `labels` parameter."
            )
    else:
        book = column_or_1d(labels, "labels").tolist()
        classes = sorted(set(book))
        if len(classes) != len(book):
            raise ValueError("Parameter 'labels' must be unique.")
        if classes != book:
            raise ValueError("Parameter 'labels' must be ordered.")
        if len(classes) != n_score:
            raise ValueError(
                f"Number of given labels ({len(classes)}) not equal to the number of classes "
                f"in 'y_score' ({n_score})."
            )
        if set(t.tolist()) - set(classes):
            raise ValueError("'y_true' contains labels not in parameter 'labels'.")
    n_classes = len(classes)
    if k >= n_classes:
        warn_undefined(
            f"'k' ({k}) greater than or equal to 'n_classes' ({n_classes}) will result in a "
            "perfect score and is therefore meaningless.",
        )
    index = {c: i for i, c in enumerate(classes)}
    codes = np.array([index[v] for v in t.tolist()], dtype=np.int64)
    if kind == "binary":
        if k == 1:
            cut = 0.5 if s.min() >= 0 and s.max() <= 1 else 0
            hits = (s > cut).astype(np.int64) == codes
        else:
            hits = np.ones(s.shape[0], dtype=bool)
    else:
        top = np.argsort(s, axis=1, kind="mergesort")[:, ::-1][:, :k]
        hits = (top == codes[:, None]).any(axis=1)
    w = weights(sample_weight, hits.shape[0]) if sample_weight is not None else None
    if normalize:
        return float(np.average(hits, weights=w))
    return float(hits.sum()) if w is None else float(np.dot(hits, w))

