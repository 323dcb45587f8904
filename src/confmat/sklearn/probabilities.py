"""Scores of predicted probabilities with scikit-learn's signatures: ``log_loss`` and
``brier_score_loss``.

The arguments go through confmat's input door (labels and their kinds, one-hot targets,
finite probabilities in [0, 1], weights, the positive class); the losses are computed by
:mod:`confmat.curves.scoring_rules`. What is scikit-learn's own stays here: the columns of 2-D
probabilities follow the *sorted* classes (of ``labels`` when given, with scikit-learn's
warning when ``labels`` is not sorted), a 1-D vector is the probability of the greater class,
rows that do not sum to 1 are a warning (not an error), and the clipping ``eps`` is the
machine epsilon of the probabilities' own float type.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..curves.scoring_rules import EPS, brier_terms, log_loss_terms, mean_score
from ..inputs.indicators import is_indicator, one_hot_codes
from ..inputs.kinds import check_known_kinds, py_scalar
from ..inputs.probabilities import check_unit_interval, first_row_off_one
from ..inputs.targets import check_scores_1d, check_scores_2d, encode_truth
from ._door import positive_mask, weights
from ._params import check_flag, check_pos_label
from ._targets import as_array, check_consistent_length, column_or_1d, type_of_target

__all__ = ["brier_score_loss", "log_loss"]

#: scikit-learn's warning for probability rows that do not sum to 1
NOT_SUMMING = "The y_prob values do not sum to one. Make sure to pass probabilities."


def _probabilities(y_proba: Any) -> tuple[np.ndarray, float]:
    """``y_proba`` as finite float64 probabilities in [0, 1] (a column (n, 1) as a vector),
    and the clipping eps of its float type (float64's for other types, which scikit-learn
    converts to float64)."""
    if y_proba is None:
        raise TypeError("y_proba must be an array of probabilities, got None")
    if hasattr(y_proba, "toarray"):  # as scikit-learn: probabilities are dense
        raise TypeError("y_proba must be a dense array of probabilities, got a sparse matrix; "
                        "pass y_proba.toarray()")
    arr = as_array(y_proba, "y_proba")
    floats = (np.float16, np.float32, np.float64)
    eps = float(np.finfo(arr.dtype).eps) if arr.dtype in floats else EPS
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim == 1:
        p = check_scores_1d(arr, arr.shape[0], "y_proba")
    elif arr.ndim == 2:
        p = check_scores_2d(arr, arr.shape[0], "y_proba")
    else:
        raise ValueError("y_proba must be of shape (n_samples,) or (n_samples, n_classes), got "
                         f"shape {arr.shape}")
    check_unit_interval(p, "y_proba")
    return p, eps


def _book(labels: Any, classes: list[Any]) -> list[Any]:
    """The sorted classes of ``labels`` (the columns' order), warning as scikit-learn does when
    ``labels`` is given in another order, and refusing classes of ``y_true`` outside it."""
    given = [py_scalar(v) for v in column_or_1d(labels, "labels").tolist()]
    book, _ = encode_truth(given, "labels")
    check_known_kinds(book, classes, "y_true and labels")
    if given != book:
        warnings.warn(
            f"Labels passed were {given}. But this function assumes labels are ordered "
            f"lexicographically. Pass the ordered labels={book} and ensure that the columns of "
            "y_prob correspond to this ordering.", UserWarning, stacklevel=4)
    known = set(book)
    missing = {c for c in classes if c not in known}
    if missing:
        raise ValueError(f"y_true contains values {missing} not belonging to the passed labels "
                         f"{given}.")
    return book


def true_columns(y_true: Any, p: np.ndarray, labels: Any) -> np.ndarray:
    """The column of ``p`` holding each sample's true class, by scikit-learn's rules.

    The columns are the sorted classes of ``labels``, or of ``y_true`` without it; ``y_true``
    may also be a one-hot matrix whose columns are those of ``p``. Rows of ``p`` that do not
    sum to 1 are scikit-learn's ``UserWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Labels, or a one-hot matrix.
    p : ndarray of float64, shape (n_samples, n_columns)
        Probabilities checked by the door.
    labels : array-like or None
        The classes of the columns (sorted by the function).

    Returns
    -------
    ndarray of int64, shape (n_samples,)

    Raises
    ------
    ValueError
        Fewer than two classes, another number of classes than of columns, classes of
        ``y_true`` outside ``labels``, ``labels`` beside a one-hot ``y_true``, a ``y_true``
        matrix that is not one-hot; the door's errors on the labels.
    TypeError
        ``labels`` and ``y_true`` of kinds that cannot meet (numbers and text).

    Examples
    --------
    >>> true_columns(["b", "a", "b"], np.array([[0.1, 0.9], [0.8, 0.2], [0.5, 0.5]]), None)
    array([1, 0, 1])
    """
    if is_indicator(y_true):
        if labels is not None:
            raise ValueError("labels must be None when y_true is a one-hot matrix: its columns "
                             "are the classes of the columns of y_proba")
        k, col = one_hot_codes(y_true, "y_true")
        book: list[Any] = list(range(k))
    else:
        classes, codes = encode_truth(column_or_1d(y_true, "y_true"))
        book = classes if labels is None else _book(labels, classes)
        index = {c: i for i, c in enumerate(book)}
        col = np.array([index[c] for c in classes], dtype=np.int64)[codes]
    if first_row_off_one(p, rtol=math.sqrt(float(np.finfo(np.float64).eps))) is not None:
        warnings.warn(NOT_SUMMING, UserWarning, stacklevel=3)
    shown = np.asarray(book)
    if len(book) == 1:
        if labels is None:
            raise ValueError(f"y_true contains only one label ({book[0]}). Please provide the "
                             "list of all expected class labels explicitly through the labels "
                             "argument.")
        raise ValueError(f"The labels array needs to contain at least two labels, got {shown}.")
    if len(book) != p.shape[1]:
        if labels is None:
            raise ValueError(
                f"y_true and y_prob contain different number of classes: {len(book)} vs "
                f"{p.shape[1]}. Please provide the true labels explicitly through the labels "
                f"argument. Classes found in y_true: {shown}")
        raise ValueError("The number of classes in labels is different from that in y_prob. "
                         f"Classes found in labels: {shown}")
    return col


def log_loss(
    y_true: Any, y_proba: Any = None, *, normalize: Any = True, sample_weight: Any = None,
    labels: Any = None, y_pred: Any = "deprecated",
) -> float:
    """Log loss (logistic loss, cross-entropy; the logarithmic score of Good 1952), in nats.

    ``-(1/n) sum_i log p_i(y_i)``, the minus log of the probability each sample gives its true
    class, each probability first clipped to ``[eps, 1 - eps]`` (``eps`` the machine epsilon
    of ``y_proba``'s float type).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or one-hot matrix (n_samples, n_classes)
        True labels.
    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Probabilities, one column per class in sorted order (of ``labels`` when given), or
        the probability of the greater of two classes.
    normalize : bool, default=True
        The mean loss per sample; with False the sum (weighted by ``sample_weight``).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative sample weights.
    labels : array-like, optional
        The classes (sorted to give the columns' order); needed when ``y_true`` lacks some.
    y_pred : array-like, deprecated
        The former name of ``y_proba`` (scikit-learn 1.9 renamed it).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Probabilities outside [0, 1], NaN or infinite, of another length than ``y_true``;
        fewer than two classes; a number of classes other than the columns; classes of
        ``y_true`` outside ``labels``; both ``y_pred`` and ``y_proba``.
    TypeError
        Non-numeric probabilities, labels of kinds that cannot meet.

    Examples
    --------
    >>> from confmat.sklearn import log_loss
    >>> round(log_loss(["spam", "ham", "ham", "spam"],
    ...                [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]), 5)
    0.21616
    """
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError("Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, "
                             "use `y_proba` instead.")
        warnings.warn("`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in "
                      "1.11. Use `y_proba` instead.", FutureWarning, stacklevel=2)
        y_proba = y_pred
    check_flag(normalize, "normalize", "log_loss")
    p, eps = _probabilities(y_proba)
    check_consistent_length(p, y_true, sample_weight,
                            names=("y_proba", "y_true", "sample_weight"))
    w = weights(sample_weight, p.shape[0])
    if p.ndim == 1:
        p = np.column_stack((1.0 - p, p))
    col = true_columns(y_true, p, labels)
    return mean_score(log_loss_terms(p[np.arange(p.shape[0]), col], eps), w, bool(normalize))


def brier_score_loss(
    y_true: Any, y_proba: Any, *, sample_weight: Any = None, pos_label: Any = None,
    labels: Any = None, scale_by_half: Any = "auto",
) -> float:
    """Brier score (Brier 1950): the mean squared distance between the probabilities and the
    one-hot true class, ``(1/n) sum_i sum_k (p_ik - [y_i = k])**2``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or one-hot matrix (n_samples, n_classes)
        True labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probabilities of ``pos_label`` (a vector), or one column per class in sorted order
        (of ``labels`` when given).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative sample weights.
    pos_label : int, float, bool or str, optional
        The positive class of a probability vector: 1 for labels in {0, 1} or {-1, 1},
        otherwise the greater number; text labels need it. Every other class is negative.
    labels : array-like, optional
        The classes of the columns of a 2-D ``y_proba`` (sorted to give their order).
    scale_by_half : bool or 'auto', default='auto'
        Halve the score (to [0, 1]); ``'auto'``: for two classes only.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Probabilities outside [0, 1], NaN or infinite, of another length than ``y_true``; a
        probability vector with more than two classes in ``y_true``; text labels without
        ``pos_label``; the class errors of :func:`log_loss` for 2-D ``y_proba``; a bad
        ``scale_by_half``.
    TypeError
        Non-numeric probabilities, a ``pos_label`` that is not a single label.

    Examples
    --------
    >>> from confmat.sklearn import brier_score_loss
    >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 6)
    0.0375
    >>> round(brier_score_loss(["spam", "ham", "ham", "spam"], [0.1, 0.9, 0.8, 0.3],
    ...                        pos_label="ham"), 6)
    0.0375
    """
    if not (isinstance(scale_by_half, bool | np.bool_)
            or (isinstance(scale_by_half, str) and scale_by_half == "auto")):
        raise ValueError("The 'scale_by_half' parameter of brier_score_loss must be an instance "
                         f"of 'bool' or a str among {{'auto'}}. Got {scale_by_half!r} instead.")
    check_pos_label(pos_label)
    p, _ = _probabilities(y_proba)
    check_consistent_length(p, y_true, sample_weight,
                            names=("y_proba", "y_true", "sample_weight"))
    w = weights(sample_weight, p.shape[0])
    if p.ndim == 1:
        t = column_or_1d(y_true, "y_true")
        kind = type_of_target(t, input_name="y_true")
        if kind != "binary":
            raise ValueError(f"The type of the target inferred from y_true is {kind} but should "
                             "be binary according to the shape of y_prob.")
        pos, _ = positive_mask(t, pos_label, greater=True)
        # the vector as its two columns (1 - p, p), the positive class the second
        p, col = np.column_stack((1.0 - p, p)), np.asarray(pos, dtype=np.int64)
    else:
        col = true_columns(y_true, p, labels)
    terms = brier_terms(p, col)
    columns = p.shape[1]
    score = mean_score(terms, w)
    half = columns < 3 if isinstance(scale_by_half, str) else bool(scale_by_half)
    return 0.5 * score if half else score
