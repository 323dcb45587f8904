"""Scores of score-taking functions: finite float64 arrays, and the bins of score histograms.

The door of :mod:`confmat.inputs.targets` hands scores here: one score per sample
(:func:`check_scores_1d`) or one column per class (:func:`check_scores_2d`), numbers only,
float64, finite (the first NaN or infinite value is named by position), and integer scores
only where float64 keeps their order (:func:`check_integer_scores`). Thresholds are read as
numbers the same way (:func:`numeric_1d`; one threshold :func:`check_threshold`, many
:func:`check_thresholds`), and the number of bins of a score histogram is
checked once (:func:`check_bins`), with the range they split (:func:`check_score_range`, whose
edges :func:`histogram_edges` forms). The rules of probabilities (scores in [0, 1], rows
of one column per class summing to 1) are in :mod:`confmat.inputs.probabilities`.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .encode import all_finite, as_1d
from .score_shape import length_error

#: The most score bins a histogram takes: 10 million bins of [0, 1] are 1e-7 wide, finer than
#: a float32 score resolves, and their counts already take 80 MB per class and score column.
MAX_BINS = 10_000_000

__all__ = [
    "MAX_BINS",
    "check_bins",
    "check_finite_columns",
    "check_integer_scores",
    "check_score_range",
    "check_scores_1d",
    "check_scores_2d",
    "check_threshold",
    "check_thresholds",
    "finite_float",
    "first_non_finite",
    "float_scores",
    "histogram_edges",
    "non_finite_error",
    "numeric_1d",
]


def numeric_1d(x: Any, name: str) -> np.ndarray:
    """A 1-D array of numbers (scores, thresholds); NaN is reported by :func:`finite_float`.

    Parameters
    ----------
    x : array-like of shape (n,)
        The values.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    ndarray
        ``x`` as a 1-D array (dtype unchanged).

    Raises
    ------
    TypeError
        A list or tuple mixes numbers with other values.
    ValueError
        ``x`` is not 1-D.

    Examples
    --------
    >>> numeric_1d([0.5, 0.25], "thresholds").tolist()
    [0.5, 0.25]
    """
    if isinstance(x, list | tuple):
        arr = np.asarray(x)
        if arr.dtype == object:
            raise TypeError(f"{name} must contain numbers, got mixed or non-numeric values")
        x = arr
    return as_1d(x, name, "number")


def check_threshold(threshold: Any, name: str = "threshold") -> float:
    """A decision threshold (``score >= threshold``) as a float: a real number, not NaN
    (``inf`` and ``-inf`` predict every sample negative or positive).

    Parameters
    ----------
    threshold : float
    name : str, default='threshold'
        The argument's name, used in error messages.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Not a real number (a bool or a string, say).
    ValueError
        NaN, under which no score would be positive.

    Examples
    --------
    >>> check_threshold(np.float32(0.25))
    0.25
    """
    if isinstance(threshold, bool | np.bool_) or not isinstance(threshold, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {threshold!r}")
    value = float(threshold)
    if math.isnan(value):
        raise ValueError(f"{name} must not be NaN (no score is >= NaN)")
    return value


def check_thresholds(thresholds: Any) -> np.ndarray:
    """User thresholds as a non-empty 1-D float array without NaN.

    Parameters
    ----------
    thresholds : array-like of shape (n_thresholds,)
        The thresholds.

    Returns
    -------
    ndarray of float64

    Raises
    ------
    TypeError
        If they are not numbers.
    ValueError
        If they are empty, not 1-D, or hold NaN.

    Examples
    --------
    >>> check_thresholds([1, 0.5]).tolist()
    [1.0, 0.5]
    """
    t = numeric_1d(thresholds, "thresholds")
    if t.dtype.kind not in "iuf":
        raise TypeError(f"thresholds must be numbers, got dtype {t.dtype}")
    t = t.astype(np.float64)
    if t.size == 0:
        raise ValueError("thresholds must not be empty")
    if np.isnan(t).any():
        raise ValueError("thresholds contains NaN")
    return t


def check_scores_1d(y_score: Any, n: int, name: str = "y_score") -> np.ndarray:
    """One finite float64 score per sample.

    Parameters
    ----------
    y_score : array-like of shape (n,)
        Scores; higher means more likely positive.
    n : int
        Number of samples in ``y_true``.
    name : str, default='y_score'
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64, shape (n,)

    Raises
    ------
    TypeError
        The scores are not numbers.
    ValueError
        Wrong length, not 1-D, NaN or infinite values (the first position is named).

    Examples
    --------
    >>> check_scores_1d([1, 0], 2).tolist()
    [1.0, 0.0]
    """
    return finite_float(numeric_1d(y_score, name), n, name)


def check_scores_2d(y_score: Any, n: int, name: str = "y_score") -> np.ndarray:
    """Finite float64 scores of shape (n, K): one column per class.

    Parameters
    ----------
    y_score : array-like of shape (n, K)
        Class scores (often probabilities).
    n : int
        Number of samples in ``y_true``.
    name : str, default='y_score'
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64, shape (n, K)

    Raises
    ------
    TypeError
        ``y_score`` is None or not numeric.
    ValueError
        Not 2-D, wrong number of rows, NaN or infinite values.

    Examples
    --------
    >>> check_scores_2d([[0.2, 0.8], [0.6, 0.4]], 2).shape
    (2, 2)
    """
    if y_score is None:
        raise TypeError(f"{name} must be an array of scores, got None")
    s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if s.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_classes), got shape {s.shape}")
    return finite_float(s, n, name)


def float_scores(s: np.ndarray, n: int, name: str) -> np.ndarray:
    """``s`` as float64 with ``n`` rows, finiteness not yet checked.

    For a caller whose next pass over the scores rejects NaN and infinite values anyway (the
    bin lookup of a score histogram); it then raises :func:`finite_float`'s error.

    Parameters
    ----------
    s : ndarray
        Numeric array whose first axis runs over the samples.
    n : int
        Expected number of rows.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64

    Raises
    ------
    TypeError
        ``s`` is not numeric.
    ValueError
        ``s`` has another number of rows.

    Examples
    --------
    >>> float_scores(np.array([1, 2]), 2, "y_score").dtype
    dtype('float64')
    """
    if s.dtype.kind not in "iufb":
        raise TypeError(f"{name} must contain numbers, got dtype {s.dtype}")
    if s.shape[0] != n:
        raise length_error(n, s.shape[0], name)
    out = s.astype(np.float64, copy=False)
    if s.dtype.kind in "iu" and s.size and (s.max() > 2**53 or s.min() < -(2**53)):
        check_integer_scores(s, name)
    return out


def check_integer_scores(s: np.ndarray, name: str) -> None:
    """Refuse integer scores that float64 cannot tell apart (beyond 2**53): two distinct
    scores of one column that round to the same float64 would become a tie and move the
    curve and its area.

    Parameters
    ----------
    s : ndarray of integers
        The scores, one row per sample.
    name : str
        The argument's name, used in the message.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        Naming two scores that become equal.

    Examples
    --------
    >>> s = np.array([2**62, 2**62 + 1])
    >>> check_integer_scores(s, "y_score")
    Traceback (most recent call last):
    ...
    ValueError: y_score: the integer scores 4611686018427387904 and 4611686018427387905 are both 4.611686018427388e+18 in float64 (integers beyond 2**53 are rounded), so their order would be lost; pass scores that float64 represents exactly, e.g. ranks or scaled values
    """
    ints = s.reshape(s.shape[0], -1)
    for j in range(ints.shape[1]):
        distinct = np.unique(ints[:, j])
        rounded = distinct.astype(np.float64)
        same = np.flatnonzero(rounded[1:] == rounded[:-1])
        if same.size:
            a, b = int(distinct[same[0]]), int(distinct[same[0] + 1])
            raise ValueError(
                f"{name}: the integer scores {a} and {b} are both {float(rounded[same[0]])!r} in "
                "float64 (integers beyond 2**53 are rounded), so their order would be lost; "
                "pass scores that float64 represents exactly, e.g. ranks or scaled values"
            )


def finite_float(s: np.ndarray, n: int, name: str) -> np.ndarray:
    """``s`` as finite float64 with ``n`` rows.

    Parameters
    ----------
    s : ndarray
        Numeric array whose first axis runs over the samples.
    n : int
        Expected number of rows.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64

    Raises
    ------
    TypeError
        ``s`` is not numeric.
    ValueError
        ``s`` has another number of rows, or holds NaN / infinite values.

    Examples
    --------
    >>> finite_float(np.array([1, 2]), 2, "y_score").dtype
    dtype('float64')
    >>> finite_float(np.array([1e308, 1e308]), 2, "y_score").tolist()  # their sum overflows
    [1e+308, 1e+308]
    """
    s = float_scores(s, n, name)
    if all_finite(s):
        return s
    where = first_non_finite(s)
    if where is None:  # finite scores whose sum overflows (two of 1e308)
        return s
    raise non_finite_error(s[where], where, name)


def non_finite_error(value: float, where: Any, name: str) -> ValueError:
    """The one message of a NaN or infinite score and its position.

    Parameters
    ----------
    value : float
        The score (NaN or infinite).
    where : int or tuple of int
        Its 0-based position (an index tuple in a score matrix).
    name : str
        The argument's name.

    Returns
    -------
    ValueError
        To be raised by the caller.

    Examples
    --------
    >>> print(non_finite_error(np.nan, (3, 1), "y_score"))
    y_score contains NaN at position (3, 1); scores must be finite
    """
    what = "NaN" if np.isnan(value) else "an infinite value"
    return ValueError(f"{name} contains {what} at position {where}; scores must be finite")


def check_finite_columns(s: np.ndarray, columns: list[int], name: str = "y_score") -> None:
    """Refuse a NaN or infinite score in the ``columns`` of a score matrix that a caller
    uses (the others it never reads), naming its position in the whole matrix as
    :func:`finite_float` does.

    Parameters
    ----------
    s : ndarray of numbers, shape (n, K)
        The score matrix (its shape already checked).
    columns : list of int
        The columns read.
    name : str, default 'y_score'
        The argument's name.

    Raises
    ------
    TypeError
        The scores are not numbers.
    ValueError
        A NaN or infinite value in one of ``columns``.

    Examples
    --------
    >>> check_finite_columns(np.array([[0.5, np.nan], [np.inf, 0.5]]), [1])
    Traceback (most recent call last):
    ...
    ValueError: y_score contains NaN at position (0, 1); scores must be finite
    """
    sub = float_scores(s[:, columns], s.shape[0], name)
    where = None if all_finite(sub) else first_non_finite(sub)
    if where is not None:
        pos = (where[0], columns[where[1]])
        raise non_finite_error(s[pos], pos, name)


def first_non_finite(s: np.ndarray) -> Any:
    """Where the first NaN or infinite score is: the rule of :func:`finite_float`, for a
    caller that names the place in its own terms (the data row of a file).

    Parameters
    ----------
    s : ndarray of float64
        Scores whose first axis runs over the samples (as :func:`float_scores` returns).

    Returns
    -------
    int, tuple of int or None
        The 0-based position (an index tuple for 2-D scores), or None when every score is
        finite.

    Examples
    --------
    >>> first_non_finite(np.array([0.5, np.inf, np.nan])), first_non_finite(np.ones(2))
    (1, None)
    >>> first_non_finite(np.array([[0.5, 0.5], [np.nan, 1.0]]))
    (1, 0)
    """
    bad = ~np.isfinite(s)
    if not bad.any():
        return None
    pos = np.argwhere(bad)[0]
    return int(pos[0]) if s.ndim == 1 else tuple(int(i) for i in pos)


def check_bins(bins: Any, name: str = "bins") -> int:
    """The number of equal-width score bins of a histogram: an integer from 1 to
    :data:`MAX_BINS`.

    Parameters
    ----------
    bins : int
        The number asked for.
    name : str, default "bins"
        The argument, for the message.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        Not an integer (booleans included), below 1 or above :data:`MAX_BINS`.

    Examples
    --------
    >>> check_bins(1000)
    1000
    >>> check_bins(10**20)
    Traceback (most recent call last):
    ...
    ValueError: bins must be a positive integer of at most 10_000_000, got 100000000000000000000
    """
    if (isinstance(bins, bool) or not isinstance(bins, int | np.integer)
            or not 1 <= bins <= MAX_BINS):
        raise ValueError(f"{name} must be a positive integer of at most {MAX_BINS:_}, got {bins!r}")
    return int(bins)


def histogram_edges(bins: int, lo: float, hi: float) -> np.ndarray:
    """The ``bins + 1`` edges of equal-width score bins of ``[lo, hi]``:
    ``lo + (hi - lo) * (j / bins)``, the last one ``hi`` itself.

    ``j / bins`` is rounded once, so with the default range ``[0, 1]`` the edges are the
    doubles nearest to ``j / bins`` (0.1, 0.2, ... are edges of 10 bins). ``numpy.linspace``,
    which ``numpy.histogram(bins=B, range=...)`` uses, forms ``lo + j * ((hi - lo) / bins)``
    instead and differs from these by one unit in the last place at some ``j`` (0.3 becomes
    0.30000000000000004). The one formula of the edges of
    :class:`~confmat.binned.ScoreHistogram` (and, in SQL, of
    :func:`confmat.inputs.sql_counts.bin_expression`).

    Parameters
    ----------
    bins : int
        Number of bins (checked by :func:`check_bins`).
    lo, hi : float
        The range (checked by :func:`check_score_range`).

    Returns
    -------
    ndarray of float64, shape (bins + 1,)

    Examples
    --------
    >>> histogram_edges(4, 0.0, 1.0).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> float(histogram_edges(10, 0.0, 1.0)[3]), float(np.linspace(0.0, 1.0, 11)[3])
    (0.3, 0.30000000000000004)
    """
    e = lo + (hi - lo) * (np.arange(bins + 1) / bins)
    e[-1] = hi
    return e


def check_score_range(score_range: Any, bins: int) -> tuple[float, float]:
    """The ``(lo, hi)`` range of a score histogram of ``bins`` bins: two finite numbers, ``lo
    < hi``, whose bins float64 can form.

    A bin is looked up as ``floor((s - lo) * (bins / (hi - lo)))`` moved by one against the
    edges (:func:`histogram_edges`), so ``hi - lo`` and ``bins / (hi - lo)`` must be finite
    and the edges strictly increasing: a range so wide that ``hi - lo`` overflows, or so
    narrow that neighbouring edges round to one double, would put scores into wrong bins
    without a word (``numpy.histogram`` refuses such ranges too).

    Parameters
    ----------
    score_range : (float, float)
        The range asked for.
    bins : int
        The number of bins (already checked by :func:`check_bins`).

    Returns
    -------
    (float, float)

    Raises
    ------
    TypeError
        Not two numbers.
    ValueError
        Not finite, ``lo >= hi``, or bins that float64 cannot form in it.

    Examples
    --------
    >>> check_score_range((0, 1), 10)
    (0.0, 1.0)
    >>> check_score_range((-1e308, 1e308), 10)
    Traceback (most recent call last):
    ...
    ValueError: score_range=(-1e+308, 1e+308) is too wide for float64: hi - lo overflows; choose a narrower range
    """
    try:
        if isinstance(score_range, str | bytes) or any(
                isinstance(v, str | bytes | bool | np.bool_) for v in score_range):
            raise TypeError("text or booleans")  # float("0.5") and float(True) would pass
        lo, hi = (float(v) for v in score_range)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"score_range must be two numbers (lo, hi), got {score_range!r}") from exc
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"score_range must be finite with lo < hi, got {score_range!r}")
    if not math.isfinite(hi - lo):
        raise ValueError(f"score_range={(lo, hi)} is too wide for float64: hi - lo overflows; "
                         "choose a narrower range")
    if not math.isfinite(bins / (hi - lo)) or not (np.diff(histogram_edges(bins, lo, hi)) > 0).all():
        raise ValueError(f"score_range={(lo, hi)} is too narrow for {bins} bins: float64 cannot "
                         "form bins that small; choose fewer bins or a wider range")
    return lo, hi

