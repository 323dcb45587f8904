"""One clear line for a bad option: an option without its value, a file read in a format its
bytes contradict, an output path that cannot be written; each named with the option, exit
status 2 and no traceback, checked through click's CliRunner, through ``main`` and through a
real ``python -m confmat`` process.

Oracles: the options of each command as click declares them (every option that takes a
value is tried), the files' real formats (each written by its own library: pandas, pyarrow,
numpy), and the paths made here (a file where a directory is expected, a path under a file).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from confmat.cli.app import cli, main
from confmat.inputs.files import FORMATS

#: Arguments that put each command's parser past its positional arguments.
PREFIX = {"matrix": ["[[1,2],[3,4]]"], "report": ["preds.csv"], "compare": ["preds.csv"],
          "explain": ["mcc"], "metrics": [], "demo": [], "where": []}


def value_options() -> list[tuple[str, str, str]]:
    """(command, option as typed, another option of the command) for every option that takes
    a value, its long and short names alike."""
    out = []
    for name, cmd in sorted(cli.commands.items()):
        opts = [p for p in cmd.params if isinstance(p, click.Option)]
        for p in opts:
            if p.is_flag or p.count:
                continue
            other = next(o for q in opts if q is not p for o in q.opts)
            out += [(name, o, other) for o in p.opts]
    return out


VALUE_OPTIONS = value_options()


def test_every_command_is_covered():
    assert set(PREFIX) == set(cli.commands)
    # the options of the brief's example are among them
    assert ("report", "--title") in {(c, o) for c, o, _ in VALUE_OPTIONS}
    assert len(VALUE_OPTIONS) > 40


def runner_error(args: list[str]) -> BaseException:
    """The exception click's CliRunner sees (our ``main`` formats it)."""
    result = CliRunner().invoke(cli, args, standalone_mode=False)
    assert result.exception is not None, result.output
    return result.exception


def main_line(capsys, args: list[str]) -> str:
    """``main``'s one line on stderr, after checking status 2, no traceback, no stdout."""
    code = main(args)
    out = capsys.readouterr()
    assert code == 2, out
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("confmat: error: "), out.err
    assert "Traceback" not in out.err and out.out == ""
    return lines[0]


