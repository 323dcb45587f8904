"""CSV files as a DuckDB relation, each file sniffed once.

DuckDB's Python ``read_csv`` pins what its sniffer finds (dialect and column types) into the
relation, so that later queries do not sniff again, but it runs the sniffer and the binder
several times to do so: 50 to 80 ms per file, where one sniff takes 5 to 25 ms (a 10^6-row
file was counted in 162 ms that way, in 117 ms by the relation below, 125 ms by DuckDB's own
``SELECT ... GROUP BY`` on the file). Here DuckDB's ``sniff_csv`` runs once per file and its
findings are written into a ``read_csv`` call with ``auto_detect = false``: the same dialect
and types, bound once, read without sniffing again. (The ``Prompt`` text that ``sniff_csv``
also returns does not quote the file name or the column names, so a name with a quote in it
would break it: the call is written here, every text a SQL literal.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..words import arg
from .hive import check_partition_columns, hive_options
from .source import mixed_column_types
from .sql_counts import literal

__all__ = ["CsvSniff", "check_header", "csv_relation", "has_data_row", "raw_header",
           "read_sniffed", "renamed", "sniff"]

#: How ``sniff_csv`` shows an option that is not set (no quote, escape or comment character).
_EMPTY = "(empty)"


def _options(max_line_size: int, delimiter: str | None, types: Mapping[str, str],
             nullstr: Sequence[str] | None) -> list[str]:
    """The reader options the caller sets, as SQL arguments of ``sniff_csv`` / ``read_csv``
    (a header line is always read)."""
    out = ["header = true", f"max_line_size = {int(max_line_size)}"]
    if delimiter is not None:
        out.append(f"delim = {literal(delimiter)}")
    if types:
        out.append("types = {" + ", ".join(f"{literal(c)}: {literal(t)}"
                                           for c, t in types.items()) + "}")
    if nullstr is not None:
        out.append("nullstr = [" + ", ".join(literal(v) for v in nullstr) + "]")
    return out


@dataclass(frozen=True)
class CsvSniff:
    """What DuckDB's sniffer found in one CSV file.

    Parameters
    ----------
    options : tuple of str
        The ``read_csv`` arguments (SQL) that read the file without sniffing again: the
        dialect, the date and timestamp formats, and the caller's own options.
    columns : tuple of (str, str)
        Its columns and their DuckDB types (forced types included).
    """

    options: tuple[str, ...]
    columns: tuple[tuple[str, str], ...]


def sniff(con: Any, path: str, *, max_line_size: int, delimiter: str | None = None,
          types: Mapping[str, str] | None = None, nullstr: Sequence[str] | None = None
          ) -> CsvSniff:
    """Run DuckDB's ``sniff_csv`` once on a CSV file (plain, ``.gz`` or ``.zst``; its first line
    is the header).

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    path : str
        The file.
    max_line_size : int
        The longest line DuckDB accepts, in bytes (also while sniffing).
    delimiter : str, optional
        The field separator (sniffed when None).
    types : mapping of str to str, optional
        DuckDB types forced on columns.
    nullstr : sequence of str, optional
        Field texts read as NULL (DuckDB's default, the empty field, when None).

    Returns
    -------
    CsvSniff

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y;p\\n1;a\\n")
    >>> sniff(duckdb.connect(), path, max_line_size=1 << 20).columns
    (('y', 'BIGINT'), ('p', 'VARCHAR'))
    """
    given = _options(max_line_size, delimiter, types or {}, nullstr)
    res = con.execute(f"SELECT Delimiter, Quote, Escape, NewLineDelimiter, Comment, SkipRows, "
                      f"Columns, DateFormat, TimestampFormat "
                      f"FROM sniff_csv({literal(path)}, {', '.join(given)})")
    (delim, quote, escape, new_line, comment, skip, columns, date_format,
     timestamp_format) = res.fetchall()[0]
    found = ["auto_detect = false", "header = true", f"delim = {literal(delim)}",
             f"new_line = {literal(new_line)}", f"skip = {int(skip)}"]
    found += [f"{opt} = {literal('' if value == _EMPTY else value)}"
              for opt, value in (("quote", quote), ("escape", escape), ("comment", comment))]
    found += [f"{opt} = {literal(value)}" for opt, value in
              (("dateformat", date_format), ("timestampformat", timestamp_format)) if value]
    found += [o for o in given if not o.startswith(("header", "delim", "types"))]
    return CsvSniff(tuple(found), tuple((c["name"], c["type"]) for c in columns))


def read_sniffed(con: Any, paths: Sequence[str], found: CsvSniff,
                 extra: Sequence[str] = ("hive_partitioning = false",)) -> Any:
    """A relation reading CSV files with what :func:`sniff` found (in one of them, when the
    sniffer found the same in each).

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    paths : sequence of str
        The files, read in this order.
    found : CsvSniff
        Their dialect and columns.
    extra : sequence of str, default ('hive_partitioning = false',)
        More ``read_csv`` arguments (SQL): by default, no hive partition columns guessed
        from the paths (see :func:`confmat.inputs.hive.hive_options`).

    Returns
    -------
    duckdb.DuckDBPyRelation
        ``SELECT * FROM read_csv(paths, auto_detect = false, ...)``.

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "it's.csv")
    >>> _ = open(path, "w").write('y,"p\\'s"\\n1,NA\\n2,b\\n')
    >>> con = duckdb.connect()
    >>> rel = read_sniffed(con, [path], sniff(con, path, max_line_size=1 << 20, nullstr=["NA"]))
    >>> rel.columns, [str(t) for t in rel.types], rel.fetchall()
    (['y', "p's"], ['BIGINT', 'VARCHAR'], [(1, None), (2, 'b')])
    """
    files = "[" + ", ".join(literal(p) for p in paths) + "]"
    columns = "columns = {" + ", ".join(f"{literal(c)}: {literal(t)}"
                                        for c, t in found.columns) + "}"
    return con.sql(f"SELECT * FROM read_csv({files}, {', '.join([*found.options, *extra])}, "
                   f"{columns})")


def csv_relation(con: Any, name: str, files: Sequence[str], *, max_line_size: int,
                 delimiter: str | None, types: Mapping[str, str],
                 nullstr: Sequence[str] | None,
                 partitions: Mapping[str, Sequence[str]] | None = None,
                 hive_types: Mapping[str, str] | None = None
                 ) -> tuple[Any, dict[str, dict[str, str]]]:
    """One or several CSV files (plain, ``.gz``, ``.zst``) as one relation, each file sniffed
    once, with the checks of their header lines.

    Files that the sniffer finds alike (dialect, columns in the same order, types) are read
    by one ``read_csv`` call pinned to what it found; files that differ are read by DuckDB's
    ``read_csv`` with ``union_by_name`` (their columns bound by name, each file's dialect
    its own), and the types each file gives a column are returned to be checked
    (:func:`confmat.inputs.source.mixed_column_types`). A file that is its header alone
    (no data row: :func:`has_data_row`) holds no value of any kind and is left out of that
    read, so that its sniffed types (VARCHAR) do not take part; its header is still checked.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    name : str
        The source as error messages name it.
    files : sequence of str
        The files.
    max_line_size : int
        The longest line DuckDB accepts, in bytes.
    delimiter : str, optional
        The field separator (sniffed when None).
    types : mapping of str to str
        DuckDB types forced on columns (may be empty).
    nullstr : sequence of str, optional
        Field texts read as NULL.
    partitions : mapping of str to sequence of str, optional
        Each file's hive partition keys (:func:`confmat.inputs.hive.partition_keys`; none
        when None or empty: the reader is told not to guess them from the paths).
    hive_types : mapping of str to str, optional
        DuckDB types of partition keys (the others are inferred by DuckDB).

    Returns
    -------
    relation : duckdb.DuckDBPyRelation
    mixed : dict of str to dict of str to str
        The columns to which the files give different types (empty for one file).

    Raises
    ------
    ValueError
        A file without a header line, files with different columns, a repeated column
        name (ignoring case), or a partition key that is also a column of a file.

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for i, text in enumerate(["y,p\\n1,2\\n", "p,y\\n3,4\\n"]):
    ...     _ = open(os.path.join(d, f"{i}.csv"), "w").write(text)
    >>> rel, mixed = csv_relation(duckdb.connect(), "d", [os.path.join(d, "0.csv"),
    ...                           os.path.join(d, "1.csv")], max_line_size=1 << 20,
    ...                           delimiter=None, types={}, nullstr=None)
    >>> rel.columns, sorted(rel.fetchall()), mixed
    (['y', 'p'], [(1, 2), (4, 3)], {})
    """
    found = []
    for f in files:
        try:
            found.append(sniff(con, f, max_line_size=max_line_size, delimiter=delimiter,
                               types=types, nullstr=nullstr))
        except Exception:  # duckdb.Error: a forced type of a column the file lacks?
            if types:
                names = [c for c, _ in sniff(con, f, max_line_size=max_line_size,
                                             delimiter=delimiter, nullstr=nullstr).columns]
                unknown = sorted(set(types) - set(names))
                if unknown:
                    where = name if len(files) == 1 else f"{name} (file {f!r})"
                    raise ValueError(f"{arg('column_types')} names {unknown}, which {where} "
                                     f"does not have (its columns: {names})") from None
            raise
    partitions = partitions or {}
    check_partition_columns(name, partitions, {f: [c for c, _ in s.columns]
                                               for f, s in zip(files, found, strict=True)})
    hive = tuple(hive_options(partitions, hive_types or {}))
    first = [c for c, _ in found[0].columns]
    if not first:
        raise ValueError(f"{name} has no header line (it holds no text)")
    for f, s in zip(files, found, strict=True):
        names = [c for c, _ in s.columns]
        if sorted(names) != sorted(first):
            raise ValueError(f"{name}: file {f!r} has the columns {names} but {files[0]!r} has "
                             f"{first}; the files of one source need the same columns")
        if renamed(names):  # the header as written: DuckDB may have renamed a repeated name
            check_header(name, raw_header(con, f, delimiter, max_line_size))
    if all(s == found[0] for s in found):
        return read_sniffed(con, files, found[0], hive), {}
    # A file that is its header alone holds no value of any kind: the sniffer gives its
    # columns the type VARCHAR, which would refuse the source (or make text of numbers).
    # Such files are left out of the read; they add no row.
    held = [(f, s) for f, s in zip(files, found, strict=True) if has_data_row(con, f, s)]
    if not held:
        return read_sniffed(con, files[:1], found[0], hive), {}
    if all(s == held[0][1] for _, s in held):
        return read_sniffed(con, [f for f, _ in held], held[0][1], hive), {}
    rel = con.sql(f"SELECT * FROM read_csv([{', '.join(literal(f) for f, _ in held)}], "
                  f"{', '.join([*_options(max_line_size, delimiter, types, nullstr), *hive])}, "
                  "union_by_name = true)")
    return rel, mixed_column_types({f: dict(s.columns) for f, s in held})


def has_data_row(con: Any, path: str, found: CsvSniff) -> bool:
    """Whether a CSV file holds a line after its header (one that is not skipped or blank).

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    path : str
        The file.
    found : CsvSniff
        What :func:`sniff` found in it.

    Returns
    -------
    bool

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,p\\n")
    >>> con = duckdb.connect()
    >>> has_data_row(con, path, sniff(con, path, max_line_size=1 << 20))
    False
    """
    return bool(read_sniffed(con, [path], found).limit(1).fetchall())


def check_header(name: str, header: Sequence[str]) -> None:
    """The error naming repeated column names of a header line (ignoring case, as DuckDB
    tells names apart).

    Parameters
    ----------
    name : str
        The source as error messages name it.
    header : sequence of str
        The header fields as written.

    Raises
    ------
    ValueError
        If a name repeats.

    Examples
    --------
    >>> check_header("p.csv", ["y", "Y"])
    Traceback (most recent call last):
    ...
    ValueError: p.csv has duplicate column names ['Y', 'y']; column names must be unique (ignoring case)
    """
    folded = [h.casefold() for h in header]
    dups = {h for h in folded if folded.count(h) > 1}
    if dups:
        names = sorted({h for h in header if h.casefold() in dups})
        raise ValueError(f"{name} has duplicate column names {names}; column names must be "
                         "unique (ignoring case)")


def renamed(columns: Sequence[str]) -> bool:
    """Whether DuckDB may have renamed a repeated column name: it reads a second ``y`` (or
    ``Y``: names are told apart ignoring case) as ``y_1``.

    Parameters
    ----------
    columns : sequence of str
        Column names as DuckDB read them.

    Returns
    -------
    bool

    Examples
    --------
    >>> renamed(["y", "Y_1"]), renamed(["y_1", "p"])
    (True, False)
    """
    folded = {c.casefold() for c in columns}
    return any(m is not None and m[1].casefold() in folded
               for m in (re.fullmatch(r"(.*)_\d+", c, flags=re.DOTALL) for c in columns))


def raw_header(con: Any, source: Any, delimiter: str | None, max_line_size: int) -> list[str]:
    """The header fields of a CSV file as written (DuckDB renames repeated names); empty for a
    file without a line.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    source : str or file object
        The file's path, or a binary stream of its text (a ``.bz2`` file).
    delimiter : str, optional
        The field separator (sniffed when None).
    max_line_size : int
        The longest line DuckDB accepts, in bytes.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write("y,Y\\n1,2\\n")
    >>> raw_header(duckdb.connect(), path, None, 1 << 20)
    ['y', 'Y']
    """
    if not isinstance(source, str):
        rows = con.read_csv(source, header=False, all_varchar=True, max_line_size=max_line_size,
                            **({"sep": delimiter} if delimiter else {})).limit(1).fetchall()
    else:
        options = f"header = false, all_varchar = true, max_line_size = {int(max_line_size)}"
        if delimiter is not None:
            options += f", delim = {literal(delimiter)}"
        rows = con.execute(f"SELECT * FROM read_csv({literal(source)}, {options}) LIMIT 1"
                           ).fetchall()
    return ["" if v is None else str(v) for v in rows[0]] if rows else []
