"""Calibration (confmat.curves.calibration) against scikit-learn and worked examples."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

from confmat.curves.calibration import calibration


@st.composite
def binary_probs(draw):
    n = draw(st.integers(2, 60))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    # probabilities on a coarse grid so that values fall exactly on bin edges too
    grid = draw(st.sampled_from([10, 20, 100, 1000]))
    p = draw(st.lists(st.integers(0, grid), min_size=n, max_size=n))
    return np.array(y), np.array(p, dtype=np.float64) / grid


@settings(max_examples=150)
@given(binary_probs(), st.integers(1, 12), st.sampled_from(["uniform", "quantile"]))
def test_reliability_matches_sklearn_calibration_curve(data, n_bins, strategy):
    y, p = data
    cal = calibration(y, p, n_bins=n_bins, strategy=strategy)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    c = cal.curve
    keep = c.nonempty
    np.testing.assert_allclose(c.observed[keep], prob_true, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(c.mean_predicted[keep], prob_pred, rtol=1e-12, atol=1e-12)
    assert len(c.counts) == n_bins and int(c.counts.sum()) == len(y)
    assert np.isnan(c.observed[~keep]).all() and (c.counts[~keep] == 0).all()
    assert cal.brier == pytest.approx(brier_score_loss(y, p), abs=1e-12)


@settings(max_examples=100)
@given(binary_probs(), st.integers(1, 8), st.data())
def test_weighted_equals_repeated_samples(data, n_bins, draw):
    # integer weights must give what scikit-learn gives on the samples repeated
    y, p = data
    w = np.array(draw.draw(st.lists(st.integers(0, 4), min_size=len(y), max_size=len(y))))
    if w.sum() == 0:
        w[0] = 1
    cal = calibration(y, p, n_bins=n_bins, sample_weight=w)
    yr, pr = np.repeat(y, w), np.repeat(p, w)
    prob_true, prob_pred = calibration_curve(yr, pr, n_bins=n_bins)
    c = cal.curve
    np.testing.assert_allclose(c.observed[c.nonempty], prob_true, atol=1e-12)
    np.testing.assert_allclose(c.mean_predicted[c.nonempty], prob_pred, atol=1e-12)
    assert cal.brier == pytest.approx(brier_score_loss(y, p, sample_weight=w), abs=1e-12)
    assert cal.brier == pytest.approx(brier_score_loss(yr, pr), abs=1e-12)
    np.testing.assert_allclose(c.weights, np.bincount(
        np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], p), weights=w, minlength=n_bins))


@settings(max_examples=80)
@given(st.integers(3, 5), st.integers(5, 50), st.integers(1, 10), st.data())
def test_multiclass_against_sklearn(k, n, n_bins, draw):
    rng = np.random.default_rng(draw.draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # every class present
    raw = rng.integers(0, 5, (n, k)).astype(np.float64) + 1e-3
    p = raw / raw.sum(axis=1, keepdims=True)
    w = rng.integers(1, 4, n).astype(np.float64)
    cal = calibration(y, p, n_bins=n_bins, sample_weight=w)
    assert cal.brier == pytest.approx(
        brier_score_loss(y, p, sample_weight=w, labels=list(range(k))), abs=1e-12)
    for j in range(k):  # one-vs-rest curves: sklearn on class j against the rest, repeated
        c = cal.curves[j]
        yt, pt = calibration_curve(np.repeat(y == j, w.astype(int)),
                                   np.repeat(p[:, j], w.astype(int)), n_bins=n_bins)
        np.testing.assert_allclose(c.observed[c.nonempty], yt, atol=1e-12)
        np.testing.assert_allclose(c.mean_predicted[c.nonempty], pt, atol=1e-12)
    top = p.argmax(axis=1)
    yt, pt = calibration_curve(np.repeat(top == y, w.astype(int)),
                               np.repeat(p.max(axis=1), w.astype(int)), n_bins=n_bins)
    np.testing.assert_allclose(cal.curve.observed[cal.curve.nonempty], yt, atol=1e-12)
    np.testing.assert_allclose(cal.curve.mean_predicted[cal.curve.nonempty], pt, atol=1e-12)


def test_ece_and_mce_by_hand():
    # 10 samples, 3 uniform bins [0, 1/3], (1/3, 2/3], (2/3, 1]
    y = [0, 0, 1, 0, 1, 1, 0, 1, 1, 1]
    p = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    # bin 1: p .1 .2 .3 -> mean .2, observed 1/3, gap 2/15, 3 samples
    # bin 2: p .4 .5 .6 -> mean .5, observed 2/3, gap 1/6, 3 samples
    # bin 3: p .7 .8 .9 1 -> mean .85, observed 3/4, gap .1, 4 samples
    # ECE = (3 * 2/15 + 3 * 1/6 + 4 * 0.1) / 10 = 0.13; MCE = 1/6
    # Brier = (.01 + .04 + .49 + .16 + .25 + .16 + .49 + .04 + .01 + 0) / 10 = 0.165
    cal = calibration(y, p, n_bins=3)
    assert cal.curve.counts.tolist() == [3, 3, 4]
    assert cal.ece == pytest.approx(0.13, abs=1e-12)
    assert cal.mce == pytest.approx(1 / 6, abs=1e-12)
    assert cal.brier == pytest.approx(0.165, abs=1e-12)


def test_weighted_ece_by_hand():
    # two bins of 0.5; weights 3 and 1 in bin 1: mean .25 * .75 + .4 * .25 = .2875,
    # observed (1 * 1) / 4 = .25 ; bin 2 one sample p .9, y 1, gap .1
    cal = calibration([0, 1, 1], [0.25, 0.4, 0.9], n_bins=2, sample_weight=[3, 1, 1])
    assert cal.curve.weights.tolist() == [4.0, 1.0]
    assert cal.curve.mean_predicted[0] == pytest.approx(0.2875)
    assert cal.curve.observed[0] == pytest.approx(0.25)
    assert cal.ece == pytest.approx((4 * 0.0375 + 1 * 0.1) / 5)
    assert cal.mce == pytest.approx(0.1)


def test_inner_edge_joins_lower_bin_and_empty_bins_kept():
    cal = calibration([0, 1, 1], [0.5, 0.5, 1.0], n_bins=4)
    assert cal.curve.counts.tolist() == [0, 2, 0, 1]
    assert np.isnan(cal.curve.observed[[0, 2]]).all()


def test_pos_label_rule_and_string_labels():
    with pytest.raises(ValueError, match="pos_label"):
        calibration(["a", "b"], [0.1, 0.9])
    cal = calibration(["a", "b", "b"], [0.1, 0.9, 0.8], pos_label="b", n_bins=2)
    assert cal.pos_label == "b" and cal.labels == ["a", "b"]
    assert cal.brier == pytest.approx(brier_score_loss(["a", "b", "b"], [0.1, 0.9, 0.8],
                                                       pos_label="b"))


@pytest.mark.parametrize("kwargs, match", [
    ({"y_prob": [0.2, 1.2]}, r"y_prob must be probabilities in \[0, 1\]; found 1.2 at position 1"),
    ({"y_prob": [-0.1, 0.5]}, "y_prob must be probabilities"),
    ({"n_bins": 0}, "n_bins must be at least 1"),
    ({"strategy": "kmeans"}, "strategy must be one of"),
    ({"y_prob": [0.2, float("nan")]}, "y_prob contains NaN at position 1"),
    ({"sample_weight": [0, 0]}, "sample_weight"),
])
def test_bad_input(kwargs, match):
    args = {"y_true": [0, 1], "y_prob": [0.2, 0.7], **kwargs}
    with pytest.raises(ValueError, match=match):
        calibration(args.pop("y_true"), args.pop("y_prob"), **args)


def test_bad_types_and_multiclass_rows():
    with pytest.raises(TypeError, match="n_bins"):
        calibration([0, 1], [0.2, 0.7], n_bins=2.5)
    with pytest.raises(ValueError, match="y_prob rows must be probabilities summing to 1"):
        calibration([0, 1, 2], [[0.5, 0.5, 0.5], [0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    with pytest.raises(ValueError, match=r"y_prob must be probabilities in \[0, 1\]"):
        calibration([0, 1, 2], [[1.5, -0.5, 0.0], [0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])


def test_to_dict_is_json():
    import json

    cal = calibration([0, 1, 2, 2], np.eye(3)[[0, 1, 2, 1]], n_bins=4)
    d = json.loads(json.dumps(cal.to_dict(), allow_nan=False))
    assert d["kind"] == "multiclass" and len(d["curves"]) == 3
    assert d["curve"]["counts"] == [0, 0, 0, 4]
    assert d["ece"] == pytest.approx(0.25)  # confidence 1 everywhere, 3 of 4 correct


def test_reliability_diagram_draws_sklearn_points_and_bin_counts():
    from matplotlib.figure import Figure

    from confmat.plots.calibration import CalibrationDisplay

    rng = np.random.default_rng(7)
    p = rng.random(300)
    y = (rng.random(300) < p**2).astype(int)
    d = CalibrationDisplay.from_predictions(y, p, n_bins=8, ax=Figure().add_subplot())
    prob_true, prob_pred = calibration_curve(y, p, n_bins=8)
    line = next(ln for ln in d.ax_.lines if ln.get_marker() == "o")
    np.testing.assert_allclose(line.get_xdata(), prob_pred, atol=1e-12)
    np.testing.assert_allclose(line.get_ydata(), prob_true, atol=1e-12)
    heights = [b.get_height() for b in d.counts_ax_.patches]
    assert heights == np.histogram(p, bins=np.linspace(0, 1, 9))[0].tolist()
    with pytest.raises(TypeError, match="calibration must be"):
        CalibrationDisplay([0.1, 0.2])


def test_one_vs_rest_roc_display_shows_sklearn_micro_and_macro():
    from matplotlib.figure import Figure
    from sklearn.metrics import roc_auc_score

    from confmat.plots.multiclass import OneVsRestRocDisplay

    rng = np.random.default_rng(8)
    y = rng.integers(0, 4, 200)
    raw = rng.random((200, 4)) + np.eye(4)[y] * 0.6
    p = raw / raw.sum(axis=1, keepdims=True)
    d = OneVsRestRocDisplay.from_predictions(y, p, ax=Figure().add_subplot())
    texts = [t.get_text() for t in d.ax_.get_legend().get_texts()]
    micro = roc_auc_score(y, p, average="micro", multi_class="ovr")
    macro = roc_auc_score(y, p, average="macro", multi_class="ovr")
    assert texts[:4] == [f"{k} (AUC = {roc_auc_score(y == k, p[:, k]):.3f})" for k in range(4)]
    assert texts[-2:] == [f"micro average (AUC = {micro:.3f})",
                          f"macro average (AUC = {macro:.3f})"]
    assert d.ovr.micro_auc == pytest.approx(micro, abs=1e-12)
    assert d.ovr.macro_auc == pytest.approx(macro, abs=1e-12)
