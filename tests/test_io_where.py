"""Row filters (``where=``): the rows left out are counted under "user filter", before any
missing value, so that every row of the source is still accounted for (issue #11: skipped rows
by reason, including a user filter).

Oracle: the filter evaluated in Python with SQL's three-valued logic on the generated rows
(NULL is not kept), pandas for the missing labels, counts by ``collections.Counter`` over the
kept valid rows. The allow-list of ``confmat.inputs.where``: the filters the docs and the
other tests show are accepted; what is not on it is refused, by name; each allowed function is
checked against DuckDB's own catalogue (``duckdb_functions()``: a scalar function of stable
result, no aggregate); random conditions built from allowed parts are checked against pandas'
nullable arrays (SQL's three-valued logic) and scikit-learn's ``confusion_matrix``.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
duckdb = pytest.importorskip("duckdb")

import confmat.io as cio  # noqa: E402
from confmat.inputs.where import ALLOWED_FUNCTIONS, ALLOWED_TYPES, check_where  # noqa: E402

FORMATS = ["parquet", "csv", "jsonl", "arrow"]


def _write(df: pd.DataFrame, path: str, fmt: str) -> None:
    table = pa.Table.from_pandas(df, preserve_index=False)
    if fmt == "parquet":
        pq.write_table(table, path)
    elif fmt == "arrow":
        import pyarrow.feather as feather

        feather.write_feather(table, path)
    elif fmt == "csv":
        df.to_csv(path, index=False)
    else:
        with open(path, "w") as fh:
            for rec in df.to_dict(orient="records"):
                fh.write(json.dumps({k: (None if pd.isna(v) else v) for k, v in rec.items()}) + "\n")


def _frame(draw_rows: list[tuple]) -> pd.DataFrame:
    df = pd.DataFrame(draw_rows, columns=["y", "p", "split", "k", "s"])
    df["y"] = df["y"].astype("Int64")
    df["p"] = df["p"].astype("Int64")
    df["k"] = df["k"].astype("Int64")
    return df


def _oracle(df: pd.DataFrame, keep: np.ndarray) -> tuple[dict[str, int], Counter, int | None]:
    """Reasons, the counted pairs, and the 1-based row of the first kept row with a missing
    label (None when there is none); ``keep``: the rows the filter holds for (SQL's
    three-valued logic, NULL not kept)."""
    y_na = df["y"].isna().to_numpy()
    p_na = df["p"].isna().to_numpy()
    reasons = {"user filter": int((~keep).sum()),
               "null true label": int((keep & y_na).sum()),
               "null prediction": int((keep & ~y_na & p_na).sum())}
    ok = keep & ~y_na & ~p_na
    pairs = Counter(zip(df["y"][ok].astype(int), df["p"][ok].astype(int), strict=True))
    bad = np.flatnonzero(keep & (y_na | p_na))
    return ({k: v for k, v in reasons.items() if v}, pairs,
            None if bad.size == 0 else int(bad[0]) + 1)


def _table(cm) -> Counter:
    out: Counter = Counter()
    for i, a in enumerate(cm.labels):
        for j, b in enumerate(cm.labels):
            if cm.counts[i, j]:
                out[(int(a), int(b))] = int(cm.counts[i, j])
    return out


def _random_rows(seed: int, n: int, classes: int, null_rate: float) -> list[tuple]:
    """Random rows (true, pred, split, k, score): labels ``0 .. classes - 1`` and the filter
    columns with nulls at ``null_rate``, scores uniform in [0, 1). (Drawn from a seed rather
    than element by element: hypothesis' simplest lists repeat one value, which a filter then
    keeps whole or not at all.)"""
    rng = np.random.default_rng(seed)

    def maybe(values: np.ndarray, p_null: float) -> list:
        return [None if u < p_null else v.item() for u, v in zip(rng.random(n), values, strict=True)]

    return list(zip(maybe(rng.integers(0, classes, n), null_rate),
                    maybe(rng.integers(0, classes, n), null_rate),
                    maybe(rng.choice(np.array(["test", "train"]), n), null_rate),
                    maybe(rng.integers(0, 10, n), null_rate), rng.random(n).tolist(), strict=True))


def _cmp(a, op, b):
    """SQL comparison: NULL when a value is NULL."""
    return None if a is None else op(a, b)


def _and(a, b):  # Kleene (SQL) logic
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


def _or(a, b):
    if a is True or b is True:
        return True
    return None if a is None or b is None else False


WHERES = {
    "split = 'test'": lambda r: _cmp(r["split"], str.__eq__, "test"),
    "k >= 5 OR split = 'train'": lambda r: _or(_cmp(r["k"], int.__ge__, 5),
                                               _cmp(r["split"], str.__eq__, "train")),
    "split <> 'test' AND k < 7": lambda r: _and(_cmp(r["split"], str.__ne__, "test"),
                                                _cmp(r["k"], int.__lt__, 7)),
}


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(20, 60),
       null_rate=st.sampled_from([0.0, 0.03, 0.15]), fmt=st.sampled_from(FORMATS),
       where=st.sampled_from(sorted(WHERES)), skip=st.booleans(),
       scores=st.sampled_from([None, "s", ["s", "s"]]))
def test_where_against_pandas(tmp_path_factory, seed, n, null_rate, fmt, where, skip, scores):
    rows = _random_rows(seed, n, 3 if scores is None else 2, null_rate)  # scores: binary
    df = _frame(rows)
    path = os.path.join(tmp_path_factory.mktemp("where"), f"p.{fmt}")
    _write(df, path, fmt)
    keep = [WHERES[where]({"split": split, "k": k}) is True for _y, _p, split, k, _s in rows]
    reasons, pairs, first_bad = _oracle(df, np.array(keep, dtype=bool))
    kw = {"where": where, "skip_invalid": skip}
    if scores is not None:
        kw |= {"score_cols": scores, "bins": 4}
    labels_kept = {v for pair in pairs for v in pair}
    if scores == ["s", "s"] and len(labels_kept) != 2:
        return  # two score columns need two classes: not what is tested here
    if not pairs:
        with pytest.raises(ValueError):
            cio.evaluate_file(path, "y", "p", **kw)
        return
    if first_bad is not None and not skip:
        with pytest.raises(ValueError, match=rf", row {first_bad}: null"):
            cio.evaluate_file(path, "y", "p", **kw)
        return
    if scores == "s" and len(labels_kept) != 2:  # one score column: a binary problem
        with pytest.raises(ValueError, match=r"binary|two classes"):
            cio.evaluate_file(path, "y", "p", **kw)
        return
    if scores == ["s", "s"]:
        kw["labels"] = sorted(labels_kept)
    cm, rep = cio.evaluate_file(path, "y", "p", **kw)
    assert _table(cm) == pairs
    assert rep.skipped_by_reason == reasons
    assert rep.rows_read + rep.rows_skipped == len(df)
    assert rep.rows_read == sum(pairs.values())


@pytest.mark.parametrize("text", [False, True], ids=["int labels", "text labels"])
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(20, 80),
       where=st.sampled_from(sorted(WHERES)), scores=st.booleans())
def test_weighted_where_against_python(tmp_path_factory, text, seed, n, where, scores):
    """Weights with a filter, on integer labels (counted in DuckDB's perfect hash table, the
    filter by an aggregate) and text labels (the filter as a key): the sums of the kept rows'
    weights, and their missing weights under "null or NaN weight"."""
    rows = _random_rows(seed, n, 2 if scores else 3, 0.1)  # one score column: binary
    df = _frame(rows)
    if text:
        for c in ("y", "p"):
            df[c] = df[c].map(lambda v: None if pd.isna(v) else f"c{v}")
    rng = np.random.default_rng(seed + 1)
    keep = np.array([WHERES[where]({"split": r[2], "k": r[3]}) is True for r in rows])
    w = rng.choice([0.0, 0.5, 1.0, 2.25, 7.0], n)
    w[rng.random(n) < 0.1] = np.nan
    # a negative weight is an error, but not on a row the filter leaves out
    w[~keep & (rng.random(n) < 0.5)] = -3.0
    null_w = rng.random(n) < 0.1
    table = pa.Table.from_pandas(df, preserve_index=False).append_column(
        "w", pa.array(w, mask=null_w))  # NaN stays NaN, null stays null
    path = os.path.join(tmp_path_factory.mktemp("wwhere"), "p.parquet")
    pq.write_table(table, path)
    y_na, p_na = df["y"].isna().to_numpy(), df["p"].isna().to_numpy()
    w[null_w] = np.nan
    labelled = keep & ~y_na & ~p_na
    reasons = {"user filter": int((~keep).sum()), "null true label": int((keep & y_na).sum()),
               "null prediction": int((keep & ~y_na & p_na).sum()),
               "null or NaN weight": int((labelled & np.isnan(w)).sum())}
    ok = labelled & ~np.isnan(w)
    sums: dict[tuple, float] = {}
    for a, b, v in zip(df["y"][ok], df["p"][ok], w[ok], strict=True):
        sums[(str(a), str(b))] = sums.get((str(a), str(b)), 0.0) + float(v)
    kw = {"where": where, "weight_col": "w", "skip_invalid": True}
    classes = {v for pair in sums for v in pair}
    truth = {a for a, _ in sums}
    if scores:
        # text labels imply no positive class: the column's class is named (docs/scaling.md)
        kw |= {"score_cols": "s", "bins": 4, **({"pos_label": "c1"} if text else {})}
    # one score column scores the positive class of the truth (docs/cli.md, "Predicted labels
    # beside scores"): beyond two classes there is none, and pos_label must be a true class
    # (integer labels here are 0 and 1: a truth of one implies 1)
    unscored = scores and (len(classes) > 2 or (text and "c1" not in truth))
    if not sums or not any(sums.values()) or unscored:
        # no valid row, all weights zero, or no class for the one score column
        with pytest.raises(ValueError):
            cio.evaluate_file(path, "y", "p", **kw)
        return
    cm, rep = cio.evaluate_file(path, "y", "p", **kw)
    got = {(str(a), str(b)): float(cm.counts[i, j]) for i, a in enumerate(cm.labels)
           for j, b in enumerate(cm.labels) if (str(a), str(b)) in sums or cm.counts[i, j]}
    assert got == pytest.approx(sums)
    assert rep.skipped_by_reason == {k: v for k, v in reasons.items() if v}
    assert rep.rows_read + rep.rows_skipped == len(df)
    assert rep.rows_read == int(ok.sum())


def test_filtered_rows_are_not_checked_and_not_listed(tmp_path):
    df = _frame([(None, 1, "train", 1, 0.1), (0, 0, "test", 2, 0.2), (1, None, "train", 3, 0.3),
                 (1, 1, "test", 4, 0.4), (None, None, None, 5, 0.5)])
    path = str(tmp_path / "p.parquet")
    _write(df, path, "parquet")
    cm, rep = cio.evaluate_file(path, "y", "p", where="split = 'test'")
    assert cm.counts.tolist() == [[1, 0], [0, 1]]
    assert rep.skipped_by_reason == {"user filter": 3}
    assert rep.skipped_row_numbers == []
    # with the missing values kept in, they are found and only they are listed
    cm, rep = cio.evaluate_file(path, "y", "p", where="k < 5", skip_invalid=True)
    assert rep.skipped_by_reason == {"user filter": 1, "null true label": 1,
                                     "null prediction": 1}
    assert rep.skipped_row_numbers == [1, 3]


@pytest.mark.parametrize("where, err, match", [
    ("splt = 'test'", ValueError, r"where: DuckDB cannot evaluate .*splt"),
    ("split", ValueError, r"where"),
    ("k +", ValueError, r"where must be one SQL condition .* does not parse as one: syntax error"),
    ("true; select 1", ValueError, r"where must be one SQL condition .* 2 statements"),
    ("   ", ValueError, r"where must be a SQL expression"),
    (3, TypeError, r"where must be a SQL expression \(str\)"),
])
def test_bad_where(tmp_path, where, err, match):
    path = str(tmp_path / "p.csv")
    _write(_frame([(0, 0, "test", 1, 0.5)]), path, "csv")
    with pytest.raises(err, match=match):
        cio.evaluate_file(path, "y", "p", where=where)


def test_numeric_where_is_not_a_condition(tmp_path):
    path = str(tmp_path / "p.parquet")
    _write(_frame([(0, 0, "test", 1, 0.5)]), path, "parquet")
    with pytest.raises(ValueError, match="boolean SQL expression"):
        cio.evaluate_file(path, "y", "p", where="k + 1")


def test_where_on_npz_sql_batches_and_groups(tmp_path):
    y = np.array([0, 1, 1, 0, 1, 0])
    p = np.array([0, 1, 0, 0, 1, 1])
    g = np.array([1, 1, 2, 2, 1, 2])
    npz = str(tmp_path / "p.npz")
    np.savez(npz, y=y, p=p, g=g)
    keep = g == 1
    cm, rep = cio.evaluate_file(npz, "y", "p", where="g = 1")
    assert _table(cm) == Counter(zip(y[keep].tolist(), p[keep].tolist(), strict=True))
    assert rep.skipped_by_reason == {"user filter": int((~keep).sum())}

    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (0, 0, 'a'), (1, 1, 'b'), "
                "(1, 0, 'a'), (NULL, 1, 'b')) v(y, p, site)")
    cm, rep = cio.evaluate_sql(con, "SELECT y, p, site FROM t", where="site = 'a'")
    assert cm.counts.tolist() == [[1, 0], [1, 0]] and rep.skipped_by_reason == {"user filter": 2}

    csv_path = str(tmp_path / "p.csv")
    pd.DataFrame({"y": y, "p": p, "g": g}).to_csv(csv_path, index=False)
    reader = cio.iter_batches(csv_path, ["y"], where="g = 2")
    got = np.concatenate([b["y"] for b in reader])
    assert got.tolist() == y[g == 2].tolist()
    assert reader.skipped_by_reason == {"user filter": 3} and reader.rows_read == 3
    assert cio.read_columns(csv_path, ["p"], where="g = 2")["p"].tolist() == p[g == 2].tolist()

    ev, rep = cio.evaluate_file(csv_path, "y", "p", group_cols="g", where="y = 1")
    assert ev.groups == [1, 2]
    assert rep.skipped_by_reason == {"user filter": int((y != 1).sum())}
    assert rep.rows_read == int((y == 1).sum())


def _cli(*args: str):
    import subprocess
    import sys

    env = {**os.environ, "COLUMNS": "200", "PYTHONWARNINGS": "ignore"}
    return subprocess.run([sys.executable, "-m", "confmat", *args], capture_output=True,
                          text=True, env=env, timeout=240)


def test_cli_where(tmp_path):
    df = _frame([(0, 0, "test", 1, 0.1), (1, 1, "test", 2, 0.9), (1, 0, "train", 3, 0.4),
                 (0, 1, "train", 4, 0.6), (1, 1, "test", 5, 0.8)])
    path = str(tmp_path / "p.csv")
    _write(df, path, "csv")
    res = _cli("report", path, "--true", "y", "--pred", "p", "--where", "split = 'test'",
               "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["source"]["where"] == "split = 'test'"
    assert out["source"]["rows left out by --where"] == 2
    res = _cli("report", path, "--true", "y", "--pred", "p", "--score", "s", "--where",
               "split = 'train'", "--format", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["source"]["rows left out by --where"] == 3
    # one column as two models needs two names (a repeated --pred alone is refused: it
    # used to leave one model)
    res = _cli("compare", path, "--true", "y", "--pred", "p,p", "--name", "a,b", "--where",
               "k > 1", "--format", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["source"]["rows left out by --where"] == 1
    res = _cli("report", path, "--true", "y", "--pred", "p", "--where", "nope = 1")
    assert res.returncode == 2
    assert "where: DuckDB cannot evaluate" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("where, match", [
    ("y IN (SELECT 1)", "holds a subquery"),
    ("EXISTS (SELECT * FROM read_csv('other.csv'))", "holds a subquery"),
    ("cast(getenv('HOME') AS INT) = 1", r"calls getenv\(\)"),
    ("current_setting('threads') = 2", r"calls current_setting\(\)"),
    ("length(read_text('x')) > 0", r"calls read_text\(\)"),
    ("random() < 0.5", r"calls random\(\)"),
    ("y = 1 GROUP BY y", "adds clauses of its own"),
    ("y = 1 ORDER BY y", "adds clauses of its own"),
    ("y = 1 LIMIT 1", "adds clauses of its own"),
    ("y = 1 UNION SELECT * FROM t", "adds clauses of its own"),
    ("y = 1), false) AS a, coalesce((true", "does not parse as one"),
])
def test_where_is_a_condition_over_the_columns_only(tmp_path, where, match):
    """A filter that could read other files, settings or the environment, or change the query
    it is placed in, is refused before DuckDB binds it (a program may pass on a filter it
    received from elsewhere); the file is never read with it."""
    path = str(tmp_path / "p.csv")
    with open(path, "w") as f:
        f.write("y,p,s\n1,1,a\n0,1,b\n")
    with pytest.raises(ValueError, match=r"^where must be .*" + match):
        cio.evaluate_file(path, "y", "p", where=where)


@pytest.mark.parametrize("where, kept", [
    ("lower(s) LIKE 'a%'", 1),
    ("y IN (0, 1)", 2),
    ("coalesce(y, 0) >= 1 OR s = 'b'", 2),
    ("CASE WHEN s = 'a' THEN true ELSE false END", 1),
    ("y BETWEEN 0 AND 0", 1),
    ("regexp_matches(s, '^[ab]$') AND NOT (s IS NULL)", 2),
])
def test_ordinary_conditions_still_filter(tmp_path, where, kept):
    """Functions that compute on their arguments, CASE, IN lists, BETWEEN: kept rows counted by
    hand."""
    path = str(tmp_path / "p.csv")
    with open(path, "w") as f:
        f.write("y,p,s\n1,1,a\n0,1,b\n")
    _, rep = cio.evaluate_file(path, "y", "p", where=where)
    assert rep.rows_read == kept
    assert rep.skipped_by_reason == ({"user filter": 2 - kept} if kept < 2 else {})


# --- the allow-list (confmat.inputs.where.ALLOWED_EXPRESSIONS / ALLOWED_FUNCTIONS) ---------

ROOT = Path(__file__).resolve().parents[1]

#: The filters the tests of other files and the prose of docs/scaling.md use (the scrape in
#: ``_documented_filters`` finds those written as ``where="..."`` and ``--where "..."``).
FILTERS_ELSEWHERE = ["split = 'test'", "split = 'train'", "site IN ('A', 'B') AND age >= 18",
                     "site = 'A'", "site = 'a'", "k < 5", "k > 1", "k + 1", "g = 1", "g = 2",
                     "y = 1", "y = 5", "yhat = 0", "nope = 1", "zz = 1", "splt = 'test'",
                     "coalesce(sex, 'unknown') = 'f'"]


def _documented_filters() -> set[str]:
    found: set[str] = set()
    pages = [*ROOT.joinpath("docs").rglob("*.md"), ROOT / "README.md",
             *ROOT.joinpath("src", "confmat", "cli").rglob("*.py"),
             *ROOT.joinpath("src", "confmat", "io").rglob("*.py")]
    for page in pages:
        if page.exists():
            text = page.read_text(encoding="utf-8")
            found.update(re.findall(r"\bwhere=\"([^\"]+)\"", text))
            found.update(re.findall(r"--where \"([^\"]+)\"", text))
    return found


def test_documented_filters_are_allowed():
    """Every filter the documentation, the CLI help, the docstrings and the other tests show
    passes the allow-list unchanged (an unknown column such as ``nope`` is DuckDB's to refuse
    when it binds, not the allow-list's)."""
    documented = _documented_filters()
    assert {"split = 'test'", "site = 'A'"} <= documented  # the scrape finds them
    for where in sorted(documented | set(FILTERS_ELSEWHERE) | set(WHERES)):
        assert check_where(where) == where


@pytest.mark.parametrize("where", [
    # one per operator and construct: what DuckDB's parser writes for each must be allowed
    "k + 1 > 2", "k - 1 < 2", "k * 2 = 4", "k / 2 > 1", "k // 2 = 1", "k % 2 = 0",
    "k ** 2 > 4", "k ^ 2 > 4", "-k < 0", "@k > 1", "~k < 0", "(k & 1) = 1", "(k | 1) = 1",
    "(k << 1) = 2", "(k >> 1) = 0", "s || 'x' = 'ax'", "s LIKE 'a%'", "s NOT LIKE 'a%'",
    "s ILIKE 'A%'", "s NOT ILIKE 'A%'", "s GLOB 'a*'", "s NOT GLOB 'a*'", "s SIMILAR TO 'a.*'",
    "s NOT SIMILAR TO 'a.*'", "s ~ '^a'", "s !~ '^a'", "s LIKE 'a!%' ESCAPE '!'",
    "s NOT ILIKE 'a!%' ESCAPE '!'", "s ^@ 'a'", "s COLLATE nocase = 'A'", "k IS NULL",
    "k IS NOT NULL", "k IS DISTINCT FROM 1", "k IS NOT DISTINCT FROM 1", "k IN (1, 2)",
    "k NOT IN (1, 2)", "k IN [1, 2]", "k BETWEEN 1 AND 2", "k NOT BETWEEN 1 AND 2",
    "CASE k WHEN 1 THEN true ELSE false END", "CAST(k AS DOUBLE) > 1", "k::VARCHAR = '1'",
    "TRY_CAST(s AS INT) IS NULL", "CAST(k AS DECIMAL(10, 2)) > 1", "k IS TRUE",
    "coalesce(k, 0) = 0", "ifnull(k, 0) = 0", "nullif(k, 0) IS NULL", "k != 1", "k == 1",
    "EXTRACT(year FROM d) = 2020", "d + INTERVAL 1 DAY > DATE '2020-01-02'",
    "date_trunc('month', d) = DATE '2020-01-01'", "year(d) = 2020", "j ->> 'a' = 'x'",
    "[1, 2][1] = k", "s[1:1] = 'a'", "greatest(k, 1) = least(k, 1)", "round(x, 1) = 0.5",
    "isnan(x) OR isinf(x) OR NOT isfinite(x)", "ln(x) < 0 AND exp(x) > 1",
    "starts_with(s, 'a') AND contains(s, 'b') AND length(trim(s)) = 2",
    "regexp_full_match(s, 'a.') AND replace(s, 'a', 'b') = 'bb'",
    "POSITION('a' IN s) = 1 AND SUBSTRING(s FROM 1 FOR 1) = 'a'", "TRIM(BOTH 'x' FROM s) = 'a'",
])
def test_operators_and_constructs_are_allowed(where):
    assert check_where(where) == where


ATTACKS = [
    # the clock, the session, settings, the environment (run to run, or outside the rows)
    ("current_date > d", r"names current_date, which DuckDB reads as its function"),
    ("CURRENT_TIMESTAMP > d", r"names CURRENT_TIMESTAMP, which DuckDB reads as its function"),
    ("user = 'duckdb'", r"names user, which DuckDB reads as its function"),
    ("current_catalog = 'memory'", r"names current_catalog"),
    ("d < now()", r"calls now\(\), which reads the session"),
    ("d = today()", r"calls today\(\), which reads the session"),
    ("getvariable('x') = 1", r"calls getvariable\(\), which reads the session"),
    ("version() = 'v'", r"calls version\(\), which is not known to compute on its arguments"),
    ("uuid() IS NULL", r"calls uuid\(\), which gives another value in each run"),
    ("age(d) > INTERVAL 1 DAY", r"calls age\(\)"),
    ("nextval('seq') > 0", r"calls nextval\(\)"),
    # a count in the filter would make a string of any size in every row
    ("length(repeat(s, 1000000000)) > 0", r"calls repeat\(\)"),
    # files, the catalogue, table functions
    ("glob('*') IS NULL", r"calls glob\(\), a table function, which reads outside the rows"),
    ("length(read_blob('x')) > 0", r"calls read_blob\(\), a table function"),
    ("query_table('t') IS NULL", r"calls query_table\(\), a table function"),
    ("json_serialize_sql('SELECT 1') = ''", r"calls json_serialize_sql\(\)"),
    ("y IN (SELECT y FROM duckdb_tables())", r"holds a subquery"),
    ("y = ANY (SELECT 1)", r"holds a subquery"),
    # a filter holds for one row: no aggregate, no window
    ("sum(y) > 1", r"calls sum\(\), an aggregate \(a filter holds for one row at a time\)"),
    ("count(*) > 0", r"calls count_star\(\), an aggregate"),
    ("lower(s) FILTER (WHERE true) = 'a'", r"uses DISTINCT, FILTER, ORDER BY"),
    ("row_number() OVER () < 5", r"holds a window function"),
    ("avg(y) OVER (PARTITION BY s) > 0", r"holds a window function"),
    # star expressions, lambdas (which may hide calls: refused whole), parameters
    ("COLUMNS(*) > 0", r"holds a star expression"),
    ("COLUMNS('y') = 1", r"holds a star expression"),
    ("*COLUMNS(*) = 1", r"holds an expression of kind OPERATOR OPERATOR_UNPACK"),
    ("list_transform([y], x -> x + 1) = [2]", r"calls list_transform\(\)"),
    ("list_filter([y], lambda x: x > 0) = [1]", r"calls list_filter\(\)"),
    ("y -> 'a' = 'x'", r"holds a lambda"),
    ("y = $1", r"holds a parameter"),
    ("#1 = 1", r"holds a positional reference"),
    # macros, and names that may resolve to a schema's macro
    ("my_macro(y) = 1", r"calls my_macro\(\), which this DuckDB does not know"),
    ("main.lower(s) = 'a'", r"calls main.lower\(\): call a function by its name alone"),
    ("s.lower() = 'a'", r"calls s.lower\(\): call a function by its name alone"),
    ("system.main.lower(s) = 'a'", r"calls system.main.lower\(\)"),
]


@pytest.mark.parametrize("where, match", ATTACKS)
def test_allow_list_refuses(tmp_path, where, match):
    """What is not on the allow-list is refused before DuckDB binds it: the message names
    ``where``, quotes the filter, says what is not allowed, and where the list is."""
    path = str(tmp_path / "p.csv")
    with open(path, "w") as f:
        f.write("y,p,s\n1,1,a\n0,1,b\n")
    with pytest.raises(ValueError, match=r"^where must be .*" + match) as info:
        cio.evaluate_file(path, "y", "p", where=where)
    message = str(info.value)
    assert repr(where) in message
    assert ("ALLOWED_FUNCTIONS" in message or "ALLOWED_EXPRESSIONS" in message
            or "VALUE_FUNCTION_NAMES" in message or "by its name alone" in message
            or "only aggregates take" in message)


def test_a_macro_of_the_callers_connection_is_refused():
    """``evaluate_sql`` on a connection that holds a macro reading another table: the filter
    may not call it (it is on no allow-list), though DuckDB would."""
    con = duckdb.connect()
    con.execute("CREATE TABLE secret AS SELECT 42 AS v")
    con.execute("CREATE MACRO leak() AS (SELECT v FROM secret)")
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (0, 0), (1, 1)) v(y, p)")
    assert con.execute("SELECT count(*) FROM t WHERE leak() = 42").fetchone() == (2,)
    with pytest.raises(ValueError, match=r"^where must be .*calls leak\(\)"):
        cio.evaluate_sql(con, "SELECT y, p FROM t", where="leak() = 42")


