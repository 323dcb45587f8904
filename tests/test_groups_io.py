"""Evaluation by group of files: ``evaluate_file(..., group_cols=...)`` (DuckDB ``GROUP BY``)
equals ``by_group`` on the same data read by pandas (``by_group`` is checked against fairlearn
in test_groups.py), for CSV and Parquet; the row accounting adds up to the file's rows."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pd = pytest.importorskip("pandas")
pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from confmat.groups import by_group  # noqa: E402
from confmat.io import evaluate_file  # noqa: E402

METRICS = ("accuracy", "recall", "precision", "f1", "balanced_accuracy")


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _frame(seed: int, n: int, weighted: bool) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.choice(["cat", "dog", "eel"], n)
    y[:1] = "dog"  # the positive class occurs
    df = pd.DataFrame({
        "y": y,
        "yhat": np.where(rng.random(n) < 0.7, y, rng.choice(["cat", "dog", "eel"], n)),
        "site": rng.choice(["north", "south", "east"], n),
        "age": rng.integers(0, 3, n) * 10,
    })
    if weighted:
        df["w"] = np.round(rng.random(n) * 3, 3)
    return df


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 200), st.booleans(), st.booleans(),
       st.sampled_from(["csv", "parquet"]))
def test_file_equals_by_group_on_pandas(tmp_path_factory, seed, n, weighted, two, fmt):
    df = _frame(seed, n, weighted)
    path = tmp_path_factory.mktemp("g") / f"p.{fmt}"
    if fmt == "csv":
        df.to_csv(path, index=False)
    else:
        df.to_parquet(path, index=False)
    cols = ["site", "age"] if two else ["site"]
    ev, report = evaluate_file(path, "y", "yhat", group_cols=cols,
                               weight_col="w" if weighted else None, pos_label="dog")
    back = pd.read_csv(path) if fmt == "csv" else pd.read_parquet(path)
    ref = by_group(back["y"], back["yhat"], back[cols],
                   sample_weight=back["w"] if weighted else None, pos_label="dog")
    assert report.rows_read == n and report.rows_skipped == 0
    assert report.engine == "duckdb GROUP BY"
    assert ev.groups == ref.groups and ev.names == ref.names == cols
    assert ev.labels == ref.labels and ev.sizes.tolist() == ref.sizes.tolist()
    for m in METRICS:
        np.testing.assert_allclose(ev.metric(m, zero_division=0), ref.metric(m, zero_division=0),
                                   rtol=1e-12, atol=1e-12)


def test_null_groups_and_labels_are_accounted(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("y,yhat,site\n1,1,A\n0,1,\n,1,B\n1,0,B\n0,,\n1,1,A\n")
    with pytest.raises(ValueError, match=r"row 2: null in group column 'site'"):
        evaluate_file(path, "y", "yhat", group_cols="site")
    ev, report = evaluate_file(path, "y", "yhat", group_cols="site", skip_invalid=True)
    # row 3: null label; row 5: null prediction (and group): label reasons come first
    assert report.skipped_by_reason == {"null true label": 1, "null prediction": 1,
                                        "null in group column 'site'": 1}
    assert report.rows_read + report.rows_skipped == 6
    assert report.skipped_row_numbers == [2, 3, 5]
    assert ev.groups == ["A", "B"] and ev.sizes.tolist() == [2, 1]
    ref = by_group([1, 1, 1], [1, 1, 0], ["A", "A", "B"], pos_label=1)
    assert ev.metric("recall", pos_label=1).tolist() == ref.metric("recall").tolist()


def test_group_cols_errors(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("y,yhat,s,site\n1,1,0.9,A\n")
    with pytest.raises(ValueError, match="nope"):
        evaluate_file(path, "y", "yhat", group_cols=["nope"])
    with pytest.raises(ValueError, match="group_cols takes one score column"):
        evaluate_file(path, "y", "yhat", group_cols=["site"], score_cols=["s", "yhat"])
    with pytest.raises(ValueError, match="at least one column"):
        evaluate_file(path, "y", "yhat", group_cols=[])
    with pytest.raises(ValueError, match="group_cols names column 'site' twice"):
        evaluate_file(path, "y", "yhat", group_cols=["site", "site"])


def test_sql_relation_by_group():
    import duckdb

    df = _frame(7, 150, True)
    con = duckdb.connect()
    con.register("preds", df)
    from confmat.io import evaluate_sql

    ev, report = evaluate_sql(con, "select y, yhat, site, w from preds where age > 0",
                              group_cols=["site"], weight_col="w", pos_label="dog")
    sub = df[df["age"] > 0]
    ref = by_group(sub["y"], sub["yhat"], sub[["site"]], sample_weight=sub["w"],
                   pos_label="dog")
    assert report.rows_read == len(sub) and ev.groups == ref.groups
    np.testing.assert_allclose(ev.stack, ref.stack, rtol=1e-12, atol=1e-12)
    assert ev.sizes.tolist() == ref.sizes.tolist()


@pytest.mark.parametrize("pos_label", [None, 1])
def test_file_of_one_class_gets_the_positive_class(tmp_path, pos_label):
    """Every row negative and predicted negative: the file's GROUP BY path adds the positive
    class, empty, as by_group does in memory (it raised 'pos_label=1 is not one of the
    labels'). Oracle: fairlearn's demographic parity difference and selection rate."""
    fm = pytest.importorskip("fairlearn.metrics")
    path = tmp_path / "one.csv"
    g = ["a", "b", "a", "b", "a"]
    path.write_text("y,p,g\n" + "".join(f"0,0,{k}\n" for k in g))
    ev, _ = evaluate_file(str(path), "y", "p", group_cols=["g"], pos_label=pos_label)
    y = np.zeros(len(g), dtype=int)
    assert ev.labels == [0, 1]
    assert ev.demographic_parity_difference() == pytest.approx(
        fm.demographic_parity_difference(y, y, sensitive_features=g), abs=1e-12)
    assert ev.metric("selection_rate", pos_label=1).tolist() == [0.0, 0.0]
    assert ev.overall.counts.tolist() == by_group(y, y, g, pos_label=pos_label).overall.counts.tolist()
