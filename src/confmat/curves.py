"""Scores and thresholds: ROC and precision-recall curves, AUC, threshold sweeps and choice.

One pipeline serves every function here::

    validate (encode.py front door) -> sort the scores once -> cumulative counts at every
    distinct score -> a (T, 2, 2) stack of confusion tables -> any registry metric

**Decision rule.** A sample is predicted positive when ``score >= threshold`` (the rule of
seed 002's threshold table and of scikit-learn's curves). The thresholds of a curve are the
distinct scores in decreasing order; ROC curves start with ``+inf`` (nothing predicted positive).

**Table layout.** Every 2 x 2 table built here has rows = true class and columns = predicted
class, both ordered ``[negative, positive]``: ``[[TN, FP], [FN, TP]]``, the layout of
``sklearn.metrics.confusion_matrix`` for labels ``[0, 1]``.

The exact functions reproduce scikit-learn's ``roc_curve``, ``roc_auc_score``,
``precision_recall_curve`` and ``average_precision_score`` (ties, sample weights, the leading
``inf`` threshold, ``max_fpr`` with McClish's correction, one-vs-rest and one-vs-one averaging).
The binned, mergeable form for data that does not fit in memory lives in :mod:`confmat.binned`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any, Literal

import numpy as np

from .inputs.encode import (
    as_1d,
    py_scalar,
)
from .inputs.targets import (
    binary_target,
    check_scores_2d,
    check_weights,
    encode_truth,
    numeric_1d,
    resolve_pos_label,
)
from .matrix import ConfusionMatrix
from .metrics import ClassCounts, Stats, UndefinedMetricWarning, evaluate, get_metric

__all__ = [
    "OneVsRestROC",
    "PRCurve",
    "ROCCurve",
    "ThresholdChoice",
    "ThresholdSweep",
    "average_precision",
    "best_threshold",
    "precision_recall_curve",
    "roc_auc",
    "roc_curve",
    "roc_curve_ovr",
    "roc_pr_curves",
    "threshold_sweep",
]

APMethod = Literal["step", "interpolated", "trapezoid"]


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------
# ---------------------------------------------------------------------------------------------
# the one sort: cumulative counts at every distinct score
# ---------------------------------------------------------------------------------------------
def _cumulative_counts(
    pos: np.ndarray, score: np.ndarray, weight: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct scores in decreasing order with the positive and negative count (or weight) at
    or above each: ``tps[i] = sum(w[pos & (score >= thr[i])])``, likewise ``fps``.

    Zero-weight samples are dropped first (they neither count nor create thresholds).
    """
    if weight is None and score.shape[0] >= 1 << 14:
        kern = _rank_kernel()
        if kern is not None:  # split by class, sort each part in place, merge from the top
            _, _, split, merge_desc = kern
            buf, n_pos = split(pos.view(np.uint8), np.ascontiguousarray(score), 1)
            ps, ns = buf[:n_pos], buf[n_pos:]
            ps.sort()
            ns.sort()
            return merge_desc(ps, ns)
    if weight is not None:
        keep = weight != 0
        if not keep.all():
            pos, score, weight = pos[keep], score[keep], weight[keep]
    order = np.argsort(score)[::-1]  # ties are grouped below, so stability is not needed
    s = score[order]
    p = pos[order]
    ends = np.append(np.flatnonzero(s[1:] != s[:-1]), s.shape[0] - 1)
    if weight is None:
        tps = np.cumsum(p, dtype=np.int64)[ends]
        fps = ends + 1 - tps
    else:
        w = weight[order]
        tps = np.cumsum(np.where(p, w, 0.0))[ends]
        fps = np.cumsum(np.where(p, 0.0, w))[ends]
    return s[ends], tps, fps


