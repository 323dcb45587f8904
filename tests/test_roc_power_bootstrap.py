"""Power and sample size of two paired curves with bootstrap variances
(``power_roc_test_data(..., method="bootstrap")``, ``power_roc_test_variances``) against pROC's
``power.roc.test(roc1, roc2, method="bootstrap")`` (Robin et al. 2011), run through Rscript.

Three comparisons:

- the arithmetic: pROC's own ``power.roc.test`` with its variance step (``covvar``) replaced
  by given per-case variances and covariance, against ``power_roc_test_variances`` fed the same
  numbers (1e-9 relative);
- the same resamples: R draws pROC's resamples (``set.seed`` then ``power.roc.test``), the
  same seed replays pROC's ``sample`` calls to export the resample indices, and confmat's
  kernels evaluate those very resamples (full areas, both partial foci, stratified and pooled
  with resamples that lack a class): variances, covariance, power, sample size and level to
  1e-9;
- end to end with independent random numbers, within a tolerance derived from the
  Monte-Carlo standard error of the bootstrap (see ``test_monte_carlo_agreement_with_proc``).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from confmat.curves.partial import partial_auc
from confmat.inference.power import power_roc_test_variances
from confmat.inference.power_data import bootstrap_variances, power_roc_test_data
from confmat.inference.roc_boot import ScoreGroups
from proc_oracle import proc  # noqa: F401  (the fixture)

RTOL = 1e-9

# kind: 0 full area, 1 specificity range c(1 - hi, 1 - lo) (FPR [lo, hi]), 2 sensitivity
# range c(lo, hi)
R_ROCS = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
make <- function(i, s) {
  j <- starts[i]:ends[i]
  if (kind[i] == 0) return(roc(y[j], s[j], levels = c(0, 1), direction = "<", quiet = TRUE))
  if (kind[i] == 1) return(roc(y[j], s[j], levels = c(0, 1), direction = "<", quiet = TRUE,
                               partial.auc = c(1 - lo[i], 1 - hi[i]),
                               partial.auc.focus = "specificity"))
  roc(y[j], s[j], levels = c(0, 1), direction = "<", quiet = TRUE, partial.auc = c(lo[i], hi[i]),
      partial.auc.focus = "sensitivity")
}
"""

R_ARITHMETIC = R_ROCS + r"""
.cur <- 1
assignInNamespace("covvar", function(roc1, roc2, method, ...)
  list(var1 = V1[.cur], var2 = V2[.cur], cov12 = C12[.cur]), "pROC")
res <- matrix(NA, length(lens), 7)
for (i in seq_along(lens)) {
  .cur <- i
  r1 <- make(i, a); r2 <- make(i, b)
  alt <- ifelse(two[i] == 1, "two.sided", "one.sided")
  p <- function(...) tryCatch(power.roc.test(r1, r2, method = "bootstrap", alternative = alt,
                                             ...), error = function(e) NULL)
  q <- p(sig.level = sig[i]); if (!is.null(q)) res[i, 1] <- q$power
  q <- p(power = pw[i], sig.level = sig[i]); if (!is.null(q)) res[i, 2] <- q$ncases
  q <- p(power = pw[i], sig.level = sig[i], kappa = kap[i])
  if (!is.null(q)) res[i, 3] <- q$ncontrols
  q <- p(power = pw[i], sig.level = NULL); if (!is.null(q)) res[i, 4] <- q$sig.level
  res[i, 5] <- as.numeric(r1$auc); res[i, 6] <- as.numeric(r2$auc)
  res[i, 7] <- length(r1$cases)
}
out <- list(res = as.vector(t(res)))
"""


def _data_sets(rng: np.random.Generator, k: int, n_low: int, n_high: int) -> list[tuple]:
    sets = []
    for _ in range(k):
        n = int(rng.integers(n_low, n_high))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        a = rng.normal(size=n) + rng.uniform(0.3, 2) * y
        b = rng.uniform(0, 1) * a + rng.normal(size=n) + rng.uniform(0, 1.5) * y
        if rng.random() < 0.3:  # ties within and between the classes
            a, b = np.round(a, 1), np.round(b, 1)
        sets.append((y, a, b))
    return sets


