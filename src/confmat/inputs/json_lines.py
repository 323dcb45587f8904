"""JSON lines files as one DuckDB relation, each file's types sampled on its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..words import arg
from .source import mixed_column_types
from .sql_counts import literal

__all__ = ["holds_no_value", "json_relation", "no_rows_error", "stream_holds_value"]


def holds_no_value(con: Any, path: str, described: Mapping[str, str]) -> bool:
    """Whether a JSON lines file holds no JSON value: compressed with nothing in it, or blank
    lines only (a plain file of 0 bytes is caught earlier, by its size).

    DuckDB reads such a file as one column ``json`` of type ``JSON`` and no row; only a file
    described so is counted (a real column named ``json`` has rows).

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    path : str
        The file (plain, ``.gz`` or ``.zst``).
    described : mapping of str to str
        Its columns and types as DuckDB's ``read_json`` samples them.

    Returns
    -------
    bool

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.jsonl")
    >>> _ = open(path, "w").write("\\n  \\n")
    >>> holds_no_value(duckdb.connect(), path, {"json": "JSON"})
    True
    """
    if dict(described) != {"json": "JSON"}:
        return False
    return con.execute(f"SELECT count(*) FROM read_json({literal(path)}, format = "
                       "'newline_delimited', hive_partitioning = false)").fetchone()[0] == 0


def stream_holds_value(stream: Any) -> bool:
    """Whether a binary stream of JSON lines (a ``.bz2`` file, which DuckDB reads through
    Python) holds anything but white space: read until its first other byte.

    Parameters
    ----------
    stream : binary file object
        A stream opened for this check only (it is read).

    Returns
    -------
    bool

    Examples
    --------
    >>> import io
    >>> stream_holds_value(io.BytesIO(b"\\n \\n")), stream_holds_value(io.BytesIO(b'\\n{"y": 1}'))
    (False, True)
    """
    while chunk := stream.read(1 << 16):
        if chunk.strip():
            return True
    return False


def no_rows_error(name: str, several: bool) -> ValueError:
    """The error of a JSON lines source none of whose files holds a JSON value.

    Parameters
    ----------
    name : str
        The source as error messages name it.
    several : bool
        Whether the source is several files.

    Returns
    -------
    ValueError

    Examples
    --------
    >>> no_rows_error("p.jsonl.gz", False)
    ValueError('p.jsonl.gz holds no JSON value (empty, or blank lines only): it holds no rows')
    """
    return ValueError(f"{name} holds no rows: each of its files holds no JSON value (empty, "
                      "or blank lines only)" if several else
                      f"{name} holds no JSON value (empty, or blank lines only): it holds no rows")


def json_relation(con: Any, name: str, files: list[str], target: Any, types: Mapping[str, str],
                   partitions: Mapping[str, Sequence[str]], hive_types: Mapping[str, str]
                   ) -> tuple[Any, dict[str, dict[str, str]]]:
    """JSON lines files as one relation, and the columns to which they give different types.

    Several files are sampled one by one, because DuckDB reads later files with the types
    sampled from the first ones (a float label rounded into an integer): files alike (the
    same columns in the same order, the same types) are read by one ``read_json`` with those
    types; others by name (``union_by_name``), each file's types unified and the columns read
    checked to hold one kind. A forced type (``column_types``) stands for the sampled one;
    ``read_json`` takes every column's type or none, so the sampled ones are passed with it.
    The files of a directory read its hive partitions (``partitions``, typed by
    ``hive_types`` where given), and no file may hold a partition key as a column. A file
    that holds no JSON value (:func:`holds_no_value`: compressed and empty, or blank lines
    only) adds no row and no column, like a plain file of 0 bytes.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection.
    name : str
        The source as error messages name it.
    files : list of str
        The files.
    target : str, list of str or file object
        What DuckDB reads: a path, the paths, or a binary stream (a ``.bz2`` file).
    types : mapping of str to str
        DuckDB types forced on columns inside the files (may be empty).
    partitions : mapping of str to sequence of str
        Each file's hive partition keys (:func:`confmat.inputs.hive.partition_keys`).
    hive_types : mapping of str to str
        DuckDB types of partition keys.

    Returns
    -------
    relation : duckdb.DuckDBPyRelation
    mixed : dict of str to dict of str to str
        The columns to which the files give different types.

    Raises
    ------
    ValueError
        ``types`` names a column no file has, a partition key is a column of a file, or no
        file holds a JSON value.

    Examples
    --------
    >>> import duckdb, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.jsonl")
    >>> _ = open(path, "w").write('{"y": 1}\\n')
    >>> rel, mixed = json_relation(duckdb.connect(), "p", [path], path, {"y": "VARCHAR"}, {}, {})
    >>> rel.fetchall(), mixed
    ([('1',)], {})
    """
    from .hive import check_partition_columns, hive_options

    fmt = "format = 'newline_delimited'"
    hive = ", ".join(hive_options(partitions, hive_types))
    listed = ", ".join(literal(f) for f in files)
    rel: Any = None
    if not isinstance(target, str | list):  # a stream (.bz2): no path, no partitions
        rel = con.read_json(target, format="newline_delimited")
        each = {files[0]: dict(zip(rel.columns, map(str, rel.types), strict=True))}
    elif len(files) == 1 and not any(partitions.values()):
        rel = con.sql(f"SELECT * FROM read_json([{listed}], {fmt}, {hive})")
        each = {files[0]: dict(zip(rel.columns, map(str, rel.types), strict=True))}
        if holds_no_value(con, files[0], each[files[0]]):
            raise no_rows_error(name, False)
    else:
        each = {f: {c: str(t) for c, t, *_ in con.execute(
            f"DESCRIBE SELECT * FROM read_json({literal(f)}, {fmt}, hive_partitioning = false)"
        ).fetchall()} for f in files}
        blank = [f for f in files if holds_no_value(con, f, each[f])]
        if blank:
            if len(blank) == len(files):
                raise no_rows_error(name, len(files) > 1)
            files = [f for f in files if f not in blank]
            each = {f: each[f] for f in files}
            partitions = {f: ks for f, ks in partitions.items() if f in each}
            listed = ", ".join(literal(f) for f in files)
            hive = ", ".join(hive_options(partitions, hive_types))
        check_partition_columns(name, partitions, {f: list(c) for f, c in each.items()})
    unknown = sorted(set(types) - {c for cols in each.values() for c in cols})
    if unknown:
        raise ValueError(f"{arg('column_types')} names {unknown}, which {name} does not have (its "
                         f"columns: {list(each[files[0]])})")
    if rel is not None and not types:  # one file read whole
        return rel, {}
    each = {f: {c: types.get(c, t) for c, t in cols.items()} for f, cols in each.items()}
    first = each[files[0]]
    if len(files) == 1 or all(list(t.items()) == list(first.items()) for t in each.values()):
        if not isinstance(target, str | list):  # a stream (.bz2)
            return con.read_json(target, format="newline_delimited", columns=first), {}
        columns = ", ".join(f"{literal(c)}: {literal(t)}" for c, t in first.items())
        return con.sql(f"SELECT * FROM read_json([{listed}], {fmt}, {hive}, "
                       f"columns = {{{columns}}})"), {}
    rel = con.sql(f"SELECT * FROM read_json([{listed}], {fmt}, {hive}, union_by_name = true)")
    if types:
        forced = ", ".join(f"{literal(c)}: {literal(types.get(c, str(t)))}"
                           for c, t in zip(rel.columns, rel.types, strict=True)
                           if not any(c in ks for ks in partitions.values()))
        rel = con.sql(f"SELECT * FROM read_json([{listed}], {fmt}, {hive}, "
                      f"union_by_name = true, columns = {{{forced}}})")
    return rel, mixed_column_types(each)