def _roc_points(
    thr: np.ndarray, tps: np.ndarray, fps: np.ndarray, drop_intermediate: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROC points from cumulative counts (decreasing thresholds), scikit-learn's convention."""
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


def _pr_points(
    thr: np.ndarray, tps: np.ndarray, fps: np.ndarray, drop_intermediate: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall points from cumulative counts, scikit-learn's convention: recall
    decreasing, a final point (recall 0, precision 1), thresholds increasing."""
    tps = np.asarray(tps, dtype=np.float64)
    fps = np.asarray(fps, dtype=np.float64)
    if drop_intermediate and fps.shape[0] > 2:
        step = np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:]))
        keep = np.flatnonzero(np.concatenate([[True], step, [True]]))
        thr, tps, fps = thr[keep], tps[keep], fps[keep]
    ps = tps + fps
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(ps != 0, tps / np.where(ps != 0, ps, 1.0), 0.0)
    if tps[-1] == 0:
        warnings.warn(
            "No positive class found in y_true, recall is set to one for all thresholds.",
            UserWarning,
            stacklevel=3,
        )
        recall = np.ones_like(tps)
    else:
        recall = tps / tps[-1]
    return (
        np.concatenate([precision[::-1], [1.0]]),
        np.concatenate([recall[::-1], [0.0]]),
        thr[::-1].astype(np.float64),
    )


def _trapezoid(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.trapezoid(y, x))


# ---------------------------------------------------------------------------------------------
# binary AUC: Mann-Whitney on two sorted arrays (fast path) or the area under the curve
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _rank_kernel() -> Any:
    if os.environ.get("CONFMAT_DISABLE_NUMBA"):
        return None
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - numba is optional
        return None

    @njit(cache=True, nogil=True)
    def below_and_ties(ps, ns):  # pragma: no cover - compiled
        lo = 0
        hi = 0
        m = ns.shape[0]
        below = 0
        ties = 0
        for i in range(ps.shape[0]):
            v = ps[i]
            while lo < m and ns[lo] < v:
                lo += 1
            if hi < lo:
                hi = lo
            while hi < m and ns[hi] <= v:
                hi += 1
            below += lo
            ties += hi - lo
        return below, ties

    @njit(cache=True, nogil=True)
    def scan(y, s):  # pragma: no cover - compiled
        # min and max label, first non-finite score (or -1): one pass
        lo = y[0]
        hi = y[0]
        bad = -1
        for i in range(y.shape[0]):
            v = y[i]
            if v < lo:
                lo = v
            if v > hi:
                hi = v
            if bad < 0 and not np.isfinite(s[i]):
                bad = i
        return lo, hi, bad

    @njit(cache=True, nogil=True)
    def split(y, s, pos_value):  # pragma: no cover - compiled
        # scores of positives and of negatives, packed into one buffer from both ends
        n = y.shape[0]
        buf = np.empty(n, np.float64)
        p = 0
        q = n
        for i in range(n):
            if y[i] == pos_value:
                buf[p] = s[i]
                p += 1
            else:
                q -= 1
                buf[q] = s[i]
        return buf, p

    @njit(cache=True, nogil=True)
    def merge_desc(ps, ns):  # pragma: no cover - compiled
        # distinct scores of two ascending arrays, walked from the top, with the number of
        # positives / negatives at or above each one
        i = ps.shape[0] - 1
        j = ns.shape[0] - 1
        m = ps.shape[0] + ns.shape[0]
        thr = np.empty(m, np.float64)
        tps = np.empty(m, np.int64)
        fps = np.empty(m, np.int64)
        tp = 0
        fp = 0
        k = 0
        while i >= 0 or j >= 0:
            if j < 0 or (i >= 0 and ps[i] >= ns[j]):
                v = ps[i]
            else:
                v = ns[j]
            while i >= 0 and ps[i] == v:
                tp += 1
                i -= 1
            while j >= 0 and ns[j] == v:
                fp += 1
                j -= 1
            thr[k] = v
            tps[k] = tp
            fps[k] = fp
            k += 1
        return thr[:k].copy(), tps[:k].copy(), fps[:k].copy()

    return below_and_ties, scan, split, merge_desc


def _sort_pair(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort two arrays, in two threads when they are large (numpy's sort releases the GIL)."""
    if a.size + b.size < 1 << 21:
        return np.sort(a), np.sort(b)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as ex:
        fa = ex.submit(np.sort, a)
        sb = np.sort(b)
        return fa.result(), sb


def _sorted_halves_auc(below_and_ties: Any, buf: np.ndarray, n_pos: int) -> float:
    """AUC from a scratch buffer holding the positive scores first, then the negatives:
    both halves are sorted in place (two threads when large) and merged once."""
    ps = buf[:n_pos]
    ns = buf[n_pos:]
    if buf.shape[0] >= 1 << 21:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=1) as ex:
            done = ex.submit(ps.sort)
            ns.sort()
            done.result()
    else:
        ps.sort()
        ns.sort()
    below, ties = below_and_ties(ps, ns)
    n_neg = buf.shape[0] - n_pos
    return (2 * int(below) + int(ties)) / (2.0 * n_pos * n_neg)


def _fast_binary_auc(y_true: Any, y_score: Any) -> float | None:
    """Unweighted binary AUC of large numpy inputs in two compiled passes (scan, split) plus
    the sorts; None when the input needs the general path (which also reports errors)."""
    if not (isinstance(y_true, np.ndarray) and isinstance(y_score, np.ndarray)):
        return None
    if y_true.ndim != 1 or y_score.ndim != 1 or y_true.shape != y_score.shape:
        return None
    if y_true.shape[0] < 1 << 16 or y_true.dtype.kind not in "iu" or y_score.dtype != np.float64:
        return None
    kern = _rank_kernel()
    if kern is None:
        return None
    below_and_ties, scan, split, _ = kern
    y = np.ascontiguousarray(y_true)
    s = np.ascontiguousarray(y_score)
    lo, hi, bad = scan(y, s)
    if bad >= 0 or lo < 0 or hi > 1:  # labels other than {0, 1}: the door decides
        return None
    if hi == lo:
        return _undefined_auc()
    buf, n_pos = split(y, s, hi)
    return _sorted_halves_auc(below_and_ties, buf, int(n_pos))


def _mann_whitney_auc(pos: np.ndarray, score: np.ndarray) -> float:
    """Unweighted AUC = P(score_pos > score_neg) + P(tie) / 2, which equals the trapezoidal
    area under the empirical ROC curve (ties give the diagonal segments)."""
    n_pos = int(np.count_nonzero(pos))
    n_neg = pos.shape[0] - n_pos
    kern = _rank_kernel() if pos.shape[0] >= 4096 else None
    if kern is not None:
        buf = np.empty(pos.shape[0])
        buf[:n_pos] = score[pos]
        buf[n_pos:] = score[~pos]
        return _sorted_halves_auc(kern[0], buf, n_pos)
    ps, ns = _sort_pair(score[pos], score[~pos])
    left = np.searchsorted(ns, ps, side="left")
    right = np.searchsorted(ns, ps, side="right")
    twice_u = int(left.sum(dtype=np.int64)) + int(right.sum(dtype=np.int64))
    return twice_u / (2.0 * n_pos * n_neg)


def _area_with_max_fpr(fpr: np.ndarray, tpr: np.ndarray, max_fpr: float | None) -> float:
    """Area under a ROC curve; with ``max_fpr`` the standardized partial area (McClish 1989):
    ``0.5 * (1 + (A - m) / (M - m))`` with ``m = max_fpr**2 / 2`` and ``M = max_fpr``."""
    if max_fpr is None or max_fpr == 1:
        return _trapezoid(fpr, tpr)
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    y_at = np.interp(max_fpr, [fpr[stop - 1], fpr[stop]], [tpr[stop - 1], tpr[stop]])
    partial = _trapezoid(np.append(fpr[:stop], max_fpr), np.append(tpr[:stop], y_at))
    lo = 0.5 * max_fpr**2
    return 0.5 * (1 + (partial - lo) / (max_fpr - lo))


def _check_max_fpr(max_fpr: Any) -> float | None:
    if max_fpr is None:
        return None
    if isinstance(max_fpr, bool) or not isinstance(max_fpr, int | float | np.number):
        raise TypeError(f"max_fpr must be a number in (0, 1] or None, got {max_fpr!r}")
    if not 0 < max_fpr <= 1:
        raise ValueError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
    return float(max_fpr)


def _undefined_auc() -> float:
    warnings.warn(
        "Only one class is present in y_true. ROC AUC score is not defined in that case.",
        UndefinedMetricWarning,
        stacklevel=4,
    )
    return float("nan")


def _binary_auc(
    pos: np.ndarray, score: np.ndarray, weight: np.ndarray | None, max_fpr: float | None
) -> float:
    n_pos = int(np.count_nonzero(pos))
    if n_pos == 0 or n_pos == pos.shape[0]:
        return _undefined_auc()
    if weight is not None and (not weight[pos].any() or not weight[~pos].any()):
        return _undefined_auc()
    if weight is None and max_fpr in (None, 1):
        return _mann_whitney_auc(pos, score)
    thr, tps, fps = _cumulative_counts(pos, score, weight)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        fpr, tpr, _ = _roc_points(thr, tps.astype(np.float64), fps.astype(np.float64), True)
    return _area_with_max_fpr(fpr, tpr, max_fpr)


def _average_scores(
    scores: np.ndarray, average: str | None, support: np.ndarray
) -> float | np.ndarray:
    """Average per-class scores as scikit-learn does (weighted: zero-support classes count 0)."""
    if average is None:
        return scores
    if average == "macro":
        return float(np.mean(scores))
    if np.isclose(support.sum(), 0.0):
        return 0.0
    scores = np.where(support == 0, 0.0, scores)
    return float(np.average(scores, weights=support))


def _check_average(average: Any, allowed: Sequence[Any]) -> None:
    if average not in allowed:
        raise ValueError(f"average must be one of {list(allowed)}, got {average!r}")


def _check_probabilities(s: np.ndarray, name: str = "y_score") -> None:
    sums = s.sum(axis=1)
    bad = ~np.isclose(sums, 1.0, rtol=1e-5, atol=1e-8)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{name} rows must be probabilities summing to 1 for multi_class='ovr' or 'ovo'; "
            f"row {i} sums to {float(sums[i])!r}"
        )


