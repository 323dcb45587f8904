"""Confidence intervals, DeLong, score bootstrap, paired bootstrap and prior shift.

Expected values come from scikit-learn, scipy, brute force written here, or formulas worked
here by hand; never from confmat itself.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats as sps
from sklearn.metrics import (
    average_precision_score,
    f1_score,
    matthews_corrcoef,
    recall_score,
    roc_auc_score,
)

import confmat
from confmat import ConfusionMatrix
from confmat.inference import intervals as iv
from confmat.inference import scores as sc
from confmat.inference.score_runs import ScoreRuns, multiplicities

TABLE3 = np.array([[50, 3, 2], [4, 40, 6], [1, 5, 30]])
METRIC_NAMES = [s.name for s in confmat.list_metrics()]


def _quiet(fn, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **kw)


# --------------------------------------------------------------------------- every metric
@pytest.mark.parametrize("name", METRIC_NAMES)
def test_every_registry_metric_has_an_interval(name):
    cm = ConfusionMatrix(TABLE3)
    spec = confmat.get_metric(name)
    try:
        point = _quiet(cm.metric, name)
    except (ValueError, TypeError) as exc:  # a metric that does not apply to this table
        pytest.skip(f"{name} does not apply to a 3-class table: {exc}")
    averages = [None, "macro", "micro"] if spec.kind == "per_class" else [None]
    for average in averages:
        methods = ["auto", "percentile", "bca"]
        for method in methods:
            ci = _quiet(cm.ci, name, method=method, average=average, n_resamples=300,
                        random_state=1)
            low, high = ci
            expected_shape = (3,) if (spec.kind == "per_class" and average is None) else ()
            assert np.shape(low) == np.shape(high) == expected_shape, (name, average, method)
            lo, hi = np.asarray(low), np.asarray(high)
            both = np.isfinite(lo) & np.isfinite(hi)
            assert np.all(lo[both] <= hi[both] + 1e-12), (name, average, method, lo, hi)
            assert ci.method in iv.METHODS
            assert ci.references
            if average is None:
                np.testing.assert_allclose(ci.estimate, point, equal_nan=True)


@pytest.mark.parametrize("name", ["recall", "precision", "specificity", "npv", "accuracy",
                                  "error_rate", "jaccard", "prevalence"])
def test_auto_is_wilson_for_proportions(name):
    assert ConfusionMatrix(TABLE3).ci(name).method == "wilson"


def test_auto_choices_documented():
    cm = ConfusionMatrix(TABLE3)
    assert cm.ci("kappa").method == "kappa_asymptotic"
    assert cm.ci("f1", n_resamples=200, random_state=0).method == "bca"
    assert cm.ci("recall", average="macro", n_resamples=200, random_state=0).method == "bca"
    assert cm.ci("mcc", n_resamples=200, random_state=0).method == "bca"


def test_pos_label_selects_a_class():
    cm = ConfusionMatrix(TABLE3, labels=["a", "b", "c"])
    lo, hi = cm.ci("recall", pos_label="b")
    ref = sps.binomtest(40, 50).proportion_ci(0.95, method="wilson")
    assert (lo, hi) == pytest.approx((ref.low, ref.high), abs=1e-12)


# --------------------------------------------------------------------------- analytic methods
def test_fisher_z_by_hand_for_binary_mcc():
    c = np.array([[90, 10], [20, 80]])
    cm = ConfusionMatrix(c)
    tp, fn, fp, tn = 90, 10, 20, 80  # class 0 positive; phi is symmetric in the labelling
    r = (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    half = 1.959963984540054 / np.sqrt(200 - 3)
    lo, hi = cm.ci("mcc", method="fisher_z")
    assert (lo, hi) == pytest.approx((np.tanh(np.arctanh(r) - half),
                                      np.tanh(np.arctanh(r) + half)), abs=1e-12)
    lo_c, hi_c = cm.ci("class_mcc", method="fisher_z")
    assert lo_c == pytest.approx([lo, lo]) and hi_c == pytest.approx([hi, hi])


def test_fisher_z_refused_for_multiclass_mcc():
    with pytest.raises(ValueError, match="fisher_z"):
        ConfusionMatrix(TABLE3).ci("mcc", method="fisher_z")


def test_proportion_method_refused_for_non_proportions():
    cm = ConfusionMatrix(TABLE3)
    with pytest.raises(ValueError, match="binomial proportion"):
        cm.ci("f1", method="wilson")
    with pytest.raises(ValueError, match="binomial proportion"):
        cm.ci("specificity", method="wilson", average="micro")
    with pytest.raises(ValueError, match="kappa_asymptotic"):
        cm.ci("accuracy", method="kappa_asymptotic")
    with pytest.raises(ValueError, match="method must be"):
        cm.ci("accuracy", method="jackknife")


def test_wald_by_hand_and_its_clipping():
    cm = ConfusionMatrix([[19, 1], [0, 0]])
    lo, hi = cm.ci("accuracy", method="wald", level=0.9)
    p = 19 / 20
    half = sps.norm.ppf(0.95) * np.sqrt(p * (1 - p) / 20)
    assert (lo, hi) == pytest.approx((p - half, min(1.0, p + half)))


# --------------------------------------------------------------------------- count bootstrap
def _samples(c):
    """Expand a K x K table into (y_true, y_pred) samples."""
    k = c.shape[0]
    t = np.repeat(np.repeat(np.arange(k), k), c.ravel())
    p = np.repeat(np.tile(np.arange(k), k), c.ravel())
    return t, p


def _sample_bootstrap_recall(c, b, seed):
    """Resample the samples themselves; recall worked out by hand from the resampled pairs."""
    t, p = _samples(c)
    k = c.shape[0]
    rng = np.random.default_rng(seed)
    out = np.empty((b, k))
    for i in range(b):
        idx = rng.integers(0, t.size, t.size)
        hit = np.bincount(t[idx][t[idx] == p[idx]], minlength=k)
        out[i] = hit / np.maximum(np.bincount(t[idx], minlength=k), 1)
    return out


def _mcc_by_hand(t, p, k):
    """Gorodkin's R_K from the resampled pairs."""
    c = np.bincount(t * k + p, minlength=k * k).reshape(k, k).astype(float)
    n, tr, rows, cols = c.sum(), np.trace(c), c.sum(1), c.sum(0)
    den = np.sqrt(n * n - (cols**2).sum()) * np.sqrt(n * n - (rows**2).sum())
    return (tr * n - (rows * cols).sum()) / den


