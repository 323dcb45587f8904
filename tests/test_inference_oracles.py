"""Differential probe of ``confmat.inference`` against independent implementations.

Oracles: statsmodels (``proportion_confint``, ``cohens_kappa``, ``mcnemar``, ``SquareTable``
symmetry / homogeneity, ``multipletests``), scikit-learn (Matthews' correlation), SciPy
(``scipy.stats.bootstrap`` fed the very resamples confmat drew; the normal quantile), R's
base ``mcnemar.test`` through Rscript (the convention at b = c), and formulas worked here by
hand (Fisher 1921's z; the sample-size equation of Obuchowski & McClish 1997). Expected values
never come from confmat. Random inputs are drawn by hypothesis, edges included: count 0 and
count = nobs, nobs 1, counts near 1e12, levels 0.5 to 0.999, float (weighted) tables, classes
never confused.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from scipy.sparse.csgraph import connected_components
from sklearn.metrics import matthews_corrcoef
from statsmodels.stats.contingency_tables import SquareTable
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from confmat import ConfusionMatrix
from confmat.inference import (
    at_prevalence,
    bowker,
    holm,
    kappa_standard_error,
    mcnemar,
    proportion_interval,
    stuart_maxwell,
)
from confmat.inference.analytic import fisher_z_interval
from confmat.inference.power import power_roc_test, power_roc_test_variances
from confmat.inference.resampling import bootstrap_interval, bootstrap_values, jackknife_values
from proc_oracle import proc  # noqa: F401  (the fixture)

#: confmat's method -> statsmodels' name of the same interval
SM_METHODS = {"wilson": "wilson", "agresti_coull": "agresti_coull",
              "clopper_pearson": "beta", "wald": "normal"}
LEVELS = st.one_of(st.sampled_from([0.5, 0.9, 0.95, 0.99, 0.999]),
                   st.floats(0.01, 0.999, allow_nan=False))
NOBS = st.one_of(st.integers(1, 5), st.integers(1, 2000), st.integers(10**9, 10**12))


def _quiet(fn, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **kw)


@st.composite
def count_nobs(draw):
    n = draw(NOBS)
    x = draw(st.one_of(st.sampled_from([0, n, 1, n - 1]), st.integers(0, n)))
    return x, n


# --------------------------------------------------------------------------- proportions
@settings(max_examples=300)
@given(count_nobs(), LEVELS, st.sampled_from(sorted(SM_METHODS)))
def test_proportion_interval_is_statsmodels_proportion_confint(xn, level, method):
    x, n = xn
    low, high = proportion_interval(x, n, level, method)
    ref = proportion_confint(x, n, alpha=1.0 - level, method=SM_METHODS[method])
    assert float(low) == pytest.approx(ref[0], rel=1e-9, abs=1e-12)
    assert float(high) == pytest.approx(ref[1], rel=1e-9, abs=1e-12)


@settings(max_examples=100)
@given(st.floats(0.0, 1.0), st.floats(0.5, 1e6), LEVELS, st.sampled_from(sorted(SM_METHODS)))
def test_proportion_interval_of_weighted_counts_is_statsmodels(share, n, level, method):
    # sums of weights are not integers; every formula (and statsmodels) takes them as counts
    x = share * n
    # at a subnormal count SciPy's beta quantile (under statsmodels) returns 1.8e-12 where the
    # bound is 0: the next test checks that range against mpmath instead
    assume(x == 0 or x >= np.finfo(float).tiny)
    low, high = proportion_interval(x, n, level, method)
    ref = proportion_confint(x, n, alpha=1.0 - level, method=SM_METHODS[method])
    assert float(low) == pytest.approx(ref[0], rel=1e-9, abs=1e-12)
    assert float(high) == pytest.approx(ref[1], rel=1e-9, abs=1e-12)


@settings(max_examples=300)
@given(count_nobs(), LEVELS)
def test_jeffreys_interval_is_statsmodels_with_brown_cai_dasgupta_ends(xn, level):
    # statsmodels' method="jeffreys" is the equal-tailed Beta(x + 1/2, n - x + 1/2) interval;
    # Brown, Cai & DasGupta (2001, 4.1.2) set the lower bound to 0 at x = 0 and the upper
    # bound to 1 at x = n, which confmat follows
    x, n = xn
    low, high = proportion_interval(x, n, level, "jeffreys")
    ref = proportion_confint(x, n, alpha=1.0 - level, method="jeffreys")
    assert float(low) == (0.0 if x == 0 else pytest.approx(ref[0], rel=1e-9, abs=1e-12))
    assert float(high) == (1.0 if x == n else pytest.approx(ref[1], rel=1e-9, abs=1e-12))


@settings(max_examples=100)
@given(st.floats(0.0, 1.0), st.floats(0.5, 1e6), LEVELS)
def test_jeffreys_interval_of_weighted_counts_is_scipy_beta(share, n, level):
    # the posterior quantiles written out with SciPy's beta distribution
    x = share * n
    low, high = proportion_interval(x, n, level, "jeffreys")
    a, b, tail = x + 0.5, n - x + 0.5, (1.0 - level) / 2.0
    assert float(low) == (0.0 if x == 0 else pytest.approx(sps.beta.ppf(tail, a, b),
                                                          rel=1e-9, abs=1e-12))
    assert float(high) == (1.0 if x == n else pytest.approx(sps.beta.isf(tail, a, b),
                                                           rel=1e-9, abs=1e-12))


def _clopper_pearson_low_mpmath(x: float, n: float, level: float) -> float:
    """The root q of I_q(x, n - x + 1) = (1 - level) / 2 (Clopper & Pearson 1934), at 40 digits.

    Solved for t = x log q, bracketed by [log p + log(x B), 0]: for b >= 1 the integrand's
    (1 - u)^(b - 1) <= 1 gives I_q <= q^x / (x B), so the left end is at or below the root.
    """
    with mpmath.workdps(40):
        a, b = mpmath.mpf(x), mpmath.mpf(n) - mpmath.mpf(x) + 1
        p = (1 - mpmath.mpf(level)) / 2
        def gap(t):
            return mpmath.log(mpmath.betainc(a, b, 0, mpmath.exp(t / a), regularized=True)) \
                - mpmath.log(p)
        left = mpmath.log(p) + mpmath.log(a * mpmath.beta(a, b))
        t = mpmath.findroot(gap, (left, mpmath.mpf(0)), solver="anderson")
        return float(mpmath.exp(t / a))


@settings(max_examples=60, deadline=None)
@given(st.floats(-320.0, 0.0, exclude_max=True), st.floats(0.5, 1e6), LEVELS)
def test_clopper_pearson_lower_bound_of_counts_below_one_is_mpmath(log10_x, n, level):
    # counts (sums of weights) from subnormal up to 1: the exact bound underflows to 0 below
    # about x = 0.002 at n = 1, and is subnormal just above. (Counts above 1 are the statsmodels
    # test's; mpmath's betainc does not converge there at n near 1e6.)
    x = 10.0**log10_x
    assume(0 < x < n)
    low, _ = proportion_interval(x, n, level, "clopper_pearson")
    ref = _clopper_pearson_low_mpmath(x, n, level)
    assert float(low) == pytest.approx(ref, rel=1e-9, abs=1e-320)


def test_wald_and_agresti_coull_are_clipped_like_statsmodels():
    # the documented convention (analytic.proportion_interval): bounds clipped to [0, 1]
    for method in ("wald", "agresti_coull"):
        low, high = proportion_interval([0, 1, 10], [10, 5, 10], 0.99, method)
        ref = proportion_confint(np.array([0, 1, 10]), np.array([10, 5, 10]), alpha=0.01,
                                 method=SM_METHODS[method])
        assert np.allclose(low, ref[0], atol=1e-12) and np.allclose(high, ref[1], atol=1e-12)
        assert low.min() == 0.0 or high.max() == 1.0


def test_proportion_interval_is_nan_without_trials():
    low, high = proportion_interval([0, 3], [0, 5], 0.95, "wilson")
    assert np.isnan(low[0]) and np.isnan(high[0])
    ref = proportion_confint(3, 5, alpha=0.05, method="wilson")
    assert (low[1], high[1]) == pytest.approx(ref, rel=1e-12)


def test_proportion_interval_of_python_ints_past_64_bits_is_statsmodels():
    for method in SM_METHODS:
        low, high = proportion_interval(2**70 + 3, 2**71, 0.99, method)
        ref = proportion_confint(2**70 + 3, 2**71, alpha=0.01, method=SM_METHODS[method])
        assert (float(low), float(high)) == pytest.approx(ref, rel=1e-12)


def _one_vs_rest(c):
    tp = np.diag(c).astype(float)
    return tp, c.sum(1).astype(float), c.sum(0).astype(float), float(c.sum())


@settings(max_examples=100)
@given(st.integers(2, 5), st.data(), LEVELS, st.sampled_from(sorted(SM_METHODS)))
def test_ci_of_proportions_is_statsmodels_on_counts_worked_here(k, data, level, method):
    c = np.array(data.draw(st.lists(st.integers(0, 60), min_size=k * k, max_size=k * k))
                 ).reshape(k, k)
    assume(c.sum() > 0)
    cm = ConfusionMatrix(c)
    tp, support, predicted, n = _one_vs_rest(c)
    checks = {
        "recall": (tp, support),
        "precision": (tp, predicted),
        "prevalence": (support, np.full(k, n)),
        "specificity": (n - support - predicted + tp, n - support),
    }
    for metric, (x, m) in checks.items():
        ci = _quiet(cm.ci, metric, method=method, level=level)
        for i in range(k):
            if m[i] == 0:
                assert np.isnan(ci.low[i]) and np.isnan(ci.high[i])
                continue
            ref = proportion_confint(x[i], m[i], alpha=1.0 - level, method=SM_METHODS[method])
            assert ci.low[i] == pytest.approx(ref[0], rel=1e-9, abs=1e-12), metric
            assert ci.high[i] == pytest.approx(ref[1], rel=1e-9, abs=1e-12), metric
    acc = cm.ci("accuracy", method=method, level=level)
    ref = proportion_confint(np.trace(c), n, alpha=1.0 - level, method=SM_METHODS[method])
    assert (acc.low, acc.high) == pytest.approx(ref, rel=1e-9, abs=1e-12)


@settings(max_examples=100)
@given(st.integers(2, 4), st.data())
def test_ci_of_prevalence_of_a_weighted_table_is_statsmodels(k, data):
    # float sums may round a class's support past the total N by an ulp: still a proportion
    cells = data.draw(st.lists(st.one_of(st.floats(0.0, 1e6), st.sampled_from([0.1, 1e-9, 3e5])),
                               min_size=k * k, max_size=k * k))
    c = np.array(cells).reshape(k, k)
    # statsmodels' Wilson arithmetic gives NaN for a subnormal total (1.1e-308) where the
    # bound of a zero count is 0 exactly (test_wilson_bounds_at_zero_and_all_are_exact)
    assume(c.sum() > 1e-300)
    ci = _quiet(ConfusionMatrix(c).ci, "prevalence", method="wilson")
    for i in range(k):
        ref = _quiet(proportion_confint, c[i].sum(), c.sum(), alpha=0.05, method="wilson")
        assert ci.low[i] == pytest.approx(ref[0], rel=1e-9, abs=1e-12)
        assert ci.high[i] == pytest.approx(ref[1], rel=1e-9, abs=1e-12)


def _fsum_counts(c):
    """Per-class (x, n) of each proportion, every sum of cells rounded once (math.fsum)."""
    k = c.shape[0]
    cells = [[float(v) for v in row] for row in c]
    n = math.fsum(v for row in cells for v in row)
    out = {m: ([], []) for m in ("recall", "precision", "specificity", "npv", "jaccard",
                                 "prevalence")}
    for i in range(k):
        tp = cells[i][i]
        fn = math.fsum(cells[i][j] for j in range(k) if j != i)
        fp = math.fsum(cells[j][i] for j in range(k) if j != i)
        tn = math.fsum(cells[a][b] for a in range(k) for b in range(k) if a != i and b != i)
        for m, (x, m_) in {"recall": (tp, math.fsum([tp, fn])),
                           "precision": (tp, math.fsum([tp, fp])),
                           "specificity": (tn, math.fsum([tn, fp])),
                           "npv": (tn, math.fsum([tn, fn])),
                           "jaccard": (tp, math.fsum([tp, fp, fn])),
                           "prevalence": (math.fsum([tp, fn]), n)}.items():
            out[m][0].append(x)
            out[m][1].append(m_)
    return out


@settings(max_examples=150)
@given(st.integers(2, 4).flatmap(lambda k: st.lists(
    st.sampled_from([0.0, 1.0, 3.0, 0.001, 7.5e15, 1e16, 3e16 + 4]), min_size=k * k,
    max_size=k * k)))
def test_ci_of_proportions_of_weighted_tables_far_apart_in_size(cells):
    # sums of weights 1 beside 1e16 round; a count must never be taken to pass its trials
    k = math.isqrt(len(cells))
    c = np.array(cells).reshape(k, k)
    assume(c.sum() > 0)
    cm = ConfusionMatrix(c)
    for metric, (x, m) in _fsum_counts(c).items():
        ci = _quiet(cm.ci, metric, method="wilson")
        for i in range(k):
            if m[i] == 0:
                assert np.isnan(ci.low[i])
                continue
            ref = proportion_confint(x[i], m[i], alpha=0.05, method="wilson")
            assert ci.low[i] == pytest.approx(ref[0], rel=1e-9, abs=1e-12), metric
            assert ci.high[i] == pytest.approx(ref[1], rel=1e-9, abs=1e-12), metric


# --------------------------------------------------------------------------- kappa
TABLES = st.integers(2, 5).flatmap(lambda k: st.tuples(
    st.just(k),
    st.lists(st.integers(0, 40), min_size=k * k, max_size=k * k),
    st.sampled_from([1, 1, 1000, 10**10]),
    st.booleans(),
))


@settings(max_examples=300)
@given(TABLES, st.sampled_from([None, "linear", "quadratic"]))
def test_kappa_and_its_se_are_statsmodels_cohens_kappa(table, weights):
    k, cells, scale, as_float = table
    c = np.array(cells).reshape(k, k) * scale
    if as_float:
        c = c / 7.0  # a weighted table
    assume(c.sum() > 0)
    kap, se = kappa_standard_error(c, weights)
    ref = _quiet(cohens_kappa, c) if weights is None else _quiet(cohens_kappa, c, wt=weights)
    if np.isnan(ref.kappa):
        assert np.isnan(kap)
        return
    assert kap == pytest.approx(ref.kappa, rel=1e-9, abs=1e-12)
    if ref.var_kappa >= 1e-14:
        assert se == pytest.approx(ref.std_kappa, rel=1e-7, abs=1e-12)
    else:
        # a variance of 0 that rounding left slightly below or above: statsmodels reports the
        # square root of the rounding error (NaN when negative); confmat clips it at 0
        assert se == pytest.approx(math.sqrt(max(ref.var_kappa, 0.0)), abs=1e-6)


def test_kappa_se_is_zero_where_kappa_cannot_move():
    # one rater uses a single class: kappa = 0 on every table with that margin, variance 0;
    # statsmodels' formula gives a negative rounding error and NaN here
    c = np.array([[7, 3], [0, 0]])
    ref = _quiet(cohens_kappa, c)
    assert ref.kappa == pytest.approx(0.0, abs=1e-15) and abs(ref.var_kappa) < 1e-15
    assert kappa_standard_error(c) == pytest.approx((0.0, 0.0), abs=1e-12)


@settings(max_examples=100)
@given(TABLES, LEVELS, st.sampled_from([None, "linear", "quadratic"]))
def test_ci_of_kappa_is_kappa_plus_minus_z_statsmodels_se(table, level, weights):
    k, cells, _, _ = table
    c = np.array(cells).reshape(k, k)
    assume(c.sum() > 0)
    ref = _quiet(cohens_kappa, c) if weights is None else _quiet(cohens_kappa, c, wt=weights)
    assume(np.isfinite(ref.kappa) and ref.var_kappa > 1e-14)
    ci = _quiet(ConfusionMatrix(c).ci, "kappa", level=level, weights=weights)
    z = sps.norm.ppf(0.5 + level / 2.0)
    assert ci.method == "kappa_asymptotic"
    assert ci.low == pytest.approx(max(-1.0, ref.kappa - z * ref.std_kappa), abs=1e-9)
    assert ci.high == pytest.approx(min(1.0, ref.kappa + z * ref.std_kappa), abs=1e-9)


# --------------------------------------------------------------------------- McNemar
def _mcnemar_samples(both, b, c, neither):
    """Labels of three columns with the four McNemar cells: A and B right, A right only, ..."""
    y = np.zeros(both + b + c + neither, dtype=np.int64)
    a_right = np.r_[np.ones(both + b, bool), np.zeros(c + neither, bool)]
    b_right = np.r_[np.ones(both, bool), np.zeros(b, bool), np.ones(c, bool),
                    np.zeros(neither, bool)]
    return y, np.where(a_right, 0, 1), np.where(b_right, 0, 1)


@settings(max_examples=300)
@given(st.integers(0, 20), st.integers(0, 120), st.integers(0, 120), st.integers(0, 20),
       st.sampled_from([True, False]), st.booleans())
def test_mcnemar_is_statsmodels(both, b, c, neither, exact, correction):
    assume(both + b + c + neither > 0)
    r = mcnemar(*_mcnemar_samples(both, b, c, neither), exact=exact, correction=correction)
    assert (r.b, r.c) == (b, c)
    assert r.table.tolist() == [[both, b], [c, neither]]
    if not exact and b == c:
        # documented convention (paired.mcnemar): no correction past |b - c| = 0, so the
        # statistic is 0 and p = 1, as R's mcnemar.test; statsmodels applies it (or 0 / 0)
        assert (r.statistic, r.pvalue) == (0.0, 1.0)
        return
    ref = _quiet(sm_mcnemar, np.array([[both, b], [c, neither]]), exact=exact,
                 correction=correction)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12, abs=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-15)
    auto = mcnemar(*_mcnemar_samples(both, b, c, neither), correction=correction)
    assert auto.method == ("exact binomial" if b + c < 25 else
                           "chi2 corrected" if correction else "chi2")


def test_mcnemar_at_b_equal_c_is_r_mcnemar_test(proc):  # noqa: F811
    # R's base mcnemar.test is the oracle of the convention kept where statsmodels differs
    cases = [(3, 3), (10, 10), (30, 30), (1, 2), (40, 13)]
    out = proc("""
