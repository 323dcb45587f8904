"""Checks that the command line made privately, now made by the library's door for the Python
API too: the cost matrix of a cost-optimal threshold, predicted labels beside scores, a
positive class given to ``confmat.io.evaluate_file`` / ``evaluate_sql``, score and weight
columns read whole (named by their data row), and file bytes that contradict the format.

Oracles: plain Python loops over the values (``math.isfinite``, membership in a ``set``), the
rows and formats of files written here by pandas, pyarrow and numpy (each file's real format
is the writer's), and numbers worked by hand.
"""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat import ConfusionMatrix
from confmat import io as cio
from confmat.curves import best_threshold
from confmat.inputs.decisions import check_cost_matrix, check_scored_predictions
from confmat.inputs.files import open_source
from confmat.inputs.scores import first_non_finite
from confmat.inputs.signatures import check_signature
from confmat.io.errors import check_score_column, check_weight_column
from stray_rule import scored_classes

# ------------------------------------------------------------------------------ cost matrix
ENTRY = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                  st.integers(-10**6, 10**6))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(ENTRY, min_size=2, max_size=2), min_size=2, max_size=2))
def test_cost_matrix_finite_2x2_or_the_first_bad_entry_named(rows):
    flat = [(i, j, float(v)) for i, r in enumerate(rows) for j, v in enumerate(r)]
    bad = next(((i, j, v) for i, j, v in flat if not math.isfinite(v)), None)
    if bad is None:
        assert check_cost_matrix(rows).tolist() == [[float(v) for v in r] for r in rows]
        return
    i, j, v = bad
    with pytest.raises(ValueError, match=rf"got {re.escape(repr(v))} in row {i + 1}, "
                                         rf"column {j + 1}$"):
        check_cost_matrix(rows)


@pytest.mark.parametrize(("cost", "err", "found"), [
    ([[0, 1], [20]], ValueError, "rows of lengths [2, 1]"),
    ([[0, 1, 2], [1, 0, 3]], ValueError, "shape (2, 3)"),
    ([0, 1, 20, 0], ValueError, "shape (4,)"),
    ([[0, "a"], [1, 0]], TypeError, "must hold numbers"),
    ([[True, False], [False, True]], TypeError, "must hold numbers"),
])
def test_bad_cost_matrix_through_best_threshold(cost, err, found):
    """The Python API names what it found (a ragged list was numpy's "inhomogeneous shape",
    a NaN "got shape (2, 2)")."""
    with pytest.raises(err, match=re.escape(found)) as info:
        best_threshold([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], "cost", cost_matrix=cost)
    assert "cost_matrix" in str(info.value)


def test_nan_cost_named_through_best_threshold():
    with pytest.raises(ValueError, match=r"got nan in row 2, column 1"):
        best_threshold([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], "cost",
                       cost_matrix=[[0, 1], [float("nan"), 0]])


# -------------------------------------------------------------- predictions beside scores
@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abc"), min_size=1, max_size=30),
       st.lists(st.sampled_from("abcde"), min_size=1, max_size=30))
def test_stray_prediction_is_the_first_label_outside_y_true(y, p):
    n = min(len(y), len(p))
    y, p = y[:n], p[:n]
    classes = sorted(set(y))
    first = next((i for i, v in enumerate(p) if v not in set(y)), None)
    if first is None:
        check_scored_predictions(classes, np.array(p))
        return
    with pytest.raises(ValueError) as info:
        check_scored_predictions(classes, np.array(p))
    msg = str(info.value)
    assert f"holds label {p[first]!r} (first at position {first}, counted from 0)" in msg
    assert str(classes) in msg
    rows = np.arange(n) * 3 + 2  # data rows with gaps, as after --skip-invalid
    with pytest.raises(ValueError, match=rf"first in data row {rows[first]}\)"):
        check_scored_predictions(classes, np.array(p), rows=rows)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 2]), min_size=1, max_size=30),
       st.lists(st.sampled_from([0, 1, 2, 3]), min_size=1, max_size=30),
       st.sampled_from([0, 1, 2, 3]))