def test_multinomial_bootstrap_agrees_in_distribution_with_sample_bootstrap():
    c = np.array([[40, 8, 2], [6, 30, 4], [3, 2, 25]])
    b = 4000
    sample = _sample_bootstrap_recall(c, b, seed=5)
    counts = iv.bootstrap_values(c, 3, "recall", None, 20000, np.random.default_rng(7))
    q = [0.025, 0.1, 0.25, 0.5, 0.75, 0.9, 0.975]
    qs, qc = np.quantile(sample, q, axis=0), np.quantile(counts, q, axis=0)
    # Monte Carlo error of these quantiles is ~0.006 at B = 4000; recall's SE here is ~0.05-0.07
    assert np.max(np.abs(qs - qc)) < 0.02
    assert np.abs(sample.mean(0) - counts.mean(0)).max() < 0.005
    assert np.abs(sample.std(0) - counts.std(0)).max() < 0.004
    # the same tolerance rejects a wrong resampling scheme (tables of N / 2 samples)
    wrong = iv.bootstrap_values(c // 2, 3, "recall", None, 20000, np.random.default_rng(7))
    assert np.abs(sample.std(0) - wrong.std(0)).max() > 0.004


def test_percentile_and_bca_agree_with_scipy_bootstrap():
    rng = np.random.default_rng(0)
    n = 250
    y = rng.integers(0, 2, n)
    p = np.where(rng.random(n) < 0.75, y, 1 - y)

    def phi(a, b, axis=-1):
        ma, mb = a.mean(axis), b.mean(axis)
        cov = (a * b).mean(axis) - ma * mb
        return cov / np.sqrt(ma * (1 - ma) * mb * (1 - mb))

    cm = ConfusionMatrix.from_predictions(y, p)
    for method, sp_method in (("percentile", "percentile"), ("bca", "BCa")):
        ref = sps.bootstrap((y, p), phi, paired=True, vectorized=True, n_resamples=20000,
                            method=sp_method, random_state=1).confidence_interval
        ci = cm.ci("mcc", method=method, n_resamples=20000, random_state=2)
        assert ci.low == pytest.approx(ref.low, abs=0.01), method
        assert ci.high == pytest.approx(ref.high, abs=0.01), method


def test_count_jackknife_is_the_sample_jackknife():
    c = np.array([[9, 2, 1], [3, 7, 0], [1, 2, 6]])
    t, p = _samples(c)
    brute = np.array([
        f1_score(np.delete(t, i), np.delete(p, i), average="macro", labels=[0, 1, 2],
                 zero_division=0)
        for i in range(t.size)
    ])
    vals, weights = iv.jackknife_values(c, 3, "f1", "macro")
    assert np.allclose(weights, np.round(weights))
    expanded = np.repeat(vals, np.round(weights).astype(int))
    assert np.allclose(np.sort(expanded), np.sort(brute), atol=1e-12)


def test_bca_corrects_a_skewed_metric_differently_from_percentile():
    cm = ConfusionMatrix([[95, 5], [3, 12]])
    pct = cm.ci("lr_plus", method="percentile", random_state=0, pos_label=0)
    bca = cm.ci("lr_plus", method="bca", random_state=0, pos_label=0)
    assert pct.low < pct.estimate < pct.high
    assert (bca.low, bca.high) != (pct.low, pct.high)


def test_reproducible_with_seed_and_generator():
    cm = ConfusionMatrix(TABLE3)
    a = cm.ci("f1", n_resamples=500, random_state=3)
    b = cm.ci("f1", n_resamples=500, random_state=3)
    c = cm.ci("f1", n_resamples=500, random_state=np.random.default_rng(3))
    d = cm.ci("f1", n_resamples=500, random_state=4)
    assert np.array_equal(a.low, b.low) and np.array_equal(a.high, b.high)
    assert np.array_equal(a.low, c.low)
    assert not np.array_equal(a.low, d.low)


def test_weighted_matrix_bootstrap_keeps_its_total():
    cm = ConfusionMatrix([[10.5, 2.5], [3.0, 8.0]])
    stack = np.concatenate(list(iv.resample_tables(cm._table, 50, np.random.default_rng(0))))
    assert np.allclose(stack.sum(axis=(1, 2)), 24.0)
    lo, hi = cm.ci("f1", n_resamples=300, random_state=0)
    assert np.all(lo <= hi)


def test_label_subset_is_resampled_with_its_outside_margin():
    y = [0, 1, 2, 2, 1, 0, 2, 1, 0, 0] * 10
    p = [0, 2, 2, 1, 1, 0, 2, 0, 0, 1] * 10
    cm = ConfusionMatrix.from_predictions(y, p, labels=[0, 1])
    ref = recall_score(y, p, labels=[0, 1], average=None)
    ci = cm.ci("recall", method="percentile", n_resamples=300, random_state=0)
    assert np.allclose(ci.estimate, ref)
    # class 0: 30 right of 40 (10 predicted as 1); class 1: 10 of 30 (10 into unselected 2)
    assert np.allclose(ci.estimate, [30 / 40, 10 / 30])
    assert np.all(ci.low < ci.estimate) and np.all(ci.estimate < ci.high)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"level": 0.0}, ValueError, "level"),
        ({"level": 1.0}, ValueError, "level"),
        ({"level": 95}, ValueError, "level"),
        ({"level": True}, TypeError, "level"),
        ({"level": "0.9"}, TypeError, "level"),
        ({"n_resamples": 50, "method": "percentile"}, ValueError, "n_resamples"),
        ({"n_resamples": 150, "level": 0.999, "method": "bca"}, ValueError, "n_resamples"),
        ({"n_resamples": 500.0, "method": "bca"}, TypeError, "n_resamples"),
        ({"random_state": "seed", "method": "bca"}, TypeError, "random_state"),
        ({"method": 3}, TypeError, "method"),
        ({"average": "samples"}, ValueError, "average"),
    ],
)
def test_clear_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ConfusionMatrix(TABLE3).ci("f1", **kwargs)


