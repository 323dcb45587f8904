"""The DeLong-type variance of the partial AUC: ``partial_delong_covariance``,
``partial_auc_ci(method="delong")`` and ``roc_test(method="delong", partial_...=)``.

No published tool implements it (pROC stops: "DeLong method is not supported for partial
AUC"), so the evidence is of four kinds:

- the full range, where it must be DeLong et al.'s (1988) variance: pROC's ``var(roc)``,
  ``cov(roc1, roc2)``, ``ci.auc`` and ``roc.test`` to 1e-9;
- a brute-force reference (tests/partial_delong_reference.py, shared with
  tests/test_roc_var.py) from the influence functions in the false positive rate form
  (components of a case ``clip(t2 - max(FPR(x), t1), 0, t2 - t1)``, of a control
  ``ROC(t2) - ROC(clip(FPR(y), t1, t2))``), in exact rational arithmetic, with the class swap
  for the sensitivity focus; the implementation clips DeLong's components instead, a
  different form of the same numbers (hypothesis, small samples with ties, ranges on steps);
- pROC's bootstrap variance and covariance of the same partial areas on samples of
  thousands, within a Monte-Carlo tolerance derived below;
- the coverage of the intervals on binormal data whose true partial area is computed by
  numerical integration (scipy.integrate.quad).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from scipy import integrate, stats

from confmat.inference.roc_ci import partial_auc_ci
from confmat.inference.roc_delong import partial_delong_covariance
from confmat.inference.roc_test import roc_test
from partial_delong_reference import problems, reference_covariance
from proc_oracle import proc  # noqa: F401  (the fixture)

Z975 = float(stats.norm.ppf(0.975))


@settings(max_examples=150, deadline=None)
@given(problems())
def test_partial_covariance_equals_the_influence_functions(problem):
    y, a, b, focus, lo, hi = problem
    area, cov = partial_delong_covariance(y == 1, np.vstack([a, b]),
                                          (focus, float(lo), float(hi), False))
    want_area, want_cov = reference_covariance(y, [a, b], focus, lo, hi)
    np.testing.assert_allclose(area, [float(v) for v in want_area], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(cov, [[float(v) for v in row] for row in want_cov],
                               rtol=1e-9, atol=1e-15)
    # McClish's standardisation is affine: slope 1 / (2 (M - m)), M = hi - lo, m the diagonal
    diag = (2 - lo - hi) * (hi - lo) / 2
    slope = 1 / (2 * ((hi - lo) - diag))
    c_area, c_cov = partial_delong_covariance(y == 1, np.vstack([a, b]),
                                              (focus, float(lo), float(hi), True))
    np.testing.assert_allclose(c_area, [float((1 + (v - diag) / ((hi - lo) - diag)) / 2)
                                        for v in want_area], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(c_cov, [[float(v * slope**2) for v in row] for row in want_cov],
                               rtol=1e-9, atol=1e-15 * float(slope**2))
    # the interval of one curve and the paired and unpaired tests use the same numbers
    ci = partial_auc_ci(y, a, method="delong", correct=False, **{focus: (float(lo), float(hi))})
    half = Z975 * np.sqrt(float(want_cov[0][0]))
    assert ci.low == pytest.approx(max(0.0, float(want_area[0]) - half), rel=1e-9, abs=1e-12)
    assert ci.high == pytest.approx(min(float(hi - lo), float(want_area[0]) + half), rel=1e-9,
                                    abs=1e-12)
    var_d = float(want_cov[0][0] + want_cov[1][1] - 2 * want_cov[0][1])
    t = roc_test(y, a, b, method="delong", **{f"partial_{focus}": (float(lo), float(hi))})
    diff = float(want_area[0] - want_area[1])
    if var_d > 1e-12:
        assert t.statistic == pytest.approx(diff / np.sqrt(var_d), rel=1e-7)
        assert t.low == pytest.approx(diff - Z975 * np.sqrt(var_d), rel=1e-7, abs=1e-12)


def test_partial_covariance_by_hand():
    # y = 0 0 1 1 0 1, s = .1 .4 .35 .8 .2 .9: cases .35 .8 .9, controls .1 .4 .2. On the
    # specificity range [0.8, 1] the cases' specificities (2/3, 1, 1) clip to (0.8, 1, 1):
    # variance 1/75 over 3 cases; the curve's sensitivity is 1/3 at specificity 1 (middle of
    # the step from 0 to 2/3) and 2/3 at 0.8, so the controls' sensitivities (1, 2/3, 1) clip
    # to 2/3 each: variance 0. Area 0.2 * 2/3.
    pos = np.array([0, 0, 1, 1, 0, 1], dtype=bool)
    s = np.array([[.1, .4, .35, .8, .2, .9]])
    area, cov = partial_delong_covariance(pos, s, ("specificity", 0.8, 1.0, False))
    assert area[0] == pytest.approx(2 / 15, rel=1e-12)
    assert cov[0, 0] == pytest.approx(1 / 225, rel=1e-12)
    # the sensitivity range [0.5, 0.9]: the controls' sensitivities (1, 2/3, 1) clip to
    # (0.9, 2/3, 0.9): variance (7/30)^2 / 3 over 3 controls; the curve's specificity is 2/3
    # at sensitivity 0.9 and 1 at 0.5, so the cases' specificities (2/3, 1, 1) stay: variance
    # (1/3)^2 / 3 over 3 cases. Total 49/8100 + 100/8100.
    area, cov = partial_delong_covariance(pos, s, ("sensitivity", 0.5, 0.9, False))
    assert cov[0, 0] == pytest.approx(149 / 8100, rel=1e-12)
    # the area: specificity 1 from 0.5 to 2/3, then 2/3 up to 0.9
    assert area[0] == pytest.approx(1 / 6 + (0.9 - 2 / 3) * 2 / 3, rel=1e-12)


# --------------------------------------------------------------------------------------------
# the full range: DeLong's variance, pROC to 1e-9

R_FULL = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
va <- cab <- lo <- hi <- zp <- zu <- au <- numeric(0)
for (i in seq_along(lens)) {
  k <- starts[i]:ends[i]
  r1 <- roc(y[k], a[k], levels = c(0, 1), direction = "<", quiet = TRUE)
  r2 <- roc(y[k], b[k], levels = c(0, 1), direction = "<", quiet = TRUE)
  ci <- ci.auc(r1, method = "delong")
  h <- floor(length(k) / 2)
  u1 <- roc(y[k][1:h], a[k][1:h], levels = c(0, 1), direction = "<", quiet = TRUE)
  u2 <- roc(y[k][(h + 1):length(k)], b[k][(h + 1):length(k)], levels = c(0, 1),
            direction = "<", quiet = TRUE)
  va <- c(va, var(r1)); cab <- c(cab, cov(r1, r2)); au <- c(au, auc(r1))
  lo <- c(lo, ci[1]); hi <- c(hi, ci[3])
  zp <- c(zp, roc.test(r1, r2, method = "delong", paired = TRUE)$statistic)
  zu <- c(zu, roc.test(u1, u2, method = "delong", paired = FALSE)$statistic)
}
out <- list(va = va, cab = cab, lo = lo, hi = hi, zp = zp, zu = zu, au = au)
"""


