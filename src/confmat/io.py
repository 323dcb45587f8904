"""Out-of-core reading of prediction files in record batches, with every row accounted for.

A confusion matrix is a sum, so a file of any size can be evaluated batch by batch in bounded
memory: :func:`iter_batches` streams the requested columns as numpy arrays (pyarrow's streaming
CSV reader, ``ParquetFile.iter_batches``, JSON lines in byte chunks, ``np.load(mmap_mode="r")``
for ``.npy``), and :func:`evaluate_file` feeds them to a :class:`confmat.Accumulator`.

Row accounting. A row is *invalid* when it has the wrong number of fields (CSV), is not a JSON
object (JSON lines), or has a missing value (empty field, ``null``, absent key, NaN) in one of the
requested columns. An invalid row raises a ``ValueError`` naming the file, the column and the
1-based row number, unless ``skip_invalid=True``: then it is left out and counted in
``rows_skipped`` (the first few row numbers are kept in ``skipped_row_numbers``). After a full
iteration ``rows_read + rows_skipped`` is the number of data rows in the file.

Row numbers are 1-based data rows: the header line of a CSV file is not counted, so data row
``r`` is on line ``r + 1``; blank lines of a JSON lines file are not rows.
"""

from __future__ import annotations

import io as _io
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .encode import all_finite

__all__ = [
    "FORMATS",
    "BatchReader",
    "FileReport",
    "evaluate_file",
    "iter_batches",
    "list_columns",
    "read_columns",
]

#: Formats understood by the readers, and the file extensions that select them.
FORMATS = {
    "csv": (".csv",),
    "tsv": (".tsv", ".tab"),
    "parquet": (".parquet", ".pq", ".parq"),
    "jsonl": (".jsonl", ".ndjson", ".json"),
    "npy": (".npy",),
}
_ALIASES = {"ndjson": "jsonl", "json": "jsonl", "pq": "parquet"}
_COMPRESSED = (".gz", ".bz2", ".zst", ".lz4")
#: How many skipped row numbers a reader remembers.
MAX_SKIPPED_NUMBERS = 10
#: Read the next batch in a background thread while the current one is counted.
PREFETCH = True
#: Decode Parquet columns on pyarrow's thread pool.
PARQUET_THREADS = True
#: Map local Parquet files into memory instead of copying each column chunk out of the page
#: cache; the pages of a unit are released once it is read, so resident memory stays bounded.
PARQUET_MMAP = True
#: Decode the integer and float columns of a mapped Parquet file with confmat's compiled page
#: decoder (:mod:`confmat._pqdict`) instead of pyarrow's, where it takes their layout (numba).
PARQUET_DICT_DECODER = not os.environ.get("CONFMAT_DISABLE_NUMBA")


def _arrow() -> Any:
    try:
        import pyarrow
    except ImportError as exc:  # pragma: no cover - pyarrow is in the scale / test extras
        raise ImportError(
            "reading CSV, Parquet and JSON lines files needs pyarrow: pip install 'confmat[scale]'"
        ) from exc
    return pyarrow


def _path(path: Any) -> str:
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    p = os.fspath(path)
    if not os.path.exists(p):
        raise ValueError(f"file {p!r} does not exist")
    if os.path.isdir(p):
        raise ValueError(f"{p!r} is a directory, not a file")
    return p