def _ranges(rng: np.random.Generator, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    kind = np.arange(k) % 3
    lo, hi = np.sort(rng.uniform(0, 1, (2, k)), axis=0)
    wide = rng.random(k) < 0.5  # half the ranges start at a corner of the curve
    lo[wide] = 0.0
    return kind, lo, hi


def _pack(sets: list[tuple], **extra: object) -> dict:
    return {"y": np.concatenate([s[0] for s in sets]), "a": np.concatenate([s[1] for s in sets]),
            "b": np.concatenate([s[2] for s in sets]), "lens": [len(s[0]) for s in sets],
            **extra}


def _confmat_range(kind: int, lo: float, hi: float) -> dict:
    """The keyword of power_roc_test_data for the range of ``kind``."""
    return [{}, {"fpr": (lo, hi)}, {"tpr": (lo, hi)}][kind]


def test_arithmetic_matches_proc_fed_the_same_variances(proc):  # noqa: F811
    rng = np.random.default_rng(41)
    k = 45
    sets = _data_sets(rng, k, 20, 120)
    kind, lo, hi = _ranges(rng, k)
    # per-case variances of the size bootstrap gives (AUC variance ~ 0.1 / n cases), a
    # correlation in (-0.5, 1): some pairs give a variance of the difference that is not
    # positive, which pROC turns into NaN and confmat into an error
    v1, v2 = rng.uniform(0.01, 0.3, (2, k))
    c12 = rng.uniform(-0.5, 1.0, k) * np.sqrt(v1 * v2)
    two = rng.integers(0, 2, k)
    sig, pw, kap = rng.uniform(0.01, 0.1, k), rng.uniform(0.5, 0.95, k), rng.uniform(0.5, 2, k)
    r = proc(R_ARITHMETIC, **_pack(sets, kind=kind, lo=lo, hi=hi, V1=v1, V2=v2, C12=c12,
                                   two=two, sig=sig, pw=pw, kap=kap))
    want = r["res"].reshape(k, 7)
    compared = refused = 0
    for i in range(k):
        m = int(want[i, 6])
        n = len(sets[i][0]) - m
        delta = want[i, 4] - want[i, 5]
        base = {"var_a": v1[i], "var_b": v2[i], "cov_ab": c12[i], "delta": delta,
                "alternative": "two-sided" if two[i] else "one-sided"}
        calls = [({"n_cases": m, "n_controls": n, "sig_level": sig[i]}, "power"),
                 ({"kappa": n / m, "power": pw[i], "sig_level": sig[i]}, "n_cases"),
                 ({"kappa": kap[i], "power": pw[i], "sig_level": sig[i]}, "n_controls"),
                 ({"n_cases": m, "n_controls": n, "power": pw[i], "sig_level": None},
                  "sig_level")]
        for j, (call, name) in enumerate(calls):
            if np.isnan(want[i, j]):  # pROC: NaN from the square root of a negative variance
                with pytest.raises(ValueError, match="not positive"):
                    power_roc_test_variances(**base, **call)
                refused += 1
                continue
            got = getattr(power_roc_test_variances(**base, **call), name)
            np.testing.assert_allclose(got, want[i, j], rtol=RTOL, atol=0)
            compared += 1
    assert compared > 100 and refused > 0


def test_solving_the_difference_by_hand():
    # pROC cannot solve delta; the closed form of the same equation, worked by hand:
    # delta = (z_a sqrt(V0) + z_b sqrt(VA)) / sqrt(n), V0 = 2 * 0.1 - 2 * 0.04 = 0.12,
    # VA = 0.1 + 0.15 - 0.08 = 0.17, z_a = 1.959963984540054 (two-sided 5 %),
    # z_b = 0.8416212335729143 (power 0.8)
    r = power_roc_test_variances(var_a=0.1, var_b=0.15, cov_ab=0.04, delta=None, n_cases=100,
                                 n_controls=150, power=0.8)
    want = (1.959963984540054 * np.sqrt(0.12) + 0.8416212335729143 * np.sqrt(0.17)) / 10.0
    assert r.solved == "delta" and r.delta == pytest.approx(want, rel=1e-12)
    assert r.n_controls == 150 and r.auc == ()


R_REPLAY = R_ROCS + r"""
nv <- length(lens); res <- matrix(NA, nv, 9); idx <- c()
for (i in seq_along(lens)) {
  r1 <- make(i, a); r2 <- make(i, b)
  st <- strat[i] == 1
  alt <- ifelse(two[i] == 1, "two.sided", "one.sided")
  p <- function(...) suppressWarnings(power.roc.test(r1, r2, method = "bootstrap", boot.n = B,
                                                     boot.stratified = st, alternative = alt,
                                                     ...))
  set.seed(seeds[i]); res[i, 1] <- p(sig.level = sig[i])$power
  set.seed(seeds[i]); res[i, 2] <- p(power = pw[i], sig.level = sig[i])$ncases
  set.seed(seeds[i]); res[i, 3] <- p(power = pw[i], sig.level = NULL)$sig.level
  set.seed(seeds[i])
  cv <- suppressWarnings(pROC:::covvar(r1, r2, "bootstrap", boot.n = B, boot.stratified = st))
  res[i, 4:6] <- c(cv$var1, cv$var2, cv$cov12)
  res[i, 7:8] <- c(as.numeric(r1$auc), as.numeric(r2$auc)); res[i, 9] <- length(r1$cases)
  set.seed(seeds[i])  # replay pROC's draws: controls then cases, or all samples when pooled
  nc <- length(r1$controls); nca <- length(r1$cases); nall <- length(r1$response)
  for (k in 1:B) {
    if (st) idx <- c(idx, sample(1:nc, replace = TRUE), sample(1:nca, replace = TRUE))
    else idx <- c(idx, sample(1:nall, replace = TRUE))
  }
}
out <- list(res = as.vector(t(res)), idx = idx)
"""


def test_same_resamples_as_proc(proc):  # noqa: F811
    rng = np.random.default_rng(43)
    b = 150
    sets = _data_sets(rng, 5, 40, 120)
    # a pooled bootstrap of 2 positives among 14 samples: about 1 resample in 8 lacks a
    # positive; pROC drops it (NA) and so must confmat
    y = np.array([1, 1] + [0] * 12)
    x = rng.normal(size=14) + y
    sets.append((y, x, rng.normal(size=14) + 0.5 * y))
    kind = np.array([0, 1, 2, 0, 1, 0])
    lo = np.array([0.0, 0.0, 0.8, 0.0, 0.3, 0.0])
    hi = np.array([1.0, 0.2, 1.0, 1.0, 0.7, 1.0])
    strat = np.array([1, 1, 1, 0, 0, 0])
    two = np.array([1, 0, 1, 1, 0, 1])
    seeds = np.arange(6) + 100
    sig, pw = rng.uniform(0.01, 0.1, 6), rng.uniform(0.5, 0.95, 6)
    r = proc(R_REPLAY, **_pack(sets, kind=kind, lo=lo, hi=hi, strat=strat, two=two,
                               seeds=seeds, sig=sig, pw=pw, B=[b]))
    want = r["res"].reshape(6, 9)
    idx = r["idx"].astype(np.int64) - 1
    at = 0
    dropped = 0
    for i, (y, a, s_b) in enumerate(sets):
        pos = y == 1
        m, n = int(pos.sum()), int((~pos).sum())
        assert m == want[i, 8]
        groups = [ScoreGroups.build(pos, s.astype(float)) for s in (a, s_b)]
        if strat[i]:
            draws = idx[at: at + b * (n + m)].reshape(b, n + m)
            at += b * (n + m)
            curves = [g.stratified_curves(draws[:, :n], draws[:, n:]) for g in groups]
        else:
            draws = idx[at: at + b * len(y)].reshape(b, len(y))
            at += b * len(y)
            curves = [g.pooled_curves(draws) for g in groups]
        area = [None, ("specificity", 1 - hi[i], 1 - lo[i], False),
                ("sensitivity", lo[i], hi[i], False)][kind[i]]
        va, vb = (c.area(area) for c in curves)
        var_a, var_b, cov_ab, used = bootstrap_variances(va, vb, m)
        dropped += b - used
        np.testing.assert_allclose([var_a, var_b, cov_ab], want[i, 3:6], rtol=RTOL, atol=1e-15)
        # the areas of the sample, from confmat's functions (pROC's in want[i, 6:8])
        if kind[i] == 0:
            est = [roc_auc_score(y, a), roc_auc_score(y, s_b)]
        elif kind[i] == 1:
            est = [partial_auc(y, s, specificity=(1 - hi[i], 1 - lo[i])) for s in (a, s_b)]
        else:
            est = [partial_auc(y, s, sensitivity=(lo[i], hi[i])) for s in (a, s_b)]
        np.testing.assert_allclose(est, want[i, 6:8], rtol=RTOL, atol=1e-15)
        base = {"var_a": var_a, "var_b": var_b, "cov_ab": cov_ab, "delta": est[0] - est[1],
                "alternative": "two-sided" if two[i] else "one-sided"}
        got = [
            power_roc_test_variances(**base, n_cases=m, n_controls=n, sig_level=sig[i]).power,
            power_roc_test_variances(**base, kappa=n / m, power=pw[i], sig_level=sig[i]).n_cases,
            power_roc_test_variances(**base, n_cases=m, n_controls=n, power=pw[i],
                                     sig_level=None).sig_level,
        ]
        np.testing.assert_allclose(got, want[i, :3], rtol=RTOL, atol=0)
    assert at == idx.size
    assert dropped > 0  # the pooled data set lost resamples, in both tools alike


R_MC = R_ROCS + r"""
res <- matrix(NA, length(lens), 3); rv <- c()
# keep pROC's resampled areas (their spread gives the Monte-Carlo error) as its bootstrap
# returns, without changing what it computes
trace("bootstrap.cov", exit = quote(.rv <<- resampled.values), where = asNamespace("pROC"),
      print = FALSE)
for (i in seq_along(lens)) {
  r1 <- make(i, a); r2 <- make(i, b)
  st <- strat[i] == 1
  .rv <- NULL
  res[i, 1] <- power.roc.test(r1, r2, method = "bootstrap", boot.n = B, boot.stratified = st,
                              power = 0.8)$ncases
  res[i, 2:3] <- c(as.numeric(r1$auc), as.numeric(r2$auc))
  rv <- c(rv, as.vector(.rv))
}
out <- list(res = as.vector(t(res)), rv = rv)
"""


def _log_n_standard_error(values: np.ndarray, m: int, delta: float) -> float:
    """Monte-Carlo standard error of log(n) solved from B resampled pairs of areas.

    The per-case variances enter as V0 = m (2 s11 - 2 s12) and VA = m (s11 + s22 - 2 s12);
    up to O(1/B) terms these are the means over the resamples of g = m (2 x1^2 - 2 x1 x2) and
    h = m (x1 - x2)^2 (x centred), so their Monte-Carlo covariance is Cov(g, h) / B. With
    n = (z_a sqrt(V0) + z_b sqrt(VA))^2 / delta^2 (two-sided 5 %, power 0.8), the delta
    method gives d log n / d V0 = z_a / (sqrt(V0) S), d log n / d VA = z_b / (sqrt(VA) S),
    S = z_a sqrt(V0) + z_b sqrt(VA).
    """
    x = values - values.mean(axis=0)
    g = m * (2 * x[:, 0] ** 2 - 2 * x[:, 0] * x[:, 1])
    h = m * (x[:, 0] - x[:, 1]) ** 2
    v0, va = g.mean(), h.mean()
    za, zb = 1.959963984540054, 0.8416212335729143
    s = za * np.sqrt(v0) + zb * np.sqrt(va)
    grad = np.array([za / (np.sqrt(v0) * s), zb / (np.sqrt(va) * s)])
    cov = np.cov(np.vstack([g, h])) / values.shape[0]
    assert delta != 0
    return float(np.sqrt(grad @ cov @ grad))


def test_monte_carlo_agreement_with_proc(proc):  # noqa: F811
    # confmat and pROC draw independent resamples, so their solved sample sizes differ by
    # the Monte-Carlo error of two bootstrap runs: log n of each has the standard error of
    # _log_n_standard_error (computed from pROC's own resampled areas, so the tolerance does
    # not depend on the code under test), the difference of two independent runs sqrt(2)
    # times it, and 5 of those (a false alarm once in about 1.7 million) is the tolerance.
    # The areas of the sample are deterministic: 1e-9.
    rng = np.random.default_rng(47)
    b = 2000
    sets = []
    for n in (160, 180, 200):  # curves that differ clearly, with and without ties
        y = (rng.random(n) < 0.3).astype(int)  # unbalanced: cases and controls not swappable
        a = rng.normal(size=n) + 1.5 * y
        sets.append((y, a, np.round(0.5 * a + rng.normal(size=n) + 0.3 * y, n % 3)))
    kind = np.array([0, 1, 2])
    lo, hi = np.array([0.0, 0.0, 0.8]), np.array([1.0, 0.3, 1.0])
    strat = np.array([1, 1, 0])
    r = proc(R_MC, **_pack(sets, kind=kind, lo=lo, hi=hi, strat=strat, B=[b]))
    want = r["res"].reshape(3, 3)
    rv = r["rv"].reshape(3, 2, -1)
    for i, (y, a, s_b) in enumerate(sets):
        res = power_roc_test_data(y, a, s_b, method="bootstrap", power=0.8, n_resamples=b,
                                  stratified=bool(strat[i]), random_state=i,
                                  **_confmat_range(kind[i], lo[i], hi[i]))
        np.testing.assert_allclose(res.auc, want[i, 1:], rtol=RTOL, atol=1e-15)
        assert res.n_resamples == rv.shape[2] == b  # no resample lacks a class here
        se = _log_n_standard_error(rv[i].T, int(y.sum()), want[i, 1] - want[i, 2])
        assert 0 < se < 0.2
        assert abs(np.log(res.n_cases) - np.log(want[i, 0])) <= 5 * np.sqrt(2) * se


def test_pooled_resamples_without_a_class_are_left_out():
    y = np.array([1, 1] + [0] * 12)
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=14) + y, rng.normal(size=14)
    res = power_roc_test_data(y, a, b, method="bootstrap", stratified=False, n_resamples=400,
                              random_state=0)
    # a resample lacks a positive with probability p = (12/14)^14 = 0.115: the number left
    # out is binomial (400, p), mean 46, sd 6.4; five sd either side
    p = (12 / 14) ** 14
    dropped = 400 - res.n_resamples
    assert abs(dropped - 400 * p) <= 5 * np.sqrt(400 * p * (1 - p))
    assert f"{res.n_resamples} of 400 pooled resamples" in res.method
    strat = power_roc_test_data(y, a, b, method="bootstrap", n_resamples=400, random_state=0)
    assert strat.n_resamples == 400


