"""Probabilities: scores in [0, 1], and rows of one column per class that sum to 1.

Each rule is one function here, whatever its caller does with a failure: refuse it (the
curves, calibration, score histograms, the scikit-learn drop-in), choose another default
(the report's calibration section and its slider, the marked thresholds of a sweep plot) or
name a file's data row. A value is outside the unit interval when it is below 0 or above 1
(:func:`first_outside_unit_interval`; NaN is neither: finiteness is the rule of
:func:`confmat.inputs.scores.finite_float`); a row sums to 1 when its sum is within
``numpy.isclose``'s tolerance of 1 (:func:`first_row_off_one`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "check_rows_sum_to_one",
    "check_unit_interval",
    "first_outside_unit_interval",
    "first_row_off_one",
    "in_unit_interval",
]


def first_outside_unit_interval(p: np.ndarray) -> Any:
    """Where the first value below 0 or above 1 is (NaN is neither).

    Parameters
    ----------
    p : ndarray of float64, shape (n,) or (n, K)
        Scores.

    Returns
    -------
    int, tuple of int or None
        The 0-based position (an index tuple for 2-D scores), or None when every value lies
        in [0, 1] (or is NaN).

    Examples
    --------
    >>> first_outside_unit_interval(np.array([0.5, 1.0, np.inf]))
    2
    >>> first_outside_unit_interval(np.array([[0.2, 0.8], [1.5, -0.5]]))
    (1, 0)
    >>> first_outside_unit_interval(np.array([0.0, np.nan, 1.0])) is None
    True
    """
    p = np.asarray(p)
    bad = (p < 0) | (p > 1)
    if not bad.any():
        return None
    pos = np.argwhere(bad)[0]
    return int(pos[0]) if p.ndim == 1 else tuple(int(i) for i in pos)


def in_unit_interval(p: np.ndarray) -> bool:
    """True when no value lies below 0 or above 1: scores that read as probabilities.

    Parameters
    ----------
    p : ndarray of float64
        Scores (finite: the door refused NaN before).

    Returns
    -------
    bool

    Examples
    --------
    >>> in_unit_interval(np.array([0.0, 0.5, 1.0])), in_unit_interval(np.array([-0.1, 0.5]))
    (True, False)
    """
    return first_outside_unit_interval(p) is None


def check_unit_interval(p: np.ndarray, name: str) -> None:
    """Refuse probabilities outside [0, 1], naming the first such value and its position.

    Parameters
    ----------
    p : ndarray of float64, shape (n,) or (n, K)
        Finite probabilities (as :func:`confmat.inputs.scores.check_scores_1d` /
        :func:`~confmat.inputs.scores.check_scores_2d` return).
    name : str
        The argument's name, used in the message.

    Raises
    ------
    ValueError
        A value below 0 or above 1.

    Examples
    --------
    >>> check_unit_interval(np.array([[0.2, 0.8], [1.5, -0.5]]), "y_prob")
    Traceback (most recent call last):
    ...
    ValueError: y_prob must be probabilities in [0, 1]; found 1.5 at position (1, 0)
    """
    where = first_outside_unit_interval(p)
    if where is not None:
        raise ValueError(f"{name} must be probabilities in [0, 1]; found {float(p[where])!r} "
                         f"at position {where}")


def first_row_off_one(p: np.ndarray, rtol: float = 1e-5, atol: float = 1e-8, *,
                      relative_to_sum: bool = False) -> int | None:
    """The first row of class probabilities whose sum is not close to 1, or None.

    One rule for every caller, whatever it does with such a row (refuse it, or warn as
    scikit-learn's ``log_loss`` does): ``|sum - 1| <= atol + rtol`` (``numpy.isclose(sum,
    1)``); a row holding NaN is off. scikit-learn's ``roc_auc_score`` scales the relative
    tolerance by the sum instead (``numpy.allclose(1, sum)``: ``|sum - 1| <= atol + rtol *
    |sum|``), which ``relative_to_sum=True`` reproduces for its drop-in.

    Parameters
    ----------
    p : ndarray of float64, shape (n, K)
        Probabilities, one column per class.
    rtol, atol : float
        Relative and absolute tolerance of the sum.
    relative_to_sum : bool, default False
        Scale ``rtol`` by ``|sum|`` rather than by 1.

    Returns
    -------
    int or None
        The 0-based row, or None when every row sums to 1.

    Examples
    --------
    >>> first_row_off_one(np.array([[0.2, 0.8], [0.5, 0.6]])), first_row_off_one(np.eye(2))
    (1, None)
    """
    sums = np.asarray(p).sum(axis=1)
    if relative_to_sum:
        bad = ~np.isclose(1.0, sums, rtol=rtol, atol=atol)
    else:
        bad = ~np.isclose(sums, 1.0, rtol=rtol, atol=atol)
    return int(np.flatnonzero(bad)[0]) if bad.any() else None


def check_rows_sum_to_one(p: np.ndarray, name: str = "y_score", purpose: str = "") -> None:
    """Refuse class probabilities with a row whose sum is not close to 1
    (:func:`first_row_off_one`), naming the first such row and its sum.

    Parameters
    ----------
    p : ndarray of float64, shape (n, K)
        Finite scores, one column per class.
    name : str, default 'y_score'
        The argument's name, for the message.
    purpose : str, default ''
        What needs the rows to sum to 1, when the caller says (``"multi_class='ovr' or
        'ovo'"``).

    Raises
    ------
    ValueError
        If a row's sum is not close to 1 (``rtol=1e-5``, ``atol=1e-8``).

    Examples
    --------
    >>> check_rows_sum_to_one(np.array([[0.2, 0.8], [0.5, 0.6]]), "y_prob")
    Traceback (most recent call last):
    ...
    ValueError: y_prob rows must be probabilities summing to 1; row 1 sums to 1.1
    """
    i = first_row_off_one(p)
    if i is not None:
        why = f" for {purpose}" if purpose else ""
        raise ValueError(f"{name} rows must be probabilities summing to 1{why}; row {i} sums "
                         f"to {float(np.asarray(p)[i].sum())!r}")
