"""Validation of tables of counts given by users: a K x K table and its labels.

:class:`~confmat.ConfusionMatrix` validates a table it is given here: a square, non-empty,
finite, non-negative numeric table, exact integers that fit int64 (the overflow rules of
:mod:`confmat.metrics.exact`, which is why this lives above ``inputs``), and K distinct
hashable labels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.encode import as_1d
from ..metrics.exact import check_total
from ..words import arg

__all__ = ["check_table", "check_table_labels"]


def check_table(counts: Any, name: str = "counts") -> np.ndarray:
    """Validate a K x K table of counts given by a user.

    Parameters
    ----------
    counts : array-like of shape (K, K)
        Non-negative finite numbers; integers (also Python ints past 64 bits, rejected with
        an OverflowError) or floats (sums of weights).
    name : str, default 'counts'
        The argument's name, for messages.

    Returns
    -------
    ndarray of shape (K, K)
        ``int64`` for integer counts, ``float64`` otherwise.

    Raises
    ------
    TypeError
        Entries that are not numbers (or booleans).
    ValueError
        A table that is not square, empty, negative, NaN or infinite (naming the cell), or
        weights whose total overflows float64.
    OverflowError
        Integer counts whose total does not fit int64.

    Examples
    --------
    >>> check_table([[3, 1], [0, 2]]).dtype
    dtype('int64')
    >>> check_table([[3, -1], [0, 2]])
    Traceback (most recent call last):
    ...
    ValueError: counts must be non-negative; found -1 at row 0, column 1
    """
    try:
        arr = np.asarray(counts)
    except Exception as exc:
        raise TypeError(f"{name} could not be read as an array: {exc}") from exc
    if arr.dtype.kind == "f" and not isinstance(counts, np.ndarray):
        # numpy widens Python ints to float64 when one of them passes int64 (2**63 beside
        # small counts): keep them as ints, so that the count is refused rather than rounded
        obj = np.empty(arr.shape, dtype=object)
        obj[...] = counts
        if obj.size and all(isinstance(v, int) and not isinstance(v, bool) for v in obj.flat):
            arr = obj
    if arr.dtype == object:
        ints = [v for v in arr.flat if isinstance(v, int) and not isinstance(v, bool)]
        if ints and len(ints) == arr.size:  # integers numpy could not hold in 64 bits
            check_total(arr, name)
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be numeric, got non-numeric entries") from exc
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a numeric array of counts, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name} must be a square K x K table, got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must have at least one class, got an empty table")
    if arr.dtype.kind == "f":
        if not np.isfinite(arr).all():
            i, j = np.argwhere(~np.isfinite(arr))[0]
            raise ValueError(f"{name} contains NaN or infinite values; found {arr[i, j]} at "
                             f"row {i}, column {j}")
    if (arr < 0).any():
        i, j = np.argwhere(arr < 0)[0]
        raise ValueError(f"{name} must be non-negative; found {arr[i, j]} at row {i}, column {j}")
    if arr.dtype.kind in "iu":
        check_total(arr, name)  # before the cast: a uint64 count past int64 would wrap
        return arr.astype(np.int64)
    arr = arr.astype(np.float64)
    check_weighted_total(arr, name)
    return arr


def check_weighted_total(table: np.ndarray, name: str = "counts") -> None:
    """Check that the total of a table of sums of weights is a finite float64 (every metric
    divides by it); integer tables pass.

    Parameters
    ----------
    table : ndarray
        A table, or a stack of tables, of counts or sums of weights.
    name : str, default 'counts'
        The argument's name, for messages.

    Raises
    ------
    ValueError
        A float table whose total overflows float64.

    Examples
    --------
    >>> check_weighted_total(np.array([[1e308, 1.0], [1e308, 1.0]]), "table")
    Traceback (most recent call last):
    ...
    ValueError: table: the total of the weighted table overflows float64; rescale the weights
    """
    if table.dtype.kind != "f":
        return
    with np.errstate(over="ignore", invalid="ignore"):
        total = table.sum()
    if not np.isfinite(total):
        raise ValueError(f"{name}: the total of the weighted table overflows float64; "
                         "rescale the weights")


def check_table_labels(labels: Any, k: int) -> list[Any]:
    """Validate the labels of a K x K table: K distinct hashable values (``0 .. K - 1`` when
    None), as Python scalars.

    Parameters
    ----------
    labels : sequence or None
        The classes in the table's order.
    k : int
        The number of classes of the table.

    Returns
    -------
    list

    Raises
    ------
    ValueError
        A wrong number of labels, or duplicates.
    TypeError
        Labels that are not hashable.

    Examples
    --------
    >>> check_table_labels(None, 3)
    [0, 1, 2]
    >>> check_table_labels(["a", "a"], 2)
    Traceback (most recent call last):
    ...
    ValueError: labels contains duplicates: ['a', 'a']
    """
    if labels is None:
        return list(range(k))
    vals = as_1d(labels, "labels").tolist() if not isinstance(labels, list) else list(labels)
    vals = [v.item() if isinstance(v, np.generic) else v for v in vals]
    if len(vals) != k:
        raise ValueError(f"{arg('labels')} has {len(vals)} entries but the table has {k} classes")
    try:
        if len(set(vals)) != k:
            raise ValueError(f"{arg('labels')} contains duplicates: {vals}")
    except TypeError as exc:
        raise TypeError(f"{arg('labels')} must be hashable: {exc}") from exc
    return vals