# --------------------------------------------------------------------------- DeLong
def _delong_brute(y, scores):
    """DeLong et al. (1988) with the O(m n) placement kernel psi."""
    pos, neg = scores[:, y == 1], scores[:, y == 0]
    m, n = pos.shape[1], neg.shape[1]
    psi = (pos[:, :, None] > neg[:, None, :]) + 0.5 * (pos[:, :, None] == neg[:, None, :])
    auc = psi.mean(axis=(1, 2))
    v10 = psi.mean(axis=2)
    v01 = psi.mean(axis=1)
    k = scores.shape[0]
    s10 = np.array([[((v10[r] - auc[r]) * (v10[s] - auc[s])).sum() / (m - 1) for s in range(k)]
                    for r in range(k)])
    s01 = np.array([[((v01[r] - auc[r]) * (v01[s] - auc[s])).sum() / (n - 1) for s in range(k)]
                    for r in range(k)])
    return auc, s10 / m + s01 / n


@pytest.mark.parametrize("seed", range(5))
def test_delong_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = [12, 30, 57, 80, 25][seed]
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    a = np.round(y + rng.normal(0, 1, n), 1)  # rounding makes ties
    b = np.round(0.5 * y + rng.normal(0, 1, n), 1)
    res = confmat.delong(y, a, b)
    auc, cov = _delong_brute(y, np.vstack([a, b]))
    assert (res.auc_a, res.auc_b) == pytest.approx((auc[0], auc[1]), abs=1e-12)
    assert res.auc_a == pytest.approx(roc_auc_score(y, a), abs=1e-12)
    np.testing.assert_allclose(res.covariance, cov, atol=1e-14)
    z = (auc[0] - auc[1]) / np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    assert res.statistic == pytest.approx(z, rel=1e-9)
    assert res.pvalue == pytest.approx(2 * sps.norm.sf(abs(z)), rel=1e-9)


