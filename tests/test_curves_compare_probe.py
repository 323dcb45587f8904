"""An adversarial probe of precision-recall curves, calibration, gain / lift / KS / cost curves and
model comparison, each against an independent oracle: scikit-learn (``precision_recall_curve``,
``average_precision_score``, ``calibration_curve``, ``brier_score_loss``), SciPy's ``ks_2samp``,
statsmodels' ``mcnemar``, R (``mcnemar.test``; pROC's ``roc.test``, Robin et al. 2011, through
``tests/proc_oracle.py``, which fails instead of skipping under CI) and formulas worked by hand.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import ks_2samp
from sklearn.calibration import calibration_curve
from sklearn.metrics import average_precision_score, brier_score_loss
from sklearn.metrics import precision_recall_curve as sk_pr_curve
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

import confmat
from confmat.curves import average_precision, calibration, precision_recall_curve
from confmat.curves.cost import cost_curve
from confmat.curves.gain import gain_curve, ks_statistic, lift_curve
from confmat.inference import compare, compare_curves
from proc_oracle import proc  # noqa: F401  (the fixture)


@st.composite
def _binary(draw, weights: bool = True, min_size: int = 1):
    """Labels, tied scores on a coarse grid and (optionally) weights: zeros, huge or tiny."""
    n = draw(st.integers(min_size, 14))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    s = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))) / 4.0
    w = None
    if weights:
        kind = draw(st.sampled_from(["none", "ints", "huge", "tiny"]))
        if kind != "none":
            base = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), float)
            scale = {"ints": 1.0, "huge": 1e300, "tiny": 1e-300}[kind]
            w = base * scale
            if not w.sum() > 0:
                w[0] = scale
    return y, s, w


def _quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*a, **k)


# ------------------------------------------------------------------ precision-recall, AP
@settings(max_examples=150, deadline=None)
@given(_binary(), st.booleans())
def test_pr_curve_and_ap_match_sklearn(data, drop):
    y, s, w = data
    ref = _quiet(sk_pr_curve, y, s, sample_weight=w, drop_intermediate=drop)
    got = _quiet(precision_recall_curve, y, s, sample_weight=w, drop_intermediate=drop)
    for r, g in zip(ref, got, strict=True):
        assert g.shape == r.shape
        np.testing.assert_allclose(g, r, rtol=1e-12)
    ap_ref = _quiet(average_precision_score, y, s, sample_weight=w)
    ap = _quiet(average_precision, y, s, sample_weight=w)
    assert ap == pytest.approx(ap_ref, rel=1e-12, nan_ok=True)


@pytest.mark.parametrize(("y", "pos"), [
    (["a", "b", "b", "a", "b"], "a"), (["a", "b", "b", "a", "b"], "b"),
    ([True, False, False, True, False], True), ([True, False, False, True, False], False),
    ([1, -1, -1, 1, -1], -1), ([1, -1, -1, 1, -1], None), ([7, 2, 2, 7, 2], 2),
    ([0, 0, 0, 1, 0], None),  # a single positive
])
def test_pr_pos_label_of_every_kind(y, pos):
    s = [0.1, 0.4, 0.4, 0.8, 0.9]
    ref = sk_pr_curve(y, s, pos_label=pos)
    for r, g in zip(ref, precision_recall_curve(y, s, pos_label=pos), strict=True):
        np.testing.assert_allclose(g, r)
    ap_pos = 1 if pos is None else pos
    assert average_precision(y, s, pos_label=pos) == pytest.approx(
        average_precision_score(y, s, pos_label=ap_pos))


def test_pr_without_positive_matches_sklearn_and_zero_weights_are_refused():
    y, s = [0, 0, 0], [0.2, 0.5, 0.5]
    ref = _quiet(sk_pr_curve, y, s)
    for r, g in zip(ref, _quiet(precision_recall_curve, y, s), strict=True):
        np.testing.assert_allclose(g, r, equal_nan=True)
    with pytest.raises(ValueError, match="sample_weight"):
        precision_recall_curve([0, 1], [0.2, 0.5], sample_weight=[0.0, 0.0])


# ------------------------------------------------------------------ calibration
def _ece_by_hand(y, p, w, n_bins):
    """Naeini et al. 2015's ECE on equal-width bins, an inner edge joining the bin below."""
    w = np.ones_like(p) if w is None else w
    total = 0.0
    for k in range(n_bins):
        lo, hi = k / n_bins, (k + 1) / n_bins
        m = (p > lo) & (p <= hi) if k else (p >= lo) & (p <= hi)
        if w[m].sum() > 0:
            gap = abs(np.average(y[m], weights=w[m]) - np.average(p[m], weights=w[m]))
            total += w[m].sum() / w.sum() * gap
    return total


