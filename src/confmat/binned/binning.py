"""Binning one chunk of scores into a :class:`~confmat.binned.ScoreHistogram`: the numba
kernels of :mod:`confmat.counting.binned_kernels` (optional) or numpy, with the same bins."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..deps import numba_kernels, numba_module

#: Chunks at least this long are binned by the numba kernel when numba is installed.
NUMBA_MIN_SIZE = 1 << 16


@numba_kernels
def _kernels() -> Any:
    from ..counting.binned_kernels import accumulate, count_rows

    return numba_module(), accumulate, count_rows


def count_in_place(codes: np.ndarray, s: np.ndarray, counts: np.ndarray, edges: np.ndarray,
                   score_range: tuple[float, float]) -> bool:
    """Unweighted chunks on one thread (the chunks of a stream) go straight into
    ``counts``, without temporaries; a bad score takes the chunk back out before the
    error, so a rejected chunk still leaves the histogram untouched. False when the
    chunk is binned by :func:`bin_chunk` instead."""
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
        range_error(s, int(bad), score_range)
    return True

def bin_chunk(codes: np.ndarray, s: np.ndarray, w: np.ndarray | None, shape: tuple[int, ...],
              edges: np.ndarray, score_range: tuple[float, float]) -> np.ndarray:
    """Histogram ``shape`` (K, C, bins) of one chunk: numba when long enough, else numpy;
    ValueError naming the first row with a score outside ``score_range``."""
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
            range_error(s, int(bad[bad >= 0].min()), score_range)
        return flat.reshape(k, c, b)
    out_of_range = (s < lo) | (s > hi)
    if out_of_range.any():
        range_error(s, int(np.argwhere(out_of_range)[0][0]), score_range)
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

def range_error(s: np.ndarray, row: int, score_range: tuple[float, float]) -> None:
    """Raise the ValueError of a score outside ``score_range`` at ``row``."""
    lo, hi = score_range
    bad = float(s[row][(s[row] < lo) | (s[row] > hi)][0])
    raise ValueError(
        f"y_score has a score {bad!r} outside score_range=({lo}, {hi}) at row {row}; "
        "choose a score_range that covers every score"
    )

