"""``roc_var`` and ``roc_cov``: pROC's ``var(roc)`` and ``cov(roc1, roc2)`` (Robin et al. 2011),
full and partial areas.

Oracles:

- pROC through Rscript (tests/proc_oracle.py; the tests FAIL under ``CI`` without R), on
  hypothesis-drawn batches of data sets with ties (one R call per batch): DeLong's variance
  and covariance of the full area, Obuchowski and McClish's (1997) variance and covariance of
  the full area and of specificity ranges, each to 1e-9; the bootstrap on pROC's own
  resamples (R replays its ``sample`` calls after the same ``set.seed`` and exports the
  indices; they replace confmat's draws), stratified and pooled, full and partial areas of
  both foci, McClish-standardised or not, to 1e-9;
- the exact-rational reference of the DeLong-type covariance of partial areas
  (tests/partial_delong_reference.py, the evidence of tests/test_roc_partial_delong.py), which
  pROC refuses ("DeLong method is not supported for partial AUC");
- hand computations for a class of one sample (pROC gives NA there) and for McClish's
  standardisation of Obuchowski's variance (pROC ignores ``partial.auc.correct`` for it).
"""

from __future__ import annotations

import importlib
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat.inference import RocVariance, roc_cov, roc_var
from partial_delong_reference import problems, reference_covariance
from proc_oracle import proc  # noqa: F401  (the fixture)

RTOL = 1e-9
# the module (the package attribute ``roc_test`` is the function of the same name)
ROC_TEST_MODULE = importlib.import_module("confmat.inference.roc_test")


def _slope(lo: float, hi: float) -> float:
    """McClish's (1989) standardisation ``(1 + (A - d) / (M - d)) / 2`` is affine in ``A``
    with slope ``1 / (2 (M - d))``, ``M = hi - lo`` and ``d`` the diagonal's area on the
    range, ``(2 - lo - hi) (hi - lo) / 2`` (either focus)."""
    diag = (2 - lo - hi) * (hi - lo) / 2
    return 1.0 / (2.0 * ((hi - lo) - diag))


# --------------------------------------------------------------------------------------------
# partial DeLong: the exact reference


@settings(max_examples=120, deadline=None)
@given(problems(), st.booleans())
def test_partial_delong_equals_the_exact_reference(problem, correct):
    y, a, b, focus, lo, hi = problem
    want_area, want_cov = reference_covariance(y, [a, b], focus, lo, hi)
    scale = float(Fraction(1) / (2 * ((hi - lo) - (2 - lo - hi) * (hi - lo) / 2))) ** 2
    scale = scale if correct else 1.0
    rng = {f"partial_{focus}": (float(lo), float(hi)), "correct": correct}
    v = roc_var(y, a, **rng)
    c = roc_cov(y, a, b, **rng)
    assert v.kind == "variance" and c.kind == "covariance" and c.paired
    assert v.value == pytest.approx(float(want_cov[0][0]) * scale, rel=RTOL, abs=1e-15)
    assert c.value == pytest.approx(float(want_cov[0][1]) * scale, rel=RTOL, abs=1e-15)
    assert roc_var(y, b, **rng).value == pytest.approx(float(want_cov[1][1]) * scale,
                                                       rel=RTOL, abs=1e-15)
    if not correct:
        assert v.estimates[0] == pytest.approx(float(want_area[0]), rel=1e-12, abs=1e-15)
    # var(a) == cov(a, a)
    assert roc_cov(y, a, a, **rng).value == pytest.approx(v.value, rel=1e-12, abs=1e-18)


