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
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..deps import require
from ..words import arg, entry, say
from .gzip_check import check_gzip_files
from .numpy_files import numpy_source
from .readers import (
    COMPRESSIONS,
    arrow_source,
    dataset_files,
    duckdb_connection,
    duckdb_text,
    parquet_source,
    strip_compression,
)
from .signatures import check_signature
from .source import FILTER_COLUMN, ReadError, Source, engine_error, engine_exceptions
from .sql_counts import quote
from .where import check_where

__all__ = [
    "COLUMN_TYPES",
    "COMPRESSIONS",
    "FILTER_COLUMN",
    "FORMATS",
    "ReadError",
    "Source",
    "counted_source",
    "detect_format",
    "engine_error",
    "engine_exceptions",
    "open_source",
    "relation_source",
    "source_name",
    "where_source",
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
#: Types a user may force on CSV / JSON lines columns, and DuckDB's names for them.
COLUMN_TYPES = {"string": "VARCHAR", "int64": "BIGINT", "uint64": "UBIGINT",
                "float64": "DOUBLE", "bool": "BOOLEAN"}


def detect_format(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The reader format for ``path``: ``format`` if given, else from the file extension (of
    the first file, for a directory or a glob).

    Parameters
    ----------
    path : str or os.PathLike
        A file or a directory (a compression extension, ``.gz``, ``.zst``, ``.bz2``, is looked
        through).
    format : str, optional
        A format of :data:`FORMATS` or an alias (``'ndjson'``, ``'json'``, ``'pq'``,
        ``'feather'``, ``'ipc'``, ``'npz'``), any case; it wins over the extension.

    Returns
    -------
    str
        A key of :data:`FORMATS`.

    Raises
    ------
    TypeError
        If ``format`` is not a string.
    ValueError
        If ``format`` is not a known format, or it is None and the extension tells none.

    Examples
    --------
    >>> detect_format("preds.csv.gz"), detect_format("x.data", format="Feather")
    ('csv', 'arrow')
    >>> detect_format("preds.txt")
    Traceback (most recent call last):
    ...
    ValueError: cannot tell the format of 'preds.txt' from its extension; pass format= one of ['arrow', 'csv', 'jsonl', 'npy', 'parquet', 'tsv']
    """
    if format is not None:
        if not isinstance(format, str):
            raise TypeError(f"format must be a string, got {type(format).__name__}")
        fmt = _ALIASES.get(format.lower(), format.lower())
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {sorted(FORMATS)}, got {format!r}")
        return fmt
    name = os.fspath(path)
    if os.path.isdir(name):
        files = dataset_files(name)
        name = files[0] if files else name
    base, _ = strip_compression(name.lower())
    for fmt, exts in FORMATS.items():
        if base.endswith(exts):
            return fmt
    raise ValueError(
        f"cannot tell the format of {os.fspath(path)!r} from its extension; pass format= one of "
        f"{sorted(FORMATS)}"
    )



def _resolve(path: Any) -> list[str]:
    """The files behind ``path``: itself, a directory's data files, or a glob's matches."""
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    p = os.fspath(path)
    if os.path.isdir(p):
        files = dataset_files(p)
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



def source_name(path: str | os.PathLike[str]) -> str:
    """A file (or a directory of files) as its reader names it in every message.

    Parameters
    ----------
    path : str or path-like
        The path as the user gave it.

    Returns
    -------
    str

    Examples
    --------
    >>> source_name("p.csv")
    "file 'p.csv'"
    """
    return f"file {os.fspath(path)!r}"


def open_source(
    path: Any,
    *,
    format: str | None = None,
    column_types: Mapping[str, str] | None = None,
    na_values: Sequence[str] | None = None,
) -> Source:
    """Open a file, a directory or a glob as a :class:`Source` (nothing is read but metadata).

    Parameters
    ----------
    path : str or os.PathLike
        A file, a directory (its data files, hive-partitioned for Parquet and Arrow) or a glob.
    format : str, optional
        The format (see :func:`detect_format`); by default from the extension.
    column_types : mapping of str to str, optional
        Types forced on CSV / JSON lines columns and on hive partition columns (of a
        directory of any format but ``.npy``), each one of :data:`COLUMN_TYPES`.
    na_values : sequence of str, optional
        Text values read as missing.

    Returns
    -------
    Source

    Raises
    ------
    TypeError
        If ``path`` is not a str or os.PathLike, or ``column_types`` is not a mapping.
    ValueError
        If no file exists or matches, the format is unknown, ``column_types`` is given for a
        typed format or names an unknown type, or the columns are not unique.
    ReadError
        If the engine cannot read the metadata (a damaged or truncated file).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\n1,0\\n")
    >>> src = open_source(path)
    >>> src.format, src.columns
    ('csv', ['y', 'yhat'])
    """
    files = _resolve(path)
    fmt = detect_format(files[0], format)
    name = source_name(path)
    types = _check_types(column_types)
    errors = engine_exceptions()
    for f in files:  # bytes that contradict the format are named before an engine reads them
        check_signature(name, f, fmt)
    try:
        if fmt == "parquet":  # column_types may type hive partition columns
            return parquet_source(name, files, os.fspath(path), na_values, types)
        if fmt == "arrow":  # column_types may type hive partition columns
            return arrow_source(name, files, os.fspath(path), types)
        if fmt == "npy":
            if types:
                raise ValueError(f"{arg('column_types')} applies to CSV and JSON lines "
                                 "files (and to the hive partition columns of Parquet and "
                                 "Arrow IPC directories), not to .npy / .npz")
            return numpy_source(name, files)
        return duckdb_text(name, files, fmt, types, na_values, os.fspath(path))
    except ReadError:
        raise
    except (TypeError, ValueError) as exc:
        check_gzip_files(name, files)  # a damaged .gz stream is the reason, whatever DuckDB says
        if type(exc) in (TypeError, ValueError):
            raise
        raise engine_error(name, exc) from exc
    except errors as exc:
        check_gzip_files(name, files)
        raise engine_error(name, exc) from exc


def _check_types(column_types: Mapping[str, str] | None) -> dict[str, str]:
    if column_types is None:
        return {}
    if not isinstance(column_types, Mapping):
        raise TypeError(f"{arg('column_types')} must be a mapping of column name to type, "
                        f"got {type(column_types).__name__}")
    out = {}
    for col, typ in column_types.items():
        if typ not in COLUMN_TYPES:
            # column_types['y'] in Python, the option with its value elsewhere (--column-type
            # y=text); braces doubled: say() formats the caller's phrase
            shown = entry("column_types", col, typ).replace("{", "{{").replace("}", "}}")
            said = say(f"column_types[{col!r}] must be", "column_types",
                       f"{shown}: the type must be")
            raise ValueError(f"{said} one of {sorted(COLUMN_TYPES)}, got {typ!r}")
        out[str(col)] = COLUMN_TYPES[typ]
    return out



def relation_source(relation: Any, name: str = "the SQL relation") -> Source:
    """A DuckDB relation (or anything with ``.columns`` and ``.to_arrow_reader``) as a source.

    Parameters
    ----------
    relation : duckdb.DuckDBPyRelation
        The relation (not read here).
    name : str, default 'the SQL relation'
        The source as error messages name it.

    Returns
    -------
    Source
        Format ``'sql'``, rows unknown (None).

    Examples
    --------
    >>> import duckdb
    >>> rel = duckdb.connect().sql("select 1 as y, 0 as yhat")
    >>> relation_source(rel).columns
    ['y', 'yhat']
    """
    return Source(name, "sql", list(relation.columns), rows=None, relation=relation)


def counted_source(source: Source, why: str = "counting by group") -> Source:
    """The source with a DuckDB relation over it: itself when it has one (Parquet, CSV, TSV,
    JSON lines, SQL); an Arrow IPC or NumPy source gets one that scans its data where it is
    (``from_arrow`` over the pyarrow dataset or the arrays), so that DuckDB's ``GROUP BY``
    counts every format (evaluation by group, ``where=``).

    Parameters
    ----------
    source : Source
        The source.
    why : str
        What needs DuckDB and pyarrow, for the message when they are missing.

    Returns
    -------
    Source

    Examples
    --------
    >>> import numpy as np
    >>> src = Source("demo", "npy", ["y"], rows=2, arrays={"y": np.array([0, 1])})
    >>> counted_source(src).relation.fetchall()
    [(0,), (1,)]
    """
    if source.relation is not None:
        return source
    pa = require("pyarrow", why)
    require("duckdb", why)
    source.stream_source()
    con = duckdb_connection()
    if source.dataset is not None:
        data: Any = source.dataset
    else:
        arrays = source.arrays or {}
        # NaN in a float column is a missing value (the door's rule for NumPy), which DuckDB
        # must see as NULL: a NaN label or group is skipped or refused, never a class
        data = pa.table({c: pa.array(np.asarray(arrays[c]), from_pandas=True)
                         for c in source.columns})
    return Source(source.name, source.format, list(source.columns), rows=source.rows,
                  relation=con.from_arrow(data), keep=[*source.keep, con, data],
                  key_ranges=source.key_ranges, connection=con,
                  mixed_types=source.mixed_types, checks=source.checks)


def where_source(source: Source, where: Any) -> Source:
    """The source with a row filter: a SQL boolean expression over its columns, evaluated by
    DuckDB (``"split = 'test' AND site <> 'B'"``). Rows are not dropped here: the relation
    gains :data:`FILTER_COLUMN`, so that every consumer counts the rows left out (a row the
    filter does not hold for, or holds NULL for) and still reconciles every row of the
    source with the count it declares.

    Parameters
    ----------
    source : Source
        A source with a DuckDB relation (Parquet, CSV, TSV, JSON lines, SQL), or an Arrow or
        NumPy source, which is then read through DuckDB (its Arrow data scanned in place).
    where : str
        The filter.

    Returns
    -------
    Source
        A new source; ``relation`` carries the filter column, streaming goes through it.

    Raises
    ------
    TypeError
        If ``where`` is not a string.
    ValueError
        If ``where`` is empty, is not one condition over the columns (a subquery, a function
        that reads outside the rows, text that closes its parentheses:
        :func:`~confmat.inputs.where.check_where`), DuckDB cannot bind it (an unknown column,
        a syntax error), or it is not a boolean expression; the message names ``where``.

    Examples
    --------
    >>> import numpy as np
    >>> src = Source("demo", "npy", ["y", "split"], rows=3,
    ...              arrays={"y": np.array([0, 1, 1]), "split": np.array([1, 2, 1])})
    >>> f = where_source(src, "split = 1")
    >>> [b.column(1).to_pylist() for b in f.batches(["y"], batch_rows=8)]
    [[True, False, True]]
    """
    where = check_where(where, source.columns)
    if FILTER_COLUMN in source.columns:
        raise ValueError(f"{source.name} has a column named {FILTER_COLUMN!r}, which where= "
                         "needs for itself")
    duckdb = require("duckdb", "filtering rows (where=)")
    scanned = counted_source(source, "filtering rows (where=)")
    rel, con, keep = scanned.relation, scanned.connection, list(scanned.keep)
    base = rel
    try:
        rel = rel.select(f"*, coalesce(({where}), false) AS {quote(FILTER_COLUMN)}")
        kind = str(rel.types[-1])
    except duckdb.Error as exc:
        source.finish_checks()  # a header garbled by a damaged stream is the damage
        reason = " ".join(str(exc).strip().splitlines()[:2])
        raise ValueError(f"{arg('where')}: DuckDB cannot evaluate {where!r} over {source.name}: "
                         f"{reason}") from exc
    if kind != "BOOLEAN":
        raise ValueError(f"{arg('where')} must be a boolean SQL expression (a condition), "
                         f"but {where!r} is {kind}")
    return Source(source.name, source.format, list(source.columns), rows=source.rows,
                  relation=rel, keep=keep, key_ranges=source.key_ranges, connection=con,
                  mixed_types=source.mixed_types, filtered=True, where=where,
                  unfiltered=base, checks=source.checks)
