"""Intervals of ROC AUC and average precision by group: the stratified bootstrap of every group
(confmat.groups.score_bootstrap), its disparities and its weighted per-group intervals.

Oracles: scikit-learn's ``roc_auc_score`` / ``average_precision_score`` on every explicit
resample, rebuilt here from the documented draws (``rng.random((B, n))`` row by row, the
samples laid out group by group, positives before negatives, each stratum drawing
``floor(u * size)``) with ``np.repeat`` of the drawn indices; the disparities computed from
those values by their definitions (Weerts et al. 2023) and numpy's quantiles; DeLong et al.
(1988)'s variance worked from its placement values by the O(mn) definition.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat.groups import by_group
from confmat.groups.score_bootstrap import replicate_chunk, score_replicates
from confmat.metrics import UndefinedMetricWarning

TOL = 1e-12
SKLEARN = {"roc_auc": skm.roc_auc_score, "average_precision": skm.average_precision_score}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# ----------------------------------------------------------------------------- the oracle
def strata(y, g, keys):
    """Each group's positives and negatives (sample order), groups in sorted order."""
    out = []
    for key in keys:
        members = np.flatnonzero(g == key)
        out.append((members[y[members] == 1], members[y[members] == 0]))
    return out


def drawn_samples(u_row, layout):
    """The samples each group draws with one row of uniform numbers (the documented rule)."""
    col, out = 0, []
    for pos, neg in layout:
        chosen = []
        for members in (pos, neg):
            s = members.shape[0]
            k = np.minimum(np.floor(u_row[col:col + s] * s).astype(np.int64), s - 1)
            chosen.append(members[k])
            col += s
        out.append(np.concatenate(chosen))
    assert col == u_row.shape[0]
    return out


def sk_metric(name, y, s, w, picked):
    """scikit-learn's metric of the resample that holds ``picked`` (with repeats)."""
    idx = np.repeat(np.arange(y.shape[0]), np.bincount(picked, minlength=y.shape[0]))
    try:
        return SKLEARN[name](y[idx], s[idx], sample_weight=None if w is None else w[idx])
    except ValueError:  # one class only: ROC AUC undefined
        return np.nan


def reference(name, y, s, w, g, keys, n_resamples, random_state):
    """Per-group (B, G) and pooled (B,) values of the bootstrap replicates, by scikit-learn."""
    layout = strata(y, g, keys)
    u = np.random.default_rng(random_state).random((n_resamples, y.shape[0]))
    vals = np.empty((n_resamples, len(keys)))
    pooled = np.empty(n_resamples)
    for r in range(n_resamples):
        picks = drawn_samples(u[r], layout)
        vals[r] = [sk_metric(name, y, s, w, p) for p in picks]
        pooled[r] = sk_metric(name, y, s, w, np.concatenate(picks))
    return vals, pooled


def rho(x):
    return np.where(x > 1, 1 / x, x)