@settings(max_examples=150, deadline=None)
@given(_binary(), st.integers(1, 6), st.sampled_from(["uniform", "quantile"]))
def test_calibration_matches_sklearn_and_hand_ece(data, n_bins, strategy):
    y, s, w = data
    # scores on a grid of quarters: exactly on the edges of 2 and 4 bins, and 0 and 1
    cal = calibration(y, s, n_bins=n_bins, strategy=strategy, sample_weight=w)
    assert cal.brier == pytest.approx(brier_score_loss(y, s, sample_weight=w), rel=1e-12)
    if w is None:
        obs, pred = _quiet(calibration_curve, y, s, n_bins=n_bins, strategy=strategy)
        keep = cal.curve.nonempty
        np.testing.assert_allclose(cal.curve.observed[keep], obs)
        np.testing.assert_allclose(cal.curve.mean_predicted[keep], pred)
        assert (cal.curve.counts[~keep] == 0).all()
    if strategy == "uniform":
        edges = np.linspace(0, 1, n_bins + 1)
        if not np.isin(s, edges[1:-1]).any() or n_bins in (1, 2, 4):  # edges exact in binary
            assert cal.ece == pytest.approx(_ece_by_hand(y.astype(float), s, w, n_bins),
                                            rel=1e-9, abs=1e-15)


# ------------------------------------------------------------------ gain, lift, KS, cost
@settings(max_examples=150, deadline=None)
@given(_binary())
def test_gain_lift_ks_cost_by_hand(data):
    y, s, w = data
    ww = np.ones_like(s) if w is None else w
    pos, neg = (ww * y).sum(), (ww * (1 - y)).sum()
    if not pos > 0:
        with pytest.raises(ValueError, match="positives"):
            gain_curve(y, s, sample_weight=w)
        return
    ts = np.unique(s[ww > 0])[::-1]  # weight-0 samples create no point
    tested = [0.0] + [ww[s >= t].sum() / ww.sum() * 100 for t in ts]
    found = [0.0] + [(ww * y)[s >= t].sum() / pos * 100 for t in ts]
    g = gain_curve(y, s, sample_weight=w)
    np.testing.assert_allclose(g.percent_tested, tested, rtol=1e-12)
    np.testing.assert_allclose(g.percent_found, found, rtol=1e-12)
    np.testing.assert_allclose(lift_curve(y, s, sample_weight=w)[1],
                               np.array(found[1:]) / np.array(tested[1:]), rtol=1e-12)
    if not neg > 0:
        with pytest.raises(ValueError, match="both classes"):
            ks_statistic(y, s, sample_weight=w)
        return
    thr = np.r_[np.inf, np.unique(s)[::-1]]
    tpr = np.array([(ww * y)[s >= t].sum() / pos for t in thr])
    fpr = np.array([(ww * (1 - y))[s >= t].sum() / neg for t in thr])
    ks = ks_statistic(y, s, sample_weight=w)
    assert ks.statistic == pytest.approx(np.abs(tpr - fpr).max(), rel=1e-12)
    if w is None:
        assert ks.statistic == pytest.approx(ks_2samp(s[y == 1], s[y == 0]).statistic)
    # Drummond & Holte 2006: the envelope is the lowest line over every threshold
    grid = np.linspace(0.0, 1.0, 4001)
    lines = [(1 - t) * grid + f * (1 - grid) for t, f in zip(tpr, fpr, strict=True)]
    envelope = np.minimum.reduce(lines)
    cc = cost_curve(y, s, sample_weight=w)
    np.testing.assert_allclose(cc.at(grid), envelope, atol=1e-12)
    # exact area: the envelope is linear between its vertices, which lie on the lines
    assert cc.area == pytest.approx(np.trapezoid(envelope, grid), abs=1e-6)


