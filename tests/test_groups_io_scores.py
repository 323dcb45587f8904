"""ROC AUC and average precision by group from a file counted in one ``GROUP BY group, true,
pred, bin`` (``evaluate_file(group_cols=, score_cols=, bins=)``, ``report --by --score
--bins``): one score histogram per group, binary and one class against the rest.

Oracles, computed here from the rows written: numpy's ``histogram`` of each group's positive
and negative scores over the documented edges ``j / bins``; scikit-learn's ``roc_auc_score``
and ``average_precision_score`` on that group's scores rounded down to their bin's lower edge
(the histogram's tie rule, docs/scaling.md); scikit-learn's ``confusion_matrix`` for each
group's K x K table; stray labels, rows and messages placed by hand.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, confusion_matrix, roc_auc_score

pytest.importorskip("duckdb")

from confmat import io as cio
from confmat.cli import main
from io_files import floor_to_bin


def _write(path: Path, frame: pd.DataFrame) -> Path:
    if path.suffix == ".csv":
        frame.to_csv(path, index=False)
    else:
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path,
                       row_group_size=37)
    return path


@st.composite
def files(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    k = draw(st.sampled_from([2, 2, 3, 4]))
    n = draw(st.integers(k + 2, 120))
    names = (np.array([f"c{i}" for i in range(k)]) if draw(st.booleans())
             else np.arange(k))
    y = names[rng.permutation(np.r_[np.arange(k), rng.integers(0, k, n - k)])]
    p = names[rng.integers(0, k, n)]
    pos = names[draw(st.integers(0, k - 1))].item()
    s = np.clip(rng.normal(0.35 + 0.3 * (y == pos), 0.25), 0.0, 1.0)
    if draw(st.booleans()):
        s = np.round(s, 1)  # many scores exactly on bin edges
    g = np.array(["a", "b", "c", "d"])[rng.integers(0, draw(st.integers(1, 4)), n)]
    w = np.round(rng.random(n) * 3, 2) if draw(st.booleans()) else None
    return {"y": y, "p": p, "s": s, "g": g, "w": w, "pos": pos, "k": k,
            "bins": draw(st.sampled_from([1, 3, 10, 97])),
            "fmt": draw(st.sampled_from(["csv", "parquet"]))}


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files())
def test_each_group_has_the_histogram_auc_ap_and_table_of_its_rows(tmp_path_factory, case):
    y, p, s, g, w, pos, bins = (case[c] for c in ("y", "p", "s", "g", "w", "pos", "bins"))
    frame = pd.DataFrame({"y": y, "yhat": p, "s": s, "g": g})
    if w is not None:
        frame["w"] = w
    path = _write(tmp_path_factory.mktemp("gs") / f"f.{case['fmt']}", frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev, rep = cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=bins,
                                    group_cols=["g"], pos_label=pos,
                                    weight_col=None if w is None else "w")
        auc, ap = ev.metric("roc_auc"), ev.metric("average_precision")
    assert rep.engine == "duckdb GROUP BY"
    classes = sorted(set(y.tolist()) | set(p.tolist()))
    assert ev.labels == classes
    keys = sorted(set(g.tolist()))
    assert ev.groups == keys
    edges = np.arange(bins + 1) / bins
    q = floor_to_bin(s, bins)
    ww = np.ones(len(y)) if w is None else w
    for i, key in enumerate(keys):
        m = g == key
        wm = None if w is None else w[m]
        np.testing.assert_allclose(ev.stack[i], confusion_matrix(y[m], p[m], labels=classes,
                                                                 sample_weight=wm))
        hist = ev.scores.histograms[i]
        assert hist.labels[1] == pos
        is_pos = y[m] == pos
        for row, mask in ((1, is_pos), (0, ~is_pos)):
            want, _ = np.histogram(s[m][mask], bins=edges,
                                   weights=None if wm is None else wm[mask])
            np.testing.assert_allclose(hist.counts[row, 0], want, rtol=1e-12, atol=1e-12)
        n_pos, n_neg = ww[m][is_pos].sum(), ww[m][~is_pos].sum()
        if n_pos > 0 and n_neg > 0:
            assert auc[i] == pytest.approx(roc_auc_score(is_pos, q[m], sample_weight=wm),
                                           abs=1e-12)
        else:
            assert math.isnan(auc[i])
        if n_pos > 0:
            assert ap[i] == pytest.approx(
                average_precision_score(is_pos, q[m], sample_weight=wm), abs=1e-12)
    # the overall value is that of every group's rows pooled
    is_pos = y == pos
    if ww[is_pos].sum() > 0 and ww[~is_pos].sum() > 0:
        assert ev.overall_metric("roc_auc") == pytest.approx(
            roc_auc_score(is_pos, q, sample_weight=w), abs=1e-12)
        assert rep.curves.roc_auc() == pytest.approx(ev.overall_metric("roc_auc"), abs=1e-15)


def test_a_group_of_one_class_has_no_auc_in_the_library_and_in_json(tmp_path, capsys):
    y = [0, 1, 0, 1, 1, 1, 1]
    p = [0, 1, 1, 1, 0, 1, 1]
    s = [0.1, 0.85, 0.6, 0.3, 0.2, 0.9, 0.55]
    g = ["a", "a", "a", "a", "b", "b", "b"]
    path = _write(tmp_path / "f.csv", pd.DataFrame({"y": y, "yhat": p, "s": s, "g": g}))
    with pytest.warns(Warning, match="undefined in 1 group"):
        ev, _ = cio.evaluate_file(path, "y", "yhat", score_cols="s", group_cols="g", bins=10)
        auc = ev.metric("roc_auc")
    # group a: positives in bins 8, 3; negatives in bins 1, 6 (pairs: 1, 1, 1, 0 of 4)
    assert auc[0] == pytest.approx(roc_auc_score([0, 1, 0, 1], [0.1, 0.8, 0.6, 0.3]))
    assert math.isnan(auc[1])
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "s",
                 "--bins", "10", "--by", "g", "--group-metrics", "roc_auc", "--format",
                 "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["roc_auc"] for r in out["rows"]][1] is None  # docs/groups.md: null in JSON


def test_null_scores_are_skipped_by_reason_and_intervals_refused(tmp_path):
    frame = pd.DataFrame({"y": [0, 1, 0, 1, 0], "yhat": [0, 1, 1, 1, 0],
                          "s": [0.2, None, 0.7, 0.9, 0.1], "g": ["a", "a", "b", "b", "b"]})
    path = _write(tmp_path / "f.csv", frame)
    with pytest.raises(ValueError, match=r"row 2.*'s'"):
        cio.evaluate_file(path, "y", "yhat", score_cols="s", group_cols="g", bins=10)
    ev, rep = cio.evaluate_file(path, "y", "yhat", score_cols="s", group_cols="g", bins=10,
                                skip_invalid=True)
    assert rep.rows_read == 4 and rep.skipped_row_numbers == [2]
    assert list(rep.skipped_by_reason.values()) == [1]
    assert ev.sizes.tolist() == [1, 3]
    with pytest.raises(ValueError, match="no interval: DeLong's variance and the bootstrap"):
        ev.ci("roc_auc")
    with pytest.raises(ValueError, match="no interval"):
        ev.difference("average_precision", ci=True)
    with pytest.raises(ValueError, match="one score column"):
        cio.evaluate_file(path, "y", "yhat", score_cols=["s", "s"], group_cols="g")


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_stray_prediction_beside_one_column_is_named_with_its_row(tmp_path, fmt):
    y = ["a", "b", "c", "a", "b", "c", "a"]
    p = ["a", "b", "c", "c", "a", "eggs", "b"]
    s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
    g = ["x", "y", "x", "y", "x", "y", "x"]
    path = _write(tmp_path / f"f.{fmt}", pd.DataFrame({"y": y, "yhat": p, "s": s, "g": g}))
    with pytest.raises(ValueError, match=r"column 'yhat' holds label 'eggs' \(first in data "
                                         r"row 6\)"):
        cio.evaluate_file(path, "y", "yhat", score_cols="s", pos_label="c", group_cols="g",
                          bins=10)


@pytest.fixture
def binary_file(tmp_path):
    rng = np.random.default_rng(5)
    n = 200
    y = rng.choice(["ham", "spam"], n)
    frame = pd.DataFrame({"y": y, "yhat": rng.choice(["ham", "spam"], n),
                          "s": np.round(np.clip(rng.normal(0.4 + 0.2 * (y == "spam"), 0.2),
                                                0, 1), 3),
                          "g": rng.choice(["f", "m"], n)})
    return _write(tmp_path / "b.csv", frame), frame


@pytest.mark.parametrize("pos", ["spam", "ham"])
def test_cli_json_roc_auc_by_group_is_the_library_s(binary_file, capsys, pos):
    path, frame = binary_file
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "s",
                 "--bins", "50", "--by", "g", "--pos-label", pos, "--group-metrics",
                 "roc_auc,average_precision", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ev, _ = cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=50, group_cols="g",
                              pos_label=pos)
    assert [r["roc_auc"] for r in out["rows"]] == ev.metric("roc_auc").tolist()
    assert [r["average_precision"] for r in out["rows"]] == \
        ev.metric("average_precision").tolist()
    q = floor_to_bin(frame["s"].to_numpy(), 50)
    for r in out["rows"]:  # and scikit-learn's on the floored scores, the class --pos-label
        m = (frame["g"] == r["group"]).to_numpy()
        assert r["roc_auc"] == pytest.approx(roc_auc_score(frame["y"][m] == pos, q[m]),
                                             abs=1e-12)


@pytest.mark.parametrize(("args", "message"), [
    (["--bins", "10"], "--bins applies to score columns; give --score"),
    (["--score", "s", "--bins", "10", "--pos-label", "spam", "--disparity-metric", "roc_auc"],
     "has no interval"),
    (["--score", "s", "--scores", "s", "--bins", "10"], "not --scores"),
    (["--score", "s", "--bins", "10", "--pos-label", "eggs"], "'eggs'"),
])
def test_cli_errors_exit_2_without_traceback(binary_file, capsys, args, message):
    path, _ = binary_file
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--by", "g",
                 *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cli_score_outside_the_range_exits_2_naming_the_row(tmp_path, capsys):
    path = _write(tmp_path / "f.csv", pd.DataFrame(
        {"y": [0, 1, 0], "yhat": [0, 1, 1], "s": [0.2, 1.5, 0.3], "g": ["a", "b", "a"]}))
    assert main(["report", str(path), "--true", "y", "--pred", "yhat", "--score", "s",
                 "--bins", "10", "--by", "g"]) == 2
    err = capsys.readouterr().err
    assert "row 2" in err and "Traceback" not in err


def test_evaluate_sql_by_group_with_a_score_column(binary_file):
    duckdb = pytest.importorskip("duckdb")
    path, frame = binary_file
    con = duckdb.connect()
    ev, rep = cio.evaluate_sql(con, f"select * from read_csv('{path}')", true_col="y",
                               pred_col="yhat", score_cols="s", group_cols=["g"], bins=20,
                               pos_label="spam")
    q = floor_to_bin(frame["s"].to_numpy(), 20)
    for i, key in enumerate(ev.groups):
        m = (frame["g"] == key).to_numpy()
        assert ev.metric("roc_auc")[i] == pytest.approx(
            roc_auc_score(frame["y"][m] == "spam", q[m]), abs=1e-12)
    assert rep.curves.labels == ["ham", "spam"]


def test_three_classes_without_pos_label_are_refused_as_ungrouped(tmp_path):
    path = _write(tmp_path / "f.csv", pd.DataFrame(
        {"y": ["a", "b", "c"], "yhat": ["a", "b", "c"], "s": [0.1, 0.5, 0.9],
         "g": ["x", "x", "y"]}))
    with pytest.raises(ValueError) as grouped:
        cio.evaluate_file(path, "y", "yhat", score_cols="s", group_cols="g", bins=10)
    with pytest.raises(ValueError) as plain:
        cio.evaluate_file(path, "y", "yhat", score_cols="s", bins=10)
    assert str(grouped.value) == str(plain.value)
    assert "pos_label" in str(grouped.value)