def detect_format(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The reader format for ``path``: ``format`` if given, else from the file extension."""
    if format is not None:
        if not isinstance(format, str):
            raise TypeError(f"format must be a string, got {type(format).__name__}")
        fmt = _ALIASES.get(format.lower(), format.lower())
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {sorted(FORMATS)}, got {format!r}")
        return fmt
    name = os.fspath(path).lower()
    for ext in _COMPRESSED:
        if name.endswith(ext):
            name = name[: -len(ext)]
            break
    for fmt, exts in FORMATS.items():
        if name.endswith(exts):
            return fmt
    raise ValueError(
        f"cannot tell the format of {os.fspath(path)!r} from its extension; pass format= one of "
        f"{sorted(FORMATS)}"
    )


# ---------------------------------------------------------------------------------- columns
def list_columns(path: str | os.PathLike[str], *, format: str | None = None) -> list[str]:
    """Column names of a prediction file.

    Parameters
    ----------
    path : str or os.PathLike
        A ``.csv``, ``.tsv``, ``.parquet``, ``.jsonl`` / ``.ndjson`` or ``.npy`` file.
    format : str, optional
        Overrides the extension: ``"csv"``, ``"tsv"``, ``"parquet"``, ``"jsonl"`` or ``"npy"``.

    Returns
    -------
    list of str
        For a JSON lines file, the keys of the first record; for a 2-D ``.npy`` array, ``"0"``,
        ``"1"``, ...; for a structured ``.npy`` array, its field names.
    """
    p = _path(path)
    fmt = detect_format(p, format)
    if fmt in ("csv", "tsv"):
        return list(_csv_schema(p, fmt).names)
    if fmt == "parquet":
        return list(_parquet_file(p).schema_arrow.names)
    if fmt == "jsonl":
        return _jsonl_first_keys(p)
    return list(_npy_columns(_npy_open(p))[0])


def _missing_columns(path: str, available: Sequence[str], wanted: Sequence[str]) -> None:
    missing = [c for c in wanted if c not in available]
    if missing:
        what = "column" if len(missing) == 1 else "columns"
        raise ValueError(
            f"file {path!r} has no {what} {', '.join(map(repr, missing))}; "
            f"available columns: {list(available)}"
        )


def _check_columns(columns: Any) -> list[str]:
    if isinstance(columns, str):
        columns = [columns]
    try:
        cols = list(columns)
    except TypeError:
        raise TypeError(
            f"columns must be a list of column names, got {type(columns).__name__}"
        ) from None
    if not cols:
        raise ValueError("columns must name at least one column")
    for c in cols:
        if not isinstance(c, str):
            raise TypeError(f"column names must be strings, got {c!r}")
    return list(dict.fromkeys(cols))


# ---------------------------------------------------------------------------------- reader
class BatchReader:
    """Iterable over record batches of some columns of a file.

    Each iteration yields ``dict[str, np.ndarray]`` (one 1-D array per requested column, all of
    the same length) and restarts the file from the top. Counters describe the last iteration:

    Attributes
    ----------
    rows_read : int
        Rows yielded so far.
    rows_skipped : int
        Invalid rows left out (only with ``skip_invalid=True``; otherwise they raise).
    skipped_row_numbers : list of int
        The first :data:`MAX_SKIPPED_NUMBERS` skipped 1-based row numbers.
    total_rows : int or None
        Rows in the file when known before reading (Parquet, npy), else None.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        columns: Sequence[str],
        *,
        format: str | None = None,
        batch_rows: int = 1_000_000,
        skip_invalid: bool = False,
        column_types: Mapping[str, str] | None = None,
    ) -> None:
        self.path = _path(path)
        self.format = detect_format(self.path, format)
        self.columns = _check_columns(columns)
        if isinstance(batch_rows, bool) or not isinstance(batch_rows, int | np.integer):
            raise TypeError(f"batch_rows must be an int, got {type(batch_rows).__name__}")
        if batch_rows < 1:
            raise ValueError(f"batch_rows must be at least 1, got {batch_rows}")
        self.batch_rows = int(batch_rows)
        self.skip_invalid = bool(skip_invalid)
        self.column_types = dict(column_types or {})
        self.rows_read = 0
        self.rows_skipped = 0
        self.skipped_row_numbers: list[int] = []
        self.total_rows: int | None = None
        # integer Parquet columns decoded by confmat in the narrowest type holding them (only
        # for evaluate_file, which counts labels; readers hand out the columns' own types)
        self._narrow_ints = False
        self._prepare()

    # -- bookkeeping
    def _prepare(self) -> None:
        """Open the file once to check it is readable and has the columns."""
        if self.format in ("csv", "tsv"):
            names = _csv_schema(self.path, self.format).names
        elif self.format == "parquet":
            pf = _parquet_file(self.path)
            names = pf.schema_arrow.names
            self.total_rows = pf.metadata.num_rows
        elif self.format == "jsonl":
            names = _jsonl_first_keys(self.path)
        else:
            arr = _npy_open(self.path)
            names, _ = _npy_columns(arr)
            self.total_rows = int(arr.shape[0])
        _missing_columns(self.path, names, self.columns)
        unknown = [c for c in self.column_types if c not in self.columns]
        if unknown:
            raise ValueError(f"column_types names columns that are not requested: {unknown}")

    def _skip(self, numbers: Sequence[int]) -> None:
        """Note skipped rows; they are counted when the batch they precede is handed out."""
        self._pending.extend(int(r) for r in numbers)

    def _account(self, numbers: list[int]) -> None:
        self.rows_skipped += len(numbers)
        room = MAX_SKIPPED_NUMBERS - len(self.skipped_row_numbers)
        if room > 0:
            self.skipped_row_numbers.extend(numbers[:room])

    def _source(self) -> Iterator[tuple[dict[str, np.ndarray] | None, list[int]]]:
        reader = {
            "csv": self._iter_csv,
            "tsv": self._iter_csv,
            "parquet": self._iter_parquet,
            "jsonl": self._iter_jsonl,
            "npy": self._iter_npy,
        }[self.format]
        self._pending = []
        for batch in reader():
            skipped, self._pending = self._pending, []
            yield batch, skipped
        yield None, self._pending

    def _invalid(self, row: int, column: str | None, why: str) -> ValueError:
        where = f"column {column!r}, " if column is not None else ""
        line = f" (line {row + 1})" if self.format in ("csv", "tsv") else ""
        return ValueError(
            f"file {self.path!r}: {where}row {row}{line}: {why}; pass skip_invalid=True "
            "(--skip-invalid) to skip such rows and report how many"
        )

    def _clean(
        self,
        arrays: dict[str, Any],
        row_numbers: Callable[[np.ndarray], np.ndarray],
        skipped: list[int] | None = None,
    ) -> dict[str, np.ndarray]:
        """Turn arrow/numpy columns into numpy, finding rows with a missing value or NaN.

        ``row_numbers`` maps batch positions to 1-based file row numbers. Skipped rows go to
        ``skipped`` when given (thread-safe use), else to the reader's pending list.
        """
        first_col = next(iter(arrays.values()))
        n = len(first_col[0] if isinstance(first_col, tuple) else first_col)
        bad = np.zeros(n, dtype=bool)
        first: tuple[int, str, str] | None = None
        out: dict[str, np.ndarray] = {}
        for name in self.columns:
            col = arrays[name]
            mask = None
            verified = False  # known to hold no NaN (nor infinity)
            if isinstance(col, tuple):  # (values, null mask or None, all finite) of a decoded column
                col, mask, verified = col
            elif not isinstance(col, np.ndarray):
                col = _arrow_to_numpy(col, name, self._narrow_ints)
                if isinstance(col, tuple):
                    col, mask = col
            if col.dtype.kind == "f" and not verified and not all_finite(col):
                nan = np.isnan(col)
                mask = nan if mask is None else (mask | nan)
            if mask is not None and mask.any():
                pos = int(np.flatnonzero(mask)[0])
                if first is None or pos < first[0]:
                    first = (pos, name, "missing value (empty, null or NaN)")
                bad |= mask
            out[name] = col
        if first is not None:
            if not self.skip_invalid:
                pos, name, why = first
                raise self._invalid(int(row_numbers(np.array([pos]))[0]), name, why)
            numbers = row_numbers(np.flatnonzero(bad)).tolist()
            if skipped is None:
                self._skip(numbers)
            else:
                skipped.extend(int(r) for r in numbers)
            keep = ~bad
            out = {k: v[keep] for k, v in out.items()}
        return out

    # -- iteration
    def __iter__(self) -> Iterator[dict[str, np.ndarray]]:
        self.rows_read = 0
        self.rows_skipped = 0
        self.skipped_row_numbers = []
        # The next batch is read and decoded in a background thread (pyarrow and the numba
        # kernels release the GIL) while the caller counts the current one.
        source = self._source()
        for batch, skipped in (_prefetch(source) if PREFETCH else source):
            self._account(skipped)
            if batch is None:
                continue
            n = len(next(iter(batch.values())))
            if n == 0:
                continue
            self.rows_read += n
            yield batch

    @property
    def rows_total(self) -> int:
        """Rows met so far, valid or skipped."""
        return self.rows_read + self.rows_skipped

    def _iter_parquet(self) -> Iterator[dict[str, np.ndarray]]:
        source = _ParquetSource(self.path, self.columns)
        for groups, start in self._parquet_units():
            for batch, skipped, _, _ in self._read_unit(source, groups, start, PARQUET_THREADS):
                self._skip(skipped)
                yield batch
            source.release(groups)

    def _parquet_units(self) -> list[tuple[list[int], int]]:
        """The file's row groups cut into units of work: (row groups, 0-based first row).

        A unit is one row group, or several consecutive ones holding at most ``batch_rows``
        rows together, so the batches of a unit never depend on how units are scheduled: a
        read on one thread and one on several cut the file into the same batches.
        """
        md = _parquet_file(self.path).metadata
        units: list[tuple[list[int], int]] = []
        start = rows = 0
        for g in range(md.num_row_groups):
            size = md.row_group(g).num_rows
            if units and rows + size <= self.batch_rows:
                units[-1][0].append(g)
                rows += size
            else:
                units.append(([g], start))
                rows = size
            start += size
        return units

    def _read_unit(
        self, source: _ParquetSource, groups: list[int], start: int, threads: bool = False
    ) -> Iterator[tuple[dict[str, np.ndarray], list[int], int, int]]:
        """Cleaned batches of some row groups, without touching the reader's counters (several
        threads may read units at once, each with the ``ParquetFile`` of its thread): (batch,
        skipped row numbers, 0-based first row, rows in the batch before skipping). A decoding
        failure is an error naming the row after which it happened.

        Integer and float columns are decoded by :mod:`confmat._pqdict` from the mapped file
        when it takes their layout; pyarrow reads the other columns.
        """
        pa = _arrow()
        pf = source.file()
        source.prefault(groups, self.columns)
        direct = source.dictionary_columns(self.columns, groups, self._narrow_ints)
        others = [c for c in self.columns if c not in direct]
        if others:
            it: Iterator[Any] = pf.iter_batches(
                batch_size=self.batch_rows, row_groups=groups, columns=others,
                use_threads=threads,
            )
        else:  # the batch sizes pyarrow would use: batch_rows rows, then the rest
            total = sum(pf.metadata.row_group(g).num_rows for g in groups)
            it = iter([min(self.batch_rows, total - s) for s in range(0, total, self.batch_rows)])
        while True:
            try:
                batch = next(it)
                n = batch if isinstance(batch, int) else batch.num_rows
                arrays = {} if isinstance(batch, int) else {c: batch.column(c) for c in others}
                for name, col in direct.items():
                    arrays[name] = col.take(n)
            except StopIteration:
                return
            except (pa.ArrowException, OSError, ValueError) as exc:
                raise ValueError(
                    f"file {self.path!r} could not be read after row {start}: it may be "
                    f"truncated or corrupted ({exc})"
                ) from exc
            skipped: list[int] = []
            clean = self._clean(arrays, lambda pos, base=start: pos + base + 1, skipped)
            yield clean, skipped, start, n
            start += n

    def _iter_npy(self) -> Iterator[dict[str, np.ndarray]]:
        arr = _npy_open(self.path)
        _, getter = _npy_columns(arr)
        n = arr.shape[0]
        for s in range(0, n, self.batch_rows):
            e = min(n, s + self.batch_rows)
            try:
                arrays = {c: np.array(getter(c)[s:e]) for c in self.columns}
            except (OSError, ValueError) as exc:  # pragma: no cover - mmap failures
                raise ValueError(f"file {self.path!r} could not be read at row {s + 1}: {exc}") from exc
            yield self._clean(arrays, lambda pos, s=s: pos + s + 1)

    def _open_csv(self, on_invalid: Callable[[Any], str], threads: bool) -> Any:
        pa = _arrow()
        import pyarrow.csv as pcsv

        sample = _sample_line_bytes(self.path)
        block = int(min(max(sample * self.batch_rows, 1 << 20), 1 << 28))
        types = {c: _arrow_type(pa, t, c) for c, t in self.column_types.items()}
        return pcsv.open_csv(
            self.path,
            read_options=pcsv.ReadOptions(use_threads=threads, block_size=block),
            parse_options=pcsv.ParseOptions(
                delimiter="\t" if self.format == "tsv" else ",",
                invalid_row_handler=on_invalid,
            ),
            convert_options=pcsv.ConvertOptions(
                include_columns=self.columns,
                strings_can_be_null=True,
                column_types=types,
            ),
        )

    def _iter_csv(self) -> Iterator[dict[str, np.ndarray]]:
        pa = _arrow()
        # Row numbers of ragged rows are known only to a single-threaded parse: use it when
        # skipping (the numbers are reported); otherwise parse in parallel and re-scan the file
        # single-threaded only to locate the row of an error.
        ragged: list[int] = []  # 1-based data row numbers of rows with the wrong field count

        def on_invalid(row: Any) -> str:
            ragged.append(int(row.number) - 1 if row.number is not None else -1)
            return "skip" if self.skip_invalid else "error"

        try:
            reader = self._open_csv(on_invalid, threads=not self.skip_invalid)
        except (pa.ArrowInvalid, OSError) as exc:
            raise self._csv_error(exc, ragged) from exc
        rows = 0  # data rows consumed so far, valid or skipped as ragged
        done = 0  # ragged rows already accounted for
        while True:
            try:
                batch = reader.read_next_batch()
            except StopIteration:
                self._skip(sorted(ragged[done:]))  # ragged rows after the last good one
                return
            except (pa.ArrowInvalid, OSError) as exc:
                raise self._csv_error(exc, ragged) from exc
            # the ragged rows inside this batch's span of the file shift the numbering
            end = rows + batch.num_rows
            gaps = []
            for g in sorted(ragged[done:]):
                if g <= end:
                    gaps.append(g)
                    end += 1
            done += len(gaps)
            self._skip(gaps)
            arrays = {name: batch.column(name) for name in self.columns}

            def numbers(pos: np.ndarray, rows: int = rows, gaps: list[int] = gaps) -> np.ndarray:
                out = pos + rows + 1
                for g in gaps:
                    out = out + (out >= g)
                return out

            rows = end
            yield self._clean(arrays, numbers)

    def _csv_error(self, exc: Exception, ragged: list[int]) -> ValueError:
        msg = str(exc)
        if ragged and not self.skip_invalid:
            row = ragged[-1]
            if row < 0:
                row = self._locate_ragged()
            m = re.search(r"Expected (\d+) columns, got (\d+)", msg)
            why = (
                f"expected {m.group(1)} fields, found {m.group(2)}" if m else "malformed row"
            )
            return self._invalid(row, None, why)
        if "conversion error" in msg and "Row #" not in msg:
            msg = self._rescan_error() or msg  # parallel parsing does not know the row
        m = re.search(r"column #(\d+): Row #(\d+): CSV conversion error to (\w+): invalid value '(.*)'", msg)
        if m:
            idx, line, typ, value = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
            name = self.columns[idx] if idx < len(self.columns) else f"#{idx}"
            return ValueError(
                f"file {self.path!r}: column {name!r}, row {line - 1} (line {line}): value "
                f"{value!r} is not a {typ} like the rows before it (column types are inferred "
                "from the first block; pass column_types={column: 'string'} to read labels as text)"
            )
        if "Empty CSV file" in msg:
            return ValueError(f"file {self.path!r} is empty: no header line")
        return ValueError(f"file {self.path!r} could not be read as {self.format.upper()}: {msg}")

    def _rescan_error(self) -> str | None:
        """The message of the first error of a single-threaded parse (which knows rows)."""
        pa = _arrow()
        try:
            for _ in self._open_csv(lambda row: "skip", threads=False):
                pass
        except (pa.ArrowInvalid, OSError) as exc:
            return str(exc)
        return None

    def _locate_ragged(self) -> int:
        pa = _arrow()
        found: list[int] = []

        def on_invalid(row: Any) -> str:
            found.append(int(row.number) - 1)
            return "error"

        try:
            for _ in self._open_csv(on_invalid, threads=False):
                pass
        except (pa.ArrowInvalid, OSError):
            pass
        return found[0] if found else -1

    def _iter_jsonl(self) -> Iterator[dict[str, np.ndarray]]:
        pa = _arrow()
        import pyarrow.json as pjson

        sample = _sample_line_bytes(self.path)
        chunk_bytes = int(min(max(sample * self.batch_rows, 1 << 16), 1 << 28))
        schema = None
        line_no = 0  # lines consumed so far
        with open(self.path, "rb") as fh:
            rest = b""
            while True:
                data = fh.read(chunk_bytes)
                eof = not data
                buf = rest + data
                if not eof:
                    cut = buf.rfind(b"\n")
                    if cut < 0:
                        rest = buf
                        continue
                    chunk, rest = buf[: cut + 1], buf[cut + 1 :]
                else:
                    chunk, rest = buf, b""
                if chunk.strip():
                    lines = chunk.splitlines()
                    numbers = np.array(
                        [line_no + i + 1 for i, ln in enumerate(lines) if ln.strip()], dtype=np.int64
                    )
                    kept = [ln for ln in lines if ln.strip()]
                    if schema is None:
                        schema = self._json_schema(kept, numbers, pjson, pa)
                    table, numbers = self._json_parse(kept, numbers, schema, pjson, pa)
                    line_no += len(lines)
                    if table is not None and table.num_rows:
                        arrays = {name: table.column(name) for name in self.columns}
                        yield self._clean(arrays, lambda pos, nums=numbers: nums[pos])
                if eof:
                    return

    def _json_schema(self, lines: list[bytes], numbers: np.ndarray, pjson: Any, pa: Any) -> Any:
        """Column types from the first chunk (like pyarrow's CSV reader), fixed for the rest."""
        for lo in range(0, len(lines), 1000):
            part = lines[lo : lo + 1000]
            try:
                t = pjson.read_json(_io.BytesIO(b"\n".join(part)))
            except pa.ArrowInvalid:
                continue
            types = {}
            for name in self.columns:
                if name in self.column_types:
                    types[name] = _arrow_type(pa, self.column_types[name], name)
                elif name in t.column_names and not pa.types.is_null(t.schema.field(name).type):
                    types[name] = t.schema.field(name).type
            if len(types) == len(self.columns):
                return pa.schema(list(types.items()))
        # fall back to whatever one good line says; the per-line parse reports the bad ones
        return None

    def _json_parse(
        self, lines: list[bytes], numbers: np.ndarray, schema: Any, pjson: Any, pa: Any
    ) -> tuple[Any, np.ndarray]:
        opts = pjson.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
        try:
            table = pjson.read_json(_io.BytesIO(b"\n".join(lines)), parse_options=opts)
            return table.select(self.columns), numbers
        except (pa.ArrowInvalid, KeyError):
            pass
        # Bisect to the bad lines: O(bad * log n) parses instead of one per line.
        good: list[Any] = []
        good_numbers: list[np.ndarray] = []

        def walk(lo: int, hi: int) -> None:
            try:
                t = pjson.read_json(_io.BytesIO(b"\n".join(lines[lo:hi])), parse_options=opts)
                if t.num_rows != hi - lo:
                    raise pa.ArrowInvalid("row count mismatch")
                good.append(t.select(self.columns))
                good_numbers.append(numbers[lo:hi])
            except (pa.ArrowInvalid, KeyError) as exc:
                if hi - lo == 1:
                    row = int(numbers[lo])
                    if not self.skip_invalid:
                        raise self._invalid(row, None, f"not a JSON object with the expected types ({exc})") from None
                    self._skip([row])
                    return
                mid = (lo + hi) // 2
                walk(lo, mid)
                walk(mid, hi)

        walk(0, len(lines))
        if not good:
            return None, numbers[:0]
        return pa.concat_tables(good), np.concatenate(good_numbers)


