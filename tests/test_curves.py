"""Threshold sweeps, threshold choice, average-precision variants and bad input.

Oracles: ConfusionMatrix.from_predictions on explicitly thresholded predictions (the sweep must
agree with counting the thresholded labels one threshold at a time), scikit-learn's metric
functions, and formulas worked out by hand in the tests.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import metrics as skm

import confmat
from confmat.metrics import list_metrics


def _names_without_required_params():
    return [s.name for s in list_metrics()]


# ------------------------------------------------------------------------------ sweeps
@st.composite
def sweep_cases(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(2, 40))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) + 0.3 * y, draw(st.integers(0, 1)))
    w = None
    if draw(st.booleans()):
        w = rng.integers(0, 4, n).astype(float)
        if not w.any():
            w[0] = 1.0
    custom = draw(st.booleans())
    thresholds = np.round(rng.uniform(-0.2, 1.5, draw(st.integers(1, 8))), 2) if custom else None
    return y, s, w, thresholds


@settings(max_examples=15, deadline=None)
@given(sweep_cases())
def test_sweep_equals_counting_thresholded_predictions(case):
    y, s, w, thresholds = case
    sweep = confmat.threshold_sweep(y, s, thresholds=thresholds, sample_weight=w)
    if thresholds is None:
        used = s if w is None else s[w != 0]
        assert_array_equal(sweep.thresholds, np.unique(used)[::-1])
    else:
        assert_array_equal(sweep.thresholds, thresholds)
    names = _names_without_required_params()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = {m: sweep.metric(m, zero_division="nan") for m in names}
        for i, t in enumerate(sweep.thresholds):
            cm = confmat.ConfusionMatrix.from_predictions(
                y, (s >= t).astype(int), labels=[0, 1], sample_weight=w
            )
            assert_array_equal(sweep.at(t).counts, cm.counts)
            assert_array_equal(sweep.tables[i], cm.counts)
            for m in names:
                spec = confmat.get_metric(m)
                exp = cm.metric(m, zero_division="nan")
                if spec.kind == "per_class":
                    exp = exp[1]
                assert_allclose(got[m][i], exp, rtol=1e-12, atol=1e-15, equal_nan=True,
                                err_msg=f"{m} at threshold {t}")


def test_sweep_metrics_against_sklearn_and_book_table():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    th = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]  # Kneusel (2021)'s table
    sweep = confmat.threshold_sweep(y, s, thresholds=th)
    assert sweep.thresholds.tolist() == th
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mcc = sweep.metric("mcc")
        ppv = sweep.metric("ppv")
        tpr = sweep.metric("tpr")
        f2 = sweep.metric("fbeta", beta=2.0)
    for i, t in enumerate(th):
        pred = (s >= t).astype(int)
        # Kneusel (2021)'s own loop: tp, tn, fp, fn counted one sample at a time
        tp = sum(1 for a, b in zip(y, pred, strict=True) if a == 1 and b == 1)
        fn = sum(1 for a, b in zip(y, pred, strict=True) if a == 1 and b == 0)
        assert tpr[i] == pytest.approx(tp / (tp + fn), abs=1e-15)
        assert mcc[i] == pytest.approx(skm.matthews_corrcoef(y, pred), abs=1e-12)
        assert ppv[i] == pytest.approx(skm.precision_score(y, pred, zero_division=0), abs=1e-12)
        assert f2[i] == pytest.approx(skm.fbeta_score(y, pred, beta=2, zero_division=0), abs=1e-12)
    assert sweep.metric("recall", average="macro")[4] == pytest.approx(
        skm.recall_score(y, (s >= 0.5).astype(int), average="macro"), abs=1e-12
    )


def test_sweep_decision_rule_is_greater_or_equal():
    sweep = confmat.threshold_sweep([0, 1, 1], [0.2, 0.5, 0.7])
    cm = sweep.at(0.5)  # the sample scored exactly 0.5 is predicted positive
    assert cm.counts.tolist() == [[1, 0], [0, 2]]
    assert sweep.at(0.5000001).counts.tolist() == [[1, 0], [1, 1]]
    assert sweep.at(np.inf).counts.tolist() == [[1, 0], [2, 0]]
    assert sweep.at(-5).counts.tolist() == [[0, 1], [0, 2]]
    assert sweep.labels == [0, 1]
    assert "score >= threshold" in repr(sweep)
    assert sweep.to_dict()["tp"] == [1, 2, 2]


def test_sweep_with_string_labels_and_1e5_thresholds():
    rng = np.random.default_rng(1)
    y = rng.choice(np.array(["ham", "spam"]), 100_000)
    s = rng.random(100_000)
    sweep = confmat.threshold_sweep(y, s, pos_label="spam")
    assert len(sweep) == 100_000
    assert sweep.labels == ["ham", "spam"]
    rec = sweep.metric("recall")
    assert rec[-1] == 1.0 and np.all(np.diff(rec) >= 0)
    cm = sweep.at(0.5)
    assert cm.counts[1, 1] == np.sum((y == "spam") & (s >= 0.5))


# ------------------------------------------------------------------------------ best threshold
def _brute(y, s, score_fn, maximize=True):
    cands = [np.inf, *sorted(set(s.tolist()), reverse=True)]
    vals = []
    for t in cands:
        pred = (s >= t).astype(int)
        vals.append(score_fn(pred))
    vals = np.array(vals, dtype=float)
    i = int(np.nanargmax(vals) if maximize else np.nanargmin(vals))
    return cands[i], vals[i]


@pytest.mark.parametrize("seed", range(3))
def test_best_threshold_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 40)
    s = np.round(rng.random(40) * 0.7 + 0.3 * y, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t, v = _brute(y, s, lambda p: skm.recall_score(y, p) - (1 - skm.recall_score(y, p, pos_label=0)))
        c = confmat.best_threshold(y, s, "youden")
        assert (c.threshold, c.value) == (t, pytest.approx(v, abs=1e-12))
        t, v = _brute(y, s, lambda p: skm.matthews_corrcoef(y, p) if 0 < p.sum() < len(p) else np.nan)
        c = confmat.best_threshold(y, s, "mcc")
        assert (c.threshold, c.value) == (t, pytest.approx(v, abs=1e-12))
        t, v = _brute(y, s, lambda p: skm.fbeta_score(y, p, beta=0.5, zero_division=np.nan))
        c = confmat.best_threshold(y, s, "fbeta", beta=0.5)
        assert (c.threshold, c.value) == (t, pytest.approx(v, abs=1e-12))
        assert c.confusion_matrix.counts.tolist() == skm.confusion_matrix(
            y, (s >= t).astype(int), labels=[0, 1]).tolist()
    # the cancer example: a missed cancer (FN) costs 20, a false alarm (FP) 1
    cost = [[0, 1], [20, 0]]

    def expected_cost(p):
        _tn, fp, fn, _tp = skm.confusion_matrix(y, p, labels=[0, 1]).ravel()
        return (fp * 1 + fn * 20) / len(y)

    t, v = _brute(y, s, expected_cost, maximize=False)
    c = confmat.best_threshold(y, s, "cost", cost_matrix=cost)
    assert (c.threshold, c.value) == (t, pytest.approx(v, abs=1e-12))
    cheap = confmat.best_threshold(y, s, "cost", cost_matrix=[[0, 1], [1, 0]])
    assert c.threshold <= cheap.threshold  # costly misses push the threshold down


def test_best_threshold_targets():
    y = np.array([0, 0, 1, 0, 1, 1, 0, 1])
    s = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.9])
    # recall at thresholds (desc): 0.9:1/4, 0.7:1/4, 0.6:2/4, 0.5:3/4, 0.4:3/4, 0.3:4/4
    c = confmat.best_threshold(y, s, "recall", target=0.75)
    assert c.threshold == 0.5 and c.value == 0.75
    # precision: 0.9:1, 0.7:1/2, 0.6:2/3, 0.5:3/4, 0.4:3/5, 0.3:4/6 -> >= 0.7 best recall at 0.5
    c = confmat.best_threshold(y, s, "precision", target=0.7)
    assert c.threshold == 0.5 and c.value == 0.75
    assert c.confusion_matrix.counts.tolist() == [[3, 1], [1, 3]]
    with pytest.raises(ValueError, match="no threshold reaches precision"):
        confmat.best_threshold(y[:4], s[:4] * 0 + 0.5, "precision", target=0.9)
    with pytest.raises(ValueError, match="target"):
        confmat.best_threshold(y, s, "recall")
    with pytest.raises(ValueError, match="cost_matrix"):
        confmat.best_threshold(y, s, "cost")
    with pytest.raises(ValueError, match="cost_matrix"):
        confmat.best_threshold(y, s, "cost", cost_matrix=[1, 2, 3])
    with pytest.raises(ValueError, match="unknown metric"):
        confmat.best_threshold(y, s, "not-a-metric")
    c = confmat.best_threshold(y, s, "accuracy")
    assert c.value == pytest.approx(max(
        skm.accuracy_score(y, (s >= t).astype(int)) for t in s), abs=1e-12)
    c = confmat.best_threshold(y, s, "error_rate")  # lower is better: minimized
    assert c.value == pytest.approx(1 - max(
        skm.accuracy_score(y, (s >= t).astype(int)) for t in s), abs=1e-12)


# ------------------------------------------------------------------------------ AP variants
def test_interpolated_and_trapezoid_average_precision_by_hand():
    y = np.array([1, 0, 1, 0, 0, 1])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    # ranks: P R at each cut: (1, 1/3) (1/2, 1/3) (2/3, 2/3) (1/2, 2/3) (2/5, 2/3) (1/2, 1)
    step = (1 / 3) * 1 + (1 / 3) * (2 / 3) + (1 / 3) * (1 / 2)
    interp = (1 / 3) * 1 + (1 / 3) * (2 / 3) + (1 / 3) * (1 / 2)
    assert confmat.average_precision(y, s) == pytest.approx(step, abs=1e-15)
    assert confmat.average_precision(y, s, method="interpolated") == pytest.approx(interp)
    y2 = np.array([1, 0, 0, 1, 1])
    s2 = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    # cuts: (1,1/3) (1/2,1/3) (1/3,1/3) (1/2,2/3) (3/5,1): step = 1/3 + 1/3*1/2 + 1/3*3/5
    assert confmat.average_precision(y2, s2) == pytest.approx(1 / 3 + 1 / 6 + 1 / 5)
    # interpolated: precision at recall 2/3 becomes max(1/2, 3/5) = 3/5
    assert confmat.average_precision(y2, s2, method="interpolated") == pytest.approx(
        1 / 3 + 1 / 3 * 3 / 5 + 1 / 3 * 3 / 5
    )
    p, r, _ = skm.precision_recall_curve(y2, s2)
    assert confmat.average_precision(y2, s2, method="trapezoid") == pytest.approx(
        skm.auc(r, p), abs=1e-12
    )
    with pytest.raises(ValueError, match="method"):
        confmat.average_precision(y2, s2, method="voc11")


# ------------------------------------------------------------------------------ bad input
Y = [0, 1, 0, 1]
S = [0.1, 0.9, 0.3, 0.6]


@pytest.mark.parametrize(
    "func", [confmat.roc_curve, confmat.precision_recall_curve, confmat.roc_auc,
             confmat.average_precision, confmat.threshold_sweep, confmat.best_threshold]
)
def test_bad_scores_are_named(func):
    with pytest.raises(ValueError, match=r"y_score contains NaN at position 2"):
        func(Y, [0.1, 0.9, np.nan, 0.6])
    with pytest.raises(ValueError, match=r"y_score contains an infinite value at position 1"):
        func(Y, [0.1, np.inf, 0.3, 0.6])
    with pytest.raises(ValueError, match=r"y_true and y_score have different lengths: 4 and 3"):
        func(Y, S[:3])
    with pytest.raises(TypeError, match="y_score must contain numbers"):
        func(Y, ["a", "b", "c", "d"])
    with pytest.raises(ValueError, match="y_true"):
        func([0, 1, None, 1], S)
    with pytest.raises(ValueError, match="sample_weight"):
        func(Y, S, sample_weight=[1, 1, -1, 1])


@pytest.mark.parametrize(
    "func", [confmat.roc_curve, confmat.precision_recall_curve, confmat.threshold_sweep,
             confmat.best_threshold]
)
def test_pos_label_problems_are_named(func):
    with pytest.raises(ValueError, match=r"pos_label=2 is not one of the labels in y_true \[0, 1\]"):
        func(Y, S, pos_label=2)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        func(["a", "b", "a", "b"], S)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        func([0, 1, 2, 1], S)


def test_roc_auc_bad_input():
    p_bad = np.array([[0.5, 0.3, 0.1], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4], [0.1, 0.8, 0.1]])
    y3 = [0, 2, 1, 1]
    for mc in ("ovr", "ovo"):
        with pytest.raises(ValueError, match=r"y_score rows must be probabilities.*row 0 sums to 0.9"):
            confmat.roc_auc(y3, p_bad, multi_class=mc)
    p = p_bad.copy()
    p[0] = [0.6, 0.3, 0.1]
    with pytest.raises(ValueError, match="multi_class='ovr' or 'ovo'"):
        confmat.roc_auc(y3, p)
    with pytest.raises(ValueError, match="multi_class must be"):
        confmat.roc_auc(y3, p, multi_class="ovx")
    with pytest.raises(ValueError, match="max_fpr"):
        confmat.roc_auc(y3, p, multi_class="ovr", max_fpr=0.5)
    with pytest.raises(ValueError, match=r"max_fpr must be in \(0, 1\]"):
        confmat.roc_auc(Y, S, max_fpr=0)
    with pytest.raises(ValueError, match="average must be one of"):
        confmat.roc_auc(y3, p, multi_class="ovo", average="micro")
    with pytest.raises(ValueError, match="sample_weight is not supported"):
        confmat.roc_auc(y3, p, multi_class="ovo", sample_weight=[1, 1, 1, 1])
    with pytest.raises(ValueError, match=r"y_true has 3 classes .* but y_score has 2 columns"):
        confmat.roc_auc(y3, p[:, :2] / p[:, :2].sum(1, keepdims=True), multi_class="ovr")
    with pytest.raises(ValueError, match="labels has 2 entries but y_score has 3 columns"):
        confmat.roc_auc(y3, p, multi_class="ovr", labels=[0, 1])
    with pytest.raises(ValueError, match=r"y_true contains labels not in labels: \[2\]"):
        confmat.roc_auc(y3, p, multi_class="ovr", labels=[0, 1, 5])
    with pytest.raises(ValueError, match="labels must be unique"):
        confmat.roc_auc(y3, p, multi_class="ovr", labels=[0, 1, 1])
    with pytest.raises(ValueError, match="y_score must be 2-D"):
        confmat.roc_auc(y3, [0.1, 0.2, 0.3, 0.4], multi_class="ovr")
    with pytest.raises(ValueError, match="y_true is empty"):
        confmat.roc_auc([], [])


def test_binary_roc_auc_accepts_two_column_probabilities():
    p1 = np.array(S)
    assert confmat.roc_auc(Y, np.c_[1 - p1, p1]) == confmat.roc_auc(Y, p1) == 1.0
    y = ["n", "y", "n", "y"]
    assert confmat.roc_auc(y, p1, pos_label="y") == 1.0
    assert confmat.roc_auc(y, p1, pos_label="n") == 0.0
    # columns follow labels (default: sorted classes); the positive class picks the column
    assert confmat.roc_auc(y, np.c_[1 - p1, p1], pos_label="y") == 1.0
    assert confmat.roc_auc(y, np.c_[1 - p1, p1], pos_label="y", labels=["y", "n"]) == 0.0
    with pytest.raises(ValueError, match=r"y_true takes values \['n', 'y'\] and pos_label is not"):
        confmat.roc_auc(y, p1)
    with pytest.raises(ValueError, match="labels names the columns of a 2-D y_score"):
        confmat.roc_auc(y, p1, pos_label="y", labels=["y", "n"])


def test_average_precision_two_column_scores_follow_pos_label():
    y = np.array(["a", "b", "a", "b", "b"])
    p_b = np.array([0.2, 0.9, 0.4, 0.3, 0.7])
    proba = np.c_[1 - p_b, p_b]
    for pos, col in (("b", p_b), ("a", 1 - p_b)):
        exp = skm.average_precision_score(y, col, pos_label=pos)
        assert confmat.average_precision(y, proba, pos_label=pos) == pytest.approx(exp, abs=1e-12)


def test_zero_weight_class_gives_nan_with_warning():
    with pytest.warns(confmat.UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(confmat.roc_auc(Y, S, sample_weight=[1, 0, 1, 0]))


def test_compare_curves_bad_input_and_deprecated_alias():
    from confmat.inference import compare_curves

    with pytest.raises(ValueError, match=r"scores\['b'\]: y_true and y_score have different"):
        compare_curves(Y, {"a": S, "b": S[:3]})
    with pytest.raises(ValueError, match="names has 1 entries"):
        compare_curves(Y, [S, S], names=["a"])
    with pytest.raises(ValueError, match="unique"):
        compare_curves(Y, [S, S], names=["a", "a"])
    with pytest.raises(ValueError, match="empty"):
        compare_curves(Y, {})
    cmp = compare_curves(Y, [S, np.array(S)[::-1]])
    assert isinstance(cmp, confmat.inference.Comparison)
    assert sorted(cmp.models) == ["model 0", "model 1"]
    with pytest.raises(ValueError, match="by must be"):
        cmp.ranking("f1")
    with pytest.warns(DeprecationWarning, match="compare_models is deprecated.*compare_curves"):
        old = confmat.compare_models(Y, [S, np.array(S)[::-1]])
    assert isinstance(old, confmat.inference.Comparison)
    assert old.names == ["model 0", "model 1"] and old.auc == cmp.auc


def test_threshold_argument_validation():
    with pytest.raises(ValueError, match="thresholds contains NaN"):
        confmat.threshold_sweep(Y, S, thresholds=[0.5, np.nan])
    with pytest.raises(ValueError, match="thresholds must not be empty"):
        confmat.threshold_sweep(Y, S, thresholds=[])
    with pytest.raises(TypeError, match="thresholds must be numbers"):
        confmat.threshold_sweep(Y, S, thresholds=["a"])
    with pytest.raises(ValueError, match="unknown metric"):
        confmat.threshold_sweep(Y, S).metric("nope")
    with pytest.raises(ValueError, match="threshold must not be NaN"):
        confmat.threshold_sweep(Y, S).at(np.nan)
