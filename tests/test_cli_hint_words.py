"""Every hint a command-line user reads names something they can type.

The library's hints point at its Python API: ``column_types={'y': 'string'}`` of the file
readers, the allow-lists ``confmat.inputs.where.ALLOWED_*`` of ``where=``, the PyCM keys of
``confmat.metrics.pycm_keys()``, ``pos_label=`` in a report's warnings. The command line has
its own way to each: ``--column-type y=string``, ``confmat where``, ``confmat metrics
--pycm``, ``--pos-label``; each hint, triggered from the command line, names that (exit
status 2, one line), and triggered from Python keeps the Python words.

Oracles: the option strings as the click commands declare them, the Python argument names
from the functions' signatures; files read by pandas / pyarrow / Python's csv and json
modules with the type asked for, their matrices counted by scikit-learn; the allow-lists and
the PyCM table compared as sets with the library's constants (the point is that the
commands print them, not a copy).
"""

from __future__ import annotations

import csv
import json
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, confusion_matrix

import confmat
from confmat.cli.app import cli, main
from confmat.io import evaluate_file
from confmat.report import build_report
from test_cli_messages import main_line
from test_cli_words import option, takes

COLUMN_TYPES = takes(evaluate_file, "column_types")


def run_json(capsys, args: list[str]) -> dict:
    code = main(args)
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def python_message(call) -> str:
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    return str(info.value)


def no_python_words(line: str, *names: str) -> None:
    for n in names:
        assert re.search(r"(?<![\w-])" + re.escape(n), line) is None, (n, line)


# ------------------------------------------------------------------- --column-type reads
#: Integer-looking text: read as numbers "1" and "1.0" are one class and 10 sorts after 2.
TEXT = "y,yhat,p,g\n1,1.0,0.9,a\n1.0,1,0.8,b\n2,2,0.3,a\n10,2,0.2,b\n1,10,0.6,a\n"


@pytest.fixture
def text_file(tmp_path: Path) -> Path:
    path = tmp_path / "t.csv"
    path.write_text(TEXT)
    return path


def oracle(path: Path, dtype: type | None) -> tuple[list, np.ndarray]:
    """Labels and matrix of pandas' read (``dtype=str``: as written), counted by sklearn."""
    df = pd.read_csv(path, dtype={"y": dtype, "yhat": dtype} if dtype else None)
    labels = sorted(set(df["y"]) | set(df["yhat"]))
    return labels, confusion_matrix(df["y"], df["yhat"], labels=labels)


@pytest.mark.parametrize("extra", [[], ["--score", "p", "--pos-label", "1"]],
                         ids=["streamed", "with scores"])
def test_report_reads_the_columns_with_the_types_given(text_file, capsys, extra):
    args = ["report", str(text_file), "--true", "y", "--pred", "yhat", "--no-intervals",
            "-f", "json", *extra]
    labels, table = oracle(text_file, str)  # with scores: those of the text label '1'
    got = run_json(capsys, [*args, option("report", "column_types"), "y=string,yhat=string"])
    assert got["labels"] == labels == ["1", "1.0", "10", "2"]
    assert np.array_equal(got["counts"], table)
    if not extra:  # the control: without the option, the numbers pandas infers too
        labels, table = oracle(text_file, None)
        got = run_json(capsys, args)
        assert got["labels"] == labels and np.array_equal(got["counts"], table)


def test_report_by_group_reads_the_types_given(text_file, capsys):
    df = pd.read_csv(text_file, dtype={"y": str, "yhat": str})
    got = run_json(capsys, ["report", str(text_file), "--true", "y", "--pred", "yhat",
                            "--by", "g", "--no-intervals", "-f", "json",
                            "--column-type", "y=string", "--column-type", "yhat=string"])
    acc = {r["group"]: r["accuracy"] for r in got["rows"]}
    assert acc == {g: accuracy_score(part["y"], part["yhat"]) for g, part in df.groupby("g")}
    assert acc["a"] != 1.0  # read as numbers, "1" and "1.0" would agree


def test_compare_reads_the_types_given(text_file, capsys):
    labels, table = oracle(text_file, str)
    got = run_json(capsys, ["compare", str(text_file), "--true", "y", "--pred", "yhat,y",
                            "--no-intervals", "-f", "json", "--column-type",
                            "y=string,yhat=string"])
    first = got["reports"][0]
    assert first["labels"] == labels and np.array_equal(first["counts"], table)


