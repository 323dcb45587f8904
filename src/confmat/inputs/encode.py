"""The one front door for label inputs: validation and encoding to integer codes.

Every other module receives clean ``int64`` codes in ``[0, K)`` plus the sorted label list.
Accepted containers: lists, tuples, numpy arrays, pandas / polars Series, pyarrow arrays and
anything else with ``to_numpy()`` or ``__array__``. Labels may be ints, floats, strings or bools,
but one kind per call: a mix that cannot be ordered is a ``TypeError``.

Columns that an engine already holds (pyarrow arrays and chunked arrays, polars Series, pandas
columns with Arrow or categorical dtypes) are read by :func:`label_column` without creating a
Python object per row: dictionary and categorical columns as their integer codes, string columns
as their Arrow buffers (factorised by the counting kernels). Only the few distinct labels ever
become Python objects.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..deps import imported, is_dask_collection, module_of, optional

__all__ = [
    "CodedLabels",
    "StringChunks",
    "as_1d",
    "check_label_pair",
    "check_sample_weight",
    "dictionary_codes",
    "encode_pair",
    "label_column",
    "label_kind",
]


def _is_missing(x: Any) -> bool:
    if x is None:
        return True
    try:
        return bool(x != x)  # NaN and NaT are the only values unequal to themselves
    except Exception:
        return False


def as_1d(y: Any, name: str) -> np.ndarray:
    """Return ``y`` as a 1-D numpy array, raising a clear error naming ``name``."""
    if y is None:
        raise TypeError(f"{name} must be an array-like of labels, got None")
    if isinstance(y, str | bytes):
        raise TypeError(f"{name} must be an array-like of labels, got a single string {y!r}")
    if is_dask_collection(y):
        raise TypeError(
            f"{name} is a Dask collection; use confmat.dask helpers to count it without collecting"
        )
    if isinstance(y, np.ndarray):
        arr = y
    elif hasattr(y, "to_numpy") and not isinstance(y, Sequence):
        try:
            arr = y.to_numpy()
        except (TypeError, ValueError):  # pyarrow: strings, bools, nulls need a copy
            arr = y.to_numpy(zero_copy_only=False)
        arr = np.asarray(arr)
    elif isinstance(y, list | tuple):
        arr = _list_to_array(y, name)
    else:
        try:
            arr = np.asarray(y)
        except Exception as exc:  # pragma: no cover - exotic containers
            raise TypeError(f"{name} could not be converted to an array: {exc}") from exc
    if arr.ndim == 2 and arr.shape[1] == 1:
        raise ValueError(
            f"{name} must be 1-D; got a column vector of shape {arr.shape} (use .ravel() if meant)"
        )
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}")
    return arr


def _list_to_array(y: Sequence[Any], name: str) -> np.ndarray:
    # np.asarray would silently turn [1, "a"] into strings; decide the kind first.
    kinds = {label_kind(v) for v in y}
    if "missing" in kinds:
        raise ValueError(f"{name} contains a missing label (None or NaN)")
    if len(kinds) > 1:
        raise TypeError(
            f"{name} mixes label types that cannot be ordered together: {sorted(kinds)}"
        )
    kind = kinds.pop() if kinds else "number"
    if kind == "bool":
        return np.asarray(y, dtype=bool)
    if kind == "number":
        return np.asarray(y, dtype=_number_dtype(y))
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
    if ints and max(abs(min(ints)), abs(max(ints))) > 2**53:
        return object
    return None


def label_kind(v: Any) -> str:
    """Classify one label as 'bool', 'number', 'string', 'missing' or its type name."""
    if isinstance(v, bool | np.bool_):
        return "bool"
    if _is_missing(v):
        return "missing"
    if isinstance(v, numbers.Number):
        return "number"
    if isinstance(v, str | np.str_):
        return "string"
    if isinstance(v, bytes):
        return "bytes"
    return type(v).__name__


def check_label_kinds(uniques: Sequence[Any], name: str) -> None:
    kinds = {label_kind(v) for v in uniques}
    if "missing" in kinds:
        raise ValueError(f"{name} contains a missing label (None or NaN); labels must be defined")
    if len(kinds) > 1:
        raise TypeError(
            f"{name} mixes label types that cannot be ordered together: {sorted(kinds)}"
        )


def factorize(arr: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Factorize one array: (unique labels in any order, codes into them)."""
    if arr.dtype.kind == "f":
        if np.isnan(arr).any():
            idx = int(np.flatnonzero(np.isnan(arr))[0])
            raise ValueError(f"{name} contains NaN at position {idx}; labels must be defined")
    if arr.dtype.kind in "iub":
        uniq, codes = np.unique(arr, return_inverse=True)
        return uniq, codes.astype(np.int64, copy=False)
    if arr.dtype.kind in "US" and arr.size:
        fast = _factorize_fixed_width(arr)
        if fast is not None:
            return fast
    pd = optional("pandas")
    if pd is not None:
        codes, uniq = pd.factorize(arr, use_na_sentinel=True)
        uniq = np.asarray(uniq, dtype=arr.dtype if arr.dtype.kind in "fUS" else object)
        if (codes < 0).any():
            idx = int(np.flatnonzero(codes < 0)[0])
            raise ValueError(
                f"{name} contains a missing label (None or NaN) at position {idx}"
            )
        check_label_kinds(uniq.tolist(), name)
        return uniq, codes.astype(np.int64, copy=False)
    table: dict[Any, int] = {}
    codes = np.fromiter((table.setdefault(v, len(table)) for v in arr.tolist()), np.int64, arr.size)
    uniq_list = list(table)
    check_label_kinds(uniq_list, name)
    return np.asarray(uniq_list, dtype=object), codes


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
    items = {py_scalar(v) for v in a.tolist()} | {py_scalar(v) for v in b.tolist()}
    check_label_kinds(list(items), "y_true and y_pred together")
    try:
        return sorted(items)
    except TypeError as exc:
        raise TypeError(
            f"y_true and y_pred mix label types that cannot be ordered together: {exc}"
        ) from exc


