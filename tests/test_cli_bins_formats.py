"""``report --score --bins`` decides and speaks alike on every format: the same small data
written as CSV (counted by DuckDB's ``GROUP BY``), as Arrow IPC and as ``.npz`` (both streamed
in batches) is refused by all three with the same message, the file's name aside, or accepted
by all three with the same matrix and the same positive class. A stray predicted label is also
named as the read-whole path (no ``--bins``) names it.

Before: on the streamed formats a truth of one class {1} beside a predicted 2 and no
``--pos-label`` was refused (the histogram did not carry the class 1 it was counted for) where
the CSV was accepted; and the read-whole path named a stray label ``--pred column 'yhat'``
where ``--bins`` said ``file '...': column 'yhat'``.

Oracles, none of them confmat: which positive class the column has, written from the rule as
docs/cli.md states it (labels within {0, 1} imply 1, other labels need --pos-label, which must
be a class of the --true column); which predictions are stray, tests/stray_rule.py; the
matrix, scikit-learn's ``confusion_matrix`` on pandas' read of the CSV. The Arrow and NumPy
files are written by pyarrow and numpy from the drawn values, not from confmat's read.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

from confmat.cli.app import main
from stray_rule import positive_class, scored_classes

pa = pytest.importorskip("pyarrow")
feather = pytest.importorskip("pyarrow.feather")

UNIVERSES = ([0, 1, 2], [1, 2, 3], ["a", "b", "c"])
FORMATS = ("p.csv", "p.arrow", "p.npz")

Case = tuple[list[Any], list[Any], list[float], Any]


@st.composite
def cases(draw: Any) -> Case:
    """Truth and predictions of 1 to 3 label values each, scores in [0, 1], a --pos-label
    or none."""
    values = draw(st.sampled_from(UNIVERSES))
    truth = draw(st.lists(st.sampled_from(values), min_size=1, max_size=3, unique=True))
    preds = draw(st.lists(st.sampled_from(values), min_size=1, max_size=3, unique=True))
    n = draw(st.integers(1, 8))
    y = [draw(st.sampled_from(truth)) for _ in range(n)]
    p = [draw(st.sampled_from(preds)) for _ in range(n)]
    s = [draw(st.integers(0, 20)) / 20 for _ in range(n)]
    pos = draw(st.none() | st.sampled_from(values))
    return y, p, s, pos


def _column(values: list[Any]) -> np.ndarray:
    return np.array(values, dtype=np.int64 if isinstance(values[0], int) else str)


def _write(tmp: Path, name: str, y: list[Any], p: list[Any], s: list[float]) -> Path:
    path = tmp / name
    if name.endswith(".csv"):
        path.write_text("y,yhat,p\n" + "".join(f"{a},{b},{c:.2f}\n" for a, b, c in
                                                zip(y, p, s, strict=True)))
    elif name.endswith(".arrow"):
        feather.write_feather(pa.table({"y": y, "yhat": p, "p": pa.array(s, pa.float64())}),
                              str(path))
    else:
        np.savez(path, y=_column(y), yhat=_column(p), p=np.array(s, dtype=np.float64))
    return path


def _run(capsys: Any, path: Path, pos: Any, binned: bool = True) -> tuple[int, str, str]:
    args = ["report", str(path), "--true", "y", "--pred", "yhat", "--score", "p",
            "--no-intervals", "-f", "json"]
    if pos is not None:
        args += ["--pos-label", str(pos)]
    if binned:
        args += ["--bins", "10"]
    code = main(args)
    out = capsys.readouterr()
    # the file's name is the one thing that may differ between formats
    return code, out.out, out.err.replace(str(path), "<FILE>")


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=cases())
@example(case=([1, 1, 1], [1, 2, 1], [0.9, 0.2, 0.7], None))  # the case of the report
@example(case=([0, 0], [0, 2], [0.1, 0.8], None))  # a stray 2 beside a truth of 0
@example(case=(["a", "a"], ["a", "b"], [0.1, 0.8], "a"))  # the first label is positive
def test_csv_arrow_and_npz_accept_and_refuse_alike(case: Case, capsys: Any) -> None:
    y_drawn, p_drawn, s, pos = case
    with tempfile.TemporaryDirectory() as tmp:
        paths = [_write(Path(tmp), name, y_drawn, p_drawn, s) for name in FORMATS]
        df = pd.read_csv(paths[0])
        y, p = df["y"].tolist(), df["yhat"].tolist()
        runs = {path.suffix: _run(capsys, path, pos) for path in paths}
        whole = _run(capsys, paths[0], pos, binned=False)

    codes = {k: r[0] for k, r in runs.items()}
    resolved, cls = positive_class(set(y), pos)
    stray = [i for i, v in enumerate(p) if v not in scored_classes(y, p, cls)] if resolved else []
    if not resolved or stray:
        assert set(codes.values()) == {2}, runs
        errs = {r[2] for r in runs.values()}
        assert len(errs) == 1, runs  # one message, whatever the format
        err = errs.pop()
        assert "Traceback" not in err and err.count("\n") == 1, err
        if not resolved:  # the hint in the command line's words, read whole the same line
            assert "--pos-label" in err and "pos_label" not in err.replace("--pos-label", ""), err
            assert whole[0] == 2 and whole[2] == err, (whole, err)
            return
        first = stray[0]
        assert (f"<FILE>': column 'yhat' holds label {p[first]!r} (first in data row "
                f"{first + 1}), which is not one of the classes of column 'y' "
                f"{sorted(set(y))}") in err, err
        assert whole[0] == 2 and whole[2] == err, (whole, err)  # read whole: the same line
        return
    labels = sorted(set(y) | set(p))
    expected = confusion_matrix(y, p, labels=labels).tolist()
    assert set(codes.values()) == {0}, runs
    for code, out, err in [*runs.values(), whole]:
        assert code == 0, err
        d = json.loads(out)
        assert d["labels"] == labels
        assert d["counts"] == expected
        assert d["curves"][0]["pos_label"] == cls
