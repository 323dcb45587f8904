"""Label columns that an engine already holds, read without a Python object per row.

pyarrow arrays and chunked arrays, polars Series and pandas columns with Arrow or categorical
dtypes are recognised by their type's module (so none of those libraries is imported for other
inputs, see :mod:`confmat.deps`): dictionary and categorical columns become their integer
codes (:class:`CodedLabels`), string columns their Arrow buffers (:class:`StringChunks`,
factorised by the counting kernels). Only the few distinct labels ever become Python objects.
Everything else goes through :func:`confmat.inputs.encode.as_1d`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..deps import imported, module_of
from .encode import as_1d, check_pair_lengths
from .kinds import check_label_kinds, is_missing, py_scalar
from .truth import EncodedTruth

__all__ = [
    "CodedLabels",
    "LabelColumn",
    "StringChunks",
    "check_label_pair",
    "dictionary_codes",
    "label_array",
    "label_column",
]


class CodedLabels:
    """A label column as integer codes into a small table of label values.

    Arrow dictionary arrays, pandas categoricals and factorised columns all take this shape:
    ``codes`` (any integer dtype, values in ``[0, size)``) index into a table whose entries are
    read only for the codes that occur (:meth:`values`), so an unused category costs nothing and
    only the distinct labels become Python objects.

    Parameters
    ----------
    name : str
        The column's name, for messages.
    codes : ndarray of integers, shape (n,)
        One code per row.
    size : int
        Number of codes.
    lookup : callable
        Maps an int64 array of codes to the list of their labels.

    Examples
    --------
    >>> col = CodedLabels("y_true", np.array([1, 0, 1]), 2, lambda idx: [["cat", "dog"][i] for i in idx])
    >>> len(col), col.values(np.array([0, 1]))
    (3, ['cat', 'dog'])
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
        """The labels of codes ``idx`` as Python scalars.

        Parameters
        ----------
        idx : array-like of int
            Codes.

        Returns
        -------
        list

        Raises
        ------
        ValueError
            A missing label, naming the column and the first row that holds it.
        TypeError
            Labels of several kinds.

        Examples
        --------
        >>> col = CodedLabels("y", np.array([0, 1]), 2, lambda idx: [["a", None][i] for i in idx])
        >>> col.values(np.array([0]))
        ['a']
        >>> col.values(np.array([1]))
        Traceback (most recent call last):
        ...
        ValueError: y contains a missing label (None) at position 1; labels must be defined
        """
        vals = [py_scalar(v) for v in self._lookup(np.asarray(idx, dtype=np.int64))]
        for code, v in zip(idx, vals, strict=True):
            if is_missing(v):
                raise ValueError(
                    f"{self.name} contains a missing label ({v!r}) at position "
                    f"{self.position(int(code))}; labels must be defined"
                )
        check_label_kinds(vals, self.name)
        return vals

    def position(self, code: int) -> int:
        """First row holding ``code`` (for error messages), or -1.

        Parameters
        ----------
        code : int
            A code.

        Returns
        -------
        int

        Examples
        --------
        >>> CodedLabels("y", np.array([0, 2, 2]), 3, list).position(2)
        1
        """
        hits = np.flatnonzero(self.codes == code)
        return int(hits[0]) if hits.size else -1

    @classmethod
    def concat(cls, name: str, pieces: list[CodedLabels]) -> CodedLabels:
        """One column from consecutive pieces, each with its own table (Arrow chunks).

        Parameters
        ----------
        name : str
            The column's name.
        pieces : list of CodedLabels
            The pieces, in row order.

        Returns
        -------
        CodedLabels
            Codes offset so that each piece keeps its own table.

        Examples
        --------
        >>> a = CodedLabels("y", np.array([0, 0]), 1, lambda idx: ["x" for i in idx])
        >>> b = CodedLabels("y", np.array([0, 1]), 2, lambda idx: [["x", "z"][i] for i in idx])
        >>> both = CodedLabels.concat("y", [a, b])
        >>> both.codes.tolist(), both.values(np.arange(both.size))
        ([0, 0, 1, 2], ['x', 'x', 'z'])
        """
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

    The counting kernels turn it into :class:`CodedLabels` straight from the Arrow buffers.

    Parameters
    ----------
    name : str
        The column's name.
    chunks : list of pyarrow.Array
        The chunks (empty ones are dropped).

    Examples
    --------
    >>> import pyarrow as pa
    >>> len(StringChunks("y", [pa.array(["a", "b"]), pa.array([], pa.string())]))
    2
    """

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
    those libraries is imported for other inputs); a column this function returned comes back
    as it is, an :class:`~confmat.inputs.truth.EncodedTruth` (labels the door has encoded
    already) becomes the codes into its classes, and everything else goes through
    :func:`confmat.inputs.encode.as_1d`.

    Parameters
    ----------
    y : array-like or EncodedTruth
        The labels.
    name : str
        The argument's name, for messages.

    Returns
    -------
    ndarray, CodedLabels or StringChunks

    Raises
    ------
    ValueError
        A null label, naming ``name`` and its first position; see also ``as_1d``.

    Examples
    --------
    >>> import pandas as pd
    >>> col = label_column(pd.Series(["b", "a", "b"], dtype="category"), "y_true")
    >>> col.codes.tolist(), col.values(np.array([0, 1]))
    ([1, 0, 1], ['a', 'b'])
    >>> label_column([1, 2], "y_true")
    array([1, 2])
    >>> from confmat.inputs.targets import encoded_truth
    >>> col = label_column(encoded_truth(["b", "a", "b"]), "y_true")
    >>> col.codes.tolist(), col.values(np.array([0, 1]))
    ([1, 0, 1], ['a', 'b'])
    """
    if isinstance(y, CodedLabels | StringChunks):  # read by this door already
        return y
    if isinstance(y, EncodedTruth):  # encoded once for several counts (a model comparison)
        classes = y.classes
        return CodedLabels(name, y.codes, len(classes),
                           lambda idx: [classes[i] for i in idx.tolist()])
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


