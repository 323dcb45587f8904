"""The one sort: cumulative counts at every distinct score, and the rank (Mann-Whitney) AUC.

Every curve and sweep of :mod:`confmat.curves` starts from :func:`cumulative_counts`. Large
unweighted inputs use compiled kernels (numba, optional) that split the scores by class, sort
each part and merge them from the top; the numpy path gives the same numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..deps import njit, numba_kernels
from .common import undefined_auc

#: The pair counts of the compiled rank kernel carry at this value: each step adds at most the
#: number of negatives (below 2**62), so the running rest never passes int64.
PAIR_LIMIT = 1 << 62

_INT64_MAX = int(np.iinfo(np.int64).max)


def cumulative_counts(
    pos: np.ndarray, score: np.ndarray, weight: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct scores in decreasing order with the positive and negative count (or weight) at
    or above each: ``tps[i] = sum(w[pos & (score >= thr[i])])``, likewise ``fps``.

    Zero-weight samples are dropped first (they neither count nor create thresholds).

    Parameters
    ----------
    pos : ndarray of bool, shape (n_samples,)
        Which samples are positive.
    score : ndarray of float64, shape (n_samples,)
        Scores (validated: finite).
    weight : ndarray of float64 or None
        Sample weights; None counts each sample once.

    Returns
    -------
    thr : ndarray of float64
        The distinct scores, decreasing.
    tps, fps : ndarray
        Positive and negative counts at or above each score (int64 without weights, float64
        sums of weights with them).

    Examples
    --------
    >>> thr, tps, fps = cumulative_counts(np.array([False, True, True]),
    ...                                   np.array([0.2, 0.9, 0.2]), None)
    >>> thr.tolist(), tps.tolist(), fps.tolist()
    ([0.9, 0.2], [1, 2], [0, 1])
    """
    if weight is None and score.shape[0] >= 1 << 14:
        kern = rank_kernel()
        if kern is not None:  # split by class, sort each part in place, merge from the top
            _, _, split, merge_desc = kern
            buf, n_pos = split(pos.view(np.uint8), np.ascontiguousarray(score), 1)
            ps, ns = buf[:n_pos], buf[n_pos:]
            ps.sort()
            ns.sort()
            return merge_desc(ps, ns)
    if weight is not None:
        keep = weight != 0
        if not keep.all():
            pos, score, weight = pos[keep], score[keep], weight[keep]
    order = np.argsort(score)[::-1]  # ties are grouped below, so stability is not needed
    s = score[order]
    p = pos[order]
    ends = np.append(np.flatnonzero(s[1:] != s[:-1]), s.shape[0] - 1)
    if weight is None:
        tps = np.cumsum(p, dtype=np.int64)[ends]
        fps = ends + 1 - tps
    else:
        w = weight[order]
        tps = np.cumsum(np.where(p, w, 0.0))[ends]
        fps = np.cumsum(np.where(p, 0.0, w))[ends]
    return s[ends], tps, fps