def _class_columns(
    classes: list[Any], labels: Any, n_columns: int
) -> tuple[list[Any], dict[Any, int]]:
    """The label of each score column: ``labels`` (any order) or the sorted classes."""
    if labels is None:
        if len(classes) != n_columns:
            raise ValueError(
                f"y_true has {len(classes)} classes {classes} but y_score has {n_columns} "
                "columns; pass labels=[...] naming the class of each column"
            )
        cols = list(classes)
    else:
        cols = [py_scalar(v) for v in as_1d(labels, "labels").tolist()]
        if len(set(cols)) != len(cols):
            raise ValueError(f"labels must be unique, got {cols}")
        if len(cols) != n_columns:
            raise ValueError(
                f"labels has {len(cols)} entries but y_score has {n_columns} columns"
            )
        missing = [c for c in classes if c not in cols]
        if missing:
            raise ValueError(f"y_true contains labels not in labels: {missing}")
    return cols, {c: i for i, c in enumerate(cols)}


# ---------------------------------------------------------------------------------------------
# public: curves and areas
# ---------------------------------------------------------------------------------------------
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
    thr, tps, fps = _cumulative_counts(b.pos, b.score, b.weight)
    return _roc_points(thr, tps.astype(np.float64), fps.astype(np.float64), drop_intermediate)


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

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(4).tolist(), r.tolist(), t.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    thr, tps, fps = _cumulative_counts(b.pos, b.score, b.weight)
    return _pr_points(thr, tps, fps, drop_intermediate)


def _ap_from_counts(tps: np.ndarray, fps: np.ndarray, method: str) -> float:
    thr = np.zeros(tps.shape[0])
    precision, recall, _ = _pr_points(thr, tps, fps, False)
    if method == "step":
        return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))
    if method == "interpolated":
        # precision at recall r replaced by the best precision at any recall >= r
        best = np.maximum.accumulate(precision)
        return float(max(0.0, -np.sum(np.diff(recall) * best[:-1])))
    return float(max(0.0, -np.trapezoid(precision, recall)))


def _check_method(method: Any) -> APMethod:
    if method not in ("step", "interpolated", "trapezoid"):
        raise ValueError(
            f"method must be 'step', 'interpolated' or 'trapezoid', got {method!r}"
        )
    return method  # type: ignore[no-any-return]


