"""Whole-stream checks of ``.gz`` text files, run by Python's zlib beside DuckDB's read.

DuckDB decodes ``.gz`` files with its own inflater and does not check a gzip member's
trailer (its CRC-32 and length), so a damaged stream can be read as rows of other values.
Worse, a back-reference that reaches before the start of the stream (zlib's "invalid distance
too far back") is not refused but copies bytes of memory that the stream never wrote: NUL
runs, or text left on the heap, which differ from one read to the next (the same file was
refused on one read and read as labels full of NUL characters on the next, with one thread
as with many). Python's zlib, the reference implementation of the format (Deutsch 1996,
RFC 1952), refuses both, and so does ISA-L's inflater (``isal``), used when installed. Each ``.gz`` file of a CSV, TSV or JSON lines source is therefore
decoded once more by zlib, its output thrown away, and a damaged stream is a
:class:`~confmat.inputs.source.ReadError` naming the file, the same on every read.

The check runs in one thread while DuckDB reads (the inflater releases the GIL): it costs
CPU time, 1.2x DuckDB's read with ISA-L's inflater and 1.35x with zlib's on a 93 MB
``.csv.gz``, and 1.07x / 1.08x wall time on two cores (``benchmarks/bench_gzip_check.py``,
docs/scaling.md). :class:`GzipCheck` is started by the reads of
:class:`~confmat.inputs.source.Source` and waited for before their result is returned;
:func:`check_gzip_files` runs it at once, on the error paths where DuckDB already refused
the file (so that the reason given is zlib's, not one of DuckDB's varying ones).
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Sequence
from typing import Any

from ..deps import optional
from .source import ReadError

__all__ = ["GzipCheck", "check_gzip_files", "gzip_checks", "gzip_damage", "inflate_module"]

#: Bytes of the file handed to zlib at a time, and most bytes of output it makes at a time
#: (a small input can expand a thousandfold; the output is thrown away).
_CHUNK = 1 << 18


def inflate_module() -> Any:
    """The inflater of the check: ISA-L's (``isal.isal_zlib``, zlib's interface and checks,
    about 2.5x faster) when installed, else Python's zlib.

    Returns
    -------
    module
        With ``decompressobj`` and ``error`` as :mod:`zlib`.

    Examples
    --------
    >>> inflate_module().__name__ in ("zlib", "isal.isal_zlib")
    True
    """
    return optional("isal.isal_zlib") or zlib


def gzip_damage(path: str) -> str | None:
    """Why a gzip file's stream is damaged, or None when it is whole.

    Whole means: one or more gzip members one after the other (as DuckDB reads them), each
    of which inflates without error and whose trailer's CRC-32 and length match what it
    inflated to, and nothing after the last. An empty file (0 bytes) is not judged here.

    Parameters
    ----------
    path : str
        The file.

    Returns
    -------
    str or None
        The inflater's reason (zlib: ``'Error -3 while decompressing data: incorrect data
        check'``; ISA-L: ``'Error -6 Incorrect checksum found'``), or a truncated stream, or
        None.

    Examples
    --------
    >>> import gzip, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv.gz")
    >>> data = bytearray(gzip.compress(b"y,yhat\\n1,0\\n", mtime=0))
    >>> _ = open(path, "wb").write(data)
    >>> gzip_damage(path) is None
    True
    >>> data[-8] ^= 1  # the first byte of the CRC-32
    >>> _ = open(path, "wb").write(data)
    >>> "check" in gzip_damage(path).lower()  # the inflater's words for a CRC mismatch
    True
    >>> _ = open(path, "wb").write(data[:20])
    >>> gzip_damage(path)
    'the stream ends inside a gzip member (the file is truncated)'
    """
    inflater = inflate_module()
    member = inflater.decompressobj(16 + zlib.MAX_WBITS)
    started = False
    with open(path, "rb") as fh:
        data = b""
        while True:
            if not data:
                data = fh.read(_CHUNK)
                if not data:
                    if started and not member.eof:
                        return "the stream ends inside a gzip member (the file is truncated)"
                    return None
            if member.eof:  # the bytes after a member: another member, or a damage
                member = inflater.decompressobj(16 + zlib.MAX_WBITS)
            started = True
            try:
                member.decompress(data, _CHUNK)
            except inflater.error as exc:
                return str(exc)
            data = member.unconsumed_tail or member.unused_data


class GzipCheck:
    """The zlib check of one ``.gz`` file (:func:`gzip_damage`), run at most once.

    The checks of one source (:func:`gzip_checks`) share one thread, which checks the files
    one after the other while the engine reads: a glob of a thousand files starts one thread,
    not a thousand competing with the engine for the cores.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    path : str
        The file.
    several : bool, default False
        Whether the source has several files (the message then names this one).
    turn : object, optional
        The thread this check shares with the other files of its source
        (:func:`gzip_checks`); without it, the check has a thread of its own.

    Examples
    --------
    >>> import gzip, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv.gz")
    >>> _ = open(path, "wb").write(gzip.compress(b"y,yhat\\n1,0\\n")[:-4])
    >>> check = GzipCheck("file 'p.csv.gz'", path)
    >>> check.start()  # a thread, beside the engine's read
    >>> check.result()
    Traceback (most recent call last):
    ...
    confmat.inputs.source.ReadError: file 'p.csv.gz' cannot be read whole: its gzip stream is damaged (the stream ends inside a gzip member (the file is truncated))
    """

    def __init__(self, name: str, path: str, several: bool = False,
                 turn: _InTurn | None = None) -> None:
        self.name, self.path, self.several = name, path, several
        self._turn = _InTurn() if turn is None else turn
        self._turn.checks.append(self)
        self._lock = threading.Lock()
        self._done = False
        self._reason: str | None = None

    def run(self) -> None:
        """Check the file now, in this thread, unless that was done already."""
        with self._lock:
            if self._done:
                return
            try:
                self._reason = gzip_damage(self.path)
            except OSError:  # the file cannot be read (gone?): the engine's read says so
                self._reason = None
            self._done = True

    def start(self) -> None:
        """Start the thread of this check's source (once; later calls do nothing)."""
        self._turn.start()

    def result(self) -> None:
        """Wait for the check (run here if it was not started).

        Raises
        ------
        ReadError
            If the stream is damaged.
        """
        self._turn.join()
        self.run()
        if self._reason is not None:
            where = f"{self.name} (file {self.path!r})" if self.several else self.name
            raise ReadError(f"{where} cannot be read whole: its gzip stream is damaged "
                            f"({self._reason})")