@numba_kernels
def rank_kernel() -> Any:
    """The compiled rank kernels ``(below_and_ties, scan, split, merge_desc)``, or None
    without numba (or with ``CONFMAT_DISABLE_NUMBA`` set); loaded through
    :func:`confmat.deps.numba_kernels`.

    ``below_and_ties(ps, ns, limit)`` counts the pairs of an ascending positive and negative
    score array whose negative is below, respectively tied with, the positive, each as
    ``(carry, rest)`` meaning ``carry * limit + rest`` (:data:`PAIR_LIMIT`): exact past int64.
    """

    @njit(nogil=True)
    def below_and_ties(ps, ns, limit):  # pragma: no cover - compiled
        # pairs (positive, negative) with the negative below / tied, as carry * limit + rest:
        # the totals reach P * N, past int64 once P * N > 2**63 (about 3e9 samples per
        # class), while each rest stays below limit (2**62) and each step adds at most N
        lo = 0
        hi = 0
        m = ns.shape[0]
        below_carry = 0
        below = 0
        ties_carry = 0
        ties = 0
        for i in range(ps.shape[0]):
            v = ps[i]
            while lo < m and ns[lo] < v:
                lo += 1
            if hi < lo:
                hi = lo
            while hi < m and ns[hi] <= v:
                hi += 1
            below += lo
            ties += hi - lo
            if below >= limit:
                below_carry += below // limit
                below = below % limit
            if ties >= limit:
                ties_carry += ties // limit
                ties = ties % limit
        return below_carry, below, ties_carry, ties

    @njit(nogil=True)
    def scan(y, s):  # pragma: no cover - compiled
        # min and max label, first non-finite score (or -1): one pass
        lo = y[0]
        hi = y[0]
        bad = -1
        for i in range(y.shape[0]):
            v = y[i]
            if v < lo:
                lo = v
            if v > hi:
                hi = v
            if bad < 0 and not np.isfinite(s[i]):
                bad = i
        return lo, hi, bad

    @njit(nogil=True)
    def split(y, s, pos_value):  # pragma: no cover - compiled
        # scores of positives and of negatives, packed into one buffer from both ends
        n = y.shape[0]
        buf = np.empty(n, np.float64)
        p = 0
        q = n
        for i in range(n):
            if y[i] == pos_value:
                buf[p] = s[i]
                p += 1
            else:
                q -= 1
                buf[q] = s[i]
        return buf, p

    @njit(nogil=True)
    def merge_desc(ps, ns):  # pragma: no cover - compiled
        # distinct scores of two ascending arrays, walked from the top, with the number of
        # positives / negatives at or above each one
        i = ps.shape[0] - 1
        j = ns.shape[0] - 1
        m = ps.shape[0] + ns.shape[0]
        thr = np.empty(m, np.float64)
        tps = np.empty(m, np.int64)
        fps = np.empty(m, np.int64)
        tp = 0
        fp = 0
        k = 0
        while i >= 0 or j >= 0:
            if j < 0 or (i >= 0 and ps[i] >= ns[j]):
                v = ps[i]
            else:
                v = ns[j]
            while i >= 0 and ps[i] == v:
                tp += 1
                i -= 1
            while j >= 0 and ns[j] == v:
                fp += 1
                j -= 1
            thr[k] = v
            tps[k] = tp
            fps[k] = fp
            k += 1
        return thr[:k].copy(), tps[:k].copy(), fps[:k].copy()

    return below_and_ties, scan, split, merge_desc


def argsort_rows(scores: np.ndarray) -> list[np.ndarray]:
    """The ``np.argsort`` of each row of a 2-D array (one score vector per row), the rows in
    two threads when they are large (numpy's sort releases the GIL): the paired DeLong
    components of two models on 10^6 samples spend most of their time in these sorts.

    Parameters
    ----------
    scores : ndarray, shape (M, N)

    Returns
    -------
    list of ndarray of intp
        The orders, equal to ``np.argsort(scores[r])`` for each row ``r``.

    Examples
    --------
    >>> [o.tolist() for o in argsort_rows(np.array([[0.3, 0.1, 0.2], [1.0, 3.0, 2.0]]))]
    [[1, 2, 0], [0, 2, 1]]
    """
    if scores.shape[0] < 2 or scores.shape[1] < 1 << 18:
        return [np.argsort(row) for row in scores]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as ex:
        return list(ex.map(np.argsort, scores))


