"""Counting pushed into DuckDB: ``GROUP BY true, pred`` (and score bins) where the data lives.

A confusion matrix and a score histogram are sums over rows, so DuckDB can compute them with
one aggregation over a file, a dataset or a relation, in parallel and in bounded memory; only
the small table of groups comes back to Python. Rows with a missing value form their own
groups (a null key, or a null bin), so the row accounting by reason costs nothing extra.

The score bins follow :class:`confmat.binned.ScoreHistogram` exactly: bin ``j`` holds
``e_j <= s < e_{j+1}`` with edges ``e_j = lo + (hi - lo) * (j / B)`` computed in the same
IEEE double operations, the last bin also holds ``s = hi``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..deps import require

__all__ = ["WIDE_INTEGERS", "bin_expression", "count_groups", "exact_integers", "literal",
           "parquet_rows", "quote", "score_bins", "unmask", "without_nan"]

#: DuckDB integer types wider than 64 bits (its CSV and JSON readers infer them for integers
#: past the int64 range).
WIDE_INTEGERS = ("HUGEINT", "UHUGEINT")


def quote(name: str) -> str:
    """A column name as a SQL identifier (double quotes, inner ones doubled).

    Parameters
    ----------
    name : str
        The column name.

    Returns
    -------
    str

    Examples
    --------
    >>> print(quote('a"b'))
    "a""b"
    """
    return '"' + name.replace('"', '""') + '"'


def literal(value: str) -> str:
    """A string as a SQL literal (single quotes, inner ones doubled).

    Parameters
    ----------
    value : str
        The text.

    Returns
    -------
    str

    Examples
    --------
    >>> print(literal("it's"))
    'it''s'
    """
    return "'" + value.replace("'", "''") + "'"


def _double(x: float) -> str:
    # repr round-trips a float exactly; DuckDB reads it back as the same double
    return f"{float(x)!r}::DOUBLE"


def without_nan(expr: str) -> str:
    """SQL for a DOUBLE expression with NaN read as NULL.

    Not ``isnan(x)`` nor ``nullif(x, 'NaN')``: DuckDB (2.0) folds both to false on a Parquet
    row group whose min / max statistics are finite (writers leave NaN out of them), so a NaN
    score or weight there would count as a number. ``isfinite`` and ``isinf`` are not folded
    that way, and a NaN is neither.

    Parameters
    ----------
    expr : str
        SQL of a DOUBLE expression.

    Returns
    -------
    str
        SQL of the same value, NULL where it is NaN.

    Examples
    --------
    >>> import duckdb
    >>> duckdb.sql(f"select {without_nan('x')} from (values ('NaN'::DOUBLE), (2.5)) t(x)").fetchall()
    [(None,), (2.5,)]
    """
    return f"(CASE WHEN isfinite({expr}) OR isinf({expr}) THEN {expr} END)"


def bin_expression(col: str, bins: int, score_range: tuple[float, float]) -> str:
    """SQL (a DOUBLE) for the histogram bin of a score column.

    The value is the bin of :class:`~confmat.binned.ScoreHistogram` for a score in range;
    NULL for a missing score; below 0 for a score under ``lo``; at least
    ``2 * bins`` for a score over ``hi`` (``s = hi`` is in the last bin). NaN and null both
    give NULL (a missing score). The bin index is
    ``floor((s - lo) * (B / (hi - lo)))`` moved by one where the rounding of that product
    disagrees with the edges, which are computed as numpy computes them.

    Parameters
    ----------
    col : str
        The score column (quoted here).
    bins : int
        Number of bins ``B``.
    score_range : (float, float)
        ``(lo, hi)``.

    Returns
    -------
    str
        The SQL expression; it agrees with :func:`score_bins`.

    Examples
    --------
    >>> import duckdb
    >>> sql = bin_expression("s", 4, (0.0, 1.0))
    >>> duckdb.sql(f"select {sql} from (values (0.0), (0.25), (1.0), (NULL)) t(s)").fetchall()
    [(0.0,), (1.0,), (3.0,), (None,)]
    >>> duckdb.sql(f"select {sql} >= 8 from (values (1.5)) t(s)").fetchall()  # over hi
    [(True,)]
    """
    lo, hi = (float(v) for v in score_range)
    s = without_nan(f"{quote(col)}::DOUBLE")  # a NaN score is missing, like a null
    if lo == 0.0 and hi == 1.0:
        # lo + (hi - lo) * x == x and (s - lo) * (B / 1.0) == s * B exactly in IEEE doubles
        j = f"floor({s} * {_double(bins)})"

        def edge(k: str) -> str:
            return f"(({k}) / {_double(bins)})"
    else:
        j = f"floor(({s} - {_double(lo)}) * {_double(bins / (hi - lo))})"

        def edge(k: str) -> str:
            return f"({_double(lo)} + {_double(hi - lo)} * (({k}) / {_double(bins)}))"

    last = bins - 1
    return (f"(least({j}, {last}::DOUBLE) - ({s} < {edge(f'least({j}, {last}::DOUBLE)')})::DOUBLE"
            f" + ({j} < {last}::DOUBLE AND {s} >= {edge(j + ' + 1')})::DOUBLE"
            f" + ({s} > {_double(hi)})::DOUBLE * {_double(2 * bins)})")


def count_groups(
    relation: Any,
    true_col: str,
    pred_col: str,
    *,
    weight_col: str | None = None,
    score_col: str | None = None,
    bins: int = 10_000,
    score_range: tuple[float, float] = (0.0, 1.0),
    group_cols: Sequence[str] = (),
) -> dict[str, Any]:
    """One aggregation over the relation: the rows grouped by true label, predicted label,
    (with a score column) score bin and (for the evaluation by group) the group columns.

    Parameters
    ----------
    relation : duckdb.DuckDBPyRelation
        The data.
    true_col, pred_col : str
        Columns of true and predicted labels (integers wider than 64 bits are fetched exactly,
        see :func:`exact_integers`).
    weight_col : str, optional
        Column of sample weights.
    score_col : str, optional
        Column of scores, binned as :func:`bin_expression` defines.
    bins : int, default 10_000
        Number of score bins.
    score_range : (float, float), default (0.0, 1.0)
        ``(lo, hi)`` of the score bins.
    group_cols : sequence of str, default ()
        Columns of sensitive features, grouped by too.

    Returns
    -------
    dict of str to ndarray
        One entry per group in each column: ``true``, ``pred`` (object arrays holding None for
        nulls where a null occurs), ``count`` (rows per group); with group columns ``groups``
        (a list of such arrays, one per group column); with a score column ``bin``
        (float: NaN for a missing score, outside ``[0, bins)`` for a score outside the range,
        see :func:`bin_expression`); with weights ``weight`` (the sum of the valid weights),
        ``bad_weight`` (rows whose weight is null or NaN), ``min_weight`` and ``max_weight``
        (over the valid weights).

    Examples
    --------
    >>> import duckdb
    >>> rel = duckdb.sql("select * from (values (1, 1), (0, 1), (1, 1)) t(y, yhat)")
    >>> out = count_groups(rel, "y", "yhat")
    >>> sorted(zip(out["true"].tolist(), out["pred"].tolist(), out["count"].tolist()))
    [(0, 1, 1), (1, 1, 2)]
    """
    types = {c: str(typ) for c, typ in zip(relation.columns, relation.types, strict=True)}
    # numpy would turn integers wider than 64 bits into floats: fetch them as text
    wide = {c for c in (true_col, pred_col, *group_cols) if types.get(c) in WIDE_INTEGERS}
    t, p = (quote(c) + ("::VARCHAR" if c in wide else "") for c in (true_col, pred_col))
    keys = [f"{t} AS t", f"{p} AS p"]
    keys += [f"{quote(c)}{'::VARCHAR' if c in wide else ''} AS g{i}"
             for i, c in enumerate(group_cols)]
    aggs = ["count(*) AS n"]
    if score_col is not None:
        # fast pass: group by the floor of the scaled score, with the smallest and largest
        # score of each group; the exact bins follow from those two (see _bins_of_groups)
        keys.append(f"{_floor_key(score_col, bins, score_range)} AS b")
        aggs += [f"min({quote(score_col)}::DOUBLE) AS s_min",
                 f"max({quote(score_col)}::DOUBLE) AS s_max"]
    if weight_col is not None:
        good = without_nan(quote(weight_col) + "::DOUBLE")
        bad = f"({good} IS NULL)"
        aggs += [f"sum({good}) AS w", f"count(*) FILTER (WHERE {bad}) AS bad_w",
                 f"min({good}) AS min_w", f"max({good}) AS max_w"]
    query = f"SELECT {', '.join(keys + aggs)} FROM rel GROUP BY ALL"
    res = relation.query("rel", query).fetchnumpy()
    out: dict[str, Any] = {"true": unmask(res["t"]), "pred": unmask(res["p"]),
                           "count": np.asarray(res["n"], dtype=np.int64)}
    for key, c in (("true", true_col), ("pred", pred_col)):
        if c in wide:
            out[key] = exact_integers(out[key])
    if score_col is not None:
        lo_s = np.asarray(np.ma.filled(res["s_min"], np.nan), dtype=np.float64)
        hi_s = np.asarray(np.ma.filled(res["s_max"], np.nan), dtype=np.float64)
        found = _bins_of_groups(lo_s, hi_s, bins, score_range)
        if found is None:
            # a group straddles a bin edge (the floor of a rounded product fell on the wrong
            # side of it): count again with the exact bin expression
            query = query.replace(f"{_floor_key(score_col, bins, score_range)} AS b",
                                  f"{bin_expression(score_col, bins, score_range)} AS b")
            res = relation.query("rel", query).fetchnumpy()
            out = {"true": unmask(res["t"]), "pred": unmask(res["p"]),
                   "count": np.asarray(res["n"], dtype=np.int64)}
            for key, c in (("true", true_col), ("pred", pred_col)):
                if c in wide:
                    out[key] = exact_integers(out[key])
            found = np.asarray(np.ma.filled(res["b"], np.nan), dtype=np.float64)
        out["bin"] = found
    if group_cols:
        out["groups"] = [exact_integers(unmask(res[f"g{i}"])) if c in wide
                         else unmask(res[f"g{i}"]) for i, c in enumerate(group_cols)]
    if weight_col is not None:
        out["weight"] = np.asarray(np.ma.filled(res["w"], 0.0), dtype=np.float64)
        out["bad_weight"] = np.asarray(res["bad_w"], dtype=np.int64)
        out["min_weight"] = np.asarray(np.ma.filled(res["min_w"], np.inf), dtype=np.float64)
        out["max_weight"] = np.asarray(np.ma.filled(res["max_w"], -np.inf), dtype=np.float64)
    return out


def _floor_key(col: str, bins: int, score_range: tuple[float, float]) -> str:
    """SQL for ``floor((s - lo) * (B / (hi - lo)))``: the bin of a score up to the rounding of
    the product (NaN and null scores give NaN and null)."""
    lo, hi = (float(v) for v in score_range)
    s = f"{quote(col)}::DOUBLE"
    if lo == 0.0 and hi == 1.0:
        return f"floor({s} * {_double(bins)})"
    return f"floor(({s} - {_double(lo)}) * {_double(bins / (hi - lo))})"


def score_bins(scores: np.ndarray, bins: int, score_range: tuple[float, float]) -> np.ndarray:
    """The histogram bin of each score, as :func:`bin_expression` defines it (float: NaN for
    NaN, below 0 under ``lo``, ``2 * bins`` over ``hi``).

    Parameters
    ----------
    scores : ndarray of float64
        Scores.
    bins : int
        Number of bins.
    score_range : (float, float)
        ``(lo, hi)``.

    Returns
    -------
    ndarray of float64
        The bins; monotone non-decreasing in the score.

    Examples
    --------
    >>> score_bins(np.array([0.0, 0.25, 0.5, 1.0, 1.5, np.nan]), 4, (0.0, 1.0)).tolist()
    [0.0, 1.0, 2.0, 3.0, 8.0, nan]
    """
    lo, hi = (float(v) for v in score_range)
    edges = lo + (hi - lo) * (np.arange(bins + 1) / bins)
    with np.errstate(invalid="ignore"):
        j = np.minimum(np.searchsorted(edges, scores, side="right") - 1, bins - 1).astype(float)
        j[scores < lo] = -1.0
        j[scores > hi] = 2.0 * bins
    j[np.isnan(scores)] = np.nan
    return j


def _bins_of_groups(s_min: np.ndarray, s_max: np.ndarray, bins: int,
                    score_range: tuple[float, float]) -> np.ndarray | None:
    """The exact bin of each group of the fast pass, or None when a group holds scores of two
    bins. The bin of a score is monotone in the score, so a group whose smallest and largest
    scores share a bin lies wholly in it."""
    b_lo = score_bins(s_min, bins, score_range)
    b_hi = score_bins(s_max, bins, score_range)
    same = (b_lo == b_hi) | (np.isnan(b_lo) & np.isnan(b_hi))
    return b_lo if bool(same.all()) else None


def exact_integers(values: np.ndarray) -> np.ndarray:
    """Integers written as text (None for null) as the narrowest exact array: int64 or uint64
    when every value fits, else Python ints (objects).

    Parameters
    ----------
    values : ndarray
        Integers as text, or None for a null.

    Returns
    -------
    ndarray
        int64, uint64, or object (Python ints and None) when a value is null or fits neither.

    Examples
    --------
    >>> exact_integers(np.array(["18446744073709551615", "0"], dtype=object)).dtype
    dtype('uint64')
    >>> exact_integers(np.array(["-1", None], dtype=object)).tolist()
    [-1, None]
    """
    ints = [None if v is None else int(v) for v in values.tolist()]
    present = [v for v in ints if v is not None]
    if present and len(present) == len(ints):
        lo, hi = min(present), max(present)
        if lo >= -(1 << 63) and hi < (1 << 63):
            return np.array(ints, dtype=np.int64)
        if lo >= 0 and hi < (1 << 64):
            return np.array(ints, dtype=np.uint64)
    out = np.empty(len(ints), dtype=object)
    out[:] = ints
    return out


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
    if isinstance(col, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(col)
        if mask.any():
            data = np.asarray(col.data, dtype=object)
            data[mask] = None
            return data
        return np.asarray(col.data)
    return np.asarray(col)


def parquet_rows(con: Any, files: Sequence[str], name: str) -> int:
    """Rows the Parquet footers declare, checked against their row groups and column chunks
    (a footer that disagrees with itself is a damaged file: an engine would read as many rows
    as it declares, dropping or inventing some), and the top-level column names checked for
    duplicates (DuckDB would rename the second one).

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
    int
        The total rows the footers declare.

    Raises
    ------
    ValueError
        If a footer disagrees with its row groups, a column chunk holds another count of
        values than its row group declares, or a file repeats a column name.
    """
    listed = "[" + ", ".join(literal(f) for f in files) + "]"
    try:
        declared = con.sql(
            f"SELECT file_name, num_rows FROM parquet_file_metadata({listed})").fetchall()
    except Exception as exc:  # duckdb.Error; the module is not imported here
        # DuckDB builds every field of the file metadata, and refuses the lot when a text
        # field nobody counts with (created_by, key-value metadata) is not UTF-8, a file
        # whose data it reads; the row count is then read by pyarrow
        declared = _declared_rows(files, exc)
    # flat columns: a nested column's path is "name, field, ..." and a repeated one holds
    # more (or fewer) values than rows
    flat = "path_in_schema NOT LIKE '%, %'"
    bad = con.sql(
        "SELECT file_name, row_group_id, row_group_num_rows, path_in_schema, num_values "
        f"FROM parquet_metadata({listed}) WHERE {flat} AND num_values IS DISTINCT FROM "
        "row_group_num_rows ORDER BY file_name, row_group_id, column_id LIMIT 1").fetchall()
    if bad:
        fname, group, rows, column, values = bad[0]
        raise ValueError(f"{name} cannot be read whole: row group {group} of {fname!r} "
                         f"declares {rows} rows but its column {column!r} holds {values} "
                         "values")
    held = dict(con.sql(
        "SELECT file_name, sum(row_group_num_rows) FROM (SELECT DISTINCT file_name, "
        f"row_group_id, row_group_num_rows FROM parquet_metadata({listed})) GROUP BY ALL"
    ).fetchall())
    for fname, paths in con.sql(
            f"SELECT file_name, list(path_in_schema) FROM parquet_metadata({listed}) "
            f"WHERE row_group_id = 0 AND {flat} GROUP BY ALL ORDER BY file_name").fetchall():
        if len(set(paths)) != len(paths):
            dups = sorted({c for c in paths if paths.count(c) > 1})
            where = f"{name} (file {fname!r})" if len(files) > 1 else name
            raise ValueError(f"{where} has duplicate column names {dups}; column names must "
                             "be unique")
    total = 0
    for fname, rows in declared:
        got = int(held.get(fname) or 0)
        if rows is None or rows < 0 or int(rows) != got:
            raise ValueError(f"{name} cannot be read whole: the footer of {fname!r} declares "
                             f"{rows} rows but its row groups hold {got}")
        total += int(rows)
    return total


def _declared_rows(files: Sequence[str], exc: Exception) -> list[tuple[str, int]]:
    """(file, rows its footer declares) read by pyarrow; the engine's error if it fails too."""
    pq = require("pyarrow.parquet", "reading the row counts of these Parquet files")

    try:
        return [(f, pq.read_metadata(f).num_rows) for f in files]
    except Exception:
        raise exc from None