def test_one_positive_by_hand():
    # one case (0.5) among controls 0.1, 0.5, 0.7, 0.3: the case's component alone has no
    # spread (a class of one contributes 0); the controls' components (the share of cases
    # above each, ties one half) are 1, 1/2, 0, 1: mean 5/8, sample variance
    # ((3/8)^2 * 2 + (1/8)^2 + (5/8)^2) / 3 = (18 + 1 + 25) / 192 = 11/48, over 4 controls.
    y = [0, 1, 0, 0, 0]
    s = [0.1, 0.5, 0.5, 0.7, 0.3]
    v = roc_var(y, s)
    assert v.estimates[0] == pytest.approx(5 / 8, rel=1e-15)
    assert v.value == pytest.approx(11 / 192, rel=1e-12)
    # a second score: controls' components 1, 0, 1, 1 (case at 0.6 over 0.1, 0.65, 0.2, 0.3):
    # covariance with (1, 1/2, 0, 1): sum of (dev products) = (1/4)(3/8) + (-3/4)(-1/8)
    # + (1/4)(-5/8) + (1/4)(3/8) = (3 + 3 - 5 + 3) / 32 = 1/8, over 3, over 4 controls
    c = roc_cov(y, s, [0.1, 0.6, 0.65, 0.2, 0.3])
    assert c.value == pytest.approx(1 / 96, rel=1e-12)


# --------------------------------------------------------------------------------------------
# pROC: DeLong, Obuchowski and the bootstrap on pROC's own resamples

R_VAR = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
ok <- function(expr) tryCatch(suppressWarnings(expr), error = function(e) NA_real_)
res <- matrix(NA_real_, length(lens), 13); idx <- c()
for (i in seq_along(lens)) {
  k <- starts[i]:ends[i]
  mk <- function(s, ...) roc(y[k], s[k], levels = c(0, 1), direction = "<", quiet = TRUE, ...)
  r1 <- mk(a); r2 <- mk(b)
  res[i, 1] <- ok(var(r1, method = "delong")); res[i, 2] <- ok(cov(r1, r2, method = "delong"))
  res[i, 3] <- ok(var(r1, method = "obuchowski"))
  res[i, 4] <- ok(cov(r1, r2, method = "obuchowski"))
  res[i, 5] <- ok(cov(r1, r1, method = "obuchowski"))
  p1 <- mk(a, partial.auc = c(hi[i], lo[i]), partial.auc.focus = "specificity")
  p2 <- mk(b, partial.auc = c(hi[i], lo[i]), partial.auc.focus = "specificity")
  res[i, 6] <- ok(var(p1, method = "obuchowski")); res[i, 7] <- ok(cov(p1, p2, method = "obuchowski"))
  if (full[i] == 1) { q1 <- r1; q2 <- r2 } else {
    foc <- c("specificity", "sensitivity")[focus[i] + 1]
    q1 <- mk(a, partial.auc = c(hi[i], lo[i]), partial.auc.focus = foc,
             partial.auc.correct = corr[i] == 1)
    q2 <- mk(b, partial.auc = c(hi[i], lo[i]), partial.auc.focus = foc,
             partial.auc.correct = corr[i] == 1)
  }
  st <- strat[i] == 1
  set.seed(seeds[i])
  res[i, 8] <- suppressWarnings(var(q1, method = "bootstrap", boot.n = B, boot.stratified = st,
                                    progress = "none"))
  set.seed(seeds[i])
  res[i, 9] <- suppressWarnings(cov(q1, q2, method = "bootstrap", boot.n = B,
                                    boot.stratified = st, progress = "none"))
  res[i, 10] <- as.numeric(q1$auc); res[i, 11] <- as.numeric(q2$auc)
  u <- roc(c(y[k], 0, 1), c(b[k], 0, 1), levels = c(0, 1), direction = "<", quiet = TRUE)
  res[i, 12] <- suppressMessages(cov(r1, u))
  res[i, 13] <- length(r1$cases)
  # replay pROC's draws (var and cov draw alike): controls then cases, or all samples
  set.seed(seeds[i])
  nc <- length(r1$controls); nca <- length(r1$cases); nall <- length(r1$response)
  for (j in 1:B) {
    if (st) idx <- c(idx, sample.int(nc, replace = TRUE), sample.int(nca, replace = TRUE))
    else idx <- c(idx, sample.int(nall, replace = TRUE))
  }
}
out <- list(res = as.vector(t(res)), idx = idx)
"""

BOUNDS = [0.0, 0.1, 0.2, 0.25, 0.5, 0.6, 0.8, 0.9, 1.0]


@st.composite
def _data_set(draw):  # type: ignore[no-untyped-def]
    """Labels, two correlated scores with ties, and the options of one pROC comparison."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_neg, n_pos = draw(st.integers(2, 40)), draw(st.integers(2, 40))
    y = rng.permutation(np.r_[np.zeros(n_neg, np.int64), np.ones(n_pos, np.int64)])
    a = rng.normal(size=y.size) + draw(st.floats(0.0, 2.0)) * y
    b = draw(st.floats(0.0, 0.9)) * a + rng.normal(size=y.size) + draw(st.floats(0, 1.5)) * y
    digits = draw(st.sampled_from([None, 1, 0]))  # ties: none, some, many
    if digits is not None:
        a, b = np.round(a, digits), np.round(b, digits)
    lo, hi = sorted(draw(st.lists(st.sampled_from(BOUNDS), min_size=2, max_size=2,
                                  unique=True)))
    opts = {"focus": draw(st.sampled_from(["specificity", "sensitivity"])), "lo": lo, "hi": hi,
            "correct": draw(st.booleans()), "full": draw(st.booleans()),
            "stratified": draw(st.booleans())}
    if not opts["stratified"]:  # pooled: classes large enough that few resamples lose one
        extra = 12
        y = np.r_[y, np.zeros(extra, np.int64), np.ones(extra, np.int64)]
        a = np.r_[a, rng.normal(size=2 * extra).round(1)]
        b = np.r_[b, rng.normal(size=2 * extra).round(1)]
    return y, a.astype(float), b.astype(float), opts


