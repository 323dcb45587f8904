"""A missing or wrong ``--pos-label`` beside one ``--score`` column reads the same whether
``report`` reads the file whole or in batches (``--bins``), on CSV and on Arrow IPC.

Before: three text labels without ``--pos-label`` were refused read whole with the message of
a missing positive class ("the --true column takes values [...] and --pos-label is not
specified: either make the --true column take values in {0, 1}, ...", a remedy three labels
cannot take), with ``--bins`` with the message of the score columns' shape; a ``--pos-label``
that is no label named "the --true column" read whole, "column 'y' of file '...'" with
``--bins``.

The same cases by ``compare`` (several files, or one file with several ``--pred`` columns) and
by ``report --by g --score p``: before, these named "the --true column" without its file
(and said the positive class was missing beside three labels); now the same line as
``report``, naming the reference (first) file. A ``--pos-label`` outside ``--labels a,b,c``
with ``--bins`` on Arrow IPC was named with Python's words ("the labels in labels=['a', 'b',
'c'] ['a', 'b', 'c']"); now with the option (``--labels``).

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
    """The columns y, yhat, p, a group column g and a second model (yhat2, p2: a copy)."""
    y, p, s = data
    path = tmp / f"p{suffix}"
    g = ["u" if i % 2 else "v" for i in range(len(y))]
    if suffix == ".csv":
        path.write_text("y,yhat,p,g,yhat2,p2\n" + "".join(
            f"{a},{b},{c},{d},{b},{c}\n" for a, b, c, d in zip(y, p, s, g, strict=True)))
    else:
        scores = pa.array(s, pa.float64())
        feather.write_feather(pa.table({"y": y, "yhat": p, "p": scores, "g": g, "yhat2": p,
                                        "p2": scores}), str(path))
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


#: The other commands that read one score column per model, after "<FILE> <OTHER FILE>" or
#: "<FILE>" (the first file is the reference of compare).
OTHER_COMMANDS = {
    "compare-files": ["compare", "{0}", "{1}", "--true", "y", "--pred", "yhat", "--score",
                      "p"],
    "compare-columns": ["compare", "{0}", "--true", "y", "--pred", "yhat,yhat2", "--score",
                        "p,p2"],
    "report-by": ["report", "{0}", "--true", "y", "--pred", "yhat", "--score", "p", "--by",
                  "g"],
}


@pytest.mark.parametrize(("data", "pos", "expected"), CASES)
@pytest.mark.parametrize("suffix", [".csv", ".arrow"])
@pytest.mark.parametrize("command", sorted(OTHER_COMMANDS))
def test_compare_and_report_by_say_what_report_says(data: Any, pos: str | None,
                                                     expected: str, suffix: str, command: str,
                                                     tmp_path: Path, capsys: Any) -> None:
    first = _write(tmp_path, suffix, data)
    second = first.with_name(f"q{suffix}")
    second.write_bytes(first.read_bytes())
    args = [a.format(first, second) for a in OTHER_COMMANDS[command]] + ["--no-intervals"]
    args += [] if pos is None else ["--pos-label", pos]
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2
    assert err.replace(f"file {str(first)!r}", "<FILE>") == f"confmat: error: {expected}\n"


def test_a_pos_label_outside_the_labels_given_is_named_in_each_callers_words(
        tmp_path: Path, capsys: Any) -> None:
    """Three labels given, one score column, a ``--pos-label`` that is none of them, read in
    batches: the option's words on the command line, the argument's in Python; never the
    Python ``labels=[...]`` on the command line."""
    path = _write(tmp_path, ".arrow", THREE)
    code = main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--labels", "a,b,c", "--pos-label", "z", "--bins", "10", "--no-intervals"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("confmat: error: --pos-label 'z' is not one of the labels in --labels "
                   "['a', 'b', 'c']\n")
    with pytest.raises(ValueError) as info:
        evaluate_file(str(path), "y", "yhat", score_cols=["p"], labels=["a", "b", "c"],
                      pos_label="z", bins=10)
    assert str(info.value) == "pos_label='z' is not one of the labels in labels ['a', 'b', 'c']"
