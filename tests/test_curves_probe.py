"""Adversarial differential probe of the exact curves and of ScoreHistogram.

Oracles, all independent of confmat's own output:

* scikit-learn: ``roc_curve``, ``roc_auc_score`` (``max_fpr`` with McClish 1989's
  standardisation, ``multi_class`` 'ovr' / 'ovo' of Hand & Till 2001, ``average``),
  ``precision_recall_curve``, ``average_precision_score``, called with the same arguments;
* SciPy's ``mannwhitneyu``: the AUC is ``U / (P N)`` (Mann & Whitney 1947), ties counting 1/2;
* ``numpy.histogram`` with the bin edges of the documented formula
  ``e_j = lo + (hi - lo) * (j / B)`` (docs/curves.md, "Binned, mergeable form"), formed here;
* Python integers and ``fractions.Fraction`` for counts near and past ``2**32`` per class,
  whose pair counts ``P N`` pass ``2**63``.

What confmat does differently from scikit-learn on purpose is in the table "Where confmat
differs from scikit-learn" of docs/curves.md; the tests below check those rows where they meet
them (``pos_label`` absent from ``y_true``, non-finite scores), and the documented difference of
ScoreHistogram's edges from ``numpy.histogram(bins=B, range=...)`` (which uses
``numpy.linspace``).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from functools import partial

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import mannwhitneyu
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

import confmat
from confmat.binned import ScoreHistogram
from confmat.binned import binning as binned_binning
from confmat.curves import rank

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _outcome(f):
    """('ok', value) or ('error', exception type), with warnings recorded and dropped."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", f()
        except (ValueError, TypeError) as exc:
            return "error", type(exc)


def _same(a, b):
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
        return
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape
    assert_allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True)


# ------------------------------------------------------------------ exact curves vs sklearn
@st.composite
def binary_inputs(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(2, 60))
    y01 = rng.integers(0, 2, n)
    y01[:2] = [0, 1]  # both classes present (one class: test below)
    scale = draw(st.sampled_from([1.0, 1e-300, 1e300, 1e6, -7.5]))
    ties = draw(st.sampled_from(["none", "heavy", "constant", "signed zeros"]))
    s = rng.normal(size=n)
    if ties == "heavy":
        s = np.round(s)
    elif ties == "constant":
        s = np.full(n, 0.3)
    elif ties == "signed zeros":
        s = np.where(rng.random(n) < 0.5, -0.0, 0.0) + np.round(s) * (rng.random(n) < 0.3)
    s = s * scale
    weights = draw(st.sampled_from(["none", "random", "zeros", "huge", "tiny", "whole"]))
    w = {
        "none": None,
        "random": rng.random(n),
        "zeros": rng.random(n) * (rng.random(n) < 0.6),
        "huge": rng.random(n) * 1e200,
        "tiny": rng.random(n) * 1e-300,
        "whole": rng.integers(0, 4, n).astype(np.float64),
    }[weights]
    kind = draw(st.sampled_from(["int", "pm1", "bool", "str", "three"]))
    if kind == "int":
        y, pos = y01, draw(st.sampled_from([None, 0, 1]))
    elif kind == "pm1":
        y, pos = 2 * y01 - 1, draw(st.sampled_from([None, -1, 1]))
    elif kind == "bool":
        y, pos = y01.astype(bool), draw(st.sampled_from([None, False, True]))
    elif kind == "str":
        y, pos = np.array(["neg", "pos"])[y01], draw(st.sampled_from(["neg", "pos"]))
    else:  # three classes, one of them positive: the others are negative
        y = np.where(y01 == 1, 2, rng.integers(0, 2, n))
        pos = 2
    return y, s, w, pos


@SETTINGS
@given(binary_inputs(), st.booleans())
def test_exact_curves_equal_sklearn(data, drop):
    y, s, w, pos = data
    kw = {"pos_label": pos, "sample_weight": w}
    pairs = [
        (lambda: confmat.roc_curve(y, s, drop_intermediate=drop, **kw),
         lambda: skm.roc_curve(y, s, drop_intermediate=drop, **kw)),
        (lambda: confmat.precision_recall_curve(y, s, drop_intermediate=drop, **kw),
         lambda: skm.precision_recall_curve(y, s, drop_intermediate=drop, **kw)),
        (lambda: confmat.average_precision(y, s, **kw),
         lambda: skm.average_precision_score(y == (1 if pos is None else pos), s,
                                             sample_weight=w)),
        (lambda: confmat.roc_auc(y, s, **kw),
         lambda: skm.roc_auc_score(y == (1 if pos is None else pos), s, sample_weight=w)),
        (lambda: confmat.roc_auc(y, s, max_fpr=0.37, **kw),
         lambda: skm.roc_auc_score(y == (1 if pos is None else pos), s, sample_weight=w,
                                   max_fpr=0.37)),
    ]
    compared = 0
    for ours, theirs in pairs:
        a, b = _outcome(ours), _outcome(theirs)
        if a[0] == b[0] == "ok":
            _same(a[1], b[1])
            compared += 1
        elif a[0] == "error":
            # refused by both, or every weight 0: confmat refuses what weighs nothing
            # (the input door's rule), scikit-learn returns NaN
            assert b[0] == "error" or (w is not None and not w.any())
    assert compared >= 1 or not w.any()


