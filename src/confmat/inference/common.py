"""Argument checks and lazy SciPy access shared by the inference modules."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

# the normal distribution lives below, in the metrics layer (d' needs it too); re-exported here
from ..metrics.normal import norm_cdf as norm_cdf
from ..metrics.normal import z_quantile as z_quantile

DEFAULT_RESAMPLES = 9999


def as_float(value: Any) -> float:
    """A number given by a user as float64; a float32 or float16 as the decimal it prints as.

    ``np.float32(0.95)`` is the float32 nearest to 0.95, and its shortest decimal that rounds
    back to it (Steele & White 1990) is ``0.95``: that decimal is what the user wrote, so it
    is read, rather than the float32's binary value widened (0.949999988079071). Every other
    number is ``float(value)``.

    Parameters
    ----------
    value : int, float or numpy number
        The number (already known to be one).

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> as_float(np.float32(0.95)), float(np.float32(0.95))
    (0.95, 0.949999988079071)
    """
    if isinstance(value, np.floating) and value.dtype.itemsize < 8:
        return float(str(value))
    return float(value)


def check_level(level: Any) -> float:
    """Validate a confidence level: a number strictly between 0 and 1 (a float32 or float16
    level is the decimal it prints as, see :func:`as_float`).

    Parameters
    ----------
    level : float
        The confidence level.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        If it is not a number (a bool is refused).
    ValueError
        If it is not strictly between 0 and 1.

    Examples
    --------
    >>> check_level(0.95)
    0.95
    >>> import numpy as np
    >>> check_level(np.float32(0.95))  # the decimal written, not 0.949999988079071
    0.95
    >>> check_level(95)
    Traceback (most recent call last):
    ...
    ValueError: level must lie strictly between 0 and 1 (e.g. 0.95), got 95.0
    """
    if isinstance(level, bool) or not isinstance(level, int | float | np.floating | np.integer):
        raise TypeError(f"level must be a number in (0, 1), got {type(level).__name__} {level!r}")
    level = as_float(level)
    if not (0.0 < level < 1.0):
        raise ValueError(f"level must lie strictly between 0 and 1 (e.g. 0.95), got {level!r}")
    return level


def check_numbers(value: Any, name: str) -> np.ndarray:
    """Read an array of numbers given by a user as float64 (any shape).

    Parameters
    ----------
    value : float or array-like
        Numbers (Python ints past 64 bits too, as floats); NaN and infinities pass (the
        caller decides what they mean).
    name : str
        The argument's name, for messages.

    Returns
    -------
    numpy.ndarray
        ``value`` as float64.

    Raises
    ------
    TypeError
        Entries that are not numbers: booleans, strings, None or other objects.

    Examples
    --------
    >>> check_numbers([1, 2.5], "pvalues")
    array([1. , 2.5])
    >>> check_numbers([True, False], "pvalues")
    Traceback (most recent call last):
    ...
    TypeError: pvalues must hold numbers, got dtype bool
    """
    arr = np.asarray(value)
    if arr.dtype == object and arr.size and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool | np.bool_) for v in arr.flat):
        return arr.astype(np.float64)  # e.g. Python ints past 64 bits
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}")
    return arr.astype(np.float64)


#: how far a count may pass its number of trials and still be taken as equal to it: sums of
#: float weights (``support`` and ``N`` of a weighted table) round in different orders
COUNT_SLACK = 8 * np.finfo(np.float64).eps


def check_proportion_counts(count: Any, nobs: Any) -> tuple[np.ndarray, np.ndarray]:
    """Validate the successes and trials of binomial proportions (broadcast together).

    Counts may be non-integer (sums of weights). ``nobs = 0`` is allowed (the proportion is
    undefined there); a count may pass ``nobs`` only by the rounding of sums of float
    weights (:data:`COUNT_SLACK` relative), and is then taken as ``nobs``.

    Parameters
    ----------
    count : float or array-like
        Successes, finite and non-negative.
    nobs : float or array-like
        Trials, finite and non-negative, at least ``count``.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``count`` and ``nobs`` as float64 arrays of their broadcast shape.

    Raises
    ------
    TypeError
        Entries that are not numbers (booleans included).
    ValueError
        NaN, infinite or negative entries, shapes that do not broadcast, or a count above its
        number of trials (each naming the argument).

    Examples
    --------
    >>> check_proportion_counts(3, [5, 10])
    (array([3., 3.]), array([ 5., 10.]))
    >>> check_proportion_counts(6, 5)
    Traceback (most recent call last):
    ...
    ValueError: count must not exceed nobs; found count 6 > nobs 5
    """
    arrays = []
    for value, name in ((count, "count"), (nobs, "nobs")):
        arr = check_numbers(value, name)
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} must be finite; found {arr[~np.isfinite(arr)].flat[0]}")
        if (arr < 0).any():
            raise ValueError(f"{name} must be non-negative; found {arr[arr < 0].flat[0]:g}")
        arrays.append(arr)
    try:
        x, n = np.broadcast_arrays(*arrays)
    except ValueError as exc:
        raise ValueError(f"count and nobs must broadcast together, got shapes "
                         f"{arrays[0].shape} and {arrays[1].shape}") from exc
    over = x > n * (1.0 + COUNT_SLACK)
    if over.any():
        i = np.flatnonzero(over.ravel())[0]
        raise ValueError(f"count must not exceed nobs; found count {x.flat[i]:g} > nobs "
                         f"{n.flat[i]:g}")
    return np.minimum(x, n), n.copy()


def min_resamples(level: float) -> int:
    """Fewest resamples accepted: 100, and enough for at least one resample in each tail.

    Parameters
    ----------
    level : float
        The confidence level, in (0, 1).

    Returns
    -------
    int
        ``max(100, ceil(2 / (1 - level)))``.

    Examples
    --------
    >>> min_resamples(0.95), min_resamples(0.999)
    (100, 2000)
    """
    return max(100, math.ceil(2.0 / (1.0 - level)))


def check_n_resamples(n_resamples: Any, level: float) -> int:
    """Validate the number of bootstrap resamples for a confidence level.

    Parameters
    ----------
    n_resamples : int
        The number of resamples.
    level : float
        The confidence level (validated).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If it is not an integer (a bool is refused).
    ValueError
        If it is below :func:`min_resamples` of ``level``.

    Examples
    --------
    >>> check_n_resamples(1000, 0.95)
    1000
    """
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int | np.integer):
        raise TypeError(f"n_resamples must be an integer, got {type(n_resamples).__name__}")
    n_resamples = int(n_resamples)
    need = min_resamples(level)
    if n_resamples < need:
        raise ValueError(
            f"n_resamples={n_resamples} is too few for level={level}: at least {need} are needed "
            "so that both tails of the bootstrap distribution hold resamples"
        )
    return n_resamples


def check_random_state(random_state: Any) -> np.random.Generator:
    """``None``, an int seed or a ``numpy.random.Generator`` (used as is, so draws advance it).

    Parameters
    ----------
    random_state : None, int or numpy.random.Generator
        None draws fresh entropy; an int is a seed.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    TypeError
        For any other type (a bool is refused).
    ValueError
        For a negative seed.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> check_random_state(rng) is rng
    True
    """
    if random_state is None or isinstance(random_state, np.random.Generator):
        return np.random.default_rng(random_state)
    if isinstance(random_state, bool) or not isinstance(random_state, int | np.integer):
        raise TypeError(
            "random_state must be None, an int seed or a numpy.random.Generator, got "
            f"{type(random_state).__name__}"
        )
    if random_state < 0:
        raise ValueError(f"random_state must be a non-negative seed, got {random_state}")
    return np.random.default_rng(int(random_state))


def scipy_special() -> Any:
    """``scipy.special`` (a core dependency; imported on first use: it costs a fresh process
    about 0.3 s).

    Returns
    -------
    module
    """
    import scipy.special as sp

    return sp


def scipy_stats() -> Any:
    """``scipy.stats`` (a core dependency), imported on first use.

    Returns
    -------
    module
    """
    import scipy.stats as st

    return st


def chunk_rows(n_rows: int, row_size: int, budget: int = 4_000_000) -> list[tuple[int, int]]:
    """Split ``n_rows`` into (start, stop) chunks of at most ``budget`` elements.

    Parameters
    ----------
    n_rows : int
        Rows to split.
    row_size : int
        Elements per row.
    budget : int, default 4_000_000
        Largest number of elements in a chunk (a chunk holds at least one row).

    Returns
    -------
    list of (int, int)

    Examples
    --------
    >>> chunk_rows(5, 10, budget=20)
    [(0, 2), (2, 4), (4, 5)]
    """
    step = max(1, budget // max(1, row_size))
    return [(s, min(n_rows, s + step)) for s in range(0, n_rows, step)]
