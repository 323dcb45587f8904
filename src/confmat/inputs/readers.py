"""The readers of each format: pyarrow datasets (Parquet streaming, Arrow IPC) and DuckDB
(Parquet counting, CSV / TSV, JSON lines); ``.npy`` / ``.npz`` files are read by
:mod:`confmat.inputs.numpy_files`. Each returns a :class:`~confmat.inputs.source.Source`;
:func:`confmat.inputs.files.open_source` picks one.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from ..deps import require
from .csv_dialect import check_header, csv_relation, raw_header, renamed
from .gzip_check import gzip_checks
from .hive import partitioned_dataset
from .json_lines import json_relation
from .source import ReadError, Source, engine_exceptions, mixed_column_types
from .sql_counts import literal, quote

#: Compressed text files (CSV, TSV, JSON lines) by extension.
COMPRESSIONS = {".gz": "gzip", ".zst": "zstd", ".bz2": "bz2"}
#: Longest CSV line DuckDB accepts: its default, 2 MB (larger settings make DuckDB reserve
#: buffers of that size per thread: 64 MB took 1.8 GB of memory on a 1e8-row file).
MAX_LINE_BYTES = 2 << 20


def strip_compression(name: str) -> tuple[str, str | None]:
    """A file name without its compression extension, and the codec that extension names.

    Parameters
    ----------
    name : str
        A file name (compared as given: lower it first to ignore case).

    Returns
    -------
    (str, str or None)
        The name without ``.gz``, ``.zst`` or ``.bz2``, and ``'gzip'``, ``'zstd'``, ``'bz2'``
        or None when the name has none of them.

    Examples
    --------
    >>> strip_compression("preds.csv.gz"), strip_compression("preds.csv")
    (('preds.csv', 'gzip'), ('preds.csv', None))
    """
    for ext, codec in COMPRESSIONS.items():
        if name.endswith(ext):
            return name[: -len(ext)], codec
    return name, None



def dataset_files(directory: str) -> list[str]:
    """The data files of a directory and its subdirectories, in sorted order; names starting
    with ``.`` or ``_`` (``_SUCCESS``, ``.crc``) are left out.

    Parameters
    ----------
    directory : str
        The directory.

    Returns
    -------
    list of str
        The file paths (empty when there are none).

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for f in ("b.csv", "a.csv", "_SUCCESS"):
    ...     _ = open(os.path.join(d, f), "w").write("y\\n")
    >>> [os.path.basename(f) for f in dataset_files(d)]
    ['a.csv', 'b.csv']
    """
    out: list[str] = []
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        out.extend(os.path.join(root, f) for f in sorted(files)
                   if not f.startswith((".", "_")))
    return out



def arrow_dataset(name: str, files: list[str], fmt: str, root: str,
                  partitions: Any = None) -> Source:
    """A Parquet or Arrow IPC source streamed by a :mod:`pyarrow.dataset` (hive-partitioned
    when ``root`` is a directory). Text columns of Parquet are read as dictionaries, and every
    Parquet footer's row count is checked against its row groups.

    The hive partition values are not parsed by pyarrow: each file is a fragment whose
    partition expression holds the values DuckDB reads from its path
    (:func:`confmat.inputs.hive.partition_values`), so the stream hands out DuckDB's values
    (``2024-1-2`` a date, ``' 1'`` the integer 1, ``__HIVE_DEFAULT_PARTITION__`` null), and
    the files are read in the order DuckDB reads them.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    files : list of str
        The files behind ``root``.
    fmt : {'parquet', 'arrow'}
        The format.
    root : str
        What the user passed: a file, a directory or a glob.
    partitions : pyarrow.Table, optional
        The hive partition values, one row per file of ``files``
        (:func:`confmat.inputs.hive.partition_values`); without them pyarrow reads no
        partition column.

    Returns
    -------
    Source
        With ``dataset``, the declared row count and (Parquet) the footers.

    Raises
    ------
    ValueError
        If a file repeats a column name.
    ReadError
        If a Parquet footer declares another row count than its row groups hold.
    """
    pa = require("pyarrow", "reading Parquet and Arrow files")
    ds = require("pyarrow.dataset", "reading Parquet and Arrow files")

    source: Any = files if len(files) > 1 else files[0]

    def open_dataset(form: Any, schema: Any = None) -> Any:
        if partitions is None:
            return ds.dataset(source, format=form, schema=schema)
        return partitioned_dataset(files, form, partitions, schema)

    try:
        base = open_dataset("ipc" if fmt == "arrow" else "parquet")
    except pa.ArrowInvalid as exc:
        if "duplicate" in str(exc):
            for f in files:
                _check_unique_names(name, f, _schema_names(f, fmt) or [], len(files) > 1)
        raise
    if fmt == "arrow":
        frags = list(base.get_fragments())
        for frag in frags:
            _check_unique_names(name, frag.path, frag.physical_schema.names, len(files) > 1)
        mixed: dict[str, dict[str, str]] = {}
        if len(frags) > 1:
            # the dataset reads every file with the first one's schema (text "01" parsed into
            # the integer 1): integer and float widths are unified, other mixes refused when
            # read (Source.check_columns)
            schemas = [frag.physical_schema for frag in frags]
            mixed = mixed_column_types({frag.path: {f.name: _arrow_type_name(f.type) for f in s}
                                        for frag, s in zip(frags, schemas, strict=True)})
            if mixed:
                try:
                    unified = pa.unify_schemas(schemas, promote_options="permissive")
                except (pa.ArrowInvalid, pa.ArrowTypeError):
                    unified = None  # kinds that do not mix: refused if those columns are read
                if unified is not None:
                    extra = [f for f in base.schema if f.name not in unified.names]
                    base = open_dataset("ipc", pa.schema([*unified, *extra]))
        return Source(name, fmt, list(base.schema.names), rows=base.count_rows(), dataset=base,
                      mixed_types=mixed)
    schema = base.schema
    text = [f.name for f in schema
            if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
    dataset = base
    if text:
        pformat = ds.ParquetFileFormat(read_options=ds.ParquetReadOptions(dictionary_columns=text))
        dataset = open_dataset(pformat)
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


#: Arrow's numeric types by the names DuckDB gives them (see ``mixed_column_types``).
_ARROW_NUMERIC = {"int8": "TINYINT", "int16": "SMALLINT", "int32": "INTEGER", "int64": "BIGINT",
                  "uint8": "UTINYINT", "uint16": "USMALLINT", "uint32": "UINTEGER",
                  "uint64": "UBIGINT", "float": "FLOAT", "double": "DOUBLE"}


def _arrow_type_name(typ: Any) -> str:
    """An Arrow type as :func:`mixed_column_types` compares them (numbers by DuckDB's names)."""
    return _ARROW_NUMERIC.get(str(typ), str(typ))


#: DuckDB's settings that would let a query install an extension from the network and load it
#: when it meets a type or function of one (``INSTALL`` / ``LOAD`` on demand): off in
#: confmat's databases, so that reading a file never downloads code. Everything confmat reads
#: is served by what the Python wheel links statically (parquet, json, icu; gzip and zstd).
NO_EXTENSION_LOADING: dict[str, Any] = {
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
}

#: The in-memory DuckDB databases behind confmat's own connections, by whether they plan with
#: statistics (made on first use).
_DATABASES: dict[bool, Any] = {}
_DATABASE_LOCK = threading.Lock()


def _new_database(trust_statistics: bool) -> Any:
    from .sql_counts import PERFECT_HASH_BITS

    duckdb = require("duckdb", "reading CSV, TSV, JSON lines and Parquet files")
    db = duckdb.connect(config=NO_EXTENSION_LOADING)
    # GLOBAL: a plain SET of perfect_ht_threshold holds for the connection that ran it only
    db.execute(f"SET GLOBAL perfect_ht_threshold = {PERFECT_HASH_BITS}")
    if not trust_statistics:
        db.execute("SET GLOBAL disabled_optimizers = 'statistics_propagation'")
    return db


def duckdb_connection(trust_statistics: bool = True, shared: bool = True) -> Any:
    """A private DuckDB connection, quiet (no progress bar on the user's terminal), to an
    in-memory database of confmat's own (one per process and kind) whose perfect hash aggregate
    takes two one-byte keys (``perfect_ht_threshold``, see
    :func:`confmat.inputs.sql_counts.count_groups`).

    Without ``trust_statistics`` the database does not plan with the min / max statistics a
    file declares (Parquet row groups): DuckDB narrows ``GROUP BY`` keys to the declared range
    (compressed materialization, the perfect hash aggregate) and folds ``isnan`` and
    comparisons with it, so a damaged file whose values lie outside its statistics would be
    counted into other classes, silently (DuckDB's own full read of the same bytes shows the
    values). The counts then equal that full read. CSV and JSON lines declare no statistics,
    and DuckDB's string aggregation is a few per cent faster with the statistics it derives
    itself, so those are read with them. Both settings are global in DuckDB (a ``SET`` on one
    connection changes them for all), hence databases of our own rather than the user's
    default connection, one per kind. Extensions are neither installed nor loaded on demand
    (:data:`NO_EXTENSION_LOADING`): a file whose column has the type of an extension that is
    not loaded cannot make DuckDB fetch it from the network.

    Opening a database takes 15 to 40 ms; each call gets a new connection (a cursor) to the
    same one, and a database that an engine error left unusable is replaced. Without
    ``shared`` the connection has a database of its own: a Python file object (a ``.bz2``
    stream) registers a file system that DuckDB's Python client cannot register twice in one
    database.

    Parameters
    ----------
    trust_statistics : bool, default True
        Whether the database plans with the statistics a file declares (False for Parquet).
    shared : bool, default True
        A cursor of the process's database of that kind; False opens a database of its own.

    Returns
    -------
    duckdb.DuckDBPyConnection
        A connection with the progress bar off.

    Examples
    --------
    >>> con = duckdb_connection()
    >>> con.execute("SELECT current_setting('perfect_ht_threshold')").fetchone()[0] >= 12
    True
    >>> con.execute("SELECT current_setting('autoload_known_extensions')").fetchone()[0]
    False
    """
    duckdb = require("duckdb", "reading CSV, TSV, JSON lines and Parquet files")
    if not shared:
        con = _new_database(trust_statistics)
        con.execute("SET enable_progress_bar = false")
        return con
    with _DATABASE_LOCK:
        db = _DATABASES.get(trust_statistics)
        if db is not None:
            try:
                con = db.cursor()
                con.execute("SET enable_progress_bar = false")
                return con
            except duckdb.Error:  # invalidated by a fatal error: open another
                del _DATABASES[trust_statistics]
        db = _DATABASES[trust_statistics] = _new_database(trust_statistics)
        con = db.cursor()
        con.execute("SET enable_progress_bar = false")
        return con


def arrow_source(name: str, files: list[str], root: str,
                 types: Mapping[str, str] | None = None) -> Source:
    """Arrow IPC files streamed by a :mod:`pyarrow.dataset`; the hive partition columns of a
    directory typed as DuckDB types those of the other formats (``types`` where it names a
    key, DuckDB's inference from the paths otherwise:
    :func:`confmat.inputs.hive.partition_values`),
    rather than by pyarrow's own guess.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    files : list of str
        The Arrow IPC files.
    root : str
        What the user passed: a file, a directory (then hive-partitioned) or a glob.
    types : mapping of str to str, optional
        DuckDB types of hive partition columns.

    Returns
    -------
    Source
        With ``dataset`` and the declared row count.

    Raises
    ------
    ValueError
        ``types`` names a column that is not a partition key, a partition key is also a
        column of a file, or a file repeats a column name.

    Examples
    --------
    >>> import os, tempfile, pyarrow as pa, pyarrow.feather as feather
    >>> d = tempfile.mkdtemp()
    >>> for g in ("01", "1"):
    ...     os.makedirs(os.path.join(d, f"g={g}"))
    ...     feather.write_feather(pa.table({"y": [1]}), os.path.join(d, f"g={g}", "p.arrow"))
    >>> files = sorted(os.path.join(d, f"g={g}", "p.arrow") for g in ("01", "1"))
    >>> src = arrow_source("d", files, d)
    >>> sorted(src.dataset.to_table().column("g").to_pylist())
    ['01', '1']
    """
    from .hive import check_partition_columns, partition_keys, partition_values, split_types

    keys = partition_keys(files) if os.path.isdir(root) else {}
    _, hive_types = split_types(name, keys, types or {}, typed=True, kind="Arrow IPC")
    if not any(keys.values()):
        return arrow_dataset(name, files, "arrow", root)
    check_partition_columns(name, keys, {f: _schema_names(f, "arrow") or [] for f in files})
    values = partition_values(duckdb_connection(), name, files, hive_types)
    return arrow_dataset(name, files, "arrow", root, partitions=values)


def parquet_source(name: str, files: list[str], root: str,
                    na_values: Sequence[str] | None,
                    types: Mapping[str, str] | None = None) -> Source:
    """Parquet counted by DuckDB (``GROUP BY`` pushed into the engine); streamed, when a
    caller needs batches, by pyarrow's dataset scanner.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    files : list of str
        The Parquet files.
    root : str
        What the user passed: a file, a directory (then hive-partitioned) or a glob.
    na_values : sequence of str, optional
        Text values of text columns read as NULL.
    types : mapping of str to str, optional
        DuckDB types of hive partition columns (see :mod:`confmat.inputs.hive`).

    Returns
    -------
    Source
        With a DuckDB ``relation``, the row count the footers declare and ``make_dataset``.

    Raises
    ------
    ValueError
        If a footer disagrees with its row groups or a file repeats a column name (see
        :func:`confmat.inputs.parquet_meta.parquet_footers`), ``types`` names a column that
        is not a partition key, or a partition key is also a column of a file.
    """
    from .hive import (
        check_partition_columns,
        checked_partitions,
        hive_options,
        partition_keys,
        partition_values,
        split_types,
    )
    from .parquet_meta import file_column_types, parquet_footers

    con = duckdb_connection(trust_statistics=False)
    rows, ranges = parquet_footers(con, files, name)
    keys = partition_keys(files) if os.path.isdir(root) else {}
    _, hive_types = split_types(name, keys, types or {}, typed=True)
    # DuckDB reads every file with the first file's types: a later file's float labels would
    # be rounded into integers, its text cast to numbers. With types that differ, the files
    # are unified by name (integers to a type holding every width exactly) and the columns
    # that are read are checked to hold one kind of value (Source.check_columns).
    each = file_column_types(con, files) if len(files) > 1 or any(keys.values()) else {}
    check_partition_columns(name, keys, each)
    mixed = mixed_column_types(each) if len(files) > 1 else {}
    listed = ", ".join(literal(f) for f in files)
    options = [*hive_options(keys, hive_types), f"union_by_name = {str(bool(mixed)).lower()}"]
    rel = con.sql(f"SELECT * FROM read_parquet([{listed}], {', '.join(options)})")
    columns = list(rel.columns)
    # the streamed path hands out the values DuckDB reads, of the relation's types
    typed, values = checked_partitions(con, name, files, keys, rel, hive_types)
    if na_values:
        rel = _text_nulls(rel, na_values)
    # pyarrow's dataset would read the files with the first one's schema: stream the unified
    # relation instead
    make = None if mixed else (lambda: arrow_dataset(
        name, files, "parquet", root,
        partitions=values if values is not None or not typed else partition_values(
            con, name, files, typed)))
    return Source(name, "parquet", columns, rows=rows, relation=rel, keep=[con],
                  make_dataset=make, key_ranges=ranges, connection=con, mixed_types=mixed)


def _check_unique_names(name: str, path: str, names: Sequence[str], several: bool) -> None:
    """The error naming the duplicated columns of a Parquet or Arrow file (the dataset factory
    only says that some names repeat, and reads later files by the first file's schema)."""
    dups = _duplicates(names)
    if dups:
        where = f"{name} (file {path!r})" if several else name
        raise ValueError(f"{where} has duplicate column names {dups}; column names must be "
                         "unique")


def _schema_names(path: str, fmt: str) -> list[str] | None:
    ipc = require("pyarrow.ipc", "reading Arrow files")
    pq = require("pyarrow.parquet", "reading Parquet files")

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


def duckdb_text(name: str, files: list[str], fmt: str, types: dict[str, str],
                 na_values: Sequence[str] | None, root: str | None = None) -> Source:
    """A CSV, TSV or JSON lines source read by DuckDB (``.gz`` and ``.zst`` by DuckDB,
    ``.bz2`` through Python's decompressor; each ``.gz`` stream is also checked by zlib
    beside DuckDB's read, see :mod:`confmat.inputs.gzip_check`).

    Parameters
    ----------
    name : str
        The source as error messages name it.
    files : list of str
        The files (several CSV files must have the same columns, bound by name).
    fmt : {'csv', 'tsv', 'jsonl'}
        The format.
    types : dict of str to str
        DuckDB types forced on columns (may be empty).
    na_values : sequence of str, optional
        Text values read as NULL (an empty CSV field always is).
    root : str, optional
        What the user passed; a directory reads its ``key=value`` subdirectories as hive
        partition columns (see :mod:`confmat.inputs.hive`), typed by ``types`` when it
        names them.

    Returns
    -------
    Source
        With a DuckDB ``relation``; rows unknown (None).

    Raises
    ------
    ValueError
        An empty CSV or TSV file (0 bytes: no header line), JSON lines files none of which
        holds a JSON value (0 bytes, compressed and empty, or blank lines only; one such
        among others holds no rows and is left out), a CSV file without a header,
        files with different columns, several ``.bz2`` files, or a repeated column name
        (ignoring case).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,yhat\\nNA,1\\n")
    >>> src = duckdb_text("p", [path], "csv", {}, ["NA"])
    >>> src.columns, src.relation.fetchall()
    (['y', 'yhat'], [(None, 1)])
    """
    empty = [f for f in files
             if strip_compression(f.lower())[1] is None and os.path.getsize(f) == 0]
    if empty and fmt == "jsonl":
        # JSON lines have no header: a file of 0 bytes is a whole file of no records, and
        # adds no row (and no column types) to the others
        if len(empty) == len(files):
            raise ValueError(f"{name} is empty (0 bytes): it holds no rows" if len(files) == 1
                             else f"{name} holds no rows: each of its files is empty (0 bytes)")
        files = [f for f in files if f not in empty]
    elif empty:
        # a CSV or TSV file starts with its header line: one of 0 bytes lacks it (a file
        # whose writing failed?), and is refused rather than read as no rows
        what = name if len(files) == 1 else f"{name}: file {empty[0]!r}"
        raise ValueError(f"{what} is empty (0 bytes): it has no header line; every "
                         f"{fmt.upper()} file of a source starts with its header")
    from .hive import checked_partitions, partition_keys, split_types

    keys = partition_keys(files) if root is not None and os.path.isdir(root) else {}
    types, hive_types = split_types(name, keys, types, typed=False)
    codecs = {strip_compression(f.lower())[1] for f in files}
    con = duckdb_connection(shared="bz2" not in codecs)
    keep: list[Any] = [con]
    if "bz2" in codecs:
        # DuckDB has no bzip2 codec: Python's (C) decompressor feeds its reader as a stream
        if len(files) > 1:
            raise ValueError(f"{name}: read .bz2 files one at a time")
        import bz2

        if fmt == "jsonl":
            from .json_lines import no_rows_error, stream_holds_value

            with bz2.open(files[0], "rb") as peek:
                if not stream_holds_value(peek):
                    raise no_rows_error(name, False)
        handle = bz2.open(files[0], "rb")
        keep.append(handle)
        target: Any = handle
    else:
        target = files if len(files) > 1 else files[0]
    nulls = list(na_values) if na_values is not None else None
    mixed: dict[str, dict[str, str]] = {}
    if fmt in ("csv", "tsv"):
        sep = "\t" if fmt == "tsv" else None
        nullstr = ["", *nulls] if nulls is not None else None
        if "bz2" not in codecs:  # each file sniffed once (DuckDB's read_csv sniffs repeatedly)
            rel, mixed = csv_relation(con, name, files, max_line_size=MAX_LINE_BYTES,
                                      delimiter=sep, types=types, nullstr=nullstr,
                                      partitions=keys, hive_types=hive_types)
        else:
            rel = con.read_csv(target, header=True, max_line_size=MAX_LINE_BYTES,
                               **({"sep": sep} if sep else {}), **({"dtype": types} if types else {}),
                               **({"na_values": nullstr} if nullstr is not None else {}))
            if renamed(list(rel.columns)):  # DuckDB may have renamed a repeated name
                with bz2.open(files[0], "rb") as again:
                    check_header(name, raw_header(con, again, sep, MAX_LINE_BYTES))
        columns = list(rel.columns)
    else:
        rel, mixed = json_relation(con, name, files, target, types, keys, hive_types)
        columns = list(rel.columns)
        if nulls:
            rel = _text_nulls(rel, nulls)
    if any(keys.values()):
        checked_partitions(con, name, files, keys, rel, hive_types)
    return Source(name, fmt, columns, rows=None, relation=rel, keep=keep, key_ranges={},
                  connection=con, mixed_types=mixed, checks=gzip_checks(name, files))


def _text_nulls(rel: Any, nulls: Sequence[str]) -> Any:
    """The relation with the listed text values of its text columns read as NULL."""
    exprs = []
    listed = ", ".join(literal(v) for v in nulls)
    for c, t in zip(rel.columns, rel.types, strict=True):
        if str(t) == "VARCHAR":
            exprs.append(f"CASE WHEN {quote(c)} IN ({listed}) THEN NULL "
                         f"ELSE {quote(c)} END AS {quote(c)}")
        else:
            exprs.append(quote(c))
    return rel.select(", ".join(exprs))
