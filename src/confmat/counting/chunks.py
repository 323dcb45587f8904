"""How a chunk of a stream is counted: the compiled kernel once chunks are not tiny, on one
thread unless the chunk is very large, and a chunk of zero weights kept as a class-bearing
zero table. Used by :class:`~confmat.Accumulator`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from ..deps import loaded
from ..inputs.columns import LabelColumn
from ..inputs.encode import weights_1d
from .kernels import confusion_counts

__all__ = ["NUMBA_CHUNK_SIZE", "PARALLEL_CHUNK_SIZE", "count_chunk", "one_thread"]

#: Chunks at least this long use the numba counting kernel (when numba is installed).
NUMBA_CHUNK_SIZE = 1 << 16
#: Chunks shorter than this are counted on the calling thread alone (see :func:`one_thread`).
PARALLEL_CHUNK_SIZE = 1 << 22


@contextmanager
def one_thread(n: int) -> Iterator[None]:
    """Run numba kernels on one thread for a chunk of ``n`` samples (thread-local setting).

    A parallel region per chunk ends in a barrier that waits for the slowest thread; on a busy
    machine that wait dominates chunk after chunk (measured: 10x slower). Streams get their
    parallelism from the pipeline instead (``confmat.io`` decodes the next batch on another
    thread); only very large chunks use every core.

    Parameters
    ----------
    n : int
        Samples in the chunk.

    Yields
    ------
    None

    Examples
    --------
    >>> with one_thread(10):
    ...     pass
    """
    numba = loaded("numba")
    if n >= PARALLEL_CHUNK_SIZE or numba is None:
        yield
        return
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(old)


def count_chunk(t: LabelColumn, p: LabelColumn, sample_weight: Any) -> tuple[np.ndarray, list[Any]]:
    """The table and sorted labels of one chunk.

    Chunks of a stream are counted by the compiled kernel once they are not tiny: its one-off
    start-up is paid once per stream, not once per chunk. A chunk may carry only zero weights
    even when the whole stream does not: its classes still count (a zero table over them).

    Parameters
    ----------
    t, p : LabelColumn of length n
        True and predicted labels (read by :func:`confmat.inputs.columns.check_label_pair`).
    sample_weight : array-like of shape (n,) or None
        Non-negative weights.

    Returns
    -------
    (ndarray, list)
        The K x K table and its labels.

    Raises
    ------
    ValueError, TypeError
        Bad labels or weights (from :func:`confmat.counting.kernels.confusion_counts`).

    Examples
    --------
    >>> table, labels = count_chunk(np.array([1, 2]), np.array([1, 1]), [0, 0])
    >>> table.tolist(), labels
    ([[0.0, 0.0], [0.0, 0.0]], [1, 2])
    """
    if sample_weight is not None:
        w = weights_1d(sample_weight)
        if w.dtype.kind in "iufb" and w.shape == (len(t),) and not w.any():
            table, labels, _ = confusion_counts(t, p)
            return np.zeros(table.shape, dtype=np.float64), labels
    use_numba = True if len(t) >= NUMBA_CHUNK_SIZE else None
    table, labels, _ = confusion_counts(t, p, sample_weight=sample_weight, use_numba=use_numba)
    return table, labels
