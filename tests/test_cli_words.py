"""The library's messages in the caller's words: one check, two vocabularies.

A check deep in the library names the argument it refuses. Called from Python it says
``labels``, ``pos_label=7``, ``pass skip_invalid=True``; run by a command of the command line
it says ``--labels``, ``--pos-label 7``, ``give --skip-invalid`` (``confmat.words``, entered
by every command). For each converted message: the command line on input that triggers it
gives exit status 2, one line, no traceback, the option's name and none of the Python words;
the same input through the Python API still gives the Python words.

Oracles: the option strings are read from the click commands' declared parameters (never
typed here), and the Python words are the argument names of the Python functions' signatures
(checked with ``inspect.signature``), so a renamed option or argument makes these tests fail.
"""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import click
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import confmat
from confmat import words
from confmat.cli.app import cli
from confmat.io import evaluate_file
from confmat.report import build_comparison
from test_cli_messages import main_line as cli_line  # status 2, one line, no traceback


def option(command: str, param: str) -> str:
    """The first option string of a command's parameter, as click declares it."""
    opts = [p for p in cli.commands[command].params
            if isinstance(p, click.Option) and p.name == param]
    assert len(opts) == 1, (command, param)
    return opts[0].opts[0]


def takes(func, argument: str) -> str:
    """``argument``, after checking that ``func`` has a parameter of that name."""
    assert argument in inspect.signature(func).parameters, (func, argument)
    return argument


@pytest.fixture
def d(tmp_path: Path) -> Path:
    pd.DataFrame({"y": [0, 1, 1, 0], "yhat": [0, 1, 0, 1], "p": [0.1, 0.9, 0.4, 0.6],
                  "g": ["a", "b", "a", "b"]}).to_csv(tmp_path / "b.csv", index=False)
    pd.DataFrame({"y": [0, 1, 2, 0], "yhat": [0, 1, 2, 1]}).to_csv(tmp_path / "three.csv",
                                                                    index=False)
    (tmp_path / "gap.csv").write_text("y,yhat\n0,1\n,1\n1,1\n")
    (tmp_path / "s.csv").write_text("y,yhat,p,w\na,a,0.1,1\nb,b,0.9,-1\nb,a,0.4,1\na,b,0.6,1\n")
    return tmp_path


def python_message(call) -> str:
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    return str(info.value)


B = ["{d}/b.csv", "--true", "y", "--pred", "yhat", "--no-intervals"]