@pytest.mark.parametrize("func", [confmat.roc_curve, confmat.precision_recall_curve,
                                  confmat.roc_auc, confmat.average_precision])
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_non_finite_scores_are_refused_by_both(func, bad):
    y, s = [0, 1, 1, 0], [0.1, bad, 0.4, 0.2]
    with pytest.raises(ValueError, match="y_score contains"):
        func(y, s)
    theirs = {confmat.roc_curve: skm.roc_curve,
              confmat.precision_recall_curve: skm.precision_recall_curve,
              confmat.roc_auc: skm.roc_auc_score,
              confmat.average_precision: skm.average_precision_score}[func]
    with pytest.raises(ValueError):
        theirs(y, s)


@pytest.mark.parametrize("pos", [2, "pos"])
def test_absent_pos_label_is_the_documented_difference(pos):
    # docs/curves.md: scikit-learn warns and returns NaN rates; confmat names pos_label
    y = [0, 1, 1] if pos == 2 else ["a", "b", "b"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, tpr, _ = skm.roc_curve(y, [0.1, 0.2, 0.3], pos_label=pos)
    assert np.isnan(tpr).all()
    with pytest.raises(ValueError, match=f"pos_label={pos!r} is not one of the labels"):
        confmat.roc_curve(y, [0.1, 0.2, 0.3], pos_label=pos)


def test_one_class_gives_nan_with_a_warning_as_sklearn():
    for ours, theirs in [(confmat.roc_auc, skm.roc_auc_score)]:
        with pytest.warns(confmat.UndefinedMetricWarning):
            a = ours([1, 1, 1], [0.1, 0.5, 0.5])
        with pytest.warns(UndefinedMetricWarning):
            b = theirs([1, 1, 1], [0.1, 0.5, 0.5])
        assert np.isnan(a) and np.isnan(b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(confmat.roc_curve([0, 0, 0], [0.3, 0.3, 0.1]),
              skm.roc_curve([0, 0, 0], [0.3, 0.3, 0.1]))


def test_roc_auc_of_one_class_against_the_rest_from_1d_scores():
    # roc_curve, average_precision and ScoreHistogram read 1-D scores of multiclass y_true
    # with pos_label as that class against the rest; roc_auc refused them ("y_score must be
    # 2-D") although pos_label said what to do
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 200)
    s = rng.normal(size=200) + (y == 2)
    w = rng.random(200)
    for weight in (None, w):
        for max_fpr in (None, 0.3):
            assert confmat.roc_auc(y, s, pos_label=2, sample_weight=weight,
                                   max_fpr=max_fpr) == pytest.approx(
                skm.roc_auc_score(y == 2, s, sample_weight=weight, max_fpr=max_fpr),
                rel=1e-12)
    labels = np.array(["cat", "dog", "eel"])[y]
    assert confmat.roc_auc(labels, s, pos_label="eel") == pytest.approx(
        skm.roc_auc_score(y == 2, s), rel=1e-12)
    with pytest.raises(ValueError, match=r"y_score must be 2-D .* for y_true of 3 classes, got shape \(200,\); for 1-D "
                       "scores of one class against the rest give pos_label="):
        confmat.roc_auc(y, s)


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(3, 5), st.integers(6, 60),
       st.sampled_from(["none", "random", "whole"]), st.booleans(), st.booleans())
