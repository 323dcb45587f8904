r"""The stratified bootstrap of ROC AUC and average precision in every group, vectorised.

Each group's samples are resampled on their own, its positives and its negatives separately
(the stratified bootstrap of pROC's ``ci.auc`` and ``roc.test``; Carpenter and Bithell 2000),
so every replicate keeps each group's size and class counts: a group with both classes has a
ROC AUC in every replicate, and a group with one class has none in any of them. The pooled
value of a replicate (``to_overall``) is the metric of all groups' resampled samples together.

The rank structure is computed once: the samples are sorted by group and score, and each
distinct score of a group (a *run* of tied samples) gets a number. A replicate is then a
vector of multiplicities, and its metric a sweep over the runs (Mann and Whitney 1947, ties
counted one half):

.. math::

    \mathrm{AUC} = \frac{\sum_t p_t\,(Q_{<t} + q_t / 2)}{P\,Q}, \qquad
    \mathrm{AP} = \frac{1}{P} \sum_t p_t \frac{\mathrm{TP}_t}{\mathrm{TP}_t + \mathrm{FP}_t},

with ``p_t`` and ``q_t`` the positive and negative weight drawn in run ``t`` (multiplicity
times sample weight), ``Q_{<t}`` the negative weight of the lower runs, and ``TP_t`` /
``FP_t`` the weights at or above run ``t``. No replicate sorts anything. A compiled kernel
(numba) does one pass per replicate; the numpy path gives the same numbers with cumulative
sums, in chunks of bounded memory.

The draws
---------
The uniform numbers are ``rng.random((n_resamples, n))`` read row by row (one row per
replicate), in chunks of rows (the values do not depend on the chunks). The ``n`` columns are
the samples in the *layout* order: group by group (groups in sorted order), within a group its
positives and then its negatives, each in the order of the samples. The column ``j`` of a
stratum (one class of one group) of size ``s`` whose first column is ``a`` draws the stratum's
sample ``min(floor(u_j * s), s - 1)`` (counted from ``a``). Rounding ``u * s`` down maps the
2**53 values of ``u`` onto the ``s`` samples with a relative bias of at most ``s / 2**53``.
Every group consumes its columns, whatever the metric or the method, so the draws of a
generator are the same for every use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..deps import njit, numba_kernels

__all__ = ["REF_CARPENTER", "StratifiedSamples", "replicate_chunk", "score_replicates"]

REF_CARPENTER = (
    "Carpenter, J., Bithell, J. (2000), Bootstrap confidence intervals: when, which, what? A "
    "practical guide for medical statisticians, Stat. Med. 19(9)."
)
#: metric codes of the kernel
_METRICS = {"roc_auc": 0, "average_precision": 1}
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
    run : ndarray of int32, shape (n,)
        Each column's run (distinct score) within its group, 0 for the lowest score.
    run_base : ndarray of int64, shape (G + 1,)
        The runs of group ``g`` are numbered ``run_base[g]:run_base[g+1]`` among all groups'
        (``run_base[g] + run`` of its columns).
    pooled_at : ndarray of int64, shape (n,)
        Each column's position among all samples sorted by score.
    pooled_new : ndarray of bool, shape (n,)
        In that sorted order: whether the sample's score differs from the previous one.
    pooled_positive : ndarray of bool, shape (n,)
        In that sorted order: whether the sample is positive.
    pooled_weight : ndarray of float64, shape (n,)
        In that sorted order: the sample weights.
    pooled_run : ndarray of int64, shape (n,)
        Each column's run (distinct score) among all samples.
    weight : ndarray of float64, shape (n,)
        Each column's sample weight (ones without weights).
    weighted : bool
        Whether sample weights were given (unweighted counts are summed as integers).
    order : ndarray of int64, shape (n,)
        The layout: column ``j`` is sample ``order[j]`` of the arrays it was built from.
    """

    starts: np.ndarray
    run: np.ndarray
    run_base: np.ndarray
    pooled_at: np.ndarray
    pooled_new: np.ndarray
    pooled_positive: np.ndarray
    pooled_weight: np.ndarray
    pooled_run: np.ndarray
    weight: np.ndarray
    weighted: bool
    order: np.ndarray

    @classmethod
    def build(cls, pos: np.ndarray, score: np.ndarray, weight: np.ndarray | None,
              sizes: np.ndarray) -> StratifiedSamples:
        """The layout of samples given in group order.

        Parameters
        ----------
        pos : ndarray of bool, shape (n,)
            Which samples are positive.
        score : ndarray of float64, shape (n,)
            Scores.
        weight : ndarray of float64 or None
            Sample weights.
        sizes : ndarray of int, shape (G,)
            Samples per group: the first ``sizes[0]`` samples are group 0, and so on.

        Returns
        -------
        StratifiedSamples

        Examples
        --------
        >>> s = StratifiedSamples.build(np.array([0, 1, 1, 0], bool), np.array([.3, .8, .3, .1]),
        ...                             None, np.array([3, 1]))
        >>> s.order.tolist(), s.starts.tolist(), s.run.tolist(), s.run_base.tolist()
        ([1, 2, 0, 3], [0, 2, 3, 3, 4], [1, 0, 0, 0], [0, 2, 3])
        """
        pos = np.asarray(pos, dtype=bool)
        score = np.asarray(score, dtype=np.float64)
        sizes = np.asarray(sizes, dtype=np.int64)
        n, n_groups = pos.shape[0], sizes.shape[0]
        group = np.repeat(np.arange(n_groups, dtype=np.int64), sizes)
        order = np.argsort(2 * group + (~pos), kind="stable")
        by_score = np.lexsort((score, group))
        s, g = score[by_score], group[by_score]
        new = np.r_[True, (s[1:] != s[:-1]) | (g[1:] != g[:-1])]
        run_base = np.zeros(n_groups + 1, dtype=np.int64)
        np.add.at(run_base, g[new] + 1, 1)
        run_base = np.cumsum(run_base)
        run = np.empty(n, dtype=np.int64)
        run[by_score] = np.cumsum(new) - 1 - run_base[g]
        n_pos = np.bincount(group[pos], minlength=n_groups)
        bounds = np.empty(2 * n_groups, dtype=np.int64)
        bounds[0::2], bounds[1::2] = n_pos, sizes - n_pos
        w = (np.ones(n) if weight is None else np.asarray(weight, dtype=np.float64))[order]
        lay_score = score[order]
        sorted_cols = np.argsort(lay_score, kind="stable")
        at = np.empty(n, dtype=np.int64)
        at[sorted_cols] = np.arange(n)
        ss = lay_score[sorted_cols]
        pooled_new = np.r_[True, ss[1:] != ss[:-1]]
        return cls(np.r_[0, np.cumsum(bounds)], run[order].astype(np.int32), run_base, at,
                   pooled_new, pos[order][sorted_cols], w[sorted_cols],
                   (np.cumsum(pooled_new) - 1)[at], w, weight is not None,
                   order.astype(np.int64))

    @property
    def n_groups(self) -> int:
        """Number of groups."""
        return int(self.run_base.shape[0] - 1)


