"""Best thresholds (confmat.curves.best, and best_threshold's 'closest_topleft') against pROC's
``coords(roc, "best", best.method=, best.weights=)`` run through Rscript."""

from __future__ import annotations

import numpy as np
import pytest

from confmat.curves import best_threshold
from confmat.curves.best import best_thresholds
from proc_oracle import proc  # noqa: F401  (the fixture)

R_BEST = r"""
ends <- cumsum(lens); starts <- ends - lens + 1; out <- list()
for (i in seq_along(lens)) {
  j <- starts[i]:ends[i]
  r <- roc(y[j], s[j], levels = c(0, 1), direction = "<", quiet = TRUE)
  m <- ifelse(tl[i] == 1, "closest.topleft", "youden")
  co <- coords(r, "best", best.method = m, best.weights = c(cost[i], prev[i]),
               ret = c("threshold", "specificity", "sensitivity", m), transpose = FALSE)
  out[[paste0("t", i)]] <- co$threshold
  out[[paste0("sp", i)]] <- co$specificity
  out[[paste0("se", i)]] <- co$sensitivity
  out[[paste0("v", i)]] <- co[[m]]
}
"""


def _sets(seed: int, count: int):
    rng = np.random.default_rng(seed)
    sets = []
    for _ in range(count):
        n = int(rng.integers(2, 200) if rng.random() < 0.6 else rng.integers(2, 9))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = rng.normal(size=n) + rng.uniform(-1, 3) * y
        if rng.random() < 0.5:
            s = np.round(s, int(rng.integers(0, 2)))  # ties, within and across classes
        if rng.random() < 0.1:
            s = np.zeros(n)  # one distinct score
        sets.append((y, s))
    tl = rng.integers(0, 2, count)
    plain = rng.random(count) < 0.5  # pROC's default weights: ties are frequent
    cost = np.where(plain, 1.0, rng.uniform(0.2, 5, count))
    prev = np.where(plain, 0.5, rng.uniform(0.05, 0.95, count))
    return sets, tl, cost, prev


@pytest.mark.parametrize("seed", [1, 2])
def test_best_thresholds_match_proc(proc, seed):  # noqa: F811
    sets, tl, cost, prev = _sets(seed, 150)
    r = proc(R_BEST, y=np.concatenate([y for y, _ in sets]),
             s=np.concatenate([s for _, s in sets]), lens=[len(y) for y, _ in sets],
             tl=tl, cost=cost, prev=prev)
    ties = 0
    for i, (y, s) in enumerate(sets):
        got = best_thresholds(y, s, method="closest_topleft" if tl[i] else "youden",
                              cost=cost[i], prevalence=prev[i])
        k = i + 1
        np.testing.assert_array_equal(got.midpoints, r[f"t{k}"])
        np.testing.assert_allclose(got.specificity, r[f"sp{k}"], rtol=1e-12)
        np.testing.assert_allclose(got.sensitivity, r[f"se{k}"], rtol=1e-12)
        np.testing.assert_allclose(got.value, r[f"v{k}"], rtol=1e-9, atol=1e-15)
        ties += got.thresholds.size > 1
        # confmat's thresholds classify as pROC's midpoints do
        for t, mid in zip(got.thresholds, got.midpoints, strict=True):
            assert np.array_equal(s >= t, s > mid) or np.isinf(mid)
    assert ties > 5


def test_best_threshold_closest_topleft_is_the_highest_of_procs_ties(proc):  # noqa: F811
    sets, _, _, _ = _sets(9, 60)
    n = len(sets)
    r = proc(R_BEST, y=np.concatenate([y for y, _ in sets]),
             s=np.concatenate([s for _, s in sets]), lens=[len(y) for y, _ in sets],
             tl=np.ones(n), cost=np.ones(n), prev=np.full(n, 0.5))
    for i, (y, s) in enumerate(sets):
        c = best_threshold(y, s, "closest_topleft")
        mid = r[f"t{i + 1}"][-1]  # pROC lists ties by increasing threshold
        assert np.array_equal(s >= c.threshold, s > mid) or (np.isinf(mid) and mid < 0)
        np.testing.assert_allclose(c.value, r[f"v{i + 1}"][-1], rtol=1e-9)