def test_multiclass_auc_and_ap_equal_sklearn(seed, k, n, weights, ties, strings):
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])
    p = rng.dirichlet(np.ones(k), n)
    if ties:  # probabilities on a coarse grid: many ties within each column
        p = np.round(p * 4)
        p[p.sum(1) == 0] = 1.0
        p = p / p.sum(1, keepdims=True)
    w = {"none": None, "random": rng.random(n) + 0.01,
         "whole": rng.integers(1, 4, n).astype(np.float64)}[weights]
    if strings:
        y = np.array(list("abcde"))[y]
    for average in ["macro", "weighted", "micro", None]:
        _same(confmat.roc_auc(y, p, multi_class="ovr", average=average, sample_weight=w),
              skm.roc_auc_score(y, p, multi_class="ovr", average=average, sample_weight=w))
        _same(confmat.average_precision(y, p, average=average, sample_weight=w),
              skm.average_precision_score(y, p, average=average, sample_weight=w))
    for average in ["macro", "weighted"]:
        _same(confmat.roc_auc(y, p, multi_class="ovo", average=average),
              skm.roc_auc_score(y, p, multi_class="ovo", average=average))
    # docs/curves.md: labels= may name the score columns in any order (scikit-learn wants
    # them sorted); the same columns permuted give scikit-learn's value on the sorted ones
    classes = sorted(set(y.tolist()))
    perm = rng.permutation(k)
    for multi_class in ("ovr", "ovo"):
        _same(confmat.roc_auc(y, p[:, perm], multi_class=multi_class,
                              labels=[classes[i] for i in perm]),
              skm.roc_auc_score(y, p, multi_class=multi_class))


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(3, 40), st.booleans())
def test_multilabel_and_one_vs_rest_curves_equal_sklearn(seed, k, n, weighted):
    rng = np.random.default_rng(seed)
    indicator = (rng.random((n, k)) < 0.4).astype(np.int64)
    s = np.round(rng.random((n, k)), 1)  # ties
    w = rng.random(n) + 0.01 if weighted else None
    for average in ["macro", "weighted", "micro", None]:
        for max_fpr in (None, 0.4):
            kw = {"average": average, "sample_weight": w, "max_fpr": max_fpr}
            a = _outcome(partial(confmat.roc_auc, indicator, s, **kw))
            b = _outcome(partial(skm.roc_auc_score, indicator, s, **kw))
            assert a[0] == b[0]  # a column of one class: both refuse
            if a[0] == "ok":
                _same(a[1], b[1])
        _same(confmat.average_precision(indicator, s, average=average, sample_weight=w),
              skm.average_precision_score(indicator, s, average=average, sample_weight=w))
    # one-vs-rest curves of a multiclass problem: each class, and the micro curve of the
    # raveled indicator matrix
    y = np.concatenate([np.arange(k), rng.integers(0, k, n)])
    p = rng.dirichlet(np.ones(k), y.shape[0])
    wy = None if w is None else rng.random(y.shape[0]) + 0.01
    ovr = confmat.roc_curve_ovr(y, p, sample_weight=wy)
    for c in range(k):
        _same((ovr.curves[c].fpr, ovr.curves[c].tpr, ovr.curves[c].thresholds),
              skm.roc_curve(y == c, p[:, c], sample_weight=wy))
    onehot = (y[:, None] == np.arange(k)).ravel()
    _same((ovr.micro.fpr, ovr.micro.tpr),
          skm.roc_curve(onehot, p.ravel(),
                        sample_weight=None if wy is None else np.repeat(wy, k))[:2])


# ------------------------------------------------------------------ Mann-Whitney AUC vs SciPy
def _scipy_auc(pos, s):
    u = mannwhitneyu(s[pos], s[~pos], alternative="two-sided", method="asymptotic").statistic
    return u / (np.count_nonzero(pos) * np.count_nonzero(~pos))


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 50, 5000]),
       st.sampled_from([None, 3, 30]))
def test_mann_whitney_auc_equals_scipy_u(seed, n, levels):
    rng = np.random.default_rng(seed)
    pos = rng.random(n) < 0.4
    pos[:2] = [False, True]
    s = rng.normal(size=n) + pos
    if levels is not None:  # heavy ties
        s = np.round(s * levels / 4)
    expected = _scipy_auc(pos, s)
    assert rank.mann_whitney_auc(pos, s) == pytest.approx(expected, rel=1e-12)
    assert confmat.roc_auc(pos.astype(np.int64), s) == pytest.approx(expected, rel=1e-12)


def test_compiled_fast_auc_equals_scipy_u_with_ties():
    rng = np.random.default_rng(5)
    n = 1 << 16  # the size of the compiled fast path (numba) of roc_auc
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = np.round(rng.normal(size=n) + y, 1)
    assert confmat.roc_auc(y, s) == pytest.approx(_scipy_auc(y == 1, s), rel=1e-12)


def test_exact_int_sum_past_int64():
    values = np.array([2**62, 2**62 + 1, 2**62 - 5, 7, 2**61], dtype=np.int64)
    assert rank.exact_int_sum(values) == sum(int(v) for v in values)
    assert int(values.sum()) != sum(int(v) for v in values)  # numpy's sum wraps
    assert rank.exact_int_sum(np.zeros(0, dtype=np.int64)) == 0
    big = np.full(10_000, 2**50, dtype=np.int64)
    assert rank.exact_int_sum(big) == 10_000 * 2**50


