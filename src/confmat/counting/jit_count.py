"""Compiled counting of integer pairs over their value ranges (numba, on the cores available).

Built by :func:`count_kernels` on first use (numba through :mod:`confmat.deps`); the
``np.bincount`` path of :mod:`confmat.counting.kernels` gives the same counts without numba.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from ..deps import njit, numba_kernels

__all__ = ["BLOCK", "count_kernels"]

#: Rows whose table cells the counting kernel computes before it increments them.
BLOCK = 256

# helpers set by count_kernels(); module globals so that the kernels calling them are cached
# on disk (closure variables would defeat the cache).
_count_stretch: Any = None
_reduce_tables: Any = None
_count_stretch_w: Any = None
_minmax_stretch: Any = None


@numba_kernels
def count_kernels() -> SimpleNamespace:
    """Compile (or load from numba's cache) the range-counting kernels.

    Returns
    -------
    SimpleNamespace or None
        ``minmax(a, nchunks)`` / ``minmax1(a)``, ``sample_minmax(a, nblocks, block)`` (the
        extremes of a sample: a guess), ``count_range(t, p, lo_t, rt, lo_p, rp, nchunks)`` /
        ``count_range1`` and the weighted ``count_range_w`` / ``count_range_w1``;
        None when numba is disabled or not installed (see :mod:`confmat.deps`).

    Examples
    --------
    >>> import numpy as np
    >>> kern = count_kernels()
    >>> t = np.array([0, 1, 1, 2]); p = np.array([0, 1, 0, 2])
    >>> if kern is not None:
    ...     table, rows, cols, outside = kern.count_range1(t, p, np.uint64(0), 3, np.uint64(0), 3)
    ...     assert table.tolist() == [[1, 0, 0], [1, 1, 0], [0, 0, 1]] and outside == 0
    """
    from numba import prange

    global _count_stretch, _reduce_tables, _count_stretch_w, _minmax_stretch

    @njit(nogil=True)
    def minmax_stretch(a):  # pragma: no cover - compiled
        lo = a[0]
        hi = a[0]
        for i in range(a.shape[0]):
            v = a[i]
            lo = v if v < lo else lo
            hi = v if v > hi else hi
        return lo, hi

    _minmax_stretch = minmax_stretch

    @njit(nogil=True, boundscheck=False)
    def sample_minmax(a, nblocks, block):  # pragma: no cover - compiled
        # (min, max) of the first and the last value and of ``nblocks`` runs of ``block``
        # consecutive values spread evenly from the start to the end: a few pages per array
        # however long it is, each read front to back (a sorted column's extremes are its
        # first and last values)
        n = a.shape[0]
        lo = a[n - 1]
        hi = a[n - 1]
        if n <= nblocks * block:  # (nblocks >= 2)
            return _minmax_stretch(a)
        step = (n - block) // (nblocks - 1)
        for k in range(nblocks):
            run = a[k * step : k * step + block]
            for i in range(run.shape[0]):
                v = run[i]
                lo = v if v < lo else lo
                hi = v if v > hi else hi
        return lo, hi

    @njit(parallel=True, nogil=True)
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

    @njit(nogil=True, boundscheck=False)
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

    @njit(nogil=True, boundscheck=False)
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

    @njit(parallel=True, nogil=True, boundscheck=False)
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

    @njit(nogil=True, boundscheck=False)
    def count_range1(t, p, lo_t, rt, lo_p, rp):  # pragma: no cover - compiled
        """:func:`count_range` on the calling thread (no parallel region to wait for)."""
        cells = (rt + 1) * (rp + 1)
        nsub = 4 if cells <= 4096 else 1
        loc = np.zeros((1, nsub * cells), np.int32)
        _count_stretch(t, p, lo_t, np.uint64(rt), lo_p, np.uint64(rp), np.uint64(rp + 1),
                       loc[0], cells, nsub)
        return _reduce_tables(loc, rt, rp, cells, nsub)

    @njit(nogil=True, boundscheck=False)
    def count_stretch_w(t, p, w, lo_t, urt, lo_p, urp, tab, seen_t, seen_p):  # pragma: no cover
        rp1 = np.int64(urp) + 1
        for i in range(t.shape[0]):
            a = np.int64(min(np.uint64(t[i]) - lo_t, urt))
            b = np.int64(min(np.uint64(p[i]) - lo_p, urp))
            tab[a * rp1 + b] += w[i]
            seen_t[a] += 1
            seen_p[b] += 1

    _count_stretch_w = count_stretch_w

    @njit(parallel=True, nogil=True, boundscheck=False)
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

    @njit(nogil=True, boundscheck=False)
    def count_range_w1(t, p, w, lo_t, rt, lo_p, rp):  # pragma: no cover - compiled
        """:func:`count_range_w` on the calling thread."""
        tab = np.zeros((rt + 1) * (rp + 1), np.float64)
        seen_t = np.zeros(rt + 1, np.int64)
        seen_p = np.zeros(rp + 1, np.int64)
        _count_stretch_w(t, p, w, lo_t, np.uint64(rt), lo_p, np.uint64(rp), tab, seen_t, seen_p)
        out = tab.reshape(rt + 1, rp + 1)[:rt, :rp].copy()
        return out, seen_t[:rt].copy(), seen_p[:rp].copy(), seen_t[rt] + seen_p[rp]

    return SimpleNamespace(
        minmax=minmax,
        minmax1=minmax_stretch,
        sample_minmax=sample_minmax,
        count_range=count_range,
        count_range1=count_range1,
        count_range_w=count_range_w,
        count_range_w1=count_range_w1,
    )
