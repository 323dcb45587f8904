"""Counting kernels: two label columns -> K x K table of counts.

Every input is counted as a pair of integer columns over a small table, which is then folded
onto the sorted label book; only the distinct labels ever become Python objects.

* Integer (and bool) labels are counted over their value ranges directly: no sort, no
  factorisation. The ranges are guessed from a sample and checked while counting (a value
  outside lands in a margin row or column), so the usual input is read once; a wrong guess
  costs one exact min/max pass and a recount. Arithmetic is modulo 2**64 on each array's own
  values, so the whole uint64 range is exact and no dtype is promoted to float.
* Arrow dictionary columns, polars Categorical / Enum and pandas categoricals are counted
  over their codes.
* Arrow string columns (pyarrow, polars, pandas ``string[pyarrow]``) are factorised straight
  from their buffers by a compiled hash table, the two columns at once; numpy numbers and
  object arrays by the same table keyed by 64-bit words (values' bits, object pointers),
  with ``pandas.factorize`` as the fallback (see :func:`confmat.inputs.encode.factorize`).

The numba kernels run above ``NUMBA_MIN_SIZE`` rows (or when asked); below it, or without
numba, ``np.bincount``, ``pandas.factorize`` and ``pyarrow.compute.dictionary_encode`` take
their place with identical counts.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..inputs.encode import (
    CodedLabels,
    StringChunks,
    check_label_kinds,
    check_label_pair,
    check_sample_weight,
    dictionary_codes,
    factorize,
    normalize_labels,
)

#: Inputs shorter than this use numpy / pyarrow: a JIT call is not worth its start-up below it.
NUMBA_MIN_SIZE = 1 << 20
#: Widest integer label range (per column) counted directly; wider ones are factorised first.
MAX_DIRECT_RANGE = 1024
#: Largest table of code pairs counted before unused codes are dropped.
MAX_TABLE_CELLS = 1 << 21
#: Values per column looked at to guess the integer label ranges.
SAMPLE_SIZE = 4096
#: Longest stretch one thread counts into its int32 table.
_CHUNK_LIMIT = 1 << 30
#: Rows whose table cells the counting kernel computes before it increments them.
BLOCK = 256
#: Fewest rows a thread of a parallel kernel is handed at once.
MIN_STRETCH = 1 << 16

# numba intrinsics and helpers, set by _numba_kernels(); module globals so that the kernels
# that call them are cached on disk (closure variables would defeat the cache).
_load_u64: Any = None
_load_u8: Any = None
_mix: Any = None
_le_bytes: Any = None
_hash_bytes: Any = None
_same_bytes: Any = None
_grow: Any = None
_count_stretch: Any = None
_reduce_tables: Any = None
_count_stretch_w: Any = None
_minmax_stretch: Any = None
_table_shift: Any = None
_views_run: Any = None
_offsets_run: Any = None
_words_run: Any = None
_long_key: Any = None


@lru_cache(maxsize=1)
def _numba_kernels() -> SimpleNamespace | None:
    """Compile (or load from cache) the numba kernels; None when numba is unavailable."""
    if os.environ.get("CONFMAT_DISABLE_NUMBA"):
        return None
    try:
        import numba
    except ImportError:
        return None
    from llvmlite import ir
    from numba import njit, prange
    from numba.core import types
    from numba.extending import intrinsic

    global _load_u64, _load_u8, _mix, _le_bytes, _hash_bytes, _same_bytes, _grow
    global _views_run, _offsets_run, _words_run, _long_key, _minmax_stretch, _table_shift
    global _count_stretch, _reduce_tables, _count_stretch_w

    @intrinsic
    def load_u64(typingctx, addr):  # pragma: no cover - compiled
        """Unaligned little-endian 8-byte load from a raw address (an Arrow buffer)."""
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            return builder.load(builder.inttoptr(args[0], ir.IntType(64).as_pointer()), align=1)

        return sig, codegen

    @intrinsic
    def load_u8(typingctx, addr):  # pragma: no cover - compiled
        sig = types.uint8(types.uint64)

        def codegen(context, builder, signature, args):
            return builder.load(builder.inttoptr(args[0], ir.IntType(8).as_pointer()))

        return sig, codegen

    _load_u64, _load_u8 = load_u64, load_u8

    @njit(cache=True, nogil=True)
    def table_shift(size):  # pragma: no cover - compiled
        # 64 - log2(size): mix() then gives an index into a table of ``size`` slots
        bits = 0
        while (1 << bits) < size:
            bits += 1
        return np.uint64(64 - bits)

    @njit(cache=True, nogil=True, inline="always")
    def mix(a, b, shift):  # pragma: no cover - compiled
        # Fibonacci hashing: the top bits of one product (a collision only costs a probe)
        return ((a + b) * np.uint64(0x9E3779B97F4A7C15)) >> shift

    @njit(cache=True, nogil=True)
    def le_bytes(addr, m):  # pragma: no cover - compiled
        # the m <= 8 bytes at addr as a little-endian word (never reads past them)
        if m >= 8:
            return _load_u64(addr)
        x = np.uint64(0)
        for j in range(m):
            x |= np.uint64(_load_u8(addr + np.uint64(j))) << np.uint64(8 * j)
        return x

    @njit(cache=True, nogil=True)
    def hash_bytes(addr, m):  # pragma: no cover - compiled
        # hash of m >= 8 bytes: two independent lanes of 8-byte words, the last word read at
        # m - 8 (overlapping, never past the end); a match is always confirmed byte for byte
        h1 = np.uint64(0x243F6A8885A308D3) ^ np.uint64(m)
        h2 = np.uint64(0x13198A2E03707344)
        j = 0
        while j + 16 <= m:
            h1 = (h1 ^ _load_u64(addr + np.uint64(j))) * np.uint64(0xFF51AFD7ED558CCD)
            h2 = (h2 ^ _load_u64(addr + np.uint64(j + 8))) * np.uint64(0xC4CEB9FE1A85EC53)
            j += 16
        if j + 8 <= m:
            h1 = (h1 ^ _load_u64(addr + np.uint64(j))) * np.uint64(0xFF51AFD7ED558CCD)
        h2 = (h2 ^ _load_u64(addr + np.uint64(m - 8))) * np.uint64(0xC4CEB9FE1A85EC53)
        h = h1 ^ (h2 >> np.uint64(31)) ^ (h2 << np.uint64(17))
        return h ^ (h >> np.uint64(29))

    @njit(cache=True, nogil=True)
    def same_bytes(a, b, m):  # pragma: no cover - compiled
        # the m >= 8 bytes at a and b are equal (words; the last one read at m - 8)
        j = 0
        while j + 8 <= m:
            if _load_u64(a + np.uint64(j)) != _load_u64(b + np.uint64(j)):
                return False
            j += 8
        last = np.uint64(m - 8)
        return _load_u64(a + last) == _load_u64(b + last)

    @njit(cache=True, nogil=True)
    def grow(slots, keys, addrs, first, k):  # pragma: no cover - compiled
        size = slots.shape[0] * 2
        mask = np.uint64(size - 1)
        shift = _table_shift(size)
        new_slots = np.full(size, -1, np.int32)
        for q in range(k):
            j = _mix(keys[q, 0], keys[q, 1], shift)
            while new_slots[j] >= 0:
                j = (j + np.uint64(1)) & mask
            new_slots[j] = q
        new_keys = np.empty((size // 2, 3), np.uint64)
        new_keys[:k] = keys[:k]
        new_addrs = np.empty(size // 2, np.uint64)
        new_addrs[:k] = addrs[:k]
        new_first = np.empty(size // 2, np.int64)
        new_first[:k] = first[:k]
        return new_slots, new_keys, new_addrs, new_first

    _mix, _le_bytes, _hash_bytes, _same_bytes, _grow = mix, le_bytes, hash_bytes, same_bytes, grow
    _table_shift = table_shift

    @njit(cache=True, nogil=True)
    def views_run(  # pragma: no cover - compiled
        views, buffers, codes, kmax, i, slots, keys, addrs, first, k
    ):
        # factorise rows i.. until done or the hash table is half full; returns (i, k).
        # (Loops index slices from 0: the compiler then knows no index is negative.)
        mask = np.uint64(slots.shape[0] - 1)
        shift = _table_shift(slots.shape[0])
        low = np.uint64(0xFFFFFFFF)
        vv = views[2 * i :]
        cc = codes[i:]
        for r in range(cc.shape[0]):
            w0 = vv[2 * r]
            w1 = vv[2 * r + 1]
            m = np.int64(w0 & low)
            addr = np.uint64(0)
            if m > 12:
                addr = buffers[np.int64(w1 & low)] + (w1 >> np.uint64(32))
                w1 = _hash_bytes(addr + np.uint64(4), m - 4)
            j = _mix(w0, w1, shift)
            while True:
                q = slots[j]
                if q < 0:
                    break
                if keys[q, 0] == w0 and keys[q, 1] == w1:
                    if m <= 12 or _same_bytes(addrs[q], addr, m):
                        break
                j = (j + np.uint64(1)) & mask
            if q >= 0:
                cc[r] = q
                continue
            if k == kmax:  # the codes' dtype holds no more
                return i + r, k
            cc[r] = k
            slots[j] = k
            keys[k, 0] = w0
            keys[k, 1] = w1
            addrs[k] = addr
            first[k] = i + r
            k += 1
            if 2 * k >= slots.shape[0]:
                return i + r + 1, k
        return codes.shape[0], k

    @njit(cache=True, nogil=True)
    def long_key(addr, m):  # pragma: no cover - compiled
        # key of a string of 16 bytes or more, or one too close to its buffer's end for two
        # word loads: the first 8 bytes, then a hash of the rest (top byte 0xFF: never the
        # key of a short string); a match is confirmed byte for byte
        w0 = _le_bytes(addr, min(m, 8))
        if m <= 15:
            w1 = _le_bytes(addr + np.uint64(8), max(m - 8, 0)) | (np.uint64(m) << np.uint64(56))
        else:
            h = _hash_bytes(addr + np.uint64(8), m - 8)
            w1 = (h >> np.uint64(8)) | np.uint64(0xFF00000000000000)
        return w0, w1

    _long_key = long_key

    @njit(cache=True, nogil=True)
    def offsets_run(  # pragma: no cover - compiled
        offsets, base, end, codes, kmax, i, slots, keys, addrs, first, k
    ):
        mask = np.uint64(slots.shape[0] - 1)
        shift = _table_shift(slots.shape[0])
        oo = offsets[i:]
        cc = codes[i:]
        full = np.uint64(0xFFFFFFFFFFFFFFFF)
        for r in range(cc.shape[0]):
            s = np.int64(oo[r])
            m = np.int64(oo[r + 1]) - s
            addr = base + np.uint64(s)
            if m <= 15 and addr + np.uint64(16) <= end:
                # a short string is its key: its bytes (two word loads, the rest masked off)
                # and its length in the top byte
                x0 = _load_u64(addr)
                x1 = _load_u64(addr + np.uint64(8))
                b0 = np.uint64(8 * min(m, 8))
                b1 = np.uint64(8 * max(m - 8, 0))
                m0 = full if b0 >= 64 else (np.uint64(1) << b0) - np.uint64(1)
                w0 = x0 & m0
                w1 = (x1 & ((np.uint64(1) << b1) - np.uint64(1))) | (np.uint64(m) << np.uint64(56))
            else:
                w0, w1 = _long_key(addr, m)
            j = _mix(w0, w1, shift)
            while True:
                q = slots[j]
                if q < 0:
                    break
                if keys[q, 0] == w0 and keys[q, 1] == w1:
                    if m <= 15 or (keys[q, 2] == np.uint64(m) and _same_bytes(addrs[q], addr, m)):
                        break
                j = (j + np.uint64(1)) & mask
            if q >= 0:
                cc[r] = q
                continue
            if k == kmax:  # the codes' dtype holds no more
                return i + r, k
            cc[r] = k
            slots[j] = k
            keys[k, 0] = w0
            keys[k, 1] = w1
            keys[k, 2] = np.uint64(m)
            addrs[k] = addr
            first[k] = i + r
            k += 1
            if 2 * k >= slots.shape[0]:
                return i + r + 1, k
        return codes.shape[0], k

    @njit(cache=True, nogil=True)
    def words_run(  # pragma: no cover - compiled
        words, codes, kmax, i, slots, keys, addrs, first, k
    ):
        # factorise 64-bit words (object pointers), as views_run does views
        mask = np.uint64(slots.shape[0] - 1)
        shift = _table_shift(slots.shape[0])
        ww = words[i:]
        cc = codes[i:]
        zero = np.uint64(0)
        for r in range(cc.shape[0]):
            w0 = ww[r]
            j = _mix(w0, zero, shift)
            while True:
                q = slots[j]
                if q < 0 or keys[q, 0] == w0:
                    break
                j = (j + np.uint64(1)) & mask
            if q >= 0:
                cc[r] = q
                continue
            if k == kmax:
                return i + r, k
            cc[r] = k
            slots[j] = k
            keys[k, 0] = w0
            keys[k, 1] = zero
            first[k] = i + r
            k += 1
            if 2 * k >= slots.shape[0]:
                return i + r + 1, k
        return codes.shape[0], k

    _views_run, _offsets_run, _words_run = views_run, offsets_run, words_run

    @njit(cache=True, nogil=True)
    def factorize_words(words, codes):  # pragma: no cover - compiled
        """Codes of 64-bit words (numbers' bits, object pointers), returned as
        :func:`factorize_views` does."""
        slots = np.full(1024, -1, np.int32)
        keys = np.empty((512, 3), np.uint64)
        addrs = np.empty(512, np.uint64)
        first = np.empty(512, np.int64)
        kmax = np.iinfo(codes.dtype).max + 1
        i, k = _words_run(words, codes, kmax, 0, slots, keys, addrs, first, 0)
        while i < codes.shape[0]:
            if k == kmax:
                return -1, first[:0].copy()
            slots, keys, addrs, first = _grow(slots, keys, addrs, first, k)
            i, k = _words_run(words, codes, kmax, i, slots, keys, addrs, first, k)
        return k, first[:k].copy()


    @njit(cache=True, nogil=True)
    def factorize_views(views, buffers, codes):  # pragma: no cover - compiled
        """Codes of an Arrow string-view column (16-byte views, ``buffers`` = addresses of its
        data buffers); returns (k, first row of each code), or k = -1 when ``codes``' dtype
        cannot hold them all. A string of up to 12 bytes is its own view, so those rows never
        touch the data buffers. (A writer that leaves garbage after a short string only splits
        it into several codes; they share one label.)"""
        slots = np.full(1024, -1, np.int32)
        keys = np.empty((512, 3), np.uint64)
        addrs = np.empty(512, np.uint64)
        first = np.empty(512, np.int64)
        kmax = np.iinfo(codes.dtype).max + 1
        i, k = _views_run(views, buffers, codes, kmax, 0, slots, keys, addrs, first, 0)
        while i < codes.shape[0]:
            if k == kmax:
                return -1, first[:0].copy()
            slots, keys, addrs, first = _grow(slots, keys, addrs, first, k)
            i, k = _views_run(views, buffers, codes, kmax, i, slots, keys, addrs, first, k)
        return k, first[:k].copy()

    @njit(cache=True, nogil=True)
    def factorize_offsets(offsets, base, end, codes):  # pragma: no cover - compiled
        """Codes of an Arrow string / binary column (offsets into the data buffer that spans
        addresses ``base`` to ``end``), returned as :func:`factorize_views` does."""
        slots = np.full(1024, -1, np.int32)
        keys = np.empty((512, 3), np.uint64)
        addrs = np.empty(512, np.uint64)
        first = np.empty(512, np.int64)
        kmax = np.iinfo(codes.dtype).max + 1
        i, k = _offsets_run(offsets, base, end, codes, kmax, 0, slots, keys, addrs, first, 0)
        while i < codes.shape[0]:
            if k == kmax:
                return -1, first[:0].copy()
            slots, keys, addrs, first = _grow(slots, keys, addrs, first, k)
            i, k = _offsets_run(offsets, base, end, codes, kmax, i, slots, keys, addrs, first, k)
        return k, first[:k].copy()

    @njit(cache=True, nogil=True)
    def minmax_stretch(a):  # pragma: no cover - compiled
        lo = a[0]
        hi = a[0]
        for i in range(a.shape[0]):
            v = a[i]
            lo = v if v < lo else lo
            hi = v if v > hi else hi
        return lo, hi

    _minmax_stretch = minmax_stretch

    @njit(parallel=True, cache=True, nogil=True)
    def minmax(a, nchunks):  # pragma: no cover - compiled
        n = a.shape[0]
        step = (n + nchunks - 1) // nchunks
        los = np.empty(nchunks, a.dtype)
        his = np.empty(nchunks, a.dtype)
        for c in prange(nchunks):
            lo, hi = _minmax_stretch(a[min(c * step, n - 1) : min(n, c * step + step)])
            los[c] = lo
            his[c] = hi
        return los.min(), his.max()

    @njit(cache=True, nogil=True, boundscheck=False)
    def count_stretch(t, p, lo_t, urt, lo_p, urp, urp1, tab, cells, nsub):  # pragma: no cover
        # Blocks of rows: their cell indices first (a loop the compiler vectorises), then the
        # increments, spread over nsub copies of the table so that consecutive increments of
        # one cell (most pairs sit on the diagonal) do not wait for each other. (Loops run
        # over slices from 0: the compiler then knows no index is negative.)
        buf = np.empty(BLOCK, np.uint32)
        for s in range(0, t.shape[0], BLOCK):
            tb = t[s : s + BLOCK]
            pb = p[s : s + BLOCK]
            m = tb.shape[0]
            for j in range(m):
                a = min(np.uint64(tb[j]) - lo_t, urt)
                b = min(np.uint64(pb[j]) - lo_p, urp)
                buf[j] = a * urp1 + b
            if nsub == 4:
                h = m // 4
                for j in range(h):
                    tab[buf[4 * j]] += 1
                    tab[cells + buf[4 * j + 1]] += 1
                    tab[2 * cells + buf[4 * j + 2]] += 1
                    tab[3 * cells + buf[4 * j + 3]] += 1
                for j in range(4 * h, m):
                    tab[buf[j]] += 1
            else:
                for j in range(m):
                    tab[buf[j]] += 1

    @njit(cache=True, nogil=True, boundscheck=False)
    def reduce_tables(loc, rt, rp, cells, nsub):  # pragma: no cover - compiled
        # the table (the sum of the stretches' tables and their copies), its row and column
        # sums, and how many pairs fell outside the ranges (the margin row and column).
        # Serial: on a busy machine one more parallel region costs more than it saves.
        out = np.zeros((rt, rp), np.int64)
        rows = np.zeros(rt, np.int64)
        cols = np.zeros(rp, np.int64)
        outside = 0
        for c in range(loc.shape[0]):
            for q in range(nsub):
                tab = loc[c, q * cells : (q + 1) * cells]
                for i in range(rt):
                    part = tab[i * (rp + 1) : i * (rp + 1) + rp]
                    row = out[i]
                    for j in range(rp):
                        row[j] += part[j]
                    outside += tab[i * (rp + 1) + rp]
                outside += tab[rt * (rp + 1) :].sum()
        for i in range(rt):
            row = out[i]
            rows[i] = row.sum()
            for j in range(rp):
                cols[j] += row[j]
        return out, rows, cols, outside

    _count_stretch, _reduce_tables = count_stretch, reduce_tables

    @njit(parallel=True, cache=True, nogil=True, boundscheck=False)
    def count_range(t, p, lo_t, rt, lo_p, rp, nchunks):  # pragma: no cover - compiled
        """Pairs (t - lo_t, p - lo_p) counted into an rt x rp table, modulo 2**64 so every
        integer dtype is exact; returns (table, row sums, column sums, pairs outside). A
        value outside its range is counted in a margin row/column rather than trusted: a
        guessed range is checked for free.

        Each of the ``nchunks`` stretches of rows is counted into its own int32 tables (a
        stretch is shorter than 2**31 rows), zeroed by the thread that fills them and lying at
        least a cache line apart: two threads would otherwise fight over the line between."""
        n = t.shape[0]
        step = (n + nchunks - 1) // nchunks
        cells = (rt + 1) * (rp + 1)
        nsub = 4 if cells <= 4096 else 1
        loc = np.empty((nchunks, (nsub * cells + 31) // 16 * 16), np.int32)
        urt, urp, urp1 = np.uint64(rt), np.uint64(rp), np.uint64(rp + 1)
        for c in prange(nchunks):
            tab = loc[c]
            tab[:] = 0
            _count_stretch(t[c * step : c * step + step], p[c * step : c * step + step],
                           lo_t, urt, lo_p, urp, urp1, tab, cells, nsub)
        return _reduce_tables(loc, rt, rp, cells, nsub)

    @njit(cache=True, nogil=True, boundscheck=False)
    def count_range1(t, p, lo_t, rt, lo_p, rp):  # pragma: no cover - compiled
        """:func:`count_range` on the calling thread (no parallel region to wait for)."""
        cells = (rt + 1) * (rp + 1)
        nsub = 4 if cells <= 4096 else 1
        loc = np.zeros((1, nsub * cells), np.int32)
        _count_stretch(t, p, lo_t, np.uint64(rt), lo_p, np.uint64(rp), np.uint64(rp + 1),
                       loc[0], cells, nsub)
        return _reduce_tables(loc, rt, rp, cells, nsub)

    @njit(cache=True, nogil=True, boundscheck=False)
    def count_stretch_w(t, p, w, lo_t, urt, lo_p, urp, tab, seen_t, seen_p):  # pragma: no cover
        rp1 = np.int64(urp) + 1
        for i in range(t.shape[0]):
            a = np.int64(min(np.uint64(t[i]) - lo_t, urt))
            b = np.int64(min(np.uint64(p[i]) - lo_p, urp))
            tab[a * rp1 + b] += w[i]
            seen_t[a] += 1
            seen_p[b] += 1

    _count_stretch_w = count_stretch_w

    @njit(parallel=True, cache=True, nogil=True, boundscheck=False)
    def count_range_w(t, p, w, lo_t, rt, lo_p, rp, nchunks):  # pragma: no cover - compiled
        """:func:`count_range` with sample weights (a float64 table); also how often each
        row / column value occurs (a class whose samples all weigh 0 is still a class)."""
        n = t.shape[0]
        step = (n + nchunks - 1) // nchunks
        cells = (rt + 1) * (rp + 1)
        loc = np.zeros((nchunks, (cells + 15) // 8 * 8), np.float64)
        seen_t = np.zeros((nchunks, (rt + 16) // 8 * 8), np.int64)
        seen_p = np.zeros((nchunks, (rp + 16) // 8 * 8), np.int64)
        for c in prange(nchunks):
            sl = slice(c * step, c * step + step)
            _count_stretch_w(t[sl], p[sl], w[sl], lo_t, np.uint64(rt), lo_p, np.uint64(rp),
                             loc[c], seen_t[c], seen_p[c])
        out = np.zeros((rt, rp), np.float64)
        for c in range(nchunks):  # (a float table is summed in chunk order: reproducible)
            out += loc[c, : cells].reshape(rt + 1, rp + 1)[:rt, :rp]
        st = seen_t.sum(axis=0)
        sp = seen_p.sum(axis=0)
        return out, st[:rt].copy(), sp[:rp].copy(), st[rt] + sp[rp]

    @njit(cache=True, nogil=True, boundscheck=False)
    def count_range_w1(t, p, w, lo_t, rt, lo_p, rp):  # pragma: no cover - compiled
        """:func:`count_range_w` on the calling thread."""
        tab = np.zeros((rt + 1) * (rp + 1), np.float64)
        seen_t = np.zeros(rt + 1, np.int64)
        seen_p = np.zeros(rp + 1, np.int64)
        _count_stretch_w(t, p, w, lo_t, np.uint64(rt), lo_p, np.uint64(rp), tab, seen_t, seen_p)
        out = tab.reshape(rt + 1, rp + 1)[:rt, :rp].copy()
        return out, seen_t[:rt].copy(), seen_p[:rp].copy(), seen_t[rt] + seen_p[rp]

    return SimpleNamespace(
        numba=numba,
        factorize_views=factorize_views,
        factorize_offsets=factorize_offsets,
        factorize_words=factorize_words,
        minmax=minmax,
        minmax1=minmax_stretch,
        count_range=count_range,
        count_range1=count_range1,
        count_range_w=count_range_w,
        count_range_w1=count_range_w1,
    )


def _use_numba(n: int, use_numba: bool | None) -> SimpleNamespace | None:
    if use_numba is False or (use_numba is None and n < NUMBA_MIN_SIZE):
        return None
    return _numba_kernels()


def _threads(kern: SimpleNamespace) -> int:
    return max(1, int(kern.numba.get_num_threads()))


def _nchunks(kern: SimpleNamespace, n: int) -> int:
    """Stretches of rows for the parallel kernels: one per thread, none shorter than
    ``MIN_STRETCH`` rows nor longer than ``_CHUNK_LIMIT``."""
    wanted = min(_threads(kern), max(1, n // MIN_STRETCH))
    return max(wanted, -(-n // _CHUNK_LIMIT))


# ----------------------------------------------------------------------------- counting
class _Counts:
    """A table over two value ranges (rows: y_true, columns: y_pred) before folding onto the
    label book: ``seen_*`` say which rows / columns occur, ``values_*`` name them."""

    __slots__ = ("seen_p", "seen_t", "table", "values_p", "values_t")

    def __init__(
        self,
        table: np.ndarray,
        seen_t: np.ndarray,
        seen_p: np.ndarray,
        values_t: Callable[[np.ndarray], list[Any]],
        values_p: Callable[[np.ndarray], list[Any]],
    ) -> None:
        self.table = table
        self.seen_t = seen_t
        self.seen_p = seen_p
        self.values_t = values_t
        self.values_p = values_p


def _offsets_np(x: np.ndarray, lo: int) -> np.ndarray:
    """``x - lo`` as int64, exact for every integer dtype (modulo 2**64, like the kernels)."""
    if lo == 0:  # values in [0, MAX_DIRECT_RANGE): every dtype casts exactly
        return x.astype(np.int64, copy=False)
    out = x.astype(np.uint64)
    out -= np.uint64(lo % 2**64)
    return out.view(np.int64)


def _count_np(
    t: np.ndarray, p: np.ndarray, w: np.ndarray | None, lo_t: int, rt: int, lo_p: int, rp: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(table, seen_t, seen_p) by ``np.bincount``; every value lies inside its range."""
    a = _offsets_np(t, lo_t)
    b = _offsets_np(p, lo_p)
    idx = a * rp
    idx += b
    flat = np.bincount(idx, weights=w, minlength=rt * rp)
    if w is None:
        table = flat.astype(np.int64, copy=False).reshape(rt, rp)
        return table, table.sum(axis=1), table.sum(axis=0)
    return (flat.reshape(rt, rp), np.bincount(a, minlength=rt), np.bincount(b, minlength=rp))


def _count_kernel(
    kern: SimpleNamespace,
    t: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    lo_t: int,
    rt: int,
    lo_p: int,
    rp: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(table, seen_t, seen_p) by the numba kernel; None when a value lies outside its range."""
    t = np.ascontiguousarray(t)
    p = np.ascontiguousarray(p)
    nchunks = _nchunks(kern, t.shape[0])
    ut, up = np.uint64(lo_t % 2**64), np.uint64(lo_p % 2**64)
    if w is None:
        if nchunks == 1:
            table, seen_t, seen_p, outside = kern.count_range1(t, p, ut, rt, up, rp)
        else:
            table, seen_t, seen_p, outside = kern.count_range(t, p, ut, rt, up, rp, nchunks)
        return None if outside else (table, seen_t, seen_p)
    w = np.ascontiguousarray(w)
    if nchunks == 1:
        table, seen_t, seen_p, outside = kern.count_range_w1(t, p, w, ut, rt, up, rp)
    else:
        table, seen_t, seen_p, outside = kern.count_range_w(t, p, w, ut, rt, up, rp, nchunks)
    if outside:
        return None
    return table, seen_t, seen_p


def _sample_range(x: np.ndarray) -> tuple[int, int]:
    """A guess of the label range of ``x`` from a strided sample: values in [0, 1024) are
    assumed to start at 0, anything else at the smallest value seen."""
    s = x[:: max(1, x.shape[0] // SAMPLE_SIZE)]
    lo, hi = int(s.min()), int(s.max())
    if 0 <= lo and hi < MAX_DIRECT_RANGE:
        lo = 0
    return lo, hi - lo + 1


def _exact_range(x: np.ndarray, kern: SimpleNamespace | None) -> tuple[int, int]:
    if kern is not None:
        nchunks = _nchunks(kern, x.shape[0])
        x = np.ascontiguousarray(x)
        lo, hi = kern.minmax(x, nchunks) if nchunks > 1 else kern.minmax1(x)
    else:
        lo, hi = x.min(), x.max()
    return int(lo), int(hi) - int(lo) + 1


def _int_counts(
    t: np.ndarray, p: np.ndarray, w: np.ndarray | None, kern: SimpleNamespace | None
) -> _Counts | None:
    """Integer (or bool) labels counted over their value ranges; None when a range is wider
    than ``MAX_DIRECT_RANGE``. Values are the array's own, so uint64 near 2**64 stays exact."""
    kind = t.dtype.kind
    if kind == "b":
        t, p = t.view(np.uint8), p.view(np.uint8)
    counted = None
    if kern is not None:
        lo_t, rt = _sample_range(t)
        lo_p, rp = _sample_range(p)
        if rt > MAX_DIRECT_RANGE or rp > MAX_DIRECT_RANGE:
            return None  # the sample alone is already too wide
        counted = _count_kernel(kern, t, p, w, lo_t, rt, lo_p, rp)
    if counted is None:
        lo_t, rt = _exact_range(t, kern)
        lo_p, rp = _exact_range(p, kern)
        if rt > MAX_DIRECT_RANGE or rp > MAX_DIRECT_RANGE:
            return None
        if kern is not None:
            counted = _count_kernel(kern, t, p, w, lo_t, rt, lo_p, rp)
        else:
            counted = _count_np(t, p, w, lo_t, rt, lo_p, rp)
        assert counted is not None, "exact ranges cannot miss a value"
    table, seen_t, seen_p = counted

    def values(lo: int) -> Callable[[np.ndarray], list[Any]]:
        if kind == "b":
            return lambda idx: [bool(lo + i) for i in idx.tolist()]
        return lambda idx: [lo + i for i in idx.tolist()]

    return _Counts(table, seen_t, seen_p, values(lo_t), values(lo_p))


# ----------------------------------------------------------------------------- coded labels
_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="confmat-factorize")
    return _POOL


def _string_codes(chunk: Any, name: str, kern: SimpleNamespace | None) -> CodedLabels:
    """One Arrow string / binary chunk as codes: factorised from its buffers by the kernel,
    or by ``pyarrow.compute.dictionary_encode`` without numba."""
    pa = sys.modules["pyarrow"]
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


def _coded_pair(
    t: Any, p: Any, kern: SimpleNamespace | None
) -> tuple[CodedLabels, CodedLabels]:
    """Both columns as codes; two Arrow string columns are factorised at the same time."""
    if (
        kern is not None
        and isinstance(t, StringChunks)
        and isinstance(p, StringChunks)
        and _threads(kern) > 1
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


def _compact(col: CodedLabels) -> CodedLabels:
    """Drop the codes that do not occur (a large dictionary with few used entries)."""
    used = np.flatnonzero(np.bincount(col.codes.astype(np.int64, copy=False), minlength=col.size))
    lut = np.full(col.size, -1, dtype=np.int64)
    lut[used] = np.arange(used.size)
    codes = lut[col.codes]
    return CodedLabels(col.name, codes, used.size, lambda idx: col.values(used[idx]))


def _onto_book(col: CodedLabels, book: list[Any]) -> CodedLabels:
    """Codes into ``book`` (code ``len(book)``: any label outside it), for columns with too
    many labels to count pairs of their own codes when only a few labels are wanted."""
    values = col.values(np.arange(col.size))
    check_label_kinds(values[:1] + book[:1], "labels and the data")
    k = len(book)
    index = {v: i for i, v in enumerate(book)}
    lut = np.fromiter((index.get(v, k) for v in values), np.int64, len(values))
    outside = [v for v, i in zip(values, lut.tolist(), strict=True) if i == k]
    labels = [*book, outside[0] if outside else None]  # one label stands for the outside

    def lookup(idx: np.ndarray) -> list[Any]:
        return [labels[i] for i in idx.tolist()]

    return CodedLabels(col.name, lut[col.codes], k + 1, lookup)


def _coded_counts(
    ct: CodedLabels,
    cp: CodedLabels,
    w: np.ndarray | None,
    kern: SimpleNamespace | None,
    book: list[Any] | None,
) -> _Counts:
    if ct.size * cp.size > MAX_TABLE_CELLS:
        ct, cp = _compact(ct), _compact(cp)
        if book is not None and ct.size * cp.size > MAX_TABLE_CELLS:
            ct, cp = _onto_book(ct, book), _onto_book(cp, book)
    counted = None
    if kern is not None:
        counted = _count_kernel(kern, ct.codes, cp.codes, w, 0, ct.size, 0, cp.size)
        if counted is None:
            raise ValueError("label codes outside their dictionary (a malformed Arrow array)")
    else:
        counted = _count_np(ct.codes, cp.codes, w, 0, ct.size, 0, cp.size)
    table, seen_t, seen_p = counted
    return _Counts(table, seen_t, seen_p, ct.values, cp.values)


# ----------------------------------------------------------------------------- the book
def _sorted_labels(vt: list[Any], vp: list[Any]) -> list[Any]:
    check_label_kinds(vt + vp, "y_true and y_pred together")
    try:
        return sorted(set(vt) | set(vp))
    except TypeError as exc:
        raise TypeError(
            f"y_true and y_pred mix label types that cannot be ordered together: {exc}"
        ) from exc


def _preview(values: list[Any], limit: int = 5) -> str:
    try:
        values = sorted(values)
    except TypeError:
        pass
    shown = ", ".join(repr(v) for v in values[:limit])
    more = f", ... ({len(values)} classes)" if len(values) > limit else ""
    return f"[{shown}{more}]"


def _fold(
    counts: _Counts, book: list[Any] | None, strict: bool = True
) -> tuple[np.ndarray, list[Any], bool]:
    """The table over the label book: rows/columns of the labels that occur (or of ``book``,
    everything else pooled in a last "other" row/column)."""
    table = counts.table
    rows = np.flatnonzero(counts.seen_t)
    cols = np.flatnonzero(counts.seen_p)
    vt = counts.values_t(rows)
    vp = counts.values_p(cols)
    given = book is not None
    if book is None:
        book = _sorted_labels(vt, vp)
    else:
        seen = vt + vp
        if seen:
            check_label_kinds(seen[:1] + book[:1], "labels and the data")
    k = len(book)
    index = {v: i for i, v in enumerate(book)}
    lt = np.fromiter((index.get(v, k) for v in vt), np.int64, len(vt))
    lp = np.fromiter((index.get(v, k) for v in vp), np.int64, len(vp))
    if given and strict and not (lt < k).any():
        raise ValueError(
            f"labels names no class that occurs in y_true; at least one label must be in "
            f"y_true, which holds {_preview(vt)}"
        )
    r, c = table.shape
    if (
        rows.size == r == k and cols.size == c == k
        and (lt == np.arange(k)).all() and (lp == np.arange(k)).all()
    ):
        return table, book, False
    sub = table[np.ix_(rows, cols)] if rows.size < r or cols.size < c else table
    out = np.zeros((k + 1, k + 1), dtype=table.dtype)
    if np.unique(lt).size == lt.size and np.unique(lp).size == lp.size:
        out[np.ix_(lt, lp)] = sub
    else:  # several values on one label (1 and 1.0, the pooled "other", chunks)
        by_row = np.zeros((k + 1, sub.shape[1]), dtype=table.dtype)
        np.add.at(by_row, lt, sub)
        np.add.at(out.T, lp, by_row.T)
    return _trim_other(out, book, True)


def confusion_counts(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    use_numba: bool | None = None,
    strict_labels: bool = True,
) -> tuple[np.ndarray, list[Any], bool]:
    """Count a confusion table from two label vectors.

    Returns ``(table, labels, has_other)``. ``table`` is ``K x K`` (rows = true, columns =
    predicted) or, when ``labels`` selects a subset and some sample falls outside it,
    ``(K+1) x (K+1)`` whose last row/column pools the unselected labels.

    With ``strict_labels`` (the default), ``labels`` must name at least one class that occurs
    in ``y_true``, as scikit-learn's ``confusion_matrix`` demands; functions that mirror
    ``precision_recall_fscore_support`` (which accepts such a list) pass False.
    """
    t, p = check_label_pair(y_true, y_pred)
    n = len(t)
    w = check_sample_weight(sample_weight, n)
    book = None if labels is None else normalize_labels(labels)
    kern = _use_numba(n, use_numba)
    counts = None
    if (
        isinstance(t, np.ndarray) and isinstance(p, np.ndarray)
        and ((t.dtype.kind in "iu" and p.dtype.kind in "iu") or t.dtype.kind == p.dtype.kind == "b")
        and (book is None or all(type(v) is (bool if t.dtype.kind == "b" else int) for v in book))
    ):
        counts = _int_counts(t, p, w, kern)
    if counts is None:
        ct, cp = _coded_pair(t, p, kern)
        counts = _coded_counts(ct, cp, w, kern, book)
    return _fold(counts, book, strict_labels)


def _trim_other(
    table: np.ndarray, labels: list[Any], maybe_other: bool
) -> tuple[np.ndarray, list[Any], bool]:
    k = len(labels)
    if not maybe_other or table.shape[0] == k:
        return table, labels, False
    if not table[k, :].any() and not table[:, k].any():
        return table[:k, :k].copy(), labels, False
    return table, labels, True