_DONE = object()


def _prefetch(source: Iterator[Any], depth: int = 1) -> Iterator[Any]:
    """Iterate ``source`` in a background thread, ``depth`` items ahead; errors re-raised here."""
    import queue
    import threading

    q: queue.Queue[Any] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: Any) -> bool:
        while not stop.is_set():
            try:
                q.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def run() -> None:
        try:
            for item in source:
                if not put((item, None)):
                    return
            put((_DONE, None))
        except BaseException as exc:  # handed to the consumer
            put((None, exc))
        finally:
            close = getattr(source, "close", None)
            if close is not None:
                close()

    thread = threading.Thread(target=run, name="confmat-io-prefetch", daemon=True)
    thread.start()
    try:
        while True:
            item, exc = q.get()
            if exc is not None:
                raise exc
            if item is _DONE:
                return
            yield item
    finally:
        stop.set()
        thread.join()


def _arrow_type(pa: Any, name: str, column: str) -> Any:
    types = {
        "string": pa.string(), "str": pa.string(), "int64": pa.int64(), "int": pa.int64(),
        "float64": pa.float64(), "float": pa.float64(), "bool": pa.bool_(),
    }
    if name not in types:
        raise ValueError(f"column_types[{column!r}] must be one of {sorted(types)}, got {name!r}")
    return types[name]


