"""Scores of label predictions with scikit-learn's signatures: accuracy, losses, balanced
accuracy, Matthews' correlation, Cohen's kappa and the class likelihood ratios.

Tables are counted by confmat's kernel; the chance-corrected coefficients come from confmat's
metric registry (Matthews 1975; Cohen 1960, 1968; Brodersen et al. 2010 for balanced accuracy).
"""

from __future__ import annotations

import math
import warnings
from numbers import Real
from typing import Any

import numpy as np

from ..metrics import Stats, evaluate
from ._door import weights
from ._params import check_flag
from ._targets import check_targets, warn_undefined
from .confusion import confusion_matrix, table_of

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "class_likelihood_ratios",
    "cohen_kappa_score",
    "hamming_loss",
    "matthews_corrcoef",
    "zero_one_loss",
]


def _correct(y_true: Any, y_pred: Any, sample_weight: Any) -> tuple[float, float]:
    """(weight of exactly right samples, total weight) of checked targets."""
    tg = check_targets(y_true, y_pred, sample_weight)
    w = weights(sample_weight, tg.y_true.shape[0])
    if tg.kind == "multilabel-indicator":
        right = (tg.y_true == tg.y_pred).all(axis=1)
        if w is None:
            return float(np.count_nonzero(right)), float(right.shape[0])
        return float(np.dot(right, w)), float(w.sum())
    table, _ = table_of(tg)
    return float(np.trace(table)), float(table.sum())


def accuracy_score(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Share (or number) of samples predicted exactly right; subset accuracy for multilabel.

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix
        Labels or indicator matrices.
    normalize : bool, default=True
        Return the share; with False the number (sum of weights) of right samples.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Inconsistent, empty, mixed or continuous targets.

    Examples
    --------
    >>> from confmat.sklearn import accuracy_score
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3]), accuracy_score([0, 1], [0, 0], normalize=False)
    (0.5, 1.0)
    """
    check_flag(normalize, "normalize", "accuracy_score")
    right, total = _correct(y_true, y_pred, sample_weight)
    return right / total if normalize else right


def zero_one_loss(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Share (or number) of samples not predicted exactly right.

    Parameters
    ----------
    y_true, y_pred, normalize, sample_weight
        As in :func:`accuracy_score`.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`accuracy_score`.

    Examples
    --------
    >>> from confmat.sklearn import zero_one_loss
    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    """
    check_flag(normalize, "normalize", "zero_one_loss")
    right, total = _correct(y_true, y_pred, sample_weight)
    return 1.0 - right / total if normalize else total - right


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Share of wrong labels: the error rate, or for indicator matrices the (weighted) share of
    wrong entries.

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix
        Labels or indicator matrices.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Inconsistent, empty, mixed or continuous targets.

    Examples
    --------
    >>> from confmat.sklearn import hamming_loss
    >>> hamming_loss([[0, 1], [1, 1]], [[0, 0], [1, 1]])
    0.25
    """
    tg = check_targets(y_true, y_pred, sample_weight)
    w = weights(sample_weight, tg.y_true.shape[0])
    if tg.kind == "multilabel-indicator":
        wrong = (tg.y_true != tg.y_pred).sum(axis=1)
        n, k = tg.y_true.shape
        if w is None:
            return float(wrong.sum()) / (n * k)
        return float(np.dot(wrong, w)) / (n * k * float(np.mean(w)))
    table, _ = table_of(tg)
    total = float(table.sum())
    return (total - float(np.trace(table))) / total


def balanced_accuracy_score(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, adjusted: bool = False
) -> float:
    """Mean recall over the classes of ``y_true`` (Brodersen et al. 2010).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Labels.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.
    adjusted : bool, default=False
        Rescale so that chance scores 0 and perfect 1.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`confusion_matrix`.

    Examples
    --------
    >>> from confmat.sklearn import balanced_accuracy_score
    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    """
    check_flag(adjusted, "adjusted", "balanced_accuracy_score")
    cm = confusion_matrix(y_true, y_pred, sample_weight=sample_weight)
    support = cm.sum(axis=1)
    present = support > 0
    if not present.all():
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
    recall = np.diagonal(cm)[present] / support[present]
    score = np.mean(recall)
    if adjusted:  # one class: chance is 1 and the division gives NaN or inf, as scikit-learn's
        chance = 1.0 / recall.shape[0]
        with np.errstate(divide="ignore", invalid="ignore"):
            score = (score - chance) / np.float64(1.0 - chance)
    return float(score)


def matthews_corrcoef(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Matthews correlation coefficient, multiclass as Gorodkin (2004); 0 when undefined.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Labels.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.

    Returns
    -------
    float
        In [-1, 1].

    Raises
    ------
    ValueError
        Inconsistent, empty, multilabel or continuous targets.

    Examples
    --------
    >>> from confmat.sklearn import matthews_corrcoef
    >>> round(matthews_corrcoef([1, 1, 1, 0], [1, 0, 1, 1]), 4)
    -0.3333
    """
    # the table as confusion_matrix counts it, with its warning when a single label is seen
    table = confusion_matrix(y_true, y_pred, sample_weight=sample_weight).astype(np.float64)
    t, p = table.sum(axis=1), table.sum(axis=0)
    n = t.sum()
    if (n * n - np.dot(p, p)) * (n * n - np.dot(t, t)) == 0:
        return 0.0
    return float(evaluate("mcc", Stats(table, zero_division=0), warn=False))