#: DuckDB's time-zone-aware timestamp types: a function of one reads it in the session's
#: TimeZone setting, so DuckDB (2.0 on) calls it CONSISTENT_WITHIN_QUERY, not CONSISTENT
ZONED = {"TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ_NS"}


def test_allowed_functions_compute_on_their_arguments():
    """Each allowed function is one DuckDB knows as a scalar function (or a macro of its own)
    of stable result — DuckDB's catalogue (``duckdb_functions()``) says ``CONSISTENT`` for
    every scalar overload, or ``CONSISTENT_WITHIN_QUERY`` for one that takes a time-zone-aware
    timestamp (read in the session's time zone, fixed for the read) — and none is an
    aggregate."""
    con = duckdb.connect()
    rows = con.execute("SELECT function_name, function_type, stability, internal, "
                       "parameter_types FROM duckdb_functions()").fetchall()
    kinds: dict[str, set] = {}
    for name, kind, stability, internal, params in rows:
        if stability == "CONSISTENT_WITHIN_QUERY" and ZONED & set(params or ()):
            stability = "CONSISTENT"  # the session's time zone is the only other input
        kinds.setdefault(name, set()).add((kind, stability, internal))
    for name in sorted(ALLOWED_FUNCTIONS):
        assert name in kinds, name
        scalar = {(k, s) for k, s, _ in kinds[name] if k == "scalar"}
        macro = {i for k, _, i in kinds[name] if k == "macro"}
        assert scalar or macro == {True}, (name, kinds[name])
        assert all(s == "CONSISTENT" for _, s in scalar), (name, scalar)
        assert not any(k in ("aggregate", "window") for k, _, _ in kinds[name]), name
    assert not {"now", "today", "random", "current_setting", "getvariable", "version",
                "read_text", "glob", "age"} & ALLOWED_FUNCTIONS


