"""What a data file's own first bytes say about its format.

Parquet, Arrow IPC and NumPy files carry a mark (a "magic number") at their start. A file
read in a format its bytes contradict is named here, before an engine reads it and answers in
its own words ("No magic bytes found at end of file", "Invalid unicode (byte sequence
mismatch)"): a CSV file read as Parquet, a Parquet file read as CSV.
Text formats carry no mark; a JSON lines file is recognised by its first character, which
opens a JSON object. Compressed text files (``.gz``, ``.zst``, ``.bz2``) are left to the
engine, which decompresses them.
"""

from __future__ import annotations

from .source import real_format_hint

__all__ = ["FORMAT_NAMES", "MARKS", "check_signature", "marked_format"]

#: The mark each binary format starts with, and the kind of file it names.
MARKS: dict[bytes, str] = {
    b"PAR1": "a Parquet file",
    b"PARE": "a Parquet file (encrypted)",
    b"ARROW1": "an Arrow IPC (Feather) file",
    b"\x93NUMPY": "a NumPy .npy file",
    b"PK\x03\x04": "a zip archive (a NumPy .npz file?)",
    b"\x1f\x8b": "a gzip-compressed file",
    b"\x28\xb5\x2f\xfd": "a zstd-compressed file",
    b"BZh": "a bzip2-compressed file",
}
#: How a message names each format of :data:`confmat.inputs.files.FORMATS`.
FORMAT_NAMES = {"csv": "CSV", "tsv": "TSV", "parquet": "Parquet", "jsonl": "JSON lines",
                "arrow": "Arrow IPC (Feather)", "npy": ".npy or .npz"}
_COMPRESSED = (".gz", ".zst", ".bz2")
_FIRST = 4096  # bytes read from the start: past blank lines of a JSON lines file
_SHOWN = 8  # bytes shown in a message


def marked_format(head: bytes) -> str | None:
    """The kind of file whose mark ``head`` starts with (see :data:`MARKS`), or None.

    Parameters
    ----------
    head : bytes
        The first bytes of a file.

    Returns
    -------
    str or None

    Examples
    --------
    >>> marked_format(b"PAR1\\x15\\x04"), marked_format(b"y,yhat\\n")
    ('a Parquet file', None)
    """
    return next((kind for mark, kind in MARKS.items() if head.startswith(mark)), None)


def check_signature(name: str, path: str, fmt: str) -> None:
    """Check that the bytes of the file ``path`` do not contradict the format ``fmt``.

    A Parquet file must start with its mark ``PAR1`` (one cut short, without the mark at its
    end, is named by its reader); an Arrow IPC or NumPy file, or a text file (CSV, TSV, JSON lines), must not start with the mark of another format; a
    JSON lines file must open a JSON object (``{``) on its first line that is not blank.
    An empty file is refused for a binary format; an empty text file, or one named as
    compressed, is left to its reader.

    Parameters
    ----------
    name : str
        The file as messages name it (``"file 'p.csv'"``).
    path : str
        The file.
    fmt : str
        The format it is to be read in (a key of :data:`confmat.inputs.files.FORMATS`).

    Raises
    ------
    ValueError
        The file's bytes say it is not in ``fmt``; the message names the format expected,
        the bytes the file starts with and, when they are one, the kind of file they mark.
    ReadError
        The file cannot be opened.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\n1,1\\n")
    >>> check_signature("file 'p.csv'", path, "csv")
    >>> check_signature("file 'p.csv'", path, "parquet")
    Traceback (most recent call last):
    ...
    ValueError: file 'p.csv' is not a Parquet file (it starts with b'y,yhat\\n1'; a Parquet file starts and ends with b'PAR1'); name its real format
    """
    from .source import ReadError

    try:
        with open(path, "rb") as fh:
            head = fh.read(_FIRST)
    except OSError as exc:
        raise ReadError(f"{name} cannot be read: {exc.strerror or exc}") from exc
    expected = FORMAT_NAMES.get(fmt, fmt)
    article = "an" if expected[0] in "AEIOU" else "a"
    if not head:
        if fmt in ("parquet", "arrow", "npy"):  # a text reader names an empty file itself
            raise ValueError(f"{name} is empty (0 bytes), not {article} {expected} file")
        return
    kind = marked_format(head)
    seen = f"it starts with {head[:_SHOWN]!r}" + (f", the mark of {kind}" if kind else "")
    if fmt == "parquet":
        if head[:4] in (b"PAR1", b"PARE"):
            return  # a Parquet file cut short or damaged is named by its reader
        raise ValueError(f"{name} is not a Parquet file ({seen}; a Parquet file starts and "
                         f"ends with b'PAR1'); {real_format_hint()}")
    ok: tuple[bytes, ...]
    if fmt == "npy":
        ok = (b"\x93NUMPY", b"PK\x03\x04")
    elif fmt == "arrow":
        # the IPC file and stream formats; Feather version 1 is named by its reader
        ok = (b"ARROW1", b"\xff\xff\xff\xff", b"FEA1")
    else:  # text: a compressed file is the engine's to open
        if path.lower().endswith(_COMPRESSED) or (kind is not None and "compressed" in kind):
            return
        ok = ()
    if head.startswith(ok) if ok else kind is None:
        if fmt == "jsonl":
            _check_json_object(name, head)
        return
    raise ValueError(f"{name} is not {article} {expected} file ({seen}); {real_format_hint()}")


def _check_json_object(name: str, head: bytes) -> None:
    """A JSON lines file opens a JSON object on its first line that is not blank."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text and not text.startswith(b"{"):
        line = text.split(b"\n", 1)[0][:_SHOWN].decode("utf-8", "replace").rstrip("\r")
        raise ValueError(f"{name} is not a JSON lines file (its first line starts with "
                         f"{line!r}, not with the {{ of a JSON object); {real_format_hint()}")