@pytest.mark.parametrize("limit", [1, 3, 64])
def test_compiled_pair_counts_carry_exactly(limit):
    kern = rank.rank_kernel()
    if kern is None:
        pytest.skip("numba is not installed or disabled: the compiled kernel does not exist")
    below_and_ties = kern[0]
    rng = np.random.default_rng(limit)
    ps = np.sort(np.round(rng.normal(size=300), 1))
    ns = np.sort(np.round(rng.normal(size=200), 1))
    below = sum(int((ns < v).sum()) for v in ps)
    ties = sum(int((ns == v).sum()) for v in ps)
    b_hi, b_lo, t_hi, t_lo = below_and_ties(ps, ns, limit)
    assert int(b_hi) * limit + int(b_lo) == below
    assert int(t_hi) * limit + int(t_lo) == ties
    assert 0 <= b_lo < limit and 0 <= t_lo < limit


# ------------------------------------------------------------------ ScoreHistogram bins
RANGES = [(0.0, 1.0), (-3.0, 5.0), (-7.3, -1.1), (0.1, 0.7), (-1e6, 1e6), (2.5, 2.5000001),
          (1e-300, 1e-299), (-8e307, 8e307)]


def _documented_edges(lo, hi, bins):
    e = lo + (hi - lo) * (np.arange(bins + 1) / bins)
    e[-1] = hi
    return e


def _edge_scores(edges, lo, hi):
    s = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf),
                        (edges[:-1] + edges[1:]) / 2])
    return s[(s >= lo) & (s <= hi)]


@pytest.mark.parametrize("score_range", RANGES)
@pytest.mark.parametrize("bins", [1, 3, 10, 977])
@pytest.mark.parametrize("numba_path", [False, True])
def test_bins_follow_numpy_histogram_at_every_edge(score_range, bins, numba_path, monkeypatch):
    lo, hi = score_range
    monkeypatch.setattr(binned_binning, "NUMBA_MIN_SIZE", 0 if numba_path else 1 << 60)
    edges = _documented_edges(lo, hi, bins)
    s = _edge_scores(edges, lo, hi)
    y = np.arange(s.shape[0]) % 2
    w = np.linspace(0.5, 2.0, s.shape[0])
    h = ScoreHistogram(bins=bins, score_range=score_range).update(y, s)
    hw = ScoreHistogram(bins=bins, score_range=score_range).update(y, s, sample_weight=w)
    assert_array_equal(h.edges, edges)
    for c in (0, 1):
        expected, _ = np.histogram(s[y == c], bins=edges)
        assert_array_equal(h.counts[c, 0], expected)
        expected_w, _ = np.histogram(s[y == c], bins=edges, weights=w[y == c])
        # numpy sums weights by differences of a cumulative sum: off by rounding of the total
        assert_allclose(hw.counts[c, 0], expected_w, rtol=0, atol=1e-14 * w.sum())


@pytest.mark.parametrize("numba_path", [False, True])
def test_multiclass_columns_bin_as_numpy_histogram_at_every_edge(numba_path, monkeypatch):
    monkeypatch.setattr(binned_binning, "NUMBA_MIN_SIZE", 0 if numba_path else 1 << 60)
    bins = 37
    edges = _documented_edges(0.0, 1.0, bins)
    x = _edge_scores(edges, 0.0, 1.0)
    p = np.column_stack([x, 1.0 - x, np.zeros_like(x)])  # rows of probabilities
    y = np.arange(x.shape[0]) % 3
    h = ScoreHistogram([0, 1, 2], bins=bins).update(y, p)
    for c in range(3):
        for k in range(3):
            assert_array_equal(h.counts[c, k], np.histogram(p[y == c, k], bins=edges)[0])


def test_edges_differ_from_numpy_linspace_only_as_documented():
    # docs/curves.md: edges are lo + (hi - lo) * j / B, so that 0.1, ..., 0.9 are edges of the
    # default histogram; numpy.histogram(bins=B, range=...) forms its edges with numpy.linspace,
    # which differ from these by one unit in the last place at some j, and only a score lying
    # between the two versions of such an edge is binned differently.
    bins = 10
    h = ScoreHistogram(bins=bins)
    lin = np.linspace(0.0, 1.0, bins + 1)
    differ = np.flatnonzero(h.edges != lin)
    assert differ.size > 0 and 0.3 in h.edges and 0.3 not in lin
    assert_array_equal(np.abs(h.edges[differ] - lin[differ]),
                       np.spacing(np.minimum(h.edges[differ], lin[differ])))
    n_moved = 0
    for x in _edge_scores(h.edges, 0.0, 1.0):
        ours = int(np.argmax(ScoreHistogram(bins=bins).update([1], [x]).counts[1, 0]))
        theirs = int(np.argmax(np.histogram([x], bins=bins, range=(0.0, 1.0))[0]))
        between = any(min(h.edges[j], lin[j]) <= x < max(h.edges[j], lin[j]) for j in differ)
        assert (ours != theirs) == between
        n_moved += ours != theirs
    assert n_moved == differ.size  # one score (the edge itself) per moved edge


