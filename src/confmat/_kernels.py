"""Counting kernels: label vectors -> K x K table of counts.

Integer labels with a small range are counted directly over ``[min, max]`` (no sort, no
factorisation), in one parallel numba pass when numba is installed and the input is large, and
with ``np.bincount`` otherwise. Both paths give identical counts; tests check that. Any other
label kind goes through :func:`confmat.encode.encode_pair` first.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

import numpy as np

from .encode import _py, check_pair, check_sample_weight, encode_pair, normalize_labels

#: Inputs shorter than this use numpy: a JIT call is not worth its start-up below it.
NUMBA_MIN_SIZE = 1 << 20
#: Largest integer label range counted directly; wider ranges are factorised first.
MAX_DIRECT_RANGE = 1024
#: Labels in [0, SMALL_RANGE) are counted in a single pass (no min/max pass first).
SMALL_RANGE = 64


@lru_cache(maxsize=1)
def _numba_kernels() -> Any:
    """Compile (or load from cache) the numba kernels; None when numba is unavailable."""
    if os.environ.get("CONFMAT_DISABLE_NUMBA"):
        return None
    try:
        import numba
    except ImportError:
        return None
    from numba import njit, prange

    @njit(parallel=True, cache=True, nogil=True)
    def minmax2(t, p, nchunks):  # pragma: no cover - compiled
        n = t.shape[0]
        step = (n + nchunks - 1) // nchunks
        los = np.empty(nchunks, np.int64)
        his = np.empty(nchunks, np.int64)
        for c in prange(nchunks):
            s = c * step
            e = min(n, s + step)
            lo = np.int64(t[s]) if s < e else np.int64(t[0])
            hi = lo
            for i in range(s, e):
                a = np.int64(t[i])
                b = np.int64(p[i])
                if a < lo:
                    lo = a
                if a > hi:
                    hi = a
                if b < lo:
                    lo = b
                if b > hi:
                    hi = b
            los[c] = lo
            his[c] = hi
        return los.min(), his.max()

    @njit(parallel=True, cache=True, nogil=True)
    def count(t, p, lo, r, nchunks):  # pragma: no cover - compiled
        n = t.shape[0]
        step = (n + nchunks - 1) // nchunks
        out = np.zeros((nchunks, r * r), np.int64)
        for c in prange(nchunks):
            s = c * step
            e = min(n, s + step)
            loc = out[c]
            for i in range(s, e):
                loc[(np.int64(t[i]) - lo) * r + (np.int64(p[i]) - lo)] += 1
        return out.sum(axis=0)

    @njit(parallel=True, cache=True, nogil=True)
    def count_weighted(t, p, w, lo, r, nchunks):  # pragma: no cover - compiled
        n = t.shape[0]
        step = (n + nchunks - 1) // nchunks
        out = np.zeros((nchunks, r * r), np.float64)
        seen = np.zeros((nchunks, r), np.int64)
        for c in prange(nchunks):
            s = c * step
            e = min(n, s + step)
            loc = out[c]
            sn = seen[c]
            for i in range(s, e):
                a = np.int64(t[i]) - lo
                b = np.int64(p[i]) - lo
                loc[a * r + b] += w[i]
                sn[a] += 1
                sn[b] += 1
        return out.sum(axis=0), seen.sum(axis=0)

    @njit(parallel=True, cache=True, nogil=True, boundscheck=False)
    def count_small(t, p, r, nchunks):  # pragma: no cover - compiled
        # One pass for the common case of labels in [0, r): four interleaved sub-tables break
        # the store-to-load dependency between consecutive increments of the same cell.
        # Any label outside [0, r) (negative ones wrap to huge unsigned values) aborts the
        # chunk and reports it, so the caller falls back to the two-pass range kernel.
        n = t.shape[0]
        step = (n + nchunks - 1) // nchunks
        out = np.zeros((nchunks, 4, r * r), np.int64)
        bad = np.zeros(nchunks, np.bool_)
        ur = np.uint64(r)
        for c in prange(nchunks):
            s = c * step
            e = min(n, s + step)
            loc = out[c]
            m = s + ((e - s) // 4) * 4
            ok = True
            for i in range(s, m, 4):
                a0 = np.uint64(t[i])
                b0 = np.uint64(p[i])
                a1 = np.uint64(t[i + 1])
                b1 = np.uint64(p[i + 1])
                a2 = np.uint64(t[i + 2])
                b2 = np.uint64(p[i + 2])
                a3 = np.uint64(t[i + 3])
                b3 = np.uint64(p[i + 3])
                if max(max(max(a0, b0), max(a1, b1)), max(max(a2, b2), max(a3, b3))) >= ur:
                    ok = False
                    break
                loc[0, a0 * ur + b0] += 1
                loc[1, a1 * ur + b1] += 1
                loc[2, a2 * ur + b2] += 1
                loc[3, a3 * ur + b3] += 1
            if ok:
                for i in range(m, e):
                    a = np.uint64(t[i])
                    b = np.uint64(p[i])
                    if a >= ur or b >= ur:
                        ok = False
                        break
                    loc[0, a * ur + b] += 1
            bad[c] = not ok
        return out.sum(axis=0).sum(axis=0), bad.any()

    return numba, minmax2, count, count_weighted, count_small


def _nchunks(numba: Any) -> int:
    return max(1, int(numba.get_num_threads()))


def _use_numba(n: int, use_numba: bool | None) -> Any:
    if use_numba is False or (use_numba is None and n < NUMBA_MIN_SIZE):
        return None
    return _numba_kernels()


def count_codes(
    t: np.ndarray,
    p: np.ndarray,
    r: int,
    weights: np.ndarray | None = None,
    *,
    lo: int = 0,
    use_numba: bool | None = None,
) -> np.ndarray:
    """Count pairs of integer codes in ``[lo, lo + r)`` into an ``r x r`` table."""
    kern = _use_numba(t.shape[0], use_numba)
    if kern is not None:
        numba, _, count, count_weighted, _ = kern
        t = np.ascontiguousarray(t)
        p = np.ascontiguousarray(p)
        if weights is None:
            flat = count(t, p, np.int64(lo), np.int64(r), _nchunks(numba))
        else:
            flat, _ = count_weighted(
                t, p, np.ascontiguousarray(weights), np.int64(lo), np.int64(r), _nchunks(numba)
            )
        return flat.reshape(r, r)
    idx = t.astype(np.int64) if lo == 0 else t.astype(np.int64) - lo
    idx *= r
    idx += p.astype(np.int64, copy=False) if lo == 0 else p.astype(np.int64) - lo
    flat = np.bincount(idx, weights=weights, minlength=r * r)
    if weights is None:
        flat = flat.astype(np.int64, copy=False)
    return flat.reshape(r, r)


def _int_range(t: np.ndarray, p: np.ndarray, use_numba: bool | None) -> tuple[int, int]:
    kern = _use_numba(t.shape[0], use_numba)
    if kern is not None:
        numba, minmax2, _, _, _ = kern
        lo, hi = minmax2(np.ascontiguousarray(t), np.ascontiguousarray(p), _nchunks(numba))
        return int(lo), int(hi)
    return int(min(t.min(), p.min())), int(max(t.max(), p.max()))


def _count_int_direct(
    t: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    labels: list[Any] | None,
    use_numba: bool | None,
) -> tuple[np.ndarray, list[Any]] | None:
    """Direct count over the integer range; None when the range is too wide."""
    kern = _use_numba(t.shape[0], use_numba)
    if kern is not None and w is None:
        numba, _, _, _, count_small = kern
        flat, bad = count_small(
            np.ascontiguousarray(t), np.ascontiguousarray(p), SMALL_RANGE, _nchunks(numba)
        )
        if not bad:
            table = flat.reshape(SMALL_RANGE, SMALL_RANGE)
            present = (table.sum(axis=0) + table.sum(axis=1)) > 0
            return _select(table, present, 0, labels)
    lo, hi = _int_range(t, p, use_numba)
    r = hi - lo + 1
    if r > MAX_DIRECT_RANGE:
        return None
    kern = _use_numba(t.shape[0], use_numba)
    if w is not None and kern is not None:
        numba, _, _, count_weighted, _ = kern
        flat, seen = count_weighted(
            np.ascontiguousarray(t),
            np.ascontiguousarray(p),
            w,
            np.int64(lo),
            np.int64(r),
            _nchunks(numba),
        )
        table = flat.reshape(r, r)
        present = seen > 0
    else:
        table = count_codes(t, p, r, w, lo=lo, use_numba=use_numba)
        if w is None:
            present = (table.sum(axis=0) + table.sum(axis=1)) > 0
        else:
            # widen first: t - lo in a small dtype wraps around (int8: 44 - (-87) = -125)
            t64, p64 = t.astype(np.int64, copy=False), p.astype(np.int64, copy=False)
            present = (np.bincount(t64 - lo, minlength=r) + np.bincount(p64 - lo, minlength=r)) > 0
    return _select(table, present, lo, labels)


def _select(
    table: np.ndarray, present: np.ndarray, lo: int, labels: list[Any] | None
) -> tuple[np.ndarray, list[Any]]:
    """Rows/columns of a table indexed by ``lo + i``: the present labels, or the given ones
    with everything else pooled as "other"."""
    r = table.shape[0]
    values = np.arange(lo, lo + r)
    if labels is None:
        keep = np.flatnonzero(present)
        book = [int(v) for v in values[keep]]
        return table[np.ix_(keep, keep)], book
    # Fixed labels: selected rows/columns in the given order, everything else pooled as "other".
    pos = {int(v): i for i, v in enumerate(values)}
    sel = [pos.get(v) if isinstance(v, int | np.integer) else None for v in labels]
    k = len(labels)
    full = np.zeros((k + 1, k + 1), dtype=table.dtype)
    cols = [s for s in sel if s is not None]
    where = [i for i, s in enumerate(sel) if s is not None]
    mask = np.ones(r, dtype=bool)
    mask[cols] = False
    full[np.ix_(where, where)] = table[np.ix_(cols, cols)]
    full[where, k] = table[np.ix_(cols, np.flatnonzero(mask))].sum(axis=1)
    full[k, where] = table[np.ix_(np.flatnonzero(mask), cols)].sum(axis=0)
    full[k, k] = table[np.ix_(mask, mask)].sum()
    return full, list(labels)


def confusion_counts(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    use_numba: bool | None = None,
) -> tuple[np.ndarray, list[Any], bool]:
    """Count a confusion table from two label vectors.

    Returns ``(table, labels, has_other)``. ``table`` is ``K x K`` (rows = true, columns =
    predicted) or, when ``labels`` selects a subset and some sample falls outside it,
    ``(K+1) x (K+1)`` whose last row/column pools the unselected labels.
    """
    t, p = check_pair(y_true, y_pred)
    w = check_sample_weight(sample_weight, t.shape[0])
    book = None if labels is None else normalize_labels(labels)
    if t.dtype.kind in "iu" and p.dtype.kind in "iu" and (
        book is None or all(isinstance(v, int) for v in book)
    ):
        direct = _count_int_direct(t, p, w, book, use_numba)
        if direct is not None:
            table, out_labels = direct
            return _trim_other(table, out_labels, book is not None)
    tc, pc, out_labels, has_other = encode_pair(t, p, book)
    k = len(out_labels) + (1 if has_other else 0)
    table = count_codes(tc, pc, k, w, use_numba=use_numba)
    out_labels = [_py(v) for v in out_labels]
    if book is not None and not has_other:
        return table, out_labels, False
    return _trim_other(table, out_labels, has_other)


def _trim_other(table: np.ndarray, labels: list[Any], maybe_other: bool) -> tuple[np.ndarray, list[Any], bool]:
    k = len(labels)
    if not maybe_other or table.shape[0] == k:
        return table, labels, False
    if not table[k, :].any() and not table[:, k].any():
        return table[:k, :k].copy(), labels, False
    return table, labels, True