def test_reproducible_and_reported():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 120)
    a, b = rng.normal(size=120) + y, rng.normal(size=120) + 0.3 * y
    one = power_roc_test_data(y, a, b, method="bootstrap", tpr=(0.9, 1), random_state=3)
    two = power_roc_test_data(y, a, b, method="bootstrap", tpr=(1, 0.9), random_state=3)
    assert one == two
    assert "partial areas over sensitivity [0.9, 1]" in one.method
    assert one.to_dict()["n_resamples"] == 2000
    assert power_roc_test_data(y, a, b).to_dict()["n_resamples"] is None


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"method": "bootstrap", "score_b": None}, ValueError, "needs two curves"),
    ({"tpr": (0.9, 1)}, ValueError, "needs method='obuchowski' or 'bootstrap'"),
    ({"tpr": (0.9, 1), "method": "obuchowski"}, ValueError, "tpr .*needs method='bootstrap'"),
    ({"tpr": (0.9, 1), "fpr": (0, 0.1), "method": "bootstrap"}, ValueError, "at most one"),
    ({"tpr": (0.9, 1), "method": "bootstrap", "score_b": None}, ValueError, "two curves"),
    ({"tpr": (0.9, 0.9), "method": "bootstrap"}, ValueError, "tpr"),
    ({"method": "bootstrap", "n_resamples": 50}, ValueError, "n_resamples"),
    ({"method": "bootstrap", "n_resamples": 500.0}, TypeError, "n_resamples"),
    ({"method": "bootstrap", "stratified": "yes"}, TypeError, "stratified"),
    ({"method": "bootstrap", "random_state": "x"}, TypeError, "random_state"),
    ({"method": "bootstrap", "sample_weight": np.ones(40)}, ValueError, "sample_weight"),
    ({"method": "bootstrap", "score_b": "same"}, ValueError, "not positive"),
])
def test_bootstrap_errors(kwargs, exc, match):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 40)
    a, b = rng.normal(size=40) + y, rng.normal(size=40)
    kwargs.setdefault("score_b", b)
    if isinstance(kwargs["score_b"], str):
        kwargs["score_b"] = a.copy()  # identical curves: the difference has no variance
    with pytest.raises(exc, match=match):
        power_roc_test_data(y, a, **kwargs)


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"var_a": -0.1}, ValueError, "var_a"),
    ({"var_b": float("nan")}, ValueError, "var_b"),
    ({"cov_ab": float("inf")}, ValueError, "cov_ab"),
    ({"cov_ab": "0.1"}, TypeError, "cov_ab"),
    ({"delta": 1.5}, ValueError, "delta"),
    ({"cov_ab": 0.2}, ValueError, "not positive"),
    ({"power": None}, ValueError, "exactly one"),
    ({"delta": None}, ValueError, "exactly one"),
    ({"alternative": "less"}, ValueError, "alternative"),
])
def test_variances_errors(kwargs, exc, match):
    base = {"var_a": 0.1, "var_b": 0.1, "cov_ab": 0.05, "delta": 0.05, "n_cases": 50,
            "n_controls": 50, "power": 0.8, "sig_level": None}
    base.update(kwargs)
    if kwargs.get("power", 0) is None:
        base["sig_level"] = None
    with pytest.raises(exc, match=match):
        power_roc_test_variances(**base)


def test_bootstrap_variances_needs_two_resamples():
    with pytest.raises(ValueError, match="only 1 bootstrap resample"):
        bootstrap_variances(np.array([0.5, np.nan]), np.array([0.6, 0.7]), 10)