def average_precision(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    pos_label: Any = None,
    sample_weight: Any = None,
    method: APMethod = "step",
) -> float | np.ndarray:
    """Average precision: the area under the precision-recall step function.

    .. math:: \\mathrm{AP} = \\sum_n (R_n - R_{n-1})\\, P_n

    over the thresholds in decreasing order (scikit-learn's ``average_precision_score``,
    which does not interpolate).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary labels, multiclass labels (with ``y_score`` of shape (n, K): one-vs-rest per
        class, columns in sorted label order) or a multilabel indicator matrix.
    y_score : array-like
        Scores of the positive class, or one column per class.
    average : {'macro', 'weighted', 'micro'} or None, default='macro'
        How per-class values are combined for multiclass / multilabel input.
    pos_label : label, optional
        Positive class of binary input (as in :func:`roc_curve`).
    sample_weight : array-like, optional
        Non-negative weights.
    method : {'step', 'interpolated', 'trapezoid'}, default='step'
        ``'step'`` is scikit-learn's AP. ``'interpolated'`` replaces each precision by the
        largest precision at equal or higher recall, :math:`P^{interp}_n = \\max_{m \\ge n} P_m`
        (the "all-point interpolated" AP of PASCAL VOC). ``'trapezoid'`` is the trapezoidal
        area ``auc(recall, precision)``, which is optimistic and given for comparison only.

    Examples
    --------
    >>> round(average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    method = _check_method(method)
    y_arr = y_true.to_numpy() if hasattr(y_true, "to_numpy") else np.asarray(y_true)
    if y_arr.ndim == 2:
        return _multilabel_average(y_true, y_score, average, sample_weight, "ap", method)
    classes, codes = encode_truth(y_true)
    s_arr = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if s_arr.ndim == 2 and (len(classes) > 2 or s_arr.shape[1] > 2):
        if pos_label not in (None, 1):
            raise ValueError(
                "pos_label applies to binary y_true only; for multiclass y_true each class "
                "is positive in turn"
            )
        _check_average(average, ("macro", "weighted", "micro", None))
        s = check_scores_2d(y_score, codes.shape[0])
        _class_columns(classes, None, s.shape[1])
        indicator = np.zeros(s.shape, dtype=bool)
        indicator[np.arange(codes.shape[0]), codes] = True
        return _average_columns(indicator, s, check_weights(sample_weight, codes.shape[0]),
                                average, "ap", method)
    y_score = _positive_column(classes, s_arr, y_score, None, pos_label)
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    _, tps, fps = _cumulative_counts(b.pos, b.score, b.weight)
    return _ap_from_counts(tps, fps, method)


def _multilabel_average(
    y_true: Any, y_score: Any, average: Any, sample_weight: Any, what: str, method: Any = None,
    max_fpr: float | None = None,
) -> float | np.ndarray:
    _check_average(average, ("macro", "weighted", "micro", None))
    y = y_true.to_numpy() if hasattr(y_true, "to_numpy") else np.asarray(y_true)
    if y.dtype.kind not in "iub" or not np.isin(y, (0, 1)).all():
        raise ValueError("a 2-D y_true must be a multilabel indicator matrix of 0/1 values")
    s = check_scores_2d(y_score, y.shape[0])
    if s.shape != y.shape:
        raise ValueError(f"y_true has shape {y.shape} but y_score has shape {s.shape}")
    w = check_weights(sample_weight, y.shape[0])
    return _average_columns(y.astype(bool), s, w, average, what, method, max_fpr)


def _average_columns(
    indicator: np.ndarray,
    s: np.ndarray,
    w: np.ndarray | None,
    average: str | None,
    what: str,
    method: Any = None,
    max_fpr: float | None = None,
) -> float | np.ndarray:
    """One-vs-rest score per column, averaged (shared by ovr AUC, multilabel AUC and AP)."""

    def score(pos: np.ndarray, sc: np.ndarray, ww: np.ndarray | None) -> float:
        if what == "auc":
            return _binary_auc(pos, sc, ww, max_fpr)
        _, tps, fps = _cumulative_counts(pos, sc, ww)
        return _ap_from_counts(tps, fps, method)

    if average == "micro":
        ww = None if w is None else np.repeat(w, s.shape[1])
        return score(indicator.ravel(), s.ravel(), ww)
    k = s.shape[1]
    per_class = np.array([score(indicator[:, j], s[:, j], w) for j in range(k)])
    if w is None:
        support = indicator.sum(axis=0).astype(np.float64)
    else:
        support = (indicator * w[:, None]).sum(axis=0)
    return _average_scores(per_class, average, support)


def roc_auc(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    multi_class: Literal["raise", "ovr", "ovo"] = "raise",
    labels: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    max_fpr: float | None = None,
) -> float | np.ndarray:
    """Area under the ROC curve, equal to :func:`sklearn.metrics.roc_auc_score`.

    Binary: the probability that a random positive scores higher than a random negative,
    ties counting one half,

    .. math:: \\mathrm{AUC} = \\frac{1}{PN} \\sum_{i \\in pos} \\sum_{j \\in neg}
              \\left([s_i > s_j] + \\tfrac12 [s_i = s_j]\\right),

    which is the trapezoidal area under :func:`roc_curve`. Unweighted binary input uses this
    rank form: two sorts and one linear merge. With ``max_fpr`` the partial area up to that
    false positive rate is standardized by McClish's correction
    :math:`\\tfrac12\\left(1 + \\frac{A - m}{M - m}\\right)`, :math:`m = \\mathrm{max\\_fpr}^2/2`,
    :math:`M = \\mathrm{max\\_fpr}`.

    Multiclass (``y_score`` of shape (n, K) whose rows sum to 1): ``multi_class='ovr'`` scores
    each class against the rest (``average`` 'macro', 'weighted' by support, 'micro' on the
    raveled indicator, or None for the per-class array); ``'ovo'`` is Hand & Till's mean over
    class pairs of the two one-vs-one AUCs ('macro' or 'weighted' by pair prevalence).
    The positive class of binary input follows confmat's one rule
    (:func:`confmat.inputs.targets.resolve_pos_label`): 1 (True) for labels within {0, 1},
    {-1, 1} or {False, True}, otherwise ``pos_label`` must be given. ``y_score`` of shape
    (n, 2) is accepted for binary input (the positive class's column; columns follow
    ``labels``, by default the sorted classes). A 2-D 0/1 ``y_true`` is a
    multilabel indicator matrix, averaged like 'ovr'.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary or multiclass labels, or a multilabel indicator matrix.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores of the positive class, or one column per class.
    average : {'macro', 'weighted', 'micro'} or None, default='macro'
        How per-class values of multiclass / multilabel input are combined.
    multi_class : {'raise', 'ovr', 'ovo'}, default='raise'
        Multiclass strategy (see above).
    labels : array-like, optional
        The class of each ``y_score`` column for 2-D scores (any order; by default the
        sorted classes of ``y_true``).
    pos_label : label, optional
        The positive class of binary input; must occur in ``y_true``.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    max_fpr : float in (0, 1], optional
        Standardized partial AUC up to this false positive rate (binary only).

    Returns
    -------
    float or ndarray
        NaN with an :class:`UndefinedMetricWarning` when ``y_true`` has one class only.

    Examples
    --------
    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    max_fpr = _check_max_fpr(max_fpr)
    if multi_class not in ("raise", "ovr", "ovo"):
        raise ValueError(f"multi_class must be 'raise', 'ovr' or 'ovo', got {multi_class!r}")
    if sample_weight is None and labels is None and pos_label is None and max_fpr in (None, 1):
        fast = _fast_binary_auc(y_true, y_score)
        if fast is not None:
            return fast
    y_arr = y_true.to_numpy() if hasattr(y_true, "to_numpy") else np.asarray(y_true)
    if y_arr.ndim == 2 and y_arr.shape[1] > 1:
        if pos_label is not None:
            raise ValueError("pos_label applies to binary y_true only, not to a multilabel "
                             "indicator matrix")
        return _multilabel_average(y_true, y_score, average, sample_weight, "auc", None, max_fpr)
    classes, codes = encode_truth(y_true)
    n = codes.shape[0]
    s_arr = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if len(classes) > 2 or (s_arr.ndim == 2 and s_arr.shape[1] > 2):
        s = check_scores_2d(y_score, n)
        if max_fpr is not None and max_fpr != 1:
            raise ValueError(
                "max_fpr (partial AUC) is only available for binary y_true; "
                f"got max_fpr={max_fpr} with {len(classes)} classes"
            )
        if multi_class == "raise":
            raise ValueError(
                f"y_true has {len(classes)} classes: set multi_class='ovr' or 'ovo'"
            )
        if pos_label is not None:
            raise ValueError(
                "pos_label applies to binary y_true only; for multiclass y_true each class "
                "is positive in turn"
            )
        return _multiclass_auc(classes, codes, s, labels, multi_class, average, sample_weight)
    y_score = _positive_column(classes, s_arr, y_score, labels, pos_label)
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    if len(classes) < 2:
        return _undefined_auc()
    return _binary_auc(b.pos, b.score, b.weight, max_fpr)


