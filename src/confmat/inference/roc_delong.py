r"""DeLong's covariance of correlated AUCs from one sort per score vector.

The midrank formulation of Sun and Xu (2014) needs the midranks of every score among all
samples, among the positives and among the negatives. Sorting all samples once gives the other
two for free: taken in the sorted order, the positives (and the negatives) are already sorted,
so their midranks are read off runs of equal values without another sort (one compiled pass
with numba, a few array passes without). It is confmat's one DeLong covariance:
:func:`confmat.inference.scores.delong`, ``score_ci``, :func:`confmat.roc_test` and the power
computations all use it. The DeLong-type covariance of partial areas
(:func:`partial_delong_covariance`) clips the same components to the range.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..curves.partial import diagonal_area, focus_area, mcclish, se_sp_points
from ..curves.rank import argsort_rows
from ..deps import njit, numba_kernels

__all__ = ["components_kernel", "delong_components_sorted", "delong_covariance_sorted",
           "partial_delong_covariance"]


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


def delong_components_sorted(pos: np.ndarray, scores: np.ndarray
                             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""AUCs of ``scores`` (shape (M, N)) and DeLong et al.'s (1988) structural components,
    one sort per score vector.

    The component of a positive :math:`x_i` is the share of negatives scoring below it, of a
    negative :math:`y_j` the share of positives scoring above it, a tie counting one half:
    :math:`V_{10}(x_i) = 1 - \mathrm{FPR}(x_i)` and :math:`V_{01}(y_j) = \mathrm{ROC}(
    \mathrm{FPR}(y_j))`, the empirical curve read at the middle of the negative's own step.

    Parameters
    ----------
    pos : ndarray of bool, shape (N,)
        Which samples are positive; both classes present.
    scores : ndarray of float64, shape (M, N)
        The scores of M models on the same samples.

    Returns
    -------
    auc : ndarray, shape (M,)
    v10 : ndarray, shape (M, m)
        Components of the ``m`` positives, in the samples' order.
    v01 : ndarray, shape (M, n)
        Components of the ``n`` negatives, in the samples' order.

    Examples
    --------
    >>> pos = np.array([0, 0, 1, 1, 0, 1], dtype=bool)
    >>> auc, v10, v01 = delong_components_sorted(pos, np.array([[.1, .4, .35, .8, .2, .9]]))
    >>> (v10 * 3).tolist(), (v01 * 3).tolist()
    ([[2.0, 3.0, 3.0]], [[3.0, 2.0, 3.0]])
    """
    k = scores.shape[0]
    m = int(np.count_nonzero(pos))
    n = pos.shape[0] - m
    auc = np.empty(k)
    v10 = np.empty((k, m))
    v01 = np.empty((k, n))
    full = np.empty(pos.shape[0])
    kern = components_kernel()
    for r, order in enumerate(argsort_rows(scores)):
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
    return auc, v10, v01


def _covariance(v10: np.ndarray, v01: np.ndarray) -> np.ndarray:
    """:math:`S_{10}/m + S_{01}/n` (denominators ``m - 1``, ``n - 1``); a class of one sample
    contributes zero."""
    k, m = v10.shape
    n = v01.shape[1]
    s10 = np.atleast_2d(np.cov(v10)) if m > 1 else np.zeros((k, k))
    s01 = np.atleast_2d(np.cov(v01)) if n > 1 else np.zeros((k, k))
    return s10 / m + s01 / n


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
    auc, v10, v01 = delong_components_sorted(pos, scores)
    return auc, _covariance(v10, v01)


def _midway(x: np.ndarray, y: np.ndarray, v: float) -> float:
    """The polyline through ``(x, y)`` (``x`` non-decreasing) at ``x = v``: on a vertical
    step at ``v`` (several points with ``x == v``), the middle of the step."""
    size = x.shape[0]

    def through(i: int) -> float:  # the segment from point i - 1 to point i
        if i <= 0:
            return float(y[0])
        if i >= size:
            return float(y[-1])
        width = x[i] - x[i - 1]
        return float(y[i - 1] + (v - x[i - 1]) / width * (y[i] - y[i - 1]))

    below = through(int(np.searchsorted(x, v, side="left")))
    above = through(int(np.searchsorted(x, v, side="right")))
    return (below + above) / 2.0