bs <- b; cs <- c
st <- numeric(length(bs)); pv <- numeric(length(bs))
for (i in seq_along(bs)) {
  r <- mcnemar.test(matrix(c(5, cs[i], bs[i], 7), 2), correct = TRUE)
  st[i] <- r$statistic; pv[i] <- r$p.value
}
out <- list(statistic = st, pvalue = pv)
""", b=[b for b, _ in cases], c=[c for _, c in cases])
    for i, (b, c) in enumerate(cases):
        r = mcnemar(*_mcnemar_samples(5, b, c, 7), exact=False, correction=True)
        assert r.statistic == pytest.approx(out["statistic"][i], rel=1e-12, abs=1e-14)
        assert r.pvalue == pytest.approx(out["pvalue"][i], rel=1e-12)


# --------------------------------------------------------------------------- Bowker, Stuart-Maxwell
@st.composite
def square_tables(draw):
    k = draw(st.integers(2, 5))
    c = np.array(draw(st.lists(st.integers(0, 50), min_size=k * k, max_size=k * k)),
                 dtype=np.float64).reshape(k, k)
    for _ in range(draw(st.integers(0, 3))):  # zero off-diagonal pairs
        i, j = draw(st.integers(0, k - 1)), draw(st.integers(0, k - 1))
        c[i, j] = c[j, i] = 0.0
    if draw(st.booleans()):  # a class never confused (singular covariance)
        i = draw(st.integers(0, k - 1))
        d = c[i, i]
        c[i, :] = 0.0
        c[:, i] = 0.0
        c[i, i] = d
    return c * draw(st.sampled_from([1.0, 1.0, 1e10]))


@settings(max_examples=300)
@given(square_tables())
def test_bowker_is_statsmodels_symmetry(c):
    r = bowker(c)
    ref = SquareTable(c, shift_zeros=False).symmetry()
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-7, abs=1e-14)
    assert r.df == ref.df


@settings(max_examples=100)
@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_bowker_on_two_classes_is_uncorrected_mcnemar(a, b, c, d):
    assume(b + c > 0)
    ref = sm_mcnemar(np.array([[a, b], [c, d]]), exact=False, correction=False)
    r = bowker([[a, b], [c, d]])
    assert (r.statistic, r.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)


def _stuart_maxwell_by_components(c):
    """Sum of statsmodels' homogeneity statistics over the classes that confuse each other.

    The covariance of the margins' differences is block diagonal over the connected
    components of the confusion graph and each block has rank (size - 1): the generalised
    inverse's statistic is the sum of the blocks' ordinary ones, with that many df.
    """
    off = (c + c.T) * (1.0 - np.eye(c.shape[0])) > 0
    n_comp, lab = connected_components(off, directed=False)
    stat, df = 0.0, 0
    for g in range(n_comp):
        idx = np.flatnonzero(lab == g)
        if idx.size < 2:
            continue
        sub = c[np.ix_(idx, idx)]
        stat += _quiet(SquareTable(sub, shift_zeros=False).homogeneity).statistic
        df += idx.size - 1
    return stat, df


@settings(max_examples=300)
@given(square_tables())
def test_stuart_maxwell_is_statsmodels_homogeneity(c):
    r = stuart_maxwell(c)
    ref = _quiet(SquareTable(c, shift_zeros=False).homogeneity)
    stat, df = _stuart_maxwell_by_components(c)
    assert r.df == df
    assert r.statistic == pytest.approx(stat, rel=1e-7, abs=1e-9)
    if df == 0:
        assert (r.statistic, r.pvalue) == (0.0, 1.0)
        return
    assert r.pvalue == pytest.approx(sps.chi2.sf(stat, df), rel=1e-6, abs=1e-14)
    if df == c.shape[0] - 1:  # covariance of full rank: statsmodels' own test, df K - 1
        assert r.statistic == pytest.approx(ref.statistic, rel=1e-7, abs=1e-9)
        assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-14)
        assert r.df == ref.df


def _stuart_maxwell_exact(c):
    """d' V^-1 d on the first K - 1 classes, in exact rational arithmetic (Stuart 1955)."""
    k = len(c)
    t = [[Fraction(int(x)) for x in row] for row in c]
    rows = [sum(r) for r in t]
    cols = [sum(t[i][j] for i in range(k)) for j in range(k)]
    d = [rows[i] - cols[i] for i in range(k - 1)]
    a = [[(rows[i] + cols[i] - 2 * t[i][i]) if i == j else -(t[i][j] + t[j][i])
          for j in range(k - 1)] + [d[i]] for i in range(k - 1)]
    m = k - 1
    for col in range(m):  # Gauss-Jordan elimination, exact
        piv = next(r for r in range(col, m) if a[r][col] != 0)
        a[col], a[piv] = a[piv], a[col]
        for r in range(m):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return float(sum(d[i] * a[i][m] / a[i][i] for i in range(m)))


