"""Probe of the report's printed numbers: the rounding rule of every format and the mark of an
accuracy-matrix row that divides by zero.

Oracles: ``decimal.Decimal`` of the exact binary value rounded half to even (the rule the
formats follow, written here without Python's float formatting), scikit-learn's
``confusion_matrix`` and ``precision_score`` for the values, and the JSON of the same run for
which row is empty.
"""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from sklearn.metrics import confusion_matrix, precision_score

from confmat.cli.app import cli


def run(*args: str) -> str:
    res = CliRunner(env={"COLUMNS": "300", "NO_COLOR": "1"}).invoke(cli, list(args),
                                                                     catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


def half_even(v: float, places: int) -> str:
    """The exact binary value of ``v`` rounded half to even to ``places`` decimals."""
    return str(Decimal(v).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


def test_ties_round_half_to_even_in_every_format(tmp_path: Path) -> None:
    """1/32 = 0.03125 and 9/32 = 0.28125 are exact binary ties at 4 decimals, 6.25% and 93.75%
    at 1: every format writes them half to even ('0.0312', '0.2812', '6.2', '93.8'), never
    half up ('0.0313', '0.2813', '6.3'), and the JSON and CSV hold the exact values."""
    # class 1: 1 of 32 predicted is right (precision 1/32); class 0: 1 of 16 true is found
    # (recall 1/16 = 6.25%); class 2: precision 9/32
    table = np.array([[1, 15, 0], [0, 1, 0], [0, 16, 9]])
    table[2, 2], table[1, 2] = 9, 23  # column 2: 9 right of 32 predicted
    y = np.repeat(np.arange(3), table.sum(axis=1))
    p = np.concatenate([np.repeat(np.arange(3), row) for row in table])
    prec = precision_score(y, p, average=None, zero_division=0)
    assert prec[1] == 1 / 32 and prec[2] == 9 / 32  # the ties the test is about
    assert half_even(1 / 32, 4) == "0.0312" and half_even(9 / 32, 4) == "0.2812"
    assert str(Decimal(1 / 32).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)) == "0.0313"
    args = ["matrix", json.dumps(table.tolist()), "--no-intervals"]
    rep = json.loads(run(*args, "-f", "json"))
    got = next(r for r in rep["per_class"] if r["name"] == "precision")["values"]
    assert got[1] == 1 / 32 and got[2] == 9 / 32
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv"))))
    assert {float(r["value"]) for r in rows
            if r["metric"] == "precision" and r["class"] in ("1", "2")} == {1 / 32, 9 / 32}
    pct = [half_even(100 * v / table[0].sum(), 1) for v in table[0]]
    assert pct[:2] == ["6.2", "93.8"]
    for text in (run(*args, "--all"), run(*args, "-f", "markdown")):
        line = next(ln for ln in text.splitlines()
                    if re.match(r"^\|? *precision[ |]", ln.strip()))
        assert " 0.0312" in line and " 0.2812" in line and "0.0313" not in line, line
        acc = text[text.index("Accuracy matrix"):]
        assert re.search(r"6\.2\b", acc) and "93.8" in acc and "6.3" not in acc
    page = run(*args, "-f", "html")
    row = re.search(r"<tr><td class='name'>precision</td>(.*?)</tr>", page, re.S)
    if row is None:  # per-class table by class: look for the precision column instead
        row = re.search(r"precision.*?</tr>", page, re.S)
    assert row is not None and "0.0312" in row.group(0) and "0.0313" not in row.group(0)
    heat = page[page.index('<table class="heat">'):]
    assert "6.2%" in heat[:heat.index("</tr>", heat.index("<tbody>"))]


def test_slider_writes_ties_as_the_tables(tmp_path: Path) -> None:
    """The slider's opening precision 1/32 is written '0.0312' as in the tables (the page's
    script formats nothing; JavaScript's toFixed would write 0.0313)."""
    y = np.array([1] + [0] * 31 + [0] * 20 + [1] * 5)
    s = np.array([0.9] + [0.8] * 31 + [0.1] * 20 + [0.05] * 5)
    p = (s >= 0.5).astype(int)
    assert precision_score(y, p) == 1 / 32
    path = tmp_path / "tie.csv"
    pd.DataFrame({"y": y, "yhat": p, "s": s}).to_csv(path, index=False)
    page = run("report", str(path), "--true", "y", "--pred", "yhat", "--score", "s",
               "--no-intervals", "-f", "html")
    data = json.loads(re.search(r'id="confmat-data">(.*?)</script>', page, re.S).group(1))
    w = data["widgets"]["r0"][0]
    assert w["metrics"]["precision"][w["start"]] == half_even(1 / 32, 4) == "0.0312"
    assert [w[k][w["start"]] for k in ("tp", "fn", "fp", "tn")] == [
        str(v) for v in confusion_matrix(y, p, labels=[1, 0]).ravel()]


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "json"])
def test_accuracy_matrix_row_of_a_class_absent_from_the_truth_is_marked(tmp_path: Path,
                                                                      fmt: str) -> None:
    """A class only in the predictions has no true sample: its row of the accuracy matrix is
    0 / 0, the zero-division rule's 0.0, marked † as its recall is in the per-class table
    (docs/report.md, "Undefined values: one rule, one mark"); the JSON lists the row."""
    y = np.array([0, 0, 0, 1, 1, 1])
    p = np.array([0, 1, 2, 1, 0, 1])
    cm = confusion_matrix(y, p, labels=[0, 1, 2])
    empty = [i for i in range(3) if cm[i].sum() == 0]
    assert empty == [2]
    path = tmp_path / "abs.csv"
    pd.DataFrame({"y": y, "yhat": p}).to_csv(path, index=False)
    out = run("report", str(path), "--true", "y", "--pred", "yhat", "--no-intervals",
              *(["--all"] if fmt == "text" else ["-f", fmt]))
    if fmt == "json":
        rep = json.loads(out)
        assert rep["row_percentages_undefined"] == empty
        assert rep["row_percentages"][2] == [0.0, 0.0, 0.0]
        recall = next(r for r in rep["per_class"] if r["name"] == "recall")
        assert recall["undefined"] == empty
        return
    if fmt == "html":
        heat = out[out.index('<table class="heat">'):]
        heat = heat[:heat.index("</table>")]
        rows = re.findall(r"<tr><th scope=\"row\">(\d)</th>(.*?)</tr>", heat)
        for label, cells in rows:
            marks = cells.count('<span class="zd">†</span>')
            assert marks == (3 if int(label) in empty else 0), (label, cells)
            tips = re.findall(r'title="([^"]*)"', cells)
            assert all(("%†" in t) == (int(label) in empty) for t in tips)
        return
    acc = out[out.index("Accuracy matrix"):]
    for i in range(3):
        line = next(ln for ln in acc.splitlines() if re.match(rf"^\|? *{i} ", ln.strip() + " "))
        assert line.count("0.0†") == (3 if i in empty else 0), line