def _full_sets(seed: int, count: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        n = int(rng.integers(12, 300))
        y = rng.integers(0, 2, n)
        y[:4] = [0, 1, 0, 1]  # two of each class in both halves (the unpaired test)
        y[n // 2: n // 2 + 4] = [0, 1, 0, 1]
        a = rng.normal(size=n) + rng.normal(1.0, 0.5) * y
        b = 0.5 * a + rng.normal(size=n) + rng.normal(0.6, 0.5) * y
        if i % 2 == 0:  # many ties
            a, b = np.round(a, 1), np.round(b, 0)
        out.append((y, a, b))
    return out


def test_full_range_is_delongs_variance(proc):  # noqa: F811
    sets = _full_sets(3, 30)
    r = proc(R_FULL, y=np.concatenate([d[0] for d in sets]),
             a=np.concatenate([d[1] for d in sets]), b=np.concatenate([d[2] for d in sets]),
             lens=[len(d[0]) for d in sets])
    for i, (y, a, b) in enumerate(sets):
        for focus in ("specificity", "sensitivity"):
            for correct in (False, True):  # McClish on [0, 1] is the identity
                area, cov = partial_delong_covariance(y == 1, np.vstack([a, b]),
                                                      (focus, 0.0, 1.0, correct))
                assert area[0] == pytest.approx(r["au"][i], rel=1e-12)
                assert cov[0, 0] == pytest.approx(r["va"][i], rel=1e-9, abs=1e-15)
                assert cov[0, 1] == pytest.approx(r["cab"][i], rel=1e-9, abs=1e-15)
            ci = partial_auc_ci(y, a, method="delong", **{focus: (0, 1)})
            assert ci.low == pytest.approx(max(0.0, r["lo"][i]), rel=1e-9)
            assert ci.high == pytest.approx(min(1.0, r["hi"][i]), rel=1e-9)
            t = roc_test(y, a, b, **{f"partial_{focus}": (0, 1)})
            assert t.statistic == pytest.approx(r["zp"][i], rel=1e-9)
            h = len(y) // 2
            u = roc_test(y[:h], a[:h], b[h:], y_true_b=y[h:], **{f"partial_{focus}": (0, 1)})
            assert u.statistic == pytest.approx(r["zu"][i], rel=1e-9)
        ci = partial_auc_ci(y, a, method="delong")  # no range: the full AUC
        assert (ci.metric, ci.method) == ("roc_auc", "delong")
        assert ci.low == pytest.approx(max(0.0, r["lo"][i]), rel=1e-9)


# --------------------------------------------------------------------------------------------
# partial ranges: pROC's bootstrap variance and covariance

R_BOOT = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
v <- cv <- numeric(0)
for (i in seq_along(lens)) {
  k <- starts[i]:ends[i]
  foc <- c("specificity", "sensitivity")[focus[i] + 1]
  r1 <- roc(y[k], a[k], levels = c(0, 1), direction = "<", quiet = TRUE,
            partial.auc = c(hi[i], lo[i]), partial.auc.focus = foc,
            partial.auc.correct = corr[i] == 1)
  r2 <- roc(y[k], b[k], levels = c(0, 1), direction = "<", quiet = TRUE,
            partial.auc = c(hi[i], lo[i]), partial.auc.focus = foc,
            partial.auc.correct = corr[i] == 1)
  set.seed(100 + i)
  v <- c(v, var(r1, method = "bootstrap", boot.n = B, progress = "none"))
  if (paired[i] == 1) {
    set.seed(200 + i)
    cv <- c(cv, cov(r1, r2, method = "bootstrap", boot.n = B, progress = "none"))
  } else cv <- c(cv, NA)
}
out <- list(v = v, cv = cv)
"""

BOOT_CASES = [  # n, share of cases, focus, lo, hi, corrected, paired
    (2000, 0.5, "specificity", 0.8, 1.0, False, True),
    (2400, 0.35, "specificity", 0.6, 0.9, True, False),
    (2000, 0.6, "sensitivity", 0.9, 1.0, False, False),
    (2600, 0.45, "sensitivity", 0.5, 0.8, True, False),
]


def test_variance_agrees_with_procs_bootstrap(proc):  # noqa: F811
    # Tolerance. pROC's bootstrap variance is a sample variance of B near-normal values: its
    # relative Monte-Carlo standard deviation is sqrt(2 / (B - 1)) (0.032 at B = 2000), and
    # that of a sample covariance sqrt((v1 v2 + c^2) / (B - 1)). Both estimators share the
    # first-order (influence function) variance and differ by O(1/n) relatively (the
    # components' n - 1 denominators against the bootstrap's n, and higher-order terms),
    # bounded here by 10 / min(m, n) (under 1 %). Allowed: 4 Monte-Carlo SD plus that term.
    b_n = 2000
    rng = np.random.default_rng(11)
    data = []
    for n, share, *_ in BOOT_CASES:
        y = (rng.random(n) < share).astype(np.int64)
        a = np.round(rng.normal(size=n) + 1.1 * y, 2)
        s_b = np.round(0.6 * a + rng.normal(size=n) + 0.8 * y, 2)
        data.append((y, a, s_b))
    r = proc(R_BOOT, y=np.concatenate([d[0] for d in data]),
             a=np.concatenate([d[1] for d in data]), b=np.concatenate([d[2] for d in data]),
             lens=[c[0] for c in BOOT_CASES],
             focus=[int(c[2] == "sensitivity") for c in BOOT_CASES],
             lo=[c[3] for c in BOOT_CASES], hi=[c[4] for c in BOOT_CASES],
             corr=[int(c[5]) for c in BOOT_CASES], paired=[int(c[6]) for c in BOOT_CASES],
             B=[b_n])
    for i, ((y, a, s_b), (_, _, focus, lo, hi, corr, paired)) in enumerate(
            zip(data, BOOT_CASES, strict=True)):
        _, cov = partial_delong_covariance(y == 1, np.vstack([a, s_b]), (focus, lo, hi, corr))
        m, n = int((y == 1).sum()), int((y == 0).sum())
        asym = 10.0 / min(m, n)
        tol = 4 * np.sqrt(2 / (b_n - 1)) + asym
        assert abs(cov[0, 0] / r["v"][i] - 1) < tol, (i, cov[0, 0], r["v"][i])
        if paired:
            mc = np.sqrt((cov[0, 0] * cov[1, 1] + cov[0, 1] ** 2) / (b_n - 1))
            assert abs(cov[0, 1] - r["cv"][i]) < 4 * mc + asym * abs(cov[0, 1]), (
                i, cov[0, 1], r["cv"][i])


# --------------------------------------------------------------------------------------------
# coverage on binormal data


def _true_area(mu: float, sigma: float, focus: str, lo: float, hi: float,
               correct: bool) -> float:
    a, b = mu / sigma, 1.0 / sigma
    norm = stats.norm
    if focus == "specificity":  # int of ROC(u) = Phi(a + b Phi^-1(u)) over FPR [1-hi, 1-lo]
        area = integrate.quad(lambda u: norm.cdf(a + b * norm.ppf(u)), 1 - hi, 1 - lo,
                              epsabs=1e-13)[0]
    else:  # int of the specificity 1 - ROC^-1(v) along sensitivities [lo, hi]
        area = integrate.quad(lambda v: 1 - norm.cdf((norm.ppf(v) - a) / b), lo, hi,
                              epsabs=1e-13)[0]
    if not correct:
        return float(area)
    diag = (2 - lo - hi) * (hi - lo) / 2
    return float((1 + (area - diag) / ((hi - lo) - diag)) / 2)


COVERAGE = [  # mu, sigma, n per class, focus, lo, hi, corrected
    (1.5, 1.0, 500, "specificity", 0.8, 1.0, False),
    (2.0, 2.0, 500, "sensitivity", 0.8, 1.0, False),
    (1.5, 1.0, 500, "specificity", 0.6, 0.9, True),
]


def test_coverage_on_binormal_data():
    # 1000 data sets per setting: the binomial SD of a 0.95 coverage is 0.0069 per setting
    # and 0.0040 over the 3000; each must lie within 3.5 SD of 0.95 (the full study with small
    # samples is in docs/roc.md, "Coverage of the partial AUC intervals").
    reps = 1000
    hits = []
    for k, (mu, sigma, n, focus, lo, hi, corr) in enumerate(COVERAGE):
        rng = np.random.default_rng([2024, k])
        truth = _true_area(mu, sigma, focus, lo, hi, corr)
        y = np.r_[np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64)]
        cover = 0
        for _ in range(reps):
            s = np.r_[rng.normal(0.0, 1.0, n), rng.normal(mu, sigma, n)]
            ci = partial_auc_ci(y, s, method="delong", correct=corr, **{focus: (lo, hi)})
            cover += ci.low <= truth <= ci.high
        sd = np.sqrt(0.95 * 0.05 / reps)
        assert abs(cover / reps - 0.95) < 3.5 * sd, (focus, lo, hi, cover / reps)
        hits.append(cover)
    total = len(hits) * reps
    assert abs(sum(hits) / total - 0.95) < 3.5 * np.sqrt(0.95 * 0.05 / total)


# --------------------------------------------------------------------------------------------
# the interval's edges, McClish under the diagonal, errors


def test_interval_is_clipped_to_the_feasible_range():
    # one case (0.5) below the lowest of 9 controls, the other 19 cases above them all: on
    # specificities [0.8, 1] every case but one has specificity 1, the area is 0.2 * 19/20
    # = 0.19 and the upper bound z * se above it would pass 0.2, the largest partial area.
    y = np.r_[np.zeros(9, int), np.ones(20, int)]
    s = np.r_[np.arange(1.0, 10.0), 0.5, np.arange(20.0, 39.0)]
    ci = partial_auc_ci(y, s, specificity=(0.8, 1), method="delong")
    assert ci.estimate == pytest.approx(0.19, rel=1e-12)
    assert ci.high == pytest.approx(0.2, rel=1e-12) and ci.low < 0.19
    cc = partial_auc_ci(y, s, specificity=(0.8, 1), method="delong", correct=True)
    assert cc.high == 1.0 and cc.low < cc.estimate < 1.0


def test_corrected_area_under_the_diagonal():
    # a curve under the diagonal: McClish's area is undefined (nan, as pROC's NA) but the
    # interval is centred on the standardised value below 0.5 (as the bootstrap keeps such
    # resamples) and cannot pass mcclish(0) = (1 - m / (M - m)) / 2.
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    s = rng.normal(size=200) - 1.0 * y
    ci = partial_auc_ci(y, s, specificity=(0.8, 1), method="delong", correct=True)
    assert np.isnan(ci.estimate)
    floor = (1 - 0.02 / (0.2 - 0.02)) / 2
    assert floor <= ci.low < ci.high < 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning from the interval itself
        partial_auc_ci(y, s, sensitivity=(0.8, 1), method="delong", correct=True)


@pytest.mark.parametrize("kw, err, msg", [
    ({"method": "jackknife"}, ValueError, "method must be 'bootstrap' or 'delong'"),
    ({"method": "delong", "sample_weight": [1.0] * 6}, ValueError, "sample_weight"),
    ({"method": "delong", "specificity": (0.8, 1), "sensitivity": (0.8, 1)}, ValueError,
     "exactly one"),
    ({"method": "delong", "specificity": (0.8, 1.2)}, ValueError, "within"),
    ({"method": "delong", "level": 1.5}, ValueError, "level"),
])
def test_partial_auc_ci_errors(kw, err, msg):
    with pytest.raises(err, match=msg):
        partial_auc_ci([0, 1, 0, 1, 1, 0], [0.1, 0.5, 0.3, 0.9, 0.2, 0.4], **kw)


def test_one_class_is_an_error():
    with pytest.raises(ValueError, match="both classes"):
        partial_auc_ci([1, 1, 1], [0.1, 0.2, 0.3], specificity=(0.8, 1), method="delong",
                       pos_label=1)
