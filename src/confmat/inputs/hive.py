"""Hive partitions: columns whose values are the names of ``key=value`` directories.

A directory given as a source reads its ``key=value`` subdirectories as columns (Parquet,
CSV, TSV, JSON lines by DuckDB's ``hive_partitioning``; Arrow IPC by pyarrow). One rule holds
for every format and every path through confmat (counted by DuckDB, streamed by pyarrow,
``evaluate_file``, evaluation by group, ``iter_batches``, ``read_columns``, the command
line): **a partition value is the value DuckDB reads from the path.**

* *Its type.* ``column_types=`` makes it when it names the key (DuckDB's ``hive_types``);
  otherwise DuckDB's inference stands (``hive_types_autocast``): an integer when every value
  of the key casts to one (``1``, ``-0``, ``' 1'``; not ``01``, ``+1`` or ``1e3``, which keep
  the key text), a date (``2024-1-2``, ``2024-01-02``) or a timestamp likewise, text
  otherwise (``true``, ``1.5``, ``nan``). Arrow IPC directories, which DuckDB does not
  read, are typed by the same inference over the same paths (:func:`partition_values`).
* *Its value.* DuckDB's read of the path: ``__HIVE_DEFAULT_PARTITION__`` is null, and so is
  ``NULL`` under a key of another type than text; ``' 1'`` is the integer 1 (the same group
  as ``1``); percent-encoded text is decoded (``a%2Fb`` is ``a/b``). The streamed path does
  not let pyarrow parse the paths (it refused ``2024-1-2`` as a date and ``' 1'`` as an
  integer): each file is given the values DuckDB reads (:func:`partition_values`,
  :func:`partitioned_dataset`). A date is then a label or group as every date is, the
  ``datetime`` of its midnight.
* *What is refused*, with a ``ValueError`` naming the key and the directory: a value that
  the type ``column_types`` asks for does not fit (``g=x`` as ``int64``), and a value that
  DuckDB's inference reads as an infinite date (``g=inf`` beside dates), which neither Arrow
  nor Python can hold (``column_types={"g": "string"}`` reads it as text). A null value is
  no group and no label: as any missing value, an error naming the column, or skipped and
  counted with ``skip_invalid``.
* A key that is also a column inside a file of its directory is an error: DuckDB would read
  the directory's value in place of the file's. A glob or a single file reads no partition.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..deps import require
from ..words import arg, give_entry
from .sql_counts import literal, quote

__all__ = ["check_partition_columns", "checked_partitions", "hive_options", "partition_keys",
           "partition_values", "partitioned_dataset", "split_types"]

#: The column of the stand-in files of :func:`partition_values` (the index of a directory).
_STAND_IN = "confmat_stand_in"


def partition_keys(files: Sequence[str]) -> dict[str, list[str]]:
    """The hive partition keys of each file: the ``key=value`` directories of its path, in
    order (as DuckDB reads them: every directory of the path).

    Parameters
    ----------
    files : sequence of str
        The files of a directory source.

    Returns
    -------
    dict of str to list of str
        Each file's keys (empty when its path has none).

    Examples
    --------
    >>> partition_keys(["d/g=1/h=a/p.parquet", "d/p.parquet"])
    {'d/g=1/h=a/p.parquet': ['g', 'h'], 'd/p.parquet': []}
    """
    out: dict[str, list[str]] = {}
    for f in files:
        parts = os.path.dirname(os.path.normpath(f)).split(os.sep)
        keys = [p.split("=", 1)[0] for p in parts if "=" in p and not p.startswith("=")]
        out[f] = list(dict.fromkeys(keys))
    return out


def split_types(name: str, keys: Mapping[str, Sequence[str]], types: Mapping[str, str], *,
                typed: bool, kind: str = "Parquet") -> tuple[dict[str, str], dict[str, str]]:
    """``column_types`` split into the types of columns inside the files and those of the
    partition keys.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    keys : mapping of str to sequence of str
        Each file's partition keys (:func:`partition_keys`; empty for a file or a glob).
    types : mapping of str to str
        The DuckDB types asked for, by column.
    typed : bool
        Whether the files carry the types of their columns (Parquet, Arrow IPC):
        ``column_types`` may then name partition keys only.
    kind : str, default='Parquet'
        The format, as the error names it.

    Returns
    -------
    (dict of str to str, dict of str to str)
        The types of the files' columns, and those of the partition keys.

    Raises
    ------
    ValueError
        For a format that carries types, if ``column_types`` names a column that is not a
        partition key.

    Examples
    --------
    >>> split_types("d", {"d/g=1/p.csv": ["g"]}, {"g": "VARCHAR", "y": "BIGINT"}, typed=False)
    ({'y': 'BIGINT'}, {'g': 'VARCHAR'})
    """
    every = {k for ks in keys.values() for k in ks}
    hive = {c: t for c, t in types.items() if c in every}
    data = {c: t for c, t in types.items() if c not in every}
    if typed and data:
        raise ValueError(
            f"{arg('column_types')} names {sorted(data)}, which {name} holds as {kind} "
            f"columns with types of their own; {arg('column_types')} applies to CSV and JSON "
            "lines columns and to "
            f"hive partition columns (here: {sorted(every)})")
    return data, hive


def check_partition_columns(name: str, keys: Mapping[str, Sequence[str]],
                            columns: Mapping[str, Iterable[str]]) -> None:
    """Refuse a partition key that is also a column inside a file of its directory.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    keys : mapping of str to sequence of str
        Each file's partition keys (:func:`partition_keys`).
    columns : mapping of str to iterable of str
        Each file's own columns.

    Raises
    ------
    ValueError
        Naming the column and the file.

    Examples
    --------
    >>> check_partition_columns("d", {"d/g=1/p.csv": ["g"]}, {"d/g=1/p.csv": ["y", "g"]})
    Traceback (most recent call last):
    ...
    ValueError: d: column 'g' is a hive partition (a directory 'g=...') and a column of the file 'd/g=1/p.csv'; it must be one or the other (the reader would take the directory's value for the file's)
    """
    for f, ks in keys.items():
        own = set(columns.get(f, ()))
        for k in ks:
            if k in own:
                raise ValueError(
                    f"{name}: column {k!r} is a hive partition (a directory '{k}=...') and a "
                    f"column of the file {f!r}; it must be one or the other (the reader would "
                    "take the directory's value for the file's)")


def hive_options(keys: Mapping[str, Sequence[str]], types: Mapping[str, str]) -> list[str]:
    """The SQL arguments of a DuckDB reader for these partitions: on when there are keys
    (with the types asked for), off otherwise (DuckDB would otherwise guess from the paths).

    Parameters
    ----------
    keys : mapping of str to sequence of str
        Each file's partition keys (empty for a file or a glob).
    types : mapping of str to str
        The DuckDB types of partition keys (the others are inferred).

    Returns
    -------
    list of str

    Examples
    --------
    >>> hive_options({"d/g=1/p.csv": ["g"]}, {"g": "VARCHAR"})
    ['hive_partitioning = true', "hive_types = {'g': 'VARCHAR'}"]
    >>> hive_options({"p.csv": []}, {})
    ['hive_partitioning = false']
    """
    if not any(keys.values()):
        return ["hive_partitioning = false"]
    out = ["hive_partitioning = true"]
    if types:
        out.append("hive_types = {" + ", ".join(f"{literal(c)}: {literal(t)}"
                                                for c, t in types.items()) + "}")
    return out


def partition_values(con: Any, name: str, files: Sequence[str], types: Mapping[str, str]
                     ) -> Any:
    """The value of every hive partition key of each file, as DuckDB reads it from the path.

    A partition value is text in a directory name, and DuckDB reads text that pyarrow would
    not convert, or would convert otherwise: ``2024-1-2`` and ``inf`` typed as dates, ``' 1'``
    as the integer 1, ``NULL`` (among integers) and ``__HIVE_DEFAULT_PARTITION__`` as null,
    ``a%2Fb`` as ``a/b``. So the values are DuckDB's own, read over stand-in files (one per
    directory, in a temporary directory, removed afterwards) at the same paths, with
    ``types`` where it names the key and DuckDB's inference otherwise; the streamed path
    (:func:`confmat.inputs.readers.arrow_dataset`) hands them out as they are.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    name : str
        The source as error messages name it.
    files : sequence of str
        The files of a directory source.
    types : mapping of str to str
        DuckDB types asked for, by partition key.

    Returns
    -------
    pyarrow.Table or None
        One row per file of ``files`` (in order), one column per key (in the order the keys
        first occur), of the Arrow type of the key's DuckDB type; None when the paths have
        no key.

    Raises
    ------
    ValueError
        The files lie under different partition keys; a value does not read as the type
        ``types`` asks for; or a date or timestamp key holds an infinite value (``inf``,
        ``infinity``: Arrow and Python have no such date). The message names the key and
        the value.

    Examples
    --------
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> t = partition_values(con, "d", ["d/g=2024-1-2/p.arrow", "d/g=2024-01-03/p.arrow"], {})
    >>> t.column("g").to_pylist()
    [datetime.date(2024, 1, 2), datetime.date(2024, 1, 3)]
    >>> partition_values(con, "d", ["d/g=1/p.arrow", "d/g=x/p.arrow"], {"g": "BIGINT"})
    Traceback (most recent call last):
    ...
    ValueError: d: the hive partition 'g' (a directory 'g=x') does not read as BIGINT, the type column_types asks for; its value 'x' is not one
    """
    if not _same_keys(name, files):
        return None
    return _read_stand_ins(con, name, files, types)


def _same_keys(name: str, files: Sequence[str]) -> list[str]:
    """The partition keys of ``files`` in the order they first occur, checked to be the same
    for every file."""
    keys = partition_keys(files)
    order = list(dict.fromkeys(k for ks in keys.values() for k in ks))
    if not order:
        return []
    first = files[0]
    other = next((f for f in files if keys[f] != keys[first]), None)
    if other is not None:
        raise ValueError(f"{name}: its files lie under different hive partition keys "
                         f"({keys[first]} for {first!r}, {keys[other]} for {other!r}); every "
                         "file of a directory needs the same keys")
    return order


def _directory(f: str) -> str:
    return os.path.dirname(os.path.normpath(f))


def _raw_value(directory: str, key: str) -> str:
    """The text of ``key`` in a directory path (its last ``key=`` part), as written."""
    parts = [p for p in directory.split(os.sep) if p.startswith(f"{key}=")]
    return parts[-1].split("=", 1)[1] if parts else ""


def _read_stand_ins(con: Any, name: str, files: Sequence[str], types: Mapping[str, str]
                    ) -> Any:
    """DuckDB's values of the partition keys of ``files`` (see :func:`partition_values`),
    read over one stand-in CSV file per directory."""
    import shutil
    import tempfile

    duckdb = require("duckdb", "reading hive partitions")
    keys = partition_keys(files)
    order = _same_keys(name, files)
    dirs = sorted({_directory(f) for f in files})
    stand_in = tempfile.mkdtemp(prefix="confmat-hive-")
    try:
        paths = []
        for i, d in enumerate(dirs):
            # the path as given, below the stand-in directory (whose own name has no '=')
            mirror = os.path.join(stand_in, os.path.splitdrive(d)[1].lstrip(os.sep))
            os.makedirs(mirror, exist_ok=True)
            path = os.path.join(mirror, "stand-in.csv")
            with open(path, "w") as fh:
                fh.write(f"{_STAND_IN}\n{i}\n")
            paths.append(path)

        def read(asked: Mapping[str, str]) -> Any:
            listed = ", ".join(literal(p) for p in paths)
            return con.sql(f"SELECT * FROM read_csv([{listed}], "
                           f"{', '.join(hive_options(keys, asked))}, union_by_name = true, "
                           f"header = true, columns = {{'{_STAND_IN}': 'BIGINT'}})")

        try:
            rel = read(types)
            found = dict(zip(rel.columns, map(str, rel.types), strict=True))
            out = rel.order(_STAND_IN).arrow()
            table = out.read_all() if hasattr(out, "read_all") else out
        except duckdb.Error as exc:  # a value that does not fit the type asked for
            raise _cast_error(con, name, dirs, read({k: "VARCHAR" for k in order}), types,
                              exc) from exc
        typed = {k: types.get(k, found[k]) for k in order}
        for k in order:
            if typed[k].startswith(("DATE", "TIMESTAMP")):
                inf = rel.filter(f"isinf({quote(k)})").select(_STAND_IN).limit(1).fetchall()
                if inf:
                    raise ValueError(
                        f"{name}: the hive partition {k!r} reads as {typed[k]}, and its value "
                        f"{_raw_value(dirs[inf[0][0]], k)!r} as an infinite date, which Arrow and "
                        f"Python cannot hold; {give_entry('column_types', k, 'string')} to "
                        "read the key as text")
    finally:
        shutil.rmtree(stand_in, ignore_errors=True)
    row = {d: i for i, d in enumerate(dirs)}
    return table.select(order).take([row[_directory(f)] for f in files])


def _cast_error(con: Any, name: str, dirs: Sequence[str], text: Any,
                types: Mapping[str, str], exc: BaseException) -> ValueError:
    """The error naming the partition key and the value that ``types`` does not fit
    (``text``: the stand-ins of ``dirs`` read with every key as text)."""
    rows = text.fetchall()
    at = text.columns.index(_STAND_IN)
    for k, t in types.items():
        if k not in text.columns:
            continue
        i = text.columns.index(k)
        for r in sorted(rows, key=lambda r: r[at]):
            v = r[i]
            if v is not None and con.execute(f"SELECT TRY_CAST(? AS {t}) IS NULL",
                                             [v]).fetchone()[0]:
                return ValueError(
                    f"{name}: the hive partition {k!r} (a directory "
                    f"'{k}={_raw_value(dirs[r[at]], k)}') does not read as {t}, the type "
                    f"{arg('column_types')} asks for; its value {v!r} is not one")
    return ValueError(f"{name}: DuckDB cannot read its hive partition values: "
                      f"{' '.join(str(exc).split())}")


def partitioned_dataset(files: Sequence[str], form: Any, partitions: Any, schema: Any = None
                        ) -> Any:
    """A :mod:`pyarrow.dataset` of ``files`` whose partition columns hold the values of
    ``partitions``: each file a fragment with the expression ``key == value`` (``is_null``
    for a null), which the scanner turns into the column; pyarrow parses no path.

    Parameters
    ----------
    files : sequence of str
        The files, in the order they are read.
    form : str or pyarrow.dataset.FileFormat
        ``'ipc'``, ``'parquet'`` or a file format object.
    partitions : pyarrow.Table
        One row per file, one column per key (:func:`partition_values`).
    schema : pyarrow.Schema, optional
        The files' columns then the keys'; by default the first file's columns (as pyarrow's
        discovery reads them) then the keys'.

    Returns
    -------
    pyarrow.dataset.FileSystemDataset

    Examples
    --------
    >>> import os, tempfile, pyarrow as pa, pyarrow.parquet as pq
    >>> d = tempfile.mkdtemp()
    >>> files = [os.path.join(d, f"g= {i}", "p.parquet") for i in (1, 2)]
    >>> for f in files:
    ...     os.makedirs(os.path.dirname(f))
    ...     pq.write_table(pa.table({"y": [0, 1]}), f)
    >>> values = pa.table({"g": pa.array([1, None], pa.int64())})
    >>> partitioned_dataset(files, "parquet", values).to_table().column("g").to_pylist()
    [1, 1, None, None]
    """
    pa = require("pyarrow", "reading Parquet and Arrow files")
    pc = require("pyarrow.compute", "reading Parquet and Arrow files")
    ds = require("pyarrow.dataset", "reading Parquet and Arrow files")
    pafs = require("pyarrow.fs", "reading Parquet and Arrow files")

    if isinstance(form, str):
        form = ds.IpcFileFormat() if form == "ipc" else ds.ParquetFileFormat()
    if schema is None:
        physical = ds.dataset(files[0], format=form).schema
        schema = pa.schema([*physical, *partitions.schema])
    fs = pafs.LocalFileSystem()
    fragments = []
    for i, f in enumerate(files):
        expr = None
        for key in partitions.column_names:
            value = partitions.column(key)[i]
            term = pc.field(key) == value if value.is_valid else pc.field(key).is_null()
            expr = term if expr is None else expr & term
        fragments.append(form.make_fragment(os.path.abspath(f), fs, partition_expression=expr))
    return ds.FileSystemDataset(fragments, schema, form, fs)


def checked_partitions(con: Any, name: str, files: Sequence[str],
                       keys: Mapping[str, Sequence[str]], relation: Any,
                       asked: Mapping[str, str]) -> tuple[dict[str, str], Any]:
    """The partition keys of a DuckDB relation over ``files`` with their types, and their
    values (:func:`partition_values`) read now when DuckDB may refuse one: a type
    ``column_types`` asks for, or a date or timestamp key (an infinite date). Otherwise the
    values are left to be read when a stream needs them (None).

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    name : str
        The source as error messages name it.
    files : sequence of str
        The files of the relation.
    keys : mapping of str to sequence of str
        Each file's partition keys (:func:`partition_keys`).
    relation : duckdb.DuckDBPyRelation
        The relation over ``files`` (its columns include the keys).
    asked : mapping of str to str
        The DuckDB types ``column_types`` asks for, by partition key.

    Returns
    -------
    (dict of str to str, pyarrow.Table or None)
        The keys' DuckDB types, and their values or None.

    Raises
    ------
    ValueError
        As :func:`partition_values`.
    """
    every = {k for ks in keys.values() for k in ks}
    typed = {c: str(t) for c, t in zip(relation.columns, relation.types, strict=True)
             if c in every}
    if typed and (asked or any(t.startswith(("DATE", "TIMESTAMP")) for t in typed.values())):
        return typed, partition_values(con, name, files, typed)
    return typed, None