def process_line(args: list[str], cwd: Path) -> str:
    """The same through a real ``python -m confmat`` process."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}
    res = subprocess.run([sys.executable, "-m", "confmat", *args], capture_output=True,
                         text=True, timeout=240, cwd=cwd, env=env)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("confmat: error: "), res.stderr
    assert "Traceback" not in res.stderr and res.stdout == ""
    return lines[0]


# ------------------------------------------------------------- options without a value
@pytest.mark.parametrize(("command", "option", "other"), VALUE_OPTIONS,
                         ids=[f"{c} {o}" for c, o, _ in VALUE_OPTIONS])
def test_option_without_its_value_is_named(capsys, command, option, other):
    for args, said in (([command, *PREFIX[command], option], f"{option} needs a value"),
                       ([command, *PREFIX[command], option, other],
                        f"{option} needs a value; the next word is the option {other}")):
        exc = runner_error(args)
        assert isinstance(exc, click.UsageError) and exc.format_message() == said
        assert exc.ctx is not None and exc.ctx.command.name == command
        assert main_line(capsys, args) == (f"confmat: error: {said} (see 'confmat {command} "
                                           "--help')")


def test_a_value_that_is_an_option_name_can_be_given_with_equals(tmp_path, capsys):
    args = ["matrix", "[[1,2],[3,4]]", "--no-intervals", "--title=--all", "-f", "json"]
    assert main(args) == 0
    import json

    assert json.loads(capsys.readouterr().out)["title"] == "--all"


def test_missing_title_value_in_a_real_process(tmp_path):
    line = process_line(["report", "f.csv", "--true", "y", "--pred", "yhat", "--title"],
                        tmp_path)
    assert line == "confmat: error: --title needs a value (see 'confmat report --help')"


# ---------------------------------------------------------------- --input-format
FRAME = pd.DataFrame({"y": [1, 0, 1, 0], "yhat": [1, 1, 0, 0], "p": [0.9, 0.3, 0.7, 0.1]})


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    import pyarrow as pa
    import pyarrow.feather as feather

    out = {f: tmp_path / f"data.{f}" for f in ("csv", "tsv", "parquet", "jsonl", "arrow", "npy")}
    FRAME.to_csv(out["csv"], index=False)
    FRAME.to_csv(out["tsv"], sep="\t", index=False)
    FRAME.to_parquet(out["parquet"])
    FRAME.to_json(out["jsonl"], orient="records", lines=True)
    feather.write_feather(pa.Table.from_pandas(FRAME), out["arrow"])
    np.save(out["npy"], FRAME.to_numpy())
    return out


def test_input_format_choices_are_the_library_formats():
    opt = next(p for p in cli.commands["report"].params if p.name == "fmt_in")
    assert sorted(opt.type.choices) == sorted(FORMATS)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_input_format_on_a_file_of_another_format(files, capsys, fmt):
    """Each file read in each other format: one line naming the file and --input-format (a
    CSV file read as TSV and back is the dialect sniffer's to read; both read fine)."""
    for real, path in files.items():
        if real == fmt:
            continue
        args = ["report", str(path), "--true", "y", "--pred", "yhat", "--input-format", fmt,
                "--no-intervals", "-f", "json"]
        if {real, fmt} == {"csv", "tsv"} and fmt == "csv":
            assert main(args) == 0  # the sniffer finds the tab
            capsys.readouterr()
            continue
        line = main_line(capsys, args)
        assert repr(str(path)) in line and "--input-format" in line, line
        assert "magic bytes" not in line and "byte sequence mismatch" not in line, line


def test_parquet_on_a_csv_file(files, capsys, tmp_path):
    args = ["report", str(files["csv"]), "--true", "y", "--pred", "yhat", "--input-format",
            "parquet"]
    exc = runner_error(args)
    assert isinstance(exc, ValueError) and "is not a Parquet file" in str(exc)
    expected = (f"confmat: error: file {str(files['csv'])!r} is not a Parquet file (it starts "
                "with b'y,yhat,p'; a Parquet file starts and ends with b'PAR1'); give its "
                "real format with --input-format")
    assert main_line(capsys, args) == expected
    assert process_line(args, tmp_path) == expected


# ---------------------------------------------------------------- output paths
@pytest.fixture
def place(tmp_path: Path) -> Path:
    FRAME.to_csv(tmp_path / "f.csv", index=False)
    (tmp_path / "afile").write_text("")
    return tmp_path


REPORT = ["report", "{d}/f.csv", "--true", "y", "--pred", "yhat", "--no-intervals"]
OUTPUTS = [
    ([*REPORT, "--plots", "{d}/afile"],
     "--plots {d}/afile: must be a directory (an existing one, or a path where one can be "
     "created), but '{d}/afile' is a file"),
    ([*REPORT, "--plots", "{d}/afile/sub"],
     "--plots {d}/afile/sub: cannot write there: '{d}/afile' is a file, not a directory"),
    ([*REPORT, "-o", "{d}/afile/r.json"],
     "-o {d}/afile/r.json: cannot write there: '{d}/afile' is a file, not a directory"),
    # named as the help names it first, whichever of its names was typed
    ([*REPORT, "--output", "{d}"], "-o {d}: is a directory; -o names the file to write"),
    (["matrix", "[[1,2],[3,4]]", "-o", "{d}"], "-o {d}: is a directory; -o names the file to "
                                               "write"),
    (["compare", "{d}/f.csv", "--true", "y", "--pred", "yhat,y", "--plots", "{d}/afile"],
     "--plots {d}/afile: must be a directory (an existing one, or a path where one can be "
     "created), but '{d}/afile' is a file"),
    (["demo", "-o", "{d}/afile"],
     "-o {d}/afile: must be a directory (an existing one, or a path where one can be "
     "created), but '{d}/afile' is a file"),
    (["demo", "--output-dir", "{d}/afile/sub"],
     "-o {d}/afile/sub: cannot write there: '{d}/afile' is a file, not a directory"),
]


@pytest.mark.parametrize(("args", "said"), OUTPUTS, ids=[" ".join(a[-2:]) for a, _ in OUTPUTS])
def test_unusable_output_path_is_named_before_any_work(place, capsys, args, said):
    args = [a.replace("{d}", str(place)) for a in args]
    said = said.replace("{d}", str(place))
    before = sorted(p.name for p in place.iterdir())
    exc = runner_error(args)
    assert str(exc) == said
    assert main_line(capsys, args) == f"confmat: error: {said}"
    assert sorted(p.name for p in place.iterdir()) == before  # nothing written or created


def test_plots_on_a_file_in_a_real_process(place):
    args = ["report", "f.csv", "--true", "y", "--pred", "yhat", "--plots", "afile"]
    assert process_line(args, place) == (
        "confmat: error: --plots afile: must be a directory (an existing one, or a path where "
        "one can be created), but 'afile' is a file")


def test_output_folder_without_write_permission(place, capsys, monkeypatch):
    """Permission is what ``os.access`` says (the tests may run as root, who may write
    anywhere): the folder it refuses is named."""
    import confmat.cli.common as common

    locked = str(place / "locked")
    os.mkdir(locked)
    real = os.access
    monkeypatch.setattr(common.os, "access",
                        lambda p, mode: False if str(p) == locked else real(p, mode))
    for opt, target in (("-o", f"{locked}/r.json"), ("--plots", f"{locked}/plots")):
        line = main_line(capsys, [*(a.replace("{d}", str(place)) for a in REPORT), opt,
                                  target])
        assert line == (f"confmat: error: {opt} {target}: cannot write there: the directory "
                        f"{locked!r} is not writable (permission denied)")


# ---------------------------------------------------------------- --pos-label of no class
POS = [
    ["report", "{d}/f.csv", "--true", "y", "--pred", "yhat"],
    ["report", "{d}/f.csv", "--true", "y", "--pred", "yhat", "--score", "p"],
    ["report", "{d}/f.csv", "--true", "y", "--pred", "yhat", "--score", "p", "--bins", "10"],
    ["report", "{d}/f.csv", "--true", "y", "--pred", "yhat", "--by", "yhat"],
    ["compare", "{d}/f.csv", "--true", "y", "--pred", "yhat,y"],
    ["compare", "{d}/f.csv", "--true", "y", "--pred", "yhat,y", "--score", "p,p"],
]


@pytest.mark.parametrize("args", POS, ids=[" ".join(a[5:]) for a in POS])
def test_pos_label_of_no_class_is_named_on_every_path(place, capsys, args):
    """The library's check (the labels of the file are 0 and 1), in the option's name; the
    hint "(give --pos-label)" is for a missing one only."""
    args = [a.replace("{d}", str(place)) for a in args] + ["--pos-label", "7", "--no-intervals"]
    line = main_line(capsys, args)
    assert line.startswith("confmat: error: --pos-label 7 is not one of the labels"), line
    assert "[0, 1]" in line and "(give --pos-label)" not in line, line


# ---------------------------------------------------- the positive class nobody typed
IMPLIED = [
    ["report", "{d}/f.csv", "--true", "y", "--pred", "yhat", "--score", "p", "--by", "yhat"],
    ["compare", "{d}/f.csv", "{d}/g.csv", "--true", "y", "--pred", "yhat", "--score", "p"],
]


@pytest.mark.parametrize("args", IMPLIED, ids=[" ".join(a[5:]) for a in IMPLIED])
def test_implied_positive_class_is_not_named_as_an_option_typed(place, capsys, args):
    """Labels {0, 1} imply the positive class 1; with ``--labels 0`` the library refuses it.
    Without ``--pos-label`` on the command line the message must not read as if the user had
    typed ``--pos-label 1``; with it, it names the option (the expected words follow from the
    command line written here)."""
    FRAME.to_csv(place / "g.csv", index=False)
    args = [a.replace("{d}", str(place)) for a in args] + ["--labels", "0", "--no-intervals"]
    line = main_line(capsys, args)
    assert "--pos-label 1" not in line, line
    assert "the positive class 1 (implied: no --pos-label given) is not one of" in line, line
    assert line.endswith("[0]"), line
    line = main_line(capsys, [*args, "--pos-label", "1"])
    assert line.startswith("confmat: error: --pos-label 1 is not one of"), line
    assert "implied" not in line, line


def test_implied_positive_class_in_a_real_process(place):
    FRAME.to_csv(place / "g.csv", index=False)
    line = process_line([a.replace("{d}", str(place)) for a in IMPLIED[1]]
                        + ["--labels", "0", "--no-intervals"], place)
    assert "(implied: no --pos-label given)" in line and "--pos-label 1" not in line, line


# ---------------------------------------------------------------- empty values
EMPTY = [(c, o) for c, opts in (
    ("report", ["--score", "--scores", "--labels", "--by", "--group-metrics",
                "--disparity-metric", "--title", "-o", "--plots", "--where", "--cost",
                "--partial-auc"]),
    ("compare", ["--score", "--scores", "--metrics", "--name", "--title"]),
    ("matrix", ["--labels", "--title", "-o", "--plots"]),
    ("demo", ["-o"]),
) for o in opts]


@pytest.mark.parametrize(("command", "option"), EMPTY, ids=[" ".join(e) for e in EMPTY])
def test_empty_value_is_named_not_taken_for_the_default(place, capsys, command, option):
    """An empty value was the default for some options (no scores, the default title, no
    plots): each is an error naming the option."""
    head = {"report": ["report", f"{place}/f.csv", "--true", "y", "--pred", "yhat"],
            "compare": ["compare", f"{place}/f.csv", "--true", "y", "--pred", "yhat,y"],
            "matrix": ["matrix", "[[1,2],[3,4]]"], "demo": ["demo"]}[command]
    if command != "demo":
        head.append("--no-intervals")
    line = main_line(capsys, [*head, option, ""])
    assert option in line, line
    assert sorted(p.name for p in place.iterdir()) == ["afile", "f.csv"]
