"""Predicted labels beside scores on the command line: one rule on every path that reads both
(:func:`confmat.inputs.decisions.check_scored_predictions`), and one score column among three
or more classes read as one class against the rest on every path.

A predicted label that is neither a class of the --true column nor the positive class of the
score column is refused by ``report --score``, ``report --by ... --score`` and
``compare --score`` alike: one line naming the file, the --pred column, the label and its data
row (the wording of ``report --bins``), exit status 2, no traceback. The legitimate cases pass.

Oracles: the files written here (the stray label and its data row placed by hand, a row
skipped by --skip-invalid so that the data row differs from the position), scikit-learn's
``confusion_matrix`` and ``roc_auc_score`` (one class against the rest: ``y == pos``)
computed in the tests.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, confusion_matrix, roc_auc_score

from confmat.cli.app import main

# y, yhat, other model, score, other score, group; data row 3 has no score (skipped)
ROWS = [("ham", "ham", "ham", "0.1", "0.2", "f"), ("spam", "spam", "spam", "0.9", "0.8", "m"),
        ("ham", "ham", "ham", "", "0.3", "f"), ("spam", "spam", "spam", "0.8", "0.7", "m"),
        ("ham", "spam", "ham", "0.6", "0.1", "f"), ("spam", "spam", "eggs", "0.7", "0.9", "m"),
        ("ham", "ham", "ham", "0.3", "0.4", "f"), ("spam", "ham", "spam", "0.4", "0.6", "m"),
        ("ham", "ham", "eggs", "0.2", "0.5", "m"), ("spam", "spam", "spam", "0.9", "0.8", "f")]
STRAY_ROW = 6  # first 'eggs' of column b, 1-based data row


def _write(path: Path, header: str, rows: list[tuple[str, ...]]) -> Path:
    path.write_text(header + "\n" + "".join(",".join(r) + "\n" for r in rows))
    return path


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _refused(code: int, err: str, column: str, row: int, file: Path | None = None) -> None:
    assert code == 2
    assert "Traceback" not in err and err.count("\n") == 1
    # the wording of report --bins too: the file as its reader names it, then the column
    assert err.startswith("confmat: error: file " if file is None
                          else f"confmat: error: file {str(file)!r}: ")
    assert f": column {column!r} holds label" in err
    assert f"holds label 'eggs' (first in data row {row})" in err
    assert "['ham', 'spam']" in err


@pytest.fixture
def two_models(tmp_path: Path) -> Path:
    return _write(tmp_path / "m.csv", "y,a,b,pa,pb,sex", ROWS)


def test_report_score_refuses_the_stray_label(two_models, capsys):
    code, _, err = _run(capsys, "report", str(two_models), "--true", "y", "--pred", "b",
                        "--score", "pb", "--pos-label", "spam", "--no-intervals")
    _refused(code, err, "b", STRAY_ROW)


def test_report_by_group_with_a_score_refuses_the_stray_label(two_models, capsys):
    """Before: a table by group of three classes ('eggs' among them) beside the binary
    scores of 'spam', exit status 0."""
    code, _, err = _run(capsys, "report", str(two_models), "--true", "y", "--pred", "b",
                        "--score", "pb", "--by", "sex", "--pos-label", "spam",
                        "--no-intervals", "-f", "json")
    _refused(code, err, "b", STRAY_ROW)
    # after a skipped row the data row is named, not the position
    code, _, err = _run(capsys, "report", str(two_models), "--true", "y", "--pred", "b",
                        "--score", "pa", "--by", "sex", "--pos-label", "spam",
                        "--skip-invalid", "--no-intervals", "-f", "json")
    _refused(code, err, "b", STRAY_ROW)


def test_report_by_group_with_a_score_keeps_the_legitimate_file(two_models, capsys):
    code, out, err = _run(capsys, "report", str(two_models), "--true", "y", "--pred", "a",
                          "--score", "pa", "--by", "sex", "--pos-label", "spam",
                          "--skip-invalid", "--group-metrics", "roc_auc", "--no-intervals",
                          "-f", "json")
    assert code == 0, err
    kept = [r for r in ROWS if r[3]]
    y = np.array([r[0] for r in kept])
    s = np.array([float(r[3]) for r in kept])
    sex = np.array([r[5] for r in kept])
    rows = json.loads(out)["rows"]
    for r in rows:
        m = sex == r["group"]
        assert r["roc_auc"] == pytest.approx(roc_auc_score(y[m] == "spam", s[m]))


def test_compare_score_one_file_refuses_the_stray_label(two_models, capsys):
    """Before: model b was a three-class table beside binary scores, exit status 0."""
    code, _, err = _run(capsys, "compare", str(two_models), "--true", "y", "--pred", "a,b",
                        "--score", "pa,pb", "--pos-label", "spam", "--skip-invalid",
                        "--no-intervals", "-f", "json")
    _refused(code, err, "b", STRAY_ROW)


def test_compare_score_several_files_names_the_file(tmp_path, capsys):
    one = _write(tmp_path / "one.csv", "y,yhat,p", [(r[0], r[1], r[4]) for r in ROWS])
    two = _write(tmp_path / "two.csv", "y,yhat,p", [(r[0], r[2], r[4]) for r in ROWS])
    code, _, err = _run(capsys, "compare", str(one), str(two), "--true", "y", "--pred", "yhat",
                        "--score", "p", "--pos-label", "spam", "--no-intervals", "-f", "json")
    _refused(code, err, "yhat", STRAY_ROW, file=two)
    # the same models without scores: a three-class comparison, as scikit-learn counts it
    code, out, _ = _run(capsys, "compare", str(one), str(two), "--true", "y", "--pred", "yhat",
                        "--no-intervals", "--metrics", "accuracy", "-f", "json")
    assert code == 0
    table = {r["model"]: r for r in json.loads(out)["table"]}
    y = np.array([r[0] for r in ROWS])
    b = np.array([r[2] for r in ROWS])
    cm = confusion_matrix(y, b, labels=["eggs", "ham", "spam"])
    assert table["two"]["accuracy"] == pytest.approx(np.trace(cm) / cm.sum())


def test_report_score_keeps_the_positive_class_beside_a_truth_of_one_class(tmp_path, capsys):
    """A truth of 0 only, beside the scores of the class 1 that the default rule implies: a
    predicted 1 has its score column (as ``build_report`` accepts it). Before: refused as a
    label outside the classes [0] of the --true column."""
    f = _write(tmp_path / "one.csv", "y,yhat,p",
               [("0", "0", "0.1"), ("0", "1", "0.8"), ("0", "0", "0.3"), ("0", "1", "0.6")])
    code, out, err = _run(capsys, "report", str(f), "--true", "y", "--pred", "yhat", "--score",
                          "p", "--no-intervals", "-f", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["labels"] == [0, 1]
    assert d["counts"] == confusion_matrix([0, 0, 0, 0], [0, 1, 0, 1], labels=[0, 1]).tolist()
    # a 2 is still no class of the scores
    g = _write(tmp_path / "two.csv", "y,yhat,p", [("0", "0", "0.1"), ("0", "2", "0.8")])
    code, _, err = _run(capsys, "report", str(g), "--true", "y", "--pred", "yhat", "--score",
                        "p", "--no-intervals")
    assert code == 2 and "holds label 2 (first in data row 2)" in err
    assert "nor the positive class 1" in err


# ----------------------------------------------- one score column among three or more classes
@pytest.fixture
def three_classes(tmp_path: Path) -> tuple[Path, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    n = 90
    y = rng.choice(["a", "b", "c"], n)
    p = rng.choice(["a", "b", "c"], n)
    s = np.round(np.clip(0.25 * (y == "c") + rng.random(n) * 0.75, 0, 1), 3)
    _write(tmp_path / "m3.csv", "y,yhat,p",
           [(a, b, f"{v:.3f}") for a, b, v in zip(y, p, s, strict=True)])
    return tmp_path / "m3.csv", y, s


def test_one_score_column_with_a_positive_class_among_three_is_one_vs_rest(three_classes,
                                                                          capsys):
    f, y, s = three_classes
    code, out, err = _run(capsys, "report", str(f), "--true", "y", "--pred", "yhat", "--score",
                          "p", "--pos-label", "c", "--no-intervals", "-f", "json")
    assert code == 0, err
    curve = json.loads(out)["curves"][0]
    assert curve["pos_label"] == "c"
    assert curve["auc"] == pytest.approx(roc_auc_score(y == "c", s))


def test_binned_one_score_column_with_a_positive_class_among_three_is_one_vs_rest(
        three_classes, capsys):
    f, y, s = three_classes
    code, out, err = _run(capsys, "report", str(f), "--true", "y", "--pred", "yhat", "--score",
                          "p", "--pos-label", "c", "--bins", "1000", "--no-intervals",
                          "-f", "json")
    assert code == 0, err
    curve = json.loads(out)["curves"][0]
    assert curve["pos_label"] == "c"
    # scores on a 0.001 grid, 1000 bins over [0, 1]: every bin holds one distinct score
    assert curve["auc"] == pytest.approx(roc_auc_score(y == "c", s), abs=1e-3)


def test_binned_and_whole_paths_agree_without_a_positive_class(three_classes, capsys):
    """Without --pos-label one score column among three classes names no class: both paths
    refuse it, each naming the problem."""
    f, _, _ = three_classes
    code, _, whole = _run(capsys, "report", str(f), "--true", "y", "--pred", "yhat", "--score",
                          "p", "--no-intervals")
    assert code == 2 and "pos_label" in whole.replace("--pos-label", "pos_label")
    code, _, binned = _run(capsys, "report", str(f), "--true", "y", "--pred", "yhat", "--score",
                           "p", "--bins", "100", "--no-intervals")
    assert code == 2 and "one score column" in binned


def test_report_by_group_with_a_score_beside_a_truth_of_one_class(tmp_path, capsys):
    """A truth of 0 only, predictions 0 / 1 and one score column, by group: the implied
    positive class 1 is the class of the scores, as in ``report --score`` without --by.
    Before: refused ("--pos-label 1 is not one of the labels of the --true column [0]",
    although no --pos-label was given). Every group's table is scikit-learn's; a group whose
    truth is one class has no ROC AUC (null, '-' in text), where scikit-learn's
    roc_auc_score is undefined too; average precision without positives is 0, as
    scikit-learn's."""
    from sklearn.exceptions import UndefinedMetricWarning
    from sklearn.metrics import average_precision_score

    rows = [("0", "0", "0.1", "a"), ("0", "1", "0.8", "a"), ("0", "0", "0.3", "b"),
            ("0", "1", "0.6", "b"), ("0", "0", "0.2", "b")]
    f = _write(tmp_path / "one.csv", "y,yhat,p,g", rows)
    y = np.array([int(r[0]) for r in rows])
    p = np.array([int(r[1]) for r in rows])
    s = np.array([float(r[2]) for r in rows])
    g = np.array([r[3] for r in rows])
    args = ["report", str(f), "--true", "y", "--pred", "yhat", "--score", "p", "--by", "g",
            "--group-metrics", "accuracy,fpr,roc_auc,average_precision", "--no-intervals"]
    code, out, err = _run(capsys, *args, "-f", "json")
    assert code == 0, err
    got = {r["group"]: r for r in json.loads(out)["rows"]}
    assert sorted(got) == ["a", "b"]
    for key, r in got.items():
        m = g == key
        cm = confusion_matrix(y[m], p[m], labels=[0, 1])
        assert r["accuracy"] == pytest.approx(np.trace(cm) / cm.sum())
        assert r["fpr"] == pytest.approx(cm[0, 1] / cm[0].sum())
        with pytest.warns(UndefinedMetricWarning):
            assert np.isnan(roc_auc_score(y[m], s[m]))
        assert r["roc_auc"] is None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # no positive sample
            assert r["average_precision"] == pytest.approx(average_precision_score(y[m], s[m]))
    code, out, err = _run(capsys, *args)
    assert code == 0, err
    head = next(line.split() for line in out.splitlines() if line.startswith("g "))
    assert [line.split()[head.index("roc_auc")] for line in out.splitlines()
            if line.startswith(("a ", "b "))] == ["-", "-"]
    # a 2 is still no class of the scores, named by its data row
    g2 = _write(tmp_path / "two.csv", "y,yhat,p,g", [*rows[:3], ("0", "2", "0.6", "b")])
    code, _, err = _run(capsys, "report", str(g2), "--true", "y", "--pred", "yhat", "--score",
                        "p", "--by", "g", "--no-intervals")
    assert code == 2 and "Traceback" not in err
    assert "holds label 2 (first in data row 4)" in err and "nor the positive class 1" in err