def _positive_column(classes: list[Any], s_arr: np.ndarray, y_score: Any, labels: Any,
                     pos_label: Any) -> Any:
    """The positive class's scores of binary input: ``y_score`` itself when 1-D, else the
    column of the positive class in a (n, 2) matrix whose columns follow ``labels`` (default:
    the sorted classes)."""
    if s_arr.ndim != 2:
        if labels is not None:
            raise ValueError(
                "labels names the columns of a 2-D y_score; for 1-D binary scores say which "
                "class they score with pos_label"
            )
        return y_score
    if s_arr.shape[1] != 2:
        raise ValueError(f"y_score for binary y_true must be 1-D or (n, 2), got shape {s_arr.shape}")
    pos = resolve_pos_label(classes, pos_label)
    cols = classes
    if labels is not None:
        cols = [py_scalar(v) for v in as_1d(labels, "labels").tolist()]
        if len(cols) != 2 or not set(classes) <= set(cols):
            raise ValueError(f"labels must name the two classes {classes}, got {cols}")
    return s_arr[:, cols.index(pos) if len(cols) == 2 and pos in cols else 1]


def _multiclass_auc(
    classes: list[Any],
    codes: np.ndarray,
    s: np.ndarray,
    labels: Any,
    multi_class: str,
    average: Any,
    sample_weight: Any,
) -> float | np.ndarray:
    _check_probabilities(s)
    if multi_class == "ovr":
        _check_average(average, ("macro", "weighted", "micro", None))
    else:
        _check_average(average, ("macro", "weighted"))
    _, index = _class_columns(classes, labels, s.shape[1])
    col_of = np.array([index[c] for c in classes], dtype=np.int64)[codes]
    n = codes.shape[0]
    if multi_class == "ovr":
        w = check_weights(sample_weight, n)
        indicator = np.zeros(s.shape, dtype=bool)
        indicator[np.arange(n), col_of] = True
        return _average_columns(indicator, s, w, average, "auc")
    if sample_weight is not None:
        raise ValueError("sample_weight is not supported for multi_class='ovo' (as in scikit-learn)")
    present = sorted(set(col_of.tolist()))
    pair_scores = []
    prevalence = []
    for a, b in combinations(present, 2):
        a_mask = col_of == a
        b_mask = col_of == b
        ab = a_mask | b_mask
        auc_a = _binary_auc(a_mask[ab], s[ab, a], None, None)
        auc_b = _binary_auc(b_mask[ab], s[ab, b], None, None)
        pair_scores.append((auc_a + auc_b) / 2)
        prevalence.append(ab.mean())
    if not pair_scores:
        return _undefined_auc()
    return float(np.average(pair_scores, weights=prevalence if average == "weighted" else None))


# ---------------------------------------------------------------------------------------------
# curve objects: one-vs-rest curves (paper's Figure 7) and model comparison (book's Fig. 11-3)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ROCCurve:
    """One ROC curve: false/true positive rates at decreasing thresholds, and its area."""

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    auc: float
    label: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": py_scalar(self.label),
            "auc": self.auc,
            "fpr": self.fpr.tolist(),
            "tpr": self.tpr.tolist(),
            "thresholds": [None if not np.isfinite(t) else float(t) for t in self.thresholds],
        }


