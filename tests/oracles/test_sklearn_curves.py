"""Differential tests of confmat.curves against scikit-learn's ranking metrics.

scikit-learn is the independent oracle: random inputs with heavy ties, string labels and
sample weights (including zero weights) must give the same curves and areas.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

import confmat

RTOL = 1e-12


def _binary_case(rng: np.random.Generator, n: int, ties: int | None, weighted: bool):
    y = rng.integers(0, 2, n)
    if ties is None:
        s = rng.normal(size=n) + 0.7 * y
    else:
        s = rng.integers(0, ties, n).astype(float) / ties + 0.1 * y * rng.integers(0, 2, n)
    w = None
    if weighted:
        w = rng.random(n) * 3
        w[rng.random(n) < 0.15] = 0.0
        if not w.any():
            w[0] = 1.0
    return y, s, w


@st.composite
def binary_cases(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(2, 80))
    ties = draw(st.sampled_from([None, 2, 3, 5, 20]))
    weighted = draw(st.booleans())
    rng = np.random.default_rng(seed)
    y, s, w = _binary_case(rng, n, ties, weighted)
    if len(np.unique(y)) < 2:
        y[0], y[-1] = 0, 1
    if w is not None:  # both classes keep some weight (degenerate weights are tested apart)
        w[np.flatnonzero(y == 0)[0]] = 1.0
        w[np.flatnonzero(y == 1)[0]] = 1.0
    return y, s, w


def _close(a, b):
    assert_allclose(a, b, rtol=RTOL, atol=1e-14)


@settings(max_examples=60, deadline=None)
@given(binary_cases(), st.booleans())
def test_roc_curve_matches_sklearn(case, drop):
    y, s, w = case
    got = confmat.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
    exp = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
    for g, e in zip(got, exp, strict=True):
        assert g.shape == e.shape
        if w is None:
            assert_array_equal(g, e)
        else:
            _close(g, e)


@settings(max_examples=50, deadline=None)
@given(binary_cases(), st.booleans())
def test_precision_recall_curve_matches_sklearn(case, drop):
    y, s, w = case
    got = confmat.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
    exp = skm.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
    for g, e in zip(got, exp, strict=True):
        assert g.shape == e.shape
        _close(g, e)


@settings(max_examples=60, deadline=None)
@given(binary_cases(), st.sampled_from([None, 1.0, 0.05, 0.3, 0.5, 0.77]))
def test_binary_roc_auc_matches_sklearn(case, max_fpr):
    y, s, w = case
    got = confmat.roc_auc(y, s, sample_weight=w, max_fpr=max_fpr)
    exp = skm.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
    assert abs(got - exp) <= 1e-12


@settings(max_examples=50, deadline=None)
@given(binary_cases())
def test_average_precision_matches_sklearn(case):
    y, s, w = case
    got = confmat.average_precision(y, s, sample_weight=w)
    exp = skm.average_precision_score(y, s, sample_weight=w)
    assert abs(got - exp) <= 1e-12


@pytest.mark.parametrize("n", [4096, 20_000, 70_000])
@pytest.mark.parametrize("ties", [None, 7, 1000])
def test_large_binary_auc_fast_paths(n, ties):
    # n >= 4096: compiled merge; n >= 65536 with numpy int labels: compiled scan + split too;
    # n < 4096: searchsorted. Every path must agree with scikit-learn.
    rng = np.random.default_rng(n + (ties or 0))
    y, s, _ = _binary_case(rng, n, ties, False)
    assert abs(confmat.roc_auc(y, s) - skm.roc_auc_score(y, s)) <= 1e-12
    assert abs(confmat.roc_auc(y[:1000], s[:1000]) - skm.roc_auc_score(y[:1000], s[:1000])) <= 1e-12
    for labels in (2 * y - 1, y.astype(np.uint8), y.astype(bool)):
        assert abs(confmat.roc_auc(labels, s) - skm.roc_auc_score(labels, s)) <= 1e-12
    # labels {3, 4}: confmat's rule needs pos_label (scikit-learn's roc_auc_score takes the
    # larger label); with it the value is scikit-learn's
    with pytest.raises(ValueError, match="pos_label is not specified"):
        confmat.roc_auc(y + 3, s)
    assert abs(confmat.roc_auc(y + 3, s, pos_label=4) - skm.roc_auc_score(y + 3, s)) <= 1e-12
    # n >= 16384 unweighted: curves from two in-place sorts and a compiled merge
    for g, e in zip(confmat.roc_curve(y, s), skm.roc_curve(y, s), strict=True):
        assert_array_equal(g, e)
    for g, e in zip(confmat.precision_recall_curve(y, s), skm.precision_recall_curve(y, s),
                    strict=True):
        assert_allclose(g, e, rtol=RTOL)


def test_fast_path_falls_back_for_errors_and_one_class():
    n = 70_000
    y = np.zeros(n, dtype=np.int64)
    s = np.linspace(0, 1, n)
    with pytest.warns(confmat.UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(confmat.roc_auc(y, s))
    y[::2] = 1
    s[5] = np.nan
    with pytest.raises(ValueError, match="y_score contains NaN at position 5"):
        confmat.roc_auc(y, s)
    y[7] = 2
    with pytest.raises(ValueError, match="y_score must be 2-D"):
        confmat.roc_auc(y, np.linspace(0, 1, n), multi_class="ovr")


def test_string_labels_and_pos_label():
    rng = np.random.default_rng(3)
    y = rng.choice(np.array(["benign", "malignant"]), 60)
    s = np.round(rng.random(60), 1)
    for pos in ("benign", "malignant"):
        got = confmat.roc_curve(y, s, pos_label=pos)
        exp = skm.roc_curve(y, s, pos_label=pos)
        for g, e in zip(got, exp, strict=True):
            assert_array_equal(g, e)
        g = confmat.precision_recall_curve(y, s, pos_label=pos)
        e = skm.precision_recall_curve(y, s, pos_label=pos)
        for a, b in zip(g, e, strict=True):
            assert_allclose(a, b, rtol=RTOL)
        assert confmat.average_precision(y, s, pos_label=pos) == pytest.approx(
            skm.average_precision_score(y, s, pos_label=pos), abs=1e-12
        )
    # roc_auc: string labels need pos_label (confmat's one rule); scikit-learn's roc_auc_score
    # takes the larger label, so pos_label="malignant" gives its value
    with pytest.raises(ValueError, match="pos_label is not specified"):
        confmat.roc_auc(y, s)
    assert confmat.roc_auc(y, s, pos_label="malignant") == pytest.approx(
        skm.roc_auc_score(y == "malignant", s), abs=1e-12)
    assert confmat.roc_auc(y, s, pos_label="benign") == pytest.approx(
        skm.roc_auc_score(y == "benign", s), abs=1e-12)


def test_multiclass_y_true_with_pos_label_like_the_paper():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 90)
    p = rng.dirichlet(np.ones(3), 90)
    for k in range(3):
        for g, e in zip(
            confmat.roc_curve(y, p[:, k], pos_label=k), skm.roc_curve(y, p[:, k], pos_label=k),
            strict=True,
        ):
            assert_array_equal(g, e)


def _multiclass_case(seed: int, n: int, k: int, ties: bool):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # every class present
    logits = rng.normal(size=(n, k)) + 1.2 * np.eye(k)[y]
    if ties:
        logits = np.round(logits)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return y, p, rng.random(n) * 2


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_multiclass_ovr_matches_sklearn(seed, average):
    y, p, w = _multiclass_case(seed, 40 + 7 * seed, 3 + seed % 3, seed % 2 == 0)
    for weight in (None, w):
        got = confmat.roc_auc(y, p, multi_class="ovr", average=average, sample_weight=weight)
        exp = skm.roc_auc_score(y, p, multi_class="ovr", average=average, sample_weight=weight)
        assert_allclose(got, exp, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_multiclass_ovo_matches_sklearn(seed, average):
    y, p, _ = _multiclass_case(100 + seed, 35 + 5 * seed, 3 + seed % 4, seed % 3 == 0)
    got = confmat.roc_auc(y, p, multi_class="ovo", average=average)
    exp = skm.roc_auc_score(y, p, multi_class="ovo", average=average)
    assert abs(got - exp) <= 1e-12


def test_multiclass_string_labels_and_labels_argument():
    y, p, _w = _multiclass_case(7, 80, 4, True)
    names = np.array(["bus", "opel", "saab", "van"])[y]
    for mc in ("ovr", "ovo"):
        exp = skm.roc_auc_score(names, p, multi_class=mc)
        assert confmat.roc_auc(names, p, multi_class=mc) == pytest.approx(exp, abs=1e-12)
        got = confmat.roc_auc(names, p, multi_class=mc, labels=["bus", "opel", "saab", "van"])
        assert got == pytest.approx(exp, abs=1e-12)
    # labels may name a class absent from y_true (its column still has to be there)
    y3 = y[y < 3]
    p3 = p[y < 3]
    exp = skm.roc_auc_score(y3, p3, multi_class="ovo", labels=[0, 1, 2, 3])
    assert confmat.roc_auc(y3, p3, multi_class="ovo", labels=[0, 1, 2, 3]) == pytest.approx(
        exp, abs=1e-12
    )
    # a permuted labels order permutes the columns (scikit-learn only accepts sorted labels)
    perm = [2, 0, 3, 1]
    got = confmat.roc_auc(y, p[:, perm], multi_class="ovr", labels=perm)
    assert got == pytest.approx(skm.roc_auc_score(y, p, multi_class="ovr"), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_multiclass_and_multilabel_average_precision(seed, average):
    y, p, w = _multiclass_case(200 + seed, 50, 3 + seed % 3, seed % 2 == 1)
    got = confmat.average_precision(y, p, average=average, sample_weight=w)
    exp = skm.average_precision_score(y, p, average=average, sample_weight=w)
    assert_allclose(got, exp, rtol=0, atol=1e-12)
    rng = np.random.default_rng(seed)
    ind = (rng.random(p.shape) < 0.4).astype(int)
    ind[0] = 1
    ind[1] = 0
    got = confmat.average_precision(ind, p, average=average)
    exp = skm.average_precision_score(ind, p, average=average)
    assert_allclose(got, exp, rtol=0, atol=1e-12)
    got = confmat.roc_auc(ind, p, average=average)
    exp = skm.roc_auc_score(ind, p, average=average)
    assert_allclose(got, exp, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_one_vs_rest_curves(seed):
    y, p, w = _multiclass_case(300 + seed, 60, 3 + seed % 2, seed % 2 == 0)
    weight = w if seed % 3 == 0 else None
    ovr = confmat.roc_curve_ovr(y, p, sample_weight=weight)
    classes = np.unique(y)
    for j, c in enumerate(classes):
        exp = skm.roc_curve(y, p[:, j], pos_label=c, sample_weight=weight)
        curve = ovr.curves[c]
        for g, e in zip((curve.fpr, curve.tpr, curve.thresholds), exp, strict=True):
            assert_allclose(g, e, rtol=RTOL)
        assert curve.auc == pytest.approx(skm.auc(exp[0], exp[1]), abs=1e-12)
    ind = label_binarize(y, classes=classes)
    sw = None if weight is None else np.repeat(weight, len(classes))
    exp = skm.roc_curve(ind.ravel(), p.ravel(), sample_weight=sw)
    assert_allclose(ovr.micro.fpr, exp[0], rtol=RTOL)
    assert_allclose(ovr.micro.tpr, exp[1], rtol=RTOL)
    assert ovr.micro.auc == pytest.approx(
        skm.roc_auc_score(y, p, multi_class="ovr", average="micro", sample_weight=weight),
        abs=1e-12,
    )
    # macro curve: the recipe of scikit-learn's ROC example, written out here
    curves = [skm.roc_curve(y, p[:, j], pos_label=c, sample_weight=weight) for j, c in
              enumerate(classes)]
    grid = np.unique(np.concatenate([c[0] for c in curves]))
    mean_tpr = np.zeros_like(grid)
    for fpr, tpr, _ in curves:
        mean_tpr += np.interp(grid, fpr, tpr)
    mean_tpr /= len(curves)
    assert_allclose(ovr.macro.fpr, grid)
    assert_allclose(ovr.macro.tpr, mean_tpr, rtol=1e-12)
    assert ovr.macro.auc == pytest.approx(skm.auc(grid, mean_tpr), abs=1e-12)
    assert ovr.mean_auc == pytest.approx(
        skm.roc_auc_score(y, p, multi_class="ovr", sample_weight=weight), abs=1e-12
    )


def test_model_comparison_matches_sklearn():
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 200)
    models = {f"{h} nodes": rng.normal(size=200) + q * y for h, q in [(2, 0.5), (100, 1.5), (500, 2.0)]}
    cmp = confmat.inference.compare_curves(y, models)
    assert sorted(cmp.models) == sorted(models)
    for name, s in models.items():
        assert cmp.auc[name] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
        assert cmp.average_precision[name] == pytest.approx(
            skm.average_precision_score(y, s), abs=1e-12
        )
        for g, e in zip((cmp.roc[name].fpr, cmp.roc[name].tpr), skm.roc_curve(y, s)[:2],
                        strict=True):
            assert_array_equal(g, e)
    exp_rank = sorted(models, key=lambda n: -skm.roc_auc_score(y, models[n]))
    assert cmp.ranking() == exp_rank
    d = cmp.to_dict()
    assert [m["name"] for m in d["curves"]] == cmp.models
    assert d["curves"][0]["roc"]["thresholds"][0] is None  # the leading inf


def test_one_class_gives_nan_with_warning_like_sklearn():
    y = np.zeros(10, dtype=int)
    s = np.linspace(0, 1, 10)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        exp = skm.roc_auc_score(y, s)
    assert np.isnan(exp) and rec
    with pytest.warns(confmat.UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(confmat.roc_auc(y, s))
    with pytest.warns(confmat.UndefinedMetricWarning, match="No positive samples"):
        _fpr, tpr, _ = confmat.roc_curve(y, s)
    assert np.isnan(tpr).all()
