"""Prediction files through the command line and ``confmat.io``: the rows that messages name,
missing values in ``--by`` columns, and ``--pos-label`` texts in the type of the labels.

Expected row numbers and counts come from pandas reading the same file (the 1-based data row
of a row is its pandas index + 1: the header is not counted, as every message of
:mod:`confmat.io` counts); expected metrics from scikit-learn on the rows pandas keeps.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, precision_score, recall_score, roc_auc_score

pytest.importorskip("duckdb")

from confmat.cli import main
from confmat.io import evaluate_file

# --------------------------------------------------------------------- bad weight rows
PATHS = {  # how the command reads the file, by its options
    "stream": [],
    "score": ["--score", "p"],
    "by": ["--by", "sex"],
    "by+score": ["--by", "sex", "--score", "p"],
    "bins": ["--score", "p", "--bins", "10"],
}


def _frame(rng: np.random.Generator, n: int, holes: int, bad_at: int) -> pd.DataFrame:
    y = rng.integers(0, 2, n)
    df = pd.DataFrame({
        "y": pd.array(y, dtype="Int64"),
        "yhat": pd.array(rng.integers(0, 2, n), dtype="Int64"),
        "p": rng.random(n).round(3),
        "w": rng.integers(1, 4, n).astype(float),
        "sex": rng.choice(["f", "m"], n).astype(object),
    })
    for i in rng.choice(n, size=holes, replace=False):
        col = rng.choice(["y", "yhat", "p", "w", "sex"])
        df.loc[i, col] = None if col == "sex" else np.nan
    df.loc[bad_at, "w"] = -1.0
    # the bad weight's row keeps its other values (else it is skipped)
    fill = {"y": 1, "yhat": 1, "p": 0.5, "sex": "f"}
    for col, v in fill.items():
        if pd.isna(df.loc[bad_at, col]):
            df.loc[bad_at, col] = v
    return df


def _write(df: pd.DataFrame, path: Path) -> None:
    if path.suffix == ".csv":
        df.to_csv(path, index=False)
    else:
        df.to_parquet(path, index=False)


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path) if path.suffix == ".csv" else pd.read_parquet(path)


def _first_bad_weight_row(df: pd.DataFrame, cols: list[str]) -> int:
    """Pandas' 1-based data row of the first negative weight among the rows without a missing
    value in the columns the command reads."""
    kept = df[cols].notna().all(axis=1)
    bad = kept & (df["w"] < 0)
    return int(np.flatnonzero(bad.to_numpy())[0]) + 1


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(8, 60), fmt=st.sampled_from(["csv",
                                                                                  "parquet"]),
       how=st.sampled_from(sorted(PATHS)), data=st.data())
def test_bad_weight_named_by_its_data_row_on_every_path(tmp_path_factory, capsys, seed, n, fmt,
                                                        how, data):
    rng = np.random.default_rng(seed)
    holes = data.draw(st.integers(0, n // 2))
    bad_at = data.draw(st.integers(0, n - 1))
    df = _frame(rng, n, holes, bad_at)
    if "p" not in PATHS[how]:
        df["p"] = df["p"].fillna(0.5)  # the column is not read: its holes would not count
    path = tmp_path_factory.mktemp("w") / f"p.{fmt}"
    _write(df, path)
    back = _read(path)
    cols = ["y", "yhat", "w"] + (["p"] if "p" in PATHS[how] else []) + (
        ["sex"] if "sex" in PATHS[how] else [])
    row = _first_bad_weight_row(back, cols)
    code = main(["report", str(path), "--true", "y", "--pred", "yhat", "--weight", "w",
                 "--skip-invalid", "--no-intervals", *PATHS[how]])
    err = capsys.readouterr().err
    assert code == 2
    assert f"row {row}: column 'w' (the --weight column) holds -1.0" in err, (how, row, err)


def test_bad_weight_row_of_a_streamed_file_with_several_score_columns(tmp_path):
    df = pd.DataFrame({"y": [1, None, 0, 1, None, 0], "yhat": [1, 0, 0, 1, 1, 0],
                       "p0": [0.1, 0.2, 0.8, 0.3, 0.4, 0.9], "p1": [0.9, 0.8, 0.2, 0.7, 0.6, 0.1],
                       "w": [1.0, 1.0, 1.0, 1.0, 1.0, -2.0]})
    for suffix in (".csv", ".parquet"):
        path = tmp_path / f"m{suffix}"
        _write(df, path)
        row = _first_bad_weight_row(_read(path), ["y", "yhat", "p0", "p1", "w"])
        with pytest.raises(ValueError, match=rf"row {row}: column 'w' \(sample_weight\) holds "
                                             r"-2\.0"):
            evaluate_file(path, "y", "yhat", score_cols=["p0", "p1"], weight_col="w",
                          skip_invalid=True, batch_rows=2)


def test_non_numeric_score_named_by_its_data_row_after_skips(tmp_path, capsys):
    path = tmp_path / "s.csv"
    path.write_text("y,yhat,p\n,1,0.2\n,0,0.3\n1,1,0.9\n0,0,high\n")
    back = pd.read_csv(path)
    bad = [i + 1 for i, v in enumerate(back["p"]) if v == "high"]
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--skip-invalid"]) == 2
    assert f"value 'high' in data row {bad[0]}" in capsys.readouterr().err


# --------------------------------------------------------------- nulls in group columns
def _group_file(path: Path) -> pd.DataFrame:
    df = pd.DataFrame({
        "y": [1, 0, 1, None, 0, 1, 0, 1, 1, 0],
        "yhat": [1, 0, 0, 1, 0, 1, 1, 1, 0, 0],
        "p": [0.9, 0.1, 0.4, 0.8, 0.3, 0.7, 0.6, 0.8, 0.2, 0.1],
        "sex": ["f", None, "m", None, "f", "m", "f", None, "m", "f"],
        "age": ["a", "b", None, "a", "b", "a", None, "b", "a", "b"],
    })
    _write(df, path)
    return _read(path)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_null_groups_have_their_own_reason_per_column(tmp_path, suffix):
    back = _group_file(tmp_path / f"g{suffix}")
    path = tmp_path / f"g{suffix}"
    first = int(np.flatnonzero(back[["y", "yhat", "sex", "age"]].isna().any(axis=1))[0]) + 1
    with pytest.raises(ValueError, match=rf"row {first}: "):
        evaluate_file(path, "y", "yhat", group_cols=["sex", "age"])
    # precedence: a null label first, then the group columns in their order
    null_y = back["y"].isna()
    null_sex = back["sex"].isna() & ~null_y
    null_age = back["age"].isna() & ~null_y & ~null_sex
    ev, rep = evaluate_file(path, "y", "yhat", group_cols=["sex", "age"], skip_invalid=True)
    assert rep.skipped_by_reason == {"null true label": int(null_y.sum()),
                                     "null in group column 'sex'": int(null_sex.sum()),
                                     "null in group column 'age'": int(null_age.sum())}
    missing = back[["y", "yhat", "sex", "age"]].isna().any(axis=1)
    assert rep.skipped_row_numbers == (np.flatnonzero(missing) + 1).tolist()
    kept = back[~missing]
    assert rep.rows_read == len(kept)
    sizes = kept.groupby(["sex", "age"]).size()
    assert ev.sizes.tolist() == sizes.tolist()
    # the overall table leaves the rows out too (not its own group, not the whole only)
    np.testing.assert_array_equal(ev.overall.counts,
                                  confusion_matrix(kept["y"].astype(int), kept["yhat"]))


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("score", [[], ["--score", "p"]])
def test_cli_null_group_named_in_the_error_and_the_note(tmp_path, capsys, suffix, score):
    path = tmp_path / f"g{suffix}"
    back = _group_file(path)
    cols = ["y", "yhat", "sex"] + (["p"] if score else [])
    first = int(np.flatnonzero(back["sex"].isna() & back[["y", "yhat"]].notna().all(axis=1))[0])
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex",
                 "--pos-label", "1", *score]) == 2
    err = capsys.readouterr().err
    # the first missing value of the file is a null in 'sex' (row 2), before the null label
    assert f"row {first + 1}: null in group column 'sex'" in err and "--skip-invalid" in err
    assert "null true label" not in err
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex",
                 "--pos-label", "1", "--skip-invalid", "-f", "json", "--no-intervals",
                 *score]) == 0
    out = json.loads(capsys.readouterr().out)
    null_y = back["y"].isna()
    null_sex = back["sex"].isna() & ~null_y
    note = next(n for n in out["notes"] if "--skip-invalid" in n)
    assert f"{int(null_y.sum())} null true label" in note
    assert f"{int(null_sex.sum())} null in group column 'sex'" in note
    kept = back[back[cols].notna().all(axis=1)]
    assert out["rows_read"] == len(kept)
    assert [r["size"] for r in out["rows"]] == kept.groupby("sex").size().tolist()


# ------------------------------------------------------------------- --pos-label texts
@pytest.fixture
def int_file(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    s = np.clip(0.4 * y + 0.6 * rng.random(60), 0, 1).round(3)
    p = (s > 0.5).astype(int)
    path = tmp_path / "i.csv"
    pd.DataFrame({"y": y, "yhat": p, "s": s, "sex": rng.choice(["f", "m"], 60)}).to_csv(
        path, index=False)
    return path


@pytest.mark.parametrize("text,pos", [("1.0", 1), ("1", 1), ("0.0", 0), ("1e0", 1),
                                      ("0.000", 0)])
def test_pos_label_text_denoting_an_integer_label(int_file, capsys, text, pos):
    back = pd.read_csv(int_file)
    assert main(["report", str(int_file), "--true", "y", "--pred", "yhat", "--score", "s",
                 "--pos-label", text, "-f", "json", "--no-intervals"]) == 0
    out = json.loads(capsys.readouterr().out)
    (curve,) = out["curves"]
    assert curve["pos_label"] == pos
    # scikit-learn takes pos_label=1.0 for integer labels (numpy equality)
    assert curve["auc"] == pytest.approx(roc_auc_score(back["y"] == pos, back["s"]), abs=1e-12)
    prec = precision_score(back["y"], back["yhat"], pos_label=float(text))
    per_class = {r["name"]: r for r in out["per_class"]}
    assert per_class["precision"]["values"][out["labels"].index(pos)] == pytest.approx(prec)


@pytest.mark.parametrize("extra", [[], ["--score", "s"], ["--by", "sex"],
                                   ["--by", "sex", "--score", "s"]])
def test_pos_label_that_denotes_no_label_is_refused_as_by_sklearn(int_file, capsys, extra):
    back = pd.read_csv(int_file)
    with pytest.raises(ValueError, match="not a valid label"):
        precision_score(back["y"], back["yhat"], pos_label=1.5)
    assert main(["report", str(int_file), "--true", "y", "--pred", "yhat", "--pos-label",
                 "1.5", *extra]) == 2
    err = capsys.readouterr().err
    assert "--pos-label '1.5'" in err and "[0, 1]" in err, err


def test_pos_label_on_the_by_group_path_reads_as_the_integer(int_file, capsys):
    args = ["report", str(int_file), "--true", "y", "--pred", "yhat", "--by", "sex", "-f",
            "json", "--no-intervals"]
    assert main([*args, "--pos-label", "1.0"]) == 0
    with_float = json.loads(capsys.readouterr().out)
    back = pd.read_csv(int_file)
    for r in with_float["rows"]:
        m = back["sex"] == r["group"]
        assert r["recall"] == pytest.approx(
            recall_score(back["y"][m], back["yhat"][m], pos_label=1.0))


def test_pos_label_on_booleans_takes_numbers_equal_to_true_and_false(tmp_path, capsys):
    path = tmp_path / "b.csv"
    y = [True, False, True, True, False, False]
    s = [0.9, 0.2, 0.7, 0.4, 0.6, 0.1]
    pd.DataFrame({"y": y, "yhat": [v > 0.5 for v in s], "s": s}).to_csv(path, index=False)
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "s",
                 "--pos-label", "0.0", "-f", "json", "--no-intervals"]) == 0
    (curve,) = json.loads(capsys.readouterr().out)["curves"]
    assert curve["pos_label"] is False
    assert curve["auc"] == pytest.approx(roc_auc_score(~np.array(y), s))
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "s",
                 "--pos-label", "2"]) == 2
    assert "--pos-label '2'" in capsys.readouterr().err


def test_bad_input_exits_2_without_traceback_through_the_entry_point(tmp_path):
    path = tmp_path / "g.csv"
    _group_file(path)
    res = subprocess.run([sys.executable, "-m", "confmat", "report", str(path), "--true", "y",
                          "--pred", "yhat", "--by", "sex", "--score", "p"],
                         capture_output=True, text=True, timeout=240)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert re.search(r"row \d+: null in group column 'sex'", res.stderr), res.stderr


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("command", ["report", "compare"])
def test_infinite_score_named_by_its_data_row_after_skips(tmp_path, capsys, suffix, command):
    df = pd.DataFrame({"y": [None, None, 1, 0, 0, 1], "yhat": [1, 0, 1, 0, 0, 1],
                       "p": [0.2, 0.3, 0.9, np.inf, 0.1, 0.8]})
    path = tmp_path / f"s{suffix}"
    _write(df, path)
    back = _read(path)
    kept = back[["y", "yhat", "p"]].notna().all(axis=1)
    row = int(np.flatnonzero(kept & np.isinf(back["p"]))[0]) + 1
    preds = ["--pred", "yhat", "--score", "p"] if command == "report" else \
        ["--pred", "yhat,yhat", "--score", "p,p"]
    assert main([command, str(path), "--true", "y", *preds, "--skip-invalid"]) == 2
    err = capsys.readouterr().err
    assert f"row {row}: column 'p' holds the score inf" in err, err


def test_stray_prediction_named_by_its_data_row_after_skips(tmp_path, capsys):
    path = tmp_path / "p.csv"
    path.write_text("y,yhat,p\n,1,0.2\n,0,0.3\n1,1,0.9\n0,2,0.4\n0,0,0.1\n")
    back = pd.read_csv(path)
    row = int(np.flatnonzero(back["yhat"].to_numpy() == 2)[0]) + 1
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--skip-invalid"]) == 2
    assert f"holds label 2 (first in data row {row})" in capsys.readouterr().err
