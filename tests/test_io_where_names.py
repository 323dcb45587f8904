"""``where=`` over columns named like a session value (``user``, ``current_date``, ...) or a
keyword (``order``, ``select``).

DuckDB parses ``user`` and ``"user"`` alike, as a column reference, and binds either to the
function of the session (``user`` is ``'duckdb'``, ``current_date`` today's date) when the
source has no such column. So the filter takes such a name quoted and only when the source
has that column; the bare word is refused with a message that says to quote it. Keywords
are quoted in SQL anyway (``"order" > 2``).

Oracle: pandas filtering of the same rows (``df[df["user"] == "ann"]``) and scikit-learn's
``confusion_matrix`` of what is kept; the rows left out are counted under "user filter".
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
feather = pytest.importorskip("pyarrow.feather")
duckdb = pytest.importorskip("duckdb")
skm = pytest.importorskip("sklearn.metrics")

from confmat import io as cio  # noqa: E402
from confmat.inputs.where import VALUE_FUNCTION_NAMES, check_where  # noqa: E402


def frame(n: int = 60, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "y": rng.integers(0, 2, n),
        "yhat": rng.integers(0, 2, n),
        "user": rng.choice(["ann", "bob", "duckdb"], n),
        "current_date": rng.choice(["2024-01-02", "2024-03-04"], n),
        "order": rng.integers(0, 5, n),
        "select": rng.choice(["a", "b"], n),
        "current_schema": rng.choice(["main", "other"], n),
    })


def write(df: pd.DataFrame, path: Path, fmt: str) -> Path:
    if fmt == "csv":
        df.to_csv(path, index=False)
    elif fmt == "parquet":
        pq.write_table(pa.Table.from_pandas(df, preserve_index=False), path)
    else:
        feather.write_feather(pa.Table.from_pandas(df, preserve_index=False), path)
    return path


#: (filter, the same filter in pandas)
FILTERS = [
    ('"user" = \'ann\'', lambda d: d["user"] == "ann"),
    ('"user" = \'duckdb\'', lambda d: d["user"] == "duckdb"),
    ('"current_date" = \'2024-01-02\'', lambda d: d["current_date"] == "2024-01-02"),
    ('"order" > 2', lambda d: d["order"] > 2),
    ('"select" = \'b\' AND "order" <= 1', lambda d: (d["select"] == "b") & (d["order"] <= 1)),
    ('"user" <> \'bob\' OR "current_schema" = \'main\'',
     lambda d: (d["user"] != "bob") | (d["current_schema"] == "main")),
    ('lower("USER") IN (\'ann\', \'bob\')', lambda d: d["user"].isin(["ann", "bob"])),
]


@pytest.mark.parametrize("fmt", ["csv", "parquet", "arrow"])
@pytest.mark.parametrize(("where", "keep"), FILTERS, ids=[f for f, _ in FILTERS])
def test_quoted_session_names_and_keywords_filter_as_pandas(tmp_path, fmt, where, keep):
    df = frame()
    path = write(df, tmp_path / f"p.{fmt}", fmt)
    kept = df[keep(df)]
    cm, report = cio.evaluate_file(path, "y", "yhat", where=where)
    want = skm.confusion_matrix(kept["y"], kept["yhat"], labels=[0, 1])
    np.testing.assert_array_equal(cm.counts, want)
    assert report.skipped_by_reason == ({"user filter": len(df) - len(kept)}
                                        if len(kept) < len(df) else {})
    got = cio.read_columns(path, ["user", "order"], where=where)
    assert got["user"].tolist() == kept["user"].tolist()
    assert got["order"].tolist() == kept["order"].tolist()


def test_quoted_session_name_by_group_and_in_the_cli(tmp_path):
    df = frame(seed=1)
    path = write(df, tmp_path / "p.parquet", "parquet")
    kept = df[df["user"] != "bob"]
    ev, _ = cio.evaluate_file(path, "y", "yhat", group_cols="user", where='"user" <> \'bob\'')
    assert ev.groups == sorted(set(kept["user"]))
    for i, g in enumerate(ev.groups):
        part = kept[kept["user"] == g]
        np.testing.assert_array_equal(
            ev.stack[i], skm.confusion_matrix(part["y"], part["yhat"], labels=[0, 1]))
    from confmat.cli.app import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["report", str(path), "--true", "y", "--pred", "yhat", "--where",
                       '"current_date" = \'2024-03-04\'', "--format", "json",
                       "--no-intervals"])
    assert status == 0
    kept = df[df["current_date"] == "2024-03-04"]
    report = json.loads(out.getvalue())
    assert report["counts"] == skm.confusion_matrix(kept["y"], kept["yhat"]).tolist()
    assert report["source"]["rows left out by --where"] == len(df) - len(kept)


def test_evaluate_sql_with_a_user_column():
    df = frame(seed=2)
    con = duckdb.connect()
    con.register("preds", df)
    kept = df[df["user"] == "ann"]
    cm, _ = cio.evaluate_sql(con.sql("SELECT * FROM preds"), true_col="y", pred_col="yhat",
                             where='"user" = \'ann\'')
    np.testing.assert_array_equal(
        cm.counts, skm.confusion_matrix(kept["y"], kept["yhat"], labels=[0, 1]))


@pytest.mark.parametrize("name", ["user", "current_date", "current_schema"])
def test_the_bare_word_is_refused_and_told_to_quote(tmp_path, name):
    path = write(frame(), tmp_path / "p.csv", "csv")
    with pytest.raises(ValueError, match=rf'if {name} is a column, write it as "{name}"'):
        cio.evaluate_file(path, "y", "yhat", where=f"{name} = 'x'")


@pytest.mark.parametrize("name", sorted(VALUE_FUNCTION_NAMES))
def test_a_quoted_session_name_without_that_column_is_refused(tmp_path, name):
    """DuckDB reads ``"user"`` as the session's user when the source has no such column
    (checked here on DuckDB itself): the filter must not read it."""
    assert duckdb.sql(f'SELECT "{name}" IS NOT NULL FROM (SELECT 1 AS y)').fetchall() == [(True,)]
    path = write(pd.DataFrame({"y": [0, 1], "yhat": [1, 1]}), tmp_path / "p.csv", "csv")
    with pytest.raises(ValueError, match=rf"the source has no column '{name}'"):
        cio.evaluate_file(path, "y", "yhat", where=f'"{name}" IS NOT NULL')


def test_the_quote_is_found_after_multibyte_text():
    """DuckDB counts the location of a name in bytes: text before it in other scripts."""
    assert check_where('\'ééé\' <> "x" AND "user" = 1', ["x", "user"])
    with pytest.raises(ValueError, match="write it as"):
        check_where('\'ééé\' <> "x" AND user = 1', ["x", "user"])