def _feed(monkeypatch: pytest.MonkeyPatch, blocks: list[np.ndarray]) -> None:
    """Make the bootstrap draw ``blocks`` (pROC's indices) instead of random numbers."""
    queue = list(blocks)

    def draw(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
        block = queue.pop(0)
        assert block.shape == (rows, n)
        return block

    monkeypatch.setattr(ROC_TEST_MODULE, "draw", draw)


@settings(max_examples=4, deadline=None)
@given(st.lists(_data_set(), min_size=6, max_size=8))
def test_matches_proc(proc, sets):  # noqa: F811
    b_n = 120
    opts = [o for *_, o in sets]
    r = proc(R_VAR, y=np.concatenate([s[0] for s in sets]),
             a=np.concatenate([s[1] for s in sets]), b=np.concatenate([s[2] for s in sets]),
             lens=[len(s[0]) for s in sets],
             focus=[int(o["focus"] == "sensitivity") for o in opts],
             lo=[o["lo"] for o in opts], hi=[o["hi"] for o in opts],
             corr=[int(o["correct"]) for o in opts], full=[int(o["full"]) for o in opts],
             strat=[int(o["stratified"]) for o in opts],
             seeds=np.arange(len(sets)) + 11, B=[b_n])
    want = r["res"].reshape(len(sets), 13)
    idx = r["idx"].astype(np.int64) - 1
    at = 0
    fitted = 0
    for i, (y, a, b, o) in enumerate(sets):
        w = want[i]
        m = int((y == 1).sum())
        n = len(y) - m
        assert w[12] == m
        # DeLong, full area
        assert roc_var(y, a).value == pytest.approx(w[0], rel=RTOL, abs=1e-15)
        assert roc_cov(y, a, b).value == pytest.approx(w[1], rel=RTOL, abs=1e-15)
        assert roc_cov(y, a, a).value == pytest.approx(w[0], rel=RTOL, abs=1e-15)
        # Obuchowski: full area and the specificity range (pROC's NA: its binormal fit fails)
        spec = {"partial_specificity": (o["lo"], o["hi"])}
        for want_v, want_c, kw in ((w[2], w[3], {}), (w[5], w[6], spec)):
            if np.isnan(want_v):
                with pytest.raises(ValueError, match="cannot be smoothed"):
                    roc_var(y, a, method="obuchowski", **kw)
                continue
            v = roc_var(y, a, method="obuchowski", **kw)
            assert v.value == pytest.approx(want_v, rel=RTOL, abs=1e-15)
            fitted += 1
            try:
                c = roc_cov(y, a, b, method="obuchowski", **kw).value
            except ValueError:  # the fit of b failed: so did pROC's
                assert np.isnan(want_c)
                continue
            np.testing.assert_allclose(c, want_c, rtol=RTOL, atol=1e-15, equal_nan=True)
            if kw:  # McClish: pROC returns the uncorrected variance; here it is standardised
                corrected = roc_var(y, a, method="obuchowski", correct=True, **kw)
                assert corrected.value == pytest.approx(
                    want_v * _slope(o["lo"], o["hi"]) ** 2, rel=RTOL, abs=1e-15)
            else:  # pROC's own cov(a, a) differs from var(a) by f g a b / m; confmat alike
                assert roc_cov(y, a, a, method="obuchowski").value == pytest.approx(
                    w[4], rel=RTOL, abs=1e-15)
        # the bootstrap on pROC's resamples
        if o["full"]:
            kw = {}
        else:
            kw = {f"partial_{o['focus']}": (o["lo"], o["hi"]), "correct": o["correct"]}
        boot = {"method": "bootstrap", "n_resamples": b_n, "stratified": o["stratified"],
                "random_state": 0, **kw}
        size = n + m if o["stratified"] else len(y)
        draws = idx[at: at + b_n * size].reshape(b_n, size)
        at += b_n * size
        blocks = [draws[:, :n], draws[:, n:]] if o["stratified"] else [draws]
        with pytest.MonkeyPatch.context() as mp:
            _feed(mp, blocks)
            v = roc_var(y, a, **boot)
            _feed(mp, blocks)
            c = roc_cov(y, a, b, **boot)
        assert v.value == pytest.approx(w[7], rel=RTOL, abs=1e-15)
        assert c.value == pytest.approx(w[8], rel=RTOL, abs=1e-15)
        assert v.n_resamples == b_n and v.n_used is not None and v.n_used <= b_n
        np.testing.assert_allclose(c.estimates, w[9:11], rtol=1e-12, atol=1e-15)
        # unpaired curves: 0, as pROC
        u = roc_cov(y, a, np.r_[b, 0, 1], y_true_b=np.r_[y, 0, 1])
        assert u.value == w[11] == 0.0 and not u.paired
    assert at == idx.size
    assert fitted > 0  # some binormal fit succeeded (measured: all of them, 48 of 48)


def test_delong_var_of_a_class_of_one_where_proc_gives_na(proc):  # noqa: F811
    # R's var() of a single component is NA, so pROC's DeLong variance is NA with one case;
    # confmat's class of one contributes zero (the hand computation in test_one_positive_by_hand)
    r = proc("r <- roc(y, s, levels = c(0, 1), direction = '<', quiet = TRUE)\n"
             "out <- list(v = var(r))", y=[0, 1, 0, 0, 0], s=[0.1, 0.5, 0.5, 0.7, 0.3])
    assert np.isnan(r["v"][0])
    assert roc_var([0, 1, 0, 0, 0], [0.1, 0.5, 0.5, 0.7, 0.3]).value == pytest.approx(11 / 192)


# --------------------------------------------------------------------------------------------
# identities, seeds, the result object


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 30), st.integers(1, 30), st.booleans())
def test_bootstrap_var_is_cov_with_itself(seed, n_neg, n_pos, stratified):
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.r_[np.zeros(n_neg, int), np.ones(n_pos, int)])
    s = np.round(rng.normal(size=y.size) + y, 1)
    kw = {"method": "bootstrap", "n_resamples": 200, "stratified": stratified,
          "random_state": seed % 1000, "partial_sensitivity": (0.5, 1.0)}
    try:
        v = roc_var(y, s, **kw)
    except ValueError as exc:  # pooled resamples of a tiny sample: too few with both classes
        assert "bootstrap resample" in str(exc) and not stratified
        return
    assert roc_cov(y, s, s, **kw).value == pytest.approx(v.value, rel=1e-12, abs=1e-18)
    assert roc_var(y, s, **kw).value == v.value  # the seed fixes the draws


