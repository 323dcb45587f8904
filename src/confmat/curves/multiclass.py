"""Multiclass and multilabel scores: one-vs-rest and one-vs-one averaging of binary AUCs and
average precisions, and the one-vs-rest ROC curves of :func:`roc_curve_ovr`."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..inputs.kinds import py_scalar
from ..inputs.probabilities import check_rows_sum_to_one
from ..inputs.score_columns import class_columns
from ..inputs.score_shape import check_score_length
from ..inputs.targets import check_scores_2d, check_weights, encode_truth
from .common import (
    average_scores,
    check_average,
    trapezoid_area,
    undefined_auc,
)
from .precision_recall import ap_from_counts
from .rank import cumulative_counts
from .roc import ROCCurve, binary_auc, roc_points


def multilabel_average(
    y_true: Any, y_score: Any, average: Any, sample_weight: Any, what: str, method: Any = None,
    max_fpr: float | None = None,
) -> float | np.ndarray:
    """One-vs-rest score (``what`` ``"auc"`` or ``"ap"``) of a multilabel indicator matrix.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        Indicator matrix of 0/1 (or bool) values.
    y_score : array-like of shape (n_samples, n_labels)
        One score column per label.
    average : {'macro', 'weighted', 'micro'} or None
        How the per-label scores are averaged (see :func:`average_columns`).
    sample_weight : array-like of shape (n_samples,) or None
        Non-negative weights.
    what : {'auc', 'ap'}
        ROC AUC or average precision.
    method : {'step', 'interpolated', 'trapezoid'}, optional
        The average precision method (``what="ap"``).
    max_fpr : float, optional
        Partial ROC AUC up to this false positive rate (``what="auc"``).

    Returns
    -------
    float or ndarray
        The average, or the per-label scores for ``average=None``.

    Raises
    ------
    ValueError
        An unknown ``average``, a ``y_true`` that is not a 0/1 matrix, shapes that differ, or
        invalid scores or weights.

    Examples
    --------
    >>> y = np.array([[1, 0], [0, 1], [1, 1], [0, 0]])
    >>> s = np.array([[0.9, 0.2], [0.3, 0.8], [0.6, 0.4], [0.1, 0.5]])
    >>> multilabel_average(y, s, None, None, "auc").tolist()
    [1.0, 0.75]
    """
    check_average(average, ("macro", "weighted", "micro", None))
    y = y_true.to_numpy() if hasattr(y_true, "to_numpy") else np.asarray(y_true)
    if y.dtype.kind not in "iub" or not np.isin(y, (0, 1)).all():
        raise ValueError("a 2-D y_true must be a multilabel indicator matrix of 0/1 values")
    s = check_scores_2d(y_score, y.shape[0])
    if s.shape != y.shape:
        raise ValueError(f"y_true has shape {y.shape} but y_score has shape {s.shape}")
    w = check_weights(sample_weight, y.shape[0])
    return average_columns(y.astype(bool), s, w, average, what, method, max_fpr)


def average_columns(
    indicator: np.ndarray,
    s: np.ndarray,
    w: np.ndarray | None,
    average: str | None,
    what: str,
    method: Any = None,
    max_fpr: float | None = None,
) -> float | np.ndarray:
    """One-vs-rest score per column, averaged (shared by ovr AUC, multilabel AUC and AP).

    Parameters
    ----------
    indicator : ndarray of bool, shape (n_samples, n_columns)
        Which samples are positive for each column.
    s : ndarray of float64, shape (n_samples, n_columns)
        Scores, validated.
    w : ndarray of float64 or None
        Sample weights, validated.
    average : {'macro', 'weighted', 'micro'} or None
        ``'micro'`` scores every (sample, column) pair as one binary problem; ``'macro'`` the
        plain mean of the columns; ``'weighted'`` the mean weighted by each column's positives
        (see :func:`average_scores`); None the per-column scores.
    what : {'auc', 'ap'}
        ROC AUC or average precision.
    method : {'step', 'interpolated', 'trapezoid'}, optional
        The average precision method.
    max_fpr : float, optional
        Partial ROC AUC up to this false positive rate.

    Returns
    -------
    float or ndarray
    """

    def score(pos: np.ndarray, sc: np.ndarray, ww: np.ndarray | None) -> float:
        if what == "auc":
            return binary_auc(pos, sc, ww, max_fpr)
        _, tps, fps = cumulative_counts(pos, sc, ww)
        return ap_from_counts(tps, fps, method)

    if average == "micro":
        ww = None if w is None else np.repeat(w, s.shape[1])
        return score(indicator.ravel(), s.ravel(), ww)
    k = s.shape[1]
    per_class = np.array([score(indicator[:, j], s[:, j], w) for j in range(k)])
    if w is None:
        support = indicator.sum(axis=0).astype(np.float64)
    else:
        support = (indicator * w[:, None]).sum(axis=0)
    return average_scores(per_class, average, support)




def multiclass_auc(
    classes: list[Any],
    codes: np.ndarray,
    s: np.ndarray,
    labels: Any,
    multi_class: str,
    average: Any,
    sample_weight: Any,
) -> float | np.ndarray:
    """Multiclass ROC AUC: one-vs-rest (``average``) or Hand & Till's one-vs-one mean
    (Hand and Till 2001).

    Parameters
    ----------
    classes : list
        The sorted classes of ``y_true``.
    codes : ndarray of int64
        Each sample's index into ``classes``.
    s : ndarray of float64, shape (n_samples, n_classes)
        Probabilities (each row sums to 1).
    labels : array-like or None
        The class of each score column (default: the sorted classes).
    multi_class : {'ovr', 'ovo'}
        One-vs-rest or one-vs-one.
    average : {'macro', 'weighted', 'micro'} or None
        For ``'ovr'`` any of them (see :func:`average_columns`); for ``'ovo'`` ``'macro'``
        or ``'weighted'`` (pairs weighted by their share of the samples).
    sample_weight : array-like of shape (n_samples,) or None
        Non-negative weights (``'ovr'`` only).

    Returns
    -------
    float or ndarray
        NaN (with a warning) when no pair of classes is present for ``'ovo'``.

    Raises
    ------
    ValueError
        Rows that are not probabilities, an ``average`` the method does not take, score
        columns that do not match the classes, or ``sample_weight`` with ``'ovo'``.

    Examples
    --------
    >>> s = np.array([[.8, .1, .1], [.2, .3, .5], [.1, .2, .7], [.3, .4, .3]])
    >>> round(multiclass_auc([0, 1, 2], np.array([0, 1, 2, 2]), s, None, "ovo", "macro", None), 4)
    0.8333
    """
    check_rows_sum_to_one(s, "y_score", "multi_class='ovr' or 'ovo'")
    if multi_class == "ovr":
        check_average(average, ("macro", "weighted", "micro", None))
    else:
        check_average(average, ("macro", "weighted"))
    _, index = class_columns(classes, labels, s.shape[1])
    col_of = np.array([index[c] for c in classes], dtype=np.int64)[codes]
    n = codes.shape[0]
    if multi_class == "ovr":
        w = check_weights(sample_weight, n)
        indicator = np.zeros(s.shape, dtype=bool)
        indicator[np.arange(n), col_of] = True
        return average_columns(indicator, s, w, average, "auc")
    if sample_weight is not None:
        raise ValueError("sample_weight is not supported for multi_class='ovo' (as in scikit-learn)")
    present = sorted(set(col_of.tolist()))
    pair_scores = []
    prevalence = []
    for a, b in combinations(present, 2):
        a_mask = col_of == a
        b_mask = col_of == b
        ab = a_mask | b_mask
        auc_a = binary_auc(a_mask[ab], s[ab, a], None, None)
        auc_b = binary_auc(b_mask[ab], s[ab, b], None, None)
        pair_scores.append((auc_a + auc_b) / 2)
        prevalence.append(ab.mean())
    if not pair_scores:
        return undefined_auc()
    return float(np.average(pair_scores, weights=prevalence if average == "weighted" else None))




@dataclass(frozen=True)
class OneVsRestROC:
    """ROC curves of every class against the rest, plus micro- and macro-averaged curves.

    ``micro`` pools every (sample, class) pair of the binarized problem into one curve.
    ``macro`` averages the per-class TPRs on the union of their FPR grids (linear
    interpolation); its ``auc`` is the area of that averaged curve, which differs slightly
    from the macro mean of the per-class AUCs (``mean_auc``).

    Parameters
    ----------
    labels : list
        The classes, in score-column order.
    curves : dict
        ``class -> ROCCurve`` of that class against the rest.
    micro, macro : ROCCurve
        The averaged curves.

    Examples
    --------
    >>> ovr = roc_curve_ovr([0, 1, 2, 2], [[.8, .1, .1], [.2, .3, .5], [.1, .2, .7],
    ...                                    [.3, .4, .3]])
    >>> ovr.labels, ovr.micro.label, round(ovr.mean_auc, 4)
    ([0, 1, 2], 'micro', 0.8056)
    """

    labels: list[Any]
    curves: dict[Any, ROCCurve]
    micro: ROCCurve
    macro: ROCCurve

    @property
    def aucs(self) -> dict[Any, float]:
        """ROC AUC of every class against the rest: ``class -> area`` (a fraction in [0, 1])."""
        return {k: c.auc for k, c in self.curves.items()}

    @property
    def mean_auc(self) -> float:
        """Unweighted mean of :attr:`aucs` (the macro one-vs-rest AUC of
        :func:`confmat.roc_auc`), a fraction in [0, 1]."""
        return float(np.mean(list(self.aucs.values())))

    @property
    def micro_auc(self) -> float:
        """Area under the micro-averaged curve: scikit-learn's
        ``roc_auc_score(average='micro', multi_class='ovr')``."""
        return float(self.micro.auc)

    @property
    def macro_auc(self) -> float:
        """Mean of the per-class areas (:attr:`mean_auc`): scikit-learn's
        ``roc_auc_score(average='macro', multi_class='ovr')``; the area under the averaged
        curve :attr:`macro` is close to it but not equal."""
        return self.mean_auc

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict
            Keys ``labels``, ``curves`` (one dict per class, see :meth:`ROCCurve.to_dict`),
            ``micro`` and ``macro`` (the averaged curves), ``micro_auc`` and ``macro_auc``.

        Examples
        --------
        >>> roc_curve_ovr([0, 1, 2], np.eye(3)).to_dict()["labels"]
        [0, 1, 2]
        """
        return {
            "labels": [py_scalar(v) for v in self.labels],
            "curves": [c.to_dict() for c in self.curves.values()],
            "micro": self.micro.to_dict(),
            "macro": self.macro.to_dict(),
            "micro_auc": self.micro_auc,
            "macro_auc": self.macro_auc,
        }