@dataclass(frozen=True)
class PRCurve:
    """One precision-recall curve (scikit-learn's layout) and its average precision."""

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray
    average_precision: float
    label: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": py_scalar(self.label),
            "average_precision": self.average_precision,
            "precision": self.precision.tolist(),
            "recall": self.recall.tolist(),
            "thresholds": self.thresholds.tolist(),
        }


@dataclass(frozen=True)
class OneVsRestROC:
    """ROC curves of every class against the rest, plus micro- and macro-averaged curves.

    ``micro`` pools every (sample, class) pair of the binarized problem into one curve.
    ``macro`` averages the per-class TPRs on the union of their FPR grids (linear
    interpolation); its ``auc`` is the area of that averaged curve, which differs slightly
    from the macro mean of the per-class AUCs (``mean_auc``).
    """

    labels: list[Any]
    curves: dict[Any, ROCCurve]
    micro: ROCCurve
    macro: ROCCurve

    @property
    def aucs(self) -> dict[Any, float]:
        return {k: c.auc for k, c in self.curves.items()}

    @property
    def mean_auc(self) -> float:
        return float(np.mean(list(self.aucs.values())))

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": [py_scalar(v) for v in self.labels],
            "curves": [c.to_dict() for c in self.curves.values()],
            "micro": self.micro.to_dict(),
            "macro": self.macro.to_dict(),
        }


def _roc_object(pos, score, weight, label, drop_intermediate) -> ROCCurve:
    thr, tps, fps = _cumulative_counts(pos, score, weight)
    fpr, tpr, thresholds = _roc_points(
        thr, tps.astype(np.float64), fps.astype(np.float64), drop_intermediate
    )
    return ROCCurve(fpr, tpr, thresholds, _trapezoid(fpr, tpr), label)


