"""Compiled kernels of :mod:`confmat.inference.roc_fused` (imported only with numba).

Module-level functions, so that numba's on-disk cache finds them again in a new process:
``stratified`` and ``pooled`` call ``area``, and kernels defined inside a function that call
each other were compiled afresh in every process (about 0.4 s at the first bootstrap
``roc_test``).
"""

import numpy as np

from ..deps import njit


@njit(nogil=True)
def area(buf_neg, buf_pos, n_neg, n_pos):  # pragma: no cover - compiled
    """The AUC of one resample from its counts per distinct score (ascending), which it
    clears; Mann-Whitney in integers (ties one half).

    Parameters
    ----------
    buf_neg, buf_pos : numpy.ndarray of int32, shape (G,)
        Negatives and positives drawn at each distinct score.
    n_neg, n_pos : int
        Their totals.

    Returns
    -------
    float
        NaN without negatives or positives.
    """
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
    """The AUC of every stratified resample.

    Parameters
    ----------
    neg_codes, pos_codes : numpy.ndarray of int32
        The distinct-score index of each negative / positive.
    neg_idx, pos_idx : numpy.ndarray of int, shape (B, N) and (B, P)
        The negatives and positives each resample drew.
    width : int
        Number of distinct scores.

    Returns
    -------
    numpy.ndarray of float64, shape (B,)
    """
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
    """The AUC of every resample of all samples together (NaN where a class is missing).

    Parameters
    ----------
    codes : numpy.ndarray of int32
        Distinct-score index of each sample, plus ``width`` for a positive.
    idx : numpy.ndarray of int, shape (B, n)
        The samples each resample drew.
    width : int
        Number of distinct scores.

    Returns
    -------
    numpy.ndarray of float64, shape (B,)
    """
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


@njit(nogil=True)
def se_at_sp(neg_codes, neg_idx, pos_codes, pos_idx, width, values, slots,
             out):  # pragma: no cover - compiled
    """Sensitivity at each specificity of ``values`` (decreasing) on the curve of every
    stratified resample, pROC's rule, into ``out[:, slots]``.

    Parameters
    ----------
    neg_codes, neg_idx, pos_codes, pos_idx, width
        As in :func:`stratified`.
    values : numpy.ndarray of float64, shape (Q,)
        Specificities, decreasing.
    slots : numpy.ndarray of int, shape (Q,)
        The column of ``out`` of each value.
    out : numpy.ndarray of float64, shape (B, Q)
        Receives the sensitivities.

    Returns
    -------
    numpy.ndarray
        ``out``.
    """
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
