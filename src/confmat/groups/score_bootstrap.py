r"""The stratified bootstrap of ROC AUC and average precision in every group, vectorised.

Each group's samples are resampled on their own, its positives and its negatives separately
(the stratified bootstrap of pROC's ``ci.auc`` and ``roc.test``; Carpenter and Bithell 2000),
so every replicate keeps each group's size and class counts: a group with both classes has a
ROC AUC in every replicate, and a group with one class has none in any of them. The pooled
value of a replicate (``to_overall``) is the metric of all groups' resampled samples together.

A replicate is a vector of multiplicities, and its metrics are computed by the engine of
:mod:`confmat.inference.score_runs` (the samples sorted once by group and score into runs of
tied scores, one sweep over the runs per replicate; a compiled kernel with a numpy path), the
same engine as the ungrouped bootstrap of :func:`confmat.inference.score_ci`. No replicate
sorts anything.

The draws
---------
The uniform numbers are ``rng.random((n_resamples, n))`` read row by row (one row per
replicate), in chunks of rows (the values do not depend on the chunks). The ``n`` columns are
the samples in the *layout* order: group by group (groups in sorted order), within a group its
positives and then its negatives, each in the order of the samples. The column ``j`` of a
stratum (one class of one group) of size ``s`` whose first column is ``a`` draws the stratum's
sample ``min(floor(u_j * s), s - 1)`` (counted from ``a``;
:func:`confmat.inference.score_runs.stratified_multiplicities`). Every group consumes its
columns, whatever the metric or the method, so the draws of a generator are the same for
every use.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..deps import numba_module
from ..inference.score_runs import ScoreRuns, stratified_values

__all__ = ["REF_CARPENTER", "StratifiedSamples", "replicate_chunk", "score_replicates"]

REF_CARPENTER = (
    "Carpenter, J., Bithell, J. (2000), Bootstrap confidence intervals: when, which, what? A "
    "practical guide for medical statisticians, Stat. Med. 19(9)."
)
#: most uniform numbers drawn at once (compiled kernel; the numpy path takes a quarter)
DRAW_BUDGET = 1_000_000


@dataclass(frozen=True)
class StratifiedSamples:
    """Samples of a grouped binary score problem in the layout of the stratified bootstrap.

    Parameters
    ----------
    starts : ndarray of int64, shape (2 G + 1,)
        Column boundaries of the strata: group ``g``'s positives are the columns
        ``starts[2g]:starts[2g+1]``, its negatives ``starts[2g+1]:starts[2g+2]``.
    runs : ScoreRuns
        The columns sorted by group and score (one segment per group).
    pooled : ScoreRuns
        The columns sorted by score (one segment: all groups together).
    order : ndarray of int64, shape (n,)
        The layout: column ``j`` is sample ``order[j]`` of the arrays it was built from.
    """

    starts: np.ndarray
    runs: ScoreRuns
    pooled: ScoreRuns
    order: np.ndarray

    @classmethod
    def build(cls, pos: np.ndarray, sizes: np.ndarray, runs: ScoreRuns,
              pooled: ScoreRuns) -> StratifiedSamples:
        """The layout of samples given in group order.

        Parameters
        ----------
        pos : ndarray of bool, shape (n,)
            Which samples are positive.
        sizes : ndarray of int, shape (G,)
            Samples per group: the first ``sizes[0]`` samples are group 0, and so on.
        runs : ScoreRuns
            The samples' runs with one segment per group
            (``ScoreRuns.build(pos, score, weight, sizes)``).
        pooled : ScoreRuns
            The samples' runs in one segment (``ScoreRuns.build(pos, score, weight)``).

        Returns
        -------
        StratifiedSamples

        Examples
        --------
        >>> pos, score = np.array([0, 1, 1, 0], bool), np.array([.3, .8, .3, .1])
        >>> sizes = np.array([3, 1])
        >>> s = StratifiedSamples.build(pos, sizes, ScoreRuns.build(pos, score, None, sizes),
        ...                             ScoreRuns.build(pos, score))
        >>> s.order.tolist(), s.starts.tolist(), s.runs.slot.tolist()  # slot: 2 run + negative
        ([1, 2, 0, 3], [0, 2, 3, 3, 4], [2, 0, 1, 5])
        """
        pos = np.asarray(pos, dtype=bool)
        sizes = np.asarray(sizes, dtype=np.int64)
        n, n_groups = pos.shape[0], sizes.shape[0]
        group = np.repeat(np.arange(n_groups, dtype=np.int64), sizes)
        order = np.argsort(2 * group + (~pos), kind="stable")
        at = np.empty(n, dtype=np.int64)
        at[order] = np.arange(n)
        n_pos = np.bincount(group[pos], minlength=n_groups)
        bounds = np.empty(2 * n_groups, dtype=np.int64)
        bounds[0::2], bounds[1::2] = n_pos, sizes - n_pos
        return cls(np.r_[0, np.cumsum(bounds)], runs.relabelled(at), pooled.relabelled(at),
                   order.astype(np.int64))

    @property
    def n_groups(self) -> int:
        """Number of groups."""
        return self.runs.n_segments


def replicate_chunk(u: np.ndarray, data: StratifiedSamples, metric: str, pooled: bool = False,
                    use_numba: bool | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """The metric of every group (and of the pooled samples) in the replicates drawn by ``u``.

    Parameters
    ----------
    u : ndarray of float64, shape (b, n)
        Uniform numbers in [0, 1), one row per replicate, columns in the layout of ``data``
        (the module docstring says how a column draws a sample).
    data : StratifiedSamples
        The samples.
    metric : {'roc_auc', 'average_precision'}
        The metric.
    pooled : bool, default False
        Also compute the metric of all groups' drawn samples together.
    use_numba : bool, optional
        Force the compiled kernel (True) or the numpy path (False); by default the kernel
        when numba is available.

    Returns
    -------
    values : ndarray of float64, shape (b, G)
        ROC AUC is NaN in a group without positive or negative weight; average precision is
        0 in a group without positive weight (scikit-learn's convention).
    pooled : ndarray of float64, shape (b,), or None

    Examples
    --------
    >>> pos, score = np.array([0, 1, 1, 0], bool), np.array([.3, .8, .3, .1])
    >>> sizes = np.array([4])
    >>> s = StratifiedSamples.build(pos, sizes, ScoreRuns.build(pos, score, None, sizes),
    ...                             ScoreRuns.build(pos, score))
    >>> u = np.array([[0.1, 0.6, 0.2, 0.9]])   # positives 1 and 2, negatives 0 and 3
    >>> replicate_chunk(u, s, "roc_auc", use_numba=False)[0].tolist()
    [[0.875]]
    """
    return stratified_values(u, data.starts, data.runs, metric,
                             data.pooled if pooled else None, empty_ap=0.0,
                             use_numba=use_numba)


def score_replicates(data: StratifiedSamples, metric: str, n_resamples: int,
                     rng: np.random.Generator, pooled: bool = False,
                     use_numba: bool | None = None, budget: int | None = None
                     ) -> tuple[np.ndarray, np.ndarray | None]:
    """ROC AUC or average precision of every group in ``n_resamples`` stratified bootstrap
    replicates (the draws are described in the module docstring).

    Parameters
    ----------
    data : StratifiedSamples
        The samples.
    metric : {'roc_auc', 'average_precision'}
        The metric.
    n_resamples : int
        Replicates (validated by the caller).
    rng : numpy.random.Generator
        Source of the uniform numbers (advanced by ``n_resamples * n`` doubles).
    pooled : bool, default False
        Also the metric of all groups' resampled samples together (``to_overall``).
    use_numba : bool, optional
        As in :func:`replicate_chunk`.
    budget : int, optional
        Most uniform numbers held at once (by default 1,000,000 with the compiled kernel, a
        quarter of it on the numpy path; at least one replicate's); the values do not depend
        on it.

    Returns
    -------
    values : ndarray of float64, shape (n_resamples, G)
    pooled : ndarray of float64, shape (n_resamples,), or None

    Examples
    --------
    >>> pos, score = np.array([0, 1, 0, 1], bool), np.array([.2, .7, .4, .3])
    >>> sizes = np.array([2, 2])
    >>> s = StratifiedSamples.build(pos, sizes, ScoreRuns.build(pos, score, None, sizes),
    ...                             ScoreRuns.build(pos, score))
    >>> vals, _ = score_replicates(s, "roc_auc", 3, np.random.default_rng(0))
    >>> vals.tolist()   # one positive and one negative per group: nothing varies
    [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]]
    """
    n = int(data.starts[-1])
    if budget is None:
        compiled = use_numba is not False and numba_module() is not None
        budget = DRAW_BUDGET if compiled else DRAW_BUDGET // 4
    step = max(1, budget // max(1, n))
    values = np.empty((n_resamples, data.n_groups))
    whole = np.empty(n_resamples) if pooled else None
    buf = np.empty((min(step, n_resamples), n))
    for start in range(0, n_resamples, step):
        stop = min(n_resamples, start + step)
        u = buf[: stop - start]
        rng.random(out=u)
        vals, pv = replicate_chunk(u, data, metric, pooled, use_numba)
        values[start:stop] = vals
        if whole is not None and pv is not None:
            whole[start:stop] = pv
    return values, whole