@pytest.mark.parametrize("cast", ["y::INET", "CAST(y AS GEOMETRY)", "y::MAP(INT, INET)",
                                  "y::STRUCT(a INT, b GEOMETRY)", "y::main.INTEGER",
                                  "y::mytype"])
def test_casts_to_types_outside_duckdb_are_refused(cast):
    """A type an extension defines makes DuckDB download and load that extension from the
    network on first use (autoinstall_known_extensions is on by default); shown here without
    the network: DuckDB itself fails to bind ``'1'::INET`` in a connection that may not
    install or load extensions."""
    with pytest.raises(ValueError, match=r"^where must .*casts to the type .*ALLOWED_TYPES"):
        check_where(f"{cast} IS NULL")
    off = duckdb.connect(config={"autoinstall_known_extensions": False,
                                 "autoload_known_extensions": False})
    with pytest.raises(duckdb.Error):
        off.execute("SELECT CAST('1' AS INET)").fetchall()


def test_allowed_types_are_duckdbs_own():
    """Each allowed type binds in a connection that may neither install nor load an extension
    (the nested ones with a built-in member type), so casting to it reaches nothing outside."""
    off = duckdb.connect(config={"autoinstall_known_extensions": False,
                                 "autoload_known_extensions": False})
    nested = {"LIST": "INTEGER[]", "ARRAY": "INTEGER[2]", "STRUCT": "STRUCT(a INTEGER)",
              "ROW": "ROW(a INTEGER)", "MAP": "MAP(INTEGER, VARCHAR)",
              "UNION": "UNION(a INTEGER)", "ENUM": "ENUM('a')"}
    for name in sorted(ALLOWED_TYPES):
        spelled = nested.get(name, name)
        off.execute(f"SELECT CAST(NULL AS {spelled})").fetchall()
        assert check_where(f"CAST(y AS {spelled}) IS NULL")


