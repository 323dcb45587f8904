"""The metadata of Parquet files, read by DuckDB: the rows the footers declare, checked
against their row groups and column chunks, and the value ranges their statistics declare
(a hint for choosing a counting plan, never trusted: see
:func:`confmat.inputs.sql_counts.count_groups`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..deps import require
from .sql_counts import literal

__all__ = ["file_column_types", "parquet_footers"]


def parquet_footers(con: Any, files: Sequence[str], name: str
                    ) -> tuple[int, dict[str, tuple[int, int]]]:
    """Rows the Parquet footers declare, checked against their row groups and column chunks
    (a footer that disagrees with itself is a damaged file: an engine would read as many rows
    as it declares, dropping or inventing some), the top-level column names checked for
    duplicates (DuckDB would rename the second one), and the range of values each integer
    column declares in its statistics.

    The ranges are a hint for choosing a plan (``key_ranges`` of
    :func:`confmat.inputs.sql_counts.count_groups`), never a fact: a damaged footer's
    statistics may lie. One metadata query besides the files' own row counts.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection that reads the metadata.
    files : sequence of str
        The Parquet files.
    name : str
        The source as error messages name it.

    Returns
    -------
    rows : int
        The total rows the footers declare.
    ranges : dict of str to (int, int)
        For each flat column whose every column chunk declares an integral minimum and
        maximum: the smallest minimum and the largest maximum.

    Raises
    ------
    ValueError
        If a footer disagrees with its row groups, a column chunk holds another count of
        values than its row group declares, or a file repeats a column name.

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.parquet")
    >>> con = duckdb.connect()
    >>> _ = con.execute(f"COPY (SELECT range % 3 AS y, 'a' AS s FROM range(10)) TO '{path}'")
    >>> parquet_footers(con, [path], "p")
    (10, {'y': (0, 2)})
    """
    listed = "[" + ", ".join(literal(f) for f in files) + "]"
    try:
        declared = con.execute(
            f"SELECT file_name, num_rows FROM parquet_file_metadata({listed})").fetchall()
    except Exception as exc:  # duckdb.Error; the module is not imported here
        # DuckDB builds every field of the file metadata, and refuses the lot when a text
        # field nobody counts with (created_by, key-value metadata) is not UTF-8, a file
        # whose data it reads; the row count is then read by pyarrow
        declared = _declared_rows(files, exc)
    # parquet_metadata costs about 15 microseconds per column chunk (it formats every field),
    # so it is read once, as plain rows, and checked here (the same checks as SQL over those
    # rows took twice as long: planning a grouped query costs more than this loop): per flat
    # column (a nested column's path is "name, field, ...", and a repeated one holds more or
    # fewer values than rows) its chunks and the statistics of integers (other physical types
    # may hold text or floats); per file its row groups; the first chunk whose value count
    # disagrees with its row group
    chunks = con.execute(
        "SELECT file_name, row_group_id, row_group_num_rows, column_id, path_in_schema, "
        "num_values, type IN ('INT32', 'INT64'), stats_min_value, stats_max_value "
        f"FROM parquet_metadata({listed})").fetchall()
    columns: dict[tuple[str, str], list[Any]] = {}
    bad = None
    for fname, group, group_rows, c, column, values, integral, s_lo, s_hi in chunks:
        if ", " in column:
            continue
        if values != group_rows and (bad is None or (fname, group, c) < bad[:3]):
            bad = (fname, group, c, column, values, group_rows)
        lo, hi = (_int64(v) if integral else None for v in (s_lo, s_hi))
        was = columns.setdefault((fname, column), [c, 0, None, None, 0, 0])
        was[0] = min(was[0], c)
        was[1] += 1
        if lo is not None:
            was[2] = lo if was[2] is None else min(was[2], lo)
            was[4] += 1
        if hi is not None:
            was[3] = hi if was[3] is None else max(was[3], hi)
            was[5] += 1
    if bad is not None:
        fname, group, _, column, values, group_rows = bad
        raise ValueError(f"{name} cannot be read whole: row group {group} of {fname!r} "
                         f"declares {group_rows} rows but its column {column!r} holds "
                         f"{values} values")
    # a damaged footer may give one row group two sizes: each (group, rows) counts once
    sizes: dict[str, set[tuple[Any, Any]]] = {}
    for fname, group, group_rows, *_ in chunks:
        sizes.setdefault(fname, set()).add((group, group_rows))
    held = {f: (sum(r for _, r in s if r is not None), len(s)) for f, s in sizes.items()}
    dups: dict[str, list[str]] = {}
    ranges: dict[str, tuple[int, int]] = {}
    unknown: set[str] = set()
    for (fname, column), (_, n, c_lo, c_hi, n_lo, n_hi) in sorted(
            columns.items(), key=lambda kv: (kv[0][0], kv[1][0])):
        if n > held[fname][1]:  # more chunks of one name than row groups
            dups.setdefault(fname, []).append(column)
        if n_lo != n or n_hi != n:
            unknown.add(column)
        elif column not in unknown:
            was_range = ranges.get(column, (c_lo, c_hi))
            ranges[column] = (int(min(was_range[0], c_lo)), int(max(was_range[1], c_hi)))
    for fname in sorted(dups):
        where = f"{name} (file {fname!r})" if len(files) > 1 else name
        raise ValueError(f"{where} has duplicate column names {sorted(dups[fname])}; column "
                         "names must be unique")
    total = 0
    for fname, rows in declared:
        got = held.get(fname, (0, 0))[0]
        if rows is None or rows < 0 or int(rows) != got:
            raise ValueError(f"{name} cannot be read whole: the footer of {fname!r} declares "
                             f"{rows} rows but its row groups hold {got}")
        total += int(rows)
    return total, {c: r for c, r in ranges.items() if c not in unknown}


def _int64(text: Any) -> int | None:
    """A statistic's text as a 64-bit integer, or None (as DuckDB's ``TRY_CAST(... AS BIGINT)``
    of an integer's text; anything else is no declared value)."""
    try:
        value = int(text)
    except (TypeError, ValueError):
        return None
    return value if -(1 << 63) <= value < (1 << 63) else None