@pytest.mark.parametrize("score_range", [(0.0, 1.0), (-3.0, 5.0), (-7.3, -1.1), (10.0, 12.0)])
@pytest.mark.parametrize("weighted", [False, True])
def test_scores_on_bin_centres_give_the_exact_curves(score_range, weighted):
    # a score at a bin centre is the only distinct score of its bin: the binned curves are the
    # exact curves of these scores, the thresholds being the lower edges
    lo, hi = score_range
    bins = 40
    rng = np.random.default_rng(11)
    edges = _documented_edges(lo, hi, bins)
    centres = (edges[:-1] + edges[1:]) / 2
    n = 400
    y = rng.integers(0, 2, n)
    j = np.clip(np.round(rng.normal(18 + 6 * y, 6)).astype(int), 0, bins - 1)
    s = centres[j]
    w = rng.random(n) * 3 if weighted else None
    h = ScoreHistogram(bins=bins, score_range=score_range).update(y, s, sample_weight=w)
    fpr, tpr, thr = h.roc_curve(drop_intermediate=False)
    e_fpr, e_tpr, e_thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert_allclose(fpr, e_fpr, rtol=1e-12)
    assert_allclose(tpr, e_tpr, rtol=1e-12)
    lower = edges[np.searchsorted(centres, e_thr[1:])]
    assert_array_equal(thr[1:], lower)
    p, r, t = h.precision_recall_curve()
    e_p, e_r, e_t = skm.precision_recall_curve(y, s, sample_weight=w)
    assert_array_equal(t, edges[np.searchsorted(centres, e_t)])
    assert_allclose(p, e_p, rtol=1e-12)
    assert_allclose(r, e_r, rtol=1e-12)
    assert h.roc_auc() == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    assert h.roc_auc(max_fpr=0.25) == pytest.approx(
        skm.roc_auc_score(y, s, sample_weight=w, max_fpr=0.25), rel=1e-12)
    assert h.average_precision() == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w), rel=1e-12)


LABEL_KINDS = {  # labels of class 0 and 1, and the pos_label given (None: the door's rule)
    "int": ([0, 1], None), "pm1": ([-1, 1], None), "bool": ([False, True], None),
    "str": (["neg", "pos"], "pos"), "int pos 0": ([1, 0], 0), "three": ([7, 3], 3),
}


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.sampled_from(RANGES), st.sampled_from([1, 2, 7, 100]),
       st.sampled_from(sorted(LABEL_KINDS)), st.booleans())
def test_binned_curves_equal_sklearn_on_scores_binned_by_numpy(seed, score_range, bins, kind,
                                                                weighted):
    # the oracle bins with numpy.histogram and puts every sample at its bin's lower edge
    lo, hi = score_range
    rng = np.random.default_rng(seed)
    edges = _documented_edges(lo, hi, bins)
    pool = _edge_scores(edges, lo, hi)
    n = 80
    s = rng.choice(pool, n)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    w = rng.random(n) * 3 if weighted else None
    names, pos_label = LABEL_KINDS[kind]
    labels = np.array(names, dtype=object if kind == "bool" else None)[y]
    if kind == "bool":
        labels = labels.astype(bool)
    if kind == "three":  # a third class, negative like the class 7
        labels = np.where((y == 0) & (rng.random(n) < 0.5), 5, labels)
    h = ScoreHistogram(bins=bins, score_range=score_range, pos_label=pos_label).update(
        labels, s, sample_weight=w)
    yq, sq, wq = [], [], []
    for c in (0, 1):
        counts, _ = np.histogram(s[y == c], bins=edges)
        order = np.argsort(s[y == c], kind="stable")  # samples bin by bin, as counted
        yq.append(np.full(counts.sum(), c))
        sq.append(np.repeat(edges[:-1], counts))
        if w is not None:
            wq.append(w[y == c][order])
    yq, sq = np.concatenate(yq), np.concatenate(sq)
    wq = np.concatenate(wq) if w is not None else None
    for drop in (False, True):
        _same(h.roc_curve(drop_intermediate=drop),
              skm.roc_curve(yq, sq, sample_weight=wq, drop_intermediate=drop))
        _same(h.precision_recall_curve(drop_intermediate=drop),
              skm.precision_recall_curve(yq, sq, sample_weight=wq, drop_intermediate=drop))
    _same(h.roc_auc(), skm.roc_auc_score(yq, sq, sample_weight=wq))
    _same(h.roc_auc(max_fpr=0.5), skm.roc_auc_score(yq, sq, sample_weight=wq, max_fpr=0.5))
    _same(h.average_precision(), skm.average_precision_score(yq, sq, sample_weight=wq))


