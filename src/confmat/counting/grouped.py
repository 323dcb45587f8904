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

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs.columns import LabelColumn
from ..inputs.encode import check_label_kinds, check_sample_weight, normalize_labels
from .codes import coded_pair, compact, onto_book, threads
from .kernels import MAX_DIRECT_RANGE, MIN_STRETCH, NUMBA_MIN_SIZE, load_kernels

__all__ = ["MAX_STACK_CELLS", "GroupedCounts", "grouped_counts"]

#: Largest G x R x R table of code triples counted (R: label codes per column).
MAX_STACK_CELLS = 1 << 27
#: Longest stretch of rows one thread counts into its int32 table.
_CHUNK_LIMIT = 1 << 30


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


def _nchunks(kern: Any, n: int) -> int:
    wanted = min(threads(kern), max(1, n // MIN_STRETCH))
    return max(wanted, -(-n // _CHUNK_LIMIT))


def _offsets(x: np.ndarray, lo: int, out: np.ndarray) -> np.ndarray:
    """``x - lo`` written into ``out`` (int16 or int32): the arithmetic runs modulo
    ``2**bits`` on the unsigned view, exact because the difference is small and non-negative,
    for every integer dtype (uint64 near ``2**64`` and negative int64 alike)."""
    u = out.view(np.dtype(f"u{out.dtype.itemsize}"))
    np.copyto(u, x, casting="unsafe")  # the low bits of every value
    if lo:
        u -= u.dtype.type(lo % (1 << (8 * u.dtype.itemsize)))
    return out


def _int_pairs(t: np.ndarray, p: np.ndarray, kern: Any) -> tuple[Any, ...] | None:
    """Integer labels coded by offset: (pair codes, R_t, R_p, values_t, values_p), or None
    when a range is wider than ``MAX_DIRECT_RANGE``."""
    kind = t.dtype.kind
    if kind == "b":
        t, p = t.view(np.uint8), p.view(np.uint8)
    lo_t, rt = _exact_range(t, kern)
    lo_p, rp = _exact_range(p, kern)
    if rt > MAX_DIRECT_RANGE or rp > MAX_DIRECT_RANGE:
        return None
    dtype = np.int16 if rt * rp <= np.iinfo(np.int16).max else np.int32
    b = _offsets(t, lo_t, np.empty(t.shape[0], dtype=dtype))
    b *= dtype(rp)
    b += _offsets(p, lo_p, np.empty(p.shape[0], dtype=dtype))

    def values(lo: int) -> Any:
        if kind == "b":
            return lambda idx: [bool(lo + i) for i in idx.tolist()]
        return lambda idx: [lo + i for i in idx.tolist()]

    return b, rt, rp, values(lo_t), values(lo_p)


def _coded_pairs(
    t: LabelColumn, p: LabelColumn, kern: Any, book: list[Any] | None, n_groups: int
) -> tuple[Any, ...]:
    ct, cp = coded_pair(t, p, kern)
    if n_groups * ct.size * cp.size > MAX_STACK_CELLS:
        ct, cp = compact(ct), compact(cp)
        if book is not None and n_groups * ct.size * cp.size > MAX_STACK_CELLS:
            ct, cp = onto_book(ct, book), onto_book(cp, book)
    if n_groups * ct.size * cp.size > MAX_STACK_CELLS:
        raise ValueError(
            f"{n_groups} groups x {ct.size} x {cp.size} label pairs is too many tables to count "
            f"(more than {MAX_STACK_CELLS} cells); use fewer groups or pass labels"
        )
    b = ct.codes.astype(np.int64) * cp.size
    b += cp.codes
    return b, ct.size, cp.size, ct.values, cp.values


def _count(
    g: np.ndarray, n_groups: int, b: np.ndarray, cells: int, w: np.ndarray | None, kern: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(table (G, cells), rows per group, rows per pair code)."""
    if kern is not None:
        g, b = np.ascontiguousarray(g), np.ascontiguousarray(b)
        nchunks = _nchunks(kern, g.shape[0])
        zero = np.uint64(0)
        if w is None:
            table, seen_g, seen_b, outside = kern.count_range(g, b, zero, n_groups, zero, cells,
                                                              nchunks)
        else:
            table, seen_g, seen_b, outside = kern.count_range_w(
                g, b, np.ascontiguousarray(w), zero, n_groups, zero, cells, nchunks)
        if outside:  # pragma: no cover - codes are in range by construction
            raise AssertionError("group or label codes outside their range")
        return table, seen_g, seen_b
    idx = g.astype(np.int64) * cells
    idx += b
    flat = np.bincount(idx, weights=w, minlength=n_groups * cells)
    if w is None:
        table = flat.astype(np.int64, copy=False).reshape(n_groups, cells)
        return table, table.sum(axis=1), table.sum(axis=0)
    return (flat.reshape(n_groups, cells), np.bincount(g, minlength=n_groups),
            np.bincount(b, minlength=cells))


def _book(vt: list[Any], vp: list[Any], labels: Any) -> tuple[list[Any], bool]:
    if labels is None:
        check_label_kinds(vt + vp, "y_true and y_pred together")
        try:
            return sorted(set(vt) | set(vp)), False
        except TypeError as exc:
            raise TypeError(
                f"y_true and y_pred mix label types that cannot be ordered together: {exc}"
            ) from exc
    book = normalize_labels(labels)
    seen = vt + vp
    if seen:
        check_label_kinds(seen[:1] + book[:1], "labels and the data")
    return book, True


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
    w = check_sample_weight(sample_weight, n)
    book_given = None if labels is None else normalize_labels(labels)
    kern = None
    if use_numba is True or (use_numba is None and n >= NUMBA_MIN_SIZE):
        kern = load_kernels()
    coded = None
    if (
        isinstance(t, np.ndarray) and isinstance(p, np.ndarray)
        and ((t.dtype.kind in "iu" and p.dtype.kind in "iu") or t.dtype.kind == p.dtype.kind == "b")
        and (book_given is None
             or all(type(v) is (bool if t.dtype.kind == "b" else int) for v in book_given))
    ):
        coded = _int_pairs(t, p, kern)
    if coded is None:
        coded = _coded_pairs(t, p, kern, book_given, n_groups)
    b, rt, rp, values_t, values_p = coded
    table, sizes, seen_b = _count(group_codes, n_groups, b, rt * rp, w, kern)
    return _fold(table.reshape(n_groups, rt, rp), seen_b.reshape(rt, rp) > 0, values_t,
                 values_p, labels, strict_labels, sizes)


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
            "labels names no class that occurs in y_true; at least one label must be in y_true"
        )
    g = table.shape[0]
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
