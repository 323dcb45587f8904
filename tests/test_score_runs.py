"""The one engine of resampled ROC AUC / average precision (confmat.inference.score_runs) and
its two users: the ungrouped bootstrap of score_ci / paired_bootstrap
(confmat.inference.score_resampling) and the stratified bootstrap by group
(confmat.groups.score_bootstrap), and the per-group values of GroupedEvaluation.metric.

Oracle: scikit-learn's ``roc_auc_score`` / ``average_precision_score`` with
``sample_weight = multiplicity x weight`` (samples of weight 0 left out), on hypothesis-made
inputs with tied scores, weights and groups of one class; the resamples of score_bootstrap are
rebuilt here from its documented draws (``rng.integers(0, n, (b, n))`` per chunk).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.preprocessing import label_binarize

from confmat.groups import by_group
from confmat.groups import scores as group_scores
from confmat.groups.score_bootstrap import replicate_chunk
from confmat.inference.score_resampling import score_bootstrap
from confmat.inference.score_runs import ScoreRuns, multiplicities, stratified_values
from confmat.metrics import UndefinedMetricWarning

TOL = 1e-12
SKLEARN = {"roc_auc": skm.roc_auc_score, "average_precision": skm.average_precision_score}
METRICS = st.sampled_from(["roc_auc", "average_precision"])


def oracle(name, y, s, weight, empty_ap):
    """scikit-learn's metric of the samples weighted by ``weight`` (0: left out); NaN for a
    ROC AUC of one class, ``empty_ap`` for an average precision without positives."""
    keep = weight > 0
    y, s, weight = y[keep], s[keep], weight[keep]
    if name == "roc_auc" and np.unique(y).size < 2:
        return np.nan
    if name == "average_precision" and not y.any():
        return empty_ap
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return SKLEARN[name](y, s, sample_weight=weight)


@st.composite
def grouped_problem(draw, max_n=50):
    """Samples in group order (1 to 4 groups; a group may hold one class), tied scores,
    weights or none."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    sizes = np.array(draw(st.lists(st.integers(1, max_n // 4), min_size=1, max_size=4)))
    n = int(sizes.sum())
    y = (rng.random(n) < draw(st.floats(0.05, 0.95))).astype(int)
    decimals = draw(st.sampled_from([0, 1, 2, 8]))  # 0 and 1 decimals: many ties
    s = np.round(rng.random(n) + 0.4 * y, decimals)
    w = rng.random(n) * 3 + 0.01 if draw(st.booleans()) else None
    return y, s, w, sizes, rng


def stratified_counts(y, sizes, rng):
    """Multiplicities that a stratified replicate can draw (each group's positives and
    negatives keep their numbers) and the uniform numbers that draw them, in the layout of
    confmat.groups.score_bootstrap (group by group, positives then negatives)."""
    mult = np.zeros(y.shape[0], dtype=np.int64)
    u = []
    bounds = np.r_[0, np.cumsum(sizes)]
    for a, b in itertools.pairwise(bounds):
        for members in (a + np.flatnonzero(y[a:b] == 1), a + np.flatnonzero(y[a:b] == 0)):
            z = members.shape[0]
            if z == 0:
                continue
            picks = rng.integers(0, z, z)  # the k-th member of the stratum, z times
            np.add.at(mult, members[picks], 1)
            u.append((picks + 0.5) / z)  # floor(u * z) = k
    return mult, np.concatenate(u)[None, :]


# ----------------------------------------------------------------------------- one engine
@settings(max_examples=60, deadline=None)
@given(grouped_problem(), METRICS, st.booleans())
def test_grouped_and_ungrouped_paths_agree_on_the_same_multiplicities(data, name, numba):
    """The same multiplicities through the stratified draw of the grouped bootstrap, the
    multiplicities and the draws of the ungrouped bootstrap, group by group and pooled."""
    y, s, w, sizes, rng = data
    ev = by_group(y, y, np.repeat(np.arange(sizes.shape[0]), sizes), scores=s, sample_weight=w)
    mult, u = stratified_counts(y, sizes, rng)
    weight = mult * (1.0 if w is None else w)
    bounds = np.r_[0, np.cumsum(sizes)]
    slices = [slice(a, b) for a, b in itertools.pairwise(bounds)]
    # groups: scikit-learn's AP without positives is 0, the convention of the grouped path
    expected = np.array([oracle(name, y[sl], s[sl], weight[sl], 0.0) for sl in slices])
    pooled_expected = oracle(name, y, s, weight, 0.0)

    grouped, pooled = replicate_chunk(u, ev.scores.samples, name, pooled=True, use_numba=numba)
    runs = ScoreRuns.build(y == 1, s, w, sizes)
    by_mult = runs.values(name, mult[None, :], empty_ap=0.0, use_numba=numba)
    draws = np.repeat(np.arange(y.shape[0]), mult)[None, :]
    by_draws = runs.values_of_draws(name, draws, empty_ap=0.0, use_numba=numba)
    for got in (grouped, by_mult, by_draws):
        np.testing.assert_allclose(got[0], expected, rtol=0, atol=TOL)
    # one group at a time, as score_bootstrap builds a problem (one segment, no groups)
    for g, sl in enumerate(slices):
        one = ScoreRuns.build(y[sl] == 1, s[sl], None if w is None else w[sl])
        got = one.values(name, mult[None, sl], empty_ap=0.0, use_numba=numba)[0, 0]
        assert got == pytest.approx(expected[g], abs=TOL, nan_ok=True)
    whole = ScoreRuns.build(y == 1, s, w)
    assert pooled[0] == pytest.approx(pooled_expected, abs=TOL, nan_ok=True)
    assert whole.values_of_draws(name, draws, empty_ap=0.0, use_numba=numba)[0, 0] == (
        pytest.approx(pooled_expected, abs=TOL, nan_ok=True))


