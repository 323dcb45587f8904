"""A missing or wrong ``--pos-label`` beside one ``--score`` column reads the same whether
``report`` reads the file whole or in batches (``--bins``), on CSV and on Arrow IPC.

Before: three text labels without ``--pos-label`` were refused read whole with the message of
a missing positive class ("the --true column takes values [...] and --pos-label is not
specified: either make the --true column take values in {0, 1}, ...", a remedy three labels
cannot take), with ``--bins`` with the message of the score columns' shape; a ``--pos-label``
that is no label named "the --true column" read whole, "column 'y' of file '...'" with
``--bins``.

The rule (docs/cli.md): one score column beside three or more labels scores one class against
the rest, so without ``--pos-label`` the columns do not fit the labels; beside two labels other
than {0, 1}, {-1, 1}, {False, True} the positive class is missing. Oracle: the expected lines
are written out by hand from that rule, not produced by confmat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import confmat
from confmat.cli.app import main
from confmat.io import evaluate_file
from confmat.report import build_report

pa = pytest.importorskip("pyarrow")
feather = pytest.importorskip("pyarrow.feather")

THREE = (["a", "b", "c"], ["a", "b", "c"], [0.1, 0.5, 0.9])
TWO = (["a", "b", "b"], ["a", "b", "a"], [0.1, 0.5, 0.9])

SHAPE_THREE = ("<FILE>: 1 score column ['p'] but the labels are ['a', 'b', 'c']; give one score "
               "column per class, in label order, or --pos-label, the class the one column "
               "scores (a binary problem: that class against every other)")
MISSING_TWO = ("the --true column 'y' of <FILE> takes values ['a', 'b'] and --pos-label is not "
               "specified: either make the --true column 'y' of <FILE> take values in {0, 1}, "
               "{-1, 1} or {False, True}, or give --pos-label")
WRONG = "--pos-label 'z' is not one of the labels in the --true column 'y' of <FILE> {}"

CASES = [
    pytest.param(THREE, None, SHAPE_THREE, id="three-labels-no-pos-label"),
    pytest.param(TWO, None, MISSING_TWO, id="two-labels-no-pos-label"),
    pytest.param(THREE, "z", WRONG.format("['a', 'b', 'c']"), id="three-labels-pos-label-z"),
    pytest.param(TWO, "z", WRONG.format("['a', 'b']"), id="two-labels-pos-label-z"),
]


def _write(tmp: Path, suffix: str, data: tuple[list[str], list[str], list[float]]) -> Path:
    y, p, s = data
    path = tmp / f"p{suffix}"
    if suffix == ".csv":
        path.write_text("y,yhat,p\n" + "".join(f"{a},{b},{c}\n" for a, b, c in
                                                zip(y, p, s, strict=True)))
    else:
        feather.write_feather(pa.table({"y": y, "yhat": p, "p": pa.array(s, pa.float64())}),
                              str(path))
    return path


def _run(capsys: Any, path: Path, pos: str | None, bins: bool) -> tuple[int, str]:
    args = ["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p",
            "--no-intervals"]
    args += [] if pos is None else ["--pos-label", pos]
    args += ["--bins", "10"] if bins else []
    code = main(args)
    err = capsys.readouterr().err
    return code, err.replace(f"file {str(path)!r}", "<FILE>")


@pytest.mark.parametrize(("data", "pos", "expected"), CASES)
@pytest.mark.parametrize("suffix", [".csv", ".arrow"])
@pytest.mark.parametrize("bins", [False, True], ids=["whole", "bins"])
def test_one_message_whole_and_binned(data: Any, pos: str | None, expected: str, suffix: str,
                                      bins: bool, tmp_path: Path, capsys: Any) -> None:
    code, err = _run(capsys, _write(tmp_path, suffix, data), pos, bins)
    assert code == 2
    assert err == f"confmat: error: {expected}\n"


@pytest.mark.parametrize("pos", [None, "z"])
def test_python_api_names_pos_label(pos: str | None, tmp_path: Path) -> None:
    """In Python both paths name the argument ``pos_label`` (never the option)."""
    y, p, s = THREE
    path = _write(tmp_path, ".csv", THREE)
    cm = confmat.ConfusionMatrix.from_predictions(y, p)
    errors = []
    for call in (lambda: build_report(cm, y_true=y, y_score=np.array(s), y_pred=p,
                                      pos_label=pos),
                 lambda: evaluate_file(str(path), "y", "yhat", score_cols=["p"], bins=10,
                                       pos_label=pos)):
        with pytest.raises(ValueError) as info:
            call()
        errors.append(str(info.value))
    for msg in errors:
        assert "pos_label" in msg and "--pos-label" not in msg, msg
        if pos is not None:
            assert "pos_label='z' is not one of the labels in " in msg, msg
            assert msg.endswith("['a', 'b', 'c']"), msg