@numba_kernels
def _kernels() -> Any:
    """The compiled replicate kernel, or None without numba."""

    @njit(nogil=True)
    def sweep(p, q, n_runs, metric):  # pragma: no cover - compiled
        # the metric of one replicate from the weights (or counts) per run, ascending score;
        # clears p and q for the next group. Integer counts keep the AUC's numerator exact.
        if metric == 0:
            num = p[0] * np.int64(0)  # int64 for counts, float64 for weights
            below = num
            total = num
            for t in range(n_runs):
                num += p[t] * (2 * below + q[t])
                below += q[t]
                total += p[t]
                p[t] = 0
                q[t] = 0
            return num / (2.0 * total * below) if total > 0 and below > 0 else np.nan
        tp = p[0] * np.int64(0)
        fp = tp
        acc = 0.0
        for t in range(n_runs - 1, -1, -1):
            tp += p[t]
            fp += q[t]
            if p[t] > 0:
                acc += p[t] * tp / (tp + fp)
            p[t] = 0
            q[t] = 0
        return acc / tp if tp > 0 else 0.0

    @njit(nogil=True)
    def pooled_auc_counts(mult, new, positive):  # pragma: no cover - compiled
        # the pooled ROC AUC from the multiplicities of the samples in ascending score (a run
        # of tied scores starts where ``new``), in exact integers; clears mult
        num = np.int64(0)
        below = np.int64(0)
        total = np.int64(0)
        pr = np.int64(0)
        qr = np.int64(0)
        for i in range(mult.shape[0]):
            if new[i]:
                num += pr * (2 * below + qr)
                below += qr
                total += pr
                pr = 0
                qr = 0
            m = np.int64(mult[i])
            mult[i] = 0
            on = m * positive[i]
            pr += on
            qr += m - on
        num += pr * (2 * below + qr)
        below += qr
        total += pr
        return num / (2.0 * total * below) if total > 0 and below > 0 else np.nan

    @njit(nogil=True)
    def pooled_weights(mult, new, positive, weight, metric):  # pragma: no cover - compiled
        # the pooled ROC AUC (weighted) or average precision, as pooled_auc_counts
        n = mult.shape[0]
        acc = 0.0
        below = 0.0
        total = 0.0
        pr = 0.0
        qr = 0.0
        for step in range(n):
            i = step if metric == 0 else n - 1 - step
            m = mult[i] * weight[i]
            mult[i] = 0
            if positive[i]:
                pr += m
            else:
                qr += m
            if metric == 0 and (i + 1 == n or new[i + 1]):
                acc += pr * (2.0 * below + qr)
                below += qr
                total += pr
                pr = 0.0
                qr = 0.0
            elif metric != 0 and new[i]:
                total += pr
                below += qr
                if pr > 0:
                    acc += pr * total / (total + below)
                pr = 0.0
                qr = 0.0
        if metric == 0:
            return acc / (2.0 * total * below) if total > 0 and below > 0 else np.nan
        return acc / total if total > 0 else 0.0

    @njit(nogil=True)
    def replicate(u, starts, run, run_base, weight, weighted, pooled_at, pooled_new,
                  pooled_positive, pooled_weight, metric, pooled, out,
                  out_pooled):  # pragma: no cover - compiled
        n_groups = run_base.shape[0] - 1
        width = 1
        longest = 1
        for g in range(n_groups):
            width = max(width, run_base[g + 1] - run_base[g])
        for s in range(starts.shape[0] - 1):
            longest = max(longest, starts[s + 1] - starts[s])
        pi = np.zeros(width, dtype=np.int32)
        qi = np.zeros(width, dtype=np.int32)
        pf = np.zeros(width)
        qf = np.zeros(width)
        drawn_run = np.empty(longest, dtype=np.int32)
        times = np.zeros(longest, dtype=np.int32)
        mult = np.zeros(u.shape[1] if pooled else 1, dtype=np.int32)
        slow = weighted or pooled
        for r in range(u.shape[0]):
            for g in range(n_groups):
                for c in range(2):
                    a = starts[2 * g + c]
                    size = starts[2 * g + c + 1] - a
                    scale = float(size)
                    if not slow:  # draw and look the run up in one loop, count in another
                        for j in range(size):
                            k = int(u[r, a + j] * scale)
                            drawn_run[j] = run[a + (k if k < size else size - 1)]
                        side_i = pi if c == 0 else qi
                        for j in range(size):
                            side_i[drawn_run[j]] += 1
                        continue
                    # how often each sample was drawn, then one pass over the stratum in
                    # order (its runs, weights and pooled positions are read in sequence)
                    for j in range(size):
                        k = int(u[r, a + j] * scale)
                        times[k if k < size else size - 1] += 1
                    side_i = pi if c == 0 else qi
                    side_f = pf if c == 0 else qf
                    for j in range(size):
                        t = times[j]
                        if t == 0:
                            continue
                        times[j] = 0
                        if weighted:
                            side_f[run[a + j]] += t * weight[a + j]
                        else:
                            side_i[run[a + j]] += t
                        if pooled:
                            mult[pooled_at[a + j]] += t
                n_runs = run_base[g + 1] - run_base[g]
                if weighted:
                    out[r, g] = sweep(pf, qf, n_runs, metric)
                else:
                    out[r, g] = sweep(pi, qi, n_runs, metric)
            if pooled and metric == 0 and not weighted:
                out_pooled[r] = pooled_auc_counts(mult, pooled_new, pooled_positive)
            elif pooled:
                out_pooled[r] = pooled_weights(mult, pooled_new, pooled_positive,
                                               pooled_weight, metric)

    return replicate


