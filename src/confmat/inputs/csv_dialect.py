"""One CSV file as a DuckDB relation, sniffed once.

DuckDB's Python ``read_csv`` pins what its sniffer finds (dialect and column types) into the
relation, so that later queries do not sniff again, but it runs the sniffer and the binder
several times to do so: 50 to 80 ms on a 10^6-row or 10^8-row file, where one sniff takes
5 to 25 ms (a 10^6-row file was counted in 129 ms that way, in 93 ms by the relation below,
88 ms by DuckDB's own ``SELECT ... GROUP BY`` on the file). Here DuckDB's ``sniff_csv`` runs
once and its findings are written into a ``read_csv`` call with ``auto_detect = false``: the
same dialect and types, bound once, read without sniffing again. (The ``Prompt`` text that
``sniff_csv`` also returns does not quote the file name or the column names, so a name with
a quote in it would break it: the call is written here, every text a SQL literal.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .sql_counts import literal

__all__ = ["sniffed_csv"]

#: How ``sniff_csv`` shows an option that is not set (no quote, escape or comment character).
_EMPTY = "(empty)"


def _options(header: bool, max_line_size: int, delimiter: str | None,
             types: Mapping[str, str], nullstr: Sequence[str] | None) -> list[str]:
    """The reader options the caller sets, as SQL arguments of ``sniff_csv`` / ``read_csv``."""
    out = [f"header = {'true' if header else 'false'}", f"max_line_size = {int(max_line_size)}"]
    if delimiter is not None:
        out.append(f"delim = {literal(delimiter)}")
    if types:
        out.append("types = {" + ", ".join(f"{literal(c)}: {literal(t)}"
                                           for c, t in types.items()) + "}")
    if nullstr is not None:
        out.append("nullstr = [" + ", ".join(literal(v) for v in nullstr) + "]")
    return out


def sniffed_csv(con: Any, path: str, *, header: bool = True, max_line_size: int,
                delimiter: str | None = None, types: Mapping[str, str] | None = None,
                nullstr: Sequence[str] | None = None) -> Any:
    """A relation reading one CSV file (plain, ``.gz`` or ``.zst``) with the dialect and
    column types DuckDB's sniffer finds, the sniffer run once.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    path : str
        The file.
    header : bool, default True
        Whether the first line names the columns.
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
    duckdb.DuckDBPyRelation
        ``SELECT * FROM read_csv(path, auto_detect = false, ...)``.

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "it's.csv")
    >>> _ = open(path, "w").write('y,"p\\'s"\\n1,NA\\n2,b\\n')
    >>> rel = sniffed_csv(duckdb.connect(), path, max_line_size=1 << 20, nullstr=["NA"])
    >>> rel.columns, [str(t) for t in rel.types], rel.fetchall()
    (['y', "p's"], ['BIGINT', 'VARCHAR'], [(1, None), (2, 'b')])
    """
    given = _options(header, max_line_size, delimiter, types or {}, nullstr)
    res = con.execute(f"SELECT Delimiter, Quote, Escape, NewLineDelimiter, Comment, SkipRows, "
                      f"HasHeader, Columns, DateFormat, TimestampFormat "
                      f"FROM sniff_csv({literal(path)}, {', '.join(given)})")
    (delim, quote, escape, new_line, comment, skip, has_header, columns, date_format,
     timestamp_format) = res.fetchall()[0]
    found = [f"delim = {literal(delim)}", f"new_line = {literal(new_line)}",
             f"skip = {int(skip)}"]
    found += [f"{opt} = {literal('' if value == _EMPTY else value)}"
              for opt, value in (("quote", quote), ("escape", escape), ("comment", comment))]
    found += [f"{opt} = {literal(value)}" for opt, value in
              (("dateformat", date_format), ("timestampformat", timestamp_format)) if value]
    found.append("columns = {" + ", ".join(f"{literal(c['name'])}: {literal(c['type'])}"
                                           for c in columns) + "}")
    kept = [o for o in given if not o.startswith(("header", "delim", "types"))]
    options = ["auto_detect = false", f"header = {'true' if has_header else 'false'}",
               *found, *kept]
    return con.sql(f"SELECT * FROM read_csv({literal(path)}, {', '.join(options)})")