class _InTurn:
    """One daemon thread that runs some checks one after the other."""

    def __init__(self) -> None:
        self.checks: list[GzipCheck] = []
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def start(self) -> None:
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="confmat-gzip-check",
                                               daemon=True)
                self.thread.start()

    def _run(self) -> None:
        for check in self.checks:
            check.run()

    def join(self) -> None:
        if self.thread is not None:
            self.thread.join()


def gzip_checks(name: str, files: Sequence[str]) -> list[GzipCheck]:
    """The checks of a source's ``.gz`` files (none for other files), sharing one thread.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    files : sequence of str
        Its files.

    Returns
    -------
    list of GzipCheck
        Not started.

    Examples
    --------
    >>> [c.path for c in gzip_checks("d", ["a.csv", "b.csv.gz", "c.CSV.GZ"])]
    ['b.csv.gz', 'c.CSV.GZ']
    """
    turn = _InTurn()
    return [GzipCheck(name, f, several=len(files) > 1, turn=turn) for f in files
            if f.lower().endswith(".gz")]


def check_gzip_files(name: str, files: Sequence[str]) -> None:
    """Run the checks of a source's ``.gz`` files now, in this thread.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    files : sequence of str
        Its files.

    Raises
    ------
    ReadError
        For the first damaged stream.
    """
    for check in gzip_checks(name, files):
        check.result()
