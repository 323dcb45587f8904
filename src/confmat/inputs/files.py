"""Files and database relations as sources of Arrow record batches, parsed by well-kept engines.

confmat never decodes a file format itself. Each format goes to the engine that measured
fastest on it (figures in docs/scaling.md):

* **Parquet** (a file, a directory, a glob, hive-partitioned datasets): counted by DuckDB
  (``GROUP BY true, pred`` and, with one score column, its bin: see
  :mod:`confmat.inputs.sql_counts`), on a connection that does not plan with the file's
  min / max statistics (a damaged file's statistics must not change the counts); streamed,
  when batches are needed (several score columns, :func:`confmat.io.iter_batches`), by
  :mod:`pyarrow.dataset`, opened lazily.
* **Arrow IPC / Feather**: :mod:`pyarrow.dataset`. Text columns are read as dictionaries, so
  counting works on the dictionary indices and never builds one Python string per row.
* **CSV / TSV** (plain, ``.gz``, ``.zst``, ``.bz2``) and **JSON lines** (plain, ``.gz``,
  ``.zst``): DuckDB's readers, which count in the engine like Parquet.
* **A DuckDB relation or a SQL query**: the same, where the data lives.
* ``.npy`` / ``.npz``: :func:`numpy.load` (memory-mapped for ``.npy``).

Everything an engine raises while reading becomes a ``ValueError`` naming the file: a file an
engine cannot read whole is an error, never a partial result.
"""

from __future__ import annotations

import glob as _glob
import os
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "COMPRESSIONS",
    "FORMATS",
    "ReadError",
    "Source",
    "detect_format",
    "open_source",
    "relation_source",
]

#: Formats understood by the readers, and the file extensions that select them.
FORMATS: dict[str, tuple[str, ...]] = {
    "csv": (".csv",),
    "tsv": (".tsv", ".tab"),
    "parquet": (".parquet", ".pq", ".parq"),
    "jsonl": (".jsonl", ".ndjson", ".json"),
    "arrow": (".arrow", ".feather", ".ipc"),
    "npy": (".npy", ".npz"),
}
_ALIASES = {"ndjson": "jsonl", "json": "jsonl", "pq": "parquet", "feather": "arrow", "ipc": "arrow",
            "npz": "npy"}
#: Compressed text files (CSV, TSV, JSON lines) by extension.
COMPRESSIONS = {".gz": "gzip", ".zst": "zstd", ".bz2": "bz2"}
#: Types a user may force on CSV / JSON lines columns, and DuckDB's names for them.
COLUMN_TYPES = {"string": "VARCHAR", "int64": "BIGINT", "uint64": "UBIGINT",
                "float64": "DOUBLE", "bool": "BOOLEAN"}
#: DuckDB integer types wider than 64 bits (its CSV and JSON readers infer HUGEINT for
#: integers past the int64 range).
#: Longest CSV line DuckDB accepts: its default, 2 MB (larger settings make DuckDB reserve
#: buffers of that size per thread: 64 MB took 1.8 GB of memory on a 1e8-row file).
MAX_LINE_BYTES = 2 << 20


class ReadError(ValueError):
    """An engine could not read a source whole (damaged, truncated or malformed)."""


def engine_error(what: str, exc: BaseException) -> ReadError:
    """The one message for a source an engine refused: names the source and the reason."""
    text = str(exc).strip().splitlines()
    reason = " ".join(line.strip() for line in text[:3]) or type(exc).__name__
    return ReadError(f"{what} cannot be read whole: {reason}")


def engine_exceptions() -> tuple[type[BaseException], ...]:
    out: list[type[BaseException]] = [OSError, ValueError, TypeError, NotImplementedError,
                                      KeyError, IndexError, EOFError, RuntimeError]
    try:
        import duckdb

        out.append(duckdb.Error)
    except ImportError:  # pragma: no cover - duckdb is a core dependency of file reading
        pass
    return tuple(out)


def _strip_compression(name: str) -> tuple[str, str | None]:
    for ext, codec in COMPRESSIONS.items():
        if name.endswith(ext):
            return name[: -len(ext)], codec
    return name, None