def _declared_rows(files: Sequence[str], exc: Exception) -> list[tuple[str, int]]:
    """(file, rows its footer declares) read by pyarrow; the engine's error if it fails too."""
    pq = require("pyarrow.parquet", "reading the row counts of these Parquet files")

    try:
        return [(f, pq.read_metadata(f).num_rows) for f in files]
    except Exception:
        raise exc from None


def file_column_types(con: Any, files: Sequence[str]) -> dict[str, dict[str, str]]:
    """The DuckDB type of every top-level column of every Parquet file, from one metadata
    query (``parquet_schema``): the files of one dataset may give a column different types
    (one file written with ``int8`` labels, another with ``uint64``), and DuckDB reads the
    later files with the first file's types unless asked to unify them.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection that reads the metadata.
    files : sequence of str
        The Parquet files.

    Returns
    -------
    dict of str to dict of str to str
        For each file, its top-level columns (in order) and their DuckDB types (a nested
        column has one type, such as ``STRUCT(a BIGINT)``).

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.parquet")
    >>> con = duckdb.connect()
    >>> _ = con.execute(f"COPY (SELECT 1::TINYINT AS y, {{'a': 1}} AS n) TO '{path}'")
    >>> file_column_types(con, [path]) == {path: {"y": "TINYINT", "n": "STRUCT(a INTEGER)"}}
    True
    """
    listed = "[" + ", ".join(literal(f) for f in files) + "]"
    rows = con.execute(
        "SELECT file_name, name, num_children, duckdb_type "
        f"FROM parquet_schema({listed}) ORDER BY file_name, column_id").fetchall()
    out: dict[str, dict[str, str]] = {}
    pending: list[int] = []  # children still to come at each depth below the root
    for fname, column, children, typ in rows:
        if fname not in out:  # the root of a file's schema: its children are the columns
            out[fname] = {}
            pending = [int(children or 0)]
            continue
        while pending and pending[-1] == 0:
            pending.pop()
        if not pending:
            continue
        pending[-1] -= 1
        if len(pending) == 1:
            out[fname][column] = str(typ)
        if children:
            pending.append(int(children))
    return out

