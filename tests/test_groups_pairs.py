"""The interval of the comparison behind a disparity (``GroupedEvaluation.pair_intervals``).

Oracles: the parties picked by hand from fairlearn's ``MetricFrame`` values, the metrics of the
resampled tables worked by hand from their cells (recall = TP / (TP + FN), ...), numpy's
quantiles; and a simulation showing why the interval of the disparity itself cannot tell a small
group's noise from a real gap while this one can.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat.groups import by_group
from confmat.groups.disparity import resample_stack

fm = pytest.importorskip("fairlearn.metrics")
TOL = 1e-12
# cells of a 2 x 2 table (rows true, columns predicted; classes [0, 1])
BY_HAND = {
    "recall": lambda t: t[..., 1, 1] / (t[..., 1, 1] + t[..., 1, 0]),
    "fpr": lambda t: t[..., 0, 1] / (t[..., 0, 1] + t[..., 0, 0]),
    "accuracy": lambda t: (t[..., 0, 0] + t[..., 1, 1]) / t.sum(axis=(-2, -1)),
    "selection_rate": lambda t: (t[..., 0, 1] + t[..., 1, 1]) / t.sum(axis=(-2, -1)),
}
ORACLE = {"recall": lambda y, p: skm.recall_score(y, p, zero_division=np.nan),
          "fpr": lambda y, p: fp_rate(y, p),
          "accuracy": skm.accuracy_score, "selection_rate": fm.selection_rate}


def fp_rate(y, p):
    """fairlearn's false positive rate, NaN without negatives (0 in fairlearn)."""
    return fm.false_positive_rate(y, p) if (y == 0).any() else np.nan


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _rho(x):
    return np.where(x > 1, 1 / x, x)


def parties_by_hand(v, o, kind, method, ref):
    """(upper, lower) into [*v, o]: the groups / overall that give the disparity."""
    ext = np.append(v, o)
    if method == "between_groups":
        return int(np.nanargmax(v)), int(np.nanargmin(v))
    other = len(v) if method == "to_overall" else ref
    if kind == "difference":
        k = int(np.nanargmax(np.abs(v - ext[other])))
    else:
        k = int(np.nanargmin(_rho(v / ext[other])))
    return (k, other) if v[k] >= ext[other] else (other, k)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(BY_HAND)),
       st.sampled_from(["difference", "ratio"]),
       st.sampled_from(["between_groups", "to_overall", "to_group"]))
def test_pair_intervals_by_hand(seed, metric, kind, method):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(60, 300))
    g = rng.choice(["a", "b", "c", "d"], n, p=[0.5, 0.3, 0.15, 0.05])
    y = rng.integers(0, 2, n)
    y[:4] = [0, 1, 0, 1]
    g[:4] = ["a", "a", "b", "b"]
    p = np.where(rng.random(n) < np.where(g == "b", 0.6, 0.85), y, 1 - y)
    ev = by_group(y, p, g, pos_label=1)
    keys = ev.groups
    ref = 0 if method == "to_group" else None
    v = np.array([ORACLE[metric](y[g == k], p[g == k]) for k in keys])
    o = ORACLE[metric](y, p)
    pair = parties_by_hand(v, o, kind, method, ref)
    nan = float("nan")  # undefined values left out, as by hand (0 / 0 is NaN)
    ci = ev.pair_intervals(metric, [(kind, method)], reference=None if ref is None else keys[0],
                           n_resamples=300, random_state=seed % 1000, level=0.9,
                           zero_division=nan)[0]
    disparity = (ev.difference if kind == "difference" else ev.ratio)(
        metric, method=method, reference=None if ref is None else keys[0], zero_division=nan)
    assert ci.estimate == pytest.approx(disparity, abs=TOL)
    names = [*keys, "overall"]
    assert ci.metric.endswith(f": {names[pair[0]]} vs {names[pair[1]]}")
    boot = np.concatenate(list(resample_stack(ev.stack, 300, np.random.default_rng(seed % 1000))))
    with np.errstate(all="ignore"):
        ext = np.column_stack([BY_HAND[metric](boot), BY_HAND[metric](boot.sum(axis=1))])
        up, low = ext[:, pair[0]], ext[:, pair[1]]
        stat = up - low if kind == "difference" else np.where(up == low, 1.0, low / up)
    lo, hi = np.nanquantile(stat, [0.05, 0.95])
    assert (ci.low, ci.high) == pytest.approx((lo, hi), abs=TOL, nan_ok=True)