@settings(max_examples=30, deadline=None)
@given(grouped_problem(), METRICS)
def test_kernel_and_numpy_paths_agree(data, name):
    y, s, w, sizes, rng = data
    runs = ScoreRuns.build(y == 1, s, w, sizes)
    pooled = ScoreRuns.build(y == 1, s, w)
    draws = rng.integers(0, y.shape[0], (7, y.shape[0]))
    u = rng.random((7, y.shape[0]))
    strata = np.r_[0, np.cumsum(sizes)]  # the groups as strata: any partition will do
    for numba in (True, False):
        mult = multiplicities(draws, y.shape[0])
        a = runs.values(name, mult, use_numba=numba)
        b = runs.values_of_draws(name, draws, use_numba=numba)
        c, cp = stratified_values(u, strata, runs, name, pooled, use_numba=numba)
        mult_u = _stratified_mult(u, strata)
        d = runs.values(name, mult_u, use_numba=numba)
        dp = pooled.values(name, mult_u, use_numba=numba)[:, 0]
        if numba:
            reference = (a, c, cp)
        np.testing.assert_allclose(a, reference[0], rtol=0, atol=TOL)
        np.testing.assert_allclose(b, reference[0], rtol=0, atol=TOL)
        np.testing.assert_allclose(c, reference[1], rtol=0, atol=TOL)
        np.testing.assert_allclose(d, reference[1], rtol=0, atol=TOL)
        np.testing.assert_allclose(cp, reference[2], rtol=0, atol=TOL)
        np.testing.assert_allclose(dp, reference[2], rtol=0, atol=TOL)


def _stratified_mult(u, strata):
    """The documented stratified draw, written as a loop."""
    mult = np.zeros(u.shape, dtype=np.int64)
    for r in range(u.shape[0]):
        for a, b in itertools.pairwise(strata):
            for j in range(a, b):
                mult[r, a + min(int(np.floor(u[r, j] * (b - a))), b - a - 1)] += 1
    return mult


def test_constant_scores_and_integer_exactness():
    """All scores tied: every AUC is one half exactly; without weights the AUC is a ratio of
    integers (Mann and Whitney 1947), 2 U / (2 P Q), worked here by hand."""
    y = np.array([1, 0, 1, 0, 0])
    runs = ScoreRuns.build(y == 1, np.full(5, 0.3))
    assert runs.values("roc_auc", np.array([[3, 1, 0, 2, 7]])).tolist() == [[0.5]]
    # scores 1..5 drawn 2, 1, 1, 3, 4 times: P = 2 + 1 = 3 (scores 1 and 3), Q = 1 + 3 + 4 = 8
    # (scores 2, 4, 5); pairs won by a positive: score 3 over score 2 once, U = 1 -> 1 / 24
    runs = ScoreRuns.build(y == 1, np.arange(1.0, 6.0))
    assert runs.values("roc_auc", np.array([[2, 1, 1, 3, 4]]))[0, 0] == 1 / 24
    with pytest.raises(ValueError, match="metric must be one of"):
        runs.values("accuracy")


@pytest.mark.parametrize("numba", [True, False])
def test_arrays_that_do_not_fit_the_samples_are_refused(numba):
    """The kernels read without bounds checks: a wrong shape or a draw outside the samples
    must raise, not read past an array."""
    runs = ScoreRuns.build(np.array([True, False, True]), np.array([0.2, 0.4, 0.9]))
    with pytest.raises(ValueError, match=r"mult must have shape \(B, 3\)"):
        runs.values("roc_auc", np.ones((2, 4), dtype=np.int64), use_numba=numba)
    with pytest.raises(ValueError, match="draws must have shape"):
        runs.values_of_draws("roc_auc", np.array([0, 1, 2]), use_numba=numba)
    for bad in (3, -1):
        with pytest.raises(IndexError, match=r"sample indices in \[0, n\)"):
            runs.values_of_draws("roc_auc", np.array([[0, 1, bad]]), use_numba=numba)
    with pytest.raises(ValueError, match=r"u must have shape \(B, 3\)"):
        stratified_values(np.zeros((1, 2)), np.array([0, 2]), runs, "roc_auc",
                          use_numba=numba)
    with pytest.raises(ValueError, match="sizes must be positive segment lengths"):
        ScoreRuns.build(np.array([True, False]), np.array([0.1, 0.2]), sizes=np.array([2, 0]))


