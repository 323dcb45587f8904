"""Containers checked before numpy reads them: what ``np.asarray`` / ``to_numpy()`` would
silently turn into a wrong label (the data under a numpy mask, a pyarrow null read as a
dictionary entry, datetimes of mixed units or a nanosecond timestamp read as an integer).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..deps import module_of
from ..words import arg

__all__ = ["as_datetimes", "check_arrow_nulls", "check_unmasked"]

#: The instants Python's ``datetime`` can hold, at microsecond resolution.
_DATETIME_RANGE = (np.datetime64("0001-01-01T00:00:00", "us"),
                   np.datetime64("9999-12-31T23:59:59.999999", "us"))

def check_arrow_nulls(y: Any, name: str) -> None:
    """Refuse a pyarrow array or chunked array that holds a null, before numpy sees it.

    ``ChunkedArray.to_numpy()`` of a dictionary column reads a null as the entry its unused
    index slot points at (pyarrow 26: ``['a', null, 'a']`` comes out as ``['a', 'b', 'a']``),
    so a null would silently become a class.

    Parameters
    ----------
    y : object
        Any input; only pyarrow objects with a ``null_count`` are looked at.
    name : str
        The argument's name, for messages.

    Raises
    ------
    ValueError
        A null, naming its position.

    Examples
    --------
    >>> import pyarrow as pa
    >>> check_arrow_nulls(pa.chunked_array([pa.array(["a", None]).dictionary_encode()]), "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true contains a missing value (null) at position 1
    """
    if module_of(y) != "pyarrow" or not getattr(y, "null_count", None):
        return
    first = int(np.flatnonzero(y.is_null().to_numpy(zero_copy_only=False))[0])
    raise ValueError(f"{arg(name)} contains a missing value (null) at position {first}")


def check_unmasked(y: Any, name: str) -> Any:
    """``y`` itself, or the plain data of a numpy masked array that has no masked entry.

    A masked entry is a missing value. numpy's own functions would not drop it but count the
    hidden data under the mask (``np.asarray`` keeps it, arithmetic leaves it unchanged), so it
    is refused like NaN. (A masked array is recognised without importing ``numpy.ma``: one
    exists only once it is imported.)

    Parameters
    ----------
    y : object
        Any input; only a ``numpy.ma.MaskedArray`` is looked at.
    name : str
        The argument's name, for messages.

    Returns
    -------
    object
        ``y``, or its data (an ndarray) when it is a masked array.

    Raises
    ------
    ValueError
        A masked entry, naming its position.

    Examples
    --------
    >>> check_unmasked(np.ma.masked_array([3, 1], mask=[False, False]), "y_true")
    array([3, 1])
    >>> check_unmasked([3, 1], "y_true")
    [3, 1]
    """
    if not (isinstance(y, np.ndarray) and type(y) is not np.ndarray and hasattr(y, "mask")):
        return y
    mask = np.ma.getmaskarray(y)
    if mask.any():
        where = np.argwhere(mask)[0]
        pos = int(where[0]) if where.size == 1 else tuple(int(i) for i in where)
        raise ValueError(
            f"{arg(name)} is a masked array with a masked (missing) value at position {pos}; "
            "fill or drop the masked entries first"
        )
    return np.ma.getdata(y)


def as_datetimes(arr: np.ndarray, name: str) -> np.ndarray:
    """``datetime64`` / ``timedelta64`` values as an object array of Python ``datetime`` /
    ``timedelta`` (NaT: None), exactly.

    numpy turns nanosecond values (and dates outside years 1-9999) into bare ints, and
    ``datetime64[D]`` into ``date`` objects that never equal the ``datetime`` of the same
    instant: as labels, an int would silently match an integer class and units would not
    mix. Every unit goes through microseconds, so ``2020-01-01`` in days and in seconds is one
    label (as scikit-learn's comparison after promotion has it).

    Parameters
    ----------
    arr : ndarray of datetime64 or timedelta64
        The values.
    name : str
        The argument's name, for messages.

    Returns
    -------
    ndarray of object

    Raises
    ------
    ValueError
        A value finer than a microsecond, or a date outside years 1-9999.

    Examples
    --------
    >>> as_datetimes(np.array(["2020-01-02"], "datetime64[D]"), "y_true").tolist()
    [datetime.datetime(2020, 1, 2, 0, 0)]
    >>> as_datetimes(np.array([1500], "timedelta64[ns]"), "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true holds timedelta64[ns] values finer than a microsecond (first at position 0), which Python's timedelta cannot hold as labels; round them or pass them as integers (.astype('int64'))
    """
    dated = arr.dtype.kind == "M"
    us = arr.astype("datetime64[us]" if dated else "timedelta64[us]")
    defined = ~np.isnat(arr)
    what = "datetime" if dated else "timedelta"
    lossy = defined & (us.astype(arr.dtype) != arr)
    if lossy.any():
        raise ValueError(
            f"{arg(name)} holds {arr.dtype} values finer than a microsecond (first at position "
            f"{int(np.argmax(lossy))}), which Python's {what} cannot hold as labels; round "
            "them or pass them as integers (.astype('int64'))"
        )
    if dated:
        outside = defined & ((us < _DATETIME_RANGE[0]) | (us > _DATETIME_RANGE[1]))
        if outside.any():
            raise ValueError(
                f"{arg(name)} holds a date outside years 1-9999 (position {int(np.argmax(outside))}), "
                "which Python's datetime cannot hold as a label"
            )
    return us.astype(object)
