"""The door for the ``groups`` argument of evaluation by group: sensitive features to codes.

``groups`` names the slice each sample belongs to: one column (a list, numpy array, pandas /
polars Series or pyarrow array), or several -- a pandas or polars DataFrame, a dict of name to
column, a list or tuple of columns, a 2-D numpy array -- whose *intersections* are the groups
(every combination of values that occurs; combinations that never occur are not groups). Each
column holds keys of one kind (numbers, strings or booleans), no missing value, one per sample.

The result is one integer code per sample into the sorted list of group keys (tuples of the
features' values when there are several features, ordered lexicographically).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..deps import module_of
from .encode import as_1d, factorize
from .kinds import label_kind, py_scalar

__all__ = ["GroupCodes", "encode_groups", "key_kinds"]

#: Widest integer key range coded by counting instead of sorting.
_DIRECT_RANGE = 1 << 16
#: Largest product of feature sizes whose intersections are found by counting.
_DIRECT_CELLS = 1 << 22


@dataclass(frozen=True)
class GroupCodes:
    """Samples coded by group.

    Parameters
    ----------
    codes : ndarray of int, shape (n_samples,)
        ``keys[codes[i]]`` is the group of sample ``i`` (the narrowest integer dtype that holds
        them).
    keys : list
        The groups in sorted order: values for one feature, tuples of values for several.
    names : list of str
        The features' names (DataFrame columns, dict keys, a Series' name, or
        ``sensitive_feature_<i>``).
    sizes : ndarray of int64
        Samples in each group.
    """

    codes: np.ndarray
    keys: list[Any]
    names: list[str]
    sizes: np.ndarray

    @property
    def n_groups(self) -> int:
        """Number of groups.

        Returns
        -------
        int

        Examples
        --------
        >>> encode_groups(["a", "b", "a"], 3).n_groups
        2
        """
        return len(self.keys)

    def index_of(self, key: Any, name: str = "reference") -> int:
        """Position of group ``key`` in :attr:`keys`.

        Parameters
        ----------
        key : group key
            A value (a tuple for several features).
        name : str, default 'reference'
            The argument's name, for the message.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            ``key`` is not a group (nor is a key of another kind that Python finds equal:
            ``True`` is not the group ``1``).

        Examples
        --------
        >>> encode_groups([1, 2, 1], 3).index_of(2)
        1
        """
        probe = tuple(py_scalar(v) for v in key) if isinstance(key, tuple) else py_scalar(key)
        try:
            i = self.keys.index(probe)
        except ValueError:
            i = -1
        # True == 1 and False == 0.0 in Python: a key of another kind is not that group
        if i < 0 or key_kinds(self.keys[i]) != key_kinds(probe):
            shown = self.keys[:5] + (["..."] if len(self.keys) > 5 else [])
            raise ValueError(f"{name} {key!r} is not one of the groups {shown}") from None
        return i


def key_kinds(key: Any) -> tuple[str, ...]:
    """The label kinds of a group key's parts (:func:`confmat.inputs.kinds.label_kind`): keys
    that Python finds equal across kinds (``True == 1``) are told apart by them.

    Parameters
    ----------
    key : group key
        A value, or a tuple for several features.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> key_kinds(("f", 30)), key_kinds(True)
    (('string', 'number'), ('bool',))
    """
    return tuple(label_kind(v) for v in (key if isinstance(key, tuple) else (key,)))


def _columns(groups: Any) -> list[tuple[str, Any]]:
    """The features of ``groups`` as (name, column) pairs."""
    if groups is None:
        raise TypeError("groups must be an array-like of group keys (or several), got None")
    if isinstance(groups, str | bytes):
        raise TypeError(f"groups must be an array-like of group keys, got a single string "
                        f"{groups!r}")
    module = module_of(groups)
    if module in ("pandas", "polars") and hasattr(groups, "columns"):
        if not len(groups.columns):
            raise ValueError("groups is a DataFrame without columns; give at least one feature")
        return _named_columns([(c, groups[c]) for c in groups.columns])
    if isinstance(groups, Mapping):
        if not groups:
            raise ValueError("groups is an empty dict; give at least one feature")
        return _named_columns(list(groups.items()))
    if isinstance(groups, np.ndarray) and groups.ndim == 2:
        if groups.shape[1] == 0:
            raise ValueError("groups is a 2-D array without columns; give at least one feature")
        return [(f"sensitive_feature_{j}", groups[:, j]) for j in range(groups.shape[1])]
    if isinstance(groups, list | tuple) and groups and all(_is_column(v) for v in groups):
        return [(f"sensitive_feature_{j}", v) for j, v in enumerate(groups)]
    name = getattr(groups, "name", None) if module in ("pandas", "polars", "pyarrow") else None
    named = name is not None and name != "" and not callable(name)  # named as a column of a frame
    return [(str(name) if named else "sensitive_feature_0", groups)]


def _named_columns(pairs: list[tuple[Any, Any]]) -> list[tuple[str, Any]]:
    """Features named by the text of their keys; two keys of one text (``1`` and ``'1'``)
    would give two features one name, so they are refused."""
    seen: dict[str, Any] = {}
    for key, _ in pairs:
        text = str(key)
        if text in seen:
            raise ValueError(f"groups names the feature {text!r} twice ({seen[text]!r} and "
                             f"{key!r}); give the features distinct names")
        seen[text] = key
    return [(str(key), col) for key, col in pairs]


def _is_column(v: Any) -> bool:
    """An element of a list that is itself a column (not a scalar key)."""
    if isinstance(v, str | bytes):
        return False
    if isinstance(v, np.ndarray):
        return v.ndim >= 1
    return isinstance(v, list | tuple) or module_of(v) in ("pandas", "polars", "pyarrow")


def _length_error(name: str, found: int, n: int, listed: bool) -> None:
    hint = (" (a list of sequences is read as one sequence per feature; for one row per "
            "sample give a 2-D array or a DataFrame)") if listed else ""
    raise ValueError(f"{name} has {found} entries but y_true and y_pred have {n} samples; "
                     f"give one group key per sample{hint}")


def _feature_codes(col: Any, name: str, n: int, listed: bool = False
                   ) -> tuple[list[Any], np.ndarray, np.ndarray | None]:
    """Sorted distinct keys of one feature, integer codes into them and, when counting found
    them, the samples of each key (``listed``: the feature is an element of a list)."""
    if isinstance(col, list | tuple) and len(col) != n:  # before its keys are read
        _length_error(name, len(col), n, listed)
    arr = as_1d(col, name, "group key")
    if arr.shape[0] != n:
        _length_error(name, arr.shape[0], n, listed)
    if arr.dtype.kind in "iub" and arr.size:  # no keys (an empty chunk): sorted below
        lo, hi = int(arr.min()), int(arr.max())
        if hi - lo < _DIRECT_RANGE:  # count instead of sorting
            if arr.dtype.kind == "b":  # lo is 1 when every key is True
                shifted = arr.view(np.uint8) - np.uint8(lo)
            elif lo:
                # in 64 bits, arr - lo is exact modulo 2**64 and below 2**16: no int64 cast of
                # uint64 keys past 2**63 (nor of lo); narrower keys are widened first
                wide = arr if arr.dtype.itemsize == 8 else arr.astype(np.int64)
                shifted = (wide - wide.dtype.type(lo)).astype(np.int32)
            else:
                shifted = arr if arr.dtype != np.uint64 else arr.astype(np.int64)
            counts = np.bincount(shifted, minlength=hi - lo + 1)
            present = np.flatnonzero(counts)
            values = [v + lo for v in present.tolist()]
            keys = [bool(v) for v in values] if arr.dtype.kind == "b" else values
            dtype = _narrow_dtype(present.size)
            if present.size == hi - lo + 1:
                return keys, shifted.astype(dtype), counts
            lut = np.zeros(hi - lo + 1, dtype=dtype)
            lut[present] = np.arange(present.size, dtype=dtype)
            return keys, lut[shifted], counts[present]
    uniq, codes = factorize(arr, name, "group key")
    found = [py_scalar(v) for v in uniq.tolist()]
    try:
        order = sorted(range(len(found)), key=found.__getitem__)
    except TypeError as exc:
        raise TypeError(f"{name} holds group keys that cannot be ordered: {exc}") from exc
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return [found[i] for i in order], rank[codes], None


def _narrow_dtype(size: int) -> Any:
    for dtype in (np.int16, np.int32):
        if size <= np.iinfo(dtype).max:
            return dtype
    return np.int64


def _narrow(codes: np.ndarray, size: int) -> np.ndarray:
    return codes.astype(_narrow_dtype(size), copy=False)


def encode_groups(groups: Any, n: int) -> GroupCodes:
    """Validate ``groups`` and code every sample by its group (the intersection of features).

    Parameters
    ----------
    groups : array-like of shape (n,), or several
        One column of group keys, or several features: a pandas / polars DataFrame, a dict of
        name to column, a list or tuple of columns, or a 2-D numpy array (one feature per
        column).
    n : int
        Number of samples (of ``y_true``).

    Returns
    -------
    GroupCodes

    Raises
    ------
    TypeError
        None, a single string, keys that cannot be ordered, or keys of several kinds.
    ValueError
        A column whose length differs from ``n``, a missing key (None or NaN, its position
        named), two features whose names read the same as text (``1`` and ``'1'``), or no
        feature at all.

    Examples
    --------
    >>> g = encode_groups({"sex": ["f", "m", "f"], "age": [30, 30, 40]}, 3)
    >>> g.keys, g.codes.tolist(), g.names, g.sizes.tolist()
    ([('f', 30), ('f', 40), ('m', 30)], [0, 2, 1], ['sex', 'age'], [1, 1, 1])
    >>> encode_groups(["a", "b"], 3)
    Traceback (most recent call last):
    ...
    ValueError: groups has 2 entries but y_true and y_pred have 3 samples; give one group key per sample
    """
    cols = _columns(groups)
    several = len(cols) > 1
    listed = isinstance(groups, list | tuple) and len(cols) == len(groups)
    feats = []
    for fname, col in cols:
        label = f"groups[{fname!r}]" if several else "groups"
        feats.append(_feature_codes(col, label, n, listed and several))
    names = [fname for fname, _ in cols]
    if not several:
        keys, codes, sizes = feats[0]
        if sizes is None:
            sizes = np.bincount(codes, minlength=len(keys))
        return GroupCodes(_narrow(codes, len(keys)), keys, names, sizes.astype(np.int64))
    # intersections: mixed-radix codes, then the combinations that occur
    combined = np.zeros(n, dtype=np.int64)
    radices: list[int] = []
    levels: list[list[Any]] = []
    for keys, codes, _ in feats:
        size = len(keys)
        if radices and int(np.prod(radices, dtype=object)) * size >= 2**62:
            uniq, inv = np.unique(combined, return_inverse=True)  # re-code what occurs so far
            combined = inv.astype(np.int64)
            levels = [[tuple(_unravel(int(u), radices, levels)) for u in uniq.tolist()]]
            radices = [int(uniq.size)]
        combined *= size
        combined += codes
        radices.append(size)
        levels.append(keys)
    total = int(np.prod(radices, dtype=object))
    if total <= _DIRECT_CELLS:
        counts = np.bincount(combined, minlength=total)
        present = np.flatnonzero(counts)
        lut = np.zeros(total, dtype=np.int64)
        lut[present] = np.arange(present.size)
        codes_out = lut[combined]
        sizes = counts[present]
    else:
        present, codes_out = np.unique(combined, return_inverse=True)
        sizes = np.bincount(codes_out, minlength=present.size)
    keys_out = [_flatten(_unravel(int(c), radices, levels)) for c in present.tolist()]
    return GroupCodes(_narrow(codes_out, len(keys_out)), keys_out, names, sizes)


def _unravel(code: int, radices: list[int], levels: list[list[Any]]) -> list[Any]:
    out = []
    for size, keys in zip(reversed(radices), reversed(levels), strict=True):
        code, r = divmod(code, size)
        out.append(keys[r])
    return out[::-1]


def _flatten(parts: list[Any]) -> tuple[Any, ...]:
    out: list[Any] = []
    for p in parts:
        out.extend(p if isinstance(p, tuple) else (p,))
    return tuple(out)