def _sort_pair(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort two arrays, in two threads when they are large (numpy's sort releases the GIL)."""
    if a.size + b.size < 1 << 21:
        return np.sort(a), np.sort(b)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as ex:
        fa = ex.submit(np.sort, a)
        sb = np.sort(b)
        return fa.result(), sb


def _sorted_halves_auc(below_and_ties: Any, buf: np.ndarray, n_pos: int) -> float:
    """AUC from a scratch buffer holding the positive scores first, then the negatives:
    both halves are sorted in place (two threads when large) and merged once."""
    ps = buf[:n_pos]
    ns = buf[n_pos:]
    if buf.shape[0] >= 1 << 21:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=1) as ex:
            done = ex.submit(ps.sort)
            ns.sort()
            done.result()
    else:
        ps.sort()
        ns.sort()
    b_carry, below, t_carry, ties = below_and_ties(ps, ns, PAIR_LIMIT)
    n_neg = buf.shape[0] - n_pos
    twice_u = 2 * (int(b_carry) * PAIR_LIMIT + int(below)) + int(t_carry) * PAIR_LIMIT + int(ties)
    return twice_u / (2.0 * n_pos * n_neg)


def fast_binary_auc(y_true: Any, y_score: Any) -> float | None:
    """Unweighted binary AUC of large numpy inputs in two compiled passes (scan, split) plus
    the sorts; None when the input needs the general path (which also reports errors).

    The fast path takes 1-D numpy arrays of one shape, at least 65 536 samples, integer
    labels in {0, 1} and float64 scores, with numba available.

    Parameters
    ----------
    y_true : object
        True labels as the user gave them.
    y_score : object
        Scores as the user gave them.

    Returns
    -------
    float or None
        The AUC (NaN, with a warning, when one class only is present), or None.

    Examples
    --------
    >>> fast_binary_auc([0, 1], [0.2, 0.7]) is None  # small input: the general path
    True
    """
    if not (isinstance(y_true, np.ndarray) and isinstance(y_score, np.ndarray)):
        return None
    if y_true.ndim != 1 or y_score.ndim != 1 or y_true.shape != y_score.shape:
        return None
    if y_true.shape[0] < 1 << 16 or y_true.dtype.kind not in "iu" or y_score.dtype != np.float64:
        return None
    kern = rank_kernel()
    if kern is None:
        return None
    below_and_ties, scan, split, _ = kern
    y = np.ascontiguousarray(y_true)
    s = np.ascontiguousarray(y_score)
    lo, hi, bad = scan(y, s)
    if bad >= 0 or lo < 0 or hi > 1:  # labels other than {0, 1}: the door decides
        return None
    if hi == lo:
        return undefined_auc()
    buf, n_pos = split(y, s, hi)
    return _sorted_halves_auc(below_and_ties, buf, int(n_pos))


def mann_whitney_auc(pos: np.ndarray, score: np.ndarray) -> float:
    """Unweighted AUC = P(score_pos > score_neg) + P(tie) / 2, which equals the trapezoidal
    area under the empirical ROC curve (ties give the diagonal segments).

    Parameters
    ----------
    pos : ndarray of bool, shape (n_samples,)
        Which samples are positive; both classes must be present.
    score : ndarray of float64, shape (n_samples,)
        Scores.

    Returns
    -------
    float

    Examples
    --------
    >>> mann_whitney_auc(np.array([False, True, True]), np.array([0.2, 0.9, 0.2]))
    0.75
    """
    n_pos = int(np.count_nonzero(pos))
    n_neg = pos.shape[0] - n_pos
    kern = rank_kernel() if pos.shape[0] >= 4096 else None
    if kern is not None:
        buf = np.empty(pos.shape[0])
        buf[:n_pos] = score[pos]
        buf[n_pos:] = score[~pos]
        return _sorted_halves_auc(kern[0], buf, n_pos)
    ps, ns = _sort_pair(score[pos], score[~pos])
    left = np.searchsorted(ns, ps, side="left")
    right = np.searchsorted(ns, ps, side="right")
    twice_u = exact_int_sum(left) + exact_int_sum(right)  # P N may pass int64 (2**63)
    return twice_u / (2.0 * n_pos * n_neg)


def exact_int_sum(values: np.ndarray) -> int:
    """The exact sum of non-negative integers as a Python int, whatever its size.

    ``values.sum()`` in int64 wraps past ``2**63`` without a word; here blocks small enough
    that their sum stays in int64 are summed by numpy and the block sums by Python.

    Parameters
    ----------
    values : ndarray of int, shape (n,)
        Non-negative integers (e.g. the number of negatives below each positive).

    Returns
    -------
    int

    Examples
    --------
    >>> exact_int_sum(np.array([2**62, 2**62, 2**62], dtype=np.int64)) == 3 * 2**62
    True
    """
    if values.size == 0:
        return 0
    top = int(values.max())
    block = values.size if top == 0 else max(1, _INT64_MAX // top)
    if block >= values.size:
        return int(values.sum(dtype=np.int64))
    return sum(int(values[i:i + block].sum(dtype=np.int64))
               for i in range(0, values.size, block))
