"""Results of DuckDB queries as numpy columns, NULL as None.

DuckDB's ``fetchnumpy`` hands out masked arrays, and its first call in a process imports
:mod:`numpy.ma` (10 to 16 ms, as long as counting a few million rows). The counting queries of
:mod:`confmat.inputs.sql_counts` return a handful of groups, so a small result is fetched as
Python rows and turned into arrays here; a large one (more than :data:`SMALL_RESULT` rows, or
of a type numpy has no plain dtype for) goes through ``fetchnumpy``. Either way every column
comes out as :func:`unmask` makes it: the engine's dtype, or object dtype with None where
there are NULLs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["SMALL_RESULT", "fetch_columns", "floats", "relation_columns", "unmask"]

#: Rows of a result fetched as Python rows; a longer result is fetched with ``fetchnumpy``.
SMALL_RESULT = 4096
#: The numpy dtype ``fetchnumpy`` gives each DuckDB type that a small result converts itself.
_DTYPES: dict[str, Any] = {
    "BOOLEAN": np.bool_, "TINYINT": np.int8, "SMALLINT": np.int16, "INTEGER": np.int32,
    "BIGINT": np.int64, "UTINYINT": np.uint8, "USMALLINT": np.uint16, "UINTEGER": np.uint32,
    "UBIGINT": np.uint64, "FLOAT": np.float32, "DOUBLE": np.float64, "VARCHAR": object,
}


def unmask(col: Any) -> np.ndarray:
    """A fetched column as numpy: object dtype with None where the engine had nulls.

    Parameters
    ----------
    col : numpy.ma.MaskedArray or array-like
        A column of DuckDB's ``fetchnumpy`` (masked where it holds nulls).

    Returns
    -------
    ndarray
        The data unchanged when nothing is masked.

    Examples
    --------
    >>> unmask(np.ma.array([1, 2], mask=[False, True])).tolist()
    [1, None]
    """
    mask = getattr(col, "mask", None)  # a masked array (numpy.ma is imported if there is one)
    if mask is not None:
        mask = np.ma.getmaskarray(col)
        if mask.any():
            data = np.asarray(col.data, dtype=object)
            data[mask] = None
            return data
        return np.asarray(col.data)
    return np.asarray(col)


def _column(values: list[Any], dtype: Any) -> np.ndarray:
    if dtype is object or any(v is None for v in values):
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return np.array(values, dtype=dtype)


def fetch_columns(result: Any) -> dict[str, np.ndarray]:
    """Every column of a DuckDB result (what ``connection.execute`` returns), unmasked.

    Parameters
    ----------
    result : duckdb.DuckDBPyConnection
        A connection holding the result of ``execute``.

    Returns
    -------
    dict of str to ndarray
        By column name: as :func:`unmask` makes ``fetchnumpy``'s columns.

    Examples
    --------
    >>> import duckdb
    >>> out = fetch_columns(duckdb.connect().execute(
    ...     "select * from (values (1, 'a'), (NULL, 'b')) t(n, s)"))
    >>> out["n"].tolist(), out["s"].dtype
    ([1, None], dtype('O'))
    """
    names = [d[0] for d in result.description]
    dtypes = [_DTYPES.get(str(d[1])) for d in result.description]
    head: list[tuple[Any, ...]] = []
    if all(d is not None for d in dtypes):
        head = result.fetchmany(SMALL_RESULT)
        if len(head) < SMALL_RESULT:
            columns = list(zip(*head, strict=True)) if head else [()] * len(names)
            return {n: _column(list(v), d) for n, v, d in zip(names, columns, dtypes, strict=True)}
    rest = result.fetchnumpy()
    out = {}
    for i, (name, dtype) in enumerate(zip(names, dtypes, strict=True)):
        tail = unmask(rest[name])
        out[name] = np.concatenate([_column([r[i] for r in head], dtype), tail]) if head else tail
    return out


def relation_columns(relation: Any) -> dict[str, np.ndarray]:
    """Every column of a DuckDB relation, run once with ``fetchnumpy`` and unmasked.

    Parameters
    ----------
    relation : duckdb.DuckDBPyRelation
        The relation (a user's, or a query over it).

    Returns
    -------
    dict of str to ndarray

    Examples
    --------
    >>> import duckdb
    >>> relation_columns(duckdb.sql("select 1 as n"))["n"].tolist()
    [1]
    """
    return {k: unmask(v) for k, v in relation.fetchnumpy().items()}


def floats(col: np.ndarray, missing: float) -> np.ndarray:
    """A fetched numeric column as float64, ``missing`` where it held NULL.

    Parameters
    ----------
    col : ndarray
        A column of :func:`fetch_columns` (object dtype with None when it holds NULLs).
    missing : float
        The value of a NULL.

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> floats(np.array([0.5, None], dtype=object), np.nan).tolist()
    [0.5, nan]
    """
    if col.dtype == object:
        return np.array([missing if v is None else v for v in col.tolist()], dtype=np.float64)
    return np.asarray(col, dtype=np.float64)