# ------------------------------------------------------------------ McNemar
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 5), st.integers(0, 5),
       st.sampled_from([True, False, None]), st.booleans())
def test_mcnemar_matches_statsmodels(b, c, both_right, both_wrong, exact, correction):
    if b + c + both_right + both_wrong == 0:
        return
    y = np.zeros(b + c + both_right + both_wrong, int)
    a = np.r_[np.zeros(b, int), np.ones(c, int), np.zeros(both_right, int),
              np.ones(both_wrong, int)]
    p = np.r_[np.ones(b, int), np.zeros(c, int), np.zeros(both_right, int),
              np.ones(both_wrong, int)]
    r = confmat.mcnemar(y, a, p, exact=exact, correction=correction)
    assert r.table.tolist() == [[both_right, b], [c, both_wrong]]
    use_exact = (b + c < 25) if exact is None else exact
    if b == c and not use_exact:  # R's convention, checked against R below
        assert (r.statistic, r.pvalue) == (0.0, 1.0)
        return
    ref = sm_mcnemar(r.table, exact=use_exact, correction=correction)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_mcnemar_b_equal_c_matches_r(proc):  # noqa: F811
    tables = [(3, 5, 5, 2), (7, 1, 1, 0), (0, 12, 12, 9), (4, 30, 30, 1), (2, 6, 4, 1)]
    code = """
    out <- list()
    for (i in seq_along(a)) {
      m <- matrix(c(a[i], c[i], b[i], d[i]), 2)
      t <- mcnemar.test(m, correct = TRUE)
      out[[paste0("s", i)]] <- unname(t$statistic)
      out[[paste0("p", i)]] <- t$p.value
    }
    """
    cols = np.array(tables, float).T
    r = proc(code, a=cols[0], b=cols[1], c=cols[2], d=cols[3])
    for i, (n11, n12, n21, n22) in enumerate(tables, start=1):
        y = np.zeros(n11 + n12 + n21 + n22, int)
        pa = np.r_[np.zeros(n11 + n12, int), np.ones(n21 + n22, int)]
        pb = np.r_[np.zeros(n11, int), np.ones(n12, int), np.zeros(n21, int),
                   np.ones(n22, int)]
        res = confmat.mcnemar(y, pa, pb, exact=False, correction=True)
        assert res.table.tolist() == [[n11, n12], [n21, n22]]
        assert res.statistic == pytest.approx(r[f"s{i}"][0], rel=1e-12, abs=1e-15)
        assert res.pvalue == pytest.approx(r[f"p{i}"][0], rel=1e-12)


# ------------------------------------------------------------------ model comparison
R_ROC_TEST = """
out <- list()
ends <- cumsum(lens); starts <- ends - lens + 1
for (i in seq_along(lens)) {
  j <- starts[i]:ends[i]
  r1 <- roc(y[j], a[j], levels = c(0, 1), direction = "<", quiet = TRUE)
  r2 <- roc(y[j], b[j], levels = c(0, 1), direction = "<", quiet = TRUE)
  t <- roc.test(r1, r2, method = "delong", paired = TRUE)
  out[[paste0("p", i)]] <- t$p.value
  out[[paste0("z", i)]] <- unname(t$statistic)
  out[[paste0("d", i)]] <- unname(t$estimate[1] - t$estimate[2])
}
"""