def test_large_unweighted_input_takes_the_compiled_paths_and_equals_sklearn():
    rng = np.random.default_rng(21)
    n = 1 << 17  # past the sizes of the compiled sort / merge and of the fast AUC
    y = (rng.random(n) < 0.2).astype(np.int64)
    s = np.round(rng.normal(size=n) + y, 2)  # heavy ties
    _same(confmat.roc_curve(y, s), skm.roc_curve(y, s))
    _same(confmat.roc_curve(y, s, drop_intermediate=False),
          skm.roc_curve(y, s, drop_intermediate=False))
    _same(confmat.precision_recall_curve(y, s), skm.precision_recall_curve(y, s))
    _same(confmat.average_precision(y, s), skm.average_precision_score(y, s))
    _same(confmat.roc_auc(y, s), skm.roc_auc_score(y, s))
    _same(confmat.roc_auc(y, s, max_fpr=0.2), skm.roc_auc_score(y, s, max_fpr=0.2))


@pytest.mark.parametrize("score_range, bins, numpy_refuses", [
    ((-1e308, 1e308), 10, True),        # hi - lo overflows float64
    ((-1.5e308, 7.5e307), 3, True),
    ((1.0, 1.0000000000000002), 10, True),  # edges repeat: bins of no width
    ((0.0, 5e-324), 2, True),
    # bins / (hi - lo) overflows: numpy divides first and copes, confmat's bin lookup (and its
    # SQL form) multiplies by that scale, so the range is refused rather than misbinned
    ((0.0, 1e-310), 7, False),
])
def test_score_ranges_whose_bins_float64_cannot_form_are_refused(score_range, bins,
                                                                 numpy_refuses):
    with pytest.raises(ValueError, match=r"score_range=.* too (wide|narrow)"):
        ScoreHistogram(bins=bins, score_range=score_range)
    if numpy_refuses:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises((ValueError, RuntimeWarning)):
                np.histogram([score_range[0]], bins=bins, range=score_range)


def test_json_state_with_such_a_range_names_the_field():
    data = ScoreHistogram(bins=10).update([0, 1], [0.2, 0.7]).to_dict()
    data["score_range"] = [-1e308, 1e308]
    with pytest.raises(ValueError, match=r"demo: field 'score_range': score_range=.* too wide"):
        confmat.binned.read_histogram(data, "demo")
    data["score_range"] = [1.0, 1.0000000000000002]
    with pytest.raises(ValueError, match=r"demo: field 'score_range': .* too narrow for 10 bins"):
        confmat.binned.read_histogram(data, "demo")


@SETTINGS
@given(st.floats(-1e300, 1e300), st.integers(-320, 300), st.sampled_from([1, 2, 3, 10, 977]),
       st.booleans())
def test_any_accepted_range_bins_as_numpy_histogram(lo, width_exp, bins, numba_path):
    hi = lo + 10.0**width_exp * 1.37
    if not (np.isfinite(hi) and hi > lo):
        return
    try:
        h = ScoreHistogram(bins=bins, score_range=(lo, hi))
    except ValueError as exc:  # refused: the bins cannot be formed in float64
        assert "too narrow" in str(exc) or "too wide" in str(exc)
        with np.errstate(all="ignore"):
            e = _documented_edges(lo, hi, bins)
            assert not (np.isfinite(bins / (hi - lo)) and (np.diff(e) > 0).all())
        return
    edges = _documented_edges(lo, hi, bins)
    s = _edge_scores(edges, lo, hi)
    y = np.arange(s.shape[0]) % 2
    old = binned_binning.NUMBA_MIN_SIZE
    binned_binning.NUMBA_MIN_SIZE = 0 if numba_path else 1 << 60
    try:
        h.update(y, s)
    finally:
        binned_binning.NUMBA_MIN_SIZE = old
    for c in (0, 1):
        assert_array_equal(h.counts[c, 0], np.histogram(s[y == c], bins=edges)[0])


# ------------------------------------------------------------------ counts past 2**32 per class
def _fraction_oracle(pos, neg):
    """AUC, AUC error bound and step AP of a histogram by Python integers and Fractions."""
    p = sum(int(v) for v in pos)
    q = sum(int(v) for v in neg)
    twice_u, below = 0, 0
    for a, b in zip(pos, neg, strict=True):
        twice_u += int(a) * (2 * below + int(b))
        below += int(b)
    auc = Fraction(twice_u, 2 * p * q)
    bound = Fraction(sum(int(a) * int(b) for a, b in zip(pos, neg, strict=True)), 2 * p * q)
    tp = fp = 0
    ap, last_recall = Fraction(0), Fraction(0)
    for a, b in zip(pos[::-1], neg[::-1], strict=True):
        if a + b == 0:
            continue
        tp, fp = tp + int(a), fp + int(b)
        recall = Fraction(tp, p)
        ap += (recall - last_recall) * Fraction(tp, tp + fp)
        last_recall = recall
    return auc, bound, ap, p, q


