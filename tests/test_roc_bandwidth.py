"""Bandwidth selectors (confmat.curves.bandwidth) against R's ``bw.ucv``, ``bw.bcv``, ``bw.SJ``,
``bw.nrd0`` and ``bw.nrd``, and pROC's ``smooth(method="density", bw=...)`` with the
data-driven rules, run through Rscript on data made here (1e-9 relative)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from confmat.curves.bandwidth import bandwidth, brent_minimum, brent_root
from confmat.curves.smooth import KERNELS, smooth_roc
from proc_oracle import proc  # noqa: F401  (the fixture)

RULES = ("ucv", "bcv", "SJ", "SJ-dpi", "nrd0", "nrd")

R_RULES = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
fs <- list(bw.ucv, bw.bcv, bw.SJ, function(x) bw.SJ(x, method = "dpi"), bw.nrd0, bw.nrd)
res <- matrix(NA, length(lens), 6); warned <- matrix(0, length(lens), 6)
for (i in seq_along(lens)) {
  x <- xv[starts[i]:ends[i]]
  for (k in 1:6) {
    res[i, k] <- tryCatch(withCallingHandlers(fs[[k]](x), warning = function(w) {
      warned[i, k] <<- 1; invokeRestart("muffleWarning") }), error = function(e) NA)
  }
}
out <- list(bw = as.vector(t(res)), warned = as.vector(t(warned)))
"""


def _sample(rng: np.random.Generator, n: int, kind: int) -> np.ndarray:
    if kind == 0:
        x = rng.normal(size=n) * rng.uniform(0.01, 20) + rng.uniform(-50, 50)
    elif kind == 1:  # ties
        x = np.round(rng.normal(size=n) * rng.uniform(0.5, 3), 1)
    elif kind == 2:  # heavy ties: the quartiles may coincide
        x = rng.integers(0, int(rng.integers(2, 6)), n).astype(float)
    elif kind == 5:  # mostly one value: the quartiles coincide and Sheather-Jones fails
        x = np.where(rng.random(n) < 0.8, 0.0, rng.normal(size=n))
    elif kind == 3:  # skewed
        x = np.exp(rng.normal(size=n) * 1.5)
    else:  # two clusters
        x = rng.normal(size=n) + rng.uniform(2, 8) * rng.integers(0, 2, n)
    if x.min() == x.max():
        x[0] += 1.0
    return x


def _run(x: np.ndarray, rule: str) -> tuple[float, bool]:
    """Our bandwidth (nan on ValueError) and whether it warned."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            h = bandwidth(x, rule)
        except ValueError as exc:
            assert "rule=" in str(exc)
            h = float("nan")
    ours = [w for w in caught if issubclass(w.category, UserWarning) and "rule=" in str(w.message)]
    if ours:
        assert f"rule={rule!r}" in str(ours[0].message)
        assert "one end of the search range" in str(ours[0].message)
    return h, bool(ours)


@pytest.mark.parametrize("seed", [11, 12])
def test_rules_match_r(proc, seed):  # noqa: F811
    rng = np.random.default_rng(seed)
    sizes = [2, 3, 4, 7, 15, 40, 120, 499, 500, 501, 900, 2000]
    xs = [_sample(rng, int(rng.choice(sizes)), i % 6) for i in range(120)]
    xs[:2] = [np.array([1.0, 2.0]), rng.normal(size=2000)]  # the extreme sizes, always
    r = proc(R_RULES, xv=np.concatenate(xs), lens=[x.size for x in xs])
    want = r["bw"].reshape(-1, len(RULES))
    warned = r["warned"].reshape(-1, len(RULES)).astype(bool)
    worst = 0.0
    errors = np.zeros(len(RULES), int)
    for i, x in enumerate(xs):
        for k, rule in enumerate(RULES):
            got, ours_warned = _run(x, rule)
            if np.isnan(want[i, k]):  # R stopped ("sample is too sparse", ...)
                assert np.isnan(got), (i, rule, x.size)
                errors[k] += 1
                continue
            assert got == pytest.approx(want[i, k], rel=1e-9, abs=0), (i, rule, x.size)
            worst = max(worst, abs(got - want[i, k]) / (abs(want[i, k]) or 1.0))
            assert ours_warned == warned[i, k], (i, rule, x.size)
    # every path was taken: R's warning both ways for both cross-validations, and R's
    # Sheather-Jones errors on tied samples
    for k in (0, 1):
        assert 0 < warned[:, k].sum() < len(xs) - errors[k]
    assert errors[2] > 0 and errors[3] > 0
    assert errors[0] == errors[1] == 0
    assert worst < 1e-9


@pytest.mark.parametrize("rule", ["ucv", "bcv"])
def test_end_of_range_warning(proc, rule):  # noqa: F811
    x = np.array([1.0, 2.0])  # two points: the criterion decreases up to the largest bandwidth
    r = proc(R_RULES, xv=x, lens=[2])
    k = RULES.index(rule)
    assert r["warned"][k] == 1  # R warns too
    with pytest.warns(UserWarning, match=f"rule='{rule}'.*one end of the search range"):
        h = bandwidth(x, rule)
    assert h == pytest.approx(r["bw"][k], rel=1e-9)


R_SMOOTH = r"""
ends <- cumsum(lens); starts <- ends - lens + 1
kernels <- c("gaussian", "epanechnikov", "rectangular", "triangular", "biweight", "cosine",
             "optcosine")