# --- random filters built from allowed parts, against pandas + scikit-learn -------------

def _num_leaf() -> st.SearchStrategy:
    cols = st.sampled_from([("k", lambda d: d["k"]), ("y", lambda d: d["y"]),
                            ("(k % 3)", lambda d: d["k"] % 3),
                            ("floor(s * 10)", lambda d: np.floor(d["s"] * 10)),
                            ("length(split)", lambda d: d["split"].str.len())])
    consts = st.integers(0, 9).map(
        lambda c: (str(c), lambda d, c=c: pd.Series(c, index=d.index, dtype="Float64")))
    return st.one_of(cols, consts)


def _greatest(a, b):
    """DuckDB's greatest: NULL arguments are left out (NULL when all are)."""
    frame = pd.concat([pd.Series(a, dtype="Float64"), pd.Series(b, dtype="Float64")], axis=1)
    return frame.max(axis=1, skipna=True).astype("Float64")


def _num_tree(leaf: st.SearchStrategy) -> st.SearchStrategy:
    def grow(children: st.SearchStrategy) -> st.SearchStrategy:
        two = st.tuples(children, children)
        return st.one_of(
            two.map(lambda t: (f"({t[0][0]} + {t[1][0]})",
                               lambda d, t=t: t[0][1](d) + t[1][1](d))),
            two.map(lambda t: (f"({t[0][0]} - {t[1][0]})",
                               lambda d, t=t: t[0][1](d) - t[1][1](d))),
            children.map(lambda a: (f"abs({a[0]})", lambda d, a=a: abs(a[1](d)))),
            st.tuples(children, st.integers(0, 9)).map(
                lambda t: (f"coalesce({t[0][0]}, {t[1]})",
                           lambda d, t=t: pd.Series(t[0][1](d), dtype="Float64")
                           .fillna(t[1]))),
            two.map(lambda t: (f"greatest({t[0][0]}, {t[1][0]})",
                               lambda d, t=t: _greatest(t[0][1](d), t[1][1](d)))),
            two.map(lambda t: (f"CASE WHEN s < 0.5 THEN {t[0][0]} ELSE {t[1][0]} END",
                               lambda d, t=t: pd.Series(t[0][1](d), dtype="Float64").where(
                                   d["s"] < 0.5, pd.Series(t[1][1](d), dtype="Float64")))),
        )
    return st.recursive(leaf, grow, max_leaves=3)


