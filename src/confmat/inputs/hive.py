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
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

from .sql_counts import literal

__all__ = ["check_partition_columns", "hive_options", "partition_keys", "split_types"]


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
                typed: bool) -> tuple[dict[str, str], dict[str, str]]:
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
        Whether the files carry the types of their columns (Parquet): ``column_types`` may
        then name partition keys only.

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
            f"column_types names {sorted(data)}, which {name} holds as Parquet columns with "
            "types of their own; column_types applies to CSV and JSON lines columns and to "
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