def test_compare_score_on_a_truth_of_one_class(tmp_path, capsys):
    """Every model has a score column but the truth holds one class: the implied positive
    class (1) checks the predictions, the areas are not compared (scikit-learn leaves the ROC
    AUC undefined there), the accuracies are scikit-learn's. Before: 'while evaluating model
    'a': --pos-label 1 is not one of the labels', though no --pos-label was given."""
    rows = [("0", "0", "1", ".1", ".7"), ("0", "0", "0", ".2", ".1"),
            ("0", "1", "0", ".6", ".3"), ("0", "0", "0", ".3", ".2")]
    path = _write(tmp_path / "one.csv", "y,a,b,pa,pb", rows)
    code, out, err = _run(capsys, "compare", str(path), "--true", "y", "--pred", "a,b",
                          "--score", "pa,pb", "--no-intervals", "-f", "json")
    assert code == 0, err
    y = np.array([int(r[0]) for r in rows])
    doc = json.loads(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(roc_auc_score(y, [float(r[3]) for r in rows]))
    for row in doc["table"]:
        pred = np.array([int(r[1 if row["model"] == "a" else 2]) for r in rows])
        assert row["accuracy"] == pytest.approx(accuracy_score(y, pred))
        assert "roc_auc" not in row
    assert any(n.startswith("ROC AUC and average precision are not compared") for n in
               doc["notes"])
    # a predicted label that is neither 0 nor the implied positive class 1 is still refused
    bad = _write(tmp_path / "bad.csv", "y,a,b,pa,pb", [*rows[:3], ("0", "2", "0", ".3", ".2")])
    code, _, err = _run(capsys, "compare", str(bad), "--true", "y", "--pred", "a,b",
                        "--score", "pa,pb", "--no-intervals", "-f", "json")
    assert code == 2 and "holds label 2" in err and "Traceback" not in err
