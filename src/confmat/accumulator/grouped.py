"""Validation of pre-aggregated counts (``GROUP BY`` rows) fed to
:meth:`confmat.Accumulator.update_grouped`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.encode import as_1d
from ..metrics.exact import check_total

__all__ = ["check_group_counts"]


def check_group_counts(counts: Any, n_pairs: int, what: str = "counts") -> np.ndarray:
    """Validate the number of samples of each (true, pred) pair.

    Parameters
    ----------
    counts : array-like of shape (n_pairs,)
        Non-negative whole numbers (integers, or floats holding whole numbers).
    n_pairs : int
        Number of pairs they belong to.
    what : str, default 'counts'
        Names the counts in an OverflowError.

    Returns
    -------
    ndarray of shape (n_pairs,)
        ``int64`` counts whose total fits int64.

    Raises
    ------
    ValueError
        Wrong length, negative or fractional counts.
    TypeError
        Counts that are not numbers.
    OverflowError
        A count or the total past int64.

    Examples
    --------
    >>> check_group_counts([5, 1.0, 3], 3).tolist()
    [5, 1, 3]
    >>> check_group_counts([5, -1], 2)
    Traceback (most recent call last):
    ...
    ValueError: counts must be non-negative
    """
    c = as_1d(counts, "counts")
    if c.shape[0] != n_pairs:
        raise ValueError(f"counts has {c.shape[0]} entries but there are {n_pairs} pairs")
    if c.dtype.kind == "f":
        if not np.isfinite(c).all() or (c != np.round(c)).any():
            raise ValueError("counts must be whole numbers of samples")
        if c.size and c.max() >= 2.0**63:  # the cast below would not be defined
            check_total(np.array([int(c.max())], dtype=object), what)
        c = c.astype(np.int64)
    elif c.dtype.kind not in "iu":
        raise TypeError(f"counts must be integers, got dtype {c.dtype}")
    if (c < 0).any():
        raise ValueError("counts must be non-negative")
    check_total(c, what)  # each count and their total fit int64
    c = c.astype(np.int64, copy=False)
    return c
