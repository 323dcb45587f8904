"""Label columns to integer codes: Arrow strings, numpy numbers and objects, large dictionaries.

The second step of counting (after :mod:`confmat.inputs.encode` has read the column): a column
that is not a small integer range becomes :class:`~confmat.inputs.columns.CodedLabels`, codes
into a table of distinct labels, by the compiled hash tables of
:mod:`confmat.counting.jit_factorize` or, without numba, by ``pyarrow.compute.dictionary_encode``
and :func:`confmat.inputs.encode.factorize` (the same codes up to their order).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..deps import imported
from ..inputs.columns import CodedLabels, StringChunks, dictionary_codes
from ..inputs.encode import factorize
from ..inputs.kinds import check_label_kinds
from ..words import arg

__all__ = ["coded_pair", "compact", "onto_book", "threads"]


def threads(kern: SimpleNamespace) -> int:
    """Threads numba may use (at least 1).

    Parameters
    ----------
    kern : SimpleNamespace
        The kernels of :func:`confmat.counting.kernels.load_kernels` (its ``numba`` module).

    Returns
    -------
    int

    Examples
    --------
    >>> import types
    >>> fake = types.SimpleNamespace(numba=types.SimpleNamespace(get_num_threads=lambda: 0))
    >>> threads(fake)
    1
    """
    return max(1, int(kern.numba.get_num_threads()))


_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="confmat-factorize")
    return _POOL


def _string_codes(chunk: Any, name: str, kern: SimpleNamespace | None) -> CodedLabels:
    """One Arrow string / binary chunk as codes: factorised from its buffers by the kernel,
    or by ``pyarrow.compute.dictionary_encode`` without numba."""
    pa = imported("pyarrow")  # a StringChunks holds Arrow arrays, so pyarrow is imported
    if kern is None:
        import pyarrow.compute as pc

        return dictionary_codes(pc.dictionary_encode(chunk), name)
    n = len(chunk)
    bufs = chunk.buffers()
    typ = chunk.type
    if pa.types.is_string_view(typ) or pa.types.is_binary_view(typ):
        views = np.frombuffer(bufs[1], dtype=np.uint64, count=2 * n, offset=16 * chunk.offset)
        addrs = np.array([b.address if b is not None else 0 for b in bufs[2:]] or [0],
                         dtype=np.uint64)
        args: tuple[Any, ...] = (views, addrs)
        factorize = kern.factorize_views
    else:
        large = pa.types.is_large_string(typ) or pa.types.is_large_binary(typ)
        width = 8 if large else 4
        offsets = np.frombuffer(bufs[1], dtype=np.int64 if large else np.int32, count=n + 1,
                                offset=width * chunk.offset)
        data = bufs[2]
        base = data.address if data is not None else 0
        end = base + data.size if data is not None else 0
        args = (offsets, np.uint64(base), np.uint64(end))
        factorize = kern.factorize_offsets
    # one byte per row while there are at most 256 labels (a quarter of the memory traffic
    # of int32 codes, for the factorising and for the count); wider codes only when needed
    for dtype in (np.uint8, np.int32 if n < 2**31 else np.int64):
        codes = np.empty(n, dtype=dtype)
        k, first = factorize(*args, codes)
        if k >= 0:
            break

    def lookup(idx: np.ndarray) -> list[Any]:  # 'take' has no string-view kernel
        return [chunk[i].as_py() for i in first[idx].tolist()]

    return CodedLabels(name, codes, int(k), lookup)


def _factorize_strings(col: StringChunks, kern: SimpleNamespace | None) -> CodedLabels:
    return CodedLabels.concat(col.name, [_string_codes(c, col.name, kern) for c in col.chunks])


def _word_codes(arr: np.ndarray, name: str, kern: SimpleNamespace) -> CodedLabels | None:
    """Codes of a numpy column by the compiled hash table, keyed by each element's 64 bits.

    Numbers are keyed by their value's bits (exact for every integer and float dtype: equal
    bits are equal values). Object arrays are keyed by the identity of their elements, the
    64-bit object pointers: one object is one label, so no element is hashed or compared in
    Python (equal objects at different addresses share their label when the table is folded
    onto the label book, by value). None when more than 65536 distinct keys turn up (every
    row a fresh string object, as a parser may leave them): then pandas.factorize, which
    compares values, is the better tool.
    """
    arr = np.ascontiguousarray(arr)
    n = arr.shape[0]
    if arr.dtype == object:
        import ctypes

        address = arr.__array_interface__["data"][0]
        words = np.frombuffer((ctypes.c_char * (8 * n)).from_address(address), dtype=np.uint64)
    elif arr.dtype.itemsize == 8:
        words = arr.view(np.uint64)
    else:  # narrower numbers: their unsigned bit patterns, widened
        words = arr.view(f"u{arr.dtype.itemsize}").astype(np.uint64)
    codes = np.empty(n, dtype=np.uint16)
    k, first = kern.factorize_words(words, codes)
    del words  # may view arr's memory: arr itself stays referenced by lookup below
    if k < 0:
        return None

    def lookup(idx: np.ndarray) -> list[Any]:
        return arr[first[idx]].tolist()

    return CodedLabels(name, codes, int(k), lookup)


def _array_codes(arr: np.ndarray, name: str, kern: SimpleNamespace | None) -> CodedLabels:
    if kern is not None and arr.dtype.kind in "iufO" and arr.dtype.itemsize <= 8:
        coded = _word_codes(arr, name, kern)
        if coded is not None:
            return coded
    uniq, codes = factorize(arr, name)
    return CodedLabels(name, codes, uniq.shape[0], lambda idx: uniq[idx].tolist())


def coded_pair(
    t: Any, p: Any, kern: SimpleNamespace | None
) -> tuple[CodedLabels, CodedLabels]:
    """Both columns as codes; two Arrow string columns are factorised at the same time.

    Parameters
    ----------
    t, p : ndarray, CodedLabels or StringChunks
        The columns from :func:`confmat.inputs.columns.check_label_pair`.
    kern : SimpleNamespace or None
        The compiled kernels, or None for the numpy / pyarrow path.

    Returns
    -------
    (CodedLabels, CodedLabels)

    Raises
    ------
    ValueError, TypeError
        A missing label or labels of mixed kinds (from the encoders).

    Examples
    --------
    >>> import numpy as np
    >>> ct, cp = coded_pair(np.array(["b", "a", "b"]), np.array(["a", "a", "c"]), None)
    >>> ct.values(ct.codes), cp.size
    (['b', 'a', 'b'], 2)
    """
    if (
        kern is not None
        and isinstance(t, StringChunks)
        and isinstance(p, StringChunks)
        and threads(kern) > 1
    ):
        job = _pool().submit(_factorize_strings, p, kern)
        ct = _factorize_strings(t, kern)
        return ct, job.result()
    out = []
    for col in (t, p):
        if isinstance(col, StringChunks):
            col = _factorize_strings(col, kern)
        elif isinstance(col, np.ndarray):
            col = _array_codes(col, "y_true" if col is t else "y_pred", kern)
        out.append(col)
    return out[0], out[1]


def compact(col: CodedLabels) -> CodedLabels:
    """Drop the codes that do not occur (a large dictionary with few used entries).

    Parameters
    ----------
    col : CodedLabels
        A coded column.

    Returns
    -------
    CodedLabels
        The same labels, codes renumbered ``0 .. used - 1``.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.inputs.columns import CodedLabels
    >>> col = CodedLabels("y", np.array([4, 0, 4]), 5, lambda idx: [f"c{i}" for i in idx])
    >>> small = compact(col)
    >>> small.size, small.codes.tolist(), small.values(np.arange(2))
    (2, [1, 0, 1], ['c0', 'c4'])
    """
    used = np.flatnonzero(np.bincount(col.codes.astype(np.int64, copy=False), minlength=col.size))
    lut = np.full(col.size, -1, dtype=np.int64)
    lut[used] = np.arange(used.size)
    codes = lut[col.codes]
    return CodedLabels(col.name, codes, used.size, lambda idx: col.values(used[idx]))


def onto_book(col: CodedLabels, book: list[Any]) -> CodedLabels:
    """Codes into ``book`` (code ``len(book)``: any label outside it), for columns with too
    many labels to count pairs of their own codes when only a few labels are wanted.

    Parameters
    ----------
    col : CodedLabels
        A coded column.
    book : list
        The wanted labels, in order.

    Returns
    -------
    CodedLabels
        ``len(book) + 1`` codes; the last stands for every label outside ``book``.

    Raises
    ------
    TypeError
        If the column's labels and ``book`` are of different kinds.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.inputs.columns import CodedLabels
    >>> names = ["a", "b", "z"]
    >>> col = CodedLabels("y", np.array([0, 1, 2]), 3, lambda idx: [names[i] for i in idx])
    >>> onto_book(col, ["b", "a"]).codes.tolist()
    [1, 0, 2]
    """
    values = col.values(np.arange(col.size))
    check_label_kinds(values[:1] + book[:1], f"{arg('labels')} and the data")
    k = len(book)
    index = {v: i for i, v in enumerate(book)}
    lut = np.fromiter((index.get(v, k) for v in values), np.int64, len(values))
    outside = [v for v, i in zip(values, lut.tolist(), strict=True) if i == k]
    labels = [*book, outside[0] if outside else None]  # one label stands for the outside

    def lookup(idx: np.ndarray) -> list[Any]:
        return [labels[i] for i in idx.tolist()]

    return CodedLabels(col.name, lut[col.codes], k + 1, lookup)