#: (id, command line, Python call on the same input, the Python words the check uses,
#: the options (command, click parameter) the command line's message names instead)
CASES = [
    ("labels naming no class of y_true",
     ["compare", "{d}/three.csv", "--true", "y", "--pred", "yhat,y", "--labels", "9",
      "--no-intervals"],
     lambda d: build_comparison(np.array([0, 1, 2, 0]), {"a": np.array([0, 1, 2, 1])},
                                labels=[9], intervals=False),
     lambda: [takes(build_comparison, "labels") + " names no class that occurs in "
              + takes(build_comparison, "y_true")],
     [("compare", "labels"), ("compare", "true_col")]),
    ("models leaving different samples out of labels",
     ["compare", "{d}/b.csv", "--true", "y", "--pred", "yhat,y", "--labels", "0",
      "--no-intervals"],
     lambda d: build_comparison(np.array([0, 1, 1, 0]), {"yhat": np.array([0, 1, 0, 1]),
                                                        "y": np.array([0, 1, 1, 0])},
                                labels=[0], intervals=False),
     lambda: [takes(build_comparison, "labels") + "=[0]",
              "add the classes they predict to labels"],
     [("compare", "labels")]),
    ("labels with duplicates",
     ["report", *B, "--labels", "0,0,1"],
     lambda d: evaluate_file(d / "b.csv", "y", "yhat", labels=[0, 0, 1]),
     lambda: [takes(evaluate_file, "labels") + " contains duplicates"],
     [("report", "labels")]),
    ("labels of a typed table with duplicates",
     ["matrix", "[[1,2],[3,4]]", "--labels", "a,a", "--no-intervals"],
     lambda d: confmat.ConfusionMatrix([[1, 2], [3, 4]], labels=["a", "a"]),
     lambda: [takes(confmat.ConfusionMatrix, "labels") + " contains duplicates"],
     [("matrix", "labels")]),
    ("labels of a typed table of another size",
     ["matrix", "[[1,2],[3,4]]", "--labels", "a", "--no-intervals"],
     lambda d: confmat.ConfusionMatrix([[1, 2], [3, 4]], labels=["a"]),
     lambda: [takes(confmat.ConfusionMatrix, "labels") + " has 1 entries"],
     [("matrix", "labels")]),
    ("a label outside the fixed labels",
     ["report", *B, "--labels", "0"],
     lambda d: evaluate_file(d / "b.csv", "y", "yhat", labels=[0]),
     lambda: ["not in the fixed labels [0]"],
     [("report", "labels")]),
    ("metrics with duplicates",
     ["compare", "{d}/b.csv", "--true", "y", "--pred", "yhat,y", "--metrics",
      "accuracy,accuracy", "--no-intervals"],
     lambda d: build_comparison(np.array([0, 1, 1, 0]), {"a": np.array([0, 1, 0, 1]),
                                                        "b": np.array([0, 1, 1, 0])},
                                metrics=["accuracy", "accuracy"], intervals=False),
     lambda: [takes(build_comparison, "metrics") + " contains duplicates"],
     [("compare", "metric_names")]),
    ("test metric not among the metrics",
     ["compare", "{d}/b.csv", "--true", "y", "--pred", "yhat,y", "--metrics", "accuracy",
      "--test-metric", "mcc", "--no-intervals"],
     lambda d: build_comparison(np.array([0, 1, 1, 0]), {"a": np.array([0, 1, 0, 1]),
                                                        "b": np.array([0, 1, 1, 0])},
                                metrics=["accuracy"], test_metric="mcc", intervals=False),
     lambda: [takes(build_comparison, "test_metric") + " 'mcc' must be one of "
              + takes(build_comparison, "metrics") + " ["],
     [("compare", "test_metric"), ("compare", "metric_names")]),
    ("a filter DuckDB cannot evaluate",
     ["report", *B, "--where", "zz > 1"],
     lambda d: evaluate_file(d / "b.csv", "y", "yhat", where="zz > 1"),
     lambda: [takes(evaluate_file, "where") + ": DuckDB cannot evaluate"],
     [("report", "where")]),
    ("a filter that is not a condition",
     ["report", *B, "--where", "y + 1"],
     lambda d: evaluate_file(d / "b.csv", "y", "yhat", where="y + 1"),
     lambda: [takes(evaluate_file, "where") + " must be a boolean SQL expression"],
     [("report", "where")]),
    ("a filter that does not parse",
     ["report", *B, "--where", "y ="],
     lambda d: evaluate_file(d / "b.csv", "y", "yhat", where="y ="),
     lambda: [takes(evaluate_file, "where") + " must be one SQL condition"],
     [("report", "where")]),
    ("a group column named twice",
     ["report", *B, "--by", "g,g"],
     lambda d: evaluate_file(d / "b.csv", "y", "yhat", group_cols=["g", "g"]),
     lambda: [takes(evaluate_file, "group_cols") + " names column 'g' twice"],
     [("report", "by")]),
    ("a row missing its label",
     ["report", "{d}/gap.csv", "--true", "y", "--pred", "yhat", "--no-intervals"],
     lambda d: evaluate_file(d / "gap.csv", "y", "yhat"),
     lambda: ["pass " + takes(evaluate_file, "skip_invalid") + "=True"],
     [("report", "skip_invalid")]),
    ("a file read in another format",
     ["report", *B, "--input-format", "parquet"],
     lambda d: evaluate_file(d / "b.csv", "y", "yhat", format="parquet"),
     lambda: [f"name its real {takes(evaluate_file, 'format')}"],
     [("report", "fmt_in")]),
    ("labels that imply no positive class",
     ["report", "{d}/s.csv", "--true", "y", "--pred", "yhat", "--score", "p", "--no-intervals"],
     lambda d: confmat.roc_curve(["a", "b", "b", "a"], [0.1, 0.9, 0.4, 0.6]),
     lambda: [takes(confmat.roc_curve, "y_true") + " takes values ['a', 'b'] and "
              + takes(confmat.roc_curve, "pos_label") + " is not specified",
              "pass pos_label explicitly"],
     [("report", "pos_label"), ("report", "true_col")]),
    ("a negative weight",
     ["report", "{d}/s.csv", "--true", "y", "--pred", "yhat", "--weight", "w",
      "--no-intervals"],
     lambda d: evaluate_file(d / "s.csv", "y", "yhat", weight_col="w"),
     lambda: [f"column 'w' ({takes(confmat.ConfusionMatrix.from_predictions, 'sample_weight')})"],
     [("report", "weight")]),
    ("a partial AUC without its range",
     ["compare", "{d}/b.csv", "--true", "y", "--pred", "yhat,y", "--score", "p,p", "--metrics",
      "partial_auc", "--no-intervals"],
     lambda d: build_comparison(np.array([0, 1, 1, 0]), {"a": np.array([0, 1, 0, 1]),
                                                        "b": np.array([0, 1, 1, 0])},
                                scores={"a": np.array([0.1, 0.9, 0.4, 0.6]),
                                        "b": np.array([0.1, 0.9, 0.4, 0.6])},
                                metrics=["partial_auc"], intervals=False),
     lambda: [f"give {takes(build_comparison, 'partial_auc')}=(low, high)"],
     [("compare", "partial_auc")]),
    ("true and predicted labels of two kinds",
     ["compare", "{d}/b.csv", "--true", "y", "--pred", "yhat,g", "--no-intervals"],
     lambda d: confmat.ConfusionMatrix.from_predictions([0, 1, 1, 0], ["a", "b", "a", "b"]),
     lambda: [takes(confmat.ConfusionMatrix.from_predictions, "y_true") + " with "
              + takes(confmat.ConfusionMatrix.from_predictions, "y_pred") + " mixes"],
     [("compare", "true_col"), ("compare", "pred_cols")]),
    ("a positive class of no label",
     ["report", *B, "--score", "p", "--pos-label", "7"],
     lambda d: confmat.roc_curve([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.6], pos_label=7),
     lambda: [takes(confmat.roc_curve, "pos_label") + "=7 is not one of the labels in "
              + takes(confmat.roc_curve, "y_true")],
     [("report", "pos_label")]),
]


