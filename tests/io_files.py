"""Files written for the io tests by codecs that are not confmat's: the compression a file's
name asks for (``.gz`` and ``.bz2`` by Python's codecs, ``.zst`` by pyarrow's)."""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path


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
