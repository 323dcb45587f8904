"""Set-wise scores with scikit-learn's signatures: precision, recall, F-beta, Jaccard.

Every score is a ratio of per-label counts (:func:`confmat.sklearn.confusion.label_counts`,
counted by confmat's kernel). An undefined ratio (zero denominator) becomes ``zero_division``
(0 with an ``UndefinedMetricWarning`` for ``"warn"``); averages skip NaN values (van Rijsbergen
1979 for F-beta; Jaccard 1912 for the Jaccard index).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..metrics.stats import check_zero_division
from ._params import AVERAGES, check_average, check_pos_label, check_sequence
from ._targets import check_targets, warn_undefined
from .confusion import LabelCounts, label_counts

__all__ = [
    "f1_score",
    "fbeta_score",
    "jaccard_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
]


def check_zero_division_arg(zero_division: Any, func: str) -> Any:
    """``zero_division`` checked as scikit-learn checks it: ``'warn'``, 0, 1 or ``np.nan``
    (confmat's own spelling ``'nan'`` is refused here, as scikit-learn refuses it).

    Parameters
    ----------
    zero_division
        The user's argument.
    func
        str, the function's name.

    Returns
    -------
    str or int
        As :func:`confmat.metrics.stats.check_zero_division`.

    Raises
    ------
    ValueError
        Any other value.
    """
    if isinstance(zero_division, str) and zero_division != "warn":
        raise ValueError(
            f"The 'zero_division' parameter of {func} must be a float among {{0.0, 1.0}}, "
            f"numpy.nan or a str among {{'warn'}}. Got {zero_division!r} instead."
        )
    return check_zero_division(zero_division)


def zero_division_value(zero_division: Any) -> float:
    """The value an undefined ratio takes: 0.0 for ``'warn'``, else ``zero_division``.

    Parameters
    ----------
    zero_division
        {'warn', 0, 1, np.nan}

    Returns
    -------
    float
        The fill value.
    """
    zd = check_zero_division(zero_division)
    if zd == "nan":
        return float("nan")
    return 0.0 if zd == "warn" else float(zd)


def divide(
    num: np.ndarray, den: np.ndarray, metric: str, modifier: str, average: Any,
    warn_for: Any, zero_division: Any,
) -> np.ndarray:
    """``num / den`` with ``zero_division`` where ``den == 0``; warns as scikit-learn does.

    Parameters
    ----------
    num
        ndarray
    den
        ndarray
    metric
        str
    modifier
        str
    average
        str or None
    warn_for
        tuple or set
    zero_division
        {'warn', 0, 1, np.nan}

    Returns
    -------
    ndarray of float64
        The ratios.
    """
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    zero = den == 0
    out = num / np.where(zero, 1.0, den)
    if not zero.any():
        return out
    out[zero] = zero_division_value(zero_division)
    if isinstance(zero_division, str) and zero_division == "warn" and metric in warn_for:
        along, per = ("label", "sample") if average == "samples" else ("sample", "label")
        where = "due to" if out.shape[0] == 1 else f"in {per}s with"
        warn_undefined(
            f"{metric.capitalize()} is ill-defined and being set to 0.0 {where} no {modifier} "
            f"{along}s. Use `zero_division` parameter to control this behavior.",
            stacklevel=4,
        )
    return out


def nan_average(values: np.ndarray, weights: np.ndarray | None) -> float:
    """Mean of the non-NaN values (weighted; all-zero weights fall back to the plain mean).

    Parameters
    ----------
    values
        ndarray
    weights
        ndarray or None

    Returns
    -------
    float
        The average (NaN when every value is NaN).
    """
    if values.shape[0] == 0:
        return float("nan")
    keep = ~np.isnan(values)
    if not keep.any():
        return float("nan")
    if weights is None:
        return float(np.mean(values[keep]))
    w = np.asarray(weights, dtype=np.float64)[keep]
    if w.sum() == 0:
        return float(np.mean(values[keep]))
    return float(np.average(values[keep], weights=w))


def set_wise_counts(
    y_true: Any, y_pred: Any, average: Any, labels: Any, pos_label: Any, sample_weight: Any
) -> LabelCounts:
    """Check ``average`` and ``pos_label`` against the targets and count the chosen labels.

    Parameters
    ----------
    y_true
        array-like or sparse matrix
    y_pred
        array-like or sparse matrix
    average
        str or None
    labels
        sequence or None
    pos_label
        label
    sample_weight
        array-like or None

    Returns
    -------
    LabelCounts
        The counts of the chosen labels.
    """
    check_average(average)
    check_pos_label(pos_label)
    tg = check_targets(y_true, y_pred, sample_weight)
    samplewise = average == "samples"
    if tg.kind == "multilabel-indicator" or average != "binary":
        if average == "binary":
            raise ValueError(
                "Target is multilabel-indicator but average='binary'. Please choose another "
                f"average setting, one of {list(AVERAGES)!r}."
            )
        if pos_label not in (None, 1):
            warnings.warn(
                f"Note that pos_label (set to {pos_label!r}) is ignored when average != "
                f"'binary' (got {average!r}). You may use labels=[pos_label] to specify a "
                "single positive class.",
                UserWarning,
                stacklevel=4,
            )
        if samplewise and tg.kind != "multilabel-indicator":
            raise ValueError(
                "Samplewise metrics are not available outside of multilabel classification."
            )
        return label_counts(tg, labels, samplewise)
    counts = label_counts(tg)
    present = counts.present
    if pos_label is None:  # scikit-learn fails to sort None when a single class is present
        raise ValueError(
            f"pos_label=None is not a valid label. It should be one of {np.asarray(present)}"
        )
    if len(present) > 2:
        options = [a for a in AVERAGES if a != "samples"]
        raise ValueError(
            "Target is multiclass but average='binary'. Please choose another average "
            f"setting, one of {options!r}."
        )
    if pos_label not in present and len(present) >= 2:
        raise ValueError(
            f"pos_label={pos_label} is not a valid label. It should be one of "
            f"{np.asarray(present)}"
        )
    return label_counts(tg, [pos_label], name="pos_label")


def precision_recall_fscore_support(
    y_true: Any, y_pred: Any, *, beta: float = 1.0, labels: Any = None, pos_label: Any = 1,
    average: Any = None, warn_for: Any = ("precision", "recall", "f-score"),
    sample_weight: Any = None, zero_division: Any = "warn",
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support per class or averaged.

    scikit-learn's ``precision_recall_fscore_support``: ``beta = 0`` gives precision,
    ``beta = inf`` recall; ``average`` is one of ``None, 'binary', 'micro', 'macro',
    'weighted', 'samples'``.

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix
        Labels of shape (n_samples,) or indicator matrices.
    beta : float, default=1.0
        Weight of recall against precision (non-negative, ``inf`` allowed).
    labels : array-like, optional
        Labels to score, in order (absent ones score per ``zero_division``).
    pos_label : int, float, bool or str, default=1
        The class scored with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples'} or None, default=None
        How per-label values are combined.
    warn_for : list, tuple or set
        Which metrics warn when undefined (any other type is a ``ValueError``, as in
        scikit-learn).
    sample_weight : array-like of shape (n_samples,), optional
        Sample weights.
    zero_division : {'warn', 0.0, 1.0, np.nan}, default='warn'
        The value of an undefined ratio.

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray
    support : ndarray or None
        Samples (weights) per label; None when averaged.

    Raises
    ------
    ValueError
        Bad targets, ``average``, ``pos_label``, ``beta`` or ``zero_division``.

    Examples
    --------
    >>> from confmat.sklearn import precision_recall_fscore_support
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1, 0], [0, 1, 0, 0])
    >>> p.round(3).tolist(), r.tolist(), s.tolist()
    ([0.667, 1.0], [1.0, 0.5], [2, 2])
    """
    check_zero_division_arg(zero_division, "precision_recall_fscore_support")
    check_sequence(warn_for, "warn_for", "precision_recall_fscore_support",
                   "an instance of 'list', an instance of 'tuple' or an instance of 'set'",
                   (list, tuple, set))
    if isinstance(beta, bool) or not isinstance(beta, int | float | np.number) or not beta >= 0:
        raise ValueError(
            "The 'beta' parameter of precision_recall_fscore_support must be a float in the "
            f"range [0.0, inf]. Got {beta!r} instead."
        )
    c = set_wise_counts(y_true, y_pred, average, labels, pos_label, sample_weight)
    return prf_from_counts(c, average, beta, warn_for, sample_weight, zero_division)


def prf_from_counts(
    c: LabelCounts, average: Any, beta: float, warn_for: Any, sample_weight: Any,
    zero_division: Any,
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support of counted labels (see
    :func:`precision_recall_fscore_support`).

    Parameters
    ----------
    c
        LabelCounts
    average
        str or None
    beta
        float
    warn_for
        tuple or set
    sample_weight
        array-like or None
    zero_division
        {'warn', 0, 1, np.nan}

    Returns
    -------
    tuple
        Precision, recall, F-beta and support (None when averaged).
    """
    tp, pred, true = c.tp, c.pred, c.true
    if average == "micro":
        tp, pred, true = (np.atleast_1d(np.sum(a)) for a in (tp, pred, true))
    precision = divide(tp, pred, "precision", "predicted", average, warn_for, zero_division)
    recall = divide(tp, true, "recall", "true", average, warn_for, zero_division)
    if np.isposinf(beta):
        f = recall
    elif beta == 0:
        f = precision
    else:
        b2 = float(beta) ** 2
        f = divide(
            (1 + b2) * np.asarray(tp, dtype=np.float64),
            b2 * np.asarray(true, dtype=np.float64) + np.asarray(pred, dtype=np.float64),
            "f-score", "true nor predicted", average, warn_for, zero_division,
        )
    if average is None:
        return precision, recall, f, true
    weights: Any = None
    if average == "weighted":
        weights = true
    elif average == "samples" and sample_weight is not None:
        weights = np.asarray(sample_weight, dtype=np.float64)
    return (
        nan_average(precision, weights), nan_average(recall, weights),
        nan_average(f, weights), None,
    )


def fbeta_score(
    y_true: Any, y_pred: Any, *, beta: float, labels: Any = None, pos_label: Any = 1,
    average: Any = "binary", sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:
    """F-beta score: ``(1 + β²) TP / ((1 + β²) TP + β² FN + FP)`` (van Rijsbergen 1979).

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
        As in :func:`precision_recall_fscore_support` (``average`` defaults to 'binary').
    beta : float
        Weight of recall (0 gives precision, ``inf`` recall).

    Returns
    -------
    float or ndarray
        The score, per label with ``average=None``.

    Raises
    ------
    ValueError
        As :func:`precision_recall_fscore_support`.

    Examples
    --------
    >>> from confmat.sklearn import fbeta_score
    >>> round(fbeta_score([0, 1, 1, 0], [0, 1, 0, 0], beta=2), 4)
    0.5556
    """
    _, _, f, _ = precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        warn_for=("f-score",), sample_weight=sample_weight, zero_division=zero_division,
    )
    return f


def f1_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: Any = "binary", sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:
    """F1 score, the harmonic mean of precision and recall.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
        As in :func:`precision_recall_fscore_support` (``average`` defaults to 'binary').

    Returns
    -------
    float or ndarray
        The score, per label with ``average=None``.

    Raises
    ------
    ValueError
        As :func:`precision_recall_fscore_support`.

    Examples
    --------
    >>> from confmat.sklearn import f1_score
    >>> round(f1_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average="macro"), 4)
    0.2667
    """
    return fbeta_score(
        y_true, y_pred, beta=1, labels=labels, pos_label=pos_label, average=average,
        sample_weight=sample_weight, zero_division=zero_division,
    )


def precision_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: Any = "binary", sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:
    """Precision ``TP / (TP + FP)``.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
        As in :func:`precision_recall_fscore_support` (``average`` defaults to 'binary').

    Returns
    -------
    float or ndarray
        The score, per label with ``average=None``.

    Raises
    ------
    ValueError
        As :func:`precision_recall_fscore_support`.

    Examples
    --------
    >>> from confmat.sklearn import precision_score
    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    """
    p, _, _, _ = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        warn_for=("precision",), sample_weight=sample_weight, zero_division=zero_division,
    )
    return p


def recall_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: Any = "binary", sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:
    """Recall ``TP / (TP + FN)``.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
        As in :func:`precision_recall_fscore_support` (``average`` defaults to 'binary').

    Returns
    -------
    float or ndarray
        The score, per label with ``average=None``.

    Raises
    ------
    ValueError
        As :func:`precision_recall_fscore_support`.

    Examples
    --------
    >>> from confmat.sklearn import recall_score
    >>> recall_score([0, 1, 1, 0], [0, 1, 0, 0])
    0.5
    """
    _, r, _, _ = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        warn_for=("recall",), sample_weight=sample_weight, zero_division=zero_division,
    )
    return r


def jaccard_score(
    y_true: Any, y_pred: Any, *, labels: Any = None, pos_label: Any = 1,
    average: Any = "binary", sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:
    """Jaccard index ``TP / (TP + FP + FN)`` (Jaccard 1912).

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight
        As in :func:`precision_recall_fscore_support` (``average`` defaults to 'binary').
    zero_division : {'warn', 0.0, 1.0}, default='warn'
        The value when there is neither a true nor a predicted positive (``np.nan`` is
        refused, as by scikit-learn's ``jaccard_score``).

    Returns
    -------
    float or ndarray
        The score, per label with ``average=None``.

    Raises
    ------
    ValueError
        As :func:`precision_recall_fscore_support`; also ``zero_division=np.nan``.

    Examples
    --------
    >>> from confmat.sklearn import jaccard_score
    >>> round(jaccard_score([0, 1, 1, 0], [1, 1, 0, 0]), 4)
    0.3333
    """
    if check_zero_division_arg(zero_division, "jaccard_score") == "nan":  # refused there too
        raise ValueError(
            "The 'zero_division' parameter of jaccard_score must be a float among {0, 1} or a "
            "str among {'warn'}. Got nan instead."
        )
    c = set_wise_counts(y_true, y_pred, average, labels, pos_label, sample_weight)
    num = np.asarray(c.tp, dtype=np.float64)
    den = np.asarray(c.pred + c.true - c.tp, dtype=np.float64)
    if average == "micro":
        num, den = np.atleast_1d(num.sum()), np.atleast_1d(den.sum())
    j = divide(num, den, "jaccard", "true or predicted", average, ("jaccard",), zero_division)
    if average is None:
        return j
    weights: Any = None
    if average == "weighted":
        weights = c.true
        if not np.any(weights):
            weights = None
    elif average == "samples" and sample_weight is not None:
        weights = np.asarray(sample_weight, dtype=np.float64)
    if weights is None:
        return float(np.mean(j))
    return float(np.average(j, weights=weights))