@pytest.mark.parametrize(("cmd", "call", "python_words", "options"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_message_in_the_callers_words(d, capsys, cmd, call, python_words, options):
    said = python_message(lambda: call(d))
    for w in python_words():
        assert w in said, (w, said)
    line = cli_line(capsys, [a.replace("{d}", str(d)) for a in cmd])
    for command, param in options:
        assert option(command, param) in line, line
    for w in python_words():  # not even once: "--labels contains" is no "labels contains"
        assert re.search(r"(?<![\w-])" + re.escape(w), line) is None, (w, line)


def test_the_python_words_are_back_after_a_command(d, capsys):
    """The vocabulary is left when the command ends, raising or not."""
    cli_line(capsys, ["report", *[a.replace("{d}", str(d)) for a in B], "--labels", "0,0"])
    assert words.current() is words.PYTHON
    assert "labels contains duplicates" in python_message(
        lambda: evaluate_file(d / "b.csv", "y", "yhat", labels=[0, 0]))


# ------------------------------------------------------------ the positive class
def test_an_implied_positive_class_is_not_named_as_typed(d, capsys):
    """Labels {0, 1} imply the positive class 1; ``--labels 0`` leaves it out. Without
    ``--pos-label`` the message says the class was implied; with it, it names the option."""
    args = ["report", *[a.replace("{d}", str(d)) for a in B], "--score", "p", "--by", "yhat",
            "--labels", "0"]
    pos = option("report", "pos_label")
    line = cli_line(capsys, args)
    assert f"{pos} 1" not in line and "pos_label" not in line, line
    assert f"the positive class 1 (implied: no {pos} given) is not one of the labels in " \
           f"{option('report', 'labels')} [0]" in line, line
    line = cli_line(capsys, [*args, pos, "1"])
    assert f"{pos} 1 is not one of the labels in {option('report', 'labels')} [0]" in line
    assert "implied" not in line and "pos_label" not in line, line


def test_a_positive_class_of_another_kind_hints_the_option():
    """The hint of ``check_pos_label_kind`` is ``pass pos_label=...`` in Python and the
    option in a command's vocabulary (through the vocabulary a command builds)."""
    from confmat.cli.command import vocabulary
    from confmat.inputs.targets import check_pos_label_kind

    said = python_message(lambda: check_pos_label_kind([0, 1], True))
    assert said == ("pos_label=True is a bool, but the labels in y_true [0, 1] are of kind "
                    "number; pass pos_label=1")
    cmd = cli.commands["report"]
    ctx = cmd.make_context("report", ["f.csv", "--true", "y", "--pred", "yhat", "--pos-label",
                                      "x"])
    with words.speaking(vocabulary(ctx)):
        said = python_message(lambda: check_pos_label_kind([0, 1], True))
    pos, true = option("report", "pos_label"), option("report", "true_col")
    assert said == (f"{pos} True is a bool, but the labels in the {true} column [0, 1] are "
                    f"of kind number; give {pos} 1")


# ------------------------------------------------------------ a real process, threads
def test_in_a_real_process(d):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}
    res = subprocess.run([sys.executable, "-m", "confmat", "compare", "three.csv", "--true",
                          "y", "--pred", "yhat,y", "--labels", "9", "--no-intervals"],
                         capture_output=True, text=True, timeout=240, cwd=d, env=env)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    labels, true = option("compare", "labels"), option("compare", "true_col")
    assert f"{labels} names no class that occurs in the {true} column" in res.stderr
    assert "y_true" not in res.stderr


def test_other_threads_keep_the_python_words(d):
    """A command's vocabulary belongs to its thread: a check run meanwhile in another
    thread says ``labels``."""
    inside, go, done = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, str] = {}

    def other() -> None:
        inside.wait(30)
        seen["other"] = python_message(
            lambda: confmat.ConfusionMatrix([[1, 2], [3, 4]], labels=["a", "a"]))
        go.set()

    def during_command() -> None:
        cmd = cli.commands["matrix"]
        ctx = cmd.make_context("matrix", ["[[1,2],[3,4]]", "--labels", "a,a"])
        from confmat.cli.command import vocabulary

        with words.speaking(vocabulary(ctx)):
            inside.set()
            go.wait(30)
            seen["command"] = python_message(
                lambda: confmat.ConfusionMatrix([[1, 2], [3, 4]], labels=["a", "a"]))
        done.set()

    threads = [threading.Thread(target=other), threading.Thread(target=during_command)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert seen["other"] == "labels contains duplicates: ['a', 'a']"
    assert seen["command"] == f"{option('matrix', 'labels')} contains duplicates: ['a', 'a']"


def test_cli_runner_sees_the_options_too(d):
    """click's CliRunner runs the command through ``Command.invoke`` as ``main`` does: the
    exception it sees is already in the command line's words."""
    result = CliRunner().invoke(cli, ["report", *[a.replace("{d}", str(d)) for a in B],
                                      "--labels", "0,0"], standalone_mode=False)
    assert isinstance(result.exception, ValueError)
    assert str(result.exception).startswith(f"{option('report', 'labels')} contains dupl")