def test_compare_delong_matches_proc_roc_test(proc):  # noqa: F811
    rng = np.random.default_rng(11)
    sets = []
    for _ in range(8):
        n = int(rng.integers(6, 30))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        sets.append((y, rng.integers(0, 4, n) / 3.0, (y + rng.integers(0, 3, n)) / 4.0))
    y = np.array([0, 0, 1, 1, 0, 1])
    perfect = np.array([0.1, 0.2, 0.9, 0.8, 0.3, 0.7])
    sets.append((y, perfect, np.array([0.5, 0.2, 0.6, 0.8, 0.3, 0.1])))  # one model perfect
    r = proc(R_ROC_TEST, y=np.concatenate([s[0] for s in sets]),
             a=np.concatenate([s[1] for s in sets]), b=np.concatenate([s[2] for s in sets]),
             lens=[len(s[0]) for s in sets])
    for i, (y, a, b) in enumerate(sets, start=1):
        cmp = compare({"a": a, "b": b}, y, ["roc_auc"], n_resamples=200, random_state=0)
        (row,) = cmp.pairwise
        sign = 1.0 if row["model_a"] == "a" else -1.0
        assert sign * row["difference"] == pytest.approx(r[f"d{i}"][0], rel=1e-12)
        assert sign * row["statistic"] == pytest.approx(r[f"z{i}"][0], rel=1e-9)
        assert row["pvalue"] == pytest.approx(r[f"p{i}"][0], rel=1e-9)


def test_compare_identical_models():
    y = [0, 1, 1, 0, 1, 0]
    pred = [0, 1, 1, 0, 1, 1]
    cmp = compare({"a": pred, "b": list(pred)}, y, ["accuracy"], n_resamples=200,
                  random_state=0)
    (row,) = cmp.pairwise
    ref = sm_mcnemar([[5, 0], [0, 1]], exact=True)
    assert (row["difference"], row["statistic"], row["pvalue"]) == (0.0, ref.statistic,
                                                                    ref.pvalue)


def test_compare_to_frame_is_its_intervals():
    y = [0, 1, 1, 0, 1, 0, 1, 0]
    models = {"a": [.1, .9, .8, .2, .7, .3, .4, .6], "b": [.2, .6, .7, .1, .9, .4, .3, .2]}
    cmp = compare(models, y, ["roc_auc", "accuracy", "average_precision"], n_resamples=200,
                  random_state=0)
    frame = cmp.to_frame()
    assert list(frame.index) == cmp.models
    for m in cmp.models:
        for k in cmp.metrics:
            ci = cmp.intervals[m][k]
            assert frame.loc[m, (k, "estimate")] == ci.estimate
            assert frame.loc[m, (k, "low")] == ci.low
            assert frame.loc[m, (k, "high")] == ci.high
    # the estimates themselves, against scikit-learn
    from sklearn.metrics import accuracy_score, roc_auc_score
    for m, s in models.items():
        assert frame.loc[m, ("roc_auc", "estimate")] == pytest.approx(roc_auc_score(y, s))
        assert frame.loc[m, ("average_precision", "estimate")] == pytest.approx(
            average_precision_score(y, s))
        assert frame.loc[m, ("accuracy", "estimate")] == pytest.approx(
            accuracy_score(y, (np.asarray(s) >= 0.5).astype(int)))
    pw = cmp.pairwise_frame()
    assert pw.to_dict("records") == cmp.pairwise


def test_model_names_written_the_same_are_an_error():
    # 1 and "1" are two keys but one name in every table: a model was silently lost
    y = [0, 1, 1, 0]
    with pytest.raises(ValueError, match=r"model names must be unique as text: \[1, '1'\]"):
        compare({1: [0, 1, 1, 0], "1": [0, 0, 1, 0]}, y, ["accuracy"], n_resamples=200)
    with pytest.raises(ValueError, match=r"model names must be unique as text: \[1, '1'\]"):
        compare_curves(y, {1: [.1, .9, .8, .2], "1": [.2, .4, .6, .1]})
    with pytest.raises(ValueError, match=r"model names must be unique as text: \['m', 'm'\]"):
        compare_curves(y, [[.1, .9, .8, .2], [.2, .4, .6, .1]], names=["m", "m"])


