"""Compiled kernels of :class:`confmat.binned.ScoreHistogram` (imported only with numba).

Module-level functions, so that numba's on-disk cache finds them again in a new process
(kernels defined inside a function and calling each other are compiled afresh every time).
The bin lookup is written out in each loop on purpose: moved into a helper function it made
the loops three times slower (measured).

``bin_rows`` and ``count_rows`` look alike (``duplicates`` reports them) but stay two loops:
``bin_rows`` adds float weights into a per-thread float64 buffer, ``count_rows`` adds a signed
integer ``delta`` into the int64 counts in place (so a rejected chunk can be taken back
exactly). One merged loop would have to add one value type into both array types, which
needs a cast in the innermost statement of the hottest loop; the copy is the price of exact
int64 counting at full speed.
"""

import numpy as np
from numba import prange

from ..deps import njit


@njit(nogil=True, boundscheck=False)
def bin_rows(codes, scores, weights, use_w, edges, lo, scale, nbins, ncols, s0, s1, loc):
    """Add the rows ``s0:s1`` into the flat histogram ``loc`` (index ``[code, col, bin]``).

    A plain loop: inside a parfor body the same code ran about 1.5x slower. A score outside the
    edges is skipped.

    Parameters
    ----------
    codes : numpy.ndarray of int64, shape (n,)
        Codes of the true classes.
    scores : numpy.ndarray of float64, shape (n, ncols)
        The scores, one column per score column of the histogram.
    weights : numpy.ndarray of float64, shape (n,)
        Sample weights, read only when ``use_w``.
    use_w : bool
        Add ``weights[i]`` instead of 1.
    edges : numpy.ndarray of float64, shape (nbins + 1,)
        The bin edges; a score outside ``[edges[0], edges[nbins]]`` is a bad row.
    lo : float
        The low end of the score range.
    scale : float
        ``nbins / (hi - lo)``: the first guess of a score's bin is ``(score - lo) * scale``,
        corrected by one against ``edges``.
    nbins : int
        Number of bins.
    ncols : int
        Number of score columns.
    s0, s1 : int
        The rows to add, ``s0 <= i < s1``.
    loc : numpy.ndarray of float64, shape (nclasses * ncols * nbins,)
        The buffer added into, in place.

    Returns
    -------
    int
        The first row in ``s0:s1`` with a score outside the edges, or -1.
    """
    bad = -1
    e0 = edges[0]
    e1 = edges[nbins]
    top = nbins - 1
    if ncols == 1 and not use_w:  # binary, unweighted: the common case, twice as fast
        for i in range(s0, s1):
            s = scores[i, 0]
            if not (s >= e0 and s <= e1):
                if bad < 0:
                    bad = i
                continue
            j = np.int64((s - lo) * scale)
            if j > top:
                j = top
            if j < 0:
                j = 0
            if s < edges[np.uint64(j)]:
                j -= 1
            elif j < top and s >= edges[np.uint64(j + 1)]:
                j += 1
            loc[np.uint64(codes[i] * nbins + j)] += 1.0  # unsigned: no wraparound test
        return bad
    for i in range(s0, s1):
        base = codes[i] * ncols * nbins
        w = weights[i] if use_w else 1.0
        for k in range(ncols):
            s = scores[i, k]
            if not (s >= e0 and s <= e1):
                if bad < 0:
                    bad = i
                continue
            j = np.int64((s - lo) * scale)
            if j > top:
                j = top
            if j < 0:
                j = 0
            if s < edges[np.uint64(j)]:
                j -= 1
            elif j < top and s >= edges[np.uint64(j + 1)]:
                j += 1
            loc[np.uint64(base + k * nbins + j)] += w
    return bad