def _isin(values, options):
    out = pd.Series(values).isin(options).astype("boolean")
    out[pd.Series(values).isna().to_numpy()] = pd.NA
    return out


def _bool_leaf() -> st.SearchStrategy:
    num = _num_tree(_num_leaf())
    ops = {"=": lambda a, b: a == b, "<>": lambda a, b: a != b, "<": lambda a, b: a < b,
           "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
    text = st.sampled_from([
        ("split = 'test'", lambda d: d["split"] == "test"),
        ("upper(split) = 'TRAIN'", lambda d: d["split"].str.upper() == "TRAIN"),
        ("starts_with(split, 'te')", lambda d: d["split"].str.startswith("te")),
        ("lower(split) LIKE 'tr%'", lambda d: d["split"].str.lower().str.startswith("tr")),
        ("split IN ('test', 'x')", lambda d: _isin(d["split"], ["test", "x"])),
        ("split IS NULL", lambda d: d["split"].isna()),
    ])
    return st.one_of(
        text,
        st.tuples(num, st.sampled_from(sorted(ops)), num).map(
            lambda t: (f"{t[0][0]} {t[1]} {t[2][0]}",
                       lambda d, t=t: ops[t[1]](pd.Series(t[0][1](d), dtype="Float64"),
                                                pd.Series(t[2][1](d), dtype="Float64")))),
        num.map(lambda a: (f"{a[0]} IS NOT NULL",
                           lambda d, a=a: ~pd.Series(a[1](d), dtype="Float64").isna())),
        st.tuples(num, st.integers(0, 5), st.integers(0, 5)).map(
            lambda t: (f"{t[0][0]} BETWEEN {t[1]} AND {t[1] + t[2]}",
                       lambda d, t=t: (pd.Series(t[0][1](d), dtype="Float64") >= t[1])
                       & (pd.Series(t[0][1](d), dtype="Float64") <= t[1] + t[2]))),
        st.tuples(num, st.lists(st.integers(0, 9), min_size=1, max_size=3)).map(
            lambda t: (f"{t[0][0]} IN ({', '.join(map(str, t[1]))})",
                       lambda d, t=t: _isin(pd.Series(t[0][1](d), dtype="Float64"), t[1]))),
    )


def _bool_tree() -> st.SearchStrategy:
    def grow(children: st.SearchStrategy) -> st.SearchStrategy:
        two = st.tuples(children, children)
        return st.one_of(
            two.map(lambda t: (f"({t[0][0]} AND {t[1][0]})",
                               lambda d, t=t: t[0][1](d).astype("boolean")
                               & t[1][1](d).astype("boolean"))),
            two.map(lambda t: (f"({t[0][0]} OR {t[1][0]})",
                               lambda d, t=t: t[0][1](d).astype("boolean")
                               | t[1][1](d).astype("boolean"))),
            children.map(lambda a: (f"NOT ({a[0]})",
                                    lambda d, a=a: ~a[1](d).astype("boolean"))),
        )
    return st.recursive(_bool_leaf(), grow, max_leaves=4)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(30, 60), tree=_bool_tree(),
       fmt=st.sampled_from(["parquet", "csv"]))
