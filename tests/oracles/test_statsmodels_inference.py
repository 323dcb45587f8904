"""confmat.inference against statsmodels: proportion intervals, kappa SE, McNemar,
Stuart-Maxwell / Bowker, Holm."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import norm
from statsmodels.stats.contingency_tables import SquareTable
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

import confmat
from confmat import ConfusionMatrix
from confmat.metrics import get_metric

SM_METHOD = {"wilson": "wilson", "agresti_coull": "agresti_coull", "clopper_pearson": "beta"}


def one_vs_rest(c: np.ndarray):
    """tp, fp, fn, tn per class, worked out here from the raw table."""
    c = np.asarray(c, dtype=np.int64)
    k = c.shape[0]
    out = []
    for i in range(k):
        tp = c[i, i]
        fn = c[i, :].sum() - tp
        fp = c[:, i].sum() - tp
        tn = c.sum() - tp - fn - fp
        out.append((tp, fp, fn, tn))
    return np.array(out).T  # 4 x K


def by_hand(name: str, c: np.ndarray):
    tp, fp, fn, tn = one_vs_rest(c)
    n = c.sum()
    return {
        "recall": (tp, tp + fn), "sensitivity": (tp, tp + fn), "fnr": (fn, tp + fn),
        "precision": (tp, tp + fp), "fdr": (fp, tp + fp), "specificity": (tn, tn + fp),
        "fpr": (fp, tn + fp), "npv": (tn, tn + fn), "for": (fn, tn + fn),
        "prevalence": (tp + fn, np.full_like(tp, n)), "jaccard": (tp, tp + fp + fn),
        "class_accuracy": (tp, tp + fn),
        "accuracy": (np.trace(c), n), "error_rate": (n - np.trace(c), n),
    }[name]


tables = st.integers(2, 5).flatmap(
    lambda k: st.lists(st.integers(0, 60), min_size=k * k, max_size=k * k).map(
        lambda v: np.array(v).reshape(k, k)))


@settings(max_examples=40, deadline=None)
@given(c=tables, level=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
       method=st.sampled_from(sorted(SM_METHOD)),
       name=st.sampled_from(["recall", "sensitivity", "fnr", "precision", "fdr", "specificity",
                             "fpr", "npv", "for", "prevalence", "jaccard", "class_accuracy",
                             "accuracy", "error_rate"]))
def test_proportion_intervals_match_statsmodels(c, level, method, name):
    if c.sum() == 0:
        c[0, 0] = 1
    cm = ConfusionMatrix(c)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        low, high = cm.ci(name, level=level, method=method)
    x, n = by_hand(name, c)
    x, n = np.atleast_1d(x), np.atleast_1d(n)
    low, high = np.atleast_1d(low), np.atleast_1d(high)
    for i in range(x.size):
        if n[i] == 0:
            assert np.isnan(low[i]) and np.isnan(high[i])
            continue
        lo, hi = proportion_confint(int(x[i]), int(n[i]), alpha=1 - level,
                                    method=SM_METHOD[method])
        assert low[i] == pytest.approx(np.clip(lo, 0, 1), abs=1e-9)
        assert high[i] == pytest.approx(np.clip(hi, 0, 1), abs=1e-9)


@pytest.mark.parametrize("method", sorted(SM_METHOD))
def test_micro_recall_is_the_accuracy_interval(method):
    c = np.array([[30, 4, 1], [5, 22, 3], [0, 6, 29]])
    low, high = ConfusionMatrix(c).ci("recall", average="micro", method=method)
    lo, hi = proportion_confint(81, 100, alpha=0.05, method=SM_METHOD[method])
    assert (low, high) == pytest.approx((lo, hi), abs=1e-12)


def test_weighted_counts_wilson():
    c = np.array([[10.5, 2.25], [3.0, 7.75]])
    low, high = ConfusionMatrix(c).ci("accuracy", method="wilson")
    lo, hi = proportion_confint(18.25, 23.5, alpha=0.05, method="wilson")
    assert (low, high) == pytest.approx((lo, hi), abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(c=tables, weights=st.sampled_from([None, "linear", "quadratic"]))
def test_kappa_standard_error_matches_statsmodels(c, weights):
    c = c + 1  # statsmodels divides by margins; keep every margin positive
    cm = ConfusionMatrix(c)
    ci = cm.ci("kappa", weights=weights, method="kappa_asymptotic", level=0.9)
    kw = {} if weights is None else {"wt": weights}
    ref = cohens_kappa(c, return_results=True, **kw)
    z = norm.ppf(0.95)
    # confmat's documented convention: an interval is clipped to the metric's range, so
    # kappa + z SE above 1 (hypothesis: [[2, 1], [1, 5]] at 90 %) is reported as 1
    lo_r, hi_r = get_metric("kappa").range
    assert ci.estimate == pytest.approx(ref.kappa, abs=1e-10)
    assert ci.low == pytest.approx(np.clip(ref.kappa - z * ref.std_kappa, lo_r, hi_r), abs=1e-10)
    assert ci.high == pytest.approx(np.clip(ref.kappa + z * ref.std_kappa, lo_r, hi_r), abs=1e-10)


def _mcnemar_data(rng, n, p_disagree):
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < p_disagree, rng.integers(0, 3, n), a)
    return y, a, b


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("exact", [True, False, None])
def test_mcnemar_matches_statsmodels(seed, exact):
    rng = np.random.default_rng(seed)
    y, a, b = _mcnemar_data(rng, [20, 60, 200, 500, 40, 1000][seed], [0.1, 0.3, 0.5][seed % 3])
    ra, rb = a == y, b == y
    table = np.array([[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]])
    res = confmat.mcnemar(y, a, b, exact=exact)
    use_exact = exact if exact is not None else (table[0, 1] + table[1, 0] < 25)
    ref = sm_mcnemar(table, exact=use_exact, correction=True)
    assert np.array_equal(res.table, table)
    assert res.exact == use_exact
    assert res.statistic == pytest.approx(ref.statistic, abs=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, abs=1e-10)


def test_mcnemar_without_correction_matches_statsmodels():
    rng = np.random.default_rng(11)
    y, a, b = _mcnemar_data(rng, 400, 0.4)
    res = confmat.mcnemar(y, a, b, exact=False, correction=False)
    ref = sm_mcnemar(res.table, exact=False, correction=False)
    assert (res.statistic, res.pvalue) == pytest.approx((ref.statistic, ref.pvalue), abs=1e-10)


@settings(max_examples=40, deadline=None)
@given(c=tables)
def test_bowker_matches_statsmodels(c):
    res = confmat.bowker(c)
    ref = SquareTable(c, shift_zeros=False).symmetry()
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-12)
    assert res.df == ref.df


@settings(max_examples=40, deadline=None)
@given(c=tables)
def test_stuart_maxwell_matches_statsmodels(c):
    c = c + 1  # every pair discordant at least once: V is a connected Laplacian of rank K - 1
    res = confmat.stuart_maxwell(c)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = SquareTable(c, shift_zeros=False).homogeneity("stuart_maxwell")
    assume(np.isfinite(ref.statistic))  # statsmodels could not invert the covariance
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-7, abs=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-9)
    assert res.df == ref.df


def test_stuart_maxwell_drops_a_class_that_never_occurs():
    c = np.array([[20, 5, 0, 3], [9, 30, 0, 2], [0, 0, 0, 0], [1, 6, 0, 25]])
    res = confmat.stuart_maxwell(c)
    reduced = np.delete(np.delete(c, 2, axis=0), 2, axis=1)
    ref = SquareTable(reduced, shift_zeros=False).homogeneity()
    assert res.df == 2 == ref.df
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_stuart_maxwell_on_prediction_pairs():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, 300)
    b = np.where(rng.random(300) < 0.6, a, rng.integers(0, 4, 300))
    cm = ConfusionMatrix.from_predictions(a, b)
    ref = SquareTable(cm.counts, shift_zeros=False)
    assert confmat.stuart_maxwell(cm).pvalue == pytest.approx(ref.homogeneity().pvalue, rel=1e-7)
    assert confmat.bowker(cm).pvalue == pytest.approx(ref.symmetry().pvalue, rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(p=st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_matches_statsmodels(p):
    from confmat.inference import holm

    ref = multipletests(p, method="holm")[1]
    assert np.allclose(holm(p), ref, atol=1e-12)
