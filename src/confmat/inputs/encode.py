"""The one front door for label inputs: validation and encoding to integer codes.

Every other module receives clean ``int64`` codes in ``[0, K)`` plus the sorted label list.
Accepted containers: lists, tuples, numpy arrays, pandas / polars Series, pyarrow arrays and
anything else with ``to_numpy()`` or ``__array__``. Labels may be ints, floats, strings or bools,
but one kind per call: a mix that cannot be ordered is a ``TypeError``.

Columns that an engine already holds (pyarrow, polars, pandas with Arrow or categorical
dtypes) are read without a Python object per row by :mod:`confmat.inputs.columns`.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..deps import is_dask_collection, optional
from ..words import arg
from .containers import as_datetimes, check_arrow_nulls, check_unmasked
from .kinds import (
    EXACT_INT_IN_FLOAT,
    check_label_kinds,
    check_seen_kinds,
    label_kind,
    py_scalar,
    unify_numbers,
)
from .score_shape import length_error
from .truth import EncodedTruth

__all__ = [
    "all_finite",
    "as_1d",
    "check_pair",
    "check_pair_lengths",
    "check_sample_weight",
    "encode_pair",
    "factorize",
    "normalize_labels",
    "weights_1d",
]


def as_1d(y: Any, name: str, what: str = "label") -> np.ndarray:
    """Return ``y`` as a 1-D numpy array, raising a clear error naming ``name``.

    Lists are given the dtype that holds every label exactly (ints past 64 bits stay Python
    objects; ``[1, "a"]`` is refused instead of silently becoming strings). A masked array's
    masked entries are missing values, refused like NaN (numpy's arithmetic would leave their
    hidden data in place). ``datetime64`` / ``timedelta64`` values become Python ``datetime``
    / ``timedelta`` objects at microsecond resolution, whatever their unit, so that units mix
    and a nanosecond timestamp never turns into a bare int (see :func:`as_datetimes`).

    Parameters
    ----------
    y : array-like
        A list, tuple, numpy array, or anything with ``to_numpy()`` or ``__array__``.
    name : str
        The argument's name, for messages.
    what : str, default "label"
        What one value is called in messages (``"group key"`` for groups).

    Returns
    -------
    ndarray of shape (n,)

    Raises
    ------
    TypeError
        None, a single string, a Dask collection (count it with :mod:`confmat.dask`), or
        labels of kinds that cannot be ordered together.
    ValueError
        An array that is not 1-D, a list with a missing label, a masked array with a masked
        entry, or datetimes that Python's ``datetime`` cannot hold.

    Examples
    --------
    >>> as_1d([3, 1, 2], "y_true")
    array([3, 1, 2])
    >>> as_1d(np.ma.masked_array([3, 1], mask=[False, True]), "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true is a masked array with a masked (missing) value at position 1; fill or drop the masked entries first
    >>> as_1d([[1], [2]], "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true must be 1-D; got a column vector of shape (2, 1) (use .ravel() if meant)
    """
    if y is None:
        raise TypeError(f"{arg(name)} must be an array-like of {what}s, got None")
    if isinstance(y, str | bytes):
        raise TypeError(f"{arg(name)} must be an array-like of {what}s, got a single string {y!r}")
    if is_dask_collection(y):
        raise TypeError(
            f"{arg(name)} is a Dask collection; use confmat.dask helpers to count it without collecting"
        )
    if isinstance(y, np.ndarray):
        arr = check_unmasked(y, name)
    elif hasattr(y, "to_numpy") and not isinstance(y, Sequence):
        check_arrow_nulls(y, name)
        try:
            arr = y.to_numpy()
        except (TypeError, ValueError):  # pyarrow: strings, bools, nulls need a copy
            arr = y.to_numpy(zero_copy_only=False)
        arr = np.asarray(arr)
    elif isinstance(y, list | tuple):
        arr = _list_to_array(y, name, what)
    else:
        try:
            arr = np.asarray(y)
        except Exception as exc:  # pragma: no cover - exotic containers
            raise TypeError(f"{arg(name)} could not be converted to an array: {exc}") from exc
    if arr.ndim == 2 and arr.shape[1] == 1:
        raise ValueError(
            f"{arg(name)} must be 1-D; got a column vector of shape {arr.shape} (use .ravel() if meant)"
        )
    if arr.ndim != 1:
        raise ValueError(f"{arg(name)} must be 1-D, got an array of shape {arr.shape}")
    if not arr.dtype.isnative:  # the compiled kernels read native byte order only
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if arr.dtype.kind in "mM":
        return as_datetimes(arr, name)
    return arr


def _list_to_array(y: Sequence[Any], name: str, what: str = "label") -> np.ndarray:
    first = y[0] if len(y) else None
    if isinstance(first, list | tuple) or (isinstance(first, np.ndarray) and first.ndim > 0):
        try:  # rows, not labels: as_1d names the shape (a column vector, 2-D)
            return np.asarray(y)
        except ValueError:
            raise ValueError(f"{arg(name)} must be 1-D; got a list of sequences of different "
                             "lengths") from None
    # np.asarray would silently turn [1, "a"] into strings; decide the kind first.
    try:
        kind = check_label_kinds(y, name, what) or "number"
    except ValueError:  # a missing value: name its position, as factorize does
        pos = next(i for i, v in enumerate(y) if label_kind(v) == "missing")
        raise ValueError(f"{arg(name)} contains a missing {what} (None or NaN) at position {pos}; "
                         f"{what}s must be defined") from None
    if kind == "bool":
        return np.asarray(y, dtype=bool)
    if kind == "number":
        return np.asarray(y, dtype=_number_dtype(y))
    if kind in ("datetime64", "timedelta64"):  # numpy scalars: one array of a common unit
        return np.asarray(y)
    return np.asarray(y, dtype=object)


_INT64 = np.iinfo(np.int64)
_UINT64 = np.iinfo(np.uint64)


def _number_dtype(y: Sequence[Any]) -> Any:
    """The dtype that holds every number of ``y`` exactly.

    numpy turns ``[2**64 - 1, 3]`` into float64 (both labels then round to 1.8e19); integers
    stay int64 or uint64 when one of them holds all, else Python objects (still ordered and
    hashed exactly). Integers too large for a double next to floats also stay objects.
    """
    if not y:
        return None
    ints = [int(v) for v in y if isinstance(v, int | np.integer)]
    if len(ints) == len(y):
        lo, hi = min(ints), max(ints)
        if lo >= _INT64.min and hi <= _INT64.max:
            return np.int64
        if lo >= 0 and hi <= _UINT64.max:
            return np.uint64
        return object
    if ints and max(abs(min(ints)), abs(max(ints))) > EXACT_INT_IN_FLOAT:
        return object
    return None


#: columns up to this length are factorized without pandas
_SMALL = 100_000


def factorize(arr: np.ndarray, name: str, what: str = "label"
              ) -> tuple[np.ndarray, np.ndarray]:
    """Factorize one array: (unique labels in any order, codes into them).

    Parameters
    ----------
    arr : ndarray of shape (n,)
        Labels of one kind.
    name : str
        The argument's name, for messages.
    what : str, default "label"
        What one value is called in messages (``"group key"`` for groups).

    Returns
    -------
    uniques : ndarray
        The distinct labels.
    codes : ndarray of int64, shape (n,)
        Indices into ``uniques``.

    Raises
    ------
    ValueError
        A missing label (its position is named).
    TypeError
        Labels of several kinds.

    Examples
    --------
    >>> uniq, codes = factorize(np.array([3, 1, 3]), "y_true")
    >>> uniq[codes].tolist()
    [3, 1, 3]
    """
    if arr.dtype.kind == "f":
        if np.isnan(arr).any():
            idx = int(np.flatnonzero(np.isnan(arr))[0])
            raise ValueError(f"{arg(name)} contains NaN at position {idx}; {what}s must be defined")
    if arr.dtype.kind in "iub":
        uniq, codes = np.unique(arr, return_inverse=True)
        return uniq, codes.astype(np.int64, copy=False)
    if arr.dtype.kind in "US" and arr.size:
        fast = _factorize_fixed_width(arr)
        if fast is not None:
            return fast
    # pandas' hash table pays off on long columns; a short one (the K x K groups an engine
    # returns) is coded by a dict without importing pandas (0.25 s in a fresh process)
    pd = optional("pandas") if arr.size > _SMALL else None
    if pd is not None:
        codes, uniq = pd.factorize(arr, use_na_sentinel=True)
        uniq = np.asarray(uniq, dtype=arr.dtype if arr.dtype.kind in "fUS" else object)
        if (codes < 0).any():
            idx = int(np.flatnonzero(codes < 0)[0])
            raise ValueError(
                f"{arg(name)} contains a missing {what} (None or NaN) at position {idx}"
            )
        check_label_kinds(uniq.tolist(), name, what)
        if arr.dtype == object and _may_hide_bools(uniq.tolist()):
            _check_element_kinds(arr.tolist(), name, what)
        return uniq, codes.astype(np.int64, copy=False)
    table: dict[Any, int] = {}
    values = arr.tolist()
    codes = np.fromiter((table.setdefault(v, len(table)) for v in values), np.int64, arr.size)
    uniq_list = list(table)
    if any(label_kind(v) == "missing" for v in uniq_list):
        pos = next(i for i, v in enumerate(values) if label_kind(v) == "missing")
        raise ValueError(f"{arg(name)} contains a missing {what} (None or NaN) at position {pos}")
    check_label_kinds(uniq_list, name, what)
    if arr.dtype == object and _may_hide_bools(uniq_list):
        _check_element_kinds(values, name, what)
    return np.asarray(uniq_list, dtype=object), codes


def _may_hide_bools(uniques: list[Any]) -> bool:
    """Whether a hash table's distinct values may stand for a bool and a number at once
    (``True == 1 == 1.0``, ``False == 0``): only a bool, a 0 or a 1 can."""
    return any(isinstance(v, bool | np.bool_)
               or (isinstance(v, numbers.Number) and v in (0, 1)) for v in uniques)


def _check_element_kinds(values: list[Any], name: str, what: str = "label") -> None:
    """The kinds of every element's type, not only of the distinct values a hash table kept:
    ``True == 1`` and ``False == 0`` share one entry, so ``[1, True]`` would silently be one
    class (a list, a numpy array and the compiled path, which keys objects by identity,
    refuse that mix). One ``type`` call per element; only the types are looked at."""
    types = set(map(type, values))
    if len(types) > 1:
        check_label_kinds([next(v for v in values if type(v) is t) for t in types], name, what)


def _factorize_fixed_width(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Factorize a fixed-width string array through a 64-bit hash of its code units.

    Hashing the raw UCS-4 / byte columns avoids creating a Python object per element. The
    result is verified (every element equals its representative), so a hash collision only
    costs the fallback to the generic path.
    """
    arr = np.ascontiguousarray(arr)
    unit = np.uint32 if arr.dtype.kind == "U" else np.uint8
    width = arr.dtype.itemsize // np.dtype(unit).itemsize
    if width == 0:
        return None
    cols = arr.view(unit).reshape(arr.shape[0], width)
    h = np.zeros(arr.shape[0], dtype=np.uint64)
    mult = np.uint64(0x100000001B3)
    for j in range(width):
        h = (h ^ cols[:, j].astype(np.uint64)) * mult
    pd = optional("pandas")
    if pd is not None:
        codes, _ = pd.factorize(h)
    else:  # pragma: no cover - exercised only without pandas
        _, codes = np.unique(h, return_inverse=True)
    codes = np.asarray(codes, dtype=np.int64)
    first = np.full(int(codes.max()) + 1, arr.shape[0], dtype=np.int64)
    np.minimum.at(first, codes, np.arange(arr.shape[0]))
    uniq = arr[first]
    if not np.array_equal(uniq[codes], arr):
        return None
    return uniq, codes


def _sorted_union(a: np.ndarray, b: np.ndarray) -> list[Any]:
    va, vb = [py_scalar(v) for v in a.tolist()], [py_scalar(v) for v in b.tolist()]
    items = set(va) | set(vb)
    check_seen_kinds(va, vb)
    try:  # a float column makes the codebook float even where its labels equal integers
        return unify_numbers(sorted(items), also=va + vb)
    except TypeError as exc:
        raise TypeError(
            f"y_true and y_pred mix label types that cannot be ordered together: {exc}"
        ) from exc


def normalize_labels(labels: Any, name: str = "labels") -> list[Any]:
    """Validate a user-given label list: 1-D, non-empty, no duplicates, no missing values.

    Parameters
    ----------
    labels : array-like
        The classes, in order.
    name : str, default 'labels'
        The argument's name, for messages.

    Returns
    -------
    list
        Python scalars.

    Raises
    ------
    ValueError
        Empty, duplicated or missing labels.
    TypeError
        Labels of several kinds.

    Examples
    --------
    >>> normalize_labels(np.array([2, 0]))
    [2, 0]
    >>> normalize_labels(["a", "a"])
    Traceback (most recent call last):
    ...
    ValueError: labels contains duplicates: ['a']
    """
    arr = as_1d(labels, name)
    if arr.size == 0:
        raise ValueError(f"{arg(name)} must not be empty")
    out = [py_scalar(v) for v in arr.tolist()]
    check_label_kinds(out, name)
    if len(set(out)) != len(out):
        seen: set[Any] = set()
        dups = []
        for v in out:
            if v in seen:
                dups.append(v)
            seen.add(v)
        raise ValueError(f"{arg(name)} contains duplicates: {dups[:5]}")
    return out


def all_finite(a: np.ndarray) -> bool:
    """True when every value of a float array is finite, proven by a finite sum (no mask
    pass); a sum that overflows only sends the caller to its element-wise check.

    Parameters
    ----------
    a : ndarray
        Floats.

    Returns
    -------
    bool

    Examples
    --------
    >>> all_finite(np.array([0.5, 1.0])), all_finite(np.array([0.5, np.nan]))
    (True, False)
    """
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(a.size == 0 or np.isfinite(np.add.reduce(a, axis=None)))


def check_sample_weight(sample_weight: Any, n: int, *,
                        all_zero_ok: bool = False) -> np.ndarray | None:
    """Validate sample weights: 1-D, finite, non-negative, one per sample, not all zero.

    Parameters
    ----------
    sample_weight : array-like of shape (n,) or None
        The weights.
    n : int
        Number of samples.
    all_zero_ok : bool, default False
        Accept weights that are all zero: one chunk of a stream may weigh nothing (the
        stream as a whole is checked when its result is asked for).

    Returns
    -------
    ndarray of float64, shape (n,), or None

    Raises
    ------
    TypeError
        Weights that are not numbers.
    ValueError
        Wrong length, NaN, infinite or negative weights, all zero, or a total beyond float64.

    Examples
    --------
    >>> check_sample_weight([1, 2], 2)
    array([1., 2.])
    >>> check_sample_weight([1, -2], 2)
    Traceback (most recent call last):
    ...
    ValueError: sample_weight must be non-negative; found -2 at position 1 (counted from 0)
    >>> check_sample_weight([0, 0], 2, all_zero_ok=True)
    array([0., 0.])
    """
    if sample_weight is None:
        return None
    w = weights_1d(sample_weight)
    if w.dtype.kind not in "iuf" and w.dtype != bool:
        raise TypeError(f"sample_weight must be numeric, got dtype {w.dtype}")
    if w.shape[0] != n:
        raise ValueError(
            f"sample_weight has {w.shape[0]} entries but there are {n} samples"
        )
    w = w.astype(np.float64, copy=False)
    if not np.isfinite(w).all():
        raise ValueError("sample_weight contains NaN or infinite values")
    if (w < 0).any():
        i = int(np.flatnonzero(w < 0)[0])
        raise ValueError(f"sample_weight must be non-negative; found {w[i]:g} at position {i} "
                         "(counted from 0)")
    if n and not all_zero_ok and not w.any():
        raise ValueError("sample_weight must contain at least one non-zero weight")
    with np.errstate(over="ignore"):
        total = w.sum()
    if not np.isfinite(total):
        raise ValueError("sample_weight: the total weight overflows float64 (it passes "
                         "1.8e308); rescale the weights")
    return w


def weights_1d(sample_weight: Any) -> np.ndarray:
    """``sample_weight`` as a 1-D array, read as numbers (not as labels), before the checks of
    :func:`check_sample_weight`.

    Parameters
    ----------
    sample_weight : array-like of shape (n,)
        The weights.

    Returns
    -------
    ndarray of shape (n,)

    Raises
    ------
    TypeError, ValueError
        What :func:`as_1d` refuses.

    Examples
    --------
    >>> weights_1d([True, 2, 0.5])
    array([1. , 2. , 0.5])
    """
    if isinstance(sample_weight, list | tuple):
        sample_weight = np.asarray(sample_weight)  # weights are numbers, not labels
    return as_1d(sample_weight, "sample_weight")


def check_pair(y_true: Any, y_pred: Any, *, empty_ok: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``y_true`` and ``y_pred`` as 1-D arrays of equal, non-zero length.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        The labels.
    empty_ok : bool, default False
        Accept zero samples (a chunk of a stream may be empty; a whole input may not).

    Returns
    -------
    (ndarray, ndarray)

    Raises
    ------
    ValueError
        Different lengths, or no samples.
    TypeError
        Inputs that are not arrays of labels (see :func:`as_1d`).

    Examples
    --------
    >>> check_pair([0, 1], [1, 1])[1]
    array([1, 1])
    >>> check_pair([0, 1], [1])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred have different lengths: 2 and 1
    >>> check_pair([], [], empty_ok=True)[0].shape
    (0,)
    """
    t = as_1d(y_true, "y_true")
    p = as_1d(y_pred, "y_pred")
    check_pair_lengths(t.shape[0], p.shape[0], empty_ok=empty_ok)
    return t, p


def check_pair_lengths(n_true: int, n_pred: int, *, empty_ok: bool = False) -> None:
    """The one rule for the lengths of ``y_true`` and ``y_pred``: equal, and not zero unless
    ``empty_ok`` (used by :func:`check_pair` and
    :func:`confmat.inputs.columns.check_label_pair`).

    Parameters
    ----------
    n_true, n_pred : int
        The lengths.
    empty_ok : bool, default False
        Accept zero samples (a chunk of a stream may be empty; a whole input may not).

    Raises
    ------
    ValueError
        Different lengths, or no samples.

    Examples
    --------
    >>> check_pair_lengths(0, 0, empty_ok=True)
    >>> check_pair_lengths(0, 0)
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred are empty; at least one sample is needed
    """
    if n_true != n_pred:
        raise length_error(n_true, n_pred, "y_pred")
    if n_true == 0 and not empty_ok:
        raise ValueError("y_true and y_pred are empty; at least one sample is needed")


def encode_pair(
    y_true: Any, y_pred: Any, labels: Any = None
) -> tuple[np.ndarray, np.ndarray, list[Any], bool]:
    """Encode both label vectors with one shared code book.

    Without ``labels`` the code book is the sorted union of observed labels. With ``labels``
    the codes follow that order and any label outside it gets code ``len(labels)``
    ("other").

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        The labels (``y_true`` may be an :class:`~confmat.inputs.truth.EncodedTruth`).
    labels : sequence, optional
        The code book.

    Returns
    -------
    t_codes, p_codes : ndarray of int64, shape (n,)
        Codes of both vectors.
    labels : list
        The code book.
    has_other : bool
        Whether a label fell outside ``labels``.

    Raises
    ------
    ValueError, TypeError
        Bad labels (see :func:`check_pair`, :func:`normalize_labels`).

    Examples
    --------
    >>> t, p, book, other = encode_pair(["b", "a"], ["a", "c"])
    >>> t.tolist(), p.tolist(), book, other
    ([1, 0], [0, 2], ['a', 'b', 'c'], False)
    """
    if isinstance(y_true, EncodedTruth):  # read by the door already: only y_pred is new
        (ut, ct), p = y_true.factors(), as_1d(y_pred, "y_pred")
        check_pair_lengths(y_true.n_samples, p.shape[0])
    else:
        t, p = check_pair(y_true, y_pred)
        ut, ct = factorize(t, "y_true")
    up, cp = factorize(p, "y_pred")
    if labels is None:
        book = _sorted_union(ut, up)
    else:
        book = normalize_labels(labels)
        check_seen_kinds([py_scalar(v) for v in ut.tolist()],
                         [py_scalar(v) for v in up.tolist()], book)
    index = {v: i for i, v in enumerate(book)}
    other = len(book)
    lut_t = np.fromiter((index.get(py_scalar(v), other) for v in ut.tolist()), np.int64, ut.size)
    lut_p = np.fromiter((index.get(py_scalar(v), other) for v in up.tolist()), np.int64, up.size)
    t_codes = lut_t[ct]
    p_codes = lut_p[cp]
    has_other = bool((lut_t == other).any() or (lut_p == other).any())
    return t_codes, p_codes, book, has_other