@settings(max_examples=100)
@given(st.integers(2, 5).flatmap(lambda k: st.lists(
    st.one_of(st.integers(0, 5), st.integers(10**11, 10**13)), min_size=k * k,
    max_size=k * k)))
def test_stuart_maxwell_keeps_its_digits_on_ill_conditioned_tables(cells):
    # counts of 1 beside 1e12: a pseudo-inverse of V lost up to 4e-4 of the statistic
    k = math.isqrt(len(cells))
    c = np.array(cells, dtype=np.int64).reshape(k, k)
    for i in range(k - 1):  # confusions joining every class: V has rank K - 1
        c[i, i + 1] = max(c[i, i + 1], 1)
    r = stuart_maxwell(c)
    assert r.df == k - 1
    assert r.statistic == pytest.approx(_stuart_maxwell_exact(c.tolist()), rel=1e-9, abs=1e-9)


# --------------------------------------------------------------------------- Holm
PVALUES = st.lists(st.one_of(st.sampled_from([0.0, 1e-300, 0.01, 0.05, 0.5, 1.0]),
                             st.floats(0.0, 1.0)), min_size=1, max_size=15)


@settings(max_examples=300)
@given(PVALUES)
def test_holm_is_statsmodels_multipletests(p):
    assert np.allclose(holm(p), multipletests(p, method="holm")[1], rtol=1e-12, atol=0.0)


