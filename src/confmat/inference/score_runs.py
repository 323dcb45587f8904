r"""ROC AUC and average precision of many resamples at once, from multiplicities.

A resample of ``n`` samples is a vector of *multiplicities* (how often each sample was drawn),
so its metrics need no new sort: the samples are sorted once, segment by segment (a segment is
a group; a problem without groups is one segment), and each distinct score of a segment (a
*run* of tied samples) is numbered. The metric of a replicate is then one sweep over the runs
(Mann and Whitney 1947, ties counted one half):

.. math::

    \mathrm{AUC} = \frac{\sum_t p_t\,(2\,Q_{<t} + q_t)}{2\,P\,Q}, \qquad
    \mathrm{AP} = \frac{1}{P} \sum_t \frac{p_t\,\mathrm{TP}_t}{\mathrm{TP}_t + \mathrm{FP}_t},

with ``p_t`` and ``q_t`` the positive and negative weight drawn in run ``t`` (multiplicity
times sample weight), ``Q_{<t}`` the negative weight of the lower runs, and ``TP_t`` /
``FP_t`` the weights at or above run ``t`` (scikit-learn's step average precision). A compiled
kernel (numba, :mod:`confmat.inference.score_runs_kernels`) does one pass per replicate; the
numpy path gives the same numbers (to rounding) with cumulative sums. Without weights the
kernel's sums are sums of integers, exact below 2**53.

Two kinds of resamples use it: the bootstrap of :func:`confmat.inference.score_ci` and
:func:`confmat.inference.paired_bootstrap` (multiplicities of ``n`` draws among ``n``,
:mod:`confmat.inference.score_resampling`), and the stratified bootstrap of every group at
once (:func:`stratified_values`, drawn from uniform numbers;
:mod:`confmat.groups.score_bootstrap` describes its draws).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..deps import numba_kernels

__all__ = ["METRIC_CODES", "ScoreRuns", "multiplicities", "stratified_multiplicities",
           "stratified_values"]

#: the kernels' code of each metric
METRIC_CODES = {"roc_auc": 0, "average_precision": 1}


@numba_kernels
def _kernels() -> Any:
    """The module-level kernels of :mod:`confmat.inference.score_runs_kernels`, or None."""
    from . import score_runs_kernels

    return score_runs_kernels


def _code(metric: str) -> int:
    try:
        return METRIC_CODES[metric]
    except KeyError:
        raise ValueError(f"metric must be one of {sorted(METRIC_CODES)}, got {metric!r}") from None


def _kernels_or_none(use_numba: bool | None) -> Any:
    kern = _kernels() if use_numba is not False else None
    if use_numba and kern is None:
        raise ImportError("use_numba=True needs numba, which is disabled or not installed")
    return kern


@dataclass(frozen=True)
class ScoreRuns:
    """Binary scores sorted once, segment by segment, into runs of tied scores.

    The runs are numbered in the order (segment, score) ascending; each sample gets the
    *slot* of its run and class, ``2 * run`` for a positive and ``2 * run + 1`` for a
    negative, so that a replicate adds every drawn sample's weight into its slot without a
    branch on its class, then sweeps the runs.

    Parameters
    ----------
    slot : ndarray of int64, shape (n,)
        Each sample's slot.
    weight : ndarray of float64, shape (n,), or None
        Sample weights (None: every sample counts once).
    segment_runs : ndarray of int64, shape (S + 1,)
        Segment ``s`` holds the runs ``segment_runs[s]:segment_runs[s + 1]``.
    """

    slot: np.ndarray
    weight: np.ndarray | None
    segment_runs: np.ndarray

    @classmethod
    def build(cls, pos: np.ndarray, score: np.ndarray, weight: np.ndarray | None = None,
              sizes: np.ndarray | None = None) -> ScoreRuns:
        """Sort validated binary samples (given segment by segment) into runs.

        Parameters
        ----------
        pos : ndarray of bool, shape (n,)
            Which samples are positive.
        score : ndarray of float64, shape (n,)
            Scores (finite).
        weight : ndarray of float64, shape (n,), optional
            Non-negative sample weights.
        sizes : ndarray of int, shape (S,), optional
            Samples per segment, each at least 1: the first ``sizes[0]`` samples are segment
            0, and so on. By default one segment.

        Returns
        -------
        ScoreRuns

        Raises
        ------
        ValueError
            ``sizes`` with a length below 1 or a sum other than ``n``.

        Examples
        --------
        >>> r = ScoreRuns.build(np.array([0, 1, 1, 0], bool), np.array([.3, .8, .3, .1]),
        ...                     sizes=np.array([3, 1]))
        >>> r.slot.tolist(), r.segment_runs.tolist()   # runs 0.3 and 0.8, then 0.1
        ([1, 2, 0, 5], [0, 2, 3])
        """
        pos = np.asarray(pos, dtype=bool)
        score = np.asarray(score, dtype=np.float64)
        n = pos.shape[0]
        new = np.ones(n, dtype=bool)
        if sizes is None:
            order = np.argsort(score)
            first = np.zeros(1, dtype=np.int64)
        else:
            sizes = np.asarray(sizes, dtype=np.int64)
            if sizes.ndim != 1 or (sizes < 1).any() or sizes.sum() != n:
                raise ValueError(f"sizes must be positive segment lengths that add up to the "
                                 f"{n} samples, got {sizes.tolist()[:10]}")
            first = np.cumsum(sizes) - sizes
            order = _segment_order(score, sizes, first)
        s = score[order]
        new[1:] = s[1:] != s[:-1]
        new[first] = True
        run_sorted = np.cumsum(new) - 1
        slot = np.empty(n, dtype=np.int64)
        slot[order] = 2 * run_sorted
        slot += ~pos
        segment_runs = np.r_[run_sorted[first], run_sorted[-1] + 1 if n else 0]
        w = None if weight is None else np.asarray(weight, dtype=np.float64)
        return cls(slot, w, segment_runs.astype(np.int64))

    @property
    def n_segments(self) -> int:
        """Number of segments."""
        return int(self.segment_runs.shape[0] - 1)

    @property
    def n_runs(self) -> int:
        """Number of runs of all segments."""
        return int(self.segment_runs[-1])

    def relabelled(self, at: np.ndarray) -> ScoreRuns:
        """The same runs with the samples renumbered: sample ``i`` becomes ``at[i]``.

        A resampling scheme that lays the samples out in its own order (the strata of
        :func:`stratified_values`) reads multiplicities in that order.

        Parameters
        ----------
        at : ndarray of int, shape (n,)
            A permutation: the new number of each sample.

        Returns
        -------
        ScoreRuns

        Examples
        --------
        >>> r = ScoreRuns.build(np.array([0, 1], bool), np.array([.9, .2]))
        >>> r.slot.tolist(), r.relabelled(np.array([1, 0])).slot.tolist()
        ([3, 0], [0, 3])
        """
        at = np.asarray(at, dtype=np.int64)
        slot = np.empty_like(self.slot)
        slot[at] = self.slot
        weight = None
        if self.weight is not None:
            weight = np.empty_like(self.weight)
            weight[at] = self.weight
        return replace(self, slot=slot, weight=weight)

    def weight_or_ones(self) -> np.ndarray:
        """The sample weights, or ones without weights.

        Returns
        -------
        ndarray of float64, shape (n,)
        """
        return np.ones(self.slot.shape[0]) if self.weight is None else self.weight

    def values(self, metric: str, mult: np.ndarray | None = None, *,
               empty_ap: float = np.nan, use_numba: bool | None = None) -> np.ndarray:
        """ROC AUC or average precision of every segment in every replicate.

        Parameters
        ----------
        metric : {'roc_auc', 'average_precision'}
            The metric.
        mult : ndarray of shape (B, n), optional
            Multiplicities (integers, or floats), one replicate per row, in sample order. By
            default one replicate in which every sample counts once: the metrics of the
            samples.
        empty_ap : float, default nan
            The average precision of a segment without positive weight (scikit-learn gives
            0.0).
        use_numba : bool, optional
            Force the compiled kernel (True) or the numpy path (False); by default the kernel
            when numba is available and ``mult`` is given (the metrics of the samples alone
            are one vectorised numpy pass, cheaper than loading numba in a new process).

        Returns
        -------
        ndarray of float64, shape (B, S)
            ROC AUC is NaN in a segment without positive or without negative weight.

        Raises
        ------
        ValueError
            An unknown metric, or ``mult`` not of shape (B, n).
        ImportError
            ``use_numba=True`` without numba.

        Examples
        --------
        >>> r = ScoreRuns.build(np.array([0, 1, 1, 0], bool), np.array([.3, .8, .3, .1]))
        >>> r.values("roc_auc").tolist()
        [[0.875]]
        >>> mult = np.array([[0, 1, 1, 2],    # both positives above the lowest negative, twice
        ...                  [2, 0, 2, 0]])   # the tied 0.3s only: one half
        >>> r.values("roc_auc", mult).tolist()
        [[1.0], [0.5]]
        """
        code = _code(metric)
        if mult is None and not use_numba:  # one pass: numpy's is fast, loading numba is not
            return self._values_numpy(None, code, empty_ap)
        if mult is not None:
            self._check_rows(mult, "mult")
        if mult is None:
            mult = np.ones((1, self.slot.shape[0]), dtype=np.int64)
        kern = _kernels_or_none(use_numba)
        if kern is None:
            return self._values_numpy(mult, code, empty_ap)
        out = np.empty((mult.shape[0], self.n_segments))
        kern.multiplicity_rows(np.ascontiguousarray(mult), self.slot, self.weight_or_ones(),
                               self.segment_runs, code, float(empty_ap), out)
        return out

    def values_of_draws(self, metric: str, draws: np.ndarray, *, empty_ap: float = np.nan,
                        use_numba: bool | None = None) -> np.ndarray:
        """:meth:`values` of the replicates that drew the samples ``draws`` (with repeats):
        the multiplicities of row ``r`` are how often each sample occurs in ``draws[r]``.

        Parameters
        ----------
        metric : {'roc_auc', 'average_precision'}
            The metric.
        draws : ndarray of int, shape (B, m)
            Sample indices in ``[0, n)``, one replicate per row.
        empty_ap, use_numba
            As in :meth:`values`.

        Returns
        -------
        ndarray of float64, shape (B, S)

        Raises
        ------
        ValueError
            An unknown metric, or ``draws`` not two-dimensional.
        IndexError
            A draw outside ``[0, n)``.
        ImportError
            ``use_numba=True`` without numba.

        Examples
        --------
        >>> r = ScoreRuns.build(np.array([0, 1, 1, 0], bool), np.array([.3, .8, .3, .1]))
        >>> r.values_of_draws("roc_auc", np.array([[1, 2, 3, 3], [0, 0, 2, 2]])).tolist()
        [[1.0], [0.5]]
        """
        code = _code(metric)
        self._check_rows(draws, "draws", same_width=False)
        kern = _kernels_or_none(use_numba)
        if kern is None:
            return self._values_numpy(multiplicities(draws, self.slot.shape[0]), code, empty_ap)
        out = np.empty((draws.shape[0], self.n_segments))
        kern.draw_rows(np.ascontiguousarray(draws), self.slot, self.weight_or_ones(),
                       self.segment_runs, code, float(empty_ap), out)
        return out

    def _check_rows(self, rows: np.ndarray, name: str, same_width: bool = True) -> None:
        n = self.slot.shape[0]
        if rows.ndim != 2 or (same_width and rows.shape[1] != n):
            raise ValueError(f"{name} must have shape (B, {n if same_width else 'm'}), one "
                             f"replicate per row, got shape {rows.shape}")

    def _values_numpy(self, mult: np.ndarray | None, code: int, empty_ap: float) -> np.ndarray:
        width = 2 * self.n_runs
        pq: np.ndarray
        if mult is None:  # every sample once
            pq = np.bincount(self.slot, self.weight, width).astype(np.float64).reshape(1, -1, 2)
        else:
            b = mult.shape[0]
            m = mult.astype(np.float64)
            if self.weight is not None:
                m *= self.weight
            flat = self.slot + (np.arange(b, dtype=np.int64) * width)[:, None]
            pq = np.bincount(flat.ravel(), m.ravel(), b * width).reshape(b, -1, 2)
        return _sweep_numpy(pq[..., 0], pq[..., 1], self.segment_runs, code, empty_ap)


def _blocks(lengths: np.ndarray, first: np.ndarray) -> Any:
    """Segments of similar length as the rows of 2-D blocks: for each width (a power of two),
    the ``(m, width)`` positions of its ``m`` segments, padded with ``lengths.sum()`` (the
    index of one spare element after the data; padding is at most half of a block).

    Many short sorts or scans cost less than one long one, and a scan along the rows of a
    block never adds one segment's numbers into another's.
    """
    end = int(lengths.sum())
    width_of = np.left_shift(1, np.ceil(np.log2(np.maximum(lengths, 1))).astype(np.int64))
    for width in np.unique(width_of):
        segs = np.flatnonzero(width_of == width)
        col = np.arange(width)
        yield np.where(col < lengths[segs, None], first[segs, None] + col, end)


def _segment_order(score: np.ndarray, sizes: np.ndarray, first: np.ndarray) -> np.ndarray:
    """The samples sorted by score within each segment (segments in place); padding is +inf
    (scores are finite). At 10**6 samples in 1,000 segments a third of the time of one
    global ``argsort``."""
    n = score.shape[0]
    padded = np.append(score, np.inf)
    order = np.empty(n + 1, dtype=np.int64)
    for at in _blocks(sizes, first):
        order[at] = at[:, :1] + np.argsort(padded[at], axis=1)  # padding lands on order[n]
    return order[:n]


def _segment_cumsum(x: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Cumulative sums of the rows of ``x`` (B, R) within each segment ``bounds[s]:bounds[s +
    1]``, each segment summed on its own (no cancellation against the sums of earlier
    segments)."""
    r = x.shape[1]
    padded = np.concatenate([x, np.zeros((x.shape[0], 1))], axis=1)
    out = np.empty_like(padded)
    for at in _blocks(np.diff(bounds), bounds[:-1]):
        out[:, at] = np.cumsum(padded[:, at], axis=2)  # padding lands on column r
    return out[:, :r]


