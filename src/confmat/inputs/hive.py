"""Hive partitions: columns whose values are the names of ``key=value`` directories.

A directory given as a source reads its ``key=value`` subdirectories as columns (Parquet,
CSV, TSV, JSON lines; DuckDB's ``hive_partitioning``). A partition value is text in a path,
so its type is a choice: ``column_types=`` makes it when it names the key (DuckDB's
``hive_types``), otherwise DuckDB's inference stands (``hive_types_autocast``: an integer
type when every value of the key reads as one and back unchanged, so ``'01'`` keeps a key
text; a date or a timestamp likewise; text otherwise). The streamed path is given the same
types (:func:`confmat.inputs.readers.arrow_dataset`), so that no reader merges ``'1'`` and
``'01'`` where another keeps them apart. A key that is also a column inside a file of its
directory is an error: DuckDB would read the directory's value in place of the file's.
Arrow IPC directories, which pyarrow reads, follow the same rule: DuckDB infers their keys'
types from the same paths (:func:`partition_types`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .sql_counts import literal

__all__ = ["check_partition_columns", "hive_options", "partition_keys", "partition_types",
           "split_types"]


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
            f"column_types names {sorted(data)}, which {name} holds as {kind} columns "
            "with types of their own; column_types applies to CSV and JSON lines columns and to "
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


def partition_types(con: Any, name: str, files: Sequence[str], types: Mapping[str, str]
                    ) -> dict[str, str]:
    """The DuckDB type of every hive partition key of ``files``, in the order the keys first
    occur: ``types`` where it names the key, DuckDB's inference otherwise.

    For formats DuckDB does not read (Arrow IPC, which pyarrow reads) the inference is still
    DuckDB's, so that every format types a key alike: it depends on the paths alone, and is
    asked of DuckDB's CSV reader over empty stand-in files at the same paths (one per
    directory, in a temporary directory, removed afterwards).

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
    dict of str to str
        Each key's DuckDB type (empty when the paths have no key).

    Raises
    ------
    ValueError
        The files lie under different partition keys (DuckDB refuses such a directory).

    Examples
    --------
    >>> import duckdb
    >>> partition_types(duckdb.connect(), "d", ["d/g=1/h=01/p.arrow", "d/g=2/h=1/p.arrow"], {})
    {'g': 'BIGINT', 'h': 'VARCHAR'}
    >>> partition_types(duckdb.connect(), "d", ["d/g=1/p.arrow"], {"g": "VARCHAR"})
    {'g': 'VARCHAR'}
    >>> partition_types(duckdb.connect(), "d", ["d/g=1/p.arrow", "d/g=2/h=3/p.arrow"], {})
    Traceback (most recent call last):
    ...
    ValueError: d: its files lie under different hive partition keys (['g'] for 'd/g=1/p.arrow', ['g', 'h'] for 'd/g=2/h=3/p.arrow'); every file of a directory needs the same keys
    """
    import shutil
    import tempfile

    keys = partition_keys(files)
    order = list(dict.fromkeys(k for ks in keys.values() for k in ks))
    if not order:
        return {}
    first = files[0]
    other = next((f for f in files if keys[f] != keys[first]), None)
    if other is not None:
        raise ValueError(f"{name}: its files lie under different hive partition keys "
                         f"({keys[first]} for {first!r}, {keys[other]} for {other!r}); every "
                         "file of a directory needs the same keys")
    if all(k in types for k in order):
        return {k: types[k] for k in order}
    stand_in = tempfile.mkdtemp(prefix="confmat-hive-")
    try:
        paths = []
        for d in sorted({os.path.dirname(os.path.normpath(f)) for f in files}):
            # the path as given, below the stand-in directory (whose own name has no '=')
            mirror = os.path.join(stand_in, os.path.splitdrive(d)[1].lstrip(os.sep))
            os.makedirs(mirror, exist_ok=True)
            path = os.path.join(mirror, "stand-in.csv")
            with open(path, "w") as fh:
                fh.write("confmat_stand_in\n")
            paths.append(path)
        listed = ", ".join(literal(p) for p in paths)
        rel = con.sql(f"SELECT * EXCLUDE (confmat_stand_in) FROM read_csv([{listed}], "
                      f"{', '.join(hive_options(keys, types))}, union_by_name = true, "
                      "header = true, columns = {'confmat_stand_in': 'VARCHAR'})")
        found = dict(zip(rel.columns, map(str, rel.types), strict=True))
    finally:
        shutil.rmtree(stand_in, ignore_errors=True)
    return {k: types.get(k, found[k]) for k in order}