@settings(max_examples=100)
@given(PVALUES, st.lists(st.booleans(), min_size=15, max_size=15))
def test_holm_leaves_nan_tests_out_of_the_family(p, missing):
    # documented convention (paired.holm): NaN stays NaN and is not counted in m
    p = np.array(p)
    p[np.array(missing[: p.size])] = np.nan
    got = holm(p)
    ok = ~np.isnan(p)
    assert np.isnan(got[~ok]).all()
    if ok.any():
        assert np.allclose(got[ok], multipletests(p[ok], method="holm")[1], rtol=1e-12)


# --------------------------------------------------------------------------- Fisher's z
@settings(max_examples=200)
@given(st.floats(-1.0, 1.0), st.one_of(st.integers(0, 10), st.integers(4, 10**12)), LEVELS)
def test_fisher_z_interval_by_hand(r, n, level):
    low, high = fisher_z_interval(r, n, level)
    if n <= 3:
        assert np.isnan(low) and np.isnan(high)
        return
    z = sps.norm.ppf(0.5 + level / 2.0)
    half = z / math.sqrt(n - 3)
    centre = math.atanh(r) if abs(r) < 1 else math.copysign(math.inf, r)
    assert float(low) == pytest.approx(math.tanh(centre - half), rel=1e-12, abs=1e-15)
    assert float(high) == pytest.approx(math.tanh(centre + half), rel=1e-12, abs=1e-15)