@njit(parallel=True, nogil=True)
def accumulate(codes, scores, weights, use_w, edges, lo, scale, nbins, ncols, nclasses,
               nchunks):  # pragma: no cover - compiled
    """Histogram of all rows: ``nchunks`` slices binned in parallel by :func:`bin_rows`, summed.

    Parameters
    ----------
    codes : numpy.ndarray of int64, shape (n,)
        Codes of the true classes.
    scores : numpy.ndarray of float64, shape (n, ncols)
        The scores, one column per score column of the histogram.
    weights : numpy.ndarray of float64, shape (n,)
        Sample weights, read only when ``use_w``.
    use_w : bool
        Add ``weights[i]`` instead of 1.
    edges : numpy.ndarray of float64, shape (nbins + 1,)
        The bin edges; a score outside ``[edges[0], edges[nbins]]`` is a bad row.
    lo : float
        The low end of the score range.
    scale : float
        ``nbins / (hi - lo)``: the first guess of a score's bin is ``(score - lo) * scale``,
        corrected by one against ``edges``.
    nbins : int
        Number of bins.
    ncols : int
        Number of score columns.
    nclasses : int
        Number of classes (codes lie in ``[0, nclasses)``).
    nchunks : int
        Number of slices of rows, one per thread.

    Returns
    -------
    histogram : numpy.ndarray of float64, shape (nclasses * ncols * nbins,)
        The flat histogram ``[code, col, bin]``.
    bad : numpy.ndarray of int64, shape (nchunks,)
        Per slice, the first row with a score outside the edges, or -1.
    """
    n = scores.shape[0]
    step = (n + nchunks - 1) // nchunks
    out = np.zeros((nchunks, nclasses * ncols * nbins), np.float64)
    bad = np.full(nchunks, -1, np.int64)
    for c in prange(nchunks):
        s0 = c * step
        s1 = min(n, s0 + step)
        bad[c] = bin_rows(codes, scores, weights, use_w, edges, lo, scale, nbins, ncols,
                          s0, s1, out[c])
    return out.sum(axis=0), bad


@njit(nogil=True, boundscheck=False)
def count_rows(codes, scores, edges, lo, scale, nbins, ncols, counts, delta):
    """Add (``delta`` 1) or take back (``delta`` -1) unweighted rows in place into int64 counts.

    Scores outside the edges are skipped, so a second call with ``-delta`` undoes the first
    exactly.

    Parameters
    ----------
    codes : numpy.ndarray of int64, shape (n,)
        Codes of the true classes.
    scores : numpy.ndarray of float64, shape (n, ncols)
        The scores, one column per score column of the histogram.
    edges : numpy.ndarray of float64, shape (nbins + 1,)
        The bin edges; a score outside ``[edges[0], edges[nbins]]`` is a bad row.
    lo : float
        The low end of the score range.
    scale : float
        ``nbins / (hi - lo)``: the first guess of a score's bin is ``(score - lo) * scale``,
        corrected by one against ``edges``.
    nbins : int
        Number of bins.
    ncols : int
        Number of score columns.
    counts : numpy.ndarray of int64, shape (nclasses * ncols * nbins,)
        The flat counts ``[code, col, bin]``, changed in place.
    delta : int
        Added per score: 1 to count a chunk, -1 to take it back.

    Returns
    -------
    int
        The first row with a score outside the edges, or -1.
    """
    bad = -1
    e0 = edges[0]
    e1 = edges[nbins]
    top = nbins - 1
    if ncols == 1:  # binary: one score column, no inner loop
        for i in range(scores.shape[0]):
            s = scores[i, 0]
            if not (s >= e0 and s <= e1):
                if bad < 0:
                    bad = i
                continue
            j = np.int64((s - lo) * scale)
            if j > top:
                j = top
            if j < 0:
                j = 0
            if s < edges[np.uint64(j)]:
                j -= 1
            elif j < top and s >= edges[np.uint64(j + 1)]:
                j += 1
            counts[np.uint64(codes[i] * nbins + j)] += delta
        return bad
    for i in range(scores.shape[0]):
        base = codes[i] * ncols * nbins
        for k in range(ncols):
            s = scores[i, k]
            if not (s >= e0 and s <= e1):
                if bad < 0:
                    bad = i
                continue
            j = np.int64((s - lo) * scale)
            if j > top:
                j = top
            if j < 0:
                j = 0
            if s < edges[np.uint64(j)]:
                j -= 1
            elif j < top and s >= edges[np.uint64(j + 1)]:
                j += 1
            counts[np.uint64(base + k * nbins + j)] += delta
    return bad