def test_delong_labels_and_errors():
    y = np.array(["neg", "pos", "pos", "neg", "pos", "neg"])
    a = np.array([0.1, 0.9, 0.7, 0.3, 0.4, 0.5])
    res = confmat.delong(y, a, a, pos_label="pos")
    assert res.pvalue == 1.0 and res.difference == 0.0
    with pytest.raises(ValueError, match="pos_label"):
        confmat.delong(y, a, a)
    with pytest.raises(ValueError, match="score_b"):
        confmat.delong(y, a, a[:-1], pos_label="pos")
    with pytest.raises(ValueError, match="one class"):
        confmat.delong(np.ones(6, int), a, a)


def test_delong_auc_interval_by_hand():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 40)
    s = y + rng.normal(0, 1, 40)
    auc, cov = _delong_brute(y, s[None])
    ci = confmat.score_ci(y, s, "roc_auc")
    half = sps.norm.ppf(0.975) * np.sqrt(cov[0, 0])
    assert (ci.low, ci.high) == pytest.approx((auc[0] - half, min(1, auc[0] + half)))


# --------------------------------------------------------------------------- score bootstrap
def test_score_metrics_match_sklearn_with_ties():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    s = np.round(y * 0.4 + rng.random(300), 1)
    assert sc.score_metric(y, s, "roc_auc") == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert sc.score_metric(y, s, "ap") == pytest.approx(average_precision_score(y, s), abs=1e-12)


@pytest.mark.parametrize("use_numba", [True, False])
@pytest.mark.parametrize("digits", [1, None])  # tied scores, and the path without ties
def test_resampled_score_metrics_are_metrics_of_the_resampled_samples(digits, use_numba):
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 60)
    s = y * 0.5 + rng.random(60)
    if digits is not None:
        s = np.round(s, digits)
    draws = np.random.default_rng(0).integers(0, 60, (5, 60))
    runs = ScoreRuns.build(y == 1, s)
    auc = runs.values_of_draws("roc_auc", draws, use_numba=use_numba)[:, 0]
    ap = runs.values("average_precision", multiplicities(draws, 60), use_numba=use_numba)[:, 0]
    for r in range(5):
        idx = draws[r]
        assert auc[r] == pytest.approx(roc_auc_score(y[idx], s[idx]), abs=1e-12)
        assert ap[r] == pytest.approx(average_precision_score(y[idx], s[idx]), abs=1e-12)