@settings(max_examples=60)
@given(st.lists(st.integers(1, 40), min_size=4, max_size=4), LEVELS)
def test_ci_of_binary_mcc_with_fisher_z_is_sklearn_mcc_by_hand(cells, level):
    y = np.repeat([0, 0, 1, 1], cells)
    p = np.repeat([0, 1, 0, 1], cells)
    r = matthews_corrcoef(y, p)
    ci = ConfusionMatrix.from_predictions(y, p).ci("mcc", method="fisher_z", level=level)
    half = sps.norm.ppf(0.5 + level / 2.0) / math.sqrt(y.size - 3)
    assert ci.estimate == pytest.approx(r, abs=1e-12)
    assert ci.low == pytest.approx(math.tanh(math.atanh(r) - half), abs=1e-12)
    assert ci.high == pytest.approx(math.tanh(math.atanh(r) + half), abs=1e-12)


def test_fisher_z_refused_on_three_samples():
    with pytest.raises(ValueError, match=r"fisher_z.*more than 3"):
        ConfusionMatrix([[1, 1], [0, 1]]).ci("mcc", method="fisher_z")


# --------------------------------------------------------------------------- bootstrap
def _phi(y, p, axis=-1):
    my, mp = y.mean(axis), p.mean(axis)
    cov = (y * p).mean(axis) - my * mp
    return cov / np.sqrt(my * (1 - my) * mp * (1 - mp))


