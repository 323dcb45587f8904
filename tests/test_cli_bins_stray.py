"""``report --score`` read whole and ``report --score --bins`` (counted by DuckDB) accept and
refuse the same files: one rule for the class of the one score column and for the predicted
labels beside it, whatever the number of labels (before, with two labels the --bins path read
a truth of 0 beside predictions of 2 as the scores of 2, and never checked the predictions).

Oracles, none of them confmat: which positive class the column has, written from the rule as
docs/cli.md states it (labels within {0, 1} imply 1, other labels need --pos-label, which must
be a class of the --true column); which predictions are stray, tests/stray_rule.py (written from
the documented rule); the matrix, scikit-learn's ``confusion_matrix`` on pandas' read of the
CSV; the data row of the first stray label, counted here on that read.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

from confmat.cli.app import main
from stray_rule import positive_class, scored_classes

UNIVERSES = (["0", "1", "2"], ["a", "b", "c"])


@st.composite
def prediction_files(draw: Any) -> tuple[list[tuple[str, str, str]], str | None]:
    values = draw(st.sampled_from(UNIVERSES))
    truth = draw(st.lists(st.sampled_from(values), min_size=1, max_size=3, unique=True))
    preds = draw(st.lists(st.sampled_from(values), min_size=1, max_size=3, unique=True))
    n = draw(st.integers(1, 7))
    rows = [(draw(st.sampled_from(truth)), draw(st.sampled_from(preds)),
             f"{draw(st.integers(0, 20)) / 20:.2f}") for _ in range(n)]
    pos = draw(st.none() | st.sampled_from(values))
    return rows, pos


def _run(capsys: Any, args: list[str]) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=prediction_files())
def test_whole_and_binned_paths_accept_and_refuse_the_same_files(case, capsys):
    rows, pos_text = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.csv"
        path.write_text("y,yhat,p\n" + "".join(",".join(r) + "\n" for r in rows))
        df = pd.read_csv(path)
        y, p = df["y"].tolist(), df["yhat"].tolist()
        numbers = df["y"].dtype.kind == "i"
        pos = None if pos_text is None else (int(pos_text) if numbers else pos_text)
        args = ["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p",
                "--no-intervals", "-f", "json"]
        if pos_text is not None:
            args += ["--pos-label", pos_text]
        whole = _run(capsys, args)
        binned = _run(capsys, [*args, "--bins", "20"])

    resolved, cls = positive_class(set(y), pos)
    if not resolved:
        assert whole[0] == 2 and binned[0] == 2, (whole, binned)
        assert "pos_label" in whole[2].replace("--pos-label", "pos_label")
        assert "pos_label" in binned[2].replace("--pos-label", "pos_label")
        return
    scored = scored_classes(y, p, cls)
    stray = [i for i, v in enumerate(p) if v not in scored]
    if stray:
        first = stray[0]
        said = f"holds label {p[first]!r} (first in data row {first + 1}), which is not one of "
        for code, _, err in (whole, binned):
            assert code == 2, (whole, binned)
            assert "Traceback" not in err and err.count("\n") == 1
            assert said in err and f"{sorted(set(y))}" in err, err
        return
    labels = sorted(set(y) | set(p))
    expected = confusion_matrix(y, p, labels=labels).tolist()
    for code, out, err in (whole, binned):
        assert code == 0, err
        d = json.loads(out)
        assert d["labels"] == labels
        assert d["counts"] == expected
        assert d["curves"][0]["pos_label"] == cls


def test_a_truth_of_zero_beside_predictions_of_two_is_refused_on_both_paths(tmp_path, capsys):
    """The case of the report: the --bins path read the column as the scores of 2."""
    f = tmp_path / "two.csv"
    f.write_text("y,yhat,p\n0,0,0.1\n0,2,0.8\n")
    args = ["report", str(f), "--true", "y", "--pred", "yhat", "--score", "p", "--no-intervals"]
    for extra in ([], ["--bins", "10"]):
        code, _, err = _run(capsys, args + extra)
        assert code == 2
        assert "holds label 2 (first in data row 2)" in err
        assert "nor the positive class 1" in err


@pytest.mark.parametrize("extra", [[], ["--bins", "10"]])
def test_a_truth_of_the_positive_class_beside_one_other_label(tmp_path, capsys, extra):
    """Every sample positive (1): the one other predicted label (2) names the negative class,
    on both paths (before, --bins refused: the histogram scored 2 by its sorted place)."""
    f = tmp_path / "pos.csv"
    f.write_text("y,yhat,p\n1,1,0.9\n1,2,0.2\n1,1,0.7\n")
    code, out, err = _run(capsys, ["report", str(f), "--true", "y", "--pred", "yhat", "--score",
                                   "p", "--no-intervals", "-f", "json", *extra])
    assert code == 0, err
    d = json.loads(out)
    assert d["counts"] == confusion_matrix([1, 1, 1], [1, 2, 1], labels=[1, 2]).tolist()
    assert d["curves"][0]["pos_label"] == 1
