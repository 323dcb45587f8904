"""``confmat report FILE --by col[,col]``: the table by group (sizes, small groups flagged),
the disparities, JSON output, and bad input as a message with exit status 2. Expected values
are worked from scikit-learn and fairlearn on the same rows."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sklearn.metrics as skm

pytest.importorskip("duckdb")
fairlearn_metrics = pytest.importorskip("fairlearn.metrics")

from confmat.cli import main  # noqa: E402

ROWS = [(1, 1, "f", 30), (0, 1, "m", 30), (1, 0, "f", 40), (1, 1, "m", 40), (0, 0, "f", 30),
        (1, 1, "f", 30), (0, 0, "m", 30)]


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "g.csv"
    p.write_text("y,yhat,sex,age\n" + "".join(f"{a},{b},{c},{d}\n" for a, b, c, d in ROWS))
    return p


def test_json_table_and_disparities(path, capsys):
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex",
                 "--pos-label", "1", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    y = np.array([r[0] for r in ROWS])
    p = np.array([r[1] for r in ROWS])
    sex = np.array([r[2] for r in ROWS])
    assert [r["group"] for r in out["rows"]] == ["f", "m"]
    assert [r["size"] for r in out["rows"]] == [4, 3]
    assert all(r["small"] for r in out["rows"])
    for r in out["rows"]:
        m = sex == r["group"]
        assert r["recall"] == pytest.approx(skm.recall_score(y[m], p[m]), abs=1e-12)
        assert r["accuracy"] == pytest.approx(skm.accuracy_score(y[m], p[m]), abs=1e-12)
    disp = {d["name"]: d["value"] for d in out["disparities"]}
    assert disp["demographic_parity_difference"] == pytest.approx(
        fairlearn_metrics.demographic_parity_difference(y, p, sensitive_features=sex),
        abs=1e-12)
    assert disp["equalized_odds_difference"] == pytest.approx(
        fairlearn_metrics.equalized_odds_difference(y, p, sensitive_features=sex), abs=1e-12)
    assert out["rows_read"] == len(ROWS)


def test_text_two_columns(path, capsys):
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "sex,age"]) == 0
    text = capsys.readouterr().out
    assert "By group (sex x age): 4 groups" in text
    assert "f / 30" in text and "3*" in text  # size shown, small flagged
    assert "demographic_parity_difference" in text


@pytest.mark.parametrize("args, message", [
    (["--by", "nope"], "no column 'nope'"),
    (["--by", "sex", "--score", "y"], "--by evaluates labels by group"),
    (["--by", "sex", "--pos-label", "7"], "--pos-label"),
])
def test_bad_input_exit_2(path, capsys, args, message):
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
