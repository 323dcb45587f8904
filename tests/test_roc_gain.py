"""Gain / lift curves (yardstick's definitions; its published examples), the KS statistic
(scipy.stats.ks_2samp) and cost curves (Drummond and Holte 2006; hand-worked and a brute-force
lower envelope)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import ks_2samp

from confmat.curves.cost import cost_curve, probability_cost
from confmat.curves.gain import gain_curve, ks_index, ks_statistic, lift_curve


def test_gain_yardstick_examples():
    # yardstick's tests (values from caret::lift and worked by hand there)
    y = ["Yes", "Yes", "No", "Yes", "No"]
    s = [0.9, 0.8, 0.7, 0.68, 0.5]
    g = gain_curve(y, s, pos_label="Yes")
    np.testing.assert_allclose(g.percent_found, [0, 100 / 3, 200 / 3, 200 / 3, 100, 100])
    g = gain_curve(y, s, pos_label="Yes", sample_weight=[2, 1, 1, 3, 2])
    assert g.n_tested.tolist() == [0, 2, 3, 4, 7, 9]
    assert g.n_found.tolist() == [0, 2, 3, 3, 6, 6]
    np.testing.assert_allclose(g.percent_tested, np.array([0, 2, 3, 4, 7, 9]) / 9 * 100)
    np.testing.assert_allclose(g.lift[1:], (np.array([2, 3, 3, 6, 6]) / 6)
                               / (np.array([2, 3, 4, 7, 9]) / 9))
    assert np.isnan(g.lift[0])


def test_gain_ties_take_the_last_of_each_score():
    # scores 0.8 (pos, neg), 0.5 (pos), 0.2 (neg, neg): one point per distinct score
    g = gain_curve([1, 0, 1, 0, 0], [0.8, 0.8, 0.5, 0.2, 0.2])
    assert g.thresholds.tolist() == [np.inf, 0.8, 0.5, 0.2]
    assert g.n_tested.tolist() == [0, 2, 3, 5]
    assert g.n_found.tolist() == [0, 1, 2, 2]
    tested, lift = lift_curve([1, 0, 1, 0, 0], [0.8, 0.8, 0.5, 0.2, 0.2])
    np.testing.assert_allclose(tested, [40, 60, 100])
    np.testing.assert_allclose(lift, [50 / 40, 100 / 60, 1.0])


labels = st.lists(st.integers(0, 1), min_size=2, max_size=60)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_gain_matches_a_direct_count(data):
    y = np.array(data.draw(labels))
    y[:2] = [0, 1]
    n = y.size
    s = np.array(data.draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))) / 8.0
    w = np.array(data.draw(st.lists(st.integers(1, 4), min_size=n, max_size=n)), dtype=float)
    g = gain_curve(y, s, sample_weight=w)
    for k, t in enumerate(g.thresholds[1:], start=1):
        assert g.n_tested[k] == w[s >= t].sum()
        assert g.n_found[k] == w[(s >= t) & (y == 1)].sum()
    assert g.percent_found[-1] == 100.0 and g.percent_tested[-1] == 100.0


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_ks_matches_scipy(data):
    y = np.array(data.draw(labels))
    y[:2] = [0, 1]
    n = y.size
    s = np.array(data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))) / 3.0
    r = ks_statistic(y, s)
    want = ks_2samp(s[y == 1], s[y == 0]).statistic
    assert r.statistic == pytest.approx(want, abs=1e-12)
    assert abs(r.tpr - r.fpr) == pytest.approx(want, abs=1e-12)
    assert r.tpr == np.mean(s[y == 1] >= r.threshold)
    # integer weights are repetitions
    w = np.array(data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)))
    rw = ks_statistic(y, s, sample_weight=w)
    yr, sr = np.repeat(y, w), np.repeat(s, w)
    assert rw.statistic == pytest.approx(ks_2samp(sr[yr == 1], sr[yr == 0]).statistic,
                                         abs=1e-12)


def test_ks_hand_worked_and_labels():
    y = np.array(["b", "b", "a", "a", "b", "a"])
    s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    r = ks_statistic(y, s, pos_label="a")
    # at 0.8: TPR 2/3, FPR 0 (the highest of the two thresholds reaching 2/3)
    assert (r.statistic, r.threshold, r.tpr, r.fpr) == (2 / 3, 0.8, 2 / 3, 0.0)
    with pytest.raises(ValueError, match="pos_label"):
        ks_statistic(y, s)
    with pytest.raises(ValueError, match="both classes"):
        ks_statistic([1, 1], [0.1, 0.2], pos_label=1)


def test_cost_curve_hand_worked():
    # negatives 0.1, 0.2, 0.4; positives 0.35, 0.8, 0.9. Thresholds: 0.9 (FPR 0, FNR 2/3),
    # 0.8 (0, 1/3), 0.4 (1/3, 1/3), 0.35 (1/3, 0), lower ones dominated.
    cc = cost_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    # envelope: 0 at PC 0; the lines of 0.8 (pc/3) and 0.35 ((1 - pc)/3) cross at PC 1/2
    np.testing.assert_allclose(cc.pc, [0, 0.5, 1])
    np.testing.assert_allclose(cc.cost, [0, 1 / 6, 0])
    assert cc.area == pytest.approx(1 / 12)
    assert cc.at(0.25).tolist() == pytest.approx([0.25 / 3])


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_cost_curve_is_the_lower_envelope(data):
    y = np.array(data.draw(labels))
    y[:2] = [0, 1]
    n = y.size
    s = np.array(data.draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)))
    cc = cost_curve(y, s)
    grid = np.linspace(0, 1, 4001)
    # every threshold's line, computed directly from the samples
    costs = [np.mean(s[y == 1] < t) * grid + np.mean(s[y == 0] >= t) * (1 - grid)
             for t in np.concatenate([[np.inf], np.unique(s)])]
    brute = np.min(costs, axis=0)
    np.testing.assert_allclose(cc.at(grid), brute, atol=1e-12)
    assert cc.area == pytest.approx(float(np.trapezoid(brute, grid)), abs=1e-6)


def test_probability_cost():
    assert probability_cost(0.5, 1, 1) == 0.5
    assert probability_cost(0.2, 4, 1) == 0.5
    with pytest.raises(ValueError, match="prior_positive"):
        probability_cost(1.5, 1, 1)
    with pytest.raises(ValueError, match="cost_fn"):
        probability_cost(0.5, -1, 1)
    with pytest.raises(ValueError, match="pc"):
        cost_curve([0, 1], [0.2, 0.7]).at(2)
    with pytest.raises(ValueError, match="both classes"):
        cost_curve([0, 0], [0.2, 0.7])
    with pytest.raises(ValueError, match="positives"):
        gain_curve([0, 0], [0.2, 0.7])


def _ks_oracle(tps, fps):
    """First index of the largest |TP/P - FP/N|, in exact rationals."""
    p, n = Fraction(int(tps[-1])), Fraction(int(fps[-1]))
    gaps = [abs(int(t) / p - int(f) / n) for t, f in zip(tps, fps, strict=True)]
    return gaps.index(max(gaps))


def _cumulative(draw, total):
    """Cumulative counts ending at ``total`` (non-decreasing, int64)."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=1, max_size=8)))
    return np.array([*cuts, total], dtype=np.int64)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_ks_index_exact_near_2_32_per_class(data):
    # counts near 2**32 per class (P N near 2**64 passes int64): the exact rational oracle
    p = data.draw(st.integers(2**32 - 2**20, 2**33), label="P")
    n = data.draw(st.integers(2**32 - 2**20, 2**33), label="N")
    tps, fps = _cumulative(data.draw, p), _cumulative(data.draw, n)
    m = min(tps.size, fps.size)
    tps, fps = tps[-m:], fps[-m:]
    tps[-1], fps[-1] = p, n
    assert ks_index(tps, fps) == _ks_oracle(tps, fps)


def test_ks_index_near_ties_past_int64():
    # P = N + 1 = 4e9 + 1: the gaps are 1 - 1/P - 1/N at index 1 and 1 - 2/P (larger) at
    # index 2; the products TP N pass int64 and the two rates' gaps round to the same float
    p, n = 4 * 10**9 + 1, 4 * 10**9
    tps = np.array([0, p - 1, p - 2, p], dtype=np.int64)
    fps = np.array([0, 1, 0, n], dtype=np.int64)
    assert ks_index(tps, fps) == _ks_oracle(tps, fps) == 2
    gaps = np.abs(tps / p - fps / n)
    assert gaps[1] == gaps[2]  # the float rates cannot tell them apart
    wrapped = np.abs(tps * n - fps * p)  # what int64 products give
    assert int(np.argmax(wrapped)) != 2