def partial_delong_covariance(pos: np.ndarray, scores: np.ndarray,
                              partial: tuple[str, float, float, bool]
                              ) -> tuple[np.ndarray, np.ndarray]:
    r"""Partial AUCs of ``scores`` (shape (M, N)) and their DeLong-type covariance: DeLong
    et al.'s (1988) structural components, clipped to the range.

    For a specificity range :math:`[a, b]` the component of a positive is its DeLong
    component (its specificity, ties counting one half) clipped to :math:`[a, b]`, and the
    component of a negative is its DeLong component (the sensitivity at its step) clipped to
    :math:`[\mathrm{Se}(b), \mathrm{Se}(a)]`, the sensitivities of the empirical curve at
    the bounds (the middle of a vertical step that falls exactly on a bound); the covariance
    is :math:`S_{10}/m + S_{01}/n` of the clipped components, as for the full area. These
    are the influence functions of :math:`\int_{1-b}^{1-a} \mathrm{ROC}(u)\,du` (see
    docs/roc.md, "DeLong's variance of a partial area"); over :math:`[0, 1]` nothing is
    clipped and the covariance is DeLong's. A sensitivity range swaps the roles of the
    classes. McClish's (1989) standardisation is affine in the area, so the covariance is
    multiplied by the square of its slope :math:`1 / (2 (M - m))`.

    Parameters
    ----------
    pos : ndarray of bool, shape (N,)
        Which samples are positive; both classes present.
    scores : ndarray of float64, shape (M, N)
        The scores of M models on the same samples.
    partial : tuple
        ``(focus, low, high, correct)``: the axis ``'specificity'`` or ``'sensitivity'``,
        the range and McClish's standardisation.

    Returns
    -------
    area : ndarray, shape (M,)
        The partial areas (standardised with ``correct``, kept below 0.5 for curves under
        the diagonal).
    covariance : ndarray, shape (M, M)
        A class of one sample contributes zero.

    Examples
    --------
    Over the whole range this is DeLong's covariance:

    >>> pos = np.array([0, 0, 1, 1, 0, 1], dtype=bool)
    >>> s = np.array([[.1, .4, .35, .8, .2, .9]])
    >>> area, cov = partial_delong_covariance(pos, s, ("specificity", 0.0, 1.0, False))
    >>> round(float(area[0]), 6), round(float(cov[0, 0] * 81), 6)
    (0.888889, 2.0)

    On specificities [0.8, 1] the positives' components (2/3, 1, 1) become (0.8, 1, 1); the
    curve's sensitivity is 1/3 at specificity 1 (the middle of the step from 0 to 2/3) and
    2/3 at 0.8, so the negatives' (1, 2/3, 1) all become 2/3: the variance is
    (1/75) / 3 + 0 = 1/225.

    >>> area, cov = partial_delong_covariance(pos, s, ("specificity", 0.8, 1.0, False))
    >>> round(float(area[0] * 15), 6), round(float(cov[0, 0] * 225), 6)
    (2.0, 1.0)
    """
    focus, lo, hi, correct = partial
    _, v10, v01 = delong_components_sorted(pos, scores)
    area = np.empty(scores.shape[0])
    for r in range(scores.shape[0]):
        _, se, sp = se_sp_points(pos, scores[r], None)
        area[r] = focus_area(se, sp, lo, hi, focus)
        if focus == "specificity":  # sensitivity decreases along increasing specificity
            x, y, along, across = sp[::-1], se[::-1], v10, v01
        else:
            x, y, along, across = se, sp, v01, v10
        along[r] = np.clip(along[r], lo, hi)
        across[r] = np.clip(across[r], _midway(x, y, hi), _midway(x, y, lo))
    cov = _covariance(v10, v01)
    if correct:
        slope = 1.0 / (2.0 * ((hi - lo) - diagonal_area(lo, hi)))
        return mcclish(area, lo, hi), cov * slope**2
    return area, cov
