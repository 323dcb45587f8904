"""Binning one chunk of scores into a :class:`~confmat.binned.ScoreHistogram`: the numba
kernels of :mod:`confmat.counting.binned_kernels` (optional) or numpy, with the same bins."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..deps import numba_kernels, numba_module
from ..inputs.targets import finite_float

#: Chunks at least this long are binned by the numba kernel when numba is installed.
NUMBA_MIN_SIZE = 1 << 16


@numba_kernels
def _kernels() -> Any:
    from ..counting.binned_kernels import accumulate, count_rows

    return numba_module(), accumulate, count_rows


def count_in_place(codes: np.ndarray, s: np.ndarray, counts: np.ndarray, edges: np.ndarray,
                   score_range: tuple[float, float], name: str = "y_score") -> bool:
    """Add an unweighted chunk straight into ``counts`` with the numba kernel, if it applies.

    Unweighted chunks on one thread (the chunks of a stream) go straight into ``counts``,
    without temporaries; a bad score takes the chunk back out before the error, so a rejected
    chunk still leaves the histogram untouched. It applies only when numba is installed, the
    chunk has at least ``NUMBA_MIN_SIZE`` scores, numba runs on one thread and ``counts`` is
    C-contiguous; otherwise nothing is touched and the caller bins with :func:`bin_chunk`.

    Parameters
    ----------
    codes : numpy.ndarray of int, shape (n,)
        Codes of the true classes: indices into the first axis of ``counts``.
    s : numpy.ndarray of float, shape (n, C)
        The scores, one column per score column of the histogram.
    counts : numpy.ndarray of int64, shape (K, C, bins)
        The histogram's counts, updated in place.
    edges : numpy.ndarray, shape (bins + 1,)
        The bin edges (:attr:`ScoreHistogram.edges <confmat.binned.ScoreHistogram.edges>`).
    score_range : tuple of float
        ``(lo, hi)``, the range every score must lie in.
    name : str, default 'y_score'
        The scores' argument name, for the message.

    Returns
    -------
    bool
        True when the chunk was counted here, False when it was left to :func:`bin_chunk`.

    Raises
    ------
    ValueError
        A score outside ``score_range`` (:func:`range_error`); ``counts`` is unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.binned.binning import count_in_place
    >>> counts = np.zeros((2, 1, 2), dtype=np.int64)
    >>> edges = np.array([0.0, 0.5, 1.0])
    >>> count_in_place(np.array([0, 1]), np.array([[0.2], [0.7]]), counts, edges, (0.0, 1.0))
    False
    """
    kern = _kernels() if codes.shape[0] * counts.shape[1] >= NUMBA_MIN_SIZE else None
    if kern is None or int(kern[0].get_num_threads()) > 1 or not counts.flags.c_contiguous:
        return False
    _, _, count_rows = kern
    lo, hi = score_range
    b = counts.shape[2]
    args = (np.ascontiguousarray(codes), np.ascontiguousarray(s), edges, lo,
            b / (hi - lo), b, counts.shape[1], counts.reshape(-1))
    bad = count_rows(*args, 1)
    if bad >= 0:
        count_rows(*args, -1)
        range_error(s, int(bad), score_range, name)
    return True

def bin_chunk(codes: np.ndarray, s: np.ndarray, w: np.ndarray | None, shape: tuple[int, ...],
              edges: np.ndarray, score_range: tuple[float, float],
              name: str = "y_score") -> np.ndarray:
    """Histogram of one chunk of scores: numba when the chunk is long enough, else numpy.

    Both place a score ``x`` in the bin ``j`` with ``edges[j] <= x < edges[j + 1]`` (the top
    edge included in the last bin).

    Parameters
    ----------
    codes : numpy.ndarray of int, shape (n,)
        Codes of the true classes, in ``[0, K)``.
    s : numpy.ndarray of float, shape (n, C)
        The scores, one column per score column.
    w : numpy.ndarray of float, shape (n,), or None
        Sample weights, or None to count.
    shape : tuple of int
        ``(K, C, bins)``, the shape of the histogram.
    edges : numpy.ndarray, shape (bins + 1,)
        The bin edges.
    score_range : tuple of float
        ``(lo, hi)``, the range every score must lie in.
    name : str, default 'y_score'
        The scores' argument name, for the message.

    Returns
    -------
    numpy.ndarray, shape (K, C, bins)
        Counts (int64) without weights, sums of weights (float64) with them.

    Raises
    ------
    ValueError
        Naming the first row with a score outside ``score_range``.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.binned.binning import bin_chunk
    >>> edges = np.array([0.0, 0.5, 1.0])
    >>> s = np.array([[0.2], [0.5], [1.0]])
    >>> bin_chunk(np.array([0, 1, 1]), s, None, (2, 1, 2), edges, (0.0, 1.0)).tolist()
    [[[1, 0]], [[0, 2]]]
    """
    lo, hi = score_range
    k, c, b = shape
    kern = _kernels() if codes.shape[0] * c >= NUMBA_MIN_SIZE else None
    if kern is not None:
        numba, accumulate, _ = kern
        flat, bad = accumulate(
            np.ascontiguousarray(codes),
            np.ascontiguousarray(s),
            np.ones(1) if w is None else np.ascontiguousarray(w),
            w is not None,
            edges,
            lo,
            b / (hi - lo),
            b,
            c,
            k,
            max(1, int(numba.get_num_threads())),
        )
        if (bad >= 0).any():
            range_error(s, int(bad[bad >= 0].min()), score_range, name)
        return flat.reshape(k, c, b)
    out_of_range = ~((s >= lo) & (s <= hi))  # NaN too, as in the kernels
    if out_of_range.any():
        range_error(s, int(np.argwhere(out_of_range)[0][0]), score_range, name)
    j = ((s - lo) * (b / (hi - lo))).astype(np.int64)
    np.clip(j, 0, b - 1, out=j)
    upper = np.append(edges[1:-1], np.inf)
    j -= s < edges[j]
    j += s >= upper[j]
    idx = (codes[:, None] * c + np.arange(c)) * b + j
    ww = None if w is None else np.repeat(w, c)
    flat = np.bincount(idx.ravel(), weights=ww, minlength=k * c * b)
    if w is None:
        flat = flat.astype(np.int64)
    return flat.reshape(k, c, b)

def range_error(s: np.ndarray, row: int, score_range: tuple[float, float],
                name: str = "y_score") -> None:
    """Raise the ValueError of the first bad score: NaN or infinite anywhere, else a score
    outside ``score_range`` at ``row``.

    The bin lookup rejects NaN and infinite scores with the out-of-range ones (one test, no
    separate pass), so the error names the non-finite score first, in the words of the input
    door (:func:`confmat.inputs.targets.finite_float`; a binary histogram's single score
    column as the 1-D array it was given).

    Parameters
    ----------
    s : numpy.ndarray of float, shape (n, C)
        The scores of the chunk.
    row : int
        A row of ``s`` holding a score outside ``score_range``.
    score_range : tuple of float
        ``(lo, hi)``.
    name : str, default 'y_score'
        The scores' argument name (an Accumulator's ``scores``).

    Raises
    ------
    ValueError
        Always: the position of the first NaN or infinite score, or else the first bad score
        of the row, the range and the row.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.binned.binning import range_error
    >>> range_error(np.array([[0.5], [1.5]]), 1, (0.0, 1.0))
    Traceback (most recent call last):
    ...
    ValueError: y_score has a score 1.5 outside score_range=(0.0, 1.0) at row 1; choose a score_range that covers every score
    """
    finite_float(s[:, 0] if s.shape[1] == 1 else s, s.shape[0], name)
    lo, hi = score_range
    bad = float(s[row][(s[row] < lo) | (s[row] > hi)][0])
    raise ValueError(
        f"{name} has a score {bad!r} outside score_range=({lo}, {hi}) at row {row}; "
        "choose a score_range that covers every score"
    )

