"""The command line's report output: formats from -o, terminal width, and errors that name the
bad value, its row, or the stray label.

Oracles: the files written here (rows and values placed by hand), ``len`` of each printed line,
scikit-learn's ``confusion_matrix`` for the counts printed.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

from confmat.cli.app import main


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", ["out.xlsx", "out.pdf", "report", "x.html.bak"])
def test_unknown_output_extension_is_an_error(tmp_path: Path, capsys, name: str) -> None:
    target = tmp_path / name
    code, _, err = _run(capsys, "matrix", "[[61,2],[8,58]]", "--no-intervals", "-o", str(target))
    assert code == 2
    assert name in err and ("unknown extension" in err or "no extension" in err)
    assert "--format" in err
    assert not target.exists()
    # --format makes any name fine
    code, _, _ = _run(capsys, "matrix", "[[61,2],[8,58]]", "--no-intervals", "-o", str(target),
                      "--format", "json")
    assert code == 0 and json.loads(target.read_text())["counts"] == [[61, 2], [8, 58]]


@pytest.mark.parametrize("ext,check", [(".json", json.loads), (".md", lambda s: s.index("|")),
                                       (".txt", lambda s: s.index("Confusion matrix"))])
def test_known_extensions_choose_the_format(tmp_path: Path, capsys, ext, check) -> None:
    target = tmp_path / f"out{ext}"
    assert _run(capsys, "matrix", "[[5,1],[2,7]]", "--no-intervals", "-o", str(target))[0] == 0
    check(target.read_text())


def _widths(text: str) -> list[int]:
    return [len(line) for line in text.splitlines()]


@settings(max_examples=6, deadline=None)
@given(st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_terminal_text_fits_80_columns(k: int, seed: int) -> None:
    import io
    import os
    from contextlib import redirect_stdout

    rng = np.random.default_rng(seed)
    table = (rng.integers(0, 20, (k, k)) + np.diag(rng.integers(20, 90, k))).tolist()
    os.environ.pop("COLUMNS", None)
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["matrix", json.dumps(table), "--no-intervals"]) == 0
    text = buf.getvalue()
    assert max(_widths(text)) <= 80
    assert "…" not in text  # no number shortened to fit
    # every count of the table is printed in full
    first = text[text.index("Confusion matrix"):]
    for row in table:
        for v in row:
            assert str(v) in first


@pytest.mark.parametrize("cols", [60, 80, 132])
def test_columns_is_respected(monkeypatch, capsys, cols: int) -> None:
    monkeypatch.setenv("COLUMNS", str(cols))
    code, out, _ = _run(capsys, "matrix", "[[61,2,3],[8,58,4],[1,2,70]]")
    assert code == 0
    widths = _widths(out)
    assert max(widths) <= cols
    assert max(widths) > cols - 10  # the width is used, not a fixed 80


def test_non_numeric_score_names_value_and_row(tmp_path: Path, capsys) -> None:
    f = tmp_path / "p.csv"
    rows = [("1", "1", "0.9"), ("0", "0", "0.2"), ("1", "0", "0.4"), ("0", "0", "n/a?"),
            ("1", "1", "0.8")]
    f.write_text("y,yhat,p\n" + "".join(",".join(r) + "\n" for r in rows))
    code, _, err = _run(capsys, "report", str(f), "--true", "y", "--pred", "yhat", "--score",
                        "p")
    assert code == 2
    bad_row = next(i for i, r in enumerate(rows) if r[2] == "n/a?") + 1
    assert "'n/a?'" in err and f"data row {bad_row}" in err and "'p'" in err


def test_stray_predicted_label_in_a_score_report_is_named(tmp_path: Path, capsys) -> None:
    f = tmp_path / "p.csv"
    y = ["ham", "spam", "ham", "spam", "ham", "spam"]
    pred = ["ham", "spam", "ham", "eggs", "ham", "spam"]
    s = [0.1, 0.9, 0.2, 0.6, 0.3, 0.8]
    f.write_text("y,yhat,p\n" + "".join(f"{a},{b},{c}\n" for a, b, c in zip(y, pred, s,
                                                                             strict=True)))
    code, _, err = _run(capsys, "report", str(f), "--true", "y", "--pred", "yhat", "--score",
                        "p", "--pos-label", "spam", "--no-intervals")
    assert code == 2
    assert "'eggs'" in err and f"data row {pred.index('eggs') + 1}" in err
    assert "['ham', 'spam']" in err
    # without scores the same file is a three-class evaluation, counted as scikit-learn does
    code, out, _ = _run(capsys, "report", str(f), "--true", "y", "--pred", "yhat", "-f", "json",
                        "--no-intervals")
    assert code == 0
    d = json.loads(out)
    assert d["counts"] == confusion_matrix(y, pred, labels=d["labels"]).tolist()
