"""Checks and small helpers shared by the curve modules and :mod:`confmat.binned`.

Public within the package: :mod:`confmat.binned` computes its curves and areas from histogram
counts with the same rules (``average``, ``method``, ``max_fpr``, undefined AUC) as the exact
functions, by importing these.

:func:`trapezoid` is a compatibility shim: numpy names its trapezoidal rule ``trapz`` before
numpy 2.0 and ``trapezoid`` since (numpy 2.4 dropped the old name); confmat supports numpy 1.24.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from ..metrics import UndefinedMetricWarning

#: The ways :func:`confmat.average_precision` integrates the precision-recall curve.
APMethod = Literal["step", "interpolated", "trapezoid"]

# looked up in the module's namespace: the type stubs of numpy >= 2.4 no longer have trapz
_TRAPEZOID: Callable[..., Any] = (np.trapezoid if hasattr(np, "trapezoid")
                                  else vars(np)["trapz"])


def trapezoid(y: np.ndarray, x: np.ndarray, axis: int = -1) -> Any:
    """numpy's trapezoidal rule, ``np.trapezoid`` (``np.trapz`` on numpy < 2.0).

    Parameters
    ----------
    y, x : ndarray
        The values and the points they are at, along ``axis``.
    axis : int, default -1
        The axis to integrate along.

    Returns
    -------
    float or ndarray
        The area, one per remaining index when ``y`` has more than one dimension.

    Examples
    --------
    >>> float(trapezoid(np.array([0.0, 1.0, 1.0]), np.array([0.0, 0.5, 1.0])))
    0.75
    """
    return _TRAPEZOID(y, x, axis=axis)


def trapezoid_area(x: np.ndarray, y: np.ndarray) -> float:
    """Trapezoidal area under the points ``(x, y)`` as a Python float.

    Parameters
    ----------
    x, y : ndarray
        The points, in the order of ``x`` along the curve.

    Returns
    -------
    float

    Examples
    --------
    >>> trapezoid_area(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0]))
    0.75
    """
    return float(trapezoid(y, x))


def check_max_fpr(max_fpr: Any) -> float | None:
    """``max_fpr`` as a float in (0, 1], or None; TypeError / ValueError otherwise.

    Parameters
    ----------
    max_fpr : float or None
        The upper limit of the false positive rate of a partial AUC.

    Returns
    -------
    float or None

    Raises
    ------
    TypeError
        If it is not a number (a bool is refused) or None.
    ValueError
        If it is outside (0, 1].

    Examples
    --------
    >>> check_max_fpr(1), check_max_fpr(None)
    (1.0, None)
    >>> check_max_fpr(0)
    Traceback (most recent call last):
    ...
    ValueError: max_fpr must be in (0, 1], got 0
    """
    if max_fpr is None:
        return None
    if isinstance(max_fpr, bool) or not isinstance(max_fpr, int | float | np.number):
        raise TypeError(f"max_fpr must be a number in (0, 1] or None, got {max_fpr!r}")
    if not 0 < max_fpr <= 1:
        raise ValueError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
    return float(max_fpr)


def undefined_auc() -> float:
    """NaN, with the :class:`UndefinedMetricWarning` of an AUC of one class only.

    Returns
    -------
    float
        NaN.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = undefined_auc()
    >>> value, caught[0].category.__name__
    (nan, 'UndefinedMetricWarning')
    """
    warnings.warn(
        "Only one class is present in y_true. ROC AUC score is not defined in that case.",
        UndefinedMetricWarning,
        stacklevel=4,
    )
    return float("nan")


def average_scores(
    scores: np.ndarray, average: str | None, support: np.ndarray
) -> float | np.ndarray:
    """Average per-class scores as scikit-learn does (weighted: zero-support classes count 0).

    Parameters
    ----------
    scores : ndarray of shape (n_classes,)
        Per-class scores.
    average : {'macro', 'weighted'} or None
        None returns ``scores``; any other value than ``'macro'`` weights by ``support``.
    support : ndarray of shape (n_classes,)
        The weight of each class (its positives), non-negative; a total of exactly 0 gives
        0.0 (however small a positive total, the weighted mean).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> average_scores(np.array([1.0, 0.5]), "weighted", np.array([3, 1]))
    0.875
    >>> average_scores(np.array([1.0, 0.5]), "macro", np.array([3, 1]))
    0.75
    >>> average_scores(np.array([1.0, 0.5]), "weighted", np.array([3e-12, 1e-12]))
    0.875
    """
    if average is None:
        return scores
    if average == "macro":
        return float(np.mean(scores))
    # a total of exactly 0, not one close to 0: scikit-learn's np.isclose(total, 0) turns
    # every weighted average of sample weights below about 1e-8 into 0 (docs/curves.md)
    if not support.sum() > 0:
        return 0.0
    scores = np.where(support == 0, 0.0, scores)
    # moved by a power of two (exact) near 1: products of tiny supports would underflow
    scaled = np.ldexp(np.asarray(support, dtype=np.float64), -int(np.frexp(support.max())[1]))
    return float(np.average(scores, weights=scaled))


def check_average(average: Any, allowed: Sequence[Any]) -> None:
    """Raise ValueError unless ``average`` is one of ``allowed``.

    Parameters
    ----------
    average : object
        The caller's ``average``.
    allowed : sequence
        The values the caller accepts (None included when it is allowed).

    Raises
    ------
    ValueError
        If ``average`` is not in ``allowed``; the message lists them.

    Examples
    --------
    >>> check_average("micro", ["macro", "weighted", None])
    Traceback (most recent call last):
    ...
    ValueError: average must be one of ['macro', 'weighted', None], got 'micro'
    """
    if average not in allowed:
        raise ValueError(f"average must be one of {list(allowed)}, got {average!r}")


def check_method(method: Any) -> APMethod:
    """``method`` of average precision, checked against ``APMethod``.

    Parameters
    ----------
    method : object
        The caller's ``method``.

    Returns
    -------
    {'step', 'interpolated', 'trapezoid'}

    Raises
    ------
    ValueError
        For any other value.

    Examples
    --------
    >>> check_method("step")
    'step'
    """
    if method not in ("step", "interpolated", "trapezoid"):
        raise ValueError(
            f"method must be 'step', 'interpolated' or 'trapezoid', got {method!r}"
        )
    return method


def check_real(value: Any, name: str) -> float:
    """A scalar parameter (a cost, a prior, a target level, ``beta``) as a float: a real
    number, not a bool nor a string; its range is the caller's to check (NaN included).

    Parameters
    ----------
    value : float
    name : str
        The argument's name, used in the error message.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Not a real number.

    Examples
    --------
    >>> check_real(np.int64(2), "beta")
    2.0
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    return float(value)