def _arrow_to_numpy(
    col: Any, name: str, fixed_width_text: bool = False
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """A pyarrow (chunked) array as numpy; with nulls, (values, null mask).

    With ``fixed_width_text`` a dictionary of short strings becomes a fixed-width numpy string
    array, gathered from the dictionary (labels to count: much faster to encode than Python
    string objects); otherwise text comes back as an object array of ``str``.
    """
    pa = _arrow()
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    if pa.types.is_dictionary(col.type):
        if fixed_width_text:
            arr = _gather_text(col)
            if arr is not None:
                if col.null_count:
                    return arr, np.asarray(col.is_null().to_numpy(zero_copy_only=False), bool)
                return arr
        col = col.dictionary_decode()
    mask = None
    if col.null_count:
        mask = np.asarray(col.is_null().to_numpy(zero_copy_only=False), dtype=bool)
        if pa.types.is_integer(col.type) or pa.types.is_floating(col.type) or pa.types.is_boolean(col.type):
            col = col.fill_null(0 if not pa.types.is_boolean(col.type) else False)
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        arr = np.asarray(col.to_numpy(zero_copy_only=False), dtype=object)
    else:
        arr = np.asarray(col.to_numpy(zero_copy_only=False))
    if arr.ndim != 1:
        raise ValueError(f"column {name!r} is not a column of scalars (shape {arr.shape})")
    return arr if mask is None else (arr, mask)


def _gather_text(col: Any) -> np.ndarray | None:
    """A dictionary array of short strings as a fixed-width numpy string array; None when its
    strings are long or hold NUL characters (numpy's fixed width would drop trailing NULs)."""
    pa = _arrow()
    dictionary = col.dictionary
    if not (pa.types.is_string(dictionary.type) or pa.types.is_large_string(dictionary.type)):
        return None
    values = dictionary.to_pylist()
    if any(v is None or "\x00" in v or len(v) > 64 for v in values):
        return None
    table = np.array(values if values else [""], dtype=str)
    indices = col.indices
    if indices.null_count:
        indices = indices.fill_null(0)
    return table[np.asarray(indices.to_numpy(zero_copy_only=False))]


def _sample_line_bytes(path: str) -> int:
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    lines = head.count(b"\n")
    return max(8, len(head) // max(1, lines))


def _csv_schema(path: str, fmt: str) -> Any:
    pa = _arrow()
    import pyarrow.csv as pcsv

    try:
        reader = pcsv.open_csv(
            path,
            read_options=pcsv.ReadOptions(block_size=1 << 16),
            parse_options=pcsv.ParseOptions(
                delimiter="\t" if fmt == "tsv" else ",", invalid_row_handler=lambda row: "skip"
            ),
        )
    except (pa.ArrowInvalid, OSError) as exc:
        if "Empty CSV file" in str(exc):
            raise ValueError(f"file {path!r} is empty: no header line") from exc
        raise ValueError(f"file {path!r} could not be read as {fmt.upper()}: {exc}") from exc
    return reader.schema


def _parquet_file(path: str, source: Any = None, read_dictionary: Any = None) -> Any:
    pa = _arrow()
    import pyarrow.parquet as pq

    try:
        # pre_buffer=False: read column chunks page by page, so memory follows the batch size
        return pq.ParquetFile(path if source is None else source, pre_buffer=False,
                              read_dictionary=read_dictionary or None)
    except (pa.ArrowException, OSError) as exc:
        raise ValueError(
            f"file {path!r} is not a readable Parquet file: it may be truncated or corrupted ({exc})"
        ) from exc


def _madvise(data: Any, start: int, length: int, advice: int) -> int:
    """``madvise`` on part of a mapping through ctypes, which lets other threads run during
    the call (``mmap.madvise`` holds the GIL); -1 when unavailable or refused."""
    global _LIBC_MADVISE
    if _LIBC_MADVISE is None:
        try:
            import ctypes

            fn = ctypes.CDLL(None, use_errno=True).madvise
            fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
            fn.restype = ctypes.c_int
            _LIBC_MADVISE = fn
        except (OSError, AttributeError):  # pragma: no cover - not a Unix libc
            _LIBC_MADVISE = False
    if not _LIBC_MADVISE or data is None:
        return -1
    return int(_LIBC_MADVISE(data.ctypes.data + start, length, advice))


_LIBC_MADVISE: Any = None


class _ParquetSource:
    """Per-thread ``ParquetFile`` objects over one local file.

    With :data:`PARQUET_MMAP` the file is mapped read-only and every thread reads zero-copy
    slices of the mapping (no copy out of the page cache, about a fifth of the decoding time
    of a snappy file); :meth:`release` drops the mapped pages of row groups already read, which
    keeps the resident memory to the units in flight. Re-reading a released page only maps it
    again, so releasing early is never wrong. Without ``madvise`` (not Linux / macOS) or when
    the file cannot be mapped, pyarrow reads the file by path.
    """

    def __init__(self, path: str, columns: Sequence[str] = ()) -> None:
        import mmap
        import threading

        self.path = path
        # text columns are read as dictionaries (indices + the distinct strings), which is
        # how Parquet stores them anyway; the reader turns them into numpy arrays
        schema = _parquet_file(path).schema_arrow
        pa = _arrow()
        self._text = [
            c for c in columns
            if schema.get_field_index(c) >= 0
            and (pa.types.is_string(schema.field(c).type) or pa.types.is_large_string(schema.field(c).type))
        ]
        self._map: Any = None
        self._buffer: Any = None
        self.data: np.ndarray | None = None  # the mapping as bytes
        self._populate = True  # MADV_POPULATE_READ works here (until refused once)
        self._local = threading.local()
        if PARQUET_MMAP and hasattr(mmap, "MADV_DONTNEED"):
            try:
                fd = os.open(path, os.O_RDONLY)
                try:
                    self._map = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
                finally:
                    os.close(fd)
            except (OSError, ValueError):  # empty or special file: read it by path
                self._map = None
        if self._map is not None:
            self._buffer = _arrow().py_buffer(self._map)
            self.data = np.frombuffer(self._map, dtype=np.uint8)

    def dictionary_columns(
        self, columns: Sequence[str], groups: Sequence[int], narrow: bool = False
    ) -> dict[str, Any]:
        """Decoders (``confmat._pqdict.DictColumn``) of the requested columns whose chunks in
        ``groups`` that module decodes (integer and float columns, dictionary-encoded or plain)."""
        if self.data is None or not PARQUET_DICT_DECODER or not groups:
            return {}
        try:
            from . import _pqdict

            _pqdict._kernels()
        except ImportError:  # numba is optional
            return {}
        pf = self.file()
        md, schema = pf.metadata, pf.schema
        index = {schema.column(i).path: i for i in range(len(schema))}
        out: dict[str, Any] = {}
        for name in columns:
            i = index.get(name)
            if i is None or pf.schema_arrow.get_field_index(name) < 0:
                continue
            arrow_type = str(pf.schema_arrow.field(name).type)
            plans = [
                _pqdict.plan_chunk(self.data, md.row_group(g).column(i), schema.column(i),
                                   arrow_type, narrow)
                for g in groups
            ]
            if all(p is not None for p in plans):
                out[name] = _pqdict.DictColumn(self.data, plans)  # type: ignore[arg-type]
        return out

    def file(self) -> Any:
        """The calling thread's ``ParquetFile``."""
        pf = getattr(self._local, "pf", None)
        if pf is None:
            source = None if self._buffer is None else _arrow().BufferReader(self._buffer)
            pf = self._local.pf = _parquet_file(self.path, source, self._text)
        return pf

    def prefault(self, groups: Sequence[int], columns: Sequence[str]) -> None:
        """Map the pages of some columns of ``groups`` in one call per column chunk
        (``MADV_POPULATE_READ``, Linux 5.14+) rather than one page fault at a time; a no-op
        where unsupported."""
        if self._map is None or not self._populate:
            return
        schema = self.file().schema
        wanted = set(columns)
        index = [i for i in range(len(schema)) if schema.column(i).path in wanted]
        for lo, hi in self._ranges(groups, index):
            if _madvise(self.data, lo, hi - lo, 22) != 0:  # MADV_POPULATE_READ
                self._populate = False
                return

    def release(self, groups: Sequence[int]) -> None:
        """Drop the mapped pages of the column chunks of ``groups``."""
        span = self._span(groups)
        if span is not None:
            import mmap

            if _madvise(self.data, span[0], span[1] - span[0], mmap.MADV_DONTNEED) != 0:
                self._map.madvise(mmap.MADV_DONTNEED, span[0], span[1] - span[0])

    def _span(self, groups: Sequence[int]) -> tuple[int, int] | None:
        """Page-aligned byte range of the column chunks of ``groups`` in the mapping."""
        if self._map is None or not groups:
            return None
        ranges = self._ranges(groups, None)
        if not ranges:
            return None
        return min(r[0] for r in ranges), max(r[1] for r in ranges)

    def _ranges(self, groups: Sequence[int], columns: Sequence[int] | None) -> list[tuple[int, int]]:
        """Page-aligned byte ranges of column chunks (all columns when ``columns`` is None)."""
        import mmap

        md = self.file().metadata
        size = self._map.size()
        out = []
        for g in groups:
            rg = md.row_group(g)
            for i in range(rg.num_columns) if columns is None else columns:
                col = rg.column(i)
                start = col.data_page_offset
                if col.dictionary_page_offset is not None:
                    start = min(start, col.dictionary_page_offset)
                lo = start - start % mmap.PAGESIZE
                hi = min(start + col.total_compressed_size, size)
                if hi > lo:
                    out.append((lo, hi))
        return out


def _jsonl_first_keys(path: str) -> list[str]:
    import json

    with open(path, "rb") as fh:
        for i, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise ValueError(f"file {path!r}: row {i} is not valid JSON ({exc})") from exc
            if not isinstance(obj, dict):
                raise ValueError(f"file {path!r}: row {i} is not a JSON object")
            return list(obj)
    raise ValueError(f"file {path!r} is empty: no JSON records")


def _npy_open(path: str) -> np.ndarray:
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError as exc:
        if "pickle" in str(exc).lower() or "object" in str(exc).lower():
            raise ValueError(
                f"file {path!r} holds Python objects (pickled); store labels as numbers or "
                "fixed-width strings"
            ) from exc
        raise ValueError(f"file {path!r} is not a readable .npy file: it may be truncated ({exc})") from exc
    except OSError as exc:
        raise ValueError(f"file {path!r} is not a readable .npy file ({exc})") from exc
    if not isinstance(arr, np.ndarray):
        raise ValueError(f"file {path!r} is an .npz archive, not a single .npy array")
    return arr


def _npy_columns(arr: np.ndarray) -> tuple[list[str], Callable[[str], np.ndarray]]:
    if arr.dtype.names:
        return list(arr.dtype.names), lambda c: arr[c]
    if arr.ndim == 2:
        return [str(i) for i in range(arr.shape[1])], lambda c: arr[:, int(c)]
    if arr.ndim == 1:
        return ["0"], lambda c: arr
    raise ValueError(f"an .npy file must hold a 1-D or 2-D or structured array, got shape {arr.shape}")


# ---------------------------------------------------------------------------------- API
def iter_batches(
    path: str | os.PathLike[str],
    columns: Sequence[str],
    *,
    format: str | None = None,
    batch_rows: int = 1_000_000,
    skip_invalid: bool = False,
    column_types: Mapping[str, str] | None = None,
) -> BatchReader:
    """Stream some columns of a file as numpy arrays, one record batch at a time.

    Parameters
    ----------
    path : str or os.PathLike
        The file; its format comes from the extension (``.csv``, ``.tsv``, ``.parquet``,
        ``.jsonl`` / ``.ndjson``, ``.npy``; CSV and JSON lines may be compressed, e.g. ``.csv.gz``).
    columns : sequence of str
        Columns to read. A missing column is a ``ValueError`` listing the available ones.
    format : str, optional
        Overrides the extension.
    batch_rows : int, default 1_000_000
        Rows per batch (approximate for CSV and JSON lines, which are cut by bytes). Memory use
        is bounded by a few batches, whatever the size of the file.
    skip_invalid : bool, default False
        Skip invalid rows (ragged, not JSON, missing value) instead of raising; they are counted
        in ``rows_skipped``.
    column_types : mapping, optional
        Force a type (``"string"``, ``"int64"``, ``"float64"``, ``"bool"``) for some columns of a
        CSV or JSON lines file, whose types are otherwise inferred from the first block.

    Returns
    -------
    BatchReader
        Iterate it for ``dict[str, np.ndarray]`` batches; then read ``rows_read`` and
        ``rows_skipped``.

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\n1,1\\n0,1\\n")
    >>> reader = iter_batches(path, ["y", "yhat"])
    >>> [b["yhat"].tolist() for b in reader], reader.rows_read
    ([[1, 1]], 2)
    """
    return BatchReader(
        path,
        columns,
        format=format,
        batch_rows=batch_rows,
        skip_invalid=skip_invalid,
        column_types=column_types,
    )


def read_columns(
    path: str | os.PathLike[str], columns: Sequence[str], **kw: Any
) -> dict[str, np.ndarray]:
    """Read whole columns of a file into memory (the batches of :func:`iter_batches` joined).

    Takes the keyword arguments of :func:`iter_batches`.
    """
    reader = iter_batches(path, columns, **kw)
    parts: dict[str, list[np.ndarray]] = {c: [] for c in reader.columns}
    for batch in reader:
        for c, v in batch.items():
            parts[c].append(v)
    out: dict[str, np.ndarray] = {}
    for c, vs in parts.items():
        if not vs:
            out[c] = np.empty(0)
        elif len(vs) == 1:
            out[c] = vs[0]
        elif all(v.dtype.kind == vs[0].dtype.kind for v in vs):
            out[c] = np.concatenate(vs)
        else:
            out[c] = np.concatenate([v.astype(object) for v in vs])
    return out


@dataclass
class FileReport:
    """What :func:`evaluate_file` read: every data row of the file is ``rows_read`` (evaluated)
    or ``rows_skipped``."""

    path: str
    format: str
    rows_read: int = 0
    rows_skipped: int = 0
    skipped_row_numbers: list[int] = field(default_factory=list)
    batches: int = 0
    curves: Any = None

    @property
    def rows_total(self) -> int:
        return self.rows_read + self.rows_skipped


def evaluate_file(
    path: str | os.PathLike[str],
    true_col: str,
    pred_col: str,
    *,
    score_cols: str | Sequence[str] | None = None,
    weight_col: str | None = None,
    labels: Sequence[Any] | None = None,
    skip_invalid: bool = False,
    progress: Callable[[int, int | None], None] | None = None,
    format: str | None = None,
    batch_rows: int = 1_000_000,
    bins: int = 10_000,
    column_types: Mapping[str, str] | None = None,
    workers: int | None = None,
) -> tuple[Any, FileReport]:
    """Evaluate a prediction file of any size in bounded memory.

    Parameters
    ----------
    path : str or os.PathLike
        CSV, TSV, Parquet, JSON lines or ``.npy`` file (see :func:`iter_batches`).
    true_col, pred_col : str
        Columns of true and predicted labels.
    score_cols : str or sequence of str, optional
        Score columns: one column (the positive-class score of a binary problem) or one per
        class in label order. When given, binned curves are accumulated too and returned as
        ``report.curves`` (a :class:`confmat.binned.ScoreHistogram`).
    weight_col : str, optional
        Column of sample weights.
    labels : sequence, optional
        Fixed classes: a label outside them is an error naming it. By default the sorted union
        of the labels seen.
    skip_invalid : bool, default False
        Skip invalid rows and count them instead of raising.
    progress : callable, optional
        Called after each batch (each row group when several are read at once) as
        ``progress(rows_done, total_rows)``; ``total_rows`` is None when the file does not say
        (CSV, JSON lines).
    format, column_types
        As in :func:`iter_batches`.
    batch_rows : int, default 1_000_000
        Rows per batch: a few batches are in memory at a time. A million rows matches common
        Parquet row groups and keeps the per-batch overhead of decoding low (under 350 MB peak
        for 1e8 rows of int64/int64/float64 in benchmarks/bench_scale.py).
    bins : int, default 10_000
        Score bins of the curves.
    workers : int, optional
        Threads that decode and count the row groups of a Parquet file at once: each group is
        read and counted by one thread into its own partial state, and the partial states are
        added in file order. Default: the CPUs this process may use. With 1, and for other
        formats and single-row-group files, one thread reads the next batch while the current
        one is counted. The result is the same either way (counts exactly; sums of float
        weights up to rounding, as they are added in another order).

    Returns
    -------
    (ConfusionMatrix, FileReport)
        The matrix has ``n == report.rows_read`` (the sum of weights when weighted).
    """
    from .accumulator import Accumulator

    if isinstance(score_cols, str):
        score_cols = [score_cols]
    score_list = list(score_cols) if score_cols is not None else []
    cols = [true_col, pred_col, *score_list]
    if weight_col is not None:
        cols.append(weight_col)
    n_workers = _check_workers(workers)
    reader = iter_batches(
        path, cols, format=format, batch_rows=batch_rows, skip_invalid=skip_invalid,
        column_types=column_types,
    )
    reader._narrow_ints = True  # labels (and integer weights) are only counted here
    acc = Accumulator(labels, scores=bool(score_list) or None, bins=bins)
    report = FileReport(path=reader.path, format=reader.format)

    def feed(target: Any, batch: dict[str, np.ndarray], first: int, last: int) -> None:
        """Add one batch (file rows ``first``..``last``, 1-based) to an accumulator."""
        scores = None
        if score_list:
            scores = (
                batch[score_list[0]]
                if len(score_list) == 1
                else np.column_stack([batch[c] for c in score_list])
            )
        try:
            target.update(
                batch[true_col],
                batch[pred_col],
                scores=scores,
                sample_weight=None if weight_col is None else batch[weight_col],
            )
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"file {reader.path!r}, rows {first}..{last}: {exc}") from exc

    units = reader._parquet_units() if reader.format == "parquet" and n_workers > 1 else []
    if len(units) > 1:
        _evaluate_units(reader, units, acc, report, feed, progress, n_workers)
    else:
        done = 0  # data rows before the current batch, valid or skipped
        for batch in reader:
            feed(acc, batch, done + 1, reader.rows_total)
            done = reader.rows_total
            report.batches += 1
            if progress is not None:
                progress(reader.rows_total, reader.total_rows)
        if progress is not None and reader.rows_total != done:  # skipped rows at the end
            progress(reader.rows_total, reader.total_rows)
    report.rows_read = reader.rows_read
    report.rows_skipped = reader.rows_skipped
    report.skipped_row_numbers = list(reader.skipped_row_numbers)
    if reader.rows_read == 0:
        raise ValueError(
            f"file {reader.path!r} has no valid rows to evaluate "
            f"({reader.rows_skipped} skipped)"
        )
    if score_list:
        report.curves = acc.curves()
    return acc.result(), report


def _check_workers(workers: Any) -> int:
    if workers is None:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # pragma: no cover - not Linux
            return max(1, os.cpu_count() or 1)
    if isinstance(workers, bool) or not isinstance(workers, int | np.integer):
        raise TypeError(f"workers must be an int or None, got {type(workers).__name__}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    return int(workers)


def _evaluate_units(
    reader: BatchReader,
    units: list[tuple[list[int], int]],
    acc: Any,
    report: FileReport,
    feed: Callable[[Any, dict[str, np.ndarray], int, int], None],
    progress: Callable[[int, int | None], None] | None,
    workers: int,
) -> None:
    """Read and count the row groups of a Parquet file on ``workers`` threads.

    Each unit of row groups (see ``BatchReader._parquet_units``) goes into a fresh partial
    accumulator on a worker thread (the decoders and the counting kernels release the GIL;
    the kernels run single-threaded there); the partials
    are merged into ``acc`` in file order, so the row accounting and the labels are those of a
    sequential read. The first units are read on the calling thread until ``acc`` has samples,
    which fixes the classes of the score histogram as a sequential read would. A unit whose
    partial fails is read again on the calling thread into ``acc`` itself (and so are the
    units after it): the error is then exactly the one of a sequential read (its row numbers,
    label and chunk number), never a half-merged result.
    """
    from collections import deque
    from concurrent.futures import Future, ThreadPoolExecutor

    source = _ParquetSource(reader.path, reader.columns)

    def run(index: int, target: Any) -> tuple[int, list[int], int]:
        groups, start = units[index]
        rows, skipped, batches = 0, [], 0
        for batch, skip, first, size in reader._read_unit(source, groups, start):
            skipped.extend(skip)
            n = len(next(iter(batch.values())))
            if n:
                feed(target, batch, first + 1, first + size)
                rows += n
                batches += 1
        source.release(groups)
        return rows, skipped, batches

    def account(rows: int, skipped: list[int], batches: int) -> None:
        reader.rows_read += rows
        reader._account(skipped)
        report.batches += batches
        if progress is not None:
            progress(reader.rows_total, reader.total_rows)

    reader.rows_read = reader.rows_skipped = 0
    reader.skipped_row_numbers = []
    i = 0
    while i < len(units) and acc.n_samples == 0:
        account(*run(i, acc))
        i += 1
    failed = None
    ex = ThreadPoolExecutor(workers, thread_name_prefix="confmat-io")
    try:
        pending: deque[tuple[int, Any, Future[Any]]] = deque()
        nxt = i
        while pending or nxt < len(units):
            # a bounded window of units in flight keeps memory to a few batches
            while nxt < len(units) and len(pending) < 2 * workers:
                part = acc._empty_part()
                pending.append((nxt, part, ex.submit(run, nxt, part)))
                nxt += 1
            index, part, fut = pending.popleft()
            try:
                res = fut.result()
            except (ValueError, TypeError):
                failed = index
                break
            acc.merge(part)
            account(*res)
    finally:
        ex.shutdown(wait=True, cancel_futures=True)
    if failed is not None:
        for index in range(failed, len(units)):
            account(*run(index, acc))