def test_matrix_file_with_integer_labels_in_its_first_column(tmp_path, capsys):
    """A first column of labels 0, 1 reads as integers, so as one more count column (not
    square); read as text it names the true classes."""
    path = tmp_path / "counts.csv"
    path.write_text("true,0,1\n0,5,2\n1,3,7\n")
    assert main(["matrix", str(path), "--no-intervals"]) == 2
    capsys.readouterr()
    got = run_json(capsys, ["matrix", str(path), "--no-intervals", "-f", "json",
                            "--column-type", "true=string"])
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    assert got["counts"] == [[int(v) for v in r[1:]] for r in rows[1:]]
    assert [str(v) for v in got["labels"]] == rows[0][1:]


def test_a_typed_in_matrix_takes_no_column_type(capsys):
    line = main_line(capsys, ["matrix", "[[1,2],[3,4]]", "--column-type", "y=string"])
    assert "--column-type applies to a CSV file of counts" in line


@pytest.mark.parametrize("value", ["y", "=string", "y=", '"y=string', ",", "y=string,y=int64"])
def test_a_malformed_column_type_names_the_option(text_file, capsys, value):
    line = main_line(capsys, ["report", str(text_file), "--true", "y", "--pred", "yhat",
                              option("report", "column_types"), value])
    assert "'--column-type'" in line, line


# ------------------------------------------------------- column_types hints, both words
def _mixed_csv(d: Path) -> str:
    (d / "a.csv").write_text("y,p\n0,a\n1,b\n")
    (d / "b.csv").write_text("y,p\nx,a\n1,b\n01,a\n")
    return str(d / "*.csv")


def test_files_of_two_types_hint_the_option_that_reads_them(tmp_path, capsys):
    """The hint is typeable: its words, split as a shell does, make the command work, and the
    labels are the text Python's csv module reads."""
    pattern = _mixed_csv(tmp_path)
    said = python_message(lambda: evaluate_file(pattern, "y", "p"))
    assert f"{COLUMN_TYPES}={{'y': 'string'}}" in said
    args = ["report", pattern, "--true", "y", "--pred", "p", "--no-intervals"]
    line = main_line(capsys, args)
    hint = f"{option('report', 'column_types')} y=string"
    assert line.endswith(f"e.g. {hint}"), line
    no_python_words(line, COLUMN_TYPES)
    got = run_json(capsys, [*args, "-f", "json", *shlex.split(hint)])
    rows = [r for f in sorted(tmp_path.glob("*.csv")) for r in csv.DictReader(open(f))]
    labels = sorted({r["y"] for r in rows} | {r["p"] for r in rows})
    assert got["labels"] == labels
    assert np.array_equal(got["counts"], confusion_matrix([r["y"] for r in rows],
                                                          [r["p"] for r in rows],
                                                          labels=labels))


def test_a_json_lines_column_of_mixed_kinds_hints_the_option(tmp_path, capsys):
    path = tmp_path / "p.jsonl"
    path.write_text('{"y": 1.5, "yhat": "a"}\n{"y": "a", "yhat": "a"}\n')
    said = python_message(lambda: evaluate_file(path, "y", "yhat"))
    assert f"give its type with {COLUMN_TYPES}=, e.g. {COLUMN_TYPES}={{'y': 'string'}}" in said
    args = ["report", str(path), "--true", "y", "--pred", "yhat", "--no-intervals"]
    line = main_line(capsys, args)
    opt = option("report", "column_types")
    assert f"give its type with {opt}, e.g. {opt} y=string" in line, line
    no_python_words(line, COLUMN_TYPES)
    got = run_json(capsys, [*args, "-f", "json", opt, "y=string"])
    back = [json.loads(s) for s in path.read_text().splitlines()]
    labels = sorted({str(r["y"]) for r in back} | {r["yhat"] for r in back})
    assert got["labels"] == labels


def _npy(d: Path) -> Path:
    np.save(d / "a.npy", np.array([[0, 1], [1, 1]]))
    return d / "a.npy"