def py_scalar(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def normalize_labels(labels: Any, name: str = "labels") -> list[Any]:
    """Validate a user-given label list: 1-D, non-empty, no duplicates, no missing values."""
    arr = as_1d(labels, name)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    out = [py_scalar(v) for v in arr.tolist()]
    check_label_kinds(out, name)
    if len(set(out)) != len(out):
        seen: set[Any] = set()
        dups = []
        for v in out:
            if v in seen:
                dups.append(v)
            seen.add(v)
        raise ValueError(f"{name} contains duplicates: {dups[:5]}")
    return out


def all_finite(a: np.ndarray) -> bool:
    """True when every value of a float array is finite, proven by a finite sum (no mask
    pass); a sum that overflows only sends the caller to its element-wise check."""
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(a.size == 0 or np.isfinite(np.add.reduce(a, axis=None)))


def check_sample_weight(sample_weight: Any, n: int) -> np.ndarray | None:
    """Validate sample weights: 1-D, finite, non-negative, one per sample."""
    if sample_weight is None:
        return None
    if isinstance(sample_weight, list | tuple):
        sample_weight = np.asarray(sample_weight)  # weights are numbers, not labels
    w = as_1d(sample_weight, "sample_weight")
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
        raise ValueError("sample_weight must be non-negative")
    if n and not w.any():
        raise ValueError("sample_weight must contain at least one non-zero weight")
    return w


def check_pair(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    t = as_1d(y_true, "y_true")
    p = as_1d(y_pred, "y_pred")
    if t.shape[0] != p.shape[0]:
        raise ValueError(
            f"y_true and y_pred have different lengths: {t.shape[0]} and {p.shape[0]}"
        )
    if t.shape[0] == 0:
        raise ValueError("y_true and y_pred are empty; at least one sample is needed")
    return t, p


def encode_pair(
    y_true: Any, y_pred: Any, labels: Any = None
) -> tuple[np.ndarray, np.ndarray, list[Any], bool]:
    """Encode both label vectors with one shared code book.

    Returns ``(t_codes, p_codes, labels, has_other)``. Without ``labels`` the code book is the
    sorted union of observed labels. With ``labels`` the codes follow that order and any label
    outside it gets code ``len(labels)`` ("other"); ``has_other`` says whether that occurred.
    """
    t, p = check_pair(y_true, y_pred)
    ut, ct = factorize(t, "y_true")
    up, cp = factorize(p, "y_pred")
    if labels is None:
        book = _sorted_union(ut, up)
    else:
        book = normalize_labels(labels)
        seen = [py_scalar(v) for v in ut.tolist()] + [py_scalar(v) for v in up.tolist()]
        if seen:
            check_label_kinds(seen[:1] + book[:1], "labels and the data")
    index = {v: i for i, v in enumerate(book)}
    other = len(book)
    lut_t = np.fromiter((index.get(py_scalar(v), other) for v in ut.tolist()), np.int64, ut.size)
    lut_p = np.fromiter((index.get(py_scalar(v), other) for v in up.tolist()), np.int64, up.size)
    t_codes = lut_t[ct]
    p_codes = lut_p[cp]
    has_other = bool((lut_t == other).any() or (lut_p == other).any())
    return t_codes, p_codes, book, has_other


# --------------------------------------------------------------------------- engine columns
class CodedLabels:
    """A label column as integer codes into a small table of label values.

    Arrow dictionary arrays, pandas categoricals and factorised columns all take this shape:
    ``codes`` (any integer dtype, values in ``[0, size)``) index into a table whose entries are
    read only for the codes that occur (:meth:`values`), so an unused category costs nothing and
    only the distinct labels become Python objects.
    """

    __slots__ = ("_lookup", "codes", "name", "size")

    def __init__(
        self, name: str, codes: np.ndarray, size: int, lookup: Callable[[np.ndarray], list[Any]]
    ) -> None:
        self.name = name
        self.codes = codes
        self.size = int(size)
        self._lookup = lookup

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    def values(self, idx: np.ndarray) -> list[Any]:
        """The labels of codes ``idx`` as Python scalars; a missing one is an error naming the
        column and the first row that holds it."""
        vals = [py_scalar(v) for v in self._lookup(np.asarray(idx, dtype=np.int64))]
        for code, v in zip(idx, vals, strict=True):
            if _is_missing(v):
                raise ValueError(
                    f"{self.name} contains a missing label ({v!r}) at position "
                    f"{self.position(int(code))}; labels must be defined"
                )
        check_label_kinds(vals, self.name)
        return vals

    def position(self, code: int) -> int:
        """First row holding ``code`` (for error messages)."""
        hits = np.flatnonzero(self.codes == code)
        return int(hits[0]) if hits.size else -1

    @classmethod
    def concat(cls, name: str, pieces: list[CodedLabels]) -> CodedLabels:
        """One column from consecutive pieces, each with its own table (Arrow chunks)."""
        if len(pieces) == 1:
            return pieces[0]
        sizes = np.array([piece.size for piece in pieces], dtype=np.int64)
        bases = np.concatenate([[0], np.cumsum(sizes)])
        total = int(bases[-1])
        n = sum(len(piece) for piece in pieces)
        codes = np.empty(n, dtype=np.int32 if total < 2**31 else np.int64)
        start = 0
        for piece, base in zip(pieces, bases[:-1], strict=False):
            stop = start + len(piece)
            np.add(piece.codes, base, out=codes[start:stop], casting="unsafe")
            start = stop

        def lookup(idx: np.ndarray) -> list[Any]:
            which = np.searchsorted(bases, idx, side="right") - 1
            out: list[Any] = [None] * idx.shape[0]
            for j in np.unique(which).tolist():
                sel = np.flatnonzero(which == j)
                for i, v in zip(sel.tolist(), pieces[j]._lookup(idx[sel] - bases[j]), strict=True):
                    out[i] = v
            return out

        return cls(name, codes, total, lookup)


class StringChunks:
    """A column of Arrow strings (or binaries) in one or more chunks, not yet factorised.

    The counting kernels turn it into :class:`CodedLabels` straight from the Arrow buffers."""

    __slots__ = ("chunks", "name", "size")

    def __init__(self, name: str, chunks: list[Any]) -> None:
        self.name = name
        self.chunks = [c for c in chunks if len(c)]
        self.size = sum(len(c) for c in chunks)

    def __len__(self) -> int:
        return self.size


LabelColumn = np.ndarray | CodedLabels | StringChunks


def label_column(y: Any, name: str) -> LabelColumn:
    """One label column in the cheapest exact form: a numpy array, the codes of a dictionary /
    categorical column, or the chunks of an Arrow string column.

    Only inputs of pyarrow, polars and pandas are looked at (by their type's module, so none of
    those libraries is imported for other inputs); everything else goes through :func:`as_1d`.
    A null is an error naming ``name`` and its first position.
    """
    module = module_of(y)
    if module == "pyarrow":
        return _arrow_column(y, name)
    if module == "polars":
        col = _polars_column(y, name)
        if col is not None:
            return col
    elif module == "pandas":
        col = _pandas_column(y, name)
        if col is not None:
            return col
    return as_1d(y, name)


def check_label_pair(y_true: Any, y_pred: Any) -> tuple[LabelColumn, LabelColumn]:
    """:func:`label_column` for both vectors, checked to be equally long and not empty."""
    t = label_column(y_true, "y_true")
    p = label_column(y_pred, "y_pred")
    nt, npred = len(t), len(p)
    if nt != npred:
        raise ValueError(f"y_true and y_pred have different lengths: {nt} and {npred}")
    if nt == 0:
        raise ValueError("y_true and y_pred are empty; at least one sample is needed")
    return t, p


def _null_error(name: str, position: int) -> ValueError:
    return ValueError(
        f"{name} contains a missing label (null) at position {position}; labels must be defined"
    )


def _arrow_column(y: Any, name: str) -> LabelColumn:
    pa = imported("pyarrow")  # the input is a pyarrow object, so pyarrow is imported
    if isinstance(y, pa.ChunkedArray):
        chunks = list(y.chunks)
    elif isinstance(y, pa.Array):
        chunks = [y]
    else:  # a Table, a Scalar, ...: as before
        return as_1d(y, name)
    start = 0
    for chunk in chunks:
        if chunk.null_count:
            first = int(np.argmax(chunk.is_null().to_numpy(zero_copy_only=False)))
            raise _null_error(name, start + first)
        start += len(chunk)
    typ = y.type
    types = pa.types
    if types.is_dictionary(typ):
        return CodedLabels.concat(name, [dictionary_codes(c, name) for c in chunks])
    if (
        types.is_string(typ) or types.is_large_string(typ) or types.is_binary(typ)
        or types.is_large_binary(typ) or types.is_string_view(typ) or types.is_binary_view(typ)
    ):
        return StringChunks(name, chunks)
    if types.is_integer(typ) or types.is_floating(typ):
        # no nulls (checked): one chunk is read without a copy, several are concatenated
        return chunks[0].to_numpy() if len(chunks) == 1 else np.asarray(y.to_numpy())
    return as_1d(y, name)


def dictionary_codes(chunk: Any, name: str) -> CodedLabels:
    """An Arrow DictionaryArray without nulls as :class:`CodedLabels` (indices read in place)."""
    dictionary = chunk.dictionary
    codes = chunk.indices.to_numpy()  # no nulls (checked), so zero copy

    def lookup(idx: np.ndarray) -> list[Any]:  # 'take' has no string-view kernel
        return [dictionary[i].as_py() for i in idx.tolist()]

    return CodedLabels(name, codes, len(dictionary), lookup)


def _polars_column(y: Any, name: str) -> LabelColumn | None:
    pl = imported("polars")  # the input is a polars object
    if not isinstance(y, pl.Series):
        return None
    if y.null_count():
        raise _null_error(name, int(y.is_null().arg_true()[0]))
    dtype = y.dtype
    if isinstance(dtype, pl.Enum | pl.Categorical):
        coded = _polars_categorical(y, name)
        if coded is not None:
            return coded
    if dtype in (pl.String, pl.Binary, pl.Categorical) or isinstance(dtype, pl.Enum | pl.Categorical):
        try:
            arrow = y.to_arrow(compat_level=pl.CompatLevel.newest())  # string views: no copy
        except (AttributeError, TypeError):  # pragma: no cover - older polars
            arrow = y.to_arrow()
        return _arrow_column(arrow, name)
    if dtype.is_integer() or dtype.is_float() or dtype == pl.Boolean:
        return np.asarray(y.to_numpy())
    return None


def _polars_categorical(y: Any, name: str) -> CodedLabels | None:
    """A polars Categorical / Enum as its physical codes into its categories (polars >= 1.32
    keeps the categories on the dtype; older ones go through Arrow)."""
    categories = getattr(y.dtype, "categories", None)
    if categories is None:  # pragma: no cover - older polars
        return None
    if not hasattr(categories, "gather"):  # a Categorical's Categories, ordered by code
        if not hasattr(categories, "to_series"):  # pragma: no cover - older polars
            return None
        categories = categories.to_series()
    codes = np.asarray(y.to_physical().to_numpy())

    def lookup(idx: np.ndarray) -> list[Any]:
        return categories.gather(idx).to_list()

    return CodedLabels(name, codes, len(categories), lookup)


def _pandas_column(y: Any, name: str) -> LabelColumn | None:
    pd = imported("pandas")  # the input is a pandas object
    if not isinstance(y, pd.Series | pd.Index):
        return None
    dtype = y.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        cat = y.array if isinstance(y, pd.Series) else y.values
        codes = np.asarray(cat.codes)
        if codes.size and codes.min() < 0:
            raise _null_error(name, int(np.argmax(codes < 0)))
        categories = cat.categories

        def lookup(idx: np.ndarray) -> list[Any]:
            return categories.take(idx).tolist()

        return CodedLabels(name, codes, len(categories), lookup)
    array = y.array
    if hasattr(array, "__arrow_array__") and (
        isinstance(dtype, pd.ArrowDtype) or getattr(dtype, "storage", None) == "pyarrow"
    ):
        import pyarrow  # noqa: F401 - pandas holds Arrow data, so pyarrow is installed

        return _arrow_column(array.__arrow_array__(), name)
    return None
