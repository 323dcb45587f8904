"""A `--labels` subset with scores: the matrix counts the samples whose true and predicted
labels are both in the subset, the curves and the slider count every sample (the positive
class against all others, as scikit-learn's ``roc_auc_score``); the page and every format say
so with both counts.

Oracles: scikit-learn's ``confusion_matrix(labels=subset)`` for the matrix and its total,
``roc_curve(drop_intermediate=False)`` / ``roc_auc_score`` on every sample for the slider's
stops and the AUC, the row count of the file for N.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from sklearn.metrics import confusion_matrix, roc_auc_score, roc_curve

from confmat.cli.app import cli


def run(*args: str) -> str:
    res = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "300"}).invoke(cli, list(args),
                                                                     catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


@pytest.fixture
def subset_file(tmp_path):
    rng = np.random.default_rng(0)
    n = 60
    y = rng.choice(["a", "b", "c"], n)
    s = np.round(np.clip(0.35 * (y == "b") + 0.65 * rng.random(n), 0, 1), 3)
    pred = np.where(s >= 0.5, "b", np.where(rng.random(n) < 0.3, "c", "a"))
    path = tmp_path / "sub.csv"
    pd.DataFrame({"y": y, "yhat": pred, "s": s}).to_csv(path, index=False)
    return path, y, pred, s


ARGS = ("--true", "y", "--pred", "yhat", "--score", "s", "--labels", "a,b", "--pos-label", "b",
        "--no-intervals")


def test_page_says_the_slider_counts_all_samples_and_the_matrix_fewer(subset_file) -> None:
    path, y, pred, s = subset_file
    page = run("report", str(path), *ARGS, "-f", "html")
    counted = int(confusion_matrix(y, pred, labels=["a", "b"]).sum())
    total = len(y)
    assert counted < total  # the case: samples of class c (true or predicted) left out
    data = json.loads(re.search(r'id="confmat-data">(.*?)</script>', page, re.S).group(1))
    (w,) = data["widgets"]["r0"]
    note = w["start_note"]
    assert note.startswith(f"The score curves, their areas and the threshold slider count all "
                           f"{total} samples (b against every other class")
    assert f"the confusion matrix counts the {counted} whose" in note
    # the note is printed in the page itself (not only in the script's data)
    shown = re.search(r'data-out="start-note">(.*?)</p>', page, re.S).group(1)
    assert f"count all {total} samples" in shown.replace("&#39;", "'")
    # and the slider indeed counts every sample: scikit-learn's ROC on all of them
    _, _, thr = roc_curve(y == "b", s, drop_intermediate=False)
    assert [np.inf if t is None else t for t in w["thresholds"]] == thr.tolist()
    for i, t in enumerate(thr):
        hit = s >= t
        assert (w["tp"][i], w["fp"][i]) == (str(np.sum(hit & (y == "b"))),
                                            str(np.sum(hit & (y != "b"))))
    auc = roc_auc_score(y == "b", s)
    assert f"b: ROC AUC {auc:.4f}" in page


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_every_format_notes_the_two_sample_counts(subset_file, fmt) -> None:
    path, y, pred, _ = subset_file
    out = run("report", str(path), *ARGS, *(["--all"] if fmt == "text" else ["-f", fmt]))
    counted = int(confusion_matrix(y, pred, labels=["a", "b"]).sum())
    text = " ".join(json.loads(out)["notes"]) if fmt == "json" else " ".join(out.split())
    assert f"threshold slider count all {len(y)} samples" in text
    assert f"the confusion matrix counts the {counted} whose" in text


def test_without_a_subset_no_such_note(subset_file) -> None:
    """Every class named: the matrix counts every sample, the slider can open on it."""
    path, y, pred, _ = subset_file
    out = run("report", str(path), "--true", "y", "--pred", "yhat", "--score", "s",
              "--labels", "a,b,c", "--pos-label", "b", "--no-intervals", "-f", "json")
    rep = json.loads(out)
    assert not any("threshold slider count all" in n for n in rep["notes"])
    assert rep["counts"] == confusion_matrix(y, pred, labels=["a", "b", "c"]).tolist()