def _hive(d: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    (d / "ds" / "g=1").mkdir(parents=True)
    pq.write_table(pa.table({"y": [0, 1], "yhat": [0, 0]}), d / "ds" / "g=1" / "p.parquet")
    return d / "ds"


@pytest.mark.parametrize(("make", "true", "pred", "types", "python_words"), [
    (lambda d: d / "t.csv", "y", "yhat", {"zz": "string"}, "{} names ['zz']"),
    (lambda d: d / "t.csv", "y", "yhat", {"y": "text"}, "{}['y'] must be one of"),
    (_npy, "0", "1", {"0": "string"}, "{} applies to CSV and JSON lines files"),
    (_hive, "y", "yhat", {"y": "string"}, "{} names ['y'], which"),
], ids=["unknown column", "unknown type", "npy", "parquet column"])
def test_column_types_refusals_in_both_words(tmp_path, capsys, make, true, pred, types,
                                             python_words):
    (tmp_path / "t.csv").write_text(TEXT)
    path = make(tmp_path)
    said = python_message(lambda: evaluate_file(path, true, pred, column_types=types))
    assert python_words.format(COLUMN_TYPES) in said, said
    opt = option("report", "column_types")
    line = main_line(capsys, ["report", str(path), "--true", true, "--pred", pred,
                              "--no-intervals", opt, ",".join(f"{k}={v}"
                                                              for k, v in types.items())])
    assert opt in line, line
    no_python_words(line, COLUMN_TYPES)
    if "must be one of" in python_words:
        assert f"{opt} y=text: the type must be one of" in line


# ------------------------------------------------------------------------ where
WHERES = [("y < now()", "ALLOWED_FUNCTIONS"), ("(SELECT 1) = 1", "ALLOWED_EXPRESSIONS"),
          ("CAST(y AS INET) = 1", "ALLOWED_TYPES"), ("user = 'x'", "VALUE_FUNCTION_NAMES")]


@pytest.mark.parametrize(("where", "listed"), WHERES, ids=[w[1] for w in WHERES])
def test_where_refusals_point_at_the_command_that_lists_what_is_allowed(text_file, capsys,
                                                                        where, listed):
    said = python_message(lambda: evaluate_file(text_file, "y", "yhat", where=where))
    assert f"confmat.inputs.where.{listed}" in said, said
    line = main_line(capsys, ["report", str(text_file), "--true", "y", "--pred", "yhat",
                              option("report", "where"), where])
    assert "confmat.inputs" not in line and "ALLOWED" not in line, line
    named = re.findall(r"'confmat (\w+)'", line)
    assert named == ["where"] and "where" in cli.commands, line


def _blocks(text: str) -> dict[str, list[str]]:
    """The text of ``confmat where``: each block's title -> the names it lists."""
    out = {}
    for block in text.strip().split("\n\n"):
        title, *body = block.split("\n")
        out[title] = body
    return out


def test_confmat_where_lists_exactly_the_allow_lists(capsys):
    from confmat.inputs.where import (
        ALLOWED_EXPRESSIONS,
        ALLOWED_FUNCTIONS,
        ALLOWED_TYPES,
        VALUE_FUNCTION_NAMES,
    )

    got = run_json(capsys, ["where", "--json"])
    assert set(got) == {"expressions", "functions", "types", "quoted_names"}
    assert {c: set(k) for c, k in got["expressions"].items()} == \
        {c: set(k) for c, k in ALLOWED_EXPRESSIONS.items()}
    assert set(got["functions"]) == set(ALLOWED_FUNCTIONS)
    assert len(got["functions"]) == len(ALLOWED_FUNCTIONS)
    assert set(got["types"]) == set(ALLOWED_TYPES)
    assert set(got["quoted_names"]) == set(VALUE_FUNCTION_NAMES)
    # the text lists the same, block by block
    assert main(["where"]) == 0
    blocks = _blocks(capsys.readouterr().out)
    lists = {}
    for title, body in blocks.items():
        if title.split(" ", 1)[1].startswith("classes of expression"):
            exprs = {}
            joined = " ".join(s.strip() for s in body)
            for cls in ALLOWED_EXPRESSIONS:
                m = re.search(rf"(?:^| ){cls}: ([^:]*?)(?= [A-Z_]+:|$)", joined)
                assert m is not None, (cls, joined)
                exprs[cls] = set(m.group(1).split(", "))
            lists["expressions"] = exprs
        else:
            names = " ".join(s.strip() for s in body).split(", ")
            assert int(title.split(" ", 1)[0]) == len(names), title
            lists[title.split(" ", 2)[1]] = set(names)
    assert lists["expressions"] == {c: set(k) for c, k in ALLOWED_EXPRESSIONS.items()}
    assert lists["functions"] == set(ALLOWED_FUNCTIONS)
    assert lists["types"] == set(ALLOWED_TYPES)
    assert lists["names"] == set(VALUE_FUNCTION_NAMES)


# ----------------------------------------------------------------- PyCM keys, explain
def test_metrics_pycm_lists_exactly_the_pycm_keys(capsys):
    table = confmat.metrics.pycm_keys()
    words = confmat.metrics.pycm_interpretations()  # the interpretation keys, with a scale
    got = run_json(capsys, ["metrics", "--pycm", "--json"])
    assert {(e["table"], e["key"]) for e in got} == set(table) | {
        (e.table, k) for k, e in words.items()}
    assert sorted(map(json.dumps, got)) == sorted(
        [json.dumps(e.describe(), default=str) for es in table.values() for e in es]
        + [json.dumps(e.describe()) for e in words.values()])
    assert main(["metrics", "--pycm"]) == 0
    text = capsys.readouterr().out
    assert all(key in text for _, key in table) and all(key in text for key in words)
    assert f"{sum(map(len, table.values())) + len(words)} PyCM statistics" in text
    got = run_json(capsys, ["metrics", "--pycm", "--kind", "overall", "kappa", "--json"])
    assert {(e["table"], e["key"]) for e in got} == {
        (t, k) for (t, k), es in table.items() if t == "overall"
        and any("kappa" in k.lower() or "kappa" in e.metric for e in es)} | {
        (e.table, k) for k, e in words.items() if e.table == "overall"
        and ("kappa" in k.lower() or "kappa" in e.metric)}


def test_explain_points_at_the_pycm_listing(capsys):
    said = python_message(lambda: confmat.explain("tpr_macr"))
    assert "confmat.metrics.pycm_keys() the PyCM keys" in said
    line = main_line(capsys, ["explain", "tpr_macr"])
    named = re.findall(r"'confmat ([^']+)'", line)
    assert "metrics --pycm" in named and "metrics" in named, line
    assert "pycm" in {p.name for p in cli.commands["metrics"].params}
    assert "confmat.metrics" not in line and "confmat.list_metrics" not in line


# ------------------------------------------------------------------ report warnings
def _swapped(tmp_path: Path, other: str) -> tuple[Path, list[str], list[float]]:
    """Scores that rank the class b below ``other`` (ROC AUC 0 for b)."""
    y, p = [other, "b", "b", other], [0.9, 0.2, 0.3, 0.6]
    path = tmp_path / "s.csv"
    pd.DataFrame({"y": y, "yhat": y, "p": p}).to_csv(path, index=False)
    return path, y, p


def _swapped_warning(capsys, path: Path, extra: list[str]) -> tuple[str, dict]:
    got = run_json(capsys, ["report", str(path), "--true", "y", "--pred", "yhat", "--score",
                            "p", "--no-intervals", "-f", "json", *extra])
    return next((w for w in got["warnings"] if "below 0.5" in w), ""), got


def test_the_swapped_scores_warning_names_the_callers_option(tmp_path, capsys):
    """ROC AUC below 0.5 for the class b: the warning suggests the other class, as
    ``pos_label='a'`` in Python and ``--pos-label a`` on the command line (a value a shell
    user pastes, unquoted where the shell needs no quotes)."""
    path, y, p = _swapped(tmp_path, "a")
    rep = build_report(confmat.ConfusionMatrix.from_predictions(y, y), y_true=y, y_score=p,
                       pos_label="b", intervals=False)
    warning = next(w for w in rep.warnings if "below 0.5" in w)
    assert f"pass {takes(build_report, 'pos_label')}='a'" in warning
    assert "--pos-label" not in warning
    pos = option("report", "pos_label")
    warning, _ = _swapped_warning(capsys, path, [pos, "b"])
    assert f"Then give {pos} a, or use 1 - score" in warning, warning
    no_python_words(warning, "pos_label")


@pytest.mark.parametrize("other", ["no way", "it's", "a;b", "$x", "-", "C:\\temp",
                                   "say \"it's\""])
def test_the_swapped_scores_hint_pastes_into_a_shell(tmp_path, capsys, other):
    """A class the shell would split or read otherwise is quoted as the shell reads it back
    (Python's ``shlex.split``, the POSIX shell's word splitting), and the command given the
    hint's words scores that class: ROC AUC by scikit-learn. (Python's quotes, which the hint
    used to show, read back otherwise for a backslash or for both kinds of quote.)"""
    from sklearn.metrics import roc_auc_score

    path, y, p = _swapped(tmp_path, other)
    pos = option("report", "pos_label")
    warning, _ = _swapped_warning(capsys, path, [pos, "b"])
    hint = re.search(r"Then give (.*), or use 1 - score$", warning)
    assert hint is not None, warning
    words = shlex.split(hint.group(1))
    assert words == [pos, other], (hint.group(1), words)
    warning, got = _swapped_warning(capsys, path, words)
    assert warning == ""
    curve = next(c for c in got["curves"] if c["pos_label"] == other)
    assert curve["auc"] == pytest.approx(roc_auc_score([v == other for v in y], p))


@pytest.mark.parametrize("value", [1, -1, True, 0.5, "", "a b", "x=1,y", "C:\\temp"])
def test_a_hint_gives_the_value_as_a_shell_reads_it_back(value):
    """``give`` in the command line's words: the words a shell splits the hint into
    (``shlex.split``) are the option and the value's text; in Python ``pass name=value``."""
    from confmat import words
    from confmat.cli.command import vocabulary

    ctx = cli.commands["report"].make_context("report", ["f.csv", "--true", "y", "--pred",
                                                         "yhat"])
    with words.speaking(vocabulary(ctx)):
        said = words.give("pos_label", value)
    assert shlex.split(said) == ["give", option("report", "pos_label"), str(value)], said
    assert words.give("pos_label", value) == f"pass pos_label={value!r}"


# ------------------------------------------------------------ hints with no other test
def test_an_infinite_hive_date_hints_the_option_that_reads_it_as_text(tmp_path, capsys):
    """DuckDB reads the partition values 2024-01-02 and inf as DATE, inf an infinite date
    that Arrow and Python cannot hold: one line naming the key, its directory's value and the
    option to type (exit status 2, no traceback); typed as the shell splits it, the groups
    are the directory names (the oracle: the paths written here)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    root = tmp_path / "ds"
    parts = {"2024-01-02": ([0, 1, 1], [0, 1, 0]), "inf": ([1, 0], [1, 1])}
    for value, (y, yhat) in parts.items():
        (root / f"g={value}").mkdir(parents=True)
        pq.write_table(pa.table({"y": y, "yhat": yhat}), root / f"g={value}" / "p.parquet")
    args = ["report", str(root), "--true", "y", "--pred", "yhat", "--by", "g",
            "--no-intervals"]
    opt = option("report", "column_types")
    line = main_line(capsys, args)
    hint = f"give {opt} g=string"
    assert line == (f"confmat: error: file {str(root)!r}: the hive partition 'g' reads as "
                    "DATE, and its value 'inf' as an infinite date, which Arrow and Python "
                    f"cannot hold; {hint} to read the key as text"), line
    no_python_words(line, COLUMN_TYPES)
    got = run_json(capsys, [*args, "-f", "json", *shlex.split(hint)[1:]])
    sizes = {r["group"]: r["size"] for r in got["rows"]}
    assert sizes == {v: len(y) for v, (y, _) in parts.items()}


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_labels_of_two_kinds_inferred_by_the_engine_note_the_option(tmp_path, capsys,
                                                                    suffix):
    """A CSV or JSON lines file whose true labels read as numbers and predictions as text:
    the door refuses the mix (a TypeError), and the line notes that the types were inferred
    and which option sets them (exit status 2, no traceback); given as text, the file is
    counted as Python's csv / json modules read it, by scikit-learn."""
    rows = [(0, "a"), (1, "b"), (0, "a"), (1, "a")]
    path = tmp_path / f"m{suffix}"
    if suffix == ".csv":
        path.write_text("y,yhat\n" + "".join(f"{a},{b}\n" for a, b in rows))
    else:
        path.write_text("".join(json.dumps({"y": a, "yhat": b}) + "\n" for a, b in rows))
    opt = option("report", "column_types")
    args = ["report", str(path), "--true", "y", "--pred", "yhat", "--no-intervals"]
    line = main_line(capsys, args)
    true, pred = option("report", "true_col"), option("report", "pred_col")
    assert line == (f"confmat: error: file {str(path)!r}: the {true} column with the {pred} "
                    "column mixes label types that cannot be ordered together: "
                    "['number', 'string'] (the engine inferred the column types; "
                    f"{opt} can set them)"), line
    no_python_words(line, COLUMN_TYPES)
    got = run_json(capsys, [*args, "-f", "json", opt, "y=string"])
    y, yhat = [str(a) for a, _ in rows], [b for _, b in rows]
    labels = sorted(set(y) | set(yhat))
    assert got["labels"] == labels
    assert np.array_equal(got["counts"], confusion_matrix(y, yhat, labels=labels))