def detect_format(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The reader format for ``path``: ``format`` if given, else from the file extension (of
    the first file, for a directory or a glob)."""
    if format is not None:
        if not isinstance(format, str):
            raise TypeError(f"format must be a string, got {type(format).__name__}")
        fmt = _ALIASES.get(format.lower(), format.lower())
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {sorted(FORMATS)}, got {format!r}")
        return fmt
    name = os.fspath(path)
    if os.path.isdir(name):
        files = _dataset_files(name)
        name = files[0] if files else name
    base, _ = _strip_compression(name.lower())
    for fmt, exts in FORMATS.items():
        if base.endswith(exts):
            return fmt
    raise ValueError(
        f"cannot tell the format of {os.fspath(path)!r} from its extension; pass format= one of "
        f"{sorted(FORMATS)}"
    )


def _dataset_files(directory: str) -> list[str]:
    out = []
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        out.extend(os.path.join(root, f) for f in sorted(files)
                   if not f.startswith((".", "_")))
    return out


def _resolve(path: Any) -> list[str]:
    """The files behind ``path``: itself, a directory's data files, or a glob's matches."""
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    p = os.fspath(path)
    if os.path.isdir(p):
        files = _dataset_files(p)
        if not files:
            raise ValueError(f"directory {p!r} holds no data files")
        return files
    if os.path.exists(p):
        return [p]
    if _glob.has_magic(p):
        files = sorted(_glob.glob(p, recursive=True))
        if not files:
            raise ValueError(f"no file matches {p!r}")
        return files
    raise ValueError(f"file {p!r} does not exist")


# ------------------------------------------------------------------------------ sources
@dataclass
class Source:
    """Columns of a file or relation, readable as ordered Arrow record batches.

    ``rows`` is the number of rows the source itself declares (Parquet and Arrow metadata,
    ``.npy`` shape), or None when only reading counts them (CSV, JSON lines, SQL).
    ``relation`` is a DuckDB relation over the source when DuckDB reads it, so the counting
    can be pushed into the engine.
    """

    name: str
    format: str
    columns: list[str]
    rows: int | None = None
    relation: Any = None
    dataset: Any = None
    arrays: Mapping[str, np.ndarray] | None = None
    keep: list[Any] = field(default_factory=list)
    footers: list[tuple[str, Any]] = field(default_factory=list)
    #: Opens the pyarrow dataset on first streaming (Parquet is counted by DuckDB; only
    #: streaming needs pyarrow, whose import and footer checks then happen once).
    make_dataset: Callable[[], Source] | None = None

    @property
    def streams_raw(self) -> bool:
        """Whether :meth:`batches` hands out values as stored (pyarrow or numpy), rather than
        through the DuckDB relation (which already read ``na_values`` as NULL)."""
        return self.relation is None or self.dataset is not None or self.make_dataset is not None

    def stream_source(self) -> None:
        if self.dataset is None and self.make_dataset is not None:
            opened = self.make_dataset()
            self.dataset, self.footers = opened.dataset, opened.footers
            self.make_dataset = None

    def check_footers(self, wanted: Sequence[str]) -> None:
        """Each Parquet row group's row count agrees with the value counts of its column chunks
        (for flat columns they are equal). pyarrow reads as many rows as a row group declares,
        so a damaged count would otherwise drop or invent rows without an error."""
        for path, md in self.footers:
            schema = md.schema
            flat = [j for j in range(md.num_columns)
                    if schema.column(j).path in wanted and schema.column(j).max_repetition_level == 0]
            for i in range(md.num_row_groups):
                rg = md.row_group(i)
                for j in flat:
                    values = rg.column(j).num_values
                    if values != rg.num_rows:
                        raise ReadError(
                            f"{self.name} cannot be read whole: row group {i} declares "
                            f"{rg.num_rows} rows but its column {schema.column(j).path!r} holds "
                            f"{values} values (file {path!r})")

    def check_columns(self, wanted: Sequence[str]) -> None:
        """Every wanted column present exactly once (a duplicated name is ambiguous)."""
        for c in wanted:
            n = self.columns.count(c)
            if n > 1:
                raise ValueError(f"{self.name} has {n} columns named {c!r}; column names must be unique")
        missing = [c for c in wanted if c not in self.columns]
        if missing:
            what = "column" if len(missing) == 1 else "columns"
            raise ValueError(
                f"{self.name} has no {what} {', '.join(map(repr, missing))}; "
                f"available columns: {self.columns}"
            )

    def batches(self, columns: Sequence[str], batch_rows: int, *,
                counted: bool = False) -> Iterator[Any]:
        """Ordered ``pyarrow.RecordBatch`` es of the columns; engine errors become
        :class:`ReadError`. With ``counted``, a source with a DuckDB relation is streamed by
        DuckDB (the engine that counted it: the same decoding, the same values and rows, and
        ``na_values`` already NULL) rather than by the pyarrow dataset."""
        import pyarrow as pa

        self.check_columns(columns)
        cols = list(dict.fromkeys(columns))
        errors = engine_exceptions()
        via_relation = self.relation is not None and (counted or (
            self.dataset is None and self.make_dataset is None))
        if not via_relation:
            try:  # the lazily opened pyarrow dataset reads footers: engine errors too
                self.stream_source()
                self.check_footers(cols)
            except ReadError:
                raise
            except ValueError as exc:
                if type(exc) is ValueError:  # confmat's own message (duplicate names, ...)
                    raise
                raise engine_error(self.name, exc) from exc
            except errors as exc:
                raise engine_error(self.name, exc) from exc
        try:
            if via_relation:
                rel = self.relation.select(*(_quote(c) for c in cols))
                it: Iterator[Any] = iter(rel.to_arrow_reader(batch_rows))
            elif self.dataset is not None:
                it = iter(self.dataset.to_batches(
                    columns=cols, batch_size=batch_rows, use_threads=True))
            else:
                assert self.arrays is not None
                n = 0 if not cols else len(self.arrays[cols[0]])

                def gen() -> Iterator[Any]:
                    for start in range(0, n, batch_rows):
                        yield pa.record_batch(
                            [pa.array(np.asarray(self.arrays[c][start:start + batch_rows]))
                             for c in cols], names=cols)

                it = gen()
            while True:
                try:
                    batch = next(it)
                except StopIteration:
                    return
                yield _exact_batch(batch, full=self.format == "arrow")
        except ReadError:
            raise
        except errors as exc:
            raise engine_error(self.name, exc) from exc


def _exact_batch(batch: Any, full: bool = False) -> Any:
    """A batch as an engine handed it out, checked and with exact integer types.

    * With ``full``, every column is validated: Arrow IPC reading maps the file's buffers as
      they are, so damaged offsets or text would reach the counting (and crash it) unchecked.
    * Dictionary columns are validated: a damaged Parquet page can carry indices past the end
      of its dictionary, which pyarrow's dictionary reading passes on unchecked (its plain
      reading refuses them).
    * Whole-number decimals (DuckDB's ``HUGEINT``, which its CSV and JSON readers infer for
      integers past the int64 range) become int64 or uint64 when they fit, so that labels up
      to 2**64 - 1 stay exact instead of turning into floats or ``Decimal`` objects.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if full:
        batch.validate(full=True)
    cols = list(batch.columns)
    changed = False
    for i, col in enumerate(cols):
        typ = col.type
        if pa.types.is_dictionary(typ) and not full:
            col.validate(full=True)
        elif pa.types.is_decimal(typ) and typ.scale == 0:
            for target in (pa.int64(), pa.uint64()):
                try:
                    cols[i] = pc.cast(col, target)
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                    continue
                changed = True
                break
    if not changed:
        return batch
    return pa.record_batch(cols, names=batch.schema.names)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def open_source(
    path: Any,
    *,
    format: str | None = None,
    column_types: Mapping[str, str] | None = None,
    na_values: Sequence[str] | None = None,
) -> Source:
    """Open a file, a directory or a glob as a :class:`Source` (nothing is read but metadata)."""
    files = _resolve(path)
    fmt = detect_format(files[0], format)
    name = f"file {os.fspath(path)!r}"
    types = _check_types(column_types)
    errors = engine_exceptions()
    try:
        if fmt in ("parquet", "arrow"):
            if types:
                raise ValueError(
                    f"column_types applies to CSV and JSON lines files; {fmt} files carry types")
            if fmt == "parquet":
                return _parquet_source(name, files, os.fspath(path), na_values)
            return _arrow_dataset(name, files, fmt, os.fspath(path))
        if fmt == "npy":
            if types:
                raise ValueError("column_types applies to CSV and JSON lines files")
            return _numpy_source(name, files)
        return _duckdb_text(name, files, fmt, types, na_values)
    except ReadError:
        raise
    except (TypeError, ValueError) as exc:
        if type(exc) in (TypeError, ValueError):
            raise
        raise engine_error(name, exc) from exc
    except errors as exc:
        raise engine_error(name, exc) from exc