def _acc(y, p, axis=-1):
    return (y == p).mean(axis)


@settings(max_examples=40)
@given(st.lists(st.integers(1, 30), min_size=4, max_size=4), LEVELS,
       st.sampled_from([("accuracy", _acc), ("mcc", _phi)]), st.integers(0, 2**32 - 1))
def test_bca_percentile_basic_are_scipy_bootstrap_on_the_same_resamples(cells, level, metric,
                                                                      seed):
    # scipy's BCa recomputes z0 from the distribution and the acceleration from the
    # sample-level jackknife: confmat's count jackknife must give the same interval
    name, fn = metric
    t = np.array(cells).reshape(2, 2)
    y = np.repeat([0.0, 0.0, 1.0, 1.0], cells)
    p = np.repeat([0.0, 1.0, 0.0, 1.0], cells)
    boot = bootstrap_values(t, 2, name, None, 2000, np.random.default_rng(seed), "nan")
    assume(not np.isnan(boot).any())
    est = fn(y, p)
    given_draws = SimpleNamespace(bootstrap_distribution=boot)
    for method, sp_method, jack in (("bca", "BCa", jackknife_values(t, 2, name, None, "nan")),
                                    ("percentile", "percentile", None),
                                    ("basic", "basic", None)):
        low, high = bootstrap_interval(boot, est, level, method, jack)
        ref = _quiet(sps.bootstrap, (y, p), fn, paired=True, vectorized=True, n_resamples=0,
                     bootstrap_result=given_draws, confidence_level=level,
                     method=sp_method).confidence_interval
        assume(np.isfinite(ref.low) and np.isfinite(ref.high))
        assert float(low) == pytest.approx(ref.low, rel=1e-9, abs=1e-12), method
        assert float(high) == pytest.approx(ref.high, rel=1e-9, abs=1e-12), method


@settings(max_examples=25)
@given(st.integers(2, 4), st.data(), st.sampled_from(["percentile", "basic", "bca"]),
       st.integers(0, 2**32 - 1))
def test_bootstrap_is_reproducible_and_nested_across_levels(k, data, method, seed):
    c = np.array(data.draw(st.lists(st.integers(0, 30), min_size=k * k, max_size=k * k))
                 ).reshape(k, k)
    assume(np.diag(c).sum() > 0 and c.sum() > 5)
    cm = ConfusionMatrix(c)
    kw = {"method": method, "n_resamples": 2000, "average": "macro"}
    a = _quiet(cm.ci, "f1", level=0.9, random_state=seed, **kw)
    b = _quiet(cm.ci, "f1", level=0.9, random_state=seed, **kw)
    assert (a.low, a.high) == (b.low, b.high)
    wide = _quiet(cm.ci, "f1", level=0.99, random_state=seed, **kw)
    narrow = _quiet(cm.ci, "f1", level=0.5, random_state=seed, **kw)
    # the same resamples: a higher level reads quantiles further out
    assert wide.low <= a.low + 1e-12 <= narrow.low + 2e-12
    assert narrow.high <= a.high + 1e-12 <= wide.high + 2e-12


@settings(max_examples=25)
@given(st.integers(2, 4), st.data(), st.integers(0, 2**32 - 1))
def test_bootstrap_does_not_depend_on_the_order_of_the_classes(k, data, seed):
    c = np.array(data.draw(st.lists(st.integers(0, 30), min_size=k * k, max_size=k * k))
                 ).reshape(k, k)
    assume(c.sum() > 0)
    perm = np.array(data.draw(st.permutations(range(k))))
    # a table that the relabelling leaves unchanged ([[5, 4], [4, 5]] with the classes
    # swapped) is the same computation both ways, so equivariance would ask two classes'
    # Monte Carlo intervals to be equal; the property is about tables the relabelling moves
    assume((perm == np.arange(k)).all() or not np.array_equal(c, c[np.ix_(perm, perm)]))
    a = _quiet(ConfusionMatrix(c).ci, "recall", method="percentile", n_resamples=500,
               random_state=seed)
    b = _quiet(ConfusionMatrix(c[np.ix_(perm, perm)]).ci, "recall", method="percentile",
               n_resamples=500, random_state=seed)
    assert np.array_equal(a.low[perm], b.low, equal_nan=True)
    assert np.array_equal(a.high[perm], b.high, equal_nan=True)


# --------------------------------------------------------------------------- power
@settings(max_examples=200)
@given(st.floats(0.01, 1.0), st.floats(0.01, 1.0), st.floats(-0.5, 0.5),
       st.floats(0.01, 0.5), st.floats(0.05, 0.99), st.floats(0.001, 0.2),
       st.sampled_from(["two-sided", "one-sided"]))