def disparity_by_hand(kind, method, vals, overall, ref):
    """fairlearn's MetricFrame.difference / ratio definitions (Weerts et al. 2023), NaN
    groups left out, on (B, G) values."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "between_groups":
            hi, lo = np.nanmax(vals, axis=1), np.nanmin(vals, axis=1)
            return hi - lo if kind == "difference" else lo / hi
        against = overall[:, None] if method == "to_overall" else vals[:, [ref]]
        if kind == "difference":
            return np.nanmax(np.abs(vals - against), axis=1)
        return np.nanmin(rho(vals / against), axis=1)


# ----------------------------------------------------------------------------- data
@st.composite
def grouped_scores(draw, max_n=60):
    n = draw(st.integers(2, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(1, 4))
    keys = np.array(["west", "east", "north", "south"])[:k]
    g = keys[rng.integers(0, k, n)]
    y = (rng.random(n) < draw(st.floats(0.1, 0.9))).astype(int)
    y[:2] = [0, 1]
    decimals = draw(st.sampled_from([0, 1, 2, 8]))  # 0 and 1 decimals: many ties
    s = np.round(rng.random(n) + 0.4 * y, decimals)
    w = rng.random(n) * 3 + 0.01 if draw(st.booleans()) else None
    return y, s, w, g


# ----------------------------------------------------------------------------- replicates
@settings(max_examples=60, deadline=None)
@given(grouped_scores(), st.sampled_from(["roc_auc", "average_precision"]),
       st.integers(1, 9), st.booleans(), st.sampled_from([None, 7, 60]))
def test_replicates_are_sklearn_on_the_documented_resamples(data, name, b, numba, budget):
    y, s, w, g = data
    ev = by_group(y, y, g, scores=s, sample_weight=w)
    vals, pooled = score_replicates(ev.scores.samples, name, b, np.random.default_rng(5),
                                    pooled=True, use_numba=numba, budget=budget)
    ref_vals, ref_pooled = reference(name, y, s, w, g, ev.groups, b, 5)
    np.testing.assert_allclose(vals, ref_vals, rtol=0, atol=TOL)
    np.testing.assert_allclose(pooled, ref_pooled, rtol=0, atol=TOL)


@settings(max_examples=30, deadline=None)
@given(grouped_scores(), st.sampled_from(["roc_auc", "average_precision"]))
def test_numba_and_numpy_paths_and_any_chunking_agree(data, name):
    y, s, w, g = data
    samples = by_group(y, y, g, scores=s, sample_weight=w).scores.samples
    runs = [score_replicates(samples, name, 13, np.random.default_rng(2), pooled=True,
                             use_numba=numba, budget=budget)
            for numba in (True, False) for budget in (1, 50, None)]
    for vals, pooled in runs[1:]:
        np.testing.assert_allclose(vals, runs[0][0], rtol=0, atol=TOL)
        np.testing.assert_allclose(pooled, runs[0][1], rtol=0, atol=TOL)
    for vals, pooled in runs[1:3]:  # one kernel, other chunks: the same numbers exactly
        assert np.array_equal(vals, runs[0][0], equal_nan=True)
        assert np.array_equal(pooled, runs[0][1], equal_nan=True)


def test_replicates_without_resampling_are_the_estimates():
    rng = np.random.default_rng(8)
    n = 400
    y, g = rng.integers(0, 2, n), rng.choice(["a", "b", "c"], n)
    s, w = np.round(rng.random(n) + 0.3 * y, 2), rng.random(n) + 0.2
    ev = by_group(y, y, g, scores=s, sample_weight=w)
    data = ev.scores.samples
    ident = np.empty((1, n))  # column j of stratum (a, size) draws sample j - a: itself
    for lo, hi in zip(data.starts[:-1], data.starts[1:], strict=True):
        ident[0, lo:hi] = (np.arange(hi - lo) + 0.5) / max(hi - lo, 1)
    for name in ("roc_auc", "average_precision"):
        vals, pooled = replicate_chunk(ident, data, name, pooled=True)
        np.testing.assert_allclose(vals[0], [SKLEARN[name](y[g == k], s[g == k],
                                                          sample_weight=w[g == k])
                                             for k in ev.groups], rtol=0, atol=TOL)
        assert abs(pooled[0] - SKLEARN[name](y, s, sample_weight=w)) <= TOL
        assert abs(ev.overall_metric(name) - SKLEARN[name](y, s, sample_weight=w)) <= TOL


# ----------------------------------------------------------------------------- disparities
@settings(max_examples=15, deadline=None)
@given(grouped_scores(max_n=40), st.sampled_from(["roc_auc", "average_precision"]),
       st.sampled_from(["difference", "ratio"]),
       st.sampled_from(["between_groups", "to_overall", "to_group"]))
def test_disparity_intervals_against_sklearn_replicates(data, name, kind, method):
    y, s, w, g = data
    ev = by_group(y, y, g, scores=s, sample_weight=w)
    keys = ev.groups
    ref = len(keys) - 1 if method == "to_group" else None
    fn = ev.difference if kind == "difference" else ev.ratio
    ci = fn(name, method=method, reference=None if ref is None else keys[ref], ci=True,
            n_resamples=100, random_state=11, level=0.9)
    per_group = np.array([sk_metric(name, y, s, w, np.flatnonzero(g == k)) for k in keys])
    overall = np.array([SKLEARN[name](y, s, sample_weight=w)])
    est = disparity_by_hand(kind, method, per_group[None, :], overall, ref)[0]
    assert ci.estimate == pytest.approx(est, abs=TOL, nan_ok=True)
    vals, pooled = reference(name, y, s, w, g, keys, 100, 11)
    boot = disparity_by_hand(kind, method, vals, pooled, ref)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        low, high = np.nanquantile(boot, [0.05, 0.95])
    assert ci.low == pytest.approx(low, abs=TOL, nan_ok=True)
    assert ci.high == pytest.approx(high, abs=TOL, nan_ok=True)
    assert ci.method == "percentile" and ci.n_resamples == 100 and ci.level == 0.9


@settings(max_examples=12, deadline=None)
@given(grouped_scores(max_n=40), st.sampled_from(["roc_auc", "average_precision"]))
def test_pair_intervals_of_score_metrics_against_sklearn_replicates(data, name):
    """The comparison behind each disparity (its two parties fixed, signed) on the replicates
    rebuilt with scikit-learn."""
    y, s, w, g = data
    ev = by_group(y, y, g, scores=s, sample_weight=w)
    keys = ev.groups
    asked = [(k, m) for m in ("between_groups", "to_overall", "to_group")
             for k in ("difference", "ratio")]
    cis = ev.pair_intervals(name, asked, reference=keys[0], n_resamples=100, random_state=4,
                            level=0.9)
    per_group = np.array([sk_metric(name, y, s, w, np.flatnonzero(g == k)) for k in keys])
    ext = np.append(per_group, SKLEARN[name](y, s, sample_weight=w))
    vals, pooled = reference(name, y, s, w, g, keys, 100, 4)
    boot = np.column_stack([vals, pooled])
    for (kind, method), ci in zip(asked, cis, strict=True):
        est = disparity_by_hand(kind, method, per_group[None, :], ext[-1:], 0)[0]
        assert ci.estimate == pytest.approx(est, abs=TOL, nan_ok=True)
        if np.isnan(est):
            continue
        if method != "to_overall" and np.isfinite(per_group).sum() == 1:
            # one group with a defined value is not compared with itself: no interval
            assert ci.metric.endswith("has a defined value")
            assert np.isnan([ci.low, ci.high]).all()
            continue
        names = [*map(str, keys), "overall"]
        upper, lower = (names.index(x) for x in ci.metric.split(": ")[1].split(" vs "))
        assert ext[upper] >= ext[lower]  # the parties give the disparity's value
        at = ext[upper] - ext[lower] if kind == "difference" else ext[lower] / ext[upper]
        assert at == pytest.approx(est, abs=TOL)
        up, low = boot[:, upper], boot[:, lower]  # equal parties: ratio 1
        stat = up - low if kind == "difference" else np.where(up == low, 1.0, low / up)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lo, hi = np.nanquantile(stat, [0.05, 0.95])
        assert (ci.low, ci.high) == pytest.approx((lo, hi), abs=TOL, nan_ok=True)


def _delong_variance(pos_scores, neg_scores):
    """DeLong et al. (1988): AUC and its variance from the placement values, by the O(mn)
    definition (psi = 1 above, 1/2 tied)."""
    psi = (pos_scores[:, None] > neg_scores[None, :]) + 0.5 * (
        pos_scores[:, None] == neg_scores[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return psi.mean(), v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size


def test_difference_of_two_groups_is_close_to_delong():
    """A large sample: the bootstrap distribution of AUC_a - AUC_b is close to the normal law
    of the difference of two independent AUCs with var = var_a + var_b (DeLong).

    Tolerances from the Monte-Carlo error of B = 4000 replicates: the standard deviation of
    the replicates has a relative standard error of about 1 / sqrt(2 B) = 1.1%, so 6% is over
    five standard errors; a 2.5% quantile has a standard error of sqrt(p (1 - p) / B) /
    phi(1.96) = 0.043 standard deviations, so 0.25 sd (about six standard errors, and room
    for the O(1/n) difference between the bootstrap and DeLong variances and the skewness of
    the AUC) bounds each end.
    """
    rng = np.random.default_rng(2024)
    n = 1600
    g = np.repeat(["a", "b"], n)
    y = rng.integers(0, 2, 2 * n)
    shift = np.where(g == "a", 1.5, 0.8)  # binormal: AUC = Phi(shift / sqrt 2), 0.86 and 0.71
    s = rng.normal(size=2 * n) + shift * y
    ev = by_group(y, y, g, scores=s)
    parts = [_delong_variance(s[(g == k) & (y == 1)], s[(g == k) & (y == 0)]) for k in "ab"]
    diff = parts[0][0] - parts[1][0]
    sd = math.sqrt(parts[0][1] + parts[1][1])
    b = 4000
    vals, _ = ev.scores.replicates("roc_auc", b, np.random.default_rng(3))
    boot = vals[:, 0] - vals[:, 1]
    assert abs(boot.std(ddof=1) / sd - 1) < 0.06
    ci = ev.difference("roc_auc", method="to_group", reference="b", ci=True, n_resamples=b,
                       random_state=3)
    assert ci.estimate == pytest.approx(diff, abs=TOL)
    assert abs(ci.low - (diff - 1.959964 * sd)) < 0.25 * sd
    assert abs(ci.high - (diff + 1.959964 * sd)) < 0.25 * sd


def test_a_group_of_one_class_is_left_out_of_every_replicate():
    rng = np.random.default_rng(4)
    n = 300
    g = rng.choice(["a", "b", "c"], n)
    y = rng.integers(0, 2, n)
    y[g == "c"] = 1  # no negatives: no ROC AUC in any stratified replicate
    s = rng.random(n) + 0.5 * y
    ev = by_group(y, y, g, scores=s)
    with pytest.warns(UndefinedMetricWarning, match="1 group"):
        ev.metric("roc_auc")
    vals, _ = ev.scores.replicates("roc_auc", 200, np.random.default_rng(0))
    assert np.isnan(vals[:, 2]).all() and not np.isnan(vals[:, :2]).any()
    aucs = [skm.roc_auc_score(y[g == k], s[g == k]) for k in "ab"]
    ci = ev.difference("roc_auc", ci=True, n_resamples=200, random_state=0)
    assert ci.estimate == pytest.approx(abs(aucs[0] - aucs[1]), abs=TOL)
    assert np.isfinite([ci.low, ci.high]).all()
    ref = ev.difference("roc_auc", method="to_group", reference="c", ci=True, n_resamples=200)
    assert np.isnan([ref.estimate, ref.low, ref.high]).all()
    # average precision is defined with positives only (1.0 here), in every replicate
    ap = ev.scores.replicates("average_precision", 50, np.random.default_rng(0))[0]
    assert (ap[:, 2] == 1.0).all()


def test_to_overall_compares_with_the_pooled_samples():
    rng = np.random.default_rng(6)
    n = 500
    g = rng.choice(["x", "y", "z"], n)
    y = rng.integers(0, 2, n)
    s = rng.random(n) + np.where(g == "x", 0.8, 0.3) * y
    w = rng.random(n) + 0.5
    ev = by_group(y, y, g, scores=s, sample_weight=w)
    overall = skm.roc_auc_score(y, s, sample_weight=w)
    per = np.array([skm.roc_auc_score(y[g == k], s[g == k], sample_weight=w[g == k])
                    for k in ev.groups])
    assert ev.overall_metric("roc_auc") == pytest.approx(overall, abs=TOL)
    assert ev.difference("roc_auc", method="to_overall") == pytest.approx(
        np.abs(per - overall).max(), abs=TOL)
    assert ev.ratio("auc", method="to_overall") == pytest.approx(
        rho(per / overall).min(), abs=TOL)


# ----------------------------------------------------------------------------- per group
@settings(max_examples=20, deadline=None)
@given(grouped_scores(max_n=50), st.sampled_from(["roc_auc", "average_precision"]),
       st.sampled_from(["auto", "percentile", "basic"]))
def test_bootstrap_intervals_per_group_against_sklearn(data, name, method):
    y, s, w, g = data
    ev = by_group(y, y, g, scores=s, sample_weight=w)
    if method == "auto" and name == "roc_auc" and w is None:
        assert ev.ci(name).method == "delong"
        return
    ci = ev.ci(name, method=method, n_resamples=100, random_state=9, level=0.9)
    assert ci.method == ("percentile" if method == "auto" else method)
    vals, _ = reference(name, y, s, w, g, ev.groups, 100, 9)
    est = np.array([sk_metric(name, y, s, w, np.flatnonzero(g == k)) for k in ev.groups])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lo, hi = np.nanquantile(vals, [0.05, 0.95], axis=0)
    if ci.method == "basic":
        lo, hi = 2 * est - hi, 2 * est - lo
    np.testing.assert_allclose(ci.estimate, est, rtol=0, atol=TOL)
    np.testing.assert_allclose(ci.low, lo, rtol=0, atol=TOL)
    np.testing.assert_allclose(ci.high, hi, rtol=0, atol=TOL)


def test_constant_weights_change_nothing_and_delong_refuses_weights():
    """Weights of 2 scale every count: the metrics, replicates and intervals are those without
    weights (the weighted kernel against the counting one)."""
    rng = np.random.default_rng(12)
    n = 200
    y, g, s = rng.integers(0, 2, n), rng.choice(["a", "b"], n), np.round(rng.random(n), 1)
    plain = by_group(y, y, g, scores=s)
    twos = by_group(y, y, g, scores=s, sample_weight=np.full(n, 2.0))
    assert twos.scores.weight is not None
    for name in ("roc_auc", "average_precision"):
        a = plain.ci(name, method="percentile", n_resamples=300, random_state=1)
        b = twos.ci(name, n_resamples=300, random_state=1)
        assert b.method == "percentile"
        np.testing.assert_allclose([a.low, a.high], [b.low, b.high], rtol=0, atol=TOL)
        for method in ("between_groups", "to_overall"):
            da = plain.ratio(name, method=method, ci=True, n_resamples=300, random_state=1)
            db = twos.ratio(name, method=method, ci=True, n_resamples=300, random_state=1)
            assert (da.low, da.high) == pytest.approx((db.low, db.high), abs=TOL)
    with pytest.raises(ValueError, match="method='delong' takes no sample_weight"):
        twos.ci("roc_auc", method="delong")
    with pytest.raises(ValueError, match="method must be one of 'delong', 'percentile', 'basic'"):
        plain.ci("average_precision", method="bca")


def test_score_disparity_arguments_are_checked():
    ev = by_group([0, 1, 0, 1], [0, 1, 0, 1], ["a", "a", "b", "b"], scores=[.1, .9, .6, .4])
    with pytest.raises(ValueError, match="n_resamples=10 is too few"):
        ev.difference("roc_auc", ci=True, n_resamples=10)
    with pytest.raises(ValueError, match="level"):
        ev.difference("roc_auc", ci=True, level=1.5)
    with pytest.raises(TypeError, match="random_state"):
        ev.difference("roc_auc", ci=True, random_state="x")
    with pytest.raises(ValueError, match="need scores"):
        by_group([0, 1], [0, 1], ["a", "b"]).difference("roc_auc", ci=True)