# ----------------------------------------------------------------------------- score_bootstrap
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), METRICS, st.sampled_from([0, 1, 8]), st.integers(1, 40))
def test_score_bootstrap_is_sklearn_on_the_documented_draws(seed, name, decimals, b):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 40))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    a = np.round(rng.random(n) + 0.3 * y, decimals)
    c = np.round(rng.random(n), decimals)
    est, boot = score_bootstrap(y, {"a": a, "c": c}, name, b, np.random.default_rng(seed))
    draws = np.random.default_rng(seed).integers(0, n, (b, n))  # one chunk: b * n < 2e6
    for j, s in enumerate((a, c)):
        assert est[j] == pytest.approx(SKLEARN[name](y, s), abs=TOL)
        ref = [oracle(name, y, s, np.bincount(d, minlength=n).astype(float), np.nan)
               for d in draws]
        np.testing.assert_allclose(boot[:, j], ref, rtol=0, atol=TOL)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), METRICS, st.sampled_from(["macro", "weighted"]))
def test_multiclass_score_bootstrap_is_sklearn_on_the_documented_draws(seed, name, average):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 40))
    y = rng.integers(0, 3, n)
    y[:3] = [0, 1, 2]
    s = np.round(rng.random((n, 3)), 1)
    _, boot = score_bootstrap(y, [s], name, 9, np.random.default_rng(seed), average=average)
    draws = np.random.default_rng(seed).integers(0, n, (9, n))
    for r, d in enumerate(draws):
        if np.unique(y[d]).size < 3:  # a class missing: its one-vs-rest value is undefined
            assert np.isnan(boot[r, 0])
            continue
        # one-vs-rest: scikit-learn's metric of the binarised labels, averaged
        ref = SKLEARN[name](label_binarize(y[d], classes=[0, 1, 2]), s[d], average=average)
        assert boot[r, 0] == pytest.approx(ref, abs=TOL)


# ----------------------------------------------------------------------------- per group
@pytest.mark.parametrize("loop_from", [10**9, 0], ids=["one sweep", "slice by slice"])
@settings(max_examples=40, deadline=None)
@given(data=grouped_problem(max_n=80), name=METRICS)
def test_metric_by_group_is_sklearn_per_group(loop_from, data, name):
    """All groups in one sweep, or (large groups, ``LOOP_FROM``) each group's slice on its
    own: scikit-learn on each group's samples; a group of one class has a NaN ROC AUC (one
    warning counts them) and an average precision of 0 without positives, as scikit-learn."""
    saved, group_scores.LOOP_FROM = group_scores.LOOP_FROM, loop_from
    try:
        _check_metric_by_group(data, name)
    finally:
        group_scores.LOOP_FROM = saved


def _check_metric_by_group(data, name):
    y, s, w, sizes, rng = data
    g = np.repeat(rng.permutation(sizes.shape[0]), sizes)  # groups not in sorted order
    perm = rng.permutation(y.shape[0])  # samples not in group order
    y, s, g = y[perm], s[perm], g[perm]
    w = None if w is None else w[perm]
    ev = by_group(y, y, g, scores=s, sample_weight=w)
    ones = np.ones(y.shape[0]) if w is None else w
    expected = np.array([oracle(name, y[g == k], s[g == k], ones[g == k], 0.0)
                         for k in ev.groups])
    one_class = sum(np.unique(y[g == k]).size < 2 for k in ev.groups)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = ev.metric(name)
    np.testing.assert_allclose(got, expected, rtol=0, atol=TOL)
    undefined = [c for c in caught if issubclass(c.category, UndefinedMetricWarning)]
    if name == "roc_auc" and one_class:
        assert len(undefined) == 1
        assert f"undefined in {one_class} group(s) holding one class" in str(undefined[0].message)
    else:
        assert not undefined
    overall = oracle(name, y, s, ones, 0.0)
    assert ev.overall_metric(name) == pytest.approx(overall, abs=TOL, nan_ok=True)


def test_metric_by_group_with_many_groups():
    """10,000 groups of 20 samples, ties included, one sweep: scikit-learn on each group."""
    rng = np.random.default_rng(3)
    n_groups, size = 10_000, 20
    g = np.repeat(np.arange(n_groups), size)
    y = rng.integers(0, 2, g.shape[0])
    s = np.round(rng.random(g.shape[0]) + 0.3 * y, 1)
    ev = by_group(y, y, g, scores=s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        auc, ap = ev.metric("roc_auc"), ev.metric("average_precision")
    for k in rng.choice(n_groups, 200, replace=False):
        sl = slice(k * size, (k + 1) * size)
        ref_auc = (skm.roc_auc_score(y[sl], s[sl]) if np.unique(y[sl]).size == 2 else np.nan)
        assert auc[k] == pytest.approx(ref_auc, abs=TOL, nan_ok=True)
        assert ap[k] == pytest.approx(oracle("average_precision", y[sl], s[sl],
                                             np.ones(size), 0.0), abs=TOL)
