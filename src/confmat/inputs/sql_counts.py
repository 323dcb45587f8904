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

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..deps import require
from .scores import histogram_edges
from .sql_fetch import fetch_columns, floats, relation_columns, unmask

__all__ = ["PERFECT_HASH_BITS", "SMALL_KEY_TYPES", "WIDE_INTEGERS", "bin_expression",
           "count_groups", "exact_integers", "literal", "quote", "score_bins",
           "small_key_offsets", "small_key_query", "unmask", "without_nan"]

#: DuckDB integer types wider than 64 bits (its CSV and JSON readers infer them for integers
#: past the int64 range).
WIDE_INTEGERS = ("HUGEINT", "UHUGEINT")
#: Label types that :func:`count_groups` may group as one-byte keys (see ``key_ranges``).
SMALL_KEY_TYPES = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT",
                   "UINTEGER", "UBIGINT", "BOOLEAN")
#: ``perfect_ht_threshold`` of confmat's own DuckDB connections: two ``UTINYINT`` keys, each
#: 256 values and NULL (9 bits), fit DuckDB's perfect hash aggregate.
PERFECT_HASH_BITS = 18


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
    key_ranges: Mapping[str, tuple[int, int]] | None = None,
    connection: Any = None,
    keep_col: str | None = None,
) -> dict[str, Any]:
    """One aggregation over the relation: the rows grouped by true label, predicted label,
    (with a score column) score bin and (for the evaluation by group) the group columns.

    With ``key_ranges`` (confmat's own connections, whose ``perfect_ht_threshold`` is
    :data:`PERFECT_HASH_BITS` and which do not plan with file statistics), integer labels are
    grouped as one-byte keys, ``(label - offset)::UTINYINT`` (:func:`small_key_offsets`):
    without statistics DuckDB sizes its perfect hash aggregate by the key's type, all 256
    values, so no value can fall outside the table, and the cast is checked on every value.
    A label outside ``[offset, offset + 255]`` makes the cast fail and the rows are counted
    again with the labels as they are (the generic hash aggregate). The ranges only choose
    the plan, so a file whose statistics lie costs a second pass, never a wrong count.

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
    key_ranges : mapping of str to (int, int), optional
        The range of values each label column declares (untrusted: Parquet footers), or an
        empty mapping when nothing is declared; None (a user's relation) groups the labels as
        they are.
    connection : duckdb.DuckDBPyConnection, optional
        The connection the relation reads on, when it is confmat's own: the query then runs
        there as SQL over ``relation.sql_query()`` (5 ms less than a query on the relation)
        and a small result is fetched without :mod:`numpy.ma` (see
        :mod:`confmat.inputs.sql_fetch`).
    keep_col : str, optional
        A boolean column (never null) that says whether a row is kept by a filter: counted in
        the same pass, as one more key (or, with one-byte label keys, by an aggregate that
        keeps DuckDB's perfect hash table), so the rows left out are counted too (``keep`` in
        the result).

    Returns
    -------
    dict of str to ndarray
        One entry per group in each column: ``true``, ``pred`` (object arrays holding None for
        nulls where a null occurs), ``count`` (rows per group); with group columns ``groups``
        (a list of such arrays, one per group column); with a score column ``bin``
        (float: NaN for a missing score, outside ``[0, bins)`` for a score outside the range,
        see :func:`bin_expression`); with weights ``weight`` (the sum of the valid weights),
        ``bad_weight`` (rows whose weight is null or NaN), ``min_weight`` and ``max_weight``
        (over the valid weights); with ``keep_col`` ``keep`` (bool: the group's rows are kept).

    Examples
    --------
    >>> import duckdb
    >>> rel = duckdb.sql("select * from (values (1, 1), (0, 1), (1, 1)) t(y, yhat)")
    >>> out = count_groups(rel, "y", "yhat")
    >>> sorted(zip(out["true"].tolist(), out["pred"].tolist(), out["count"].tolist()))
    [(0, 1, 1), (1, 1, 2)]
    >>> rel = duckdb.sql("select * from (values (1000, 1000), (1300, 1000)) t(y, yhat)")
    >>> out = count_groups(rel, "y", "yhat", key_ranges={"y": (1000, 1001)})  # y lies
    >>> sorted(zip(out["true"].tolist(), out["pred"].tolist(), out["count"].tolist()))
    [(1000, 1000, 1), (1300, 1000, 1)]
    """
    duckdb = require("duckdb", "counting in DuckDB")

    types = {c: str(typ) for c, typ in zip(relation.columns, relation.types, strict=True)}
    # numpy would turn integers wider than 64 bits into floats: fetch them as text
    wide = {c for c in (true_col, pred_col, *group_cols) if types.get(c) in WIDE_INTEGERS}
    t, p = (quote(c) + ("::VARCHAR" if c in wide else "") for c in (true_col, pred_col))
    offsets = None if key_ranges is None or group_cols else small_key_offsets(
        {c: types.get(c, "") for c in (true_col, pred_col)}, key_ranges)

    def build(keep_as_key: bool) -> str:
        """The counting query; a filter's keep column as a key, or (``keep_as_key`` False)
        counted per group by an aggregate, which leaves the labels the only keys (see
        :func:`_split_kept`)."""
        keys = [f"{t} AS t", f"{p} AS p"]
        keys += [f"{quote(c)}{'::VARCHAR' if c in wide else ''} AS g{i}"
                 for i, c in enumerate(group_cols)]
        aggs = ["count(*) AS n"]
        kept = also = ""
        if keep_col is not None and keep_as_key:
            keys.append(f"{quote(keep_col)} AS k")
        elif keep_col is not None:
            aggs.append(f"count_if({quote(keep_col)}) AS nk")
            kept, also = f" FILTER (WHERE {quote(keep_col)})", f" AND {quote(keep_col)}"
        if score_col is not None:
            # fast pass: group by the floor of the scaled score, with the smallest and largest
            # score of each group; the exact bins follow from those two (see _bins_of_groups)
            keys.append(f"{_floor_key(score_col, bins, score_range)} AS b")
            aggs += [f"min({quote(score_col)}::DOUBLE) AS s_min",
                     f"max({quote(score_col)}::DOUBLE) AS s_max"]
        if weight_col is not None:
            good = without_nan(quote(weight_col) + "::DOUBLE")
            bad = f"({good} IS NULL)"
            aggs += [f"sum({good}){kept} AS w", f"count(*) FILTER (WHERE {bad}{also}) AS bad_w",
                     f"min({good}){kept} AS min_w", f"max({good}){kept} AS max_w"]
        return f"SELECT {', '.join(keys + aggs)} FROM rel GROUP BY ALL"

    def run(sql: str) -> dict[str, np.ndarray]:
        if connection is not None:  # without the relation layer's own binding of the query
            res = fetch_columns(connection.execute(f"WITH rel AS ({relation.sql_query()}) {sql}"))
        else:
            res = relation_columns(relation.query("rel", sql))
        return _split_kept(res) if "nk" in res else res

    if offsets is not None:
        # With one-byte label keys DuckDB counts in its perfect hash table, which a third
        # key would turn into a hash table: the filter is then counted as an aggregate
        # (10^8 Parquet rows: 0.61 s against 0.89 s as a key, labels alone 0.40 s); in a
        # hash table the key is the cheaper (0.50 s against 0.71 s, text labels)
        query = build(keep_as_key=False)
        try:
            res = run(small_key_query(query, true_col, pred_col, offsets, types))
        except (duckdb.ConversionException, duckdb.OutOfRangeException):
            offsets = None  # a label outside [offset, offset + 255]: group the labels as they are
    if offsets is None:
        query = build(keep_as_key=True)
        res = run(query)
    out: dict[str, Any] = {"true": res["t"], "pred": res["p"],
                           "count": np.asarray(res["n"], dtype=np.int64)}
    for key, c in (("true", true_col), ("pred", pred_col)):
        if c in wide:
            out[key] = exact_integers(out[key])
    if score_col is not None:
        found = _bins_of_groups(floats(res["s_min"], np.nan), floats(res["s_max"], np.nan),
                                bins, score_range)
        if found is None:
            # a group straddles a bin edge (the floor of a rounded product fell on the wrong
            # side of it): count again with the exact bin expression
            query = query.replace(f"{_floor_key(score_col, bins, score_range)} AS b",
                                  f"{bin_expression(score_col, bins, score_range)} AS b")
            if offsets is not None:
                query = small_key_query(query, true_col, pred_col, offsets, types)
            res = run(query)
            out = {"true": res["t"], "pred": res["p"],
                   "count": np.asarray(res["n"], dtype=np.int64)}
            for key, c in (("true", true_col), ("pred", pred_col)):
                if c in wide:
                    out[key] = exact_integers(out[key])
            found = floats(res["b"], np.nan)
        out["bin"] = found
    if group_cols:
        out["groups"] = [exact_integers(res[f"g{i}"]) if c in wide else res[f"g{i}"]
                         for i, c in enumerate(group_cols)]
    if keep_col is not None:
        out["keep"] = np.asarray(res["k"], dtype=bool)
    if weight_col is not None:
        out["weight"] = floats(res["w"], 0.0)
        out["bad_weight"] = np.asarray(res["bad_w"], dtype=np.int64)
        out["min_weight"] = floats(res["min_w"], np.inf)
        out["max_weight"] = floats(res["max_w"], -np.inf)
    return out


