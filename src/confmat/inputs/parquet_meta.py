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

__all__ = ["parquet_footers"]


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
    # parquet_metadata costs about 50 microseconds per column chunk (it formats every field),
    # so it is read once: per flat column (a nested column's path is "name, field, ...", and
    # a repeated one holds more or fewer values than rows) its chunks and the statistics of
    # integers (other physical types may hold text or floats); per file its row groups; the
    # first chunk whose value count disagrees with its row group
    lo, hi = (f"CASE WHEN type IN ('INT32', 'INT64') THEN TRY_CAST(stats_{m}_value AS BIGINT) "
              "END" for m in ("min", "max"))
    rows = con.execute(
        "WITH m AS MATERIALIZED (SELECT file_name AS f, row_group_id AS g, "
        "row_group_num_rows AS r, column_id AS c, path_in_schema AS col, num_values AS v, "
        f"path_in_schema NOT LIKE '%, %' AS flat, {lo} AS lo, {hi} AS hi "
        f"FROM parquet_metadata({listed})) "
        "SELECT 0 AS kind, f, col, count(*), NULL::BIGINT, NULL::HUGEINT, min(lo), max(hi), "
        "count(lo), count(hi), min(c) AS c FROM m WHERE flat GROUP BY f, col "
        "UNION ALL SELECT 1, f, NULL, count(*), NULL, sum(r), NULL, NULL, NULL, NULL, NULL "
        "FROM (SELECT DISTINCT f, g, r FROM m) GROUP BY f "
        "UNION ALL SELECT * FROM (SELECT 2, f, col, v, g, r, NULL, NULL, NULL, NULL, c FROM m "
        "WHERE flat AND v IS DISTINCT FROM r ORDER BY f, g, c LIMIT 1) "
        "ORDER BY kind, f, c").fetchall()
    chunks = [r[1:] for r in rows if r[0] == 0]
    held = {f: (int(r or 0), n) for _, f, _, n, _, r, *_ in (r for r in rows if r[0] == 1)}
    for _, fname, column, values, group, group_rows, *_ in (r for r in rows if r[0] == 2):
        raise ValueError(f"{name} cannot be read whole: row group {group} of {fname!r} "
                         f"declares {group_rows} rows but its column {column!r} holds "
                         f"{values} values")
    dups: dict[str, list[str]] = {}
    ranges: dict[str, tuple[int, int]] = {}
    unknown: set[str] = set()
    for fname, column, n, _, _, c_lo, c_hi, n_lo, n_hi, _ in chunks:
        if n > held[fname][1]:  # more chunks of one name than row groups
            dups.setdefault(fname, []).append(column)
        if n_lo != n or n_hi != n:
            unknown.add(column)
        elif column not in unknown:
            was = ranges.get(column, (c_lo, c_hi))
            ranges[column] = (int(min(was[0], c_lo)), int(max(was[1], c_hi)))
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


def _declared_rows(files: Sequence[str], exc: Exception) -> list[tuple[str, int]]:
    """(file, rows its footer declares) read by pyarrow; the engine's error if it fails too."""
    pq = require("pyarrow.parquet", "reading the row counts of these Parquet files")

    try:
        return [(f, pq.read_metadata(f).num_rows) for f in files]
    except Exception:
        raise exc from None
