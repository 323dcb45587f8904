"""Counting kernels: two label columns -> K x K table of counts.

Every input is counted as a pair of integer columns over a small table, which is then folded
onto the sorted label book; only the distinct labels ever become Python objects.

* Integer (and bool) labels are counted over their value ranges directly: no sort, no
  factorisation. The ranges are guessed from a sample (a few pages of each column, its first
  and last values among them) and checked while counting (a value outside lands in a margin
  row or column), so the usual input is read once; a wrong guess costs one exact min/max
  pass and a recount. Arithmetic is modulo 2**64 on each array's own values, so the whole
  uint64 range is exact and no dtype is promoted to float. Without ``labels`` the table is
  folded onto the sorted labels by index arithmetic on the two ranges: the labels of an
  integer dtype need no check of their kinds, one by one.
* Arrow dictionary columns, polars Categorical / Enum and pandas categoricals are counted
  over their codes.
* Arrow string columns (pyarrow, polars, pandas ``string[pyarrow]``) are factorised straight
  from their buffers by a compiled hash table, the two columns at once; numpy numbers and
  object arrays by the same table keyed by 64-bit words (values' bits, object pointers),
  with ``pandas.factorize`` as the fallback (see :func:`confmat.inputs.encode.factorize`).

The numba kernels run above ``NUMBA_MIN_SIZE`` rows (or when asked); below it, or without
numba, ``np.bincount``, ``pandas.factorize`` and ``pyarrow.compute.dictionary_encode`` take
their place with identical counts.

The package splits the work: this module counts and folds onto the label book;
:mod:`confmat.counting.codes` turns other columns into codes; the compiled kernels live in
:mod:`confmat.counting.jit_count` and :mod:`confmat.counting.jit_factorize`, loaded through
:mod:`confmat.deps` (``CONFMAT_DISABLE_NUMBA`` turns them off).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..deps import numba_module
from ..inputs.columns import CodedLabels, check_label_pair
from ..inputs.encode import check_sample_weight, normalize_labels
from ..inputs.kinds import check_seen_kinds, unify_numbers
from ..words import arg
from .codes import coded_pair, compact, onto_book, threads
from .jit_count import count_kernels
from .jit_factorize import factorize_kernels

__all__ = ["MAX_DIRECT_RANGE", "NUMBA_MIN_SIZE", "confusion_counts", "load_kernels"]

#: Inputs shorter than this use numpy / pyarrow: a JIT call is not worth its start-up below it.
NUMBA_MIN_SIZE = 1 << 20
#: Widest integer label range (per column) counted directly; wider ones are factorised first.
MAX_DIRECT_RANGE = 1024
#: Largest table of code pairs counted before unused codes are dropped.
MAX_TABLE_CELLS = 1 << 21
#: Runs of consecutive values (and values per run) looked at to guess the integer label
#: ranges: a few pages of each column, however long it is.
SAMPLE_BLOCKS = 64
SAMPLE_BLOCK = 64
#: Longest stretch one thread counts into its int32 table.
_CHUNK_LIMIT = 1 << 30
#: Fewest rows a thread of a parallel kernel is handed at once.
MIN_STRETCH = 1 << 16



@functools.cache
def load_kernels() -> SimpleNamespace | None:
    """Every compiled counting kernel in one namespace, compiled (or loaded from numba's
    cache) on first call; None when numba is disabled or not installed.

    Returns
    -------
    SimpleNamespace or None
        The kernels of :func:`confmat.counting.jit_count.count_kernels` and
        :func:`confmat.counting.jit_factorize.factorize_kernels`, and ``numba`` itself.

    Examples
    --------
    >>> kern = load_kernels()
    >>> kern is None or hasattr(kern, "count_range")
    True
    """
    numba = numba_module()
    counting, factorizing = count_kernels(), factorize_kernels()
    if numba is None or counting is None or factorizing is None:
        return None
    return SimpleNamespace(numba=numba, **vars(counting), **vars(factorizing))


def _use_numba(n: int, use_numba: bool | None) -> SimpleNamespace | None:
    if use_numba is False or (use_numba is None and n < NUMBA_MIN_SIZE):
        return None
    return load_kernels()


def _nchunks(kern: SimpleNamespace, n: int) -> int:
    """Stretches of rows for the parallel kernels: one per thread, none shorter than
    ``MIN_STRETCH`` rows nor longer than ``_CHUNK_LIMIT``."""
    wanted = min(threads(kern), max(1, n // MIN_STRETCH))
    return max(wanted, -(-n // _CHUNK_LIMIT))


# ----------------------------------------------------------------------------- counting
class _Counts:
    """A table over two value ranges (rows: y_true, columns: y_pred) before folding onto the
    label book: ``seen_*`` say which rows / columns occur, ``values_*`` name them. ``ranges``
    is ``(lo_t, lo_p, is_bool)`` when row ``i`` is the value ``lo_t + i`` of an integer (or
    bool) column and column ``j`` the value ``lo_p + j``, else None."""

    __slots__ = ("ranges", "seen_p", "seen_t", "table", "values_p", "values_t")

    def __init__(
        self,
        table: np.ndarray,
        seen_t: np.ndarray,
        seen_p: np.ndarray,
        values_t: Callable[[np.ndarray], list[Any]],
        values_p: Callable[[np.ndarray], list[Any]],
        ranges: tuple[int, int, bool] | None = None,
    ) -> None:
        self.ranges = ranges
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


def _sample_range(x: np.ndarray, kern: SimpleNamespace) -> tuple[int, int]:
    """A guess of the label range of ``x`` from its first and last values and
    ``SAMPLE_BLOCKS`` runs of consecutive values between them (exact for a sorted column):
    values in [0, 1024) are assumed to start at 0, anything else at the smallest value seen."""
    lo, hi = kern.sample_minmax(x, SAMPLE_BLOCKS, SAMPLE_BLOCK)
    lo, hi = int(lo), int(hi)
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
        lo_t, rt = _sample_range(t, kern)
        lo_p, rp = _sample_range(p, kern)
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

    return _Counts(table, seen_t, seen_p, values(lo_t), values(lo_p), (lo_t, lo_p, kind == "b"))



def _coded_counts(
    ct: CodedLabels,
    cp: CodedLabels,
    w: np.ndarray | None,
    kern: SimpleNamespace | None,
    book: list[Any] | None,
) -> _Counts:
    if ct.size * cp.size > MAX_TABLE_CELLS:
        ct, cp = compact(ct), compact(cp)
        if book is not None and ct.size * cp.size > MAX_TABLE_CELLS:
            ct, cp = onto_book(ct, book), onto_book(cp, book)
    counted = None
    if kern is not None:
        counted = _count_kernel(kern, ct.codes, cp.codes, w, 0, ct.size, 0, cp.size)
        if counted is None:
            raise ValueError("label codes outside their dictionary (a malformed Arrow array)")
    else:
        counted = _count_np(ct.codes, cp.codes, w, 0, ct.size, 0, cp.size)
    table, seen_t, seen_p = counted
    return _Counts(table, seen_t, seen_p, ct.values, cp.values)


# ----------------------------------------------------------------------------- the label book
def _sorted_labels(vt: list[Any], vp: list[Any]) -> list[Any]:
    check_seen_kinds(vt, vp)
    try:
        # each column's labels once, its first of equal values kept (1 before 1.0), as the
        # numpy path factorises them: a float column makes the codebook float
        return unify_numbers(sorted(set(vt) | set(vp)), also=[*dict.fromkeys(vt),
                                                              *dict.fromkeys(vp)])
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


def _fold_ranges(
    counts: _Counts, ranges: tuple[int, int, bool]
) -> tuple[np.ndarray, list[Any], bool] | None:
    """:func:`_fold` without ``labels`` for two integer (or bool) columns counted over their
    value ranges, by index arithmetic on the ranges; None when they lie too far apart.

    Their labels are the values of integer (or bool) dtypes, so of one kind, none missing, and
    ordered as the ranges are: the per-label kind checks and lookups of :func:`_fold` could
    not fail or differ, and are skipped."""
    lo_t, lo_p, is_bool = ranges
    table = counts.table
    rt, rp = table.shape
    if lo_t == lo_p and rt == rp:  # one range: the labels are the values either column holds
        if counts.seen_t.all() and counts.seen_p.all():
            book = list(range(lo_t, lo_t + rt))  # the table is already over the label book
        else:
            keep = np.flatnonzero(np.logical_or(counts.seen_t, counts.seen_p))
            table = table[np.ix_(keep, keep)]
            book = [lo_t + v for v in keep.tolist()]
        return table, [bool(v) for v in book] if is_bool else book, False
    lo = min(lo_t, lo_p)
    span = max(lo_t + rt, lo_p + rp) - lo
    if span > 2 * MAX_DIRECT_RANGE:
        return None
    rows = np.flatnonzero(counts.seen_t)
    cols = np.flatnonzero(counts.seen_p)
    seen = np.zeros(span, dtype=bool)
    seen[rows + (lo_t - lo)] = True
    seen[cols + (lo_p - lo)] = True
    place = np.cumsum(seen) - 1  # the position of each seen value in the label book
    book = [lo + v for v in np.flatnonzero(seen).tolist()]
    k = len(book)
    out = np.zeros((k, k), dtype=table.dtype)
    out[np.ix_(place[rows + (lo_t - lo)], place[cols + (lo_p - lo)])] = table[np.ix_(rows, cols)]
    return out, [bool(v) for v in book] if is_bool else book, False


def _fold(
    counts: _Counts, book: list[Any] | None, strict: bool = True
) -> tuple[np.ndarray, list[Any], bool]:
    """The table over the label book: rows/columns of the labels that occur (or of ``book``,
    everything else pooled in a last "other" row/column)."""
    table = counts.table
    if book is None and counts.ranges is not None:
        folded = _fold_ranges(counts, counts.ranges)
        if folded is not None:
            return folded
    rows = np.flatnonzero(counts.seen_t)
    cols = np.flatnonzero(counts.seen_p)
    vt = counts.values_t(rows)
    vp = counts.values_p(cols)
    given = book is not None
    if book is None:
        book = _sorted_labels(vt, vp)
    else:
        check_seen_kinds(vt, vp, book)
    k = len(book)
    index = {v: i for i, v in enumerate(book)}
    lt = np.fromiter((index.get(v, k) for v in vt), np.int64, len(vt))
    lp = np.fromiter((index.get(v, k) for v in vp), np.int64, len(vp))
    if given and strict and not (lt < k).any():
        raise ValueError(
            f"{arg('labels')} names no class that occurs in {arg('y_true')}; at least one label "
            f"must be in {arg('y_true')}, which holds {_preview(vt)}"
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

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Labels of one kind: lists, numpy, pandas, polars or pyarrow columns. ``y_true`` may
        be an :class:`~confmat.inputs.truth.EncodedTruth`, counted from its codes: a caller
        that counts one truth against several predictions encodes it once
        (:func:`confmat.inputs.targets.encoded_truth`); the predictions are read as usual.
    labels : sequence, optional
        Classes and their order; by default the sorted labels seen.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights (the table then holds float64 sums).
    use_numba : bool, optional
        Force (True) or forbid (False) the compiled kernels; by default they run from
        ``NUMBA_MIN_SIZE`` samples on, when numba is available.
    strict_labels : bool, default True
        ``labels`` must name at least one class that occurs in ``y_true``, as scikit-learn's
        ``confusion_matrix`` demands; functions that mirror ``precision_recall_fscore_support``
        (which accepts such a list) pass False.

    Returns
    -------
    table : ndarray
        K x K (rows = true, columns = predicted) or, when ``labels`` selects a subset and some
        sample falls outside it, (K + 1) x (K + 1) whose last row / column pools the rest.
    labels : list
        The classes.
    has_other : bool
        Whether ``table`` has that last row and column.

    Raises
    ------
    ValueError
        Lengths differ, no samples, missing labels, or ``labels`` naming no class of
        ``y_true`` (with ``strict_labels``).
    TypeError
        Labels of kinds that cannot be ordered together.

    Examples
    --------
    >>> table, labels, other = confusion_counts(["b", "a", "b"], ["b", "b", "a"])
    >>> table.tolist(), labels, other
    ([[0, 1], [1, 1]], ['a', 'b'], False)
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
        ct, cp = coded_pair(t, p, kern)
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