def _sweep_numpy(p: np.ndarray, q: np.ndarray, bounds: np.ndarray, metric: int) -> np.ndarray:
    """The metric of every replicate (rows) and segment of runs (``bounds``), numpy path."""
    starts = bounds[:-1]
    tot_p = np.add.reduceat(p, starts, axis=1)
    tot_q = np.add.reduceat(q, starts, axis=1)
    seg = np.repeat(np.arange(starts.shape[0]), np.diff(bounds))
    cq = np.cumsum(q, axis=1)
    cq0 = np.concatenate([np.zeros((q.shape[0], 1)), cq[:, starts[1:] - 1]], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        if metric == 0:
            below = cq - q - cq0[:, seg]
            num = np.add.reduceat(p * (below + 0.5 * q), starts, axis=1)
            ok = (tot_p > 0) & (tot_q > 0)
            return np.where(ok, num / np.where(ok, tot_p * tot_q, 1.0), np.nan)
        cp = np.cumsum(p, axis=1)
        cp0 = np.concatenate([np.zeros((p.shape[0], 1)), cp[:, starts[1:] - 1]], axis=1)
        tp = tot_p[:, seg] - (cp - p - cp0[:, seg])
        fp = tot_q[:, seg] - (cq - q - cq0[:, seg])
        prec = np.where(p > 0, p * tp / np.where(tp + fp > 0, tp + fp, 1.0), 0.0)
        acc = np.add.reduceat(prec, starts, axis=1)
        return np.where(tot_p > 0, acc / np.where(tot_p > 0, tot_p, 1.0), 0.0)


def _replicate_numpy(u: np.ndarray, data: StratifiedSamples, metric: int, pooled: bool,
                     out: np.ndarray, out_pooled: np.ndarray) -> None:
    b, n = u.shape
    starts = data.starts
    sizes = np.diff(starts)
    first = np.repeat(starts[:-1], sizes)
    size = np.repeat(sizes, sizes)
    positive = np.repeat(np.arange(sizes.shape[0]) % 2 == 0, sizes)
    k = first + np.minimum((u * size).astype(np.int64), size - 1)
    w = data.weight[k]
    rows = np.arange(b)[:, None]

    def counts(ids: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
        flat = ids + rows * width
        p = np.bincount(flat[:, positive].ravel(), w[:, positive].ravel(), b * width)
        q = np.bincount(flat[:, ~positive].ravel(), w[:, ~positive].ravel(), b * width)
        return p.reshape(b, width), q.reshape(b, width)

    glob = data.run + np.repeat(data.run_base[:-1], np.diff(starts).reshape(-1, 2).sum(axis=1))
    p, q = counts(glob[k], int(data.run_base[-1]))
    out[:] = _sweep_numpy(p, q, data.run_base, metric)
    if pooled:
        n_pooled = int(data.pooled_run.max()) + 1 if n else 1
        p, q = counts(data.pooled_run[k], n_pooled)
        out_pooled[:] = _sweep_numpy(p, q, np.array([0, n_pooled]), metric)[:, 0]


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
    >>> s = StratifiedSamples.build(np.array([0, 1, 1, 0], bool), np.array([.3, .8, .3, .1]),
    ...                             None, np.array([4]))
    >>> u = np.array([[0.1, 0.6, 0.2, 0.9]])   # positives 1 and 2, negatives 0 and 3
    >>> replicate_chunk(u, s, "roc_auc", use_numba=False)[0].tolist()
    [[0.875]]
    """
    code = _METRICS[metric]
    b = u.shape[0]
    out = np.empty((b, data.n_groups))
    out_pooled = np.empty(b)
    kern = _kernels() if use_numba is not False else None
    if use_numba and kern is None:
        raise ImportError("use_numba=True needs numba, which is disabled or not installed")
    if kern is not None:
        kern(np.ascontiguousarray(u), data.starts, data.run, data.run_base, data.weight,
             data.weighted, data.pooled_at, data.pooled_new, data.pooled_positive,
             data.pooled_weight, code, pooled, out, out_pooled)
    else:
        _replicate_numpy(u, data, code, pooled, out, out_pooled)
    return out, (out_pooled if pooled else None)


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
    >>> s = StratifiedSamples.build(np.array([0, 1, 0, 1], bool), np.array([.2, .7, .4, .3]),
    ...                             None, np.array([2, 2]))
    >>> vals, _ = score_replicates(s, "roc_auc", 3, np.random.default_rng(0))
    >>> vals.tolist()   # one positive and one negative per group: nothing varies
    [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]]
    """
    n = int(data.starts[-1])
    if budget is None:
        compiled = use_numba is not False and _kernels() is not None
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
