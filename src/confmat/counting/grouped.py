"""Counting by group: a G x K x K stack of confusion tables in one pass over the samples.

Each sample is a pair ``(group, true * R + pred)`` of small integers, counted by the range
kernel of :mod:`confmat.counting.jit_count` (``np.bincount`` without numba) into a
``G x R^2`` table that is then folded onto the label book exactly as
:func:`confmat.counting.kernels.confusion_counts` folds its table: the classes are the sorted
labels seen (or ``labels``, with a last row and column pooling everything else). Labels are
coded as the plain count codes them: small integer ranges by offset (no sort), everything else
by :func:`confmat.counting.codes.coded_pair`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..deps import njit, numba_kernels
from ..inputs.columns import LabelColumn
from ..inputs.encode import check_sample_weight, normalize_labels
from ..inputs.kinds import check_seen_kinds, unify_numbers
from ..words import arg
from .codes import coded_pair, compact, onto_book, threads
from .kernels import MAX_DIRECT_RANGE, MIN_STRETCH, NUMBA_MIN_SIZE, load_kernels

__all__ = ["MAX_STACK_CELLS", "GroupedCounts", "group_kernels", "grouped_counts"]

#: Largest G x R x R table of code triples counted (R: label codes per column).
MAX_STACK_CELLS = 1 << 27
#: Longest stretch of rows one thread counts into its int32 table.
_CHUNK_LIMIT = 1 << 30
#: Values per label column looked at to guess its range.
_SAMPLE_SIZE = 4096
#: Largest stack of cells counted into one table per thread (above it, one table in all).
_MAX_THREAD_CELLS = 1 << 22
#: Rows whose cells the grouped kernel computes before it increments them: long streaming
#: stretches of the three columns alternate with the scattered increments (64 KiB of indices).
_GROUP_BLOCK = 1 << 14

# helpers set by group_kernels(); module globals so that the kernels calling them are cached
# on disk (closure variables would defeat the cache).
_count_stretch: Any = None
_count_stretch_w: Any = None


@dataclass(frozen=True)
class GroupedCounts:
    """The confusion tables of every group.

    Parameters
    ----------
    stack : ndarray of shape (G, M, M)
        ``int64`` counts (``float64`` sums of weights); rows = true class. ``M`` is ``K``, or
        ``K + 1`` when ``labels`` left samples outside (the last row and column pool them).
    labels : list
        The K classes.
    has_other : bool
        Whether ``M == K + 1``.
    sizes : ndarray of int64, shape (G,)
        Samples of each group (weights aside).
    """

    stack: np.ndarray
    labels: list[Any]
    has_other: bool
    sizes: np.ndarray


def _exact_range(x: np.ndarray, kern: Any) -> tuple[int, int]:
    """(smallest value, width of the range): one pass of the kernel's serial ``minmax1`` (on a
    busy machine it beats the parallel one), or numpy's two reductions."""
    if kern is not None:
        lo, hi = kern.minmax1(np.ascontiguousarray(x))
    else:
        lo, hi = x.min(), x.max()
    return int(lo), int(hi) - int(lo) + 1