def cohen_kappa_score(
    y1: Any, y2: Any, *, labels: Any = None, weights: Any = None, sample_weight: Any = None,
    replace_undefined_by: Any = np.nan,
) -> float:
    """Cohen's kappa (Cohen 1960), linearly or quadratically weighted (Cohen 1968).

    Parameters
    ----------
    y1, y2 : array-like of shape (n_samples,)
        Labels of two raters (symmetric, apart from ``labels`` needing one class of ``y1``).
    labels : array-like, optional
        Classes to use (others are left out).
    weights : {'linear', 'quadratic'}, optional
        Disagreement weights of ordered classes.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.
    replace_undefined_by : float in [-1, 1] or np.nan, default=np.nan
        The value when kappa is undefined (an ``UndefinedMetricWarning`` is emitted).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Bad targets, ``labels`` with no class of ``y1``, an unknown ``weights``.

    Examples
    --------
    >>> from confmat.sklearn import cohen_kappa_score
    >>> round(cohen_kappa_score([0, 1, 1, 0, 2], [0, 1, 0, 0, 2]), 4)
    0.6875
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(
            "The 'weights' parameter of cohen_kappa_score must be a str among "
            f"{{'linear', 'quadratic'}} or None. Got {weights!r} instead."
        )
    undefined = replace_undefined_by
    if not (isinstance(undefined, Real) and (math.isnan(undefined) or -1 <= float(undefined) <= 1)):
        raise ValueError(
            "The 'replace_undefined_by' parameter of cohen_kappa_score must be a float in "
            f"the range [-1.0, 1.0] or nan. Got {undefined!r} instead."
        )
    try:
        table = confusion_matrix(y1, y2, labels=labels, sample_weight=sample_weight)
    except ValueError as exc:
        if "At least one label specified must be in y_true" in str(exc):
            raise ValueError(
                "At least one label in `labels` must be present in `y1` (even though "
                "`cohen_kappa_score` is otherwise agnostic to the order of `y1` and `y2`)."
            ) from exc
        raise
    table = table.astype(np.float64)
    if table.sum() == 0:
        warn_undefined(
            "`y2` contains no labels that are present in both `y1` and `labels`."
            "`cohen_kappa_score` is undefined and set to the value defined by the "
            f"`replace_undefined_by` param, which is set to {replace_undefined_by}.",
        )
        return replace_undefined_by
    k = table.shape[0]
    rows, cols = table.sum(axis=1), table.sum(axis=0)
    grid = np.arange(k)
    w = (grid[:, None] != grid[None, :]).astype(np.float64) if weights is None else (
        np.abs(grid[:, None] - grid[None, :]).astype(np.float64) ** (1 if weights == "linear" else 2)
    )
    if float(np.sum(w * np.outer(rows, cols))) == 0:
        warn_undefined(
            "`y1`, `y2` and `labels` have only one label in common. `cohen_kappa_score` is "
            "undefined and set to the value defined by the `replace_undefined_by` param, "
            f"which is set to {replace_undefined_by}.",
        )
        return replace_undefined_by
    params = {} if weights is None else {"weights": weights}
    return float(evaluate("kappa", Stats(table, zero_division=0), warn=False, **params))


def _check_lr_replacement(replace_undefined_by: Any) -> tuple[float, float]:
    value = replace_undefined_by
    if isinstance(value, float) and np.isnan(value):
        return np.nan, np.nan
    if not isinstance(value, dict) and value == 1.0:
        value = {"LR+": 1.0, "LR-": 1.0}
    message = (
        "The dictionary passed as `replace_undefined_by` needs to be in the form "
        "`{'LR+': `value_1`, 'LR-': `value_2`}` where the value for `LR+` ranges from `1.0` to "
        "`np.inf` or is `np.nan` and the value for `LR-` ranges from `0.0` to `1.0` or is "
        f"`np.nan`; got `{value}`."
    )
    if not isinstance(value, dict):
        raise ValueError(
            "The 'replace_undefined_by' parameter of class_likelihood_ratios must be a float "
            f"among {{1.0, nan}} or an instance of 'dict'. Got {value!r} instead."
        )
    pos, neg = value.get("LR+"), value.get("LR-")

    def ok(v: Any, lo: float, hi: float) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool) and (
            np.isnan(v) or lo <= v <= hi
        )

    if not (ok(pos, 1.0, np.inf) and ok(neg, 0.0, 1.0)):
        raise ValueError(message)
    return float(pos), float(neg)  # type: ignore[arg-type]


def class_likelihood_ratios(
    y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None,
    replace_undefined_by: Any = np.nan,
) -> tuple[float, float]:
    """Positive and negative likelihood ratios ``LR+ = TPR / FPR``, ``LR- = FNR / TNR``
    of a binary classification.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Binary labels.
    labels : array-like, optional
        ``[negative, positive]``; by default the sorted labels.
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.
    replace_undefined_by : np.nan, 1.0 or dict, default=np.nan
        The values of undefined ratios: ``{'LR+': value, 'LR-': value}``.

    Returns
    -------
    (float, float)
        ``(LR+, LR-)``.

    Raises
    ------
    ValueError
        Targets that are not binary, a single class without ``labels``, ``labels`` that do
        not name two classes, a malformed ``replace_undefined_by``.

    Examples
    --------
    >>> from confmat.sklearn import class_likelihood_ratios
    >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
    (1.5, 0.75)
    """
    tg = check_targets(y_true, y_pred, sample_weight)
    if tg.kind == "binary":
        _, book = table_of(tg)
        if len(book) > 2:
            tg.kind = "multiclass"
    if tg.kind != "binary":
        raise ValueError(
            "class_likelihood_ratios only supports binary classification problems, got "
            f"targets of type: {tg.kind}"
        )
    pos_fill, neg_fill = _check_lr_replacement(replace_undefined_by)
    cm = confusion_matrix(tg.y_true, tg.y_pred, sample_weight=sample_weight, labels=labels)
    if cm.shape != (2, 2):  # scikit-learn fails here unpacking the table
        if labels is not None:
            raise ValueError(
                f"labels must name two classes, [negative, positive]; got {cm.shape[0]}"
            )
        raise ValueError(
            "y_true and y_pred hold a single class: class_likelihood_ratios needs two; pass "
            "labels=[negative, positive]"
        )
    tn, fp, fn, tp = (float(v) for v in np.asarray(cm, dtype=np.float64).ravel())
    n_pos, n_neg = tp + fn, tn + fp
    lr_pos = lr_neg = np.nan
    if n_pos == 0:
        warn_undefined(
            "No samples of the positive class are present in `y_true`. "
            "`positive_likelihood_ratio` and `negative_likelihood_ratio` are both set to "
            "`np.nan`. Use the `replace_undefined_by` param to control this behavior.",
        )
    if fp == 0:
        start = ("No samples were predicted for the positive class and "
                 "`positive_likelihood_ratio` is " if tp == 0
                 else "`positive_likelihood_ratio` is ill-defined and ")
        warn_undefined(start + "set to `np.nan`. Use the `replace_undefined_by` param to "
                       "control this behavior.")
        lr_pos = pos_fill
    else:
        lr_pos = (tp * n_neg) / (fp * n_pos) if n_pos else np.nan
    if tn == 0:
        warn_undefined(
            "`negative_likelihood_ratio` is ill-defined and set to `np.nan`. Use the "
            "`replace_undefined_by` param to control this behavior.",
        )
        lr_neg = neg_fill
    else:
        lr_neg = (fn * n_neg) / (tn * n_pos) if n_pos else np.nan
    return float(lr_pos), float(lr_neg)