def _split_kept(res: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The groups of a query that counted the rows a filter keeps as an aggregate (``nk`` of
    ``n``), as the query with the filter as a key returns them: each group once per value of
    ``k`` that holds rows (``k`` True with ``nk`` rows, False with ``n - nk``). The weights of
    a group are those of its kept rows (the only ones read)."""
    n = np.asarray(res["n"], dtype=np.int64)
    nk = np.asarray(res["nk"], dtype=np.int64)
    kept, left_out = np.flatnonzero(nk), np.flatnonzero(n - nk)
    order = np.concatenate([kept, left_out])
    out = {c: np.asarray(v)[order] for c, v in res.items() if c not in ("n", "nk")}
    out["n"] = np.concatenate([nk[kept], (n - nk)[left_out]])
    out["k"] = np.concatenate([np.ones(len(kept), dtype=bool), np.zeros(len(left_out), dtype=bool)])
    return out


def small_key_offsets(types: Mapping[str, str], key_ranges: Mapping[str, tuple[int, int]]
                      ) -> dict[str, int] | None:
    """The offset of each label column for one-byte grouping keys, ``(label - offset)``, or
    None when a column cannot be grouped that way.

    A column qualifies when its type is one of :data:`SMALL_KEY_TYPES` and the range it
    declares (if any) spans at most 256 values. The offset is 0 when the declared range lies
    in ``[0, 255]`` or nothing is declared (labels such as ``0 .. K - 1`` or ``1 .. K``),
    else the declared minimum. A range is a guess: a value outside the window makes the
    checked cast fail and the labels are counted as they are (see :func:`count_groups`).

    Parameters
    ----------
    types : mapping of str to str
        DuckDB type of each label column.
    key_ranges : mapping of str to (int, int)
        The (untrusted) range each column declares; a column may be missing.

    Returns
    -------
    dict of str to int or None

    Examples
    --------
    >>> small_key_offsets({"y": "BIGINT", "p": "INTEGER"}, {"y": (1000, 1003)})
    {'y': 1000, 'p': 0}
    >>> small_key_offsets({"y": "BIGINT", "p": "VARCHAR"}, {}) is None
    True
    >>> small_key_offsets({"y": "BIGINT"}, {"y": (0, 5000)}) is None
    True
    """
    out = {}
    for col, typ in types.items():
        if typ not in SMALL_KEY_TYPES:
            return None
        lo, hi = key_ranges.get(col, (0, 0))
        if hi - lo > 255:
            return None
        out[col] = 0 if (0 <= lo and hi <= 255) or typ == "BOOLEAN" else int(lo)
    return out


def small_key_query(query: str, true_col: str, pred_col: str, offsets: Mapping[str, int],
                    types: Mapping[str, str]) -> str:
    """A counting query of :func:`count_groups` with one-byte label keys inside and the
    labels restored, in their own type, on the groups.

    Parameters
    ----------
    query : str
        ``SELECT "<true>" AS t, "<pred>" AS p, ... FROM rel GROUP BY ALL``.
    true_col, pred_col : str
        The label columns.
    offsets : mapping of str to int
        Each label column's offset (:func:`small_key_offsets`).
    types : mapping of str to str
        Each label column's DuckDB type.

    Returns
    -------
    str
        The query whose groups are ``(label - offset)::UTINYINT``; it fails with DuckDB's
        conversion (or out-of-range) error on a label outside ``[offset, offset + 255]``.

    Examples
    --------
    >>> print(small_key_query('SELECT "y" AS t, "p" AS p, count(*) AS n FROM rel GROUP BY ALL',
    ...                       "y", "p", {"y": 1000, "p": 0}, {"y": "BIGINT", "p": "INTEGER"}))
    ... # doctest: +NORMALIZE_WHITESPACE
    SELECT (t::BIGINT + 1000)::BIGINT AS t, p::INTEGER AS p, * EXCLUDE (t, p) FROM (SELECT
    ("y"::BIGINT - 1000)::UTINYINT AS t, "p"::UTINYINT AS p, count(*) AS n FROM rel GROUP BY ALL)
    """

    def key(col: str) -> str:
        off = offsets[col]
        value = quote(col) if off == 0 else f"({quote(col)}::BIGINT - {off})"
        return f"{value}::UTINYINT"

    def restore(alias: str, col: str) -> str:
        off = offsets[col]
        value = alias if off == 0 else f"({alias}::BIGINT + {off})"
        return f"{value}::{types[col]} AS {alias}"

    inner = query.replace(f"{quote(true_col)} AS t, {quote(pred_col)} AS p",
                          f"{key(true_col)} AS t, {key(pred_col)} AS p", 1)
    return (f"SELECT {restore('t', true_col)}, {restore('p', pred_col)}, "
            f"* EXCLUDE (t, p) FROM ({inner})")


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
    edges = histogram_edges(bins, lo, hi)
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

