"""``.npy`` and ``.npz`` files as a source, read by :func:`numpy.load` (memory-mapped, no
pickles)."""

from __future__ import annotations

import zipfile
from typing import Any

import numpy as np

from .signatures import check_signature
from .source import ReadError, Source

__all__ = ["numpy_source"]


def numpy_source(name: str, files: list[str]) -> Source:
    """An ``.npy`` file (memory-mapped) or an ``.npz`` archive as a source.

    Columns: the fields of a structured array, the columns ``'0'``, ``'1'``, ... of a 2-D
    array, ``'0'`` for a 1-D array, the arrays of an ``.npz`` archive by name.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    files : list of str
        One file.

    Returns
    -------
    Source
        With ``arrays`` and the row count.

    Raises
    ------
    ValueError
        Several files, a file that is not a ``.npy`` / ``.npz`` file, Python objects
        (pickles), an array that is not 1-D, 2-D or structured, or ``.npz`` arrays that are
        not 1-D or differ in length.
    ReadError
        If the file is truncated or damaged.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.npy")
    >>> np.save(path, np.array([[0, 1], [1, 1], [1, 0]]))
    >>> src = numpy_source("p", [path])
    >>> src.columns, src.rows
    (['0', '1'], 3)
    """
    if len(files) > 1:
        raise ValueError(f"{name}: read .npy / .npz files one at a time")
    path = files[0]
    # numpy would take bytes without its mark for a pickle and blame "Python objects"
    check_signature(name, path, "npy")
    try:
        obj = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError as exc:
        if any(w in str(exc) for w in ("allow_pickle", "Object arrays", "Python objects")):
            raise ValueError(
                f"{name} holds Python objects (pickled); store labels as numbers or "
                "fixed-width strings") from exc
        if "mmap length" in str(exc):
            raise ReadError(f"{name} cannot be read whole: it is shorter than its header "
                            "declares (truncated)") from exc
        raise ReadError(f"{name} cannot be read whole: {exc}") from exc
    except (OSError, EOFError, zipfile.BadZipFile) as exc:
        raise ReadError(f"{name} cannot be read whole: {exc}") from exc
    keep: list[Any] = []
    if isinstance(obj, np.lib.npyio.NpzFile):
        keep.append(obj)
        try:
            arrays = {k: obj[k] for k in obj.files}
        except Exception as exc:  # zipfile and numpy raise many types on a damaged archive
            raise ReadError(f"{name} cannot be read whole: {exc}") from exc
        for k, a in arrays.items():
            if a.dtype.kind == "O":
                raise ValueError(f"{name}: array {k!r} holds Python objects")
        lengths = {k: (a.shape[0] if a.ndim else -1) for k, a in arrays.items()}
        bad = {k: a.shape for k, a in arrays.items() if a.ndim != 1}
        if bad:
            raise ValueError(f"{name}: every array of an .npz file must be 1-D (one column "
                             f"each), got shapes {bad}")
        if len(set(lengths.values())) > 1:
            raise ValueError(f"{name}: the arrays of an .npz file must have one length, got "
                             f"{lengths}")
        n = next(iter(lengths.values()), 0)
        return Source(name, "npy", list(arrays), rows=n, arrays=arrays, keep=keep)
    arr = obj
    if arr.dtype.names:
        arrays = {c: arr[c] for c in arr.dtype.names}
    elif arr.ndim == 2:
        arrays = {str(i): arr[:, i] for i in range(arr.shape[1])}
    elif arr.ndim == 1:
        arrays = {"0": arr}
    else:
        raise ValueError(
            f"{name}: an .npy file must hold a 1-D, 2-D or structured array, got shape {arr.shape}")
    return Source(name, "npy", list(arrays), rows=int(arr.shape[0]), arrays=arrays)