def test_the_positive_class_of_the_score_column_is_no_stray_label(y, p, pos):
    """The positive class is a class of the scores even where y_true lacks it (a truth of 0
    only beside the scores of the class 1); anything else outside y_true stays stray."""
    n = min(len(y), len(p))
    y, p = y[:n], p[:n]
    classes = sorted(set(y))
    scored = scored_classes(y, p, pos)
    first = next((i for i, v in enumerate(p) if v not in scored), None)
    if first is None:
        check_scored_predictions(classes, np.array(p), pos_label=pos)
        return
    with pytest.raises(ValueError) as info:
        check_scored_predictions(classes, np.array(p), pos_label=pos)
    msg = str(info.value)
    assert f"holds label {p[first]!r} (first at position {first}, counted from 0)" in msg
    all_positive = set(y) <= {pos}
    assert msg.count("nor the positive class") == (pos not in set(y) and not all_positive)
    assert msg.count("nor the negative class") == all_positive


def test_build_report_keeps_predicted_classes_absent_from_y_true_beside_scores():
    """A legitimate case of the one rule (check_scored_predictions with the positive class
    of the score column), which build_report follows as the command line does: a one-class
    truth beside the binary scores of the class 1 that the default rule implies, predicted
    1. The matrix holds the predicted class and the curve is of that class. A class absent
    from y_true with its own score column is the other legitimate case (test_report_roc);
    a label with no score is refused (test_report_stray). Checked here against
    scikit-learn's confusion_matrix."""
    from sklearn.metrics import confusion_matrix

    from confmat.report import build_report

    y = np.array([0, 0, 0, 0])
    p = np.array([0, 1, 0, 1])
    cm = ConfusionMatrix.from_predictions(y, p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # recall of class 1 is 0 / 0
        rep = build_report(cm, y_true=y, y_score=[0.1, 0.9, 0.4, 0.8], y_pred=p,
                           intervals=False)
    assert rep.labels == [0, 1]
    assert np.array_equal(rep.counts, confusion_matrix(y, p, labels=[0, 1]))
    assert len(rep.curves) == 1 and rep.curves[0].pos_label == 1


# ------------------------------------------------------------------- scores and weights
@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=20))
def test_first_non_finite_is_the_first_of_a_loop(values):
    expected = next((i for i, v in enumerate(values) if not math.isfinite(v)), None)
    assert first_non_finite(np.array(values, dtype=np.float64)) == expected


def test_score_and_weight_columns_named_by_their_data_row():
    rows = np.array([2, 5, 9])  # rows 1, 3, 4, 6-8 were skipped
    check_score_column("file 'p.csv'", "p", np.array([0.1, 0.5, 0.9]), rows)
    with pytest.raises(ValueError, match=r"^file 'p.csv', row 9: column 'p' holds the score "
                                         r"-inf; scores must be finite$"):
        check_score_column("file 'p.csv'", "p", np.array([0.1, 0.5, -np.inf]), rows)
    with pytest.raises(ValueError, match=r"^file 'p.csv', row 5: column 'w' \(sample_weight\) "
                                         r"holds -1.0"):
        check_weight_column("file 'p.csv'", "w", np.array([1.0, -1.0, np.inf]), rows)
    with pytest.raises(ValueError, match=r"^file 'p.csv': column 'w': sample_weight must "
                                         r"contain at least one non-zero weight"):
        check_weight_column("file 'p.csv'", "w", np.zeros(3), rows)


# ------------------------------------------------------------- pos_label of evaluate_file
@pytest.fixture
def preds(tmp_path: Path) -> Path:
    path = tmp_path / "p.csv"
    pd.DataFrame({"y": [0, 1, 1, 0], "yhat": [0, 1, 0, 0]}).to_csv(path, index=False)
    return path