def _check_types(column_types: Mapping[str, str] | None) -> dict[str, str]:
    if column_types is None:
        return {}
    if not isinstance(column_types, Mapping):
        raise TypeError(f"column_types must be a mapping of column name to type, got "
                        f"{type(column_types).__name__}")
    out = {}
    for col, typ in column_types.items():
        if typ not in COLUMN_TYPES:
            raise ValueError(
                f"column_types[{col!r}] must be one of {sorted(COLUMN_TYPES)}, got {typ!r}")
        out[str(col)] = COLUMN_TYPES[typ]
    return out


def _arrow_dataset(name: str, files: list[str], fmt: str, root: str) -> Source:
    import pyarrow as pa
    import pyarrow.dataset as ds

    partitioning = "hive" if os.path.isdir(root) else None
    kw: dict[str, Any] = {"partitioning": partitioning}
    if os.path.isdir(root):
        source: Any = root
    else:
        source = files if len(files) > 1 else files[0]
    try:
        base = ds.dataset(source, format="ipc" if fmt == "arrow" else "parquet", **kw)
    except pa.ArrowInvalid as exc:
        if "duplicate" in str(exc):
            for f in files:
                _check_unique_names(name, f, _schema_names(f, fmt) or [], len(files) > 1)
        raise
    if fmt == "arrow":
        for frag in base.get_fragments():
            _check_unique_names(name, frag.path, frag.physical_schema.names, len(files) > 1)
        return Source(name, fmt, list(base.schema.names), rows=base.count_rows(), dataset=base)
    schema = base.schema
    text = [f.name for f in schema
            if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
    dataset = base
    if text:
        pformat = ds.ParquetFileFormat(read_options=ds.ParquetReadOptions(dictionary_columns=text))
        dataset = ds.dataset(source, format=pformat, **kw)
    rows = 0
    footers = []
    for frag in dataset.get_fragments():
        md = frag.metadata
        # the dataset's schema is the first file's: another file may repeat a name
        _check_unique_names(name, frag.path, md.schema.to_arrow_schema().names, len(files) > 1)
        footers.append((frag.path, md))
        declared = md.num_rows
        groups = sum(md.row_group(i).num_rows for i in range(md.num_row_groups))
        if declared < 0 or declared != groups:
            raise ReadError(
                f"{name} cannot be read whole: its footer declares {declared} rows but its row "
                f"groups hold {groups} (file {frag.path!r})"
            )
        rows += declared
    return Source(name, fmt, list(schema.names), rows=rows, dataset=dataset, footers=footers)


def duckdb_connection(trust_statistics: bool = True) -> Any:
    """A private in-memory DuckDB connection, quiet (no progress bar on the user's terminal).

    Without ``trust_statistics`` the optimizer does not plan with the min / max statistics a
    file declares (Parquet row groups): DuckDB narrows ``GROUP BY`` keys to the declared range
    and folds ``isnan`` and comparisons with it, so a damaged file whose values lie outside
    its statistics would be counted into other classes, silently (DuckDB's own full read of
    the same bytes shows the values). Counting then costs up to twice as long, and equals
    that full read.
    """
    import duckdb

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    if not trust_statistics:
        con.execute("SET disabled_optimizers = 'statistics_propagation'")
    return con


def _parquet_source(name: str, files: list[str], root: str,
                    na_values: Sequence[str] | None) -> Source:
    """Parquet counted by DuckDB (``GROUP BY`` pushed into the engine); streamed, when a
    caller needs batches, by pyarrow's dataset scanner."""
    from .sql_counts import parquet_rows

    con = duckdb_connection(trust_statistics=False)
    rows = parquet_rows(con, files, name)
    rel = con.read_parquet(files, hive_partitioning=os.path.isdir(root))
    columns = list(rel.columns)
    if na_values:
        rel = text_nulls(rel, na_values)
    return Source(name, "parquet", columns, rows=rows, relation=rel, keep=[con],
                  make_dataset=lambda: _arrow_dataset(name, files, "parquet", root))


def _check_unique_names(name: str, path: str, names: Sequence[str], several: bool) -> None:
    """The error naming the duplicated columns of a Parquet or Arrow file (the dataset factory
    only says that some names repeat, and reads later files by the first file's schema)."""
    dups = _duplicates(names)
    if dups:
        where = f"{name} (file {path!r})" if several else name
        raise ValueError(f"{where} has duplicate column names {dups}; column names must be "
                         "unique")


def _schema_names(path: str, fmt: str) -> list[str] | None:
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    try:
        return list((pq.read_schema(path) if fmt == "parquet" else ipc.open_file(path).schema).names)
    except engine_exceptions():
        return None


def _duplicates(names: Sequence[str]) -> list[str]:
    """The names that occur more than once, sorted."""
    seen: set[str] = set()
    dups = set()
    for c in names:
        if c in seen:
            dups.add(c)
        seen.add(c)
    return sorted(dups)


def _numpy_source(name: str, files: list[str]) -> Source:
    if len(files) > 1:
        raise ValueError(f"{name}: read .npy / .npz files one at a time")
    path = files[0]
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


def _duckdb_text(name: str, files: list[str], fmt: str, types: dict[str, str],
                 na_values: Sequence[str] | None) -> Source:

    empty = [f for f in files
             if _strip_compression(f.lower())[1] is None and os.path.getsize(f) == 0]
    if empty:
        raise ValueError(f"{name} is empty" if len(files) == 1 else
                         f"{name}: file {empty[0]!r} is empty")
    con = duckdb_connection()
    codecs = {_strip_compression(f.lower())[1] for f in files}
    keep: list[Any] = [con]
    if "bz2" in codecs:
        # DuckDB has no bzip2 codec: Python's (C) decompressor feeds its reader as a stream
        if len(files) > 1:
            raise ValueError(f"{name}: read .bz2 files one at a time")
        import bz2

        handle = bz2.open(files[0], "rb")
        keep.append(handle)
        target: Any = handle
    else:
        target = files if len(files) > 1 else files[0]
    nulls = list(na_values) if na_values is not None else None
    if fmt in ("csv", "tsv"):
        kw: dict[str, Any] = {"header": True, "max_line_size": MAX_LINE_BYTES}
        if fmt == "tsv":
            kw["sep"] = "\t"
        if types:
            kw["dtype"] = types
        if nulls is not None:
            kw["na_values"] = ["", *nulls]
        header = _csv_header(con, files[0], fmt)
        if not header:
            raise ValueError(f"{name} has no header line (it holds no text)")
        if len(files) > 1:
            # DuckDB binds the columns of later files by position unless told to use names
            for f in files[1:]:
                other = _csv_header(con, f, fmt)
                if sorted(other) != sorted(header):
                    raise ValueError(
                        f"{name}: file {f!r} has the columns {other} but {files[0]!r} has "
                        f"{header}; the files of one source need the same columns")
            kw["union_by_name"] = True
        rel = con.read_csv(target, **kw)
        columns = list(rel.columns)
        if len(header) == len(columns):
            # DuckDB renames a repeated name (y, y_1) and tells names apart ignoring case
            folded = [h.casefold() for h in header]
            dups = _duplicates(folded)
            if dups:
                names = sorted({h for h in header if h.casefold() in dups})
                raise ValueError(f"{name} has duplicate column names {names}; column names "
                                 "must be unique (ignoring case)")
    else:
        kw = {"format": "newline_delimited"}
        if types:
            kw["dtype"] = types
        rel = con.read_json(target, **kw)
        columns = list(rel.columns)
        if nulls:
            rel = text_nulls(rel, nulls)
    return Source(name, fmt, columns, rows=None, relation=rel, keep=keep)


def text_nulls(rel: Any, nulls: Sequence[str]) -> Any:
    """The relation with the listed text values of its text columns read as NULL."""
    exprs = []
    listed = ", ".join(_literal(v) for v in nulls)
    for c, t in zip(rel.columns, rel.types, strict=True):
        if str(t) == "VARCHAR":
            exprs.append(f"CASE WHEN {_quote(c)} IN ({listed}) THEN NULL "
                         f"ELSE {_quote(c)} END AS {_quote(c)}")
        else:
            exprs.append(_quote(c))
    return rel.select(", ".join(exprs))


def _csv_header(con: Any, path: str, fmt: str) -> list[str]:
    """The header fields of a CSV file as written (DuckDB renames duplicates, which must be an
    error); empty for a file without a line."""
    kw: dict[str, Any] = {"header": False, "all_varchar": True, "max_line_size": MAX_LINE_BYTES}
    if fmt == "tsv":
        kw["sep"] = "\t"
    target: Any = path
    if _strip_compression(path.lower())[1] == "bz2":
        import bz2

        target = bz2.open(path, "rb")
    try:
        rows = con.read_csv(target, **kw).limit(1).fetchall()
    finally:
        if not isinstance(target, str):
            target.close()
    if not rows:
        return []
    return ["" if v is None else str(v) for v in rows[0]]


def relation_source(relation: Any, name: str = "the SQL relation") -> Source:
    """A DuckDB relation (or anything with ``.columns`` and ``.to_arrow_reader``) as a source."""
    return Source(name, "sql", list(relation.columns), rows=None, relation=relation)