def _roc_object(pos, score, weight, label, drop_intermediate) -> ROCCurve:
    thr, tps, fps = cumulative_counts(pos, score, weight)
    fpr, tpr, thresholds = roc_points(
        thr, tps.astype(np.float64), fps.astype(np.float64), drop_intermediate
    )
    return ROCCurve(fpr, tpr, thresholds, trapezoid_area(fpr, tpr), label)


def roc_curve_ovr(
    y_true: Any,
    y_score: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> OneVsRestROC:
    """One-vs-rest ROC curves for every class (Yao et al. 2022, Figure 7) with micro and macro
    averages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_score : array-like of shape (n_samples, n_classes)
        One score column per class; the columns follow ``labels`` (default: sorted classes).
    labels : array-like, optional
        The class of each score column.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    drop_intermediate : bool, default=True
        Drop collinear ROC points.

    Returns
    -------
    OneVsRestROC
        Per-class curves, micro and macro averages.

    Raises
    ------
    ValueError, TypeError
        Invalid labels or scores; score columns that do not match the classes.

    Examples
    --------
    >>> ovr = roc_curve_ovr([0, 1, 2, 2], [[.8, .1, .1], [.2, .3, .5], [.1, .2, .7],
    ...                                    [.3, .4, .3]])
    >>> [round(a, 3) for a in ovr.aucs.values()]
    [1.0, 0.667, 0.75]
    """
    check_score_length(y_true, y_score)  # before the labels' content
    classes, codes = encode_truth(y_true)
    s = check_scores_2d(y_score, codes.shape[0])
    cols, index = class_columns(classes, labels, s.shape[1])
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
    macro = ROCCurve(grid, mean_tpr, np.array([]), trapezoid_area(grid, mean_tpr), "macro")
    return OneVsRestROC(cols, curves, micro, macro)


