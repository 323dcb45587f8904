"""Smoothed ROC curves (confmat.curves.smooth) against pROC's ``smooth`` run through Rscript:
binormal, kernel density (R's ``density``) and fitted distributions (MASS's ``fitdistr``)."""

from __future__ import annotations

import numpy as np
import pytest

from confmat.curves.smooth import KERNELS, smooth_roc
from proc_oracle import proc, require_r_package  # noqa: F401  (the fixture)

R_SMOOTH = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
kernels <- c("gaussian", "epanechnikov", "rectangular", "triangular", "biweight", "cosine",
             "optcosine")
dists <- c("normal", "lognormal", "exponential", "logistic", "gamma", "weibull")
auc <- numeric(length(lens)); out <- list()
for (i in seq_along(lens)) {
  j <- starts[i]:ends[i]
  r <- roc(y[j], s[j], levels = c(0, 1), direction = "<", quiet = TRUE)
  if (meth[i] == 0) {
    sm <- tryCatch(smooth(r, method = "binormal", n = npts[i]), error = function(e) NULL)
  } else if (meth[i] == 1) {
    bw <- if (bwk[i] == 0) "nrd0" else if (bwk[i] == 1) "nrd" else bwv[i]
    sm <- tryCatch(smooth(r, method = "density", n = npts[i], bw = bw, adjust = adj[i],
                          kernel = kernels[kern[i] + 1]), error = function(e) NULL)
  } else {
    sm <- tryCatch(suppressWarnings(smooth(r, method = "fitdistr", n = npts[i],
                                  density.controls = dists[d0[i] + 1],
                                  density.cases = dists[d1[i] + 1])),
                   error = function(e) NULL)
  }
  if (is.null(sm)) { auc[i] <- NA; next }
  auc[i] <- as.numeric(auc(sm))
  if (i <= 40) out[[paste0("p", i)]] <- c(sm$specificities, sm$sensitivities)
}
out$auc <- auc
"""

EXACT = {0, 1, 2}  # normal, lognormal, exponential: closed-form maximum likelihood


def _cases(seed: int, count: int):
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(count):
        n = int(rng.integers(6, 300))
        y = rng.integers(0, 2, n)
        y[:4] = [0, 1, 0, 1]
        s = rng.normal(size=n) + rng.uniform(-0.5, 2.5) * y
        meth = i % 3
        d0 = d1 = 0
        if meth == 2:
            d0, d1 = int(rng.integers(0, 6)), int(rng.integers(0, 6))
            if max(d0, d1) >= 1:
                s = np.exp(s / 2)
        elif rng.random() < 0.4:
            s = np.round(s, 1)
        # n = 2 puts the density curve's only points 3 bandwidths beyond the data, where a
        # compact kernel's estimate is FFT round-off in R and here alike: not compared
        npts = int(rng.choice([2, 7, 100, 512, 700] if meth != 1 else [7, 100, 512, 700]))
        cases.append(dict(y=y, s=s, meth=meth, npts=npts,
                          bwk=int(rng.integers(0, 3)), bwv=float(rng.uniform(0.05, 1)),
                          adj=float(rng.choice([1.0, 0.5, 2.3])),
                          kern=int(rng.integers(0, len(KERNELS))), d0=d0, d1=d1))
    return cases


def _ours(c):
    if c["meth"] == 0:
        return smooth_roc(c["y"], c["s"], n=c["npts"])
    if c["meth"] == 1:
        bw = ["nrd0", "nrd", c["bwv"]][c["bwk"]]
        return smooth_roc(c["y"], c["s"], method="density", n=c["npts"], bw=bw,
                          adjust=c["adj"], kernel=KERNELS[c["kern"]])
    dists = ["normal", "lognormal", "exponential", "logistic", "gamma", "weibull"]
    return smooth_roc(c["y"], c["s"], method="fitdistr", n=c["npts"],
                      distribution_negative=dists[c["d0"]], distribution_positive=dists[c["d1"]])


@pytest.mark.parametrize("seed", [3, 4])
def test_smooth_matches_proc(proc, seed):  # noqa: F811
    require_r_package("MASS", "r-cran-mass")  # pROC's fitdistr smoothing calls MASS
    cases = _cases(seed, 120)
    keys = ("meth", "npts", "bwk", "bwv", "adj", "kern", "d0", "d1")
    r = proc(R_SMOOTH, y=np.concatenate([c["y"] for c in cases]),
             s=np.concatenate([c["s"] for c in cases]), lens=[len(c["y"]) for c in cases],
             **{k: [c[k] for c in cases] for k in keys})
    counted = {0: 0, 1: 0, 2: 0}
    failed = []
    for i, c in enumerate(cases):
        if np.isnan(r["auc"][i]):
            if c["meth"] == 0:  # pROC: "not smoothable"
                with pytest.raises(ValueError, match="cannot be smoothed"):
                    _ours(c)
            else:
                failed.append((c["d0"], c["d1"], c["npts"]))
            continue
        got = _ours(c)
        exact = c["meth"] < 2 or (c["d0"] in EXACT and c["d1"] in EXACT)
        # logistic, gamma, Weibull: SciPy's and R's optimisers stop at different points
        np.testing.assert_allclose(got.auc, r["auc"][i], rtol=1e-9 if exact else 0,
                                   atol=0 if exact else 1e-3)
        counted[c["meth"]] += 1
        if i < 40:
            m = got.specificity.size
            pts = r[f"p{i + 1}"]
            assert pts.size == 2 * m
            sp, se = pts[:m], pts[m:]
            tol = 1e-9 if exact else 5e-3
            np.testing.assert_allclose(got.specificity, sp, rtol=tol, atol=tol)
            np.testing.assert_allclose(got.sensitivity, se, rtol=tol, atol=tol)
    assert min(counted.values()) > 25
    assert not failed, failed


def test_binormal_area_is_the_formula_of_its_parameters():
    from scipy.stats import norm

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    s = rng.normal(size=200) + y
    sm = smooth_roc(y, s)
    a, b = sm.params["a"], sm.params["b"]
    assert sm.auc == pytest.approx(norm.cdf(a / np.sqrt(1 + b * b)), rel=1e-12)
    # the trapezoid of a fine smoothed curve approaches the same area
    fine = smooth_roc(y, s, n=20001)
    area = np.sum((fine.sensitivity[1:] + fine.sensitivity[:-1]) / 2 * np.diff(fine.specificity))
    assert area == pytest.approx(sm.auc, abs=1e-6)


@pytest.mark.parametrize("kw", [{}, {"method": "density", "bw": 0.3},
                                {"method": "fitdistr"},
                                {"method": "fitdistr", "distribution": "lognormal"}])
def test_integer_weights_equal_repetition(kw):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 80)
    y[:2] = [0, 1]
    s = np.exp(rng.normal(size=80) + y)
    w = rng.integers(1, 4, 80)
    got = smooth_roc(y, s, sample_weight=w, **kw)
    want = smooth_roc(np.repeat(y, w), np.repeat(s, w), **kw)
    assert got.auc == pytest.approx(want.auc, rel=1e-12)
    np.testing.assert_allclose(got.sensitivity, want.sensitivity, atol=1e-12)


def test_string_labels_and_pos_label():
    y = np.array(["no", "yes", "no", "yes", "no", "yes", "no", "yes"])
    s = [0.1, 0.4, 0.3, 0.6, 0.5, 0.8, 0.7, 0.9]
    got = smooth_roc(y, s, pos_label="yes", method="density")
    want = smooth_roc((y == "yes").astype(int), s, method="density")
    assert got.auc == want.auc
    with pytest.raises(ValueError, match="pos_label"):
        smooth_roc(y, s)


@pytest.mark.parametrize("kw, exc, match", [
    ({"method": "loess"}, ValueError, "method"),
    ({"method": "density", "kernel": "box"}, ValueError, "kernel"),
    ({"method": "density", "bw": "scott"}, ValueError, "bw"),
    ({"method": "density", "bw": -1.0}, ValueError, "bandwidth"),
    ({"method": "density", "bw": [0.1]}, TypeError, "bw"),
    ({"method": "density", "adjust": 0}, ValueError, "adjust"),
    ({"method": "fitdistr", "distribution": "beta"}, ValueError, "distribution"),
    ({"method": "fitdistr", "distribution_positive": "cauchy"}, ValueError,
     "distribution_positive"),
    ({"method": "fitdistr", "distribution": "lognormal"}, ValueError, "positive scores"),
    ({"n": 1}, ValueError, "n must"),
    ({"method": "fitdistr", "distribution": "logistic", "sample_weight": [1, 2] * 4}, ValueError,
     "sample_weight"),
])
def test_errors(kw, exc, match):
    y = [0, 1, 0, 1, 0, 1, 0, 1]
    s = [-0.1, 0.4, 0.3, 0.6, 0.5, 0.8, 0.7, 0.9]
    with pytest.raises(exc, match=match):
        smooth_roc(y, s, **kw)


def test_one_class_is_an_error():
    with pytest.raises(ValueError, match="both classes"):
        smooth_roc([1, 1, 1], [0.1, 0.2, 0.3], pos_label=1)

