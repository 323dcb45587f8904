"""Compiled kernels of :mod:`confmat.inference.score_runs` (imported only with numba).

Module-level functions, so that numba's on-disk cache finds them again in a new process
(kernels defined inside a function and calling each other are compiled afresh every time).
A replicate adds each drawn sample's weight into the slot of its run and class
(:attr:`ScoreRuns.slot <confmat.inference.score_runs.ScoreRuns>`: no branch on the class),
then sweeps the runs of each segment once; nothing is sorted.
"""

import numpy as np

from ..deps import njit


@njit(nogil=True, boundscheck=False)
def sweep(pq, first, last, metric, empty_ap):  # pragma: no cover - compiled
    """The metric of the runs ``first:last`` from their weights, which it clears.

    Without weights the sums are of integers, exact below 2**53: the numerator of the AUC is
    ``2 U`` (Mann and Whitney 1947).

    Parameters
    ----------
    pq : numpy.ndarray of float64, shape (2 R,)
        ``pq[2 t]`` the positive and ``pq[2 t + 1]`` the negative weight of run ``t``.
    first, last : int
        The runs of the segment.
    metric : int
        0 for ROC AUC (NaN without positive or negative weight), 1 for average precision.
    empty_ap : float
        The average precision without positive weight.

    Returns
    -------
    float
    """
    if metric == 0:
        num = 0.0
        below = 0.0
        total = 0.0
        for t in range(first, last):
            p = pq[2 * t]
            q = pq[2 * t + 1]
            num += p * (2.0 * below + q)
            below += q
            total += p
            pq[2 * t] = 0.0
            pq[2 * t + 1] = 0.0
        return num / (2.0 * total * below) if total > 0 and below > 0 else np.nan
    tp = 0.0
    fp = 0.0
    acc = 0.0
    for t in range(last - 1, first - 1, -1):
        p = pq[2 * t]
        tp += p
        fp += pq[2 * t + 1]
        seen = tp + fp
        # no branch on p (often 0 in a replicate): a run without positive weight adds 0.0
        acc += p * tp / (seen if seen > 0 else 1.0)
        pq[2 * t] = 0.0
        pq[2 * t + 1] = 0.0
    return acc / tp if tp > 0 else empty_ap


@njit(nogil=True, boundscheck=False)
def sweep_segments(pq, segment_runs, metric, empty_ap, out):  # pragma: no cover - compiled
    """:func:`sweep` of every segment into ``out``.

    Parameters
    ----------
    pq : numpy.ndarray of float64, shape (2 R,)
        The runs' weights (cleared).
    segment_runs : numpy.ndarray of int64, shape (S + 1,)
        Segment ``s`` holds the runs ``segment_runs[s]:segment_runs[s + 1]``.
    metric, empty_ap
        As in :func:`sweep`.
    out : numpy.ndarray of float64, shape (S,)
        Receives the values.
    """
    for s in range(segment_runs.shape[0] - 1):
        out[s] = sweep(pq, segment_runs[s], segment_runs[s + 1], metric, empty_ap)


@njit(nogil=True, boundscheck=False)
def multiplicity_rows(mult, slot, weight, segment_runs, metric, empty_ap,
                      out):  # pragma: no cover - compiled
    """The metric of every segment in every replicate given by its multiplicities.

    Parameters
    ----------
    mult : numpy.ndarray of int or float, shape (B, n)
        Multiplicities, one replicate per row (sample order).
    slot : numpy.ndarray of int64, shape (n,)
        Each sample's slot: ``2 * run + (0 if positive else 1)``.
    weight : numpy.ndarray of float64, shape (n,)
        Sample weights (ones without weights: ``m * 1.0`` is exact).
    segment_runs : numpy.ndarray of int64, shape (S + 1,)
        The runs of each segment.
    metric, empty_ap
        As in :func:`sweep`.
    out : numpy.ndarray of float64, shape (B, S)
        Receives the values.
    """
    pq = np.zeros(2 * segment_runs[-1])
    for r in range(mult.shape[0]):
        for i in range(mult.shape[1]):
            pq[slot[i]] += mult[r, i] * weight[i]
        sweep_segments(pq, segment_runs, metric, empty_ap, out[r])