def test_result_object():
    r = roc_var(["no", "yes", "no", "yes"], [0.2, 0.7, 0.4, 0.3], pos_label="yes")
    assert isinstance(r, RocVariance) and float(r) == r.value
    d = r.to_dict()
    assert d["kind"] == "variance" and d["method"] == "delong" and d["partial"] is None
    assert any("DeLong" in ref for ref in d["references"])
    c = roc_cov([0, 1, 0, 1, 1, 0], [.1, .4, .3, .8, .5, .2], [.2, .5, .1, .9, .3, .4],
                partial_specificity=(0.5, 1), correct=True)
    assert c.to_dict()["partial"] == ["specificity", 0.5, 1.0, True]
    assert any("McClish" in ref for ref in c.references)
    # a standardised area under the diagonal is nan (pROC's NA); its variance is defined
    under = roc_var([0, 1, 0, 1, 0, 1], [.9, .1, .8, .2, .7, .3], partial_specificity=(0.5, 1),
                    correct=True)
    assert np.isnan(under.estimates[0]) and under.value >= 0
    assert under.to_dict()["estimates"] == [None]


# --------------------------------------------------------------------------------------------
# errors

Y = [0, 1, 0, 1, 1, 0]
S = [0.1, 0.5, 0.3, 0.9, 0.2, 0.4]