@pytest.mark.parametrize("bad", ["pred_a", "pred_b"])
def test_label_kinds_that_cannot_meet_name_the_vector(bad):
    y = ["x", "y", "y", "x"]
    good, wrong = ["x", "y", "x", "x"], [0, 1, 1, 0]
    args = {"pred_a": good, "pred_b": good, bad: wrong}
    with pytest.raises(TypeError, match=f"^{bad} against y_true: .*label types"):
        confmat.mcnemar(y, args["pred_a"], args["pred_b"])
    with pytest.raises(TypeError, match=f"^{bad} against y_true: .*label types"):
        confmat.paired_bootstrap(y, args["pred_a"], args["pred_b"], "accuracy",
                                 n_resamples=200)
    with pytest.raises(TypeError, match=r"models\['b'\] against y_true"):
        compare({"a": good, "b": wrong}, y, ["accuracy"], n_resamples=200)


def test_ks_with_weights_near_the_float64_limit():
    # P * N of weights near 1e300 passes float64: the statistic came out NaN
    y, s = np.array([0, 1, 0, 1, 0]), np.array([0.1, 0.9, 0.5, 0.4, 0.45])
    w = np.array([1.0, 2.0, 1.0, 1.0, 3.0])
    # by hand: positives 0.9 (2), 0.4 (1); negatives 0.5 (1), 0.45 (3), 0.1 (1)
    # at threshold 0.9: TPR 2/3, FPR 0 -> 2/3, the largest gap
    for scale in (1.0, 1e300, 1e-300):
        r = ks_statistic(y, s, sample_weight=w * scale)
        assert (r.statistic, r.threshold) == (pytest.approx(2 / 3), 0.9)
        assert (r.tpr, r.fpr) == (pytest.approx(2 / 3), 0.0)


def test_two_column_scores_follow_labels_order():
    # the columns of 2-D scores follow ``labels``; the positive column was taken from the
    # sorted classes instead, so with labels=['b', 'a'] every area was that of P(b)
    from sklearn.metrics import roc_auc_score
    y = np.array(["a", "b", "b", "a", "b", "a", "a", "b"])
    pa = np.array([0.9, 0.2, 0.4, 0.7, 0.1, 0.6, 0.3, 0.5])
    qa = np.array([0.4, 0.3, 0.8, 0.6, 0.2, 0.7, 0.9, 0.1])
    models = {"m": np.c_[1 - pa, pa], "n": np.c_[1 - qa, qa]}  # columns: P(b), P(a)
    cmp = compare(models, y, ["roc_auc", "average_precision"], labels=["b", "a"],
                  pos_label="a", n_resamples=200, random_state=0)
    for name, p in (("m", pa), ("n", qa)):
        assert cmp.intervals[name]["roc_auc"].estimate == pytest.approx(
            roc_auc_score(y == "a", p))
        assert cmp.intervals[name]["average_precision"].estimate == pytest.approx(
            average_precision_score(y == "a", p))
        assert cmp.auc[name] == pytest.approx(roc_auc_score(y == "a", p))
    (row,) = cmp.pairwise
    sign = 1.0 if row["model_a"] == "m" else -1.0
    assert sign * row["difference"] == pytest.approx(
        roc_auc_score(y == "a", pa) - roc_auc_score(y == "a", qa))


def test_matrices_must_match_the_y_true_given():
    # models given as matrices were only checked among themselves: a y_true of other
    # supports was accepted and silently ignored
    a = confmat.ConfusionMatrix([[5, 1], [2, 7]], labels=[0, 1])
    b = confmat.ConfusionMatrix([[6, 0], [1, 8]], labels=[0, 1])
    with pytest.raises(ValueError, match=r"model 'a' was evaluated on a different y_true"):
        compare({"a": a, "b": b}, [0, 1, 1, 0], ["accuracy"], n_resamples=200)
    with pytest.raises(ValueError, match=r"model 'x' was evaluated on a different y_true"):
        compare({"x": confmat.ConfusionMatrix([[5, 1], [2, 7]], labels=["x", "y"])},
                [0, 1, 1, 0], ["accuracy"], n_resamples=200)
    y = [0] * 6 + [1] * 9  # the truth the matrices were counted on
    cmp = compare({"a": a, "b": b}, y, ["accuracy"], n_resamples=200, random_state=0)
    assert {m: cmp.intervals[m]["accuracy"].estimate for m in cmp.models} == {
        "b": 14 / 15, "a": 12 / 15}