@njit(nogil=True, boundscheck=False)
def draw_rows(draws, slot, weight, segment_runs, metric, empty_ap,
              out):  # pragma: no cover - compiled
    """The metric of every segment in every replicate given by the samples it drew.

    Parameters
    ----------
    draws : numpy.ndarray of int, shape (B, m)
        The samples drawn by each replicate (with repeats), in ``[0, n)`` (else IndexError).
    slot, weight, segment_runs, metric, empty_ap
        As in :func:`multiplicity_rows`.
    out : numpy.ndarray of float64, shape (B, S)
        Receives the values.
    """
    pq = np.zeros(2 * segment_runs[-1])
    n = slot.shape[0]
    for r in range(draws.shape[0]):
        for j in range(draws.shape[1]):
            i = draws[r, j]
            if i < 0 or i >= n:  # the loads below are not bounds-checked
                raise IndexError("draws must hold sample indices in [0, n)")
            pq[slot[i]] += weight[i]
        sweep_segments(pq, segment_runs, metric, empty_ap, out[r])


@njit(nogil=True, boundscheck=False)
def stratified_rows(u, strata, slot, weight, weighted, segment_runs, pooled, p_slot, p_runs,
                    metric, empty_ap, out, out_pooled):  # pragma: no cover - compiled
    """The metrics of the stratified bootstrap replicates drawn by ``u``.

    Column ``j`` of the stratum ``strata[s]:strata[s + 1]`` (size ``z``, first column
    ``a``) draws the column ``a + min(floor(u[r, j] * z), z - 1)``. Weights are added once
    per drawn sample (multiplicity times weight) in column order.

    Parameters
    ----------
    u : numpy.ndarray of float64, shape (B, n)
        Uniform numbers, one replicate per row.
    strata : numpy.ndarray of int64, shape (T + 1,)
        Column boundaries of the strata.
    slot, weight, segment_runs
        The segments' runs, as in :func:`multiplicity_rows`.
    weighted : bool
        Whether ``weight`` holds sample weights (else ones: each stratum's draws are counted
        directly).
    pooled : bool
        Also compute the metric of the runs ``p_slot`` (one segment of ``p_runs`` runs, the
        same weights) into ``out_pooled``.
    p_slot : numpy.ndarray of int64, shape (n,)
        The pooled slots.
    p_runs : int
        Number of pooled runs.
    metric, empty_ap
        As in :func:`sweep`.
    out : numpy.ndarray of float64, shape (B, S)
        Receives the values per segment.
    out_pooled : numpy.ndarray of float64, shape (B,)
        Receives the pooled values (when ``pooled``).
    """
    longest = 1
    for s in range(strata.shape[0] - 1):
        longest = max(longest, strata[s + 1] - strata[s])
    pq = np.zeros(2 * segment_runs[-1])
    pq_pooled = np.zeros(2 * p_runs if pooled else 2)
    drawn = np.empty(longest, np.int64)
    times = np.zeros(longest, np.int32)
    slow = weighted or pooled
    for r in range(u.shape[0]):
        for s in range(strata.shape[0] - 1):
            a = strata[s]
            size = strata[s + 1] - a
            scale = float(size)
            if not slow:  # draw and look the slot up in one loop, count in another
                for j in range(size):
                    k = int(u[r, a + j] * scale)
                    drawn[j] = slot[a + (k if k < size else size - 1)]
                for j in range(size):
                    pq[drawn[j]] += 1.0
                continue
            # how often each column was drawn, then one pass over the stratum in order
            for j in range(size):
                k = int(u[r, a + j] * scale)
                times[k if k < size else size - 1] += 1
            for j in range(size):
                v = times[j] * weight[a + j]
                times[j] = 0
                pq[slot[a + j]] += v
                if pooled:
                    pq_pooled[p_slot[a + j]] += v
        sweep_segments(pq, segment_runs, metric, empty_ap, out[r])
        if pooled:
            out_pooled[r] = sweep(pq_pooled, 0, p_runs, metric, empty_ap)
