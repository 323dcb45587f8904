"""The multi-class AUC of Hand and Till (2001), in both forms of pROC's ``multiclass.roc``
(Robin et al. 2011).

* **Matrix form** (one score column per class, pROC's "multivariate" form): for every pair of
  classes ``(i, j)``, ``A(i|j)`` is the probability that a sample of class ``i`` scores higher in
  column ``i`` than a sample of class ``j`` (ties count one half); the pair's AUC is
  ``(A(i|j) + A(j|i)) / 2`` and the multi-class AUC is the mean over the pairs. This is
  scikit-learn's ``roc_auc_score(multi_class="ovo", average="macro")`` when every class is used.
* **Single predictor** (pROC's "univariate" form): for every pair ``(a, b)`` of the selected
  classes, taken in the order of ``levels``, the binary AUC of the predictor with class ``a`` as
  the controls and class ``b`` as the cases; the multi-class AUC is the mean of these AUCs.

Unlike the ``'ovo'`` mode of :func:`confmat.roc_auc`, the scores need not be probabilities (only
their order within a column matters), ``levels`` selects the classes, and samples of other
classes are left out of every pair.

**Partial areas.** As pROC passes ``partial.auc=``, ``partial.auc.focus=`` and
``partial.auc.correct=`` on to the area of every pairwise curve, ``partial_specificity=`` /
``partial_sensitivity=`` (with ``correct=``) replace each binary AUC above by the partial area
of :mod:`confmat.curves.partial` (McClish 1989 when corrected) and average those. A partial
area depends on which class is the cases: as in pROC, the curve of a pair ``(a, b)`` of the
single predictor has ``b`` as cases, and ``A(i|j)`` of the matrix form is the curve of column
``i`` with class ``j`` as cases (scores of the cases expected lower with ``direction='>'``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..inputs.encode import as_1d
from ..inputs.kinds import py_scalar
from ..inputs.options import check_flag
from ..inputs.score_columns import class_columns
from ..inputs.score_shape import check_score_length
from ..inputs.targets import check_scores_1d, check_scores_2d, check_weights, encode_truth
from ..metrics import UndefinedMetricWarning
from .partial import (
    diagonal_area,
    focus_area,
    mcclish,
    resolve_focus,
    se_sp_points,
)
from .roc import binary_auc

__all__ = ["MulticlassROC", "multiclass_roc"]

_DIRECTIONS = ("auto", "<", ">")


@dataclass(frozen=True)
class MulticlassROC:
    """Hand and Till's (2001) multi-class AUC and the pairwise AUCs it averages.

    Parameters
    ----------
    auc : float
        The mean of :attr:`pair_aucs`, a fraction in [0, 1].
    levels : list
        The classes used, in the order of the pairs.
    pair_aucs : dict
        ``(a, b) -> AUC`` of every pair of ``levels`` (``a`` before ``b``). In the matrix form,
        ``(A(a|b) + A(b|a)) / 2``; with a single predictor, the AUC with ``a`` as controls.
    directions : dict
        ``(a, b) -> '<' or '>'``: with a single predictor, whether the cases (``b``) are
        expected to score higher (``'<'``) or lower (``'>'``) than the controls (``a``); in the
        matrix form, ``'>'`` (the class's own column scores its samples higher) or ``'<'``.
    form : {'matrix', 'predictor'}
        Which form of the method computed the AUC.
    partial : tuple or None
        ``(focus, low, high, correct)`` when the areas are partial (``focus``
        ``'specificity'`` or ``'sensitivity'``), else None. :attr:`auc` and
        :attr:`pair_aucs` are then partial areas, McClish-corrected when ``correct``
        (nan for a pair under the diagonal on the range, and so for the mean, as pROC's NA).

    Examples
    --------
    >>> r = multiclass_roc(["a", "b", "c", "c"], [0.1, 0.5, 0.9, 0.4])
    >>> r.levels, r.pair_aucs[("a", "b")], round(r.auc, 4)
    (['a', 'b', 'c'], 1.0, 0.8333)
    """

    auc: float
    levels: list[Any]
    pair_aucs: dict[tuple[Any, Any], float]
    directions: dict[tuple[Any, Any], str]
    form: str
    partial: tuple[str, float, float, bool] | None = None


def multiclass_roc(
    y_true: Any,
    y_score: Any,
    *,
    levels: Any = None,
    labels: Any = None,
    direction: str | None = None,
    partial_specificity: Any = None,
    partial_sensitivity: Any = None,
    correct: bool = False,
    sample_weight: Any = None,
) -> MulticlassROC:
    """Multi-class AUC of Hand and Till (2001), as pROC's ``multiclass.roc`` computes it.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True classes, of any label type.
    y_score : array-like of shape (n_samples,) or (n_samples, n_columns)
        One predictor (1-D), or one score column per class (2-D; higher means more like that
        column's class; rows need not sum to 1).
    levels : array-like, optional
        The classes to use, in order (default: the sorted classes of ``y_true``). Samples of
        other classes are ignored. At least two; each must occur in ``y_true``.
    labels : array-like, optional
        The class of each score column (2-D ``y_score`` only; default: the sorted classes of
        ``y_true``, one per column). Columns of classes outside ``levels`` are ignored.
    direction : {'auto', '<', '>'}, optional
        With a single predictor (default ``'auto'``): ``'<'`` when the later class of each pair
        scores higher, ``'>'`` when lower, ``'auto'`` to choose per pair by the medians (``'<'``
        when the median of the earlier class is at most that of the later one), as pROC does.
        With a matrix (default ``'>'``): ``'>'`` when a class's own column scores its samples
        higher, ``'<'`` for the reverse; ``'auto'`` is not available (as in pROC).
    partial_specificity, partial_sensitivity : pair of float, optional
        Average partial areas over this specificity or sensitivity range instead of full
        areas (pROC's ``partial.auc=`` with ``partial.auc.focus=``); at most one.
    correct : bool, default=False
        McClish's (1989) standardisation of each partial area (pROC's
        ``partial.auc.correct=``); needs a range.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights (pairwise AUCs become weighted Mann-Whitney statistics). Not with
        ``direction='auto'`` on a single predictor (the rule compares unweighted medians).

    Returns
    -------
    MulticlassROC
        The multi-class AUC, the classes used and every pair's AUC and direction.

    Raises
    ------
    ValueError
        Fewer than two levels, a level absent from ``y_true`` or repeated, a score matrix with
        one column or without a column for a level, an unknown ``direction``, ``'auto'`` with a
        matrix or with weights, ``labels`` with a 1-D predictor, or invalid scores or weights;
        both partial ranges, a range outside [0, 1] or of zero width, ``correct=True``
        without a range.
    TypeError
        Scores that are not numbers, mixed label types, a range that is not two numbers,
        ``correct`` not a bool.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> p = [[.8, .1, .1], [.5, .3, .2], [.2, .6, .2], [.3, .3, .4], [.1, .2, .7], [.2, .5, .3]]
    >>> round(multiclass_roc(y, p).auc, 4)
    0.8958
    >>> round(multiclass_roc(y, p, levels=[0, 2]).auc, 4)
    1.0
    >>> r = multiclass_roc(y, p, partial_specificity=(0.8, 1), correct=True)
    >>> r.partial, round(r.auc, 4)  # pROC (partial.auc = c(1, .8), corrected): 0.87037037
    (('specificity', 0.8, 1.0, True), 0.8704)
    """
    partial = _check_partial(partial_specificity, partial_sensitivity, correct)
    check_score_length(y_true, y_score)  # before the labels' content
    classes, codes = encode_truth(y_true)
    n = codes.shape[0]
    chosen = _check_levels(levels, classes)
    w = check_weights(sample_weight, n)
    if direction is not None and direction not in _DIRECTIONS:
        raise ValueError(f"direction must be one of {list(_DIRECTIONS)}, got {direction!r}")
    index = {c: i for i, c in enumerate(classes)}
    masks = {c: codes == index[c] for c in chosen}
    if np.ndim(y_score) == 2:
        s = check_scores_2d(y_score, n)
        if s.shape[1] < 2:
            raise ValueError(
                "y_score has a single column; pass a single predictor as a 1-D array instead"
            )
        direction = ">" if direction is None else direction
        if direction == "auto":
            raise ValueError("direction='auto' is not available with a score matrix (as in "
                             "pROC); use '>' (higher scores for the column's class) or '<'")
        _, column = class_columns(chosen if labels is not None else classes, labels, s.shape[1])
        return _matrix_form(chosen, masks, s, column, w, direction, partial)
    if labels is not None:
        raise ValueError("labels names the classes of score columns; y_score is a single "
                         "predictor (1-D), so labels must be None")
    x = check_scores_1d(y_score, n)
    direction = "auto" if direction is None else direction
    if direction == "auto" and sample_weight is not None:
        raise ValueError("direction='auto' compares unweighted medians; with sample_weight "
                         "pass direction='<' or '>'")
    return _predictor_form(chosen, masks, x, w, direction, partial)


def _check_partial(specificity: Any, sensitivity: Any, correct: Any
                   ) -> tuple[str, float, float, bool] | None:
    check_flag(correct, "correct")
    if specificity is None and sensitivity is None:
        if correct:
            raise ValueError("correct=True (McClish's correction) needs a partial range: "
                             "partial_specificity=(low, high) or partial_sensitivity=(low, "
                             "high)")
        return None
    if specificity is not None and sensitivity is not None:
        raise ValueError("give at most one of partial_specificity= and partial_sensitivity=")
    focus, lo, hi = resolve_focus(specificity, sensitivity)
    return focus, lo, hi, bool(correct)


def _partial_area(cases: np.ndarray, score: np.ndarray, w: np.ndarray | None,
                  partial: tuple[str, float, float, bool]) -> float:
    """Partial area of the curve with ``cases`` as positives (higher scores), or nan."""
    focus, lo, hi, correct = partial
    if w is not None and (not w[cases].any() or not w[~cases].any()):
        warnings.warn("a class of a pair carries no weight; its partial area is not defined",
                      UndefinedMetricWarning, stacklevel=4)
        return float("nan")
    _, se, sp = se_sp_points(cases, score, w)
    area = float(focus_area(se, sp, lo, hi, focus))
    if not correct:
        return area
    if area < diagonal_area(lo, hi):
        warnings.warn("McClish's correction is not defined for a ROC curve below the diagonal "
                      "on the range; the pair's area (and so the mean) is nan",
                      UndefinedMetricWarning, stacklevel=4)
        return float("nan")
    return float(mcclish(area, lo, hi))


def _check_levels(levels: Any, classes: list[Any]) -> list[Any]:
    """The selected classes, validated against those of ``y_true``."""
    if levels is None:
        chosen = list(classes)
        if len(chosen) < 2:
            raise ValueError(f"y_true has a single class {chosen}; a multi-class AUC needs at "
                             "least two classes")
        return chosen
    chosen = [py_scalar(v) for v in as_1d(levels, "levels").tolist()]
    if len(chosen) < 2:
        raise ValueError(f"levels must name at least two classes, got {chosen}")
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"levels must be unique, got {chosen}")
    absent = [c for c in chosen if c not in classes]
    if absent:
        raise ValueError(f"levels {absent} do not occur in y_true (its classes are {classes})")
    return chosen


def _matrix_form(
    chosen: list[Any],
    masks: dict[Any, np.ndarray],
    s: np.ndarray,
    column: dict[Any, int],
    w: np.ndarray | None,
    direction: str,
    partial: tuple[str, float, float, bool] | None,
) -> MulticlassROC:
    missing = [c for c in chosen if c not in column]
    if missing:
        raise ValueError(f"y_score has no column for the levels {missing}")
    pair_aucs: dict[tuple[Any, Any], float] = {}
    sign = -1.0 if direction == ">" else 1.0
    for a, b in combinations(chosen, 2):
        both = masks[a] | masks[b]
        ww = None if w is None else w[both]
        a_own = masks[a][both]
        if partial is not None:  # A(a|b): column a, cases b; A(b|a): column b, cases a
            a_given_b = _partial_area(~a_own, sign * s[both, column[a]], ww, partial)
            b_given_a = _partial_area(a_own, sign * s[both, column[b]], ww, partial)
        elif direction == ">":
            a_given_b = binary_auc(a_own, s[both, column[a]], ww, None)
            b_given_a = binary_auc(~a_own, s[both, column[b]], ww, None)
        else:
            a_given_b = binary_auc(~a_own, s[both, column[a]], ww, None)
            b_given_a = binary_auc(a_own, s[both, column[b]], ww, None)
        pair_aucs[(a, b)] = (a_given_b + b_given_a) / 2
    return MulticlassROC(float(np.mean(list(pair_aucs.values()))), chosen, pair_aucs,
                         dict.fromkeys(pair_aucs, direction), "matrix", partial)


def _predictor_form(
    chosen: list[Any],
    masks: dict[Any, np.ndarray],
    x: np.ndarray,
    w: np.ndarray | None,
    direction: str,
    partial: tuple[str, float, float, bool] | None,
) -> MulticlassROC:
    pair_aucs: dict[tuple[Any, Any], float] = {}
    directions: dict[tuple[Any, Any], str] = {}
    for a, b in combinations(chosen, 2):
        both = masks[a] | masks[b]
        cases = masks[b][both]
        xx = x[both]
        d = direction
        if d == "auto":
            d = "<" if np.median(xx[~cases]) <= np.median(xx[cases]) else ">"
        ww = None if w is None else w[both]
        if partial is not None:  # the cases b, their scores expected lower with '>'
            pair_aucs[(a, b)] = _partial_area(cases, xx if d == "<" else -xx, ww, partial)
        else:
            pair_aucs[(a, b)] = binary_auc(cases if d == "<" else ~cases, xx, ww, None)
        directions[(a, b)] = d
    return MulticlassROC(float(np.mean(list(pair_aucs.values()))), chosen, pair_aucs,
                         directions, "predictor", partial)