def test_sample_size_of_two_curves_by_hand(va, vb, rho, delta, power, sig, alternative):
    cov = rho * math.sqrt(va * vb)
    v0, v1 = 2 * va - 2 * cov, va + vb - 2 * cov
    assume(v0 > 1e-6 and v1 > 1e-6)
    za = sps.norm.ppf(1 - (sig / 2 if alternative == "two-sided" else sig))
    root = za * math.sqrt(v0) + sps.norm.ppf(power) * math.sqrt(v1)  # = sqrt(n) |delta|
    assume(abs(root) > 1e-9)  # root 0: n = 0, which the reverse solve rightly refuses
    kw = {"var_a": va, "var_b": vb, "cov_ab": cov, "sig_level": sig, "alternative": alternative}
    if root < 0:
        # the power of the test as n -> 0, Phi(-z_a sqrt(V0) / sqrt(VA)), exceeds the one
        # asked: no sample size has it (squaring the equation would invent one)
        assert power < sps.norm.cdf(-za * math.sqrt(v0) / math.sqrt(v1))
        with pytest.raises(ValueError, match="power must exceed"):
            power_roc_test_variances(delta=delta, power=power, **kw)
        with pytest.raises(ValueError, match="power must exceed"):
            power_roc_test_variances(delta=None, power=power, n_cases=50, **kw)
        return
    n = root**2 / delta**2
    r = power_roc_test_variances(delta=delta, power=power, **kw)
    assert r.n_cases == pytest.approx(n, rel=1e-9)
    d = power_roc_test_variances(delta=None, power=power, n_cases=n, **kw)
    assert d.delta == pytest.approx(delta, rel=1e-9)
    back = power_roc_test_variances(delta=delta, n_cases=n, **kw)
    assert back.power == pytest.approx(power, rel=1e-7)


@settings(max_examples=100)
@given(st.floats(0.55, 0.99), st.floats(0.05, 0.99), st.floats(0.2, 5.0))
def test_sample_size_of_one_curve_by_hand(auc, power, kappa):
    # Obuchowski (2004) variances worked here: V0 under AUC = 0.5, V(theta) binormal
    a = 1.414 * sps.norm.ppf(auc)
    v_theta = 0.0099 * math.exp(-a * a / 2) * ((5 * a * a + 8) + (a * a + 8) / kappa)
    v0 = 0.0792 * (1 + 1 / kappa)
    root = sps.norm.ppf(0.975) * math.sqrt(v0) + sps.norm.ppf(power) * math.sqrt(v_theta)
    if root < 0:
        with pytest.raises(ValueError, match="power must exceed"):
            power_roc_test(auc=auc, power=power, kappa=kappa)
        return
    n = root**2 / (auc - 0.5) ** 2
    r = power_roc_test(auc=auc, power=power, kappa=kappa)
    assert r.n_cases == pytest.approx(n, rel=1e-9)
    assert r.n_controls == pytest.approx(kappa * n, rel=1e-9)


def test_power_below_the_power_on_no_sample_is_refused_not_squared_away():
    # pROC's power.roc.test(auc=0.8, ncases=20, ncontrols=30, power=0.01, sig.level=NULL) and
    # the sample size for power 0.01 square the equation; the n it returns has another power
    v0, v_a = 0.0792 * 2, 0.0099 * 8 * 2  # Obuchowski's V(0.5) with kappa = 1: equal
    floor = sps.norm.cdf(-sps.norm.ppf(0.975) * math.sqrt(v0) / math.sqrt(v_a))
    with pytest.raises(ValueError, match="power must exceed"):
        power_roc_test(auc=0.5 + 1e-6, power=floor / 2)
    with pytest.raises(ValueError, match="power must exceed"):
        # floor here: Phi(-1.534 sqrt(0.5) / sqrt(1.25)) = 0.166 > 0.125
        power_roc_test_variances(var_a=0.25, var_b=1.0, cov_ab=0.0, delta=0.5, power=0.125,
                                 sig_level=0.125)
    ok = power_roc_test_variances(var_a=0.25, var_b=1.0, cov_ab=0.0, delta=0.5, power=0.2,
                                  sig_level=0.125)
    again = power_roc_test_variances(var_a=0.25, var_b=1.0, cov_ab=0.0, delta=0.5,
                                     n_cases=ok.n_cases, sig_level=0.125)
    assert again.power == pytest.approx(0.2, rel=1e-9)
    # nothing to detect: infinitely many cases (as pROC), not an error
    assert power_roc_test(auc=0.5, power=0.9).n_cases == math.inf
    assert power_roc_test_variances(var_a=0.1, var_b=0.1, cov_ab=0.0, delta=0.0,
                                    power=0.8).n_cases == math.inf


def test_two_sided_sig_level_past_reach_is_the_documented_value_above_one():
    # documented convention (power.py, as pROC): 2 (1 - Phi(z)) with z < 0, not an error
    auc, n_cases, kappa = 0.8, 20, 1.5
    a = 1.414 * sps.norm.ppf(auc)
    v_theta = 0.0099 * math.exp(-a * a / 2) * ((5 * a * a + 8) + (a * a + 8) / kappa)
    v0 = 0.0792 * (1 + 1 / kappa)
    z = (math.sqrt(n_cases) * (auc - 0.5) - sps.norm.ppf(0.99999) * math.sqrt(v_theta)) \
        / math.sqrt(v0)
    assert z < 0
    r = power_roc_test(auc=auc, n_cases=n_cases, n_controls=30, sig_level=None, power=0.99999)
    assert r.sig_level == pytest.approx(2 * sps.norm.sf(z), rel=1e-9)
    assert r.sig_level > 1