def test_slider_opening_prints_the_tables_digits_for_weights_at_a_tie(tmp_path: Path) -> None:
    """Weights whose specificity is within 1e-12 of 0.59125, a decimal tie: the float nearest
    the exact ratio is printed '0.5913' (its binary value lies above the tie). The per-class table
    and the slider's opening stop (the model's own predictions) must both print that; the
    slider's cumulative sums, added in another order, gave 0.5912499... and '0.5912'.
    Oracle: ``fractions.Fraction`` sums of the weights (as read, float64), rounded once."""
    from fractions import Fraction

    rng = np.random.default_rng(187)
    book = np.array([4, 9])
    n = 23
    y = rng.choice(book, n)
    y[:2] = book
    s = np.round(np.clip(rng.random(n) * 0.7 + 0.3 * (y == 9), 0, 1), 3)
    p = np.where(s >= 0.375, 9, 4)
    w = np.round(rng.random(n) * 2 + 0.5, 2)
    neg = y == 4
    tn = sum(Fraction(float(v)) for v in w[neg & (p == 4)])
    fp = sum(Fraction(float(v)) for v in w[neg & (p == 9)])
    spec = float(tn / (tn + fp))  # the exact ratio of the weights read, rounded once
    assert abs(spec - 0.59125) < 1e-12  # at the tie: the last bits decide the digit
    want = half_even(spec, 4)
    path = tmp_path / "w.csv"
    pd.DataFrame({"y": y, "yhat": p, "s": s, "w": w}).to_csv(path, index=False)
    page = run("report", str(path), "--true", "y", "--pred", "yhat", "--score", "s",
               "--pos-label", "9", "--weight", "w", "--no-intervals", "-f", "html")
    data = json.loads(re.search(r'id="confmat-data">(.*?)</script>', page, re.S).group(1))
    wd = data["widgets"]["r0"][0]
    assert "model's own predictions" in wd["start_note"]
    assert wd["metrics"]["specificity"][wd["start"]] == want
    # the per-class table: the row of specificity, class 9 is the second column
    row = re.search(r">specificity</td><td>([^<]*)</td><td>([^<]*)</td>", page)
    assert row is not None and row.group(2) == want