@pytest.mark.parametrize("scale", [1.0, 2.0**-1000, 2.0**1000, 1e300, 1e-300])
def test_sweep_per_class_metrics_with_weights_far_from_one(scale):
    # the sweep's per-class metrics gave the NEGATIVE class's value when the weights were
    # far from 1 (the rescaled tables hold both classes), so best_threshold('f1') chose wrong
    from sklearn.metrics import f1_score, precision_score, recall_score
    y = np.array([0, 1, 1, 0, 1, 0, 1])
    s = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
    w = np.array([1.0, 2.0, 1.0, 1.0, 3.0, 2.0, 1.0]) * scale
    sweep = confmat.threshold_sweep(y, s, sample_weight=w)
    for name, oracle in (("f1", f1_score), ("precision", precision_score),
                         ("recall", recall_score)):
        expected = [oracle(y, (s >= t).astype(int), sample_weight=w, zero_division=0)
                    for t in sweep.thresholds]
        np.testing.assert_allclose(sweep.metric(name, zero_division=0), expected, rtol=1e-12)
    # by hand: at 0.2 TP = 7 of 7, FP = 3 of 4 -> F1 = 14 / 17, the best of the thresholds
    best = confmat.best_threshold(y, s, "f1", sample_weight=w)
    assert (best.threshold, best.value) == (0.2, pytest.approx(14 / 17))


def test_compare_threshold_and_scores_go_through_the_door():
    # threshold=nan made every 1-D score a negative prediction without a word; a string
    # gave numpy's ufunc error; NaN scores were reported as 'y_score', not as the model
    y, s = [0, 1, 1, 0], [0.1, 0.9, 0.6, 0.4]
    with pytest.raises(ValueError, match="threshold must not be NaN"):
        compare({"a": s}, y, ["accuracy"], threshold=float("nan"), n_resamples=200)
    for bad in ("x", True, None):
        with pytest.raises(TypeError, match="threshold must be a real number"):
            compare({"a": s}, y, ["accuracy"], threshold=bad, n_resamples=200)
    with pytest.raises(ValueError, match=r"models\['a'\] contains NaN at position 2"):
        compare({"a": [0.1, 0.9, np.nan, 0.4]}, y, ["accuracy"], n_resamples=200)
    with pytest.raises(TypeError, match=r"models\['a'\] must contain numbers"):
        compare({"a": {"score": ["p", "q", "r", "s"]}}, y, ["accuracy"], n_resamples=200)
    # a threshold of another numeric type is the same threshold (hand: 0.9, 0.6 -> 1)
    cmp = compare({"a": s}, y, ["accuracy"], threshold=np.float32(0.5), n_resamples=200)
    assert cmp.intervals["a"]["accuracy"].estimate == 1.0


@pytest.mark.parametrize(("y", "pos"), [
    (["a", "b", "b", "a", "b", "a"], "a"), ([True, False, False, True, False, True], False),
    ([1, -1, -1, 1, -1, 1], -1), ([1, -1, -1, 1, -1, 1], None),
])
def test_calibration_pos_label_of_every_kind(y, pos):
    p = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]  # 0, 1 and every inner edge of 5 bins
    cal = calibration(y, p, n_bins=5, pos_label=pos)
    assert cal.brier == pytest.approx(brier_score_loss(y, p, pos_label=pos))
    obs, pred = calibration_curve(y, p, n_bins=5, pos_label=pos)
    keep = cal.curve.nonempty
    np.testing.assert_allclose(cal.curve.observed[keep], obs)
    np.testing.assert_allclose(cal.curve.mean_predicted[keep], pred)
