"""Areas under the curves, the public front doors: :func:`roc_auc`, :func:`average_precision`
and :func:`roc_pr_curves` (both curves of one scorer from one sort)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from ..inputs.score_columns import class_columns, positive_score_column
from ..inputs.score_shape import check_score_length
from ..inputs.targets import binary_target, check_scores_2d, check_weights, encoded_truth
from .common import (
    APMethod,
    check_average,
    check_max_fpr,
    check_method,
    trapezoid_area,
    undefined_auc,
)
from .multiclass import average_columns, multiclass_auc, multilabel_average
from .precision_recall import PRCurve, ap_from_counts, pr_points
from .rank import cumulative_counts, fast_binary_auc
from .roc import ROCCurve, binary_auc, roc_points


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

    Returns
    -------
    float or ndarray
        The average precision (a fraction in [0, 1]); per-class array with ``average=None``.

    Raises
    ------
    ValueError, TypeError
        Invalid labels, scores, weights, ``pos_label``, ``average`` or ``method``.

    Examples
    --------
    >>> round(average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    method = check_method(method)
    check_score_length(y_true, y_score)  # before the labels' content
    y_arr = y_true.to_numpy() if hasattr(y_true, "to_numpy") else np.asarray(y_true)
    if y_arr.ndim == 2:
        return multilabel_average(y_true, y_score, average, sample_weight, "ap", method)
    y_true = encoded_truth(y_true)  # read once: the binary door below reads it as it is
    classes, codes = list(y_true.classes), y_true.codes
    s_arr = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if s_arr.ndim == 2 and (len(classes) > 2 or s_arr.shape[1] > 2):
        if pos_label not in (None, 1):
            raise ValueError(
                "pos_label applies to binary y_true only; for multiclass y_true each class "
                "is positive in turn"
            )
        check_average(average, ("macro", "weighted", "micro", None))
        s = check_scores_2d(y_score, codes.shape[0])
        class_columns(classes, None, s.shape[1])
        indicator = np.zeros(s.shape, dtype=bool)
        indicator[np.arange(codes.shape[0]), codes] = True
        return average_columns(indicator, s, check_weights(sample_weight, codes.shape[0]),
                                average, "ap", method)
    y_score = positive_score_column(classes, s_arr, y_score, None, pos_label)
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    _, tps, fps = cumulative_counts(b.pos, b.score, b.weight)
    return ap_from_counts(tps, fps, method)




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
        The positive class of binary input; must occur in ``y_true``. With a 1-D ``y_score``
        and more than two classes, the class the scores are of, against all the others (as
        :func:`roc_curve`).
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
    max_fpr = check_max_fpr(max_fpr)
    if multi_class not in ("raise", "ovr", "ovo"):
        raise ValueError(f"multi_class must be 'raise', 'ovr' or 'ovo', got {multi_class!r}")
    if sample_weight is None and labels is None and pos_label is None and max_fpr in (None, 1):
        fast = fast_binary_auc(y_true, y_score)
        if fast is not None:
            return fast
    check_score_length(y_true, y_score)  # before the labels' content
    y_arr = y_true.to_numpy() if hasattr(y_true, "to_numpy") else np.asarray(y_true)
    if y_arr.ndim == 2 and y_arr.shape[1] > 1:
        if pos_label is not None:
            raise ValueError("pos_label applies to binary y_true only, not to a multilabel "
                             "indicator matrix")
        return multilabel_average(y_true, y_score, average, sample_weight, "auc", None, max_fpr)
    y_true = encoded_truth(y_true)  # read once: the binary door below reads it as it is
    classes, codes = list(y_true.classes), y_true.codes
    n = codes.shape[0]
    s_arr = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    one_vs_rest = s_arr.ndim == 1 and pos_label is not None  # pos_label against the rest
    if (len(classes) > 2 and not one_vs_rest) or (s_arr.ndim == 2 and s_arr.shape[1] > 2):
        if s_arr.ndim == 1:
            raise ValueError(
                f"y_score must be 2-D (one column per class) for y_true of {len(classes)} "
                f"classes, got shape {s_arr.shape}; for 1-D scores of one class against the "
                "rest give pos_label="
            )
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
        return multiclass_auc(classes, codes, s, labels, multi_class, average, sample_weight)
    y_score = positive_score_column(classes, s_arr, y_score, labels, pos_label)
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    if len(classes) < 2:
        return undefined_auc()
    return binary_auc(b.pos, b.score, b.weight, max_fpr)




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
    thr, tps, fps = cumulative_counts(b.pos, b.score, b.weight)
    fpr, tpr, t = roc_points(thr, tps.astype(np.float64), fps.astype(np.float64),
                              drop_intermediate)
    p, r, tt = pr_points(thr, tps, fps, False)
    ap = float(max(0.0, -np.sum(np.diff(r) * p[:-1])))
    return ROCCurve(fpr, tpr, t, trapezoid_area(fpr, tpr), label), PRCurve(p, r, tt, ap, label)


