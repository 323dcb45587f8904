"""Partial AUC (with and without McClish's correction) against pROC's ``auc(partial.auc=...)``,
and against a hand-made integral on simple cases."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest

from confmat.curves.partial import partial_auc
from confmat.metrics import UndefinedMetricWarning
from proc_oracle import proc  # noqa: F401  (the fixture)

R_PARTIAL = r"""
res <- numeric(length(lens))
ends <- cumsum(lens); starts <- ends - lens + 1
for (i in seq_along(lens)) {
  yy <- y[starts[i]:ends[i]]; ss <- s[starts[i]:ends[i]]
  r <- roc(yy, ss, levels = c(0, 1), direction = "<", quiet = TRUE)
  a <- suppressWarnings(auc(r, partial.auc = c(hi[i], lo[i]),
            partial.auc.focus = ifelse(focus[i] == 1, "sensitivity", "specificity"),
            partial.auc.correct = correct[i] == 1))
  res[i] <- as.numeric(a)
}
out <- list(res = res)
"""


def _datasets(seed: int, count: int) -> list[tuple[np.ndarray, np.ndarray, float, float, int,
                                                    int]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(4, 300))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        shift = rng.normal(0, 1.5)
        s = rng.normal(size=n) + shift * y
        if rng.random() < 0.5:  # ties within and across classes
            s = np.round(s, int(rng.integers(0, 2)))
        a, b = np.sort(rng.random(2))
        if rng.random() < 0.2:
            a, b = 0.0, float(rng.choice([0.1, 0.5, 1.0]))
        if rng.random() < 0.2:
            a, b = float(rng.choice([0.0, 0.5, 0.9])), 1.0
        if rng.random() < 0.15:  # a narrow range that may fall between two points of the curve
            a = float(rng.random() * 0.98)
            b = a + 0.005
        out.append((y, s, float(a), float(b), int(rng.integers(0, 2)), int(rng.integers(0, 2))))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_partial_auc_matches_proc(proc, seed):  # noqa: F811
    sets = _datasets(seed, 120)
    got = []
    for y, s, lo, hi, focus, correct in sets:
        kw = {"sensitivity" if focus else "specificity": (lo, hi)}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            got.append(partial_auc(y, s, correct=bool(correct), **kw))
    r = proc(R_PARTIAL,
             y=np.concatenate([d[0] for d in sets]), s=np.concatenate([d[1] for d in sets]),
             lens=[len(d[0]) for d in sets], lo=[d[2] for d in sets], hi=[d[3] for d in sets],
             focus=[d[4] for d in sets], correct=[d[5] for d in sets])["res"]
    got_a = np.array(got)
    assert np.array_equal(np.isnan(got_a), np.isnan(r)), (got_a, r)
    ok = ~np.isnan(r)
    assert ok.sum() > 0.7 * len(sets)
    np.testing.assert_allclose(got_a[ok], r[ok], rtol=1e-9, atol=1e-15)


def test_partial_auc_by_hand():
    # y = [0, 0, 1, 1], s = [.1, .4, .35, .8]: points (sp, se) = (1, 0), (1, .5), (.5, .5),
    # (.5, 1), (0, 1); on sp in [0.25, 0.75] the curve is se = 1 below sp = .5 and .5 above
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    want = Fraction(1, 4) * 1 + Fraction(1, 4) * Fraction(1, 2)
    assert partial_auc(y, s, specificity=(0.25, 0.75)) == pytest.approx(float(want), abs=1e-15)
    lo, hi = Fraction(1, 4), Fraction(3, 4)
    m = (2 - lo - hi) * (hi - lo) / 2
    corr = (1 + (want - m) / ((hi - lo) - m)) / 2
    assert partial_auc(y, s, specificity=(0.75, 0.25), correct=True) == pytest.approx(
        float(corr), abs=1e-15)
    # sensitivity focus on se in [0, 1]: the full area
    assert partial_auc(y, s, sensitivity=(0, 1)) == pytest.approx(0.75, abs=1e-15)


def test_partial_auc_string_labels_and_weights():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    s = rng.normal(size=200) + y
    lab = np.where(y == 1, "sick", "well")
    a = partial_auc(y, s, specificity=(0.8, 1))
    assert partial_auc(lab, s, specificity=(0.8, 1), pos_label="sick") == a
    # integer weights = repeated samples
    w = rng.integers(0, 4, 200)
    rep = np.repeat(np.arange(200), w)
    assert partial_auc(y, s, specificity=(0.8, 1), sample_weight=w) == pytest.approx(
        partial_auc(y[rep], s[rep], specificity=(0.8, 1)), rel=1e-12)


@pytest.mark.parametrize("kw, err, msg", [
    ({}, ValueError, "exactly one"),
    ({"specificity": (0.8, 1), "sensitivity": (0, 1)}, ValueError, "exactly one"),
    ({"specificity": (0.8, 1.2)}, ValueError, "specificity must lie within"),
    ({"sensitivity": (0.5, 0.5)}, ValueError, "positive width"),
    ({"specificity": 0.8}, TypeError, "pair of numbers"),
    ({"specificity": (0.1, "a")}, TypeError, "pair of numbers"),
])
def test_partial_auc_bad_ranges(kw, err, msg):
    with pytest.raises(err, match=msg):
        partial_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], **kw)


def test_partial_auc_undefined():
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(partial_auc([1, 1], [0.1, 0.2], specificity=(0.8, 1), pos_label=1))
    with pytest.warns(UndefinedMetricWarning, match="below the diagonal"):
        assert np.isnan(partial_auc([1, 1, 0, 0], [0.1, 0.2, 0.3, 0.4], specificity=(0.8, 1),
                                    correct=True))
