"""Helpers of the io tests that are not confmat's: files written by other codecs (the
compression a file's name asks for: ``.gz`` and ``.bz2`` by Python's codecs, ``.zst`` by
pyarrow's), and the scores a histogram's exact metrics are computed on."""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path

import numpy as np


def write_compressed(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, compressed as its extension says (``.gz``, ``.zst``,
    ``.bz2``; plain otherwise)."""
    if path.name.endswith(".zst"):
        import pyarrow as pa

        with pa.CompressedOutputStream(str(path), "zstd") as fh:
            fh.write(data)
        return
    if path.name.endswith(".gz"):
        data = gzip.compress(data)
    elif path.name.endswith(".bz2"):
        data = bz2.compress(data)
    path.write_bytes(data)


def floor_to_bin(scores: np.ndarray, bins: int) -> np.ndarray:
    """Each score rounded down to its bin's lower edge (edges j / bins, the last bin closed):
    the scores a histogram's exact metrics are those of (docs/scaling.md)."""
    edges = np.arange(bins + 1) / bins
    j = np.searchsorted(edges, scores, side="right") - 1
    return edges[np.clip(j, 0, bins - 1)]