def _guessed_range(x: np.ndarray) -> tuple[int, int]:
    """A guess of the value range of ``x`` from a strided sample (values in [0, 1024) are
    assumed to start at 0); the kernel checks it while counting."""
    s = x[:: max(1, x.shape[0] // _SAMPLE_SIZE)]
    lo, hi = int(s.min()), int(s.max())
    if 0 <= lo and hi < MAX_DIRECT_RANGE:
        lo = 0
    return lo, hi - lo + 1


def _nchunks(kern: Any, n: int, cells: int) -> int:
    """Stretches of rows, one per thread, each counted into its own table; one stretch (on
    the calling thread's table) when the tables would be large."""
    wanted = min(threads(kern), max(1, n // MIN_STRETCH))
    if cells > _MAX_THREAD_CELLS:
        wanted = 1
    return max(wanted, -(-n // _CHUNK_LIMIT))


@dataclass(frozen=True)
class _Triples:
    """Groups' tables over two code ranges before folding onto the label book."""

    table: np.ndarray  # (G, rt, rp)
    seen: np.ndarray  # (rt, rp) bool: pairs that occur in some group
    sizes: np.ndarray  # (G,) samples per group


def _count_kernel(
    g: np.ndarray, n_groups: int, t: np.ndarray, lo_t: int, rt: int, p: np.ndarray, lo_p: int,
    rp: int, w: np.ndarray | None, kern: Any,
) -> _Triples | None:
    """The triples counted by the compiled kernel; None when a label lies outside its range
    (a guessed range was wrong)."""
    g, t, p = np.ascontiguousarray(g), np.ascontiguousarray(t), np.ascontiguousarray(p)
    nchunks = _nchunks(kern, t.shape[0], n_groups * rt * rp)
    ut, up = np.uint64(lo_t % 2**64), np.uint64(lo_p % 2**64)
    if w is None:
        flat, outside, bad = kern.count_groups(g, t, p, ut, rt, up, rp, n_groups, nchunks)
        pairs = flat.reshape(rt, rp, n_groups)
        seen, sizes = pairs.sum(axis=2), pairs.sum(axis=(0, 1))
    else:
        flat, seen, sizes, outside, bad = kern.count_groups_w(
            g, t, p, np.ascontiguousarray(w), ut, rt, up, rp, n_groups, nchunks)
        pairs, seen = flat.reshape(rt, rp, n_groups), seen.reshape(rt, rp)
    table = pairs.transpose(2, 0, 1)  # the kernels count pair-major: (rt, rp, G)
    if bad:
        raise ValueError(f"group codes outside [0, {n_groups}) (a malformed group coding)")
    if outside:
        return None
    return _Triples(table, seen > 0, sizes)


def _count_np(
    g: np.ndarray, n_groups: int, t: np.ndarray, lo_t: int, rt: int, p: np.ndarray, lo_p: int,
    rp: int, w: np.ndarray | None,
) -> _Triples:
    """The triples counted by ``np.bincount`` (every value inside its range)."""
    dtype = np.int16 if rt * rp <= np.iinfo(np.int16).max else np.int32
    b = _offsets(t, lo_t, np.empty(t.shape[0], dtype=dtype))
    b *= dtype(rp)
    b += _offsets(p, lo_p, np.empty(p.shape[0], dtype=dtype))
    cells = rt * rp
    idx = g.astype(np.int64) * cells
    idx += b
    flat = np.bincount(idx, weights=w, minlength=n_groups * cells)
    if w is None:
        table = flat.astype(np.int64, copy=False).reshape(n_groups, rt, rp)
        return _Triples(table, table.sum(axis=0) > 0, table.sum(axis=(1, 2)))
    seen = np.bincount(b, minlength=cells).reshape(rt, rp) > 0
    return _Triples(flat.reshape(n_groups, rt, rp), seen,
                    np.bincount(g, minlength=n_groups).astype(np.int64))


def _offsets(x: np.ndarray, lo: int, out: np.ndarray) -> np.ndarray:
    """``x - lo`` written into ``out`` (int16 or int32): the arithmetic runs modulo
    ``2**bits`` on the unsigned view, exact because the difference is small and non-negative,
    for every integer dtype (uint64 near ``2**64`` and negative int64 alike)."""
    u = out.view(np.dtype(f"u{out.dtype.itemsize}"))
    np.copyto(u, x, casting="unsafe")  # the low bits of every value
    if lo:
        u -= u.dtype.type(lo % (1 << (8 * u.dtype.itemsize)))
    return out


def _check_cells(n_groups: int, rt: int, rp: int) -> None:
    if n_groups * rt * rp > MAX_STACK_CELLS:
        raise ValueError(
            f"{n_groups} groups x {rt} x {rp} label pairs is too many tables to count "
            f"(more than {MAX_STACK_CELLS} cells); use fewer groups or pass labels"
        )


def _int_triples(
    g: np.ndarray, n_groups: int, t: np.ndarray, p: np.ndarray, w: np.ndarray | None, kern: Any
) -> tuple[Any, ...] | None:
    """Integer labels counted over their value ranges: (triples, values_t, values_p), or None
    when a range is wider than ``MAX_DIRECT_RANGE``. With the kernel the ranges are first
    guessed from a sample (a wrong guess costs one exact pass and a recount)."""
    kind = t.dtype.kind
    if kind == "b":
        t, p = t.view(np.uint8), p.view(np.uint8)
    counted = None
    if kern is not None:
        lo_t, rt = _guessed_range(t)
        lo_p, rp = _guessed_range(p)
        if max(rt, rp) <= MAX_DIRECT_RANGE and n_groups * rt * rp <= MAX_STACK_CELLS:
            counted = _count_kernel(g, n_groups, t, lo_t, rt, p, lo_p, rp, w, kern)
    if counted is None:
        lo_t, rt = _exact_range(t, kern)
        lo_p, rp = _exact_range(p, kern)
        if rt > MAX_DIRECT_RANGE or rp > MAX_DIRECT_RANGE:
            return None
        _check_cells(n_groups, rt, rp)
        if kern is not None:
            counted = _count_kernel(g, n_groups, t, lo_t, rt, p, lo_p, rp, w, kern)
            assert counted is not None, "exact ranges cannot miss a value"
        else:
            counted = _count_np(g, n_groups, t, lo_t, rt, p, lo_p, rp, w)

    def values(lo: int) -> Any:
        if kind == "b":
            return lambda idx: [bool(lo + i) for i in idx.tolist()]
        return lambda idx: [lo + i for i in idx.tolist()]

    return counted, values(lo_t), values(lo_p)


def _coded_triples(
    g: np.ndarray, n_groups: int, t: LabelColumn, p: LabelColumn, w: np.ndarray | None,
    kern: Any, book: list[Any] | None,
) -> tuple[Any, ...]:
    ct, cp = coded_pair(t, p, kern)
    if n_groups * ct.size * cp.size > MAX_STACK_CELLS:
        ct, cp = compact(ct), compact(cp)
        if book is not None and n_groups * ct.size * cp.size > MAX_STACK_CELLS:
            ct, cp = onto_book(ct, book), onto_book(cp, book)
    _check_cells(n_groups, ct.size, cp.size)
    if kern is not None:
        counted = _count_kernel(g, n_groups, ct.codes, 0, ct.size, cp.codes, 0, cp.size, w,
                                kern)
        if counted is None:
            raise ValueError("label codes outside their dictionary (a malformed Arrow array)")
    else:
        counted = _count_np(g, n_groups, ct.codes, 0, ct.size, cp.codes, 0, cp.size, w)
    return counted, ct.values, cp.values


def _book(vt: list[Any], vp: list[Any], labels: Any) -> tuple[list[Any], bool]:
    if labels is None:
        check_seen_kinds(vt, vp)
        try:
            # each column's labels once (1 before 1.0 kept), as confusion_counts does
            also = [*dict.fromkeys(vt), *dict.fromkeys(vp)]
            return unify_numbers(sorted(set(vt) | set(vp)), also=also), False
        except TypeError as exc:
            raise TypeError(
                f"y_true and y_pred mix label types that cannot be ordered together: {exc}"
            ) from exc
    book = normalize_labels(labels)
    check_seen_kinds(vt, vp, book)
    return book, True


@numba_kernels
def group_kernels() -> SimpleNamespace:
    """Compile (or load from numba's cache) the kernels that count (group, true, pred) triples.

    Returns
    -------
    SimpleNamespace or None
        ``count_groups(g, t, p, lo_t, rt, lo_p, rp, n_groups, nchunks)`` -> (flat int64 table
        of ``rt * rp * n_groups`` cells, pair-major: ``(rt, rp, n_groups)``, labels outside
        their range, group codes outside ``[0, n_groups)``) and ``count_groups_w(g, t, p, w, ...)`` -> (float64 table, rows per
        pair, rows per group, outside, bad groups); None without numba.

    Examples
    --------
    >>> import numpy as np
    >>> kern = group_kernels()
    >>> g = np.array([0, 1, 1]); t = np.array([0, 1, 1]); p = np.array([0, 1, 0])
    >>> if kern is not None:
    ...     table, outside, bad = kern.count_groups(g, t, p, np.uint64(0), 2, np.uint64(0), 2,
    ...                                             2, 1)
    ...     assert table.tolist() == [1, 0, 0, 0, 0, 1, 0, 1] and outside == bad == 0
    """
    from numba import prange

    global _count_stretch, _count_stretch_w

    @njit(nogil=True, boundscheck=False)
    def count_stretch(g, t, p, lo_t, urt, lo_p, urp, ug, tab):  # pragma: no cover - compiled
        # Blocks of rows: their cell indices first (a loop the compiler vectorises), then the
        # increments. The table is pair-major (cell = pair * G + group): the few frequent
        # pairs of a good classifier (the diagonal) then occupy a few compact runs of cells
        # that stay in cache. A label outside its range lands in the cell after the table, a
        # group code outside [0, G) in the one after that: ranges are checked for free.
        # (Indices are uint32: the stack holds at most MAX_STACK_CELLS cells.)
        ugroups = np.uint32(ug)
        trash = ugroups * np.uint32(urt * urp)
        bad = trash + np.uint32(1)
        buf = np.empty(_GROUP_BLOCK, np.uint32)
        for s in range(0, t.shape[0], _GROUP_BLOCK):
            gb = g[s : s + _GROUP_BLOCK]
            tb = t[s : s + _GROUP_BLOCK]
            pb = p[s : s + _GROUP_BLOCK]
            m = tb.shape[0]
            for j in range(m):
                a = np.uint64(tb[j]) - lo_t
                b = np.uint64(pb[j]) - lo_p
                k = np.uint32(gb[j])
                cell = np.uint32(min(a, urt) * urp + min(b, urp)) * ugroups + k
                cell = cell if (a < urt) & (b < urp) else trash
                buf[j] = cell if np.uint64(gb[j]) < ug else bad
            for j in range(m):
                tab[buf[j]] += 1

    @njit(nogil=True, boundscheck=False)
    def count_stretch_w(g, t, p, w, lo_t, urt, lo_p, urp, ug, tab, seen_tp, seen_g):  # pragma: no cover
        groups = np.int64(ug)
        out = np.zeros(2, np.int64)
        for i in range(t.shape[0]):
            a = np.uint64(t[i]) - lo_t
            b = np.uint64(p[i]) - lo_p
            k = np.uint64(g[i])
            if k >= ug:
                out[1] += 1
            elif a < urt and b < urp:
                ab = np.int64(a * urp + b)
                tab[ab * groups + np.int64(k)] += w[i]
                seen_tp[ab] += 1
                seen_g[np.int64(k)] += 1
            else:
                out[0] += 1
        return out

    _count_stretch, _count_stretch_w = count_stretch, count_stretch_w

    @njit(parallel=True, nogil=True, boundscheck=False)
    def count_groups(g, t, p, lo_t, rt, lo_p, rp, n_groups, nchunks):  # pragma: no cover
        """Each stretch of rows is counted into its own int32 table (a stretch is shorter
        than 2**31 rows) lying at least a cache line from the next, then the tables are
        summed."""
        n = t.shape[0]
        step = (n + nchunks - 1) // nchunks
        size = n_groups * rt * rp
        loc = np.empty((nchunks, (size + 2 + 31) // 16 * 16), np.int32)
        urt, urp, ug = np.uint64(rt), np.uint64(rp), np.uint64(n_groups)
        for c in prange(nchunks):
            tab = loc[c]
            tab[:] = 0
            sl = slice(c * step, c * step + step)
            _count_stretch(g[sl], t[sl], p[sl], lo_t, urt, lo_p, urp, ug, tab)
        out = np.zeros(size, np.int64)
        outside = 0
        bad = 0
        for c in range(nchunks):
            tab = loc[c]
            for i in range(size):
                out[i] += tab[i]
            outside += tab[size]
            bad += tab[size + 1]
        return out, outside, bad

    @njit(parallel=True, nogil=True, boundscheck=False)
    def count_groups_w(g, t, p, w, lo_t, rt, lo_p, rp, n_groups, nchunks):  # pragma: no cover
        """:func:`count_groups` with sample weights (float64 sums, added in chunk order:
        reproducible), and how often each (true, pred) pair and each group occurs."""
        n = t.shape[0]
        step = (n + nchunks - 1) // nchunks
        size = n_groups * rt * rp
        loc = np.zeros((nchunks, (size + 15) // 8 * 8), np.float64)
        seen_tp = np.zeros((nchunks, (rt * rp + 15) // 8 * 8), np.int64)
        seen_g = np.zeros((nchunks, (n_groups + 15) // 8 * 8), np.int64)
        flags = np.zeros((nchunks, 2), np.int64)
        urt, urp, ug = np.uint64(rt), np.uint64(rp), np.uint64(n_groups)
        for c in prange(nchunks):
            sl = slice(c * step, c * step + step)
            flags[c] = _count_stretch_w(g[sl], t[sl], p[sl], w[sl], lo_t, urt, lo_p, urp, ug,
                                        loc[c], seen_tp[c], seen_g[c])
        out = np.zeros(size, np.float64)
        for c in range(nchunks):
            out += loc[c, :size]
        sums = flags.sum(axis=0)
        return (out, seen_tp.sum(axis=0)[: rt * rp].copy(),
                seen_g.sum(axis=0)[:n_groups].copy(), sums[0], sums[1])

    return SimpleNamespace(count_groups=count_groups, count_groups_w=count_groups_w)


@functools.cache
def _kernels() -> SimpleNamespace | None:
    base, grouped = load_kernels(), group_kernels()
    if base is None or grouped is None:
        return None
    return SimpleNamespace(**vars(base), **vars(grouped))


def grouped_counts(
    group_codes: np.ndarray,
    n_groups: int,
    t: LabelColumn,
    p: LabelColumn,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    use_numba: bool | None = None,
    strict_labels: bool = True,
    all_zero_ok: bool = False,
) -> GroupedCounts:
    """Count the confusion table of every group in one pass.

    Parameters
    ----------
    group_codes : ndarray of int, shape (n,)
        Group of each sample, in ``[0, n_groups)`` (see
        :func:`confmat.inputs.grouping.encode_groups`).
    n_groups : int
        Number of groups.
    t, p : LabelColumn
        ``y_true`` and ``y_pred`` as read by :func:`confmat.inputs.columns.check_label_pair`.
    labels : sequence, optional
        Classes and their order; by default the sorted labels seen in any group.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights (the tables then hold float64 sums).
    use_numba : bool, optional
        Force (True) or forbid (False) the compiled kernel; by default it runs from
        ``NUMBA_MIN_SIZE`` samples on, when numba is available.
    strict_labels : bool, default True
        ``labels`` must name at least one class of ``y_true``.
    all_zero_ok : bool, default False
        Accept weights that are all zero (a chunk of a stream, as in
        :func:`confmat.counting.chunks.count_chunk`: the stream as a whole is checked
        when its result is asked for).

    Returns
    -------
    GroupedCounts

    Raises
    ------
    ValueError
        Bad weights, missing labels, ``labels`` naming no class of ``y_true``, or too many
        groups times label pairs.
    TypeError
        Labels of kinds that cannot be ordered together.

    Examples
    --------
    >>> import numpy as np
    >>> gc = grouped_counts(np.array([0, 0, 1]), 2, np.array(["a", "b", "b"]),
    ...                     np.array(["a", "a", "b"]))
    >>> gc.stack.tolist(), gc.labels, gc.sizes.tolist()
    ([[[1, 0], [1, 0]], [[0, 0], [0, 1]]], ['a', 'b'], [2, 1])
    """
    n = len(t)
    w = check_sample_weight(sample_weight, n, all_zero_ok=all_zero_ok)
    g = np.asarray(group_codes)
    if g.shape != (n,) or g.dtype.kind not in "iu":
        raise ValueError(f"group_codes must be {n} integer codes, got an array of dtype "
                         f"{g.dtype} and shape {g.shape}")
    book_given = None if labels is None else normalize_labels(labels)
    kern = None
    if use_numba is True or (use_numba is None and n >= NUMBA_MIN_SIZE):
        kern = _kernels()
    if kern is None and n and (int(g.min()) < 0 or int(g.max()) >= n_groups):
        raise ValueError(f"group codes outside [0, {n_groups}) (a malformed group coding)")
    coded = None
    if (
        isinstance(t, np.ndarray) and isinstance(p, np.ndarray)
        and ((t.dtype.kind in "iu" and p.dtype.kind in "iu") or t.dtype.kind == p.dtype.kind == "b")
        and (book_given is None
             or all(type(v) is (bool if t.dtype.kind == "b" else int) for v in book_given))
    ):
        coded = _int_triples(g, n_groups, t, p, w, kern)
    if coded is None:
        coded = _coded_triples(g, n_groups, t, p, w, kern, book_given)
    counted, values_t, values_p = coded
    return _fold(counted.table, counted.seen, values_t, values_p, labels, strict_labels,
                 counted.sizes)


def _fold(
    table: np.ndarray, seen: np.ndarray, values_t: Any, values_p: Any, labels: Any,
    strict: bool, sizes: np.ndarray,
) -> GroupedCounts:
    rows = np.flatnonzero(seen.any(axis=1))
    cols = np.flatnonzero(seen.any(axis=0))
    vt, vp = values_t(rows), values_p(cols)
    book, given = _book(vt, vp, labels)
    k = len(book)
    index = {v: i for i, v in enumerate(book)}
    lt = np.fromiter((index.get(v, k) for v in vt), np.int64, len(vt))
    lp = np.fromiter((index.get(v, k) for v in vp), np.int64, len(vp))
    if given and strict and not (lt < k).any():
        raise ValueError(
            f"{arg('labels')} names no class that occurs in {arg('y_true')}; at least one label "
            f"must be in {arg('y_true')}"
        )
    g = table.shape[0]
    if (lt.size == lp.size == k == table.shape[1] == table.shape[2]
            and (lt == np.arange(k)).all() and (lp == np.arange(k)).all()):
        # every code is a class, in the codebook's order: the table is the stack
        return GroupedCounts(np.ascontiguousarray(table), book, False,
                             np.asarray(sizes, dtype=np.int64))
    sub = table[:, rows][:, :, cols].reshape(g, -1)
    cell = (lt[:, None] * (k + 1) + lp[None, :]).ravel()
    flat = np.zeros((g, (k + 1) * (k + 1)), dtype=table.dtype)
    if np.unique(cell).size == cell.size:
        flat[:, cell] = sub
    else:  # several values on one label (1 and 1.0, the pooled "other")
        out_t = flat.T.copy()
        np.add.at(out_t, cell, sub.T)
        flat = out_t.T
    stack = np.ascontiguousarray(flat.reshape(g, k + 1, k + 1))
    has_other = bool(stack[:, k, :].any() or stack[:, :, k].any())
    if not has_other:
        stack = np.ascontiguousarray(stack[:, :k, :k])
    return GroupedCounts(stack, book, has_other, np.asarray(sizes, dtype=np.int64))