@pytest.mark.parametrize("per_class", [2**32 - 1, 2**32 + 17, 2**40, 2**56])
@pytest.mark.parametrize("as_weights", [False, True])
def test_histogram_counts_past_int64_pair_counts_against_fractions(per_class, as_weights):
    bins = 64
    rng = np.random.default_rng(per_class % 1000)
    share = rng.dirichlet(np.ones(bins), 2)
    pos = np.floor(share[0] * per_class).astype(np.int64)
    neg = np.floor(share[1] * per_class).astype(np.int64)
    pos[5] = 0  # an empty bin of one class
    auc, bound, ap, p, q = _fraction_oracle(pos, neg)
    assert p * q > 2**63 or per_class < 2**33  # the pair count passes int64 from 2**32 on
    counts = np.concatenate([neg, pos])
    if as_weights:
        counts = counts.astype(np.float64)
    h = ScoreHistogram(bins=bins).update_grouped(
        np.repeat([0, 1], bins), np.tile(np.arange(bins), 2), counts)
    assert h.roc_auc() == pytest.approx(float(auc), rel=1e-13)
    assert h.auc_error_bound() == pytest.approx(float(bound), rel=1e-13)
    assert h.average_precision() == pytest.approx(float(ap), rel=1e-13)
    sweep = h.threshold_sweep(thresholds=[0.5])
    tp, fp = sum(int(v) for v in pos[32:]), sum(int(v) for v in neg[32:])
    got = [sweep.tp[0], sweep.fp[0], sweep.fn[0], sweep.tn[0]]
    if as_weights:  # sums of float64 weights: exact only up to rounding
        assert_allclose(np.array(got, float), [tp, fp, p - tp, q - fp], rtol=1e-15)
    else:  # integer counts: exact
        assert [int(v) for v in got] == [tp, fp, p - tp, q - fp]
    # merging two halves gives the same areas
    half = h.copy()
    half.counts = h.counts // 2 if not as_weights else h.counts / 2
    rest = h.copy()
    rest.counts = h.counts - half.counts
    assert (half + rest).roc_auc() == pytest.approx(float(auc), rel=1e-13)


@pytest.mark.parametrize("scale", [1e200, 1e150, 1e-300, 1e-320])
def test_binned_areas_with_weights_far_from_one(scale):
    # the AUC and its bound multiplied two sums of weights (1e200 * 1e200 = inf, 1e-300 *
    # 1e-300 = 0) and gave NaN where the exact curves on the binned scores are fine
    bins = 20
    rng = np.random.default_rng(8)
    n = 300
    y = rng.integers(0, 2, n)
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.0, 1.0)
    w = (rng.random(n) + 0.1) * scale
    h = ScoreHistogram(bins=bins).update(y, s, sample_weight=w)
    edges = _documented_edges(0.0, 1.0, bins)
    per_bin = {}
    for c in (0, 1):
        j = np.clip(np.searchsorted(edges, s[y == c], side="right") - 1, 0, bins - 1)
        assert_array_equal(np.histogram(s[y == c], bins=edges)[0], np.bincount(j, minlength=bins))
        per_bin[c] = [sum((Fraction(float(v)) for v in w[y == c][j == b]), Fraction(0))
                      for b in range(bins)]
    q = edges[np.clip(np.searchsorted(edges, s, side="right") - 1, 0, bins - 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert h.roc_auc() == pytest.approx(skm.roc_auc_score(y, q, sample_weight=w), rel=1e-12)
        assert h.roc_auc(max_fpr=0.3) == pytest.approx(
            skm.roc_auc_score(y, q, sample_weight=w, max_fpr=0.3), rel=1e-12)
        assert h.average_precision() == pytest.approx(
            skm.average_precision_score(y, q, sample_weight=w), rel=1e-12)
    p, m = sum(per_bin[1]), sum(per_bin[0])
    bound = sum(a * b for a, b in zip(per_bin[1], per_bin[0], strict=True)) / (2 * p * m)
    assert h.auc_error_bound() == pytest.approx(float(bound), rel=1e-12)


@pytest.mark.parametrize("scale", [1e-11, 1e-13, 1e-300])
def test_weighted_average_of_small_weights_is_the_weighted_mean(scale):
    # docs/curves.md (differences from scikit-learn): scikit-learn tests the total support
    # with np.isclose(total, 0) and returns 0 below about 1e-8; confmat averages. Oracle:
    # scikit-learn's per-class values (average=None) weighted by the classes' weights.
    rng = np.random.default_rng(12)
    n, k = 150, 3
    y = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])
    p = rng.dirichlet(np.ones(k), n)
    w = (rng.random(n) + 0.1) * scale
    support = np.array([w[y == c].sum() for c in range(k)])
    per_auc = skm.roc_auc_score(y, p, multi_class="ovr", average=None, sample_weight=w)
    per_ap = skm.average_precision_score(y, p, average=None, sample_weight=w)
    assert skm.roc_auc_score(y, p, multi_class="ovr", average="weighted", sample_weight=w) == 0
    assert confmat.roc_auc(y, p, multi_class="ovr", average="weighted",
                           sample_weight=w) == pytest.approx(np.average(per_auc,
                                                                        weights=support / scale))
    assert confmat.average_precision(y, p, average="weighted", sample_weight=w) == pytest.approx(
        np.average(per_ap, weights=support / scale))
    h = ScoreHistogram([0, 1, 2], bins=50).update(y, p, sample_weight=w)
    per_binned = h.roc_auc(average=None)
    assert h.roc_auc(average="weighted") == pytest.approx(np.average(per_binned,
                                                                     weights=support / scale))


