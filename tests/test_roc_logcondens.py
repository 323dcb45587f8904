"""Log-concave density estimates (confmat.curves.logconcave) and pROC's ``logcondens`` smoothing
(confmat.curves.smooth) against R's logcondens and pROC, run through Rscript on data made here.

Two numerical shortcuts of logcondens keep it from the exact estimate, and the 1e-9 comparisons
are made with both repaired inside the logcondens namespace (so that ``logConDens``,
``logConROC`` and pROC's ``smooth`` all use the repairs; ``refine_on`` below):

* ``logConDens`` ends its Newton iterations once the log-likelihood is within about 1e-8 of the
  optimum (squared Newton decrement below 1e-7), which leaves its log-density up to ~1e-2 away
  from the maximum likelihood estimate. ``activeSetLogCon`` is wrapped to carry logcondens's own
  Newton solver ``MLE`` to convergence (tolerance 1e-25) and to settle the knots with
  logcondens's own directional derivatives.
* its ``J00`` series for nearly flat pieces drops the powers of the fraction of the piece, an
  error of up to ~6e-4 of one interval's mass in the distribution function between data points.

The unrepaired answers are compared too, with the tolerance measured for them. What is not
repaired, and mirrored here: logcondens's quantiles (see ``quantile_logcondens``) and its
smoothing variance (the distinct values' count in the factor m / (m - 1)).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from confmat.curves import logconcave
from confmat.curves.logconcave import fit_log_concave
from confmat.curves.smooth import smooth_roc
from proc_oracle import proc, require_r_package  # noqa: F401  (the fixture)

R_REFINE = r"""
suppressMessages(library(logcondens))
.lc <- asNamespace("logcondens")
.orig <- logcondens::activeSetLogCon
.refined <- function(x, xgrid = NULL, print = FALSE, w = NA) {
  r <- .orig(x, xgrid = xgrid, print = print, w = w)
  # logcondens's Newton solver to convergence on logcondens's knots; a knot whose kink then
  # turns convex goes, a point with a positive directional derivative becomes a knot
  # (logcondens's LocalMLE gives them), until neither happens
  for (it in 1:50) {
    K <- which(r$IsKnot == 1)
    co <- .lc$LocalCoarsen(r$x, r$w, r$IsKnot)
    fit <- .lc$MLE(co$x2, co$w2, r$phi[K], prec = 1e-25)
    p <- fit$phi  # MLE's step halving stops at the rounding of the likelihood: full steps
    for (k in 1:3) p <- .lc$Local_LL_all(co$x2, co$w2, p)$phi_new
    p <- .lc$LocalNormalize(co$x2, p)
    phi <- as.vector(.lc$LocalExtend(r$x, r$IsKnot, co$x2, p))
    conv <- as.vector(.lc$LocalConvexity(r$x, phi)) * r$IsKnot
    if (max(conv) > 0) {
      r$IsKnot[which.max(conv)] <- 0
      next
    }
    r$phi <- phi
    H <- as.vector(.lc$LocalMLE(r$x, r$w, r$IsKnot, phi, 1e-10)$H)
    if (max(H) > 1e-11 * diff(range(r$x))) {
      r$IsKnot[which.max(H)] <- 1
      next
    }
    r$Fhat <- as.vector(.lc$LocalF(r$x, phi))
    r$L <- .lc$Local_LL(co$x2, co$w2, p)
    r$knots <- r$x[r$IsKnot == 1]
    return(r)
  }
  stop("the refinement did not settle")
}
# logcondens's J00(x, y, v), the integral of exp((1-s) x + s y) over s in [0, v], takes for
# |y - x| <= 0.005 a series whose terms lack their powers of v (exact only for v = 1, the
# only use but one: its CDF between two data points, off by up to ~6e-4 of that interval's
# mass); the same series with them
.J00 <- function(x, y, v = 1) {
  d <- y - x
  v <- rep_len(v, length(d))
  z <- exp(x)
  big <- abs(d) > 0.005
  z[big] <- z[big] * (exp(v[big] * d[big]) - 1) / d[big]
  s <- v[!big] * d[!big]
  z[!big] <- z[!big] * v[!big] * (1 + s * (1/2 + s * (1/6 + s * (1/24 + s / 120))))
  z
}
refine_on <- function() {
  assignInNamespace("activeSetLogCon", .refined, "logcondens")
  assignInNamespace("J00", .J00, "logcondens")
}
ends <- cumsum(lens); starts <- ends - lens + 1
"""

R_FITS = R_REFINE + r"""
ps <- c(0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999)
out <- list()
for (i in seq_along(lens)) {
  xi <- x[starts[i]:ends[i]]
  raw <- .orig(xi)
  out[[paste0("raw", i)]] <- c(raw$L, raw$phi)
}
refine_on()
for (i in seq_along(lens)) {
  xi <- x[starts[i]:ends[i]]
  r <- logConDens(xi, smoothed = TRUE)
  gam <- sqrt(r$sig^2 - .lc$LocalVariance(r$x, r$w, r$phi))
  mid <- (r$x[-1] + r$x[-length(r$x)]) / 2
  em <- evaluateLogConDens(mid, r, which = 1:3)
  out[[paste0("fit", i)]] <- c(r$L, gam, r$IsKnot, r$phi, r$Fhat, em[, "density"], em[, "CDF"],
                              quantilesLogConDens(ps, r)[, "quantile"])
  out[[paste0("xs", i)]] <- r$xs
  out[[paste0("smooth", i)]] <- c(r$f.smoothed, r$F.smoothed)  # on its 500-point grid xs
}
"""

PS = np.array([0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999])


def _sample(rng: np.random.Generator, kind: int, n: int) -> np.ndarray:
    if kind == 0:
        return rng.normal(size=n)
    if kind == 1:
        return rng.exponential(size=n)  # skewed
    if kind == 2:
        return np.exp(rng.normal(size=n) / 1.5)  # skewed, not log-concave
    if kind == 3:
        return np.round(rng.normal(size=n), 1)  # ties
    if kind == 4:
        return rng.gamma(3.0, size=n) * 100.0
    if kind == 5:
        return rng.standard_t(2, size=n)  # heavy tails
    if kind == 6:
        return np.concatenate([rng.normal(-2, 1, n // 2), rng.normal(2, 1, n - n // 2)])
    return rng.integers(0, 4, size=n).astype(float)  # few distinct values, many ties


def _fit_cases(seed: int, count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    cases = [np.array([0.0, 1.0, 1.0]), np.array([2.0, 5.0, 5.0, 5.0]),
             np.array([1.0, 2.0, 4.0])]
    while len(cases) < count:
        n = int(rng.choice([3, 4, 7, 20, 60, 200, 500, 1000]))
        x = _sample(rng, int(rng.integers(0, 8)), n)
        if np.unique(x).size >= 2:
            cases.append(x)
    return cases


def _rel(got: np.ndarray, want: np.ndarray) -> float:
    return float(np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-300)))


@pytest.mark.parametrize("seed", [11, 12])
def test_fit_matches_logcondens(proc, seed):  # noqa: F811
    require_r_package("logcondens", "r-cran-logcondens")
    cases = _fit_cases(seed, 36)
    r = proc(R_FITS, x=np.concatenate(cases), lens=[c.size for c in cases])
    worst_raw = 0.0
    for i, x in enumerate(cases, start=1):
        est = fit_log_concave(x)
        m = est.x.size
        v = r[f"fit{i}"]
        ll, gam = v[0], v[1]
        knot, phi, cdf = v[2:2 + m] > 0, v[2 + m:2 + 2 * m], v[2 + 2 * m:2 + 3 * m]
        dens_mid, cdf_mid = v[2 + 3 * m:1 + 4 * m], v[1 + 4 * m:5 * m]
        quant = v[5 * m:]
        assert est.knots.tolist() == est.x[knot].tolist(), i
        np.testing.assert_allclose(est.phi, phi, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(est.weight @ est.phi - 1.0, ll, rtol=1e-9)
        np.testing.assert_allclose(est.cdf(est.x), cdf, rtol=1e-9, atol=1e-15)
        mid = (est.x[1:] + est.x[:-1]) / 2
        np.testing.assert_allclose(est.density(mid), dens_mid, rtol=1e-9)
        np.testing.assert_allclose(est.cdf(mid), cdf_mid, rtol=1e-9)
        np.testing.assert_allclose(est.quantile_logcondens(PS), quant, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(est.smoothing_sd, gam, rtol=1e-9)
        xs = r[f"xs{i}"]
        sm = r[f"smooth{i}"]
        # logcondens sums its closed form over the intervals between consecutive data values,
        # here over the pieces between knots: its narrow intervals lose digits to cancelling
        # normal probabilities (measured: up to 1.9e-9 relative where the density is above
        # 1e-4; in far tails more, below 1e-15 absolute; ours agree with 40-digit quadrature)
        np.testing.assert_allclose(est.smooth_density(xs), sm[:xs.size], rtol=1e-8, atol=1e-15)
        np.testing.assert_allclose(est.smooth_cdf(xs), sm[xs.size:], rtol=1e-8, atol=1e-15)
        # logcondens's unrefined answer: a lower likelihood, the log-density close
        raw = r[f"raw{i}"]
        assert est.weight @ est.phi - 1.0 >= raw[0] - 1e-13
        worst_raw = max(worst_raw, float(np.max(np.abs(est.phi - raw[1:]))))
    # measured: up to ~8e-3 on the log-density scale (the Newton tolerance of logcondens)
    assert worst_raw < 0.05


R_ROC = R_REFINE + r"""
suppressMessages(library(pROC))
run <- function() {
  res <- list()
  for (i in seq_along(lens)) {
    j <- starts[i]:ends[i]
    r <- roc(y[j], s[j], levels = c(0, 1), direction = "<", quiet = TRUE)
    m <- if (meth[i] == 0) "logcondens" else "logcondens.smooth"
    sm <- tryCatch(smooth(r, method = m, n = npts[i]), error = function(e) NULL)
    res[[i]] <- if (is.null(sm)) NA else c(as.numeric(auc(sm)), sm$specificities,
                                           sm$sensitivities)
  }
  res
}
raw <- run()
refine_on()
ref <- run()
out <- list()
for (i in seq_along(lens)) {
  out[[paste0("raw", i)]] <- raw[[i]]
  out[[paste0("ref", i)]] <- ref[[i]]
}
"""


def _roc_cases(seed: int, count: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(count):
        n = int(rng.choice([6, 12, 40, 150, 500]))
        y = rng.integers(0, 2, n)
        y[:4] = [0, 1, 0, 1]
        kind = int(rng.integers(0, 8))
        s = _sample(rng, kind, n) + rng.uniform(-0.5, 2.5) * y * (100.0 if kind == 4 else 1.0)
        if i % 17 == 5:  # one class with a single distinct score: pROC fails, as here
            s[y == 0] = 0.5
        npts = int(rng.choice([2, 3, 10, 100, 512]))
        cases.append(dict(y=y, s=s, meth=i % 2, npts=npts))
    return cases


@pytest.mark.parametrize("seed", [21, 22])
def test_smooth_logcondens_matches_proc(proc, seed):  # noqa: F811
    require_r_package("logcondens", "r-cran-logcondens")
    cases = _roc_cases(seed, 30)
    r = proc(R_ROC, y=np.concatenate([c["y"] for c in cases]),
             s=np.concatenate([c["s"] for c in cases]), lens=[len(c["y"]) for c in cases],
             meth=[c["meth"] for c in cases], npts=[c["npts"] for c in cases])
    worst_raw, compared = 0.0, {0: 0, 1: 0}
    for i, c in enumerate(cases, start=1):
        method = ["logcondens", "logcondens.smooth"][c["meth"]]
        ref = r[f"ref{i}"]
        if np.isnan(ref).all():
            with pytest.raises(ValueError, match="y_score"):
                smooth_roc(c["y"], c["s"], method=method, n=c["npts"])
            continue
        got = smooth_roc(c["y"], c["s"], method=method, n=c["npts"])
        m = got.specificity.size
        assert ref.size == 1 + 2 * m
        np.testing.assert_allclose(got.auc, ref[0], rtol=1e-9)
        np.testing.assert_array_equal(got.specificity, ref[1:1 + m])
        np.testing.assert_allclose(got.sensitivity, ref[1 + m:], rtol=1e-9, atol=1e-12)
        raw = r[f"raw{i}"]
        worst_raw = max(worst_raw, float(np.max(np.abs(got.sensitivity - raw[1 + m:]))),
                        abs(got.auc - raw[0]))
        compared[c["meth"]] += 1
    assert min(compared.values()) >= 10
    # pROC as it is (logcondens's Newton tolerance): measured up to ~1e-4
    assert worst_raw < 2e-3


def test_the_estimate_is_the_optimum():
    """No tent direction raises the likelihood and every kink is concave (the conditions that
    characterise the maximum likelihood estimate; Dümbgen, Hüsler & Rufibach 2007)."""
    rng = np.random.default_rng(5)
    for kind in range(8):
        x = _sample(rng, kind, 300)
        est = fit_log_concave(x)
        gain = logconcave._gains(est.x, est.weight, est.phi, est.is_knot)
        assert gain.max() <= 1e-10 * np.ptp(x)
        kinks = logconcave._kinks(est.x, est.phi, est.is_knot)
        assert (kinks[est.is_knot][1:-1] < 0).all()
        assert est.cdf(est.x[-1]) == 1.0
        # the estimate keeps the sample mean and has at most the sample variance
        # (Dümbgen & Rufibach 2009)
        xs, dx = np.linspace(est.x[0], est.x[-1], 200001, retstep=True)
        f = est.density(xs)
        assert np.sum((f[1:] + f[:-1]) / 2) * dx == pytest.approx(1.0, abs=1e-6)
        mean = np.sum(((xs * f)[1:] + (xs * f)[:-1]) / 2) * dx
        assert mean == pytest.approx(x.mean(), abs=1e-5 * np.ptp(x))
        assert est.variance <= x.var(ddof=1) <= est.target_sd**2 + 1e-12


def test_quantile_inverts_the_cdf():
    est = fit_log_concave(np.random.default_rng(1).gamma(2.0, size=80))
    p = np.linspace(0, 1, 101)
    np.testing.assert_allclose(est.cdf(est.quantile(p)), p, atol=1e-13)
    with pytest.raises(ValueError, match="p must"):
        est.quantile([1.5])


@pytest.mark.parametrize("kind", [0, 1, 4, 5])
def test_smooth_estimate_against_quadrature(kind):
    """The closed forms of the smoothed density and distribution function against adaptive
    quadrature of the convolution, piece by piece (tighter than the logcondens comparison)."""
    from scipy import integrate, stats

    est = fit_log_concave(_sample(np.random.default_rng(kind), kind, 40))
    g = est.smoothing_sd
    xk = est.knots
    pts = np.concatenate([[xk[0] - 6 * g, xk[0] - 0.3 * g], xk[1:-1] + 0.01 * g,
                          [np.median(est.x), xk[-1] + 2 * g, xk[-1] + 6 * g]])
    for t in pts:
        dens = cdf = 0.0
        for u, v in itertools.pairwise(xk):
            dens += integrate.quad(lambda s, t=t: est.density(s) * stats.norm.pdf(t - s, 0, g),
                                   u, v, epsabs=0, epsrel=1e-13, limit=200)[0]
            cdf += integrate.quad(lambda s, t=t: est.density(s) * stats.norm.cdf(t - s, 0, g),
                                  u, v, epsabs=0, epsrel=1e-13, limit=200)[0]
        assert est.smooth_density(t) == pytest.approx(dens, rel=1e-10, abs=1e-300)
        assert est.smooth_cdf(t) == pytest.approx(cdf, rel=1e-10, abs=1e-300)


def test_smooth_cdf_is_the_integral_of_the_smooth_density():
    est = fit_log_concave(np.random.default_rng(2).normal(size=50))
    lo, hi = est.x[0] - 8 * est.smoothing_sd, est.x[-1] + 8 * est.smoothing_sd
    xs, dx = np.linspace(lo, hi, 400001, retstep=True)
    f = est.smooth_density(xs)
    area = np.concatenate([[0.0], np.cumsum((f[1:] + f[:-1]) / 2) * dx])
    pick = np.arange(0, xs.size, 20000)
    np.testing.assert_allclose(est.smooth_cdf(xs[pick]), area[pick], atol=1e-8)


@pytest.mark.parametrize("x, exc, match", [
    ([1.0, 1.0, 1.0], ValueError, "two distinct"),
    ([1.0], ValueError, "two distinct"),
    ([[1.0, 2.0]], ValueError, "1-D"),
    ([1.0, np.nan], ValueError, "NaN at position 1"),
    ([1.0, -np.inf], ValueError, "infinite value at position 1"),
    (["a", "b"], TypeError, "numbers"),
    ([1.0, "a"], TypeError, "numbers"),
    (None, TypeError, "array-like of numbers, got None"),
    ("ab", TypeError, "single string"),
    ([2**60, 2**60 + 1], ValueError, "beyond 2\\*\\*53"),
])
def test_fit_errors(x, exc, match):
    # the argument checks are the input door's (numeric_1d, finite_float), named as given
    with pytest.raises(exc, match=f"^scores.*{match}"):
        fit_log_concave(x, "scores")


@pytest.mark.parametrize("kw, match", [
    ({"method": "logcondens", "sample_weight": [1.0] * 8}, "sample_weight"),
    ({"method": "logcondens.smooth", "sample_weight": [1.0] * 8}, "sample_weight"),
])
def test_weights_are_refused(kw, match):
    y = [0, 1, 0, 1, 0, 1, 0, 1]
    s = [-0.1, 0.4, 0.3, 0.6, 0.5, 0.8, 0.7, 0.9]
    with pytest.raises(ValueError, match=match):
        smooth_roc(y, s, **kw)


@pytest.mark.parametrize("method", ["logcondens", "logcondens.smooth"])
def test_one_distinct_score_in_a_class(method):
    with pytest.raises(ValueError, match=r"y_score.*positive class has 1"):
        smooth_roc([0, 0, 1, 1], [0.1, 0.2, 0.5, 0.5], method=method)
    with pytest.raises(ValueError, match=r"y_score.*negative class has 1"):
        smooth_roc([0, 0, 1, 1], [0.1, 0.1, 0.5, 0.6], method=method)


def test_params_and_dict():
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    s = [0.1, 0.3, 0.5, 0.7, 0.4, 0.6, 0.8, 0.9]
    sm = smooth_roc(y, s, method="logcondens.smooth", n=20)
    d = sm.to_dict()
    assert d["method"] == "logcondens.smooth"
    assert d["params"]["negative"]["knots"][0] == 0.1
    assert d["params"]["positive"]["smoothing_sd"] > 0
    assert any("Rufibach" in ref for ref in d["references"])
    assert sm.specificity.size == 22