def test_score_bootstrap_interval_agrees_with_a_sample_loop():
    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 200)
    s = y + rng.normal(0, 1.2, 200)
    ci = confmat.score_ci(y, s, "average_precision", n_resamples=4000, random_state=0)
    loop_rng = np.random.default_rng(1)
    vals = []
    for _ in range(600):
        idx = loop_rng.integers(0, 200, 200)
        vals.append(average_precision_score(y[idx], s[idx]))
    lo, hi = np.quantile(vals, [0.025, 0.975])
    assert ci.low == pytest.approx(lo, abs=0.02) and ci.high == pytest.approx(hi, abs=0.02)


# --------------------------------------------------------------------------- paired bootstrap
def test_paired_bootstrap_of_labels_agrees_with_a_sample_loop():
    rng = np.random.default_rng(10)
    n = 300
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.8, y, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    res = confmat.paired_bootstrap(y, a, b, "mcc", n_resamples=10000, random_state=0)
    obs = matthews_corrcoef(y, a) - matthews_corrcoef(y, b)
    assert res.difference == pytest.approx(obs, abs=1e-12)
    loop_rng = np.random.default_rng(3)
    d = []
    for _ in range(4000):
        idx = loop_rng.integers(0, n, n)
        d.append(_mcc_by_hand(y[idx], a[idx], 3) - _mcc_by_hand(y[idx], b[idx], 3))
    lo, hi = np.quantile(d, [0.025, 0.975])
    assert res.low == pytest.approx(lo, abs=0.01) and res.high == pytest.approx(hi, abs=0.01)
    p_loop = (1 + np.sum(np.abs(np.array(d) - obs) >= abs(obs))) / (1 + len(d))
    assert res.pvalue == pytest.approx(p_loop, abs=0.025)


def test_paired_bootstrap_identical_models_and_clear_differences():
    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 400)
    good = np.where(rng.random(400) < 0.95, y, 1 - y)
    bad = np.where(rng.random(400) < 0.6, y, 1 - y)
    same = confmat.paired_bootstrap(y, good, good, "f1", pos_label=1, random_state=0)
    assert same.difference == 0.0 and same.pvalue == 1.0
    diff = confmat.paired_bootstrap(y, good, bad, "accuracy", random_state=0)
    assert diff.pvalue < 0.001 and diff.low > 0
    per_class = confmat.paired_bootstrap(y, good, bad, "recall", n_resamples=500,
                                         random_state=0)
    assert np.shape(per_class.difference) == (2,)


def test_paired_bootstrap_of_scores_is_paired():
    rng = np.random.default_rng(13)
    y = rng.integers(0, 2, 300)
    a = y + rng.normal(0, 1, 300)
    b = a + rng.normal(0, 0.05, 300)  # nearly the same ranking: the paired difference is tiny
    res = confmat.paired_bootstrap(y, a, b, "roc_auc", n_resamples=2000, random_state=0)
    assert res.high - res.low < 0.02
    single = confmat.score_ci(y, a, "roc_auc", method="percentile", random_state=0)
    assert single.high - single.low > 5 * (res.high - res.low)


def test_paired_bootstrap_errors():
    with pytest.raises(ValueError, match="pred_b"):
        confmat.paired_bootstrap([0, 1, 1], [0, 1, 1], [0, 1], "accuracy")
    with pytest.raises(ValueError, match="n_resamples"):
        confmat.paired_bootstrap([0, 1, 1], [0, 1, 1], [0, 1, 0], "accuracy", n_resamples=10)


