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

from ..deps import numba_kernels
from .roc_boot import ScoreGroups

__all__ = ["resampled_auc", "resampled_se_at_sp"]


@numba_kernels
def auc_kernels() -> Any:
    """Compiled kernels that count each resample and return its AUC without building the
    (B, G + 1) cumulative tables (the full-area bootstrap of :func:`roc_test`), or None."""
    from .roc_fused_kernels import pooled, stratified

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
    from .roc_fused_kernels import se_at_sp

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