def test_named_measures_compare_the_worse_rate():
    rng = np.random.default_rng(5)
    n = 600
    g = rng.choice(["a", "b", "c"], n)
    y = rng.integers(0, 2, n)
    # group b: many false positives, true positive rates alike
    p = np.where((g == "b") & (y == 0), rng.random(n) < 0.5, np.where(rng.random(n) < 0.9, y,
                                                                        1 - y)).astype(int)
    ev = by_group(y, p, g, pos_label=1)
    d_tpr = fm.MetricFrame(metrics=skm.recall_score, y_true=y, y_pred=p,
                           sensitive_features=g).difference()
    d_fpr = fm.MetricFrame(metrics=fm.false_positive_rate, y_true=y, y_pred=p,
                           sensitive_features=g).difference()
    assert d_fpr > d_tpr
    eo = ev.pair_intervals("equalized_odds", [("difference", "between_groups")],
                           random_state=0, n_resamples=500)[0]
    assert eo.estimate == pytest.approx(fm.equalized_odds_difference(y, p, sensitive_features=g),
                                        abs=TOL)
    fpr = ev.pair_intervals("fpr", [("difference", "between_groups")], pos_label=1,
                            random_state=0, n_resamples=500)[0]
    # the worse rate is the false positive rate: the same comparison on the same resamples
    assert (eo.low, eo.high) == (fpr.low, fpr.high)
    assert eo.metric.split(": ")[1] == fpr.metric.split(": ")[1]
    assert eo.metric.split(": ")[1].startswith("b vs ")
    dp = ev.pair_intervals("demographic_parity", [("ratio", "between_groups")],
                           random_state=0, n_resamples=500)[0]
    assert dp.estimate == pytest.approx(fm.demographic_parity_ratio(y, p, sensitive_features=g),
                                        abs=TOL)


def test_the_pair_interval_tells_noise_from_a_gap():
    """Equal true recall (0.7) in a group of 12 positives and one of 400: the recall
    difference is often over 0.1 by chance. The interval of the disparity itself (max - min,
    never below 0) excludes 0 in every such case; the pair interval includes 0 in most. A real
    gap (0.4 against 0.8, 60 positives) is seen by both."""
    rng = np.random.default_rng(0)

    def flags(pa, pb, na, nb, reps=60):
        out = []
        for _ in range(reps):
            g = np.r_[np.zeros(na, int), np.ones(nb, int)]
            y = np.ones(na + nb, int)
            p = (rng.random(na + nb) < np.where(g == 0, pa, pb)).astype(int)
            y[-20:] = 0  # a few negatives, so that both classes occur
            ev = by_group(y, p, g, pos_label=1)
            v = ev.difference("recall", pos_label=1)
            whole = ev.difference("recall", pos_label=1, ci=True, n_resamples=400,
                                  random_state=1)
            pair = ev.pair_intervals("recall", pos_label=1, n_resamples=400,
                                     random_state=1)[0]
            out.append((v >= 0.1, whole.low > 0, pair.low > 0))
        return np.array(out)

    noise = flags(0.7, 0.7, 12, 400)
    over = noise[:, 0]
    assert over.sum() >= 15  # the threshold alone flags a third or more of these
    assert noise[over, 1].all()  # the disparity's own interval never includes 0
    assert noise[over, 2].mean() < 0.25  # the pair interval mostly does
    gap = flags(0.4, 0.8, 60, 400, reps=20)
    assert gap[:, 0].all() and gap[:, 2].mean() > 0.9


