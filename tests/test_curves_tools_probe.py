"""Adversarial differential probe of the curve tools other than ROC / PR / AP / AUC (those are in
test_curves_probe.py): threshold sweeps, threshold choice, calibration, gain / lift, cost
curves and the one-vs-rest macro curve, on random inputs with ties, constant scores, one class,
weights (zeros, subnormal, huge, mixed), label kinds and ``pos_label`` variants.

Oracles: scikit-learn (``confusion_matrix`` at each threshold, ``roc_curve``,
``calibration_curve``, ``brier_score_loss``, the one-vs-rest macro recipe of its user guide),
exact rational arithmetic (``fractions.Fraction``) for the criteria of threshold choice, and
formulas worked by hand from the samples (Naeini et al. 2015's ECE / MCE from scikit-learn's
bins, Drummond & Holte 2006's normalised expected cost, the gain curve of Engelmann et al. 2003).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve
from sklearn.metrics import auc as sk_auc
from sklearn.metrics import brier_score_loss, confusion_matrix, precision_score, recall_score
from sklearn.metrics import roc_curve as sk_roc_curve

from confmat.curves import best_threshold, calibration, roc_curve_ovr, threshold_sweep
from confmat.curves.cost import cost_curve, probability_cost
from confmat.curves.gain import gain_curve, lift_curve

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# (negative, positive, pos_label to pass): the positive sorting first or last, numbers, text
LABEL_KINDS = [
    (0, 1, None),
    (-1, 1, None),
    (False, True, None),
    ("neg", "pos", "pos"),
    ("zz", "aa", "aa"),  # the positive class sorts first
    (2, 1, 1),
]
# weight scales: subnormal (2**-1070 is below float64's smallest normal), plain, huge
SCALES = [2.0 ** -1070, 2.0 ** -600, 1.0, 2.0 ** 900]


@st.composite
def binary_data(draw, both_classes=True, int_weights=False):
    """Labels of one kind, tied scores (sometimes all equal) and weights of many magnitudes."""
    n = draw(st.integers(2 if both_classes else 1, 40))
    codes = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    if both_classes:
        codes[:2] = [0, 1]
    neg, pos, pos_label = draw(st.sampled_from(LABEL_KINDS))
    y = np.array([pos if c else neg for c in codes.tolist()], dtype=object)
    y = y.astype(type(neg)) if not isinstance(neg, str) else y.astype(str)
    levels = draw(st.sampled_from([1, 2, 5, 12]))  # 1: a constant score
    s = np.array(draw(st.lists(st.integers(0, levels - 1), min_size=n, max_size=n)),
                 dtype=np.float64) / max(levels - 1, 1)
    kind = draw(st.sampled_from(["none", "ints", "mixed"] if not int_weights
                                else ["none", "ints"]))
    if kind == "none":
        w = None
    elif kind == "ints":
        w = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)),
                     dtype=np.float64)
        w[:2] = np.maximum(w[:2], 1)  # both classes keep some weight
        w = w * draw(st.sampled_from(SCALES)) if not int_weights else w
    else:  # magnitudes 1e-300 .. 1e200 side by side
        w = np.array(draw(st.lists(st.sampled_from([0.0, 1e-300, 0.5, 1.0, 3.0, 1e200]),
                                   min_size=n, max_size=n)))
        w[:2] = np.maximum(w[:2], 1.0)
    return y, codes.astype(bool), s, w, neg, pos, pos_label


def _close(a, b, rtol=1e-12):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64),
                               rtol=rtol, atol=0)


# ------------------------------------------------------------------------------ threshold sweeps
@SETTINGS
@given(binary_data(both_classes=False))
def test_sweep_tables_equal_sklearn_confusion_matrix_at_every_threshold(data):
    y, is_pos, s, w, neg, pos, _ = data
    if not is_pos.any():  # no positive: pos_label absent, refused (test_curves_probe.py)
        return
    keep = np.ones_like(is_pos) if w is None else w > 0
    distinct = np.unique(s[keep])
    between = (distinct[1:] + distinct[:-1]) / 2
    th = np.concatenate([distinct, between, [-np.inf, -1.0, 2.0, np.inf]])
    sw = threshold_sweep(y, s, pos_label=pos, thresholds=th, sample_weight=w)
    # with one class the negative's name is not in the data: only the positive is checked
    assert sw.labels == [neg, pos] if (~is_pos).any() else sw.labels[1] == pos
    for k, t in enumerate(th):
        pred = np.where(s >= t, pos, neg).astype(y.dtype)
        cm = confusion_matrix(y, pred, labels=[neg, pos], sample_weight=w)
        _close(sw.tables[k], cm)  # each cell to rounding, small cells next to huge ones too
        _close(sw.at(t).counts, cm)
        want_recall = recall_score(y, pred, labels=[neg, pos], pos_label=pos, sample_weight=w,
                                   zero_division=np.nan)
        want_prec = precision_score(y, pred, labels=[neg, pos], pos_label=pos,
                                    sample_weight=w, zero_division=np.nan)
        _close(sw.metric("recall", zero_division="nan")[k], want_recall, rtol=1e-9)
        _close(sw.metric("precision", zero_division="nan")[k], want_prec, rtol=1e-9)
    # the default thresholds: the distinct scores of samples with weight, decreasing, the
    # thresholds of scikit-learn's roc_curve after its leading inf
    default = threshold_sweep(y, s, pos_label=pos, sample_weight=w)
    if (~is_pos[keep]).any():
        _, _, sk_thr = sk_roc_curve(is_pos, s, sample_weight=w, drop_intermediate=False)
        np.testing.assert_array_equal(default.thresholds, sk_thr[1:])
    np.testing.assert_array_equal(default.thresholds, distinct[::-1])


def test_sweep_keeps_small_negatives_next_to_a_huge_one():
    # hand-worked: negatives of weight 1e200 (score 0.9), 1 and 3 (scores 0.1, 0.2); at 0.5
    # the TN are 1 + 3 = 4, not 1e200 + 4 - 1e200 = 0
    y, s, w = [0, 0, 0, 1, 1], [0.9, 0.1, 0.2, 0.5, 0.05], [1e200, 1.0, 3.0, 1.0, 1.0]
    sw = threshold_sweep(y, s, sample_weight=w, thresholds=[0.5])
    assert sw.tables[0].tolist() == [[4.0, 1e200], [1.0, 1.0]]
    assert sw.metric("npv").tolist() == [0.8]  # TN / (TN + FN) = 4 / 5
    assert best_threshold(y, s, "npv", sample_weight=w).confusion_matrix.counts[0, 0] > 0


# ------------------------------------------------------------------------------ threshold choice
def _exact_criteria(tp, fp, fn, tn, cost, beta2):
    """Exact values (Fractions; None when undefined) of every criterion at one table."""
    P, N = tp + fn, fp + tn
    out = {}
    out["youden"] = Fraction(tp, P) - Fraction(fp, N) if P and N else None
    out["closest_topleft"] = (-((1 - Fraction(tp, P)) ** 2 + Fraction(fp, N) ** 2)
                              if P and N else None)
    for name, b2 in (("f1", Fraction(1)), ("fbeta", beta2)):
        den = (1 + b2) * tp + b2 * fn + fp
        out[name] = Fraction((1 + b2) * tp) / den if den else None
    den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    num = tp * tn - fp * fn
    # sign(num) num^2 / den orders the tables as the MCC num / sqrt(den) does; a zero
    # denominator gives 0, as scikit-learn's matthews_corrcoef (and the registry's notes)
    out["mcc"] = Fraction((1 if num >= 0 else -1) * num * num, den) if den else Fraction(0)
    out["cost"] = -sum(c * m for c, m in zip(cost, (tn, fp, fn, tp), strict=True))
    out["recall"] = Fraction(tp, P) if P else None
    out["precision"] = Fraction(tp, tp + fp) if tp + fp else None
    return out


@SETTINGS
@given(binary_data(int_weights=True), st.data())
def test_best_threshold_is_the_brute_force_optimum_over_sklearn_thresholds(data, draw):
    y, is_pos, s, w, neg, pos, pos_label = data
    cost = draw.draw(st.lists(st.integers(-2, 6), min_size=4, max_size=4))
    beta = draw.draw(st.sampled_from([0.5, 2, 3]))
    target = draw.draw(st.sampled_from([0, 0.25, 1 / 3, 0.5, 0.8, 1]))
    # every threshold: scikit-learn's roc_curve without dropping any (inf first)
    _, _, cands = sk_roc_curve(is_pos, s, sample_weight=w, drop_intermediate=False)
    tables = []
    for t in cands:
        cm = confusion_matrix(y, np.where(s >= t, pos, neg).astype(y.dtype), labels=[neg, pos],
                              sample_weight=w)
        (tn, fp), (fn, tp) = [[int(v) for v in row] for row in cm]  # integer weights: exact
        tables.append((tp, fp, fn, tn))
    exact = [_exact_criteria(*tb, cost, Fraction(beta) ** 2) for tb in tables]
    total = sum(tables[0])
    for crit in ("youden", "closest_topleft", "f1", "fbeta", "mcc", "cost", "recall",
                 "precision"):
        vals = [e[crit] for e in exact]
        # a level is reached when the rate, correctly rounded to float64, is >= the float
        # target (4/5 reaches target=0.8, though the double 0.8 lies just above 4/5)
        ok = [i for i, v in enumerate(vals) if v is not None and float(v) >= target]
        if crit == "recall":
            want = ok[0] if ok else None  # the highest threshold reaching the target
        elif crit == "precision":
            rec = [exact[i]["recall"] for i in ok]
            want = ok[rec.index(max(rec))] if ok else None
        else:
            defined = [v for v in vals if v is not None]
            want = vals.index(max(defined)) if defined else None  # first = highest threshold
        kw: dict = {"pos_label": pos_label}  # each criterion gets the parameters it uses
        if crit == "cost":
            kw["cost_matrix"] = [[cost[0], cost[1]], [cost[2], cost[3]]]
        elif crit == "fbeta":
            kw["beta"] = beta
        elif crit in ("recall", "precision"):
            kw["target"] = target
        if want is None:
            with pytest.raises(ValueError):
                best_threshold(y, s, crit, sample_weight=w, **kw)
            continue
        got = best_threshold(y, s, crit, sample_weight=w, **kw)
        assert got.threshold == cands[want], crit
        tp, fp, fn, tn = tables[want]
        value = {"closest_topleft": -vals[want], "cost": -vals[want] / total,
                 "mcc": math.copysign(math.sqrt(abs(vals[want])), vals[want])}.get(
            crit, vals[want])
        assert got.value == pytest.approx(float(value), rel=1e-12, abs=1e-15), crit
        assert got.confusion_matrix.counts.tolist() == [[tn, fp], [fn, tp]]


def test_exact_ties_that_float64_breaks_go_to_the_highest_threshold():
    # hypothesis found these. closest_topleft, P = N = 21: at 0.5 (TP 1, FP 0) the squared
    # distance is (20/21)^2 = 400/441; at 0.25 (TP 5, FP 12) (16/21)^2 + (12/21)^2 = 400/441
    # too, but the float64 sums differ in the last bit
    y = np.array([0, 1, 0, 1] + [0] * 6 + [1, 0, 1] + [0] * 9 + [1] + [0] * 7 + [1] * 3)
    s = np.zeros(y.size)
    s[[8, 12, 18, 20]] = 0.25
    s[1] = 0.5
    w = np.array([1, 1, 0, 1, 0, 0, 0, 0, 4, 0, 2, 0, 4, 0, 0, 0, 0, 0, 4, 0, 4, 0, 1, 0, 0, 0,
                  0, 0, 4, 4, 4, 4, 4], dtype=float)
    (tn, fp), (fn, tp) = confusion_matrix(y, s >= 0.25, sample_weight=w).astype(int)
    assert Fraction(fn, fn + tp) ** 2 + Fraction(fp, fp + tn) ** 2 == Fraction(400, 441)
    c = best_threshold(y, s, "closest_topleft", sample_weight=w)
    assert c.threshold == 0.5 and c.value == pytest.approx(400 / 441)
    # MCC: 0.5 and 0.25 give the same MCC 1/24 exactly (counted below), float64 tells them apart
    y = np.array([0, 1] + [0] * 13 + [1] * 5 + [0, 0] + [1] * 3)
    s = np.array([0, 0, 0, 0, 0, 0, 0, .25, .25, .25, .25, .25, .25, .25, .5, 0, 0, .25, .25,
                  .25, .5, .5, .25, .5, .5])
    mcc = []
    for t in (0.5, 0.25):
        (tn, fp), (fn, tp) = confusion_matrix(y, s >= t).astype(int)
        c_, d_ = tp * tn - fp * fn, (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        mcc.append(Fraction(c_ * abs(c_), d_))
    assert mcc[0] == mcc[1] == Fraction(1, 24 ** 2)
    assert best_threshold(y, s, "mcc").threshold == 0.5


# ----------------------------------------------------------------------------------- calibration
@st.composite
def calibration_data(draw):
    n = draw(st.integers(1, 50))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    grid = draw(st.sampled_from([1, 4, 10, 1000]))  # values on bin edges, and constants
    p = np.array(draw(st.lists(st.integers(0, grid), min_size=n, max_size=n))) / grid
    return y, p


@SETTINGS
@given(calibration_data(), st.integers(1, 9), st.sampled_from(["uniform", "quantile"]),
       st.sampled_from(SCALES), st.data())
def test_weighted_calibration_equals_sklearn_on_repeated_samples(data, n_bins, strategy, scale,
                                                                  draw):
    y, p = data
    # quantile edges are unweighted (docs/calibration.md), so there weights are 0 or 1:
    # a zero weight removes a sample, edges included
    hi = 4 if strategy == "uniform" else 1
    reps = np.array(draw.draw(st.lists(st.integers(0, hi), min_size=len(y), max_size=len(y))))
    reps[0] = max(reps[0], 1)
    cal = calibration(y, p, n_bins=n_bins, strategy=strategy, sample_weight=reps * scale)
    yr, pr = np.repeat(y, reps), np.repeat(p, reps)
    prob_true, prob_pred = calibration_curve(yr, pr, n_bins=n_bins, strategy=strategy)
    c = cal.curve
    _close(c.observed[c.nonempty], prob_true, rtol=1e-12)
    _close(c.mean_predicted[c.nonempty], prob_pred, rtol=1e-12)
    _close(c.weights, np.bincount(np.searchsorted(c.edges[1:-1], p), weights=reps * scale,
                                  minlength=n_bins))
    assert cal.brier == pytest.approx(brier_score_loss(yr, pr), rel=1e-12, abs=1e-15)
    # Naeini et al. 2015 by hand from scikit-learn's bins of the repeated samples
    if strategy == "uniform":
        edges = np.linspace(0, 1, n_bins + 1)
    else:
        edges = np.percentile(pr, np.linspace(0, 1, n_bins + 1) * 100)  # as scikit-learn
    count = np.bincount(np.searchsorted(edges[1:-1], pr), minlength=n_bins)
    gaps = np.abs(prob_true - prob_pred)
    assert cal.ece == pytest.approx(float((count[count > 0] * gaps).sum() / len(pr)),
                                    rel=1e-12, abs=1e-15)
    assert cal.mce == pytest.approx(float(gaps.max()), rel=1e-12, abs=1e-15)


@SETTINGS
@given(binary_data(both_classes=False))
def test_brier_equals_sklearn_with_label_kinds_pos_label_and_weights(data):
    y, is_pos, s, w, neg, pos, pos_label = data
    if not is_pos.any():  # pos_label absent from y_true: refused (test_curves_probe.py)
        return
    if w is not None and not (w.min() >= 1e-300 and w.max() <= 1e200 and w.max() > 0):
        w = None  # scikit-learn's np.average itself loses subnormal weights' digits
    # pos_label None for {0, 1}, {-1, 1} and booleans: the default rule finds the positive
    cal = calibration(y, s, n_bins=5, pos_label=pos_label, sample_weight=w)
    assert cal.pos_label == pos and cal.labels[1] == pos
    if (~is_pos).any():
        assert cal.labels == [neg, pos]
    want = brier_score_loss(y, s, pos_label=pos, sample_weight=w)
    assert cal.brier == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_multiclass_brier_with_subnormal_weights_equals_sklearn_on_plain_ones():
    rng = np.random.default_rng(5)
    y = np.concatenate([np.arange(3), rng.integers(0, 3, 40)])
    p = rng.dirichlet(np.ones(3), y.size)
    w = rng.integers(1, 5, y.size).astype(np.float64)
    want = brier_score_loss(y, p, sample_weight=w, labels=[0, 1, 2])
    for scale in SCALES:
        cal = calibration(y, p, n_bins=4, sample_weight=w * scale)
        assert cal.brier == pytest.approx(want, rel=1e-12)
        assert cal.ece == pytest.approx(calibration(y, p, n_bins=4, sample_weight=w).ece,
                                        rel=1e-12)


# ------------------------------------------------------------------------------------ gain, lift
@SETTINGS
@given(binary_data())
def test_gain_and_lift_by_hand_from_sorted_scores(data):
    y, is_pos, s, w, neg, pos, pos_label = data
    ww = np.ones(s.shape) if w is None else w
    g = gain_curve(y, s, pos_label=pos_label, sample_weight=w)
    thr = np.unique(s[ww > 0])[::-1]  # each distinct score, all its ties at once
    np.testing.assert_array_equal(g.thresholds, np.concatenate([[np.inf], thr]))
    tested = np.array([ww[s >= t].sum() for t in thr])
    found = np.array([ww[is_pos & (s >= t)].sum() for t in thr])
    _close(g.n_tested[1:], tested)
    _close(g.n_found[1:], found)
    _close(g.percent_tested[1:], 100 * tested / ww.sum())
    _close(g.percent_found[1:], 100 * found / ww[is_pos].sum())
    x, lift = lift_curve(y, s, pos_label=pos, sample_weight=w)
    _close(x, 100 * tested / ww.sum())
    _close(lift, (found / ww[is_pos].sum()) / (tested / ww.sum()))
    assert g.labels == [neg, pos]


# ------------------------------------------------------------------------------------ cost curves
@SETTINGS
@given(binary_data(), st.floats(0.01, 0.99), st.floats(0.1, 10), st.floats(0.1, 10))
def test_cost_curve_is_drummond_holte_expected_cost_at_priors(data, prior, c_fn, c_fp):
    y, is_pos, s, w, _, _, pos_label = data
    ww = np.ones(s.shape) if w is None else w
    cc = cost_curve(y, s, pos_label=pos_label, sample_weight=w)
    P, N = ww[is_pos].sum(), ww[~is_pos].sum()
    thresholds = np.concatenate([[np.inf], np.unique(s)])
    fnr = np.array([ww[is_pos & (s < t)].sum() / P for t in thresholds])
    fpr = np.array([ww[~is_pos & (s >= t)].sum() / N for t in thresholds])
    # Drummond & Holte 2006: the best threshold's expected cost, normalised by the cost of
    # the worse trivial classifier's maximum, p C(-|+) + (1 - p) C(+|-)
    pc = prior * c_fn / (prior * c_fn + (1 - prior) * c_fp)
    assert probability_cost(prior, c_fn, c_fp) == pytest.approx(pc, rel=1e-12)
    expected = np.min(fnr * prior * c_fn + fpr * (1 - prior) * c_fp)
    norm = prior * c_fn + (1 - prior) * c_fp
    assert cc.at(pc)[0] == pytest.approx(expected / norm, rel=1e-9, abs=1e-12)
    grid = np.linspace(0, 1, 801)
    brute = np.min(fnr[:, None] * grid + fpr[:, None] * (1 - grid), axis=0)
    np.testing.assert_allclose(cc.lines(grid).min(axis=0), brute, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(cc.at(grid), brute, atol=1e-12)
    assert cc.area == pytest.approx(float(np.trapezoid(brute, grid)), abs=2e-6)


# --------------------------------------------------------------------------- one-vs-rest curves
@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.integers(0, 40), st.booleans(),
       st.booleans())
def test_one_vs_rest_macro_curve_is_sklearns_recipe(seed, k, n, weighted, strings):
    rng = np.random.default_rng(seed)
    codes = np.concatenate([np.arange(k), rng.integers(0, k, n)])
    names = np.array([f"c{i}" for i in range(k)]) if strings else np.arange(k) * 10
    y = names[codes]
    p = np.round(rng.dirichlet(np.ones(k), codes.size), 1)  # ties
    p = p / p.sum(axis=1, keepdims=True)
    w = rng.choice([0.0, 0.5, 1.0, 3.0], codes.size) if weighted else None
    if w is not None:
        w[:k] = 1.0
    perm = rng.permutation(k)  # columns in another order, named by labels=
    ovr = roc_curve_ovr(y, p[:, perm], labels=names[perm].tolist(), sample_weight=w)
    fpr, tpr = {}, {}
    for c in range(k):
        fpr[c], tpr[c], _ = sk_roc_curve(codes == c, p[:, c], sample_weight=w)
        _close(ovr.curves[names[c].item()].fpr, fpr[c])
        _close(ovr.curves[names[c].item()].tpr, tpr[c])
    # scikit-learn's user guide: interpolate every class's TPR on the union of the FPRs
    all_fpr = np.unique(np.concatenate([fpr[c] for c in range(k)]))
    mean_tpr = np.mean([np.interp(all_fpr, fpr[c], tpr[c]) for c in range(k)], axis=0)
    _close(ovr.macro.fpr, all_fpr)
    np.testing.assert_allclose(ovr.macro.tpr, mean_tpr, atol=1e-12)
    assert ovr.macro.auc == pytest.approx(sk_auc(all_fpr, mean_tpr), abs=1e-12)


# --------------------------------------------------------------------------------------- bad input
Y, S = [0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8]


@pytest.mark.parametrize("call, exc, match", [
    (lambda: best_threshold(Y, S, "cost", cost_matrix=[["a", "b"], ["c", "d"]]), TypeError,
     "cost_matrix"),
    (lambda: best_threshold(Y, S, "cost", cost_matrix=[[0, 1, 2]]), ValueError, "cost_matrix"),
    (lambda: best_threshold(Y, S, "cost"), ValueError, "cost_matrix"),
    (lambda: best_threshold(Y, S, "fbeta", beta="x"), TypeError, "beta"),
    (lambda: best_threshold(Y, S, "fbeta", beta=float("nan")), ValueError, "beta"),
    (lambda: best_threshold(Y, S, "fbeta", beta=0), ValueError, "beta"),
    (lambda: best_threshold(Y, S, "recall", target="0.5"), TypeError, "target"),
    (lambda: best_threshold(Y, S, "recall", target=True), TypeError, "target"),
    (lambda: best_threshold(Y, S, "recall", target=float("nan")), ValueError, "target"),
    (lambda: best_threshold(Y, S, "precision", target=1.5), ValueError, "target"),
    (lambda: best_threshold(Y, S, "precision"), ValueError, "target"),
    (lambda: best_threshold(Y, S, 3), TypeError, "criterion"),
    (lambda: threshold_sweep(Y, S, thresholds=[np.nan]), ValueError, "thresholds"),
    (lambda: threshold_sweep(Y, S, thresholds=["a"]), TypeError, "thresholds"),
    (lambda: threshold_sweep(Y, S).at(np.nan), ValueError, "threshold"),
    (lambda: calibration(Y, S, n_bins=2.0), TypeError, "n_bins"),
    (lambda: calibration(Y, S, n_bins=0), ValueError, "n_bins"),
    (lambda: calibration(Y, [0.1, 0.2, 0.3, -0.1]), ValueError, "y_prob"),
    (lambda: calibration(Y, S, sample_weight=[1, 1, -1, 1]), ValueError, "sample_weight"),
    (lambda: calibration(Y, S, strategy="kmeans"), ValueError, "strategy"),
    (lambda: cost_curve(Y, S).at([1.5]), ValueError, "pc"),
    (lambda: cost_curve(Y, S).lines([2.0]), ValueError, "pc"),
    (lambda: cost_curve(Y, S).lines(["a"]), TypeError, "pc"),
    (lambda: probability_cost("0.5", 1, 1), TypeError, "prior_positive"),
    (lambda: probability_cost(True, 1, 1), TypeError, "prior_positive"),
    (lambda: probability_cost(0.5, "a", 1), TypeError, "cost_fn"),
    (lambda: probability_cost(0.5, 1, float("nan")), ValueError, "cost_fn and cost_fp"),
    (lambda: cost_curve([1, 1], [0.1, 0.2], pos_label=1), ValueError, "both classes"),
    (lambda: gain_curve(Y, S, sample_weight=[1, 0, 1, 0]), ValueError, "positives"),
])
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.integers(0, 30), st.booleans())
def test_multiclass_calibration_with_named_permuted_columns_equals_sklearn(seed, k, n, weighted):
    rng = np.random.default_rng(seed)
    codes = np.concatenate([np.arange(k), rng.integers(0, k, n)])
    names = np.array([f"c{i}" for i in range(k)])
    y = names[codes]
    p = rng.dirichlet(np.ones(k), codes.size)
    w = rng.integers(1, 4, codes.size).astype(np.float64) if weighted else None
    perm = rng.permutation(k)
    cal = calibration(y, p[:, perm], labels=names[perm].tolist(), n_bins=4, sample_weight=w)
    # scikit-learn's Brier of (n, K) probabilities: [0, 2] for K >= 3, halved to [0, 1] for
    # two columns (scale_by_half='auto', "as customary" for binary problems)
    want = brier_score_loss(y, p, sample_weight=w, labels=names.tolist())
    assert cal.brier == pytest.approx(want, rel=1e-12)
    if k == 2:
        binary = calibration(codes, p[:, 1], n_bins=4, sample_weight=w)
        assert cal.brier == pytest.approx(binary.brier, rel=1e-12)
    reps = np.ones(codes.size, dtype=int) if w is None else w.astype(int)
    for j in range(k):  # each class against the rest, on the samples repeated
        c = cal.curves[names[j]]
        prob_true, prob_pred = calibration_curve(np.repeat(codes == j, reps),
                                                 np.repeat(p[:, j], reps), n_bins=4)
        _close(c.observed[c.nonempty], prob_true)
        _close(c.mean_predicted[c.nonempty], prob_pred)