# --------------------------------------------------------------------------- bad input
BAD = [
    (lambda: proportion_interval(5, 10, 1.5), ValueError, "level"),
    (lambda: proportion_interval(5, 10, 0.0), ValueError, "level"),
    (lambda: proportion_interval(5, 10, True), TypeError, "level"),
    (lambda: proportion_interval(5, 10, "0.95"), TypeError, "level"),
    (lambda: proportion_interval(11, 10), ValueError, "count must not exceed nobs"),
    (lambda: proportion_interval(11, 10, method="clopper_pearson"), ValueError, "count"),
    (lambda: proportion_interval(-1, 10), ValueError, "count must be non-negative"),
    (lambda: proportion_interval(float("nan"), 10), ValueError, "count must be finite"),
    (lambda: proportion_interval(5, float("inf")), ValueError, "nobs must be finite"),
    (lambda: proportion_interval(5, -3), ValueError, "nobs must be non-negative"),
    (lambda: proportion_interval(True, 3), TypeError, "count"),
    (lambda: proportion_interval([1, 2], [3, 4, 5]), ValueError, "broadcast"),
    (lambda: proportion_interval(5, 10, method="blaker"), ValueError, "method"),
    (lambda: proportion_interval(5, 10, method=None), TypeError, "method"),
    (lambda: kappa_standard_error([[1, 2, 3], [4, 5, 6]]), ValueError, "counts must be a square"),
    (lambda: kappa_standard_error([[1, -2], [4, 5]]), ValueError, "counts must be non-negative"),
    (lambda: kappa_standard_error([[1, float("nan")], [4, 5]]), ValueError, "counts contains NaN"),
    (lambda: kappa_standard_error([[1, 2], [4, 5]], "cubic"), ValueError, "weights"),
    (lambda: kappa_standard_error([[1, 2], [4, 5]], "Linear"), ValueError, "weights"),
    (lambda: fisher_z_interval(0.5, 10, 1.5), ValueError, "level"),
    (lambda: fisher_z_interval(0.5, 10, True), TypeError, "level"),
    (lambda: fisher_z_interval(1.5, 10, 0.95), ValueError, "r must lie in"),
    (lambda: fisher_z_interval(0.5, -3, 0.95), ValueError, "n must hold"),
    (lambda: fisher_z_interval(0.5, float("nan"), 0.95), ValueError, "n must hold"),
    (lambda: holm([-0.1, 0.5]), ValueError, "pvalues must lie in"),
    (lambda: holm([1.5]), ValueError, "pvalues must lie in"),
    (lambda: holm([float("inf")]), ValueError, "pvalues must lie in"),
    (lambda: holm([True, False]), TypeError, "pvalues"),
    (lambda: holm([None, 0.1]), TypeError, "pvalues"),
    (lambda: bowker([[1, 2, 3], [4, 5, 6]]), ValueError, "table must be a square"),
    (lambda: bowker([[1]]), ValueError, "table must have at least two classes"),
    (lambda: stuart_maxwell([[1, -1], [2, 3]]), ValueError, "table must be non-negative"),
    (lambda: stuart_maxwell([[1, float("nan")], [2, 3]]), ValueError, "table contains NaN"),
    (lambda: stuart_maxwell([[True, False], [False, True]]), TypeError, "table"),
    (lambda: mcnemar([0, 1], [0, 1], [1, 1], exact="yes"), TypeError, "exact"),
    (lambda: mcnemar([0, 1], [0, 1], [1, 1, 0]), ValueError, "pred_b"),
    (lambda: power_roc_test(auc=0.8, n_cases=float("inf"), n_controls=30), ValueError,
     "n_cases must be a finite number"),
    (lambda: power_roc_test(auc=0.8, n_cases=20, kappa=float("inf")), ValueError, "kappa"),
    (lambda: ConfusionMatrix([[3, 1], [2, 4]]).ci("accuracy", method="blaker"), ValueError,
     "method"),
    (lambda: at_prevalence(ConfusionMatrix([[3, 1], [2, 4]]), [0.9, 0.1], n=True), TypeError,
     "n must be"),
    (lambda: at_prevalence(ConfusionMatrix([[3, 1], [2, 4]]), [0.9, 0.1], n="10"), TypeError,
     "n must be"),
    (lambda: at_prevalence(ConfusionMatrix([[3, 1], [2, 4]]), [True, False]), TypeError,
     "prevalence"),
]


@pytest.mark.parametrize(("call", "exc", "match"), BAD)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_wilson_bounds_at_zero_and_all_are_exact() -> None:
    """At x = 0 the Wilson lower bound is 0 and at x = n the upper bound is 1, exactly: by
    hand, the centre (x + z^2/2) / (n + z^2) and the half-width z / (n + z^2) sqrt(x (n - x) / n
    + z^2/4) are then equal (1 - centre and the half-width at x = n). Rounding left 2.8e-17 at
    n = 10, which the terminal summary printed as a bound; statsmodels' proportion_confint
    rounds the same way (2.8e-17 at n = 7), so it is the oracle of the other bound only."""
    from statsmodels.stats.proportion import proportion_confint

    from confmat.inference.analytic import proportion_interval

    for n in range(1, 301):
        for x in (0, n):
            low, high = proportion_interval(float(x), float(n), 0.95, "wilson")
            want = proportion_confint(x, n, alpha=0.05, method="wilson")
            if x == 0:
                assert float(low) == 0.0, n
                assert float(high) == pytest.approx(want[1], rel=1e-12), n
            else:
                assert float(high) == 1.0, n
                assert float(low) == pytest.approx(want[0], rel=1e-12), n