def test_evaluate_file_refuses_a_pos_label_of_no_class(preds: Path):
    """pos_label was ignored without group_cols: a typo went unnoticed."""
    with pytest.raises(ValueError, match=r"pos_label=7 is not one of the labels in the matrix "
                                         r"\[0, 1\]"):
        cio.evaluate_file(preds, "y", "yhat", pos_label=7)
    with pytest.raises(ValueError, match=r"pos_label=True is a bool"):
        cio.evaluate_file(preds, "y", "yhat", pos_label=True)
    cm, _ = cio.evaluate_file(preds, "y", "yhat", pos_label=1)
    assert cm.counts.tolist() == [[2, 0], [1, 1]]  # counted by hand


def test_evaluate_sql_refuses_a_pos_label_of_no_class():
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.execute("create table t as select * from (values (1, 1), (0, 1), (0, 0)) v(y, yhat)")
    with pytest.raises(ValueError, match=r"pos_label='x' is not one of the labels"):
        cio.evaluate_sql(con, "select y, yhat from t", pos_label="x")
    cm, _ = cio.evaluate_sql(con, "select y, yhat from t", pos_label=0)
    assert cm.counts.tolist() == [[1, 1], [0, 1]]


# ------------------------------------------------------------------ format of file bytes
FRAME = pd.DataFrame({"y": [1, 0, 1, 0], "yhat": [1, 1, 0, 0], "p": [0.9, 0.3, 0.7, 0.1]})
NAMES = {"csv": "CSV", "tsv": "TSV", "parquet": "Parquet", "jsonl": "JSON lines",
         "arrow": "Arrow IPC (Feather)", "npy": ".npy or .npz"}


def write_all(d: Path) -> dict[str, Path]:
    """One file per format, written by its own library (the oracle of its real format)."""
    import pyarrow as pa
    import pyarrow.feather as feather

    files = {f: d / f"data.{f}" for f in ("csv", "tsv", "parquet", "jsonl", "arrow", "npy")}
    FRAME.to_csv(files["csv"], index=False)
    FRAME.to_csv(files["tsv"], sep="\t", index=False)
    FRAME.to_parquet(files["parquet"])
    FRAME.to_json(files["jsonl"], orient="records", lines=True)
    feather.write_feather(pa.Table.from_pandas(FRAME), files["arrow"])
    np.save(files["npy"], FRAME.to_numpy())
    return files


# text read as text of another dialect is the CSV sniffer's (and the column check's) to name
TEXT = {"csv", "tsv"}


@pytest.mark.parametrize("fmt", list(NAMES))
def test_file_of_another_format_is_named(tmp_path: Path, fmt: str):
    files = write_all(tmp_path)
    for real, path in files.items():
        if real == fmt or (fmt in TEXT and real in TEXT | {"jsonl"}):
            check_signature("x", str(path), fmt)
            continue
        with pytest.raises(ValueError, match=rf"^file '{re.escape(str(path))}' is not an? "
                                             rf"{re.escape(NAMES[fmt])} file \(") as info:
            open_source(path, format=fmt)
        assert "name its real format" in str(info.value)


def test_parquet_format_on_a_csv_file_is_not_the_engine_message(tmp_path: Path):
    files = write_all(tmp_path)
    with pytest.raises(ValueError) as info:
        cio.evaluate_file(files["csv"], "y", "yhat", format="parquet")
    msg = str(info.value)
    assert "is not a Parquet file" in msg and "magic bytes" not in msg
    assert "it starts with b'y,yhat,p'" in msg


def test_empty_binary_file_is_named(tmp_path: Path):
    path = tmp_path / "e.parquet"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match=r"is empty \(0 bytes\), not a Parquet file"):
        open_source(path)



def test_build_report_refuses_a_pos_label_of_no_class_without_scores():
    """pos_label has no effect without scores, but a label the matrix does not hold is a
    typo to report, not to ignore (it was ignored)."""
    from confmat.report import build_report

    cm = ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0])
    with pytest.raises(ValueError, match=r"pos_label=7 is not one of the labels"):
        build_report(cm, pos_label=7, intervals=False)
    assert build_report(cm, pos_label=1, intervals=False).n == 4