def test_hand_worked():
    # 3 negatives (0.1, 0.2, 0.4), 3 positives (0.35, 0.8, 0.9)
    y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    # at 0.8: Se 2/3, Sp 1; at 0.35: Se 1, Sp 2/3; r = (1 - 0.3) / (2 * 0.3) = 7/6
    b = best_thresholds(y, s, cost=2, prevalence=0.3)
    assert b.thresholds.tolist() == [0.8]
    assert b.value[0] == pytest.approx(2 / 3 + 7 / 6)
    b = best_thresholds(y, s, method="closest.topleft")
    assert b.thresholds.tolist() == [0.35, 0.8]
    assert b.value == pytest.approx([1 / 9, 1 / 9])


def test_weights_and_labels_through_the_door():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    s = np.round(rng.normal(size=60) + y, 1)
    w = rng.integers(1, 4, 60)
    for m in ("youden", "closest_topleft"):
        got = best_thresholds(y, s, method=m, sample_weight=w, cost=1.5, prevalence=0.4)
        want = best_thresholds(np.repeat(y, w), np.repeat(s, w), method=m, cost=1.5,
                               prevalence=0.4)
        np.testing.assert_array_equal(got.thresholds, want.thresholds)
        np.testing.assert_allclose(got.value, want.value, rtol=1e-12)
    lab = np.where(y == 1, "case", "control")
    a = best_thresholds(lab, s, pos_label="case")
    np.testing.assert_array_equal(a.thresholds, best_thresholds(y, s).thresholds)


@pytest.mark.parametrize("kw, exc, match", [
    ({"method": "f1"}, ValueError, "method"),
    ({"cost": 0}, ValueError, "cost"),
    ({"cost": "high"}, TypeError, "cost"),
    ({"prevalence": 1.0}, ValueError, "prevalence"),
    ({"prevalence": 0}, ValueError, "prevalence"),
])
def test_errors(kw, exc, match):
    with pytest.raises(exc, match=match):
        best_thresholds([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], **kw)


def test_one_class():
    with pytest.raises(ValueError, match="both classes"):
        best_thresholds([1, 1], [0.1, 0.2], pos_label=1)
    with pytest.raises(ValueError, match="both classes"):
        best_threshold([1, 1], [0.1, 0.2], "closest_topleft", pos_label=1)


def test_best_threshold_refuses_a_parameter_its_criterion_ignores():
    from confmat.curves.choice import best_threshold

    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    with pytest.raises(ValueError, match=r"beta=2.0 applies to criterion='fbeta', not 'mcc'"):
        best_threshold(y, s, "mcc", beta=2.0)
    with pytest.raises(ValueError, match=r"beta=2.0 applies to criterion='fbeta', not 'f1'"):
        best_threshold(y, s, "f1", beta=2.0)
    for odd in (np.array([2.0, 3.0]), "2", True):  # not a number either: named, not numpy's
        with pytest.raises(ValueError, match=r"beta=.* applies to criterion='fbeta'"):
            best_threshold(y, s, "youden", beta=odd)
    with pytest.raises(ValueError, match=r"target applies to criterion='recall' or 'precision'"):
        best_threshold(y, s, "youden", target=0.8)
    with pytest.raises(ValueError, match=r"cost_matrix applies to criterion='cost', not 'f1'"):
        best_threshold(y, s, "f1", cost_matrix=[[0, 1], [5, 0]])
    # the parameters a criterion uses are still taken: F2 by hand at threshold 0.35
    # (TP 2, FP 1, FN 0): 5 * 2 / (5 * 2 + 4 * 0 + 1) = 10 / 11
    c = best_threshold(y, s, "fbeta", beta=2.0)
    assert c.threshold == 0.35 and abs(c.value - 10 / 11) < 1e-15
