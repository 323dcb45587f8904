"""Integer and float columns of a Parquet file (labels, scores), decoded from the chunks.

Label columns are almost always dictionary-encoded (a handful of distinct values), and pyarrow
expands them into nullable 64-bit arrays through a general decoder: a large part of the cost of
reading a (true, pred, score) file. Here the pages of a column chunk are read from the
memory-mapped file and decoded by compiled kernels (:mod:`confmat._pqdict_kernels`): Thrift
page headers, Snappy, the RLE / bit-packed definition levels and dictionary indices. Labels
can be handed out in the narrowest integer type that holds the dictionary (``narrow``); PLAIN
pages (scores, a dictionary that overflowed, or none at all) are copied as stored, and the
values that are not finite are counted on the way, so the reader need not scan for NaN. Only
the plain layout is taken: a top-level integer or float column with at most one definition
level, Snappy or no compression, data pages v1 or v2; :func:`plan_chunk` returns None for
anything else and the caller lets pyarrow read that column chunk. ``tests/test_pqdict.py``
checks values, null masks and the finiteness report against pyarrow on files of many layouts.

The page format is the Parquet specification's (``parquet.thrift``): page headers in Thrift's
compact protocol, definition levels and indices in the RLE / bit-packing hybrid encoding.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

import numpy as np

# parquet.thrift enums
_DICTIONARY_PAGE = 2
_PLAIN, _PLAIN_DICTIONARY = 0, 2
_INT_TYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


class _Unsupported(Exception):
    """A layout this decoder does not take: pyarrow reads the column chunk instead."""


# ---------------------------------------------------------------------- kernels
@lru_cache(maxsize=1)
def _kernels() -> Any:
    """The compiled kernels (an ImportError without numba)."""
    from . import _pqdict_kernels

    return _pqdict_kernels


# ---------------------------------------------------------------------- planning
@dataclass
class ChunkPlan:
    """One column chunk taken here: where its data pages are, its dictionary (empty when it
    has none) and the type its values are handed out in."""

    data_start: int
    end: int
    num_values: int
    max_def: int
    snappy: bool
    largest_page: int
    dictionary: np.ndarray
    dtype: np.dtype
    plain: bool = False  # has PLAIN pages: values copied as stored, so dtype is the stored type


_FLOAT_TYPES = {"float": ("FLOAT", "<f4"), "double": ("DOUBLE", "<f8")}


def _physical_dtype(physical: str, arrow_type: str) -> np.dtype:
    """The type of the PLAIN-encoded values of a column."""
    if arrow_type in _FLOAT_TYPES:
        return np.dtype(_FLOAT_TYPES[arrow_type][1])
    unsigned = arrow_type.startswith("uint")
    width = 4 if physical == "INT32" else 8
    return np.dtype(("<u" if unsigned else "<i") + str(width))


def _dictionary_values(body: np.ndarray, n: int, physical: str, arrow_type: str) -> np.ndarray:
    dtype = _physical_dtype(physical, arrow_type)
    if n < 0 or body.shape[0] < n * dtype.itemsize:
        raise _Unsupported("dictionary page shorter than its values")
    raw = body[: n * dtype.itemsize].view(dtype)
    if dtype.kind == "f":
        return raw.astype(dtype.newbyteorder("="))
    if n == 0:
        return raw.astype(np.int8)
    # the narrowest type that holds the dictionary (labels are compared by value)
    return raw.astype(_narrow(raw))


def _narrow(values: np.ndarray) -> np.dtype:
    lo, hi = int(values.min()), int(values.max())
    for t in (np.int8, np.int16, np.int32, np.int64):
        info = np.iinfo(t)
        if info.min <= lo and hi <= info.max:
            return np.dtype(t)
    return np.dtype(np.uint64)


def plan_chunk(
    data: np.ndarray, column: Any, schema_column: Any, arrow_type: str, narrow: bool = False
) -> ChunkPlan | None:
    """The plan of one column chunk, or None unless this module decodes it.

    ``data`` is the whole file as uint8 (a memory map), ``column`` the chunk's
    ``ColumnChunkMetaData``, ``schema_column`` its ``ColumnSchema`` and ``arrow_type`` the
    string of its Arrow type. Values come in the column's own type (as pyarrow gives them),
    or with ``narrow`` in the narrowest integer type holding a dictionary-only chunk.
    """
    try:
        return _plan(data, column, schema_column, arrow_type, narrow)
    except (_Unsupported, ValueError):  # damaged or not ours
        return None


def _plan(
    data: np.ndarray, column: Any, schema_column: Any, arrow_type: str, narrow: bool
) -> ChunkPlan:
    physical = column.physical_type
    if arrow_type in _FLOAT_TYPES:
        if physical != _FLOAT_TYPES[arrow_type][0]:
            raise _Unsupported("float column of another physical type")
    elif arrow_type not in _INT_TYPES or physical not in ("INT32", "INT64"):
        raise _Unsupported("not an integer or float column")
    if schema_column.max_repetition_level != 0 or schema_column.max_definition_level > 1:
        raise _Unsupported("nested column")
    if column.compression not in ("SNAPPY", "UNCOMPRESSED"):
        raise _Unsupported("codec")
    start = column.data_page_offset
    if column.dictionary_page_offset:
        start = min(start, column.dictionary_page_offset)
    end = start + column.total_compressed_size
    if start < 0 or end > data.shape[0]:
        raise _Unsupported("column chunk outside the file")
    snappy = column.compression == "SNAPPY"
    kern = _kernels()
    hdr = np.zeros(8, np.int64)  # see page_header: type, sizes, values, encoding, ...
    body = kern.page_header(data, start, end, hdr)
    values = np.empty(0, _physical_dtype(physical, arrow_type))
    data_start = start
    if body >= 0 and hdr[0] == _DICTIONARY_PAGE:
        usize, csize, n = int(hdr[1]), int(hdr[2]), int(hdr[3])
        if (hdr[4] not in (_PLAIN, _PLAIN_DICTIONARY) or csize < 0 or body + csize > end
                or not 0 <= usize <= column.total_uncompressed_size):
            raise _Unsupported("dictionary page")
        if snappy:
            page = np.empty(usize, np.uint8)
            if kern.snappy(data, body, body + csize, page) != usize:
                raise _Unsupported("damaged dictionary page")
        else:
            page = data[body : body + csize]
        values = _dictionary_values(page, n, physical, arrow_type)
        data_start = body + csize
    total, largest, plain, status = kern.scan_pages(data, data_start, end, hdr)
    if status != 0 or total != column.num_values:
        raise _Unsupported("pages of another kind, or damaged headers")
    # PLAIN pages are copied byte for byte: the chunk's values then keep their stored type
    if arrow_type in _FLOAT_TYPES:  # scores: always their stored type
        dtype = _physical_dtype(physical, arrow_type).newbyteorder("=")
    elif narrow:
        dtype = _physical_dtype(physical, arrow_type).newbyteorder("=") if plain else values.dtype
    else:
        dtype = np.dtype(arrow_type)
        # PLAIN pages are copied as stored (INT32 for int8 / int16 columns): not in this type
        if plain and _physical_dtype(physical, arrow_type).itemsize != dtype.itemsize:
            raise _Unsupported("PLAIN pages of a narrower integer column")
    values = values.astype(dtype)
    return ChunkPlan(data_start, end, int(total), schema_column.max_definition_level, snappy,
                     int(largest), values, np.dtype(dtype), bool(plain))


# ---------------------------------------------------------------------- decoding
_local = threading.local()


def _buffers() -> Any:
    """This thread's decompression scratch and definition-level buffers."""
    bufs = getattr(_local, "bufs", None)
    if bufs is None:
        bufs = _local.bufs = SimpleNamespace(scratch=np.empty(0, np.uint8),
                                             levels=np.empty(0, np.uint8))
    return bufs