# --------------------------------------------------------------------------- McNemar
def test_mcnemar_by_hand():
    # b = 8 (A right, B wrong), c = 2 -> exact p = 2 * P(X <= 2), X ~ Bin(10, 1/2)
    y = np.zeros(30, int)
    a = np.r_[np.zeros(8, int), np.ones(2, int), np.zeros(15, int), np.ones(5, int)]
    b = np.r_[np.ones(8, int), np.zeros(2, int), np.zeros(15, int), np.ones(5, int)]
    res = confmat.mcnemar(y, a, b)
    assert res.b == 8 and res.c == 2 and res.method == "exact binomial"
    assert res.pvalue == pytest.approx(2 * (1 + 10 + 45) / 1024)
    chi = confmat.mcnemar(y, a, b, exact=False)
    assert chi.statistic == pytest.approx((8 - 2 - 1) ** 2 / 10)
    with pytest.raises(TypeError, match="exact"):
        confmat.mcnemar(y, a, b, exact="yes")
    with pytest.raises(ValueError, match="pred_b"):
        confmat.mcnemar(y, a, b[:-1])


# --------------------------------------------------------------------------- prior shift
def test_at_prevalence_is_bayes_rule():
    cm = ConfusionMatrix([[90, 10], [30, 170]], labels=["sick", "healthy"])
    sens, spec = 0.9, 170 / 200
    for pi in (0.01, 0.2, 0.5):
        shifted = cm.at_prevalence({"sick": pi, "healthy": 1 - pi})
        ppv = sens * pi / (sens * pi + (1 - spec) * (1 - pi))
        npv = spec * (1 - pi) / (spec * (1 - pi) + (1 - sens) * pi)
        acc = sens * pi + spec * (1 - pi)
        assert shifted.metric("precision", pos_label="sick") == pytest.approx(ppv)
        assert shifted.metric("npv", pos_label="sick") == pytest.approx(npv)
        assert shifted.metric("accuracy") == pytest.approx(acc)
        assert shifted.metric("recall", pos_label="sick") == pytest.approx(sens)
        assert shifted.n == pytest.approx(cm.n)
        assert shifted.is_weighted


def test_at_prevalence_multiclass_and_errors():
    cm = ConfusionMatrix(TABLE3)
    shifted = cm.at_prevalence(np.array([0.6, 0.3, 0.1]), n=1000)
    rows = TABLE3 / TABLE3.sum(1, keepdims=True)
    expected = 1000 * np.array([0.6, 0.3, 0.1])[:, None] * rows
    np.testing.assert_allclose(shifted.counts, expected)
    with pytest.raises(ValueError, match="sum to 1"):
        cm.at_prevalence([0.5, 0.3, 0.1])
    with pytest.raises(ValueError, match="non-negative"):
        cm.at_prevalence([1.2, -0.1, -0.1])
    with pytest.raises(ValueError, match="missing"):
        cm.at_prevalence({0: 0.5, 1: 0.5})
    with pytest.raises(ValueError, match="not in the matrix"):
        cm.at_prevalence({0: 0.5, 1: 0.25, 2: 0.25, 7: 0.0})
    with pytest.raises(ValueError, match="one proportion per class"):
        cm.at_prevalence([0.5, 0.5])
    with pytest.raises(ValueError, match="no samples"):
        ConfusionMatrix([[5, 1], [0, 0]]).at_prevalence([0.5, 0.5])
    sub = ConfusionMatrix.from_predictions([0, 1, 2], [0, 1, 1], labels=[0, 1])
    with pytest.raises(ValueError, match="label subset"):
        sub.at_prevalence([0.5, 0.5])


def test_degenerate_tables_give_nan_or_clipped_intervals():
    empty = ConfusionMatrix([[0, 0], [0, 0]])
    assert all(np.isnan(v) for v in _quiet(empty.ci, "accuracy"))
    assert np.isnan(_quiet(empty.ci, "f1", method="bca", n_resamples=200, random_state=0).low).all()
    # kappa = 0.96 with SE ~0.04: kappa + z SE exceeds 1 and is clipped to the range [-1, 1]
    c = np.array([[30, 1], [0, 20]])
    ci = ConfusionMatrix(c).ci("kappa")
    po, pe = 50 / 51, (31 * 30 + 20 * 21) / 51**2
    assert ci.estimate == pytest.approx((po - pe) / (1 - pe))
    assert ci.high == 1.0 and ci.low < ci.estimate


