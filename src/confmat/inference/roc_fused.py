r"""Fused bootstrap kernels: each resample is counted and reduced to the quantity wanted in
one compiled pass, without the ``(B, G + 1)`` cumulative tables of
:class:`confmat.inference.roc_boot.Curves` (whose numpy path they reproduce exactly, and
which they fall back to without numba).

- :func:`resampled_auc`: the full AUC of each resample (``roc_test(method="bootstrap")``);
- :func:`resampled_se_at_sp`: the sensitivity at given specificities with pROC's rule
  (``roc_ci(specificities=...)``, pROC's ``ci.se``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..deps import njit, numba_kernels
from .roc_boot import ScoreGroups

__all__ = ["resampled_auc", "resampled_se_at_sp"]


@numba_kernels
def auc_kernels() -> Any:
    """Compiled kernels that count each resample and return its AUC without building the
    (B, G + 1) cumulative tables (the full-area bootstrap of :func:`roc_test`), or None."""

    @njit(nogil=True)
    def area(buf_neg, buf_pos, n_neg, n_pos):  # pragma: no cover - compiled
        fp = 0
        num = 0
        for g in range(buf_neg.shape[0]):
            neg = np.int64(buf_neg[g])
            fp += neg
            num += np.int64(buf_pos[g]) * (2 * (n_neg - fp) + neg)
            buf_neg[g] = 0
            buf_pos[g] = 0
        if n_neg == 0 or n_pos == 0:
            return np.nan
        return num / (2.0 * n_neg * n_pos)

    @njit(nogil=True)
    def stratified(neg_codes, neg_idx, pos_codes, pos_idx, width):  # pragma: no cover
        rows = neg_idx.shape[0]
        out = np.empty(rows)
        buf_neg = np.zeros(width, np.int32)
        buf_pos = np.zeros(width, np.int32)
        for r in range(rows):
            for j in range(neg_idx.shape[1]):
                buf_neg[neg_codes[neg_idx[r, j]]] += 1
            for j in range(pos_idx.shape[1]):
                buf_pos[pos_codes[pos_idx[r, j]]] += 1
            out[r] = area(buf_neg, buf_pos, neg_idx.shape[1], pos_idx.shape[1])
        return out

    @njit(nogil=True)
    def pooled(codes, idx, width):  # pragma: no cover - compiled
        rows = idx.shape[0]
        out = np.empty(rows)
        buf_neg = np.zeros(width, np.int32)
        buf_pos = np.zeros(width, np.int32)
        for r in range(rows):
            n_pos = 0
            for j in range(idx.shape[1]):
                c = codes[idx[r, j]]
                if c >= width:
                    buf_pos[c - width] += 1
                    n_pos += 1
                else:
                    buf_neg[c] += 1
            out[r] = area(buf_neg, buf_pos, idx.shape[1] - n_pos, n_pos)
        return out

    return stratified, pooled


def resampled_auc(groups: ScoreGroups, idx: tuple[np.ndarray, ...]) -> np.ndarray:
    """Full AUC of each resample, stratified (``idx = (neg_idx, pos_idx)``) or pooled
    (``idx = (all_idx,)``; nan for a resample that lacks a class).

    Compiled when numba is there (counting and area in one pass per resample, no (B, G)
    tables), else through :class:`Curves`; the same numbers either way (integer sums).

    Parameters
    ----------
    groups : ScoreGroups
    idx : tuple of ndarray
        Index tables of the resamples.

    Returns
    -------
    ndarray of shape (B,)

    Examples
    --------
    >>> g = ScoreGroups.build(np.array([False, True, False, True]), np.array([.1, .9, .5, .3]))
    >>> resampled_auc(g, (np.array([[0, 1]]), np.array([[0, 1]]))).tolist()
    [0.75]
    """
    kern = auc_kernels()
    if kern is None:
        if len(idx) == 2:
            return groups.stratified_curves(*idx).auc()
        return groups.pooled_curves(idx[0]).auc()
    # 32-bit codes halve the memory the random gathers touch (G < 2**31 always holds here)
    if len(idx) == 2:
        return kern[0](groups.neg_codes.astype(np.int32), np.ascontiguousarray(idx[0]),
                       groups.pos_codes.astype(np.int32), np.ascontiguousarray(idx[1]),
                       groups.size)
    return kern[1](groups.codes.astype(np.int32), np.ascontiguousarray(idx[0]), groups.size)


@numba_kernels
def se_kernel() -> Any:
    """Compiled kernel of :func:`resampled_se_at_sp`, or None without numba."""

    @njit(nogil=True)
    def se_at_sp(neg_codes, neg_idx, pos_codes, pos_idx, width, values, slots,
                 out):  # pragma: no cover - compiled
        rows = neg_idx.shape[0]
        buf_neg = np.zeros(width, np.int32)
        buf_pos = np.zeros(width, np.int32)
        n_neg = neg_idx.shape[1]
        n_pos = pos_idx.shape[1]
        nn = np.float64(n_neg)
        npos = np.float64(n_pos)
        q = values.shape[0]
        fp = np.empty(width + 1, np.int64)
        tp = np.empty(width + 1, np.int64)
        for r in range(rows):
            for j in range(n_neg):
                buf_neg[neg_codes[neg_idx[r, j]]] += 1
            for j in range(n_pos):
                buf_pos[pos_codes[pos_idx[r, j]]] += 1
            fp[0] = 0
            tp[0] = 0
            for g in range(width):
                fp[g + 1] = fp[g] + buf_neg[g]
                tp[g + 1] = tp[g] + buf_pos[g]
                buf_neg[g] = 0
                buf_pos[g] = 0
            # values decrease (slots: their columns), the points' specificities too, so one
            # forward walk finds every value's place
            i_lo = 0
            for t in range(q):
                v = values[t]
                # first point with specificity <= v, and the end of the block equal to v
                while i_lo <= width and (nn - fp[i_lo]) / nn > v:
                    i_lo += 1
                i_hi = i_lo
                while i_hi <= width and (nn - fp[i_hi]) / nn == v:
                    i_hi += 1
                if i_hi > i_lo:
                    out[r, slots[t]] = tp[i_hi - 1] / npos
                else:
                    i1 = min(max(i_lo - 1, 0), width)
                    i2 = min(i_lo, width)
                    x1 = (nn - fp[i1]) / nn
                    x2 = (nn - fp[i2]) / nn
                    y1 = tp[i1] / npos
                    y2 = tp[i2] / npos
                    proportion = (v - x1) / (x2 - x1)
                    out[r, slots[t]] = y1 + proportion * (y2 - y1)
        return out

    return se_at_sp


def resampled_se_at_sp(groups: ScoreGroups, neg_idx: np.ndarray, pos_idx: np.ndarray,
                       values: np.ndarray) -> np.ndarray:
    """Sensitivity at each specificity of ``values`` on the curve of every stratified
    resample, pROC's rule (as :meth:`confmat.inference.roc_boot.Curves.at_specificity`).

    Parameters
    ----------
    groups : ScoreGroups
    neg_idx, pos_idx : ndarray of shape (B, N) and (B, P)
        Indices of the negatives and positives drawn by each resample.
    values : ndarray of shape (Q,)
        Specificities in [0, 1].

    Returns
    -------
    ndarray of shape (B, Q)

    Examples
    --------
    >>> g = ScoreGroups.build(np.array([False, True, False, True]), np.array([.1, .9, .5, .3]))
    >>> resampled_se_at_sp(g, np.array([[0, 1]]), np.array([[0, 1]]), np.array([0.5])).tolist()
    [[1.0]]
    """
    kern = se_kernel()
    if kern is None:
        return groups.stratified_curves(neg_idx, pos_idx).at_specificity(values)
    out = np.empty((neg_idx.shape[0], values.shape[0]))
    slots = np.argsort(-values, kind="stable")
    return kern(groups.neg_codes.astype(np.int32), np.ascontiguousarray(neg_idx),
                groups.pos_codes.astype(np.int32), np.ascontiguousarray(pos_idx),
                groups.size, np.ascontiguousarray(values[slots], dtype=np.float64), slots, out)