def test_random_allowed_filters_against_pandas_and_sklearn(tmp_path_factory, seed, n, tree,
                                                           fmt):
    """Random conditions built from allowed parts (arithmetic, abs, coalesce, greatest, CASE,
    floor, length, upper / lower / starts_with / LIKE, IN lists, BETWEEN, IS [NOT] NULL, AND /
    OR / NOT) over nullable columns are accepted, and give the matrix of the rows they hold
    for. Oracle: the condition evaluated by pandas' nullable arrays (SQL's three-valued logic:
    Kleene AND / OR / NOT, NULL propagated by arithmetic and comparisons; a row is kept only
    where the condition is true), counted by scikit-learn's ``confusion_matrix``."""
    from sklearn.metrics import confusion_matrix

    where, evaluate = tree
    rows = _random_rows(seed, n, 3, 0.15)
    df = _frame(rows)
    df["y"] = df["y"].fillna(0)  # labels complete here: the filter is what is tested
    df["p"] = df["p"].fillna(1)
    df["split"] = df["split"].astype("string")
    keep = pd.Series(evaluate(df)).astype("boolean").fillna(False).to_numpy(dtype=bool)
    path = os.path.join(tmp_path_factory.mktemp("tree"), f"p.{fmt}")
    _write(df, path, fmt)
    assert check_where(where) == where
    if not keep.any():
        with pytest.raises(ValueError, match=r"no valid rows to evaluate \(\d+ skipped: user filter"):
            cio.evaluate_file(path, "y", "p", where=where)
        return
    cm, rep = cio.evaluate_file(path, "y", "p", where=where)
    y, p = df["y"].to_numpy(int)[keep], df["p"].to_numpy(int)[keep]
    book = sorted(set(y.tolist()) | set(p.tolist()))
    assert [int(v) for v in cm.labels] == book, where
    np.testing.assert_array_equal(cm.counts, confusion_matrix(y, p, labels=book), err_msg=where)
    assert rep.skipped_by_reason == ({"user filter": int((~keep).sum())} if (~keep).any()
                                     else {})