def test_describe_methods_names_the_auto_choice_with_references():
    from confmat.inference import describe_methods

    rows = describe_methods("recall")
    assert [r["name"] for r in rows][:5] == ["wilson", "agresti_coull", "clopper_pearson", "jeffreys",
                                             "wald"]
    assert [r["name"] for r in rows if r["auto"]] == ["wilson"]
    assert all(r["references"] for r in rows)
    assert [r["name"] for r in describe_methods("mcc", n_classes=3)] == [
        "percentile", "basic", "bca"]
    assert "fisher_z" in [r["name"] for r in describe_methods("mcc", n_classes=2)]


def test_prevalence_ci_keeps_the_noise_of_the_original_rows():
    from confmat.inference import prevalence_ci

    # 20 sick (18 found), 400 healthy (20 false alarms); target prevalence 30 %
    cm = ConfusionMatrix([[18, 2], [20, 380]], labels=["sick", "healthy"])
    pi = 0.3
    ci = prevalence_ci(cm, "precision", {"sick": pi, "healthy": 1 - pi}, pos_label="sick",
                       method="percentile", n_resamples=20000, random_state=0)
    assert ci.estimate == pytest.approx(0.9 * pi / (0.9 * pi + 0.05 * (1 - pi)))
    # oracle: resample the samples of each class, PPV by Bayes' rule by hand
    rng = np.random.default_rng(1)
    sick = np.r_[np.ones(18), np.zeros(2)]       # 1 = predicted sick
    healthy = np.r_[np.ones(20), np.zeros(380)]
    ppv = []
    for _ in range(4000):
        sens = sick[rng.integers(0, 20, 20)].mean()
        fpr = healthy[rng.integers(0, 400, 400)].mean()
        ppv.append(sens * pi / (sens * pi + fpr * (1 - pi)))
    lo, hi = np.quantile(ppv, [0.025, 0.975])
    assert ci.low == pytest.approx(lo, abs=0.01) and ci.high == pytest.approx(hi, abs=0.01)
    # an interval on the shifted matrix pretends its rows were observed at 30 %: the sick row
    # looks 6x bigger and the healthy row smaller than they were, and the width is off
    naive = cm.at_prevalence([pi, 1 - pi]).ci("precision", pos_label="sick",
                                                  method="percentile", random_state=0)
    assert abs((naive.high - naive.low) - (hi - lo)) > 0.1 * (hi - lo)
    bca = prevalence_ci(cm, "npv", [pi, 1 - pi], n_resamples=2000, random_state=0)
    assert np.all(bca.low <= bca.estimate) and np.all(bca.estimate <= bca.high)
    with pytest.raises(ValueError, match="method"):
        prevalence_ci(cm, "npv", [pi, 1 - pi], method="wilson")


def test_prior_shift_settles_seed_002_informedness_markedness_claim():
    # Kneusel (2021) relays the claim that informedness and markedness do not depend on the class
    # priors; under a prior shift informedness (TPR + TNR - 1) stays, markedness (PPV + NPV - 1)
    # moves, both worked out here by Bayes' rule
    cm = ConfusionMatrix([[878, 14], [16, 994]], labels=[5, 3])  # Table 11-5, 3-NN
    sens, spec = 878 / 892, 994 / 1010
    for pi in (0.05, 0.47, 0.9):
        s = cm.at_prevalence({5: pi, 3: 1 - pi})
        ppv = sens * pi / (sens * pi + (1 - spec) * (1 - pi))
        npv = spec * (1 - pi) / (spec * (1 - pi) + (1 - sens) * pi)
        assert s.metric("informedness", pos_label=5) == pytest.approx(sens + spec - 1)
        assert s.metric("markedness", pos_label=5) == pytest.approx(ppv + npv - 1)
    low = cm.at_prevalence({5: 0.05, 3: 0.95}).metric("markedness", pos_label=5)
    assert low < cm.metric("markedness", pos_label=5) - 0.1
