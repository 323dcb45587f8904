"""The threshold slider's stops run from above every score (no sample predicted positive) to
the lowest score (every sample predicted positive), so it can open on a model that predicts
no sample positive.

Oracles: scikit-learn's ``roc_curve(drop_intermediate=False)`` for the stops (its first
threshold is ``inf``) and their FPR / TPR, ``confusion_matrix`` of ``score >= threshold`` at
each, ``precision_score(zero_division=0 / np.nan)`` for the value and the mark of an
undefined precision, and the expected cost per sample by hand (Elkan 2001).
"""

from __future__ import annotations

import json
import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, precision_score, roc_curve

import confmat
from confmat.report import build_report, render_html
from confmat.report.slider import ABOVE_EVERY_SCORE

MARK = "\u2020"


def page_widget(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="confmat-data">(.*?)</script>', html,
                  re.S)
    assert m is not None
    return json.loads(m.group(1))["widgets"]["r0"][0]


def report(y, s, pred, *, w=None, y_pred_given=True, **kw):
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, labels=[0, 1], sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build_report(cm, y_true=y, y_score=s, sample_weight=w, intervals=False,
                            y_pred=pred if y_pred_given else None, **kw)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 60), st.booleans(), st.booleans(),
       st.booleans())
def test_stops_are_sklearn_roc_thresholds_with_its_tables(seed, n, ties, weighted,
                                                          no_positive) -> None:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]  # both classes: roc_curve is defined
    s = rng.random(n)
    if ties:
        s = s.round(1)
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    pred = np.zeros(n, int) if no_positive else (s >= np.median(s)).astype(int)
    (d,) = report(y, s, pred, w=w).slider_data()
    fpr, tpr, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert d["thresholds"] == thr.tolist()  # inf first, then every distinct score
    assert d["fpr"] == pytest.approx(fpr.tolist()) and d["tpr"] == pytest.approx(tpr.tolist())
    for i, t in enumerate(thr):
        at = (s >= t).astype(int)
        (tn, fp), (fn, tp) = confusion_matrix(y, at, labels=[0, 1], sample_weight=w)
        assert [d["tn"][i], d["fp"][i], d["fn"][i], d["tp"][i]] == pytest.approx(
            [tn, fp, fn, tp]), t
    assert d["tp"][0] == d["fp"][0] == 0  # the all-negative end
    assert d["fn"][-1] == d["tn"][-1] == 0  # the all-positive end (the lowest score)
    # the slider opens on the printed matrix, the no-positive model included
    i = d["start"]
    assert d["start_mode"] == "predictions" and d["start_is_printed_matrix"]
    assert np.allclose([[d["tn"][i], d["fp"][i]], [d["fn"][i], d["tp"][i]]],
                       confusion_matrix(y, pred, labels=[0, 1], sample_weight=w))
    if no_positive:
        assert i == 0 and "no sample is predicted 1" in d["start_note"]


def test_no_positive_model_opens_above_every_score_on_the_page() -> None:
    """The page's JSON: the stop's threshold is null (JSON has no infinity), its label
    'above every score', precision 0 / 0 written as the tables write it (0.0000 and the
    mark), and the printed per-class table says the same for class 1."""
    rng = np.random.default_rng(4)
    n = 50
    y = rng.integers(0, 2, n)
    s = np.clip(0.3 * y + 0.6 * rng.random(n), 0, 0.9).round(2)  # every score < 0.95
    pred = (s >= 0.95).astype(int)
    assert not pred.any()
    html = render_html(report(y, s, pred))
    c = page_widget(html)
    assert c["start"] == 0 and c["thresholds"][0] is None
    assert c["theta_text"][0] == ABOVE_EVERY_SCORE == "above every score"
    data = html[html.index('id="confmat-data">'):]
    data = data[:data.index("</script>")]
    assert "Infinity" not in data and "NaN" not in data and "inf" not in c["theta_text"]
    assert "predicts no sample" not in html  # the old note is gone
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = precision_score(y, pred, zero_division=0)
        undefined = np.isnan(precision_score(y, pred, zero_division=np.nan))
    assert undefined and c["metrics"]["precision"][0] == f"{value:.4f}{MARK}"
    (tn, fp), (fn, tp) = confusion_matrix(y, pred, labels=[0, 1])
    assert [c[k][0] for k in ("tp", "fn", "fp", "tn")] == [str(v) for v in (tp, fn, fp, tn)]
    # the printed per-class table, class 1's column: the same text, mark included
    row = re.search(r">precision</td><td>(.*?)</td><td>(.*?)</td>", html)
    assert row is not None
    assert re.sub(r"<[^>]+>", "", row.group(2)) == c["metrics"]["precision"][0]