def _sweep_numpy(p: np.ndarray, q: np.ndarray, bounds: np.ndarray, metric: int,
                 empty_ap: float) -> np.ndarray:
    """The metric of every replicate (rows) and segment of runs (``bounds``) from the
    positive and negative weight of each run (B, R)."""
    starts = bounds[:-1]
    tot_p = np.add.reduceat(p, starts, axis=1)
    tot_q = np.add.reduceat(q, starts, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        if metric == 0:
            below = _segment_cumsum(q, bounds) - q
            num = np.add.reduceat(p * (2.0 * below + q), starts, axis=1)
            ok = (tot_p > 0) & (tot_q > 0)
            return np.where(ok, num / np.where(ok, 2.0 * tot_p * tot_q, 1.0), np.nan)
        # weights at or above each run: the scans of the reversed runs
        rev = p.shape[1] - bounds[::-1]
        tp = _segment_cumsum(p[:, ::-1], rev)[:, ::-1]
        fp = _segment_cumsum(q[:, ::-1], rev)[:, ::-1]
        prec = np.where(p > 0, p * tp / np.where(tp + fp > 0, tp + fp, 1.0), 0.0)
        acc = np.add.reduceat(prec, starts, axis=1)
        return np.where(tot_p > 0, acc / np.where(tot_p > 0, tot_p, 1.0), empty_ap)


def multiplicities(draws: np.ndarray, n: int) -> np.ndarray:
    """How often each of ``n`` samples occurs in each row of ``draws``.

    Parameters
    ----------
    draws : ndarray of int, shape (B, m)
        Sample indices in ``[0, n)``, one replicate per row.
    n : int
        Number of samples.

    Returns
    -------
    ndarray of int64, shape (B, n)

    Raises
    ------
    IndexError
        A draw outside ``[0, n)``.

    Examples
    --------
    >>> multiplicities(np.array([[1, 2, 3, 3], [0, 0, 2, 2]]), 4).tolist()
    [[0, 1, 1, 2], [2, 0, 2, 0]]
    """
    if draws.size and (draws.min() < 0 or draws.max() >= n):
        raise IndexError("draws must hold sample indices in [0, n)")
    b = draws.shape[0]
    flat = (draws + (np.arange(b, dtype=np.int64) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=b * n).reshape(b, n)


def stratified_multiplicities(u: np.ndarray, strata: np.ndarray) -> np.ndarray:
    """The multiplicities of the stratified bootstrap drawn by the uniform numbers ``u``.

    Column ``j`` of the stratum ``strata[s]:strata[s + 1]`` (of size ``z``, first column
    ``a``) draws the column ``a + min(floor(u[:, j] * z), z - 1)``: every stratum keeps its
    size in every replicate. Rounding ``u * z`` down maps the 2**53 values of ``u`` onto the
    ``z`` columns with a relative bias of at most ``z / 2**53``.

    Parameters
    ----------
    u : ndarray of float64, shape (B, n)
        Uniform numbers in [0, 1), one replicate per row.
    strata : ndarray of int64, shape (T + 1,)
        Column boundaries of the strata, from 0 to ``n``.

    Returns
    -------
    ndarray of int64, shape (B, n)

    Examples
    --------
    >>> stratified_multiplicities(np.array([[0.1, 0.6, 0.2, 0.9]]), np.array([0, 2, 4])).tolist()
    [[1, 1, 1, 1]]
    """
    n = u.shape[1]
    sizes = np.diff(strata)
    first = np.repeat(strata[:-1], sizes)
    size = np.repeat(sizes, sizes)
    return multiplicities(first + np.minimum((u * size).astype(np.int64), size - 1), n)


def stratified_values(u: np.ndarray, strata: np.ndarray, runs: ScoreRuns, metric: str,
                      pooled: ScoreRuns | None = None, *, empty_ap: float = np.nan,
                      use_numba: bool | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """:meth:`ScoreRuns.values` of the stratified bootstrap drawn by ``u``: the values of
    ``runs.values(metric, stratified_multiplicities(u, strata))``, in one compiled pass per
    replicate (no ``(B, n)`` multiplicities are stored).

    Parameters
    ----------
    u : ndarray of float64, shape (B, n)
        Uniform numbers, one replicate per row, columns in the sample order of ``runs``.
    strata : ndarray of int64, shape (T + 1,)
        Column boundaries of the strata (:func:`stratified_multiplicities`).
    runs : ScoreRuns
        The samples, in segments.
    metric : {'roc_auc', 'average_precision'}
        The metric.
    pooled : ScoreRuns, optional
        The same samples in one segment: its values are returned too.
    empty_ap, use_numba
        As in :meth:`ScoreRuns.values`.

    Returns
    -------
    values : ndarray of float64, shape (B, S)
    pooled : ndarray of float64, shape (B,), or None

    Raises
    ------
    ValueError
        An unknown metric, or ``u`` and ``strata`` that do not match the samples.

    Examples
    --------
    >>> runs = ScoreRuns.build(np.array([1, 1, 0, 0], bool), np.array([.8, .3, .3, .1]))
    >>> u = np.array([[0.1, 0.6, 0.2, 0.9]])   # positives 0 and 1, negatives 2 and 3
    >>> stratified_values(u, np.array([0, 2, 4]), runs, "roc_auc")[0].tolist()
    [[0.875]]
    """
    code = _code(metric)
    n = runs.slot.shape[0]
    if u.ndim != 2 or u.shape[1] != n or strata[0] != 0 or strata[-1] != n or (
            pooled is not None and pooled.slot.shape[0] != n):
        raise ValueError(f"u must have shape (B, {n}) and strata run from 0 to {n} (the samples "
                         f"of runs and pooled), got u of shape {u.shape} and strata "
                         f"{strata[0]}..{strata[-1]}")
    kern = _kernels_or_none(use_numba)
    if kern is None:
        mult = stratified_multiplicities(u, strata)
        whole = None if pooled is None else pooled.values(metric, mult, empty_ap=empty_ap,
                                                          use_numba=False)[:, 0]
        return runs.values(metric, mult, empty_ap=empty_ap, use_numba=False), whole
    out = np.empty((u.shape[0], runs.n_segments))
    out_pooled = np.empty(u.shape[0])
    p_slot, p_runs = (runs.slot, 0) if pooled is None else (pooled.slot, pooled.n_runs)
    kern.stratified_rows(np.ascontiguousarray(u), strata, runs.slot, runs.weight_or_ones(),
                         runs.weight is not None, runs.segment_runs, pooled is not None, p_slot,
                         p_runs, code, float(empty_ap), out, out_pooled)
    return out, (None if pooled is None else out_pooled)