rules <- c("ucv", "bcv", "SJ")
auc <- numeric(length(lens)); warned <- numeric(length(lens)); out <- list()
for (i in seq_along(lens)) {
  j <- starts[i]:ends[i]
  r <- roc(y[j], s[j], levels = c(0, 1), direction = "<", quiet = TRUE)
  # rule 4: the direct plug-in, which pROC reaches only through a number
  bw <- if (rule[i] < 3) rules[rule[i] + 1] else
    tryCatch(bw.SJ(c(r$controls, r$cases), method = "dpi"), error = function(e) NA)
  sm <- if (is.na(bw)) NULL else tryCatch(withCallingHandlers(
    smooth(r, method = "density", n = npts[i], bw = bw, adjust = adj[i],
           kernel = kernels[kern[i] + 1]),
    warning = function(w) { warned[i] <<- 1; invokeRestart("muffleWarning") }),
    error = function(e) NULL)
  if (is.null(sm)) { auc[i] <- NA; next }
  auc[i] <- as.numeric(auc(sm))
  if (i <= 40) out[[paste0("p", i)]] <- c(sm$specificities, sm$sensitivities)
}
out$auc <- auc; out$warned <- warned
"""

# our spellings of each pROC rule: R's density matches names case-insensitively
SPELLINGS = {0: ("ucv", "UCV"), 1: ("bcv", "Bcv"), 2: ("SJ", "sj", "SJ-ste", "sj-ste"),
             3: ("SJ-dpi", "sj-dpi")}


def _smooth_cases(seed: int, count: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(count):
        n = int(rng.choice([4, 9, 30, 120, 400, 700, 2000]))
        y = rng.integers(0, 2, n)
        y[:4] = [0, 1, 0, 1]
        s = rng.normal(size=n) + rng.uniform(-0.5, 2.5) * y
        if i % 4 == 1:
            s = np.round(s, 1)
        elif i % 8 in (2, 3) and n > 4:  # mostly one score: Sheather-Jones fails, in pROC too
            s = np.where(rng.random(n) < 0.8, 0.0, s)
        rule = i % 4
        spelling = SPELLINGS[rule][int(rng.integers(0, len(SPELLINGS[rule])))]
        cases.append(dict(y=y, s=s, rule=rule, bw=spelling,
                          npts=int(rng.choice([7, 100, 512, 700])),
                          adj=float(rng.choice([1.0, 0.5, 2.3])),
                          kern=int(rng.integers(0, len(KERNELS)))))
    return cases


@pytest.mark.parametrize("seed", [21, 22])
def test_smooth_density_rules_match_proc(proc, seed):  # noqa: F811
    cases = _smooth_cases(seed, 80)
    keys = ("rule", "npts", "adj", "kern")
    r = proc(R_SMOOTH, y=np.concatenate([c["y"] for c in cases]),
             s=np.concatenate([c["s"] for c in cases]), lens=[len(c["y"]) for c in cases],
             **{k: [c[k] for c in cases] for k in keys})
    compared = np.zeros(4, int)
    failed = warned = 0
    for i, c in enumerate(cases):
        kw = dict(method="density", n=c["npts"], bw=c["bw"], adjust=c["adj"],
                  kernel=KERNELS[c["kern"]])
        if np.isnan(r["auc"][i]):  # pROC failed: the bandwidth rule had no answer
            with pytest.raises(ValueError, match="bw="):
                smooth_roc(c["y"], c["s"], **kw)
            failed += 1
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = smooth_roc(c["y"], c["s"], **kw)
        ours = any("one end of the search range" in str(w.message) for w in caught)
        assert ours == bool(r["warned"][i]), i
        warned += ours
        np.testing.assert_allclose(got.auc, r["auc"][i], rtol=1e-9, atol=0)
        if i < 40:
            m = got.specificity.size
            pts = r[f"p{i + 1}"]
            assert pts.size == 2 * m
            np.testing.assert_allclose(got.specificity, pts[:m], rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(got.sensitivity, pts[m:], rtol=1e-9, atol=1e-12)
        compared[c["rule"]] += 1
    assert compared.min() >= 10
    assert failed > 0 and warned > 0


R_BRENT = r"""
fmins <- numeric(0); roots <- numeric(0)
for (i in seq_along(a)) {
  f <- function(x) (x - a[i])^2 * (1 + 0.3 * sin(5 * x)) + b[i] * x
  fmins[i] <- optimize(f, c(lo[i], hi[i]), tol = tol[i])$minimum
  g <- function(x) x^3 - a[i] * x - b[i]
  roots[i] <- tryCatch(uniroot(g, c(-5, 5), tol = tol[i])$root, error = function(e) NA)
}
out <- list(fmin = fmins, root = roots)
"""


def test_brent_searches_match_r(proc):  # noqa: F811
    rng = np.random.default_rng(5)
    a, b = rng.uniform(-2, 2, 60), rng.uniform(-1, 1, 60)
    lo, hi = rng.uniform(-4, -1, 60), rng.uniform(1, 4, 60)
    tol = 10.0 ** rng.uniform(-10, -1, 60)
    r = proc(R_BRENT, a=a, b=b, lo=lo, hi=hi, tol=tol)
    for i in range(60):
        def f(x: float, ai: float = a[i], bi: float = b[i]) -> float:
            return (x - ai) ** 2 * (1 + 0.3 * np.sin(5 * x)) + bi * x

        def g(x: float, ai: float = a[i], bi: float = b[i]) -> float:
            return x ** 3 - ai * x - bi

        assert brent_minimum(f, lo[i], hi[i], tol[i]) == pytest.approx(r["fmin"][i], rel=1e-9)
        if not np.isnan(r["root"][i]):
            got = brent_root(g, -5.0, 5.0, g(-5.0), g(5.0), tol[i])
            assert got == pytest.approx(r["root"][i], rel=1e-9, abs=1e-300)
    assert np.isfinite(r["root"]).sum() > 30


@pytest.mark.parametrize("x, rule, error, match", [
    # the exported bandwidth(x, rule) checks x through the input door and names its own
    # arguments (smooth_roc's messages name bw=: test_smooth_errors_name_bw)
    ([1.0, 2.0, 3.0], "scott", ValueError, "rule must be one of 'nrd0'"),
    ([1.0, 2.0, 3.0], "sj_ste", ValueError, "rule must be one of"),
    ([1.0, 2.0, 3.0], 3, TypeError, "rule must be a string"),
    ([1.0], "ucv", ValueError, "rule='ucv' needs at least two values, got 1"),
    ([], "SJ", ValueError, "needs at least two"),
    ([1.0, np.nan, 3.0], "bcv", ValueError, "x contains NaN at position 1"),
    ([1.0, np.inf, 3.0], "nrd0", ValueError, "x contains an infinite value at position 1"),
    ([2.0, 2.0, 2.0], "ucv", ValueError, "rule='ucv' needs values of x that are not all equal"),
    ([2.0, 2.0, 2.0], "bcv", ValueError, "rule='bcv' needs values of x that are not all equal"),
    ([2.0, 2.0, 2.0], "SJ", ValueError, "rule='SJ' needs values of x that are not all equal"),
    ([0.0] * 10 + [1.0], "SJ", ValueError, "rule='SJ'.*too sparse"),  # IQR 0: R stops too
    ([0.0] * 10 + [1.0], "sj-dpi", ValueError, "rule='sj-dpi'.*too sparse"),
    (["a", "b"], "nrd0", TypeError, "x must contain numbers"),
    ([1.0, "a"], "nrd0", TypeError, "x must contain numbers"),
    ([[1.0, 2.0], [3.0, 4.0]], "nrd0", ValueError, "x must be 1-D"),
])
def test_bandwidth_errors(x, rule, error, match):
    with pytest.raises(error, match=match):
        bandwidth(x, rule)


def test_smooth_errors_name_bw():
    y = [0, 1, 0, 1, 0, 1]
    with pytest.raises(ValueError, match="bw='ucv' needs scores that are not all equal"):
        smooth_roc(y, [0.5] * 6, method="density", bw="ucv")
    with pytest.raises(ValueError, match="bw must be one of"):
        smooth_roc(y, [0.1, 0.4, 0.3, 0.6, 0.5, 0.8], method="density", bw="silverman")
    with pytest.raises(TypeError, match="bw must be a rule"):
        smooth_roc(y, [0.1, 0.4, 0.3, 0.6, 0.5, 0.8], method="density", bw=None)


def test_rule_names_are_case_insensitive():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    s = rng.normal(size=60) + y
    a = smooth_roc(y, s, method="density", bw="SJ")
    for spelling in ("sj", "Sj", "SJ-ste", "sj-STE"):
        assert smooth_roc(y, s, method="density", bw=spelling).auc == a.auc
    assert a.params["bandwidth"] == bandwidth(np.concatenate([s[y == 0], s[y == 1]]), "SJ")
    assert any("Sheather" in ref for ref in a.references)