def test_no_positive_matrix_without_predictions_matches_the_counts() -> None:
    """Without y_pred, a printed matrix with TP = FP = 0 is the table of the stop above every
    score (found by its counts)."""
    y = np.array([0, 1, 1, 0, 1, 0, 0])
    s = np.array([0.2, 0.4, 0.3, 0.1, 0.35, 0.05, 0.15])
    (d,) = report(y, s, np.zeros(7, int), y_pred_given=False).slider_data()
    assert d["start"] == 0 and d["start_mode"] == "counts"
    (tn, fp), (fn, tp) = confusion_matrix(y, np.zeros(7, int), labels=[0, 1])
    assert (d["tn"][0], d["fp"][0], d["fn"][0], d["tp"][0]) == (tn, fp, fn, tp)


def test_conventional_point_above_every_score_is_its_table() -> None:
    """Predictions that are no threshold, and every probability below 0.5: the conventional
    θ = 0.5 predicts nothing positive, which is now a stop (the table of score >= 0.5)."""
    y = np.array([0, 1, 1, 0, 1, 0])
    s = np.array([0.1, 0.4, 0.3, 0.2, 0.35, 0.05])
    pred = np.array([1, 0, 1, 0, 0, 0])  # a low score positive, a higher one negative
    (d,) = report(y, s, pred).slider_data()
    assert d["start_mode"] == "conventional" and d["start"] == 0
    assert "no score reaches the conventional θ = 0.5" in d["start_note"]
    (tn, fp), (fn, tp) = confusion_matrix(y, (s >= 0.5).astype(int), labels=[0, 1])
    assert (d["tn"][0], d["fp"][0], d["fn"][0], d["tp"][0]) == (tn, fp, fn, tp)


def test_cost_optimal_threshold_above_every_score_is_a_stop() -> None:
    """Costs that make predicting nothing positive the cheapest (a false positive costs 10, a
    missed positive 1, one positive in ten): the cost-optimal θ is inf, the first stop, whose
    expected cost is (FN x 1) / n by hand."""
    y = np.array([1] + [0] * 9)  # the positive scores lowest
    s = np.linspace(0.1, 0.9, 10)
    costs = np.array([[0.0, 10.0], [1.0, 0.0]])
    pred = (s >= 0.5).astype(int)
    rep = report(y, s, pred, cost_matrix=costs)
    (d,) = rep.slider_data()
    assert d["cost_optimal"] == 0 and d["thresholds"][0] == math.inf
    assert rep.cost.threshold == math.inf and rep.cost.text == d["theta_text"][0]
    assert d["expected_cost"][0] == pytest.approx(1.0 / 10)
    for i, t in enumerate(d["thresholds"]):  # and it is the least of every stop's cost
        tab = confusion_matrix(y, (s >= t).astype(int), labels=[0, 1])
        assert d["expected_cost"][i] == pytest.approx(float((tab * costs).sum()) / 10)
    assert min(d["expected_cost"]) == d["expected_cost"][0]


def test_thinned_slider_keeps_both_ends() -> None:
    rng = np.random.default_rng(9)
    n = 5000
    y = rng.integers(0, 2, n)
    s = rng.random(n)
    pred = (s >= 0.5).astype(int)
    (d,) = report(y, s, pred).slider_data()
    assert d["thinned"] and d["thresholds"][0] == math.inf and d["thresholds"][-1] == s.min()
    assert d["tp"][0] == d["fp"][0] == 0 and d["fn"][-1] == d["tn"][-1] == 0


def test_cli_column_of_predictions_without_a_positive(tmp_path) -> None:
    """`confmat report` on a file whose prediction column never names the positive class:
    the page's slider opens on the printed matrix (scikit-learn's confusion_matrix of the
    file's columns) at the stop above every score."""
    import pandas as pd
    from click.testing import CliRunner

    from confmat.cli.app import cli

    rng = np.random.default_rng(8)
    n = 40
    y = rng.choice(["ham", "spam"], n)
    s = np.round(rng.random(n) * 0.8, 3)
    pred = np.full(n, "ham")
    path = tmp_path / "none.csv"
    pd.DataFrame({"y": y, "yhat": pred, "s": s}).to_csv(path, index=False)
    res = CliRunner(env={"NO_COLOR": "1"}).invoke(
        cli, ["report", str(path), "--true", "y", "--pred", "yhat", "--score", "s",
              "--pos-label", "spam", "--no-intervals", "-f", "html"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    c = page_widget(res.output)
    (tn, fp), (fn, tp) = confusion_matrix(y, pred, labels=["ham", "spam"])
    assert c["start"] == 0 and c["thresholds"][0] is None
    assert [c[k][0] for k in ("tp", "fn", "fp", "tn")] == [str(v) for v in (tp, fn, fp, tn)]
    assert "no sample is predicted spam" in c["start_note"]