def roc_curve_ovr(
    y_true: Any,
    y_score: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> OneVsRestROC:
    """One-vs-rest ROC curves for every class (seed 000's Figure 7) with micro and macro
    averages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples, n_classes)
        One score column per class; the columns follow ``labels`` (default: sorted classes).

    Examples
    --------
    >>> ovr = roc_curve_ovr([0, 1, 2, 2], [[.8, .1, .1], [.2, .3, .5], [.1, .2, .7],
    ...                                    [.3, .4, .3]])
    >>> [round(a, 3) for a in ovr.aucs.values()]
    [1.0, 0.667, 0.75]
    """
    classes, codes = encode_truth(y_true)
    s = check_scores_2d(y_score, codes.shape[0])
    cols, index = _class_columns(classes, labels, s.shape[1])
    w = check_weights(sample_weight, codes.shape[0])
    col_of = np.array([index[c] for c in classes], dtype=np.int64)[codes]
    indicator = np.zeros(s.shape, dtype=bool)
    indicator[np.arange(codes.shape[0]), col_of] = True
    curves = {
        c: _roc_object(indicator[:, j], s[:, j], w, c, drop_intermediate)
        for j, c in enumerate(cols)
    }
    ww = None if w is None else np.repeat(w, s.shape[1])
    micro = _roc_object(indicator.ravel(), s.ravel(), ww, "micro", drop_intermediate)
    grid = np.unique(np.concatenate([c.fpr for c in curves.values()]))
    mean_tpr = np.mean([np.interp(grid, c.fpr, c.tpr) for c in curves.values()], axis=0)
    macro = ROCCurve(grid, mean_tpr, np.array([]), _trapezoid(grid, mean_tpr), "macro")
    return OneVsRestROC(cols, curves, micro, macro)


def roc_pr_curves(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
    label: Any = None,
) -> tuple[ROCCurve, PRCurve]:
    """The ROC curve and the precision-recall curve of one binary scorer, from one sort.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (the positive class follows confmat's one ``pos_label`` rule).
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    pos_label : label, optional
        The positive class; must occur in ``y_true``.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    drop_intermediate : bool, default=True
        Drop collinear ROC points (as :func:`roc_curve`).
    label : any, optional
        Name stored in both curves (e.g. the model's name).

    Returns
    -------
    (ROCCurve, PRCurve)
        With their areas: ROC AUC (trapezoidal) and average precision (step).

    Raises
    ------
    ValueError, TypeError
        Invalid labels, scores, weights or ``pos_label`` (see :func:`roc_curve`).

    Examples
    --------
    >>> roc, pr = roc_pr_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], label="a")
    >>> roc.auc, round(pr.average_precision, 4)
    (0.75, 0.8333)
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    thr, tps, fps = _cumulative_counts(b.pos, b.score, b.weight)
    fpr, tpr, t = _roc_points(thr, tps.astype(np.float64), fps.astype(np.float64),
                              drop_intermediate)
    p, r, tt = _pr_points(thr, tps, fps, False)
    ap = float(max(0.0, -np.sum(np.diff(r) * p[:-1])))
    return ROCCurve(fpr, tpr, t, _trapezoid(fpr, tpr), label), PRCurve(p, r, tt, ap, label)


# ---------------------------------------------------------------------------------------------
# threshold sweeps
# ---------------------------------------------------------------------------------------------
class ThresholdSweep:
    """Confusion matrices of a binary scorer at many thresholds, from one sort.

    Decision rule: predicted positive when ``score >= threshold``. ``tables[i]`` is the 2 x 2
    table at ``thresholds[i]`` with rows = true class and columns = predicted class, both in
    the order ``labels = [negative, positive]``: ``[[TN, FP], [FN, TP]]``.

    Every registry metric is evaluated on the whole ``(T, 2, 2)`` stack at once.
    """

    def __init__(
        self,
        thresholds: np.ndarray,
        grid: np.ndarray,
        tps: np.ndarray,
        fps: np.ndarray,
        n_pos: float,
        n_neg: float,
        labels: list[Any],
        *,
        check: Any = None,
    ) -> None:
        # grid: decreasing thresholds with cumulative counts at or above each one
        self._grid = grid
        self._tps = tps
        self._fps = fps
        self._n_pos = n_pos
        self._n_neg = n_neg
        self._check = check
        self.labels = list(labels)
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        if thresholds is grid:  # the distinct scores themselves: no lookup needed
            tp, fp = tps, fps
        else:
            tp, fp = self._lookup(self.thresholds)
        self.tp, self.fp = tp, fp
        self.fn = n_pos - tp
        self.tn = n_neg - fp

    def _lookup(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self._check is not None:
            self._check(t)
        asc = self._grid[::-1]
        k = asc.shape[0] - np.searchsorted(asc, t, side="left")  # grid values >= t
        zero = np.zeros(1, dtype=self._tps.dtype)
        tps = np.concatenate([zero, self._tps])
        fps = np.concatenate([zero, self._fps])
        return tps[k], fps[k]

    def __len__(self) -> int:
        return self.thresholds.shape[0]

    def __repr__(self) -> str:
        return (
            f"ThresholdSweep({len(self)} thresholds, labels={self.labels}, "
            "rule: score >= threshold)"
        )

    @property
    def tables(self) -> np.ndarray:
        """``(T, 2, 2)`` stack ``[[TN, FP], [FN, TP]]`` (rows true, columns predicted)."""
        return np.stack([np.stack([self.tn, self.fp], -1), np.stack([self.fn, self.tp], -1)], -2)

    def metric(
        self,
        name: str,
        average: str | None = None,
        *,
        zero_division: Any = "warn",
        **params: Any,
    ) -> np.ndarray:
        """A registry metric at every threshold, shape ``(T,)``.

        Per-class metrics give the positive class's value unless ``average`` is set
        ('micro', 'macro' or 'weighted' over the two classes); overall metrics (accuracy,
        MCC, kappa, ...) are computed on each table.
        """
        spec = get_metric(name)
        per_class = spec.kind == "per_class" and average is None
        # metrics of one-vs-rest counts can be computed for the positive class alone; those
        # that read the whole table (uses_table) get the full statistics
        positive_only = per_class and not getattr(spec, "uses_table", False)
        out = evaluate(spec.name, self._stats(zero_division, positive_only), average, **params)
        if per_class:
            out = out[..., 0] if positive_only else out[..., 1]
        return np.asarray(out, dtype=np.float64)

    def _stats(self, zero_division: Any, positive_only: bool) -> Stats:
        """Statistics of the whole stack, built once per ``zero_division`` from the four count
        vectors (no reductions over the tiny 2 x 2 axes). With ``positive_only`` the per-class
        counts hold the positive class alone, so per-class metrics do half the work."""
        key = (repr(zero_division), positive_only)
        cache = self.__dict__.setdefault("_stats_cache", {})
        if key in cache:
            return cache[key]
        # float64 once here, rather than a conversion inside every metric
        tn, fp, fn, tp = (np.asarray(v, dtype=np.float64) for v in (self.tn, self.fp, self.fn, self.tp))
        # class axes stored first and viewed last: reductions over the 2 x 2 axes then add
        # whole contiguous rows of T values instead of striding through tiny blocks
        classes_first = np.stack([np.stack([tn, fp]), np.stack([fn, tp])])
        st = Stats(np.moveaxis(classes_first, (0, 1), (-2, -1)), zero_division=zero_division)
        d = st.__dict__  # prime the cached properties of Stats with the known values
        d["counts"] = st.table
        d["tp"] = np.stack([tn, tp]).T
        d["fp"] = np.stack([fn, fp]).T
        d["fn"] = np.stack([fp, fn]).T
        d["tn"] = np.stack([tp, tn]).T
        d["support"] = d["rows"] = np.stack([tn + fp, fn + tp]).T
        d["predicted"] = d["cols"] = np.stack([tn + fn, fp + tp]).T
        d["n_all"] = d["n"] = tn + fp + fn + tp
        d["correct"] = tn + tp
        if positive_only:
            d["per_class"] = ClassCounts(tp[:, None], fp[:, None], fn[:, None], tn[:, None], st.div)
        cache[key] = st
        return st

    def at(self, threshold: float) -> ConfusionMatrix:
        """The confusion matrix at any threshold (``score >= threshold`` is positive)."""
        t = float(threshold)
        if np.isnan(t):
            raise ValueError("threshold must not be NaN")
        tp, fp = self._lookup(np.array([t]))
        table = np.array([[self._n_neg - fp[0], fp[0]], [self._n_pos - tp[0], tp[0]]])
        return ConfusionMatrix(table, labels=self.labels)

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": [py_scalar(v) for v in self.labels],
            "rule": "score >= threshold",
            "thresholds": self.thresholds.tolist(),
            "tp": self.tp.tolist(),
            "fp": self.fp.tolist(),
            "fn": self.fn.tolist(),
            "tn": self.tn.tolist(),
        }


def _check_thresholds(thresholds: Any) -> np.ndarray:
    t = numeric_1d(thresholds, "thresholds")
    if t.dtype.kind not in "iuf":
        raise TypeError(f"thresholds must be numbers, got dtype {t.dtype}")
    t = t.astype(np.float64)
    if t.size == 0:
        raise ValueError("thresholds must not be empty")
    if np.isnan(t).any():
        raise ValueError("thresholds contains NaN")
    return t


def threshold_sweep(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    thresholds: Any = None,
    sample_weight: Any = None,
) -> ThresholdSweep:
    """Confusion matrices at every threshold, from one sort of the scores.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`roc_curve`.
    thresholds : array-like, optional
        Thresholds to evaluate, kept in the given order (e.g. seed 002's table
        ``[0.9, 0.8, ..., 0.1]``). By default the distinct scores in decreasing order.

    Returns
    -------
    ThresholdSweep
        ``.thresholds``, ``.metric(name)`` (any registry metric at every threshold),
        ``.at(threshold)`` (a :class:`ConfusionMatrix`), ``.tables`` (T, 2, 2).

    Notes
    -----
    The decision rule is ``score >= threshold``: at threshold :math:`\\theta`,
    :math:`TP(\\theta) = \\sum_i w_i [y_i = pos][s_i \\ge \\theta]` and likewise for FP; FN and
    TN are the complements.

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], thresholds=[0.5, 0.3])
    >>> sw.metric("recall").tolist(), sw.metric("precision").round(3).tolist()
    ([0.5, 1.0], [1.0, 0.667])
    >>> sw.at(0.3).counts.tolist()
    [[1, 1], [0, 2]]
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    grid, tps, fps = _cumulative_counts(b.pos, b.score, b.weight)
    t = grid if thresholds is None else _check_thresholds(thresholds)
    return ThresholdSweep(t, grid, tps, fps, tps[-1], fps[-1], [b.neg_label, b.pos_label])