class DictColumn:
    """Values (and null masks) of consecutive planned column chunks, handed out in slices."""

    def __init__(self, data: np.ndarray, plans: list[ChunkPlan]) -> None:
        self.data = data
        plain = {p.dtype for p in plans if p.plain}
        if plain:  # a chunk with PLAIN pages: every chunk in the stored type (one per column)
            self.dtype = np.dtype(plain.pop())
        else:
            self.dtype = np.result_type(*[p.dtype for p in plans]) if plans else np.dtype(np.int64)
        self._plans = list(plans)
        self._next = 0
        self._cur: ChunkPlan | None = None
        self._pos = 0
        self._dict = np.empty(0, self.dtype)
        # work buffers live as long as the thread: fresh ones per chunk cost page faults
        bufs = _buffers()
        need = max([p.largest_page for p in plans], default=0) + 64
        if bufs.scratch.shape[0] < need:
            bufs.scratch = np.empty(need, np.uint8)
        self._bufs = bufs
        self._hdr = np.zeros(8, np.int64)
        self._stats = np.zeros(1, np.int64)
        self._left: tuple[np.ndarray, np.ndarray] | None = None  # decoded, not yet handed out

    def _decode(self, out: np.ndarray, lev: np.ndarray) -> tuple[int, int, int]:
        decode_pages = _kernels().decode_pages
        assert self._cur is not None
        total = total_nulls = 0
        while True:
            pos, count, nulls, status = decode_pages(
                self.data, self._pos, self._cur.end, self._cur.max_def, self._cur.snappy,
                self._dict, out, out.view(np.uint8), lev, self._bufs.scratch, self._hdr,
                self._stats,
            )
            self._pos = pos
            total += count
            total_nulls += nulls
            if status == 2:  # a page larger than the headers said: grow and go on
                self._bufs.scratch = np.empty(int(self._hdr[1]) + 64, np.uint8)
                out, lev = out[count:], lev[count:]
                continue
            if status < 0:
                raise ValueError("corrupted Parquet page")
            return total, total_nulls, status

    def take(self, n: int) -> tuple[np.ndarray, np.ndarray | None, bool]:
        """The next ``n`` values, their null mask (None when none is null), and whether every
        value decoded so far is finite (no NaN or infinity, so no scan is needed)."""
        out = np.empty(n, self.dtype)
        if self._bufs.levels.shape[0] < n:
            self._bufs.levels = np.empty(n, np.uint8)
        lev = self._bufs.levels[:n]
        filled = 0
        nulls = 0
        if self._left is not None:
            lv, ll = self._left
            k = min(n, lv.shape[0])
            out[:k], lev[:k] = lv[:k], ll[:k]
            nulls += int(k - np.count_nonzero(ll[:k]))
            self._left = None if k == lv.shape[0] else (lv[k:], ll[k:])
            filled = k
        while filled < n:
            if self._cur is None or self._pos >= self._cur.end:
                if self._next == len(self._plans):
                    raise ValueError("a column chunk has fewer values than its row group says")
                self._cur = self._plans[self._next]
                self._next += 1
                self._pos = self._cur.data_start
                self._dict = self._cur.dictionary.astype(self.dtype, copy=False)
                continue
            count, null, status = self._decode(out[filled:], lev[filled:])
            filled += count
            nulls += null
            if status == 1:  # the next page does not fit: decode it aside, keep the rest
                m = int(self._hdr[3])
                side, side_lev = np.empty(m, self.dtype), np.empty(m, np.uint8)
                got, _, _ = self._decode(side, side_lev)
                k = min(n - filled, got)
                nulls += int(k - np.count_nonzero(side_lev[:k]))
                out[filled : filled + k], lev[filled : filled + k] = side[:k], side_lev[:k]
                filled += k
                if k < got:
                    self._left = (side[k:got], side_lev[k:got])
        finite = bool(self._stats[0] == 0)
        if not nulls:
            return out, None, finite
        return out, lev == 0, finite
