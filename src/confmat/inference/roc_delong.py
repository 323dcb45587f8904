r"""DeLong's covariance of correlated AUCs from one sort per score vector.

The midrank formulation of Sun and Xu (2014) needs the midranks of every score among all
samples, among the positives and among the negatives. Sorting all samples once gives the other
two for free: taken in the sorted order, the positives (and the negatives) are already sorted,
so their midranks are read off runs of equal values without another sort (one compiled pass
with numba, a few array passes without). It is confmat's one DeLong covariance:
:func:`confmat.inference.scores.delong`, ``score_ci``, :func:`confmat.roc_test` and the power
computations all use it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..deps import njit, numba_kernels

__all__ = ["components_kernel", "delong_covariance_sorted"]


@numba_kernels
def components_kernel() -> Any:
    """The compiled pass over the sorted samples (midranks of every run of equal scores and
    the structural components of its samples), or None without numba."""

    @njit(nogil=True)
    def components(order, xs, ps, m, n, out):  # pragma: no cover - compiled
        total = order.shape[0]
        i = 0
        before_pos = 0
        before_neg = 0
        rank_sum = 0.0
        while i < total:
            v = xs[i]
            j = i
            run_pos = 0
            while j < total and xs[j] == v:
                if ps[j]:
                    run_pos += 1
                j += 1
            run_neg = j - i - run_pos
            tz = (i + j + 1) / 2.0
            tx = before_pos + (run_pos + 1) / 2.0
            ty = before_neg + (run_neg + 1) / 2.0
            for k in range(i, j):
                idx = order[k]
                if ps[k]:
                    out[idx] = (tz - tx) / n
                    rank_sum += tz
                else:
                    out[idx] = 1.0 - (tz - ty) / m
            before_pos += run_pos
            before_neg += run_neg
            i = j
        return rank_sum

    return components


def _runs_midranks(xs: np.ndarray) -> np.ndarray:
    """Midranks (1-based, ties averaged) of an ascending array, in its order."""
    n = xs.shape[0]
    if n == 0:
        return np.empty(0)
    starts = np.flatnonzero(np.r_[True, xs[1:] != xs[:-1]])
    ends = np.r_[starts[1:], n]
    return np.repeat((starts + ends + 1) / 2.0, ends - starts)


def delong_covariance_sorted(pos: np.ndarray, scores: np.ndarray
                             ) -> tuple[np.ndarray, np.ndarray]:
    r"""AUCs of ``scores`` (shape (M, N)) and their DeLong et al. (1988) covariance
    :math:`S_{10}/m + S_{01}/n`, one sort per score vector.

    Parameters
    ----------
    pos : ndarray of bool, shape (N,)
        Which samples are positive; both classes present.
    scores : ndarray of float64, shape (M, N)
        The scores of M models on the same samples.

    Returns
    -------
    auc : ndarray, shape (M,)
    covariance : ndarray, shape (M, M)
        A class of one sample contributes zero.

    Examples
    --------
    >>> pos = np.array([0, 0, 1, 1, 0, 1], dtype=bool)
    >>> auc, cov = delong_covariance_sorted(pos, np.array([[.1, .4, .35, .8, .2, .9]]))
    >>> round(float(auc[0]), 6), round(float(cov[0, 0] * 81), 6)
    (0.888889, 2.0)
    """
    k = scores.shape[0]
    m = int(np.count_nonzero(pos))
    n = pos.shape[0] - m
    auc = np.empty(k)
    v10 = np.empty((k, m))
    v01 = np.empty((k, n))
    full = np.empty(pos.shape[0])
    kern = components_kernel()
    for r in range(k):
        order = np.argsort(scores[r])
        xs = scores[r][order]
        ps = pos[order]
        if kern is not None:
            rank_sum = kern(order, xs, ps, m, n, full)
            auc[r] = (rank_sum - m * (m + 1) / 2.0) / (m * n)
            v10[r] = full[pos]
            v01[r] = full[~pos]
            continue
        tz = _runs_midranks(xs)
        tz_pos = tz[ps]
        tz_neg = tz[~ps]
        auc[r] = (tz_pos.sum() - m * (m + 1) / 2.0) / (m * n)
        # back to the samples' order, so that the components of two models line up
        full[order[ps]] = (tz_pos - _runs_midranks(xs[ps])) / n
        full[order[~ps]] = 1.0 - (tz_neg - _runs_midranks(xs[~ps])) / m
        v10[r] = full[pos]
        v01[r] = full[~pos]
    s10 = np.atleast_2d(np.cov(v10)) if m > 1 else np.zeros((k, k))
    s01 = np.atleast_2d(np.cov(v01)) if n > 1 else np.zeros((k, k))
    return auc, s10 / m + s01 / n