# ---------------------------------------------------------------------------------------------
# threshold choice
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ThresholdChoice:
    """The chosen threshold, the criterion's value there and the confusion matrix there
    (decision rule ``score >= threshold``; ``inf`` means "predict nothing positive")."""

    threshold: float
    criterion: str
    value: float
    confusion_matrix: ConfusionMatrix
    details: dict[str, Any] = field(default_factory=dict)


_CRITERIA = ("youden", "mcc", "f1", "fbeta", "cost", "recall", "precision")


def best_threshold(
    y_true: Any,
    y_score: Any,
    criterion: str = "youden",
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    beta: float = 1.0,
    cost_matrix: Any = None,
    target: float | None = None,
) -> ThresholdChoice:
    """Choose a threshold from the data (decision rule ``score >= threshold``).

    Candidates are ``+inf`` (predict nothing positive) and every distinct score.

    Parameters
    ----------
    criterion : str, default='youden'
        - ``'youden'``: maximize Youden's :math:`J = TPR - FPR` (informedness).
        - ``'mcc'``: maximize the Matthews correlation coefficient.
        - ``'f1'`` / ``'fbeta'``: maximize :math:`F_\\beta` (``beta``, default 1).
        - ``'cost'``: minimize the expected cost per sample
          :math:`\\frac{1}{n}\\sum_{ij} C_{ij} M_{ij}(\\theta)` for ``cost_matrix`` ``C``
          (rows true, columns predicted, order ``[negative, positive]``; e.g. seed 002's
          cancer screening, where a missed cancer costs more than a false alarm:
          ``[[0, 1], [20, 0]]``).
        - ``'recall'``: the highest threshold whose recall is at least ``target``.
        - ``'precision'``: among thresholds whose precision is at least ``target``, the one
          with the highest recall (the highest such threshold on ties).
        - any other registry metric name: maximized when higher is better, else minimized.

        Ties are broken towards the highest threshold.

    Returns
    -------
    ThresholdChoice

    Examples
    --------
    >>> c = best_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], "youden")
    >>> c.threshold, c.value
    (0.8, 0.5)
    """
    if not isinstance(criterion, str):
        raise TypeError(f"criterion must be a string, got {type(criterion).__name__}")
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    grid, tps, fps = _cumulative_counts(b.pos, b.score, b.weight)
    cand = np.concatenate([[np.inf], grid])
    sweep = ThresholdSweep(cand, grid, tps, fps, tps[-1], fps[-1], [b.neg_label, b.pos_label])
    crit = criterion.strip().lower()
    details: dict[str, Any] = {}
    if crit in ("recall", "precision"):
        if target is None or isinstance(target, bool) or not 0 <= float(target) <= 1:
            raise ValueError(f"criterion={crit!r} needs target= a number in [0, 1], got {target!r}")
        details["target"] = float(target)
        values = sweep.metric(crit, zero_division="nan")
        ok = np.flatnonzero(values >= float(target))
        if ok.size == 0:
            best = np.nanmax(values) if not np.isnan(values).all() else float("nan")
            raise ValueError(f"no threshold reaches {crit} >= {target}; the best is {best}")
        if crit == "recall":
            i = int(ok[0])
        else:
            rec = sweep.metric("recall", zero_division=0)[ok]
            i = int(ok[int(np.argmax(rec))])
    elif crit == "cost":
        if cost_matrix is None:
            raise ValueError("criterion='cost' needs cost_matrix=[[C_TN, C_FP], [C_FN, C_TP]]")
        c = np.asarray(cost_matrix, dtype=np.float64)
        if c.shape != (2, 2) or not np.isfinite(c).all():
            raise ValueError(
                f"cost_matrix must be a finite 2 x 2 array (rows true, columns predicted, "
                f"order [negative, positive]), got shape {c.shape}"
            )
        details["cost_matrix"] = c.tolist()
        values = (sweep.tables * c).sum(axis=(-2, -1)) / (tps[-1] + fps[-1])
        i = int(np.argmin(values))
    else:
        params: dict[str, Any] = {}
        name = {"youden": "informedness", "f1": "fbeta", "fbeta": "fbeta"}.get(crit, crit)
        spec = get_metric(name)
        if spec.name == "fbeta":
            params["beta"] = float(beta) if crit != "f1" else 1.0
            details["beta"] = params["beta"]
        values = sweep.metric(spec.name, zero_division="nan", **params)
        if np.isnan(values).all():
            raise ValueError(f"{spec.name} is undefined at every threshold")
        higher = spec.higher_is_better is not False
        i = int(np.nanargmax(values) if higher else np.nanargmin(values))
    thr = float(cand[i])
    return ThresholdChoice(thr, crit, float(values[i]), sweep.at(thr), details)
