"""One score column beside three or more classes in a file: with ``pos_label`` that class
against the rest, on the counted path (DuckDB's ``GROUP BY``: CSV, Parquet) and the streamed
one (Arrow IPC), in one pass over the file; the K x K table from the label columns.

Oracles, computed here from the rows written: numpy's ``histogram`` of the positive class's
scores (and of every other class's) over the documented edges ``j / bins``; scikit-learn's
``roc_auc_score(y == pos, q)`` on the scores rounded down to their bin's lower edge (the
histogram's tie rule, docs/scaling.md: exact at bin edges) and on the raw scores within the
stated error bound; scikit-learn's ``confusion_matrix`` for the table; the stray label and
its data row placed by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, roc_auc_score

from confmat import io as cio
from confmat.binned import ScoreHistogram
from io_files import floor_to_bin

FORMATS = {"csv": "duckdb GROUP BY", "parquet": "duckdb GROUP BY", "arrow": "pyarrow dataset"}


def _write(path: Path, frame: pd.DataFrame) -> Path:
    if path.suffix == ".csv":
        frame.to_csv(path, index=False)  # floats written shortest-round-trip (repr)
    elif path.suffix == ".parquet":
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path,
                       row_group_size=37)
    else:
        feather.write_feather(pa.Table.from_pandas(frame, preserve_index=False), str(path))
    return path


@st.composite
def files(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    k = draw(st.integers(3, 5))
    n = draw(st.integers(k + 2, 150))
    names = (np.array([f"c{i}" for i in range(k)]) if draw(st.booleans())
             else np.arange(k) * 3 - 2)  # text labels, or the integers -2, 1, 4, ...
    y = names[rng.permutation(np.r_[np.arange(k), rng.integers(0, k, n - k)])]
    p = names[rng.integers(0, k, n)]
    pos = names[draw(st.integers(0, k - 1))].item()
    s = np.clip(rng.normal(0.35 + 0.3 * (y == pos), 0.25), 0.0, 1.0)
    if draw(st.booleans()):
        s = np.round(s, 1)  # many scores exactly on bin edges
    w = np.round(rng.random(n) * 3, 2) if draw(st.booleans()) else None
    return {"y": y, "p": p, "s": s, "w": w, "pos": pos,
            "bins": draw(st.sampled_from([1, 3, 10, 97, 1000])),
            "fmt": draw(st.sampled_from(sorted(FORMATS))),
            "fixed": draw(st.booleans()), "batch_rows": draw(st.sampled_from([7, 1000]))}


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files())
def test_one_score_column_with_pos_label_is_one_vs_rest(tmp_path_factory, case):
    y, p, s, w, pos, bins = (case[c] for c in ("y", "p", "s", "w", "pos", "bins"))
    frame = pd.DataFrame({"y": y, "yhat": p, "s": s})
    if w is not None:
        frame["w"] = w
    path = _write(tmp_path_factory.mktemp("ovr") / f"f.{case['fmt']}", frame)
    classes = sorted(set(y.tolist()) | set(p.tolist()))
    cm, rep = cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=bins, pos_label=pos,
                                weight_col=None if w is None else "w",
                                labels=classes if case["fixed"] else None,
                                batch_rows=case["batch_rows"])
    assert rep.engine == FORMATS[case["fmt"]]
    # the K x K table of the label columns
    assert cm.labels == classes
    np.testing.assert_allclose(cm.counts, confusion_matrix(y, p, labels=classes,
                                                           sample_weight=w))
    hist = rep.curves
    assert hist.is_binary and hist.labels[1] == pos and hist.bins == bins
    edges = np.arange(bins + 1) / bins
    is_pos = y == pos
    for row, mask in ((1, is_pos), (0, ~is_pos)):
        want, _ = np.histogram(s[mask], bins=edges, weights=None if w is None else w[mask])
        np.testing.assert_allclose(hist.counts[row, 0], want, rtol=1e-12, atol=1e-12)
    if w is None:  # docs/scaling.md: the histogram ScoreHistogram(pos_label=) makes in memory
        assert hist == ScoreHistogram(bins=bins, pos_label=pos).update(y, s)
    ww = np.ones(len(y)) if w is None else w
    if ww[is_pos].sum() > 0 and ww[~is_pos].sum() > 0:
        q = floor_to_bin(s, bins)
        assert hist.roc_auc() == pytest.approx(roc_auc_score(is_pos, q, sample_weight=w),
                                               abs=1e-12)
        exact = roc_auc_score(is_pos, s, sample_weight=w)
        assert abs(hist.roc_auc() - exact) <= hist.auc_error_bound() + 1e-12


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_stray_prediction_is_named_by_the_one_rule_and_its_data_row(tmp_path, fmt):
    """Before: 'a third class' (counted path) or 'one score column per class' (streamed).
    Data row 3 has no score and is skipped, so the stray label's row (7) is not its
    position among the rows read (5)."""
    y = ["a", "b", "c", "a", "b", "c", "a", "b"]
    p = ["a", "b", "c", "c", "a", "b", "eggs", "eggs"]
    s = [0.1, 0.2, None, 0.4, 0.5, 0.6, 0.7, 0.8]
    path = _write(tmp_path / f"f.{fmt}", pd.DataFrame({"y": y, "yhat": p, "s": s}))
    with pytest.raises(ValueError) as err:
        cio.evaluate_file(path, "y", "yhat", score_cols="s", pos_label="c", skip_invalid=True,
                          bins=10, batch_rows=2)
    assert str(err.value) == (
        f"file {str(path)!r}: column 'yhat' holds label 'eggs' (first in data row 7), which is "
        "not one of the classes of column 'y' ['a', 'b', 'c']; the scores (column 's') are "
        "scores of the classes of column 'y'")
    # a truth of {0, 1} (the scores of 1 by the default rule) beside a predicted 2
    path = _write(tmp_path / f"g.{fmt}", pd.DataFrame(
        {"y": [0, 1, 0, 1], "yhat": [0, 1, 2, 1], "s": [0.2, 0.9, 0.4, 0.7]}))
    with pytest.raises(ValueError, match=r"column 'yhat' holds label 2 \(first in data row 3\), "
                                         r"which is not one of the classes of column 'y' "
                                         r"\[0, 1\]"):
        cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=10)


def test_without_pos_label_the_counted_and_streamed_paths_say_one_thing(tmp_path):
    frame = pd.DataFrame({"y": ["a", "b", "c", "a"], "yhat": ["a", "b", "c", "c"],
                          "s": [0.1, 0.5, 0.9, 0.3]})
    said = set()
    for fmt in sorted(FORMATS):
        path = _write(tmp_path / f"f.{fmt}", frame)
        with pytest.raises(ValueError) as err:
            cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=10)
        said.add(str(err.value).replace(str(path), "FILE"))
    assert said == {
        "file 'FILE': 1 score column ['s'] but the labels are ['a', 'b', 'c']; give one score "
        "column per class, in label order, or pos_label, the class the one column scores (a "
        "binary problem: that class against every other)"}
    # fixed labels, streamed: the same words
    path = tmp_path / "f.arrow"
    with pytest.raises(ValueError, match=re.escape(said.pop().replace("FILE", str(path)))):
        cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=10, labels=["a", "b", "c"])


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_pos_label_that_is_no_true_class_is_refused(tmp_path, fmt):
    """'d' is only predicted: one column of its scores would have no positive sample (the
    read-whole command line and ScoreHistogram(pos_label='d') refuse it too)."""
    path = _write(tmp_path / f"f.{fmt}", pd.DataFrame(
        {"y": ["a", "b", "c", "a"], "yhat": ["a", "b", "d", "c"], "s": [0.1, 0.5, 0.9, 0.3]}))
    with pytest.raises(ValueError, match=r"pos_label='d' is not one of the labels in column 'y'"
                                         r" of file .*\['a', 'b', 'c'\]"):
        cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=10, pos_label="d")


@pytest.mark.parametrize("fixed", [False, True])
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_two_labels_the_column_scores_pos_label_even_the_first(tmp_path, fmt, fixed):
    """Before: two labels gave the histogram of the second label whatever pos_label said
    (``report --bins --pos-label ham`` drew the curve of 'spam', AUC 1 - the right one)."""
    rng = np.random.default_rng(3)
    n = 120
    y = np.array(["ham", "spam"])[rng.integers(0, 2, n)]
    p = np.array(["ham", "spam"])[rng.integers(0, 2, n)]
    s = np.round(np.clip(0.3 * (y == "ham") + rng.random(n) * 0.7, 0, 1), 2)
    path = _write(tmp_path / f"f.{fmt}", pd.DataFrame({"y": y, "yhat": p, "s": s}))
    for pos in ("ham", "spam"):
        cm, rep = cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=20, pos_label=pos,
                                    labels=["ham", "spam"] if fixed else None, batch_rows=16)
        assert cm.counts.tolist() == confusion_matrix(y, p, labels=["ham", "spam"]).tolist()
        hist = rep.curves
        assert hist.labels[1] == pos
        want, _ = np.histogram(s[y == pos], bins=np.arange(21) / 20)
        assert hist.counts[1, 0].tolist() == want.tolist()
        assert hist.roc_auc() == pytest.approx(roc_auc_score(y == pos, floor_to_bin(s, 20)),
                                               abs=1e-12)


def test_evaluate_sql_reads_one_column_as_one_class_against_the_rest():
    import duckdb

    rng = np.random.default_rng(11)
    n = 200
    y = rng.integers(0, 4, n)
    p = rng.integers(0, 4, n)
    s = np.round(np.clip(0.3 * (y == 2) + rng.random(n) * 0.7, 0, 1), 3)
    con = duckdb.connect()
    con.register("frame", pd.DataFrame({"y": y, "yhat": p, "s": s}))
    cm, rep = cio.evaluate_sql(con, "select y, yhat, s from frame", score_cols="s", bins=1000,
                               pos_label=2)
    assert rep.engine == "duckdb GROUP BY"
    assert cm.counts.tolist() == confusion_matrix(y, p, labels=[0, 1, 2, 3]).tolist()
    assert rep.curves.labels == [0, 2]  # ScoreHistogram(pos_label=2): every other class is 0
    assert rep.curves.roc_auc() == pytest.approx(roc_auc_score(y == 2, floor_to_bin(s, 1000)),
                                                 abs=1e-12)
