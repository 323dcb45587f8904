"""Calibration, the cost-optimal threshold, the multi-class ROC averages and the comparison's
headline in reports.

Oracles: scikit-learn (``calibration_curve``, ``brier_score_loss``, ``log_loss``, ``roc_auc_score``,
``confusion_matrix``, ``f1_score``, ``cohen_kappa_score``), and the expected cost of every
candidate threshold counted by brute force here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve
from sklearn.metrics import (
    brier_score_loss,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    log_loss,
    roc_auc_score,
)

from confmat import ConfusionMatrix
from confmat.cli.app import main
from confmat.report import build_comparison, build_report, render_html, render_json, render_text
from confmat.report.findings import POOR_ECE


def _binary(seed: int = 0, n: int = 400, shrink: float = 1.0):
    rng = np.random.default_rng(seed)
    p = rng.random(n)
    y = (rng.random(n) < p).astype(int)  # calibrated by construction
    q = 0.5 + shrink * (p - 0.5)  # shrink < 1: under-confident
    return y, q


def _report(y, s, **kw):
    pred = (np.asarray(s) >= 0.5).astype(int)
    cm = ConfusionMatrix.from_predictions(y, pred)
    return build_report(cm, y_true=y, y_score=s, y_pred=pred, intervals=False, **kw)


def test_binary_calibration_against_sklearn_and_in_every_format():
    y, s = _binary(1, shrink=0.4)
    rep = _report(y, s)
    cal = rep.calibration
    assert cal is not None and cal.n_bins == 10
    prob_true, prob_pred = calibration_curve(y, s, n_bins=10)
    np.testing.assert_allclose(cal.curve.observed[cal.curve.nonempty], prob_true, atol=1e-12)
    np.testing.assert_allclose(cal.curve.mean_predicted[cal.curve.nonempty], prob_pred,
                               atol=1e-12)
    assert cal.brier == pytest.approx(brier_score_loss(y, s), abs=1e-12)
    # ECE by its definition from sklearn's bins and np.histogram's counts of the same bins
    ids = np.searchsorted(np.linspace(0, 1, 11)[1:-1], s)
    n_b = np.bincount(ids, minlength=10)
    ece = float((n_b[n_b > 0] * np.abs(prob_true - prob_pred)).sum() / len(y))
    assert cal.ece == pytest.approx(ece, abs=1e-12)
    assert cal.ece >= POOR_ECE
    assert any(f.startswith("poor calibration of class 1") for f in rep.findings)
    d = json.loads(render_json(rep))
    assert d["calibration"]["curve"]["counts"] == n_b.tolist()
    assert d["calibration"]["brier"] == pytest.approx(brier_score_loss(y, s))
    loss = log_loss(y, s)
    assert cal.log_loss == pytest.approx(loss, abs=1e-12)
    assert d["calibration"]["log_loss"] == pytest.approx(loss)
    text = render_text(rep)
    block = text[text.index("Calibration of class 1"):].split("\n\n")[0]
    assert len(block.splitlines()) == 13  # title, header, rule, 10 bins
    assert max(len(line) for line in block.splitlines()) <= 80
    assert (f"Brier {brier_score_loss(y, s):.3f}, log loss {loss:.3f}, "
            in block.splitlines()[0])
    (finding,) = [f for f in rep.findings if "calibration of class 1" in f]
    assert f"log loss {loss:.3f}" in finding and "Log loss: the mean -ln" in finding
    page = render_html(rep)
    assert f"Brier score {brier_score_loss(y, s):.3f}, log loss {loss:.3f}." in page


def test_well_calibrated_scores_are_not_called_poor():
    y, s = _binary(2, n=4000)
    rep = _report(y, s)
    assert rep.calibration.ece < POOR_ECE
    f = [x for x in rep.findings if "calibration" in x]
    assert len(f) == 1 and f[0].startswith("calibration of class 1")


def test_decision_function_scores_get_no_calibration_but_a_note():
    y, s = _binary(3)
    rep = _report(y, 4 * (s - 0.5))
    assert rep.calibration is None
    assert any("not probabilities" in n for n in rep.notes)
    assert json.loads(render_json(rep))["calibration"] is None


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 5), st.integers(0, 2**32 - 1))
def test_multiclass_calibration_and_roc_averages_against_sklearn(k, seed):
    rng = np.random.default_rng(seed)
    n = 60
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    raw = rng.random((n, k)) + np.eye(k)[y] * rng.random()
    p = raw / raw.sum(axis=1, keepdims=True)
    w = rng.integers(1, 4, n).astype(float)
    pred = p.argmax(axis=1)
    cm = ConfusionMatrix.from_predictions(y, pred, labels=list(range(k)), sample_weight=w)
    rep = build_report(cm, y_true=y, y_score=p, y_pred=pred, sample_weight=w, intervals=False)
    assert rep.calibration.kind == "multiclass"
    assert rep.calibration.brier == pytest.approx(
        brier_score_loss(y, p, sample_weight=w, labels=list(range(k))), abs=1e-12)
    assert rep.calibration.log_loss == pytest.approx(
        log_loss(y, p, sample_weight=w, labels=list(range(k))), abs=1e-12)
    ra = rep.roc_averages
    assert ra.micro_auc == pytest.approx(
        roc_auc_score(y, p, average="micro", multi_class="ovr", sample_weight=w), abs=1e-12)
    assert ra.macro_auc == pytest.approx(
        roc_auc_score(y, p, average="macro", multi_class="ovr", sample_weight=w), abs=1e-12)
    d = json.loads(render_json(rep))
    assert d["roc_averages"]["micro_auc"] == pytest.approx(ra.micro_auc)
    text = render_text(rep)
    assert "ROC summary" in text
    assert f"roc_auc_micro  {ra.micro_auc:.4f}" in text
    assert f"roc_auc_macro  {ra.macro_auc:.4f}" in text


def _brute_force_cost(y, s, c):
    """Expected cost per sample of every candidate threshold (inf and each distinct score)."""
    out = []
    for t in [np.inf, *sorted(set(s.tolist()), reverse=True)]:
        m = confusion_matrix(y, (s >= t).astype(int), labels=[0, 1])
        out.append((float((m * c).sum() / m.sum()), -t, t))
    return min(out)  # least cost, ties towards the highest threshold


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30))
def test_cost_optimal_threshold_against_brute_force(seed, fn_cost):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 50)
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(50), 0, 1), 2)
    c = np.array([[0.0, 1.0], [float(fn_cost), 0.0]])
    rep = _report(y, s, cost_matrix=c)
    cost, _, t = _brute_force_cost(y, s, c)
    assert rep.cost.threshold == t
    assert rep.cost.expected_cost == pytest.approx(cost)
    pred = (s >= 0.5).astype(int)
    own = confusion_matrix(y, pred, labels=[0, 1])
    assert rep.cost.model_cost == pytest.approx((own * c).sum() / len(y))
    assert any(f.startswith("cost-optimal threshold for class 1") for f in rep.findings)
    d = rep.slider_data()[0]
    if np.isfinite(t):
        i = d["cost_optimal"]
        assert d["thresholds"][i] == t
        assert d["expected_cost"][i] == pytest.approx(cost)
        assert min(d["expected_cost"]) == pytest.approx(cost)
    else:
        assert d["cost_optimal"] is None
    assert json.loads(render_json(rep))["cost"]["expected_cost"] == pytest.approx(cost)


def test_cost_matrix_errors():
    y, s = _binary(4, n=50)
    with pytest.raises(ValueError, match="cost_matrix must be a finite 2 x 2"):
        _report(y, s, cost_matrix=[[0, 1, 2], [1, 0, 2]])
    cm = ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int))
    with pytest.raises(ValueError, match="cost_matrix needs y_score"):
        build_report(cm, cost_matrix=[[0, 1], [5, 0]], intervals=False)
    y3 = np.array([0, 1, 2, 0, 1, 2])
    p3 = np.eye(3)[[0, 1, 2, 1, 1, 2]] * 0.8 + 0.2 / 3
    cm3 = ConfusionMatrix.from_predictions(y3, p3.argmax(axis=1))
    with pytest.raises(ValueError, match="one positive class against the rest"):
        build_report(cm3, y_true=y3, y_score=p3, cost_matrix=[[0, 1], [5, 0]],
                     intervals=False)
    rep = build_report(cm3, y_true=y3, y_score=p3, pos_label=2, cost_matrix=[[0, 1], [5, 0]],
                       intervals=False)
    assert rep.cost.pos_label == 2


def test_cli_cost(tmp_path: Path, capsys):
    y, s = _binary(5, n=200)
    f = tmp_path / "p.csv"
    rows = "".join(f"{a},{int(b >= 0.5)},{float(b)!r}\n" for a, b in zip(y, s, strict=True))
    f.write_text("y,yhat,p\n" + rows)
    code = main(["report", str(f), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--cost", "[[0, 1], [10, 0]]", "--no-intervals", "-f", "json"])
    out = capsys.readouterr().out
    assert code == 0
    d = json.loads(out)
    _, _, t = _brute_force_cost(y, s, np.array([[0, 1], [10, 0]]))
    assert d["cost"]["threshold"] == t
    assert d["calibration"]["kind"] == "binary"
    code = main(["report", str(f), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--cost", "[[0, 1], [10]]", "--no-intervals"])
    err = capsys.readouterr().err
    assert code == 2 and "--cost must be a finite 2 x 2 array" in err and "Traceback" not in err
    assert "rows of lengths [2, 1]" in err and "'[[0, 1], [10]]'" in err
    code = main(["report", str(f), "--true", "y", "--pred", "yhat", "--cost", "[[0,1],[1,0]]"])
    assert code == 2 and "--cost needs exact scores" in capsys.readouterr().err


def test_comparison_headline_fits_the_task():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 80)
    a = np.where(rng.random(80) < 0.8, y, 1 - y)
    b = np.where(rng.random(80) < 0.7, y, 1 - y)
    sa, sb = np.clip(0.5 * a + 0.5 * rng.random(80), 0, 1), rng.random(80)
    cmp = build_comparison(y, {"a": a, "b": b}, scores={"a": sa, "b": sb}, intervals=False,
                           n_resamples=100)
    assert cmp.result.metrics == ["accuracy", "balanced_accuracy", "mcc", "f1", "roc_auc",
                                  "average_precision"]
    row = {r["model"]: r for r in cmp.table}
    assert row["a"]["f1"] == pytest.approx(f1_score(y, a))
    assert row["a"]["roc_auc"] == pytest.approx(roc_auc_score(y, sa))
    y3 = rng.integers(0, 3, 90)
    m3 = {"x": np.where(rng.random(90) < 0.7, y3, rng.integers(0, 3, 90)),
          "z": rng.integers(0, 3, 90)}
    cmp3 = build_comparison(y3, m3, intervals=False, n_resamples=100)
    assert cmp3.result.metrics == ["accuracy", "balanced_accuracy", "mcc", "f1", "kappa"]
    assert "mcc_yao2022" not in cmp3.result.metrics
    row3 = {r["model"]: r for r in cmp3.table}
    assert row3["x"]["f1"] == pytest.approx(f1_score(y3, m3["x"], average="macro"))
    assert row3["x"]["kappa"] == pytest.approx(cohen_kappa_score(y3, m3["x"]))


def test_comparison_headline_without_a_positive_class_uses_macro_f1():
    y = np.array(["cat", "dog"] * 30)
    a = np.where(np.arange(60) % 7 == 0, np.roll(y, 1), y)
    cmp = build_comparison(y, {"a": a, "b": y[::-1]}, intervals=False, n_resamples=100)
    assert cmp.result.metrics == ["accuracy", "balanced_accuracy", "mcc", "f1"]
    row = {r["model"]: r for r in cmp.table}
    assert row["a"]["f1"] == pytest.approx(f1_score(y, a, average="macro"))


def test_no_positive_sample_gives_a_report_with_a_note_not_an_error():
    # a test set without the positive class still gets its report (the curves' rule makes 1
    # the positive class of {0, 1} labels); calibration of class 1 has nothing to observe
    import numpy as np

    import confmat
    from confmat.report import build_report

    y = np.zeros(6, dtype=int)
    s = np.array([0.1, 0.5, 0.3, 0.9, 0.2, 0.7])
    pred = (s >= 0.5).astype(int)
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, labels=[0, 1])
    rep = build_report(cm, y_true=y, y_score=s, y_pred=pred, intervals=False)
    assert rep.calibration is None
    assert any("no sample of the positive class 1" in n for n in rep.notes)
    assert rep.counts.tolist() == [[3, 3], [0, 0]]  # scikit-learn's layout, counted by hand