def check_label_pair(
    y_true: Any, y_pred: Any, *, empty_ok: bool = False
) -> tuple[LabelColumn, LabelColumn]:
    """:func:`label_column` for both vectors, checked to be equally long and not empty.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        The labels.
    empty_ok : bool, default False
        Accept zero samples: a chunk of a stream may be empty (a filter that kept nothing),
        a whole input may not (:class:`~confmat.Accumulator` and
        :class:`~confmat.accumulator.GroupedAccumulator` pass True).

    Returns
    -------
    (LabelColumn, LabelColumn)

    Raises
    ------
    ValueError
        Different lengths, no samples (unless ``empty_ok``), or a null label.

    Examples
    --------
    >>> t, p = check_label_pair([0, 1], [1, 1])
    >>> t.tolist(), p.tolist()
    ([0, 1], [1, 1])
    >>> len(check_label_pair([], [], empty_ok=True)[0])
    0
    """
    t = label_column(y_true, "y_true")
    p = label_column(y_pred, "y_pred")
    check_pair_lengths(len(t), len(p), empty_ok=empty_ok)
    return t, p


def label_array(col: LabelColumn) -> np.ndarray:
    """A label column of :func:`check_label_pair` as a 1-D numpy array of its labels (for
    the few callers that need the labels row by row: pre-aggregated ``GROUP BY`` rows, the
    true labels of a score histogram).

    Parameters
    ----------
    col : ndarray, CodedLabels or StringChunks
        The column.

    Returns
    -------
    ndarray of shape (n,)
        The array itself, or an object array of the labels.

    Examples
    --------
    >>> import pandas as pd
    >>> label_array(label_column(pd.Series(["b", "a", "b"], dtype="category"), "y")).tolist()
    ['b', 'a', 'b']
    """
    if isinstance(col, np.ndarray):
        return col
    if isinstance(col, CodedLabels):  # only the codes that occur are looked up
        used, inverse = np.unique(np.asarray(col.codes, dtype=np.int64), return_inverse=True)
        values = np.empty(used.size, dtype=object)
        values[:] = col.values(used)
        return values[inverse.reshape(-1)]
    out = np.empty(len(col), dtype=object)
    start = 0
    for chunk in col.chunks:
        out[start:start + len(chunk)] = chunk.to_pylist()
        start += len(chunk)
    return out


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
    """An Arrow DictionaryArray without nulls as :class:`CodedLabels` (indices read in place).

    Parameters
    ----------
    chunk : pyarrow.DictionaryArray
        One chunk, without nulls.
    name : str
        The column's name.

    Returns
    -------
    CodedLabels

    Examples
    --------
    >>> import pyarrow as pa
    >>> col = dictionary_codes(pa.array(["b", "a", "b"]).dictionary_encode(), "y")
    >>> col.codes.tolist(), col.values(np.array([0, 1]))
    ([0, 1, 0], ['b', 'a'])
    """
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