@pytest.mark.parametrize("kw, exc, msg", [
    ({"method": "jackknife"}, ValueError, "method must be one of"),
    ({"partial_specificity": (0.8, 1), "partial_sensitivity": (0.8, 1)}, ValueError,
     "exactly one"),
    ({"partial_specificity": (0.8, 1.2)}, ValueError, "within"),
    ({"correct": True}, ValueError, "needs a partial range"),
    ({"method": "obuchowski", "partial_sensitivity": (0.8, 1)}, ValueError,
     "sensitivity range"),
    ({"method": "bootstrap", "n_resamples": 10}, ValueError, "too few"),
    ({"method": "bootstrap", "n_resamples": 200.0}, TypeError, "n_resamples"),
    ({"method": "bootstrap", "stratified": 1}, TypeError, "stratified must be True or False"),
    ({"method": "bootstrap", "random_state": "x"}, TypeError, "random_state"),
    ({"pos_label": 2}, ValueError, "pos_label"),
])
def test_argument_errors(kw, exc, msg):
    with pytest.raises(exc, match=msg):
        roc_var(Y, S, **kw)
    with pytest.raises(exc, match=msg):
        roc_cov(Y, S, S, **kw)


def test_input_errors():
    with pytest.raises(ValueError, match="both classes"):
        roc_var([1, 1, 1], [0.1, 0.2, 0.3], pos_label=1)
    with pytest.raises(ValueError, match="score_b"):
        roc_cov(Y, S, S[:4])
    with pytest.raises(ValueError, match="score_b needs both classes"):
        roc_cov(Y, S, [0.1, 0.2], y_true_b=[1, 1])
    with pytest.raises(TypeError, match="y_score"):
        roc_var(Y, ["a"] * 6)
    with pytest.raises(ValueError, match="cannot be smoothed"):
        roc_var([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4], method="obuchowski")


def test_a_fit_at_one_specificity_is_refused_as_by_proc(proc):  # noqa: F811
    """Two controls: the points strictly inside (0, 1) all have specificity 1/2, the binormal
    fit's slope is 0 and the curve's own slope infinite; pROC's smoothing fails on it (NA
    here) and confmat refuses it (found by hypothesis in test_matches_proc)."""
    y = np.array([1, 1, 1, 1, 1, 1, 1, 0, 0])
    a = np.array([1.304, 0.947, -0.704, -1.265, -0.623, 0.041, -2.325, -0.219, -1.246])
    r = proc('''
ok <- function(expr) tryCatch(suppressWarnings(expr), error = function(e) NA_real_)
r1 <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
out <- list(v = ok(var(r1, method = "obuchowski")), sp = r1$specificities)
''', y=y, a=a)
    inside = r["sp"][(r["sp"] > 0) & (r["sp"] < 1)]
    assert np.all(inside == 0.5) and np.isnan(r["v"][0])
    with pytest.raises(ValueError, match=r"cannot be smoothed: .* one specificity"):
        roc_var(y, a, method="obuchowski")