def test_pair_interval_arguments():
    ev = by_group([0, 1, 1, 0], [0, 1, 0, 0], ["a", "a", "b", "b"], pos_label=1)
    with pytest.raises(ValueError, match="kind must be 'difference' or 'ratio'"):
        ev.pair_intervals("accuracy", [("gap", "between_groups")])
    with pytest.raises(ValueError, match="method must be one of"):
        ev.pair_intervals("accuracy", [("difference", "pairwise")])
    with pytest.raises(ValueError, match="needs reference="):
        ev.pair_intervals("accuracy", [("difference", "to_group")])
    with pytest.raises(ValueError, match="reference applies to method='to_group'"):
        ev.pair_intervals("accuracy", reference="a")
    with pytest.raises(ValueError, match="per-class metric: give pos_label"):
        by_group([0, 1], [0, 1], ["a", "b"]).pair_intervals("recall")
    nan = ev.pair_intervals("precision", [("ratio", "between_groups")], n_resamples=100,
                            zero_division=float("nan"))
    assert np.isfinite(nan[0].estimate) or np.isnan([nan[0].low, nan[0].high]).all()


def test_a_ratio_of_zeros_is_undefined_as_the_disparity():
    ev = by_group([0, 1, 0, 1], [1, 0, 1, 0], ["a", "a", "b", "b"], pos_label=1)  # recall 0, 0
    ratio, diff = ev.pair_intervals("recall", [("ratio", "between_groups"),
                                               ("difference", "between_groups")],
                                    n_resamples=100, random_state=0)
    assert np.isnan(ev.ratio("recall")) and np.isnan([ratio.estimate, ratio.low, ratio.high]).all()
    assert diff.estimate == ev.difference("recall") == 0.0


def test_a_single_defined_group_is_not_compared_with_itself():
    # group b has no positives: its recall is 0 / 0, left out; only a is defined
    y, p = [1, 0, 1, 0, 0, 0], [1, 0, 0, 1, 0, 1]
    g = ["a"] * 3 + ["b"] * 3
    ev = by_group(y, p, g, pos_label=1)
    diff, ratio = ev.pair_intervals("recall", [("difference", "between_groups"),
                                               ("ratio", "between_groups")],
                                    n_resamples=200, random_state=0, zero_division=np.nan)
    # fairlearn's between_groups over the one defined value: max - min = 0, min / max = 1
    mf = fm.MetricFrame(metrics=ORACLE["recall"], y_true=np.array(y), y_pred=np.array(p),
                        sensitive_features=g)
    assert diff.estimate == mf.difference() == 0.0
    assert ratio.estimate == mf.ratio() == 1.0
    for ci in (diff, ratio):
        assert np.isnan([ci.low, ci.high]).all()
        assert ci.metric.endswith(": only a has a defined value") and "a vs a" not in ci.metric


def test_a_tie_with_the_reference_compares_another_group():
    # recall 1/2 in both groups (worked by hand): the gap to the reference is 0 either way,
    # and the comparison behind it is group b against the reference a, not a against itself
    y, p = [1, 1, 0, 1, 1, 0], [1, 0, 0, 0, 1, 0]
    ev = by_group(y, p, ["a"] * 3 + ["b"] * 3, pos_label=1)
    assert ev.metric("recall").tolist() == [0.5, 0.5]
    diff, ratio = ev.pair_intervals("recall", [("difference", "to_group"), ("ratio", "to_group")],
                                    reference="a", n_resamples=200, random_state=0)
    assert diff.metric == "recall difference (to_group): b vs a" and diff.estimate == 0.0
    assert ratio.metric == "recall ratio (to_group): b vs a" and ratio.estimate == 1.0
    assert diff.low <= 0.0 <= diff.high  # an interval of b - a, not the [0, 0] of a - a