def test_sums_of_weights_past_float64_are_refused_not_turned_into_inf():
    # each chunk passes the door (its own total is finite) but the running total, or the
    # merged one, passed 1.8e308: the counts became inf and every area NaN without a word
    def fresh():
        return ScoreHistogram(bins=4).update([0, 1], [0.2, 0.7], sample_weight=[5e307, 5e307])

    h = fresh()
    h.update([0, 1], [0.2, 0.7], sample_weight=[2e307, 2e307])  # 1.4e308 in all: finite
    assert h.n == pytest.approx(1.4e308) and h.roc_auc() == 1.0
    before = h.counts.copy()
    with pytest.raises(ValueError, match=r"ScoreHistogram\.update: the sums of weights would pass"):
        h.update([0, 1], [0.2, 0.7], sample_weight=[4e307, 4e307])
    assert_array_equal(h.counts, before)
    with pytest.raises(ValueError, match=r"ScoreHistogram\.merge: the sums of weights would pass"):
        fresh().merge(fresh())
    with pytest.raises(ValueError, match="update_grouped: the sums of weights would pass"):
        fresh().update_grouped([0, 1], [0, 3], [5e307, 5e307])
    counted = ScoreHistogram(bins=4).update([0, 1], [0.2, 0.7])  # int counts stay int
    with pytest.raises(ValueError, match="update_grouped: the sums of weights would pass"):
        counted.update_grouped([0, 1], [0, 3], [1e308, 1e308])
    assert counted.counts.dtype == np.int64 and counted.n == 2
    assert float(sum(Fraction(float(v)) for v in h.counts[:, 0].ravel())) == h.n


@pytest.mark.parametrize("score_range", [(-3.0, 5.0), (-7.3, -1.1), (0.1, 0.7)])
def test_sweep_at_every_edge_counts_the_raw_scores_exactly(score_range):
    # bins are [e_j, e_j+1): the counts at or above an edge are those of `score >= edge` on
    # the raw scores, the oracle counted here
    lo, hi = score_range
    bins = 13
    edges = _documented_edges(lo, hi, bins)
    s = _edge_scores(edges, lo, hi)
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, s.shape[0])
    w = rng.random(s.shape[0])
    for weight in (None, w):
        h = ScoreHistogram(bins=bins, score_range=score_range).update(y, s, sample_weight=weight)
        sweep = h.threshold_sweep(thresholds=edges[:-1])
        ww = np.ones_like(s) if weight is None else weight
        for i, e in enumerate(edges[:-1]):
            tp = math.fsum(ww[(s >= e) & (y == 1)])
            fp = math.fsum(ww[(s >= e) & (y == 0)])
            assert sweep.tp[i] == pytest.approx(tp, rel=1e-12)
            assert sweep.fp[i] == pytest.approx(fp, rel=1e-12)
        with pytest.raises(ValueError, match="is not a bin edge"):
            h.threshold_sweep(thresholds=[np.nextafter(edges[3], np.inf)])


@SETTINGS
@given(binary_inputs())
def test_interpolated_and_trapezoid_average_precision_against_sklearn_curve(data):
    # trapezoid: scikit-learn's auc(recall, precision); interpolated: PASCAL VOC's all-point
    # interpolation (Everingham et al. 2010) worked on scikit-learn's curve
    y, s, w, pos = data
    if w is not None and not w.any():
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, r, _ = skm.precision_recall_curve(y, s, pos_label=pos, sample_weight=w)
        trapezoid = skm.auc(r, p)
        interpolated = -np.sum(np.diff(r) * np.maximum.accumulate(p)[:-1])
        a = confmat.average_precision(y, s, pos_label=pos, sample_weight=w, method="trapezoid")
        b = confmat.average_precision(y, s, pos_label=pos, sample_weight=w,
                                      method="interpolated")
    assert a == pytest.approx(max(0.0, trapezoid), rel=1e-12, abs=1e-15)
    assert b == pytest.approx(max(0.0, interpolated), rel=1e-12, abs=1e-15)
