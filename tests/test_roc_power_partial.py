"""Power and sample size of two paired curves compared on partial areas
(``power_roc_test_data(..., fpr=)``) against pROC's ``power.roc.test(roc1, roc2,
method="obuchowski")`` on curves made with ``partial.auc=`` (specificity focus), run through
Rscript on random data sets (1e-9 relative)."""

from __future__ import annotations

import numpy as np
import pytest

from confmat.inference.power_data import power_roc_test_data
from proc_oracle import proc  # noqa: F401  (the fixture)

R_PARTIAL = r"""
ends <- cumsum(lens); starts <- ends - lens + 1; res <- matrix(NA, length(lens), 6)
delong_refused <- numeric(length(lens))
for (i in seq_along(lens)) {
  j <- starts[i]:ends[i]
  pa <- c(1 - lo[i], 1 - hi[i])  # the specificity range of the FPR range [lo, hi]
  r1 <- roc(y[j], a[j], levels = c(0, 1), direction = "<", quiet = TRUE, partial.auc = pa,
            partial.auc.focus = "specificity")
  r2 <- roc(y[j], b[j], levels = c(0, 1), direction = "<", quiet = TRUE, partial.auc = pa,
            partial.auc.focus = "specificity")
  alt <- ifelse(two[i] == 1, "two.sided", "one.sided")
  p <- function(...) tryCatch(power.roc.test(r1, r2, method = "obuchowski",
                                             alternative = alt, ...), error = function(e) NULL)
  q <- p(sig.level = sig[i]); if (!is.null(q)) res[i, 1] <- q$power
  q <- p(power = pw[i], sig.level = sig[i]); if (!is.null(q)) res[i, 2] <- q$ncases
  q <- p(power = pw[i], sig.level = sig[i], kappa = kap[i])
  if (!is.null(q)) res[i, 3] <- q$ncontrols
  q <- p(power = pw[i], sig.level = NULL); if (!is.null(q)) res[i, 4] <- q$sig.level
  res[i, 5] <- as.numeric(r1$auc); res[i, 6] <- as.numeric(r2$auc)
  delong_refused[i] <- tryCatch({power.roc.test(r1, r2); 0}, error = function(e) 1)
}
out <- list(res = as.vector(t(res)), delong_refused = delong_refused)
"""


def _ranges(rng: np.random.Generator, k: int) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = np.empty(k), np.empty(k)
    for i in range(k):
        kind = i % 5
        if kind == 0:
            lo[i], hi[i] = 0.0, float(rng.uniform(0.05, 0.5))  # high specificity
        elif kind == 1:
            lo[i], hi[i] = np.sort(rng.uniform(0, 1, 2))
        elif kind == 2:
            lo[i], hi[i] = float(rng.uniform(0.5, 0.95)), 1.0
        elif kind == 3:  # narrow
            lo[i] = float(rng.uniform(0, 0.9))
            hi[i] = lo[i] + 0.02
        else:
            lo[i], hi[i] = 0.0, 1.0  # the whole curve
    return lo, hi


@pytest.mark.parametrize("seed", [31, 32])
def test_partial_power_matches_proc(proc, seed):  # noqa: F811
    rng = np.random.default_rng(seed)
    k = 40
    sets = []
    for _ in range(k):
        n = int(rng.integers(20, 400))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        a = rng.normal(size=n) + rng.uniform(0.3, 2) * y
        b = rng.uniform(0, 1) * a + rng.normal(size=n) + rng.uniform(0, 1.5) * y
        if rng.random() < 0.3:
            a, b = np.round(a, 1), np.round(b, 1)
        sets.append((y, a, b))
    lo, hi = _ranges(rng, k)
    two = rng.integers(0, 2, k)
    sig, pw, kap = rng.uniform(0.01, 0.1, k), rng.uniform(0.5, 0.95, k), rng.uniform(0.5, 2, k)
    r = proc(R_PARTIAL, y=np.concatenate([s[0] for s in sets]),
             a=np.concatenate([s[1] for s in sets]), b=np.concatenate([s[2] for s in sets]),
             lens=[len(s[0]) for s in sets], lo=lo, hi=hi, two=two, sig=sig, pw=pw, kap=kap)
    want = r["res"].reshape(k, 6)
    assert r["delong_refused"].all()  # pROC: "DeLong method is not supported for partial AUC"
    compared = 0
    for i, (y, a, b) in enumerate(sets):
        kw = {"method": "obuchowski", "fpr": (lo[i], hi[i]),
              "alternative": "two-sided" if two[i] else "one-sided"}
        calls = [dict(sig_level=sig[i]), dict(power=pw[i], sig_level=sig[i]),
                 dict(power=pw[i], sig_level=sig[i], kappa=kap[i]),
                 dict(power=pw[i], sig_level=None)]
        fields = ["power", "n_cases", "n_controls", "sig_level"]
        for j, (call, name) in enumerate(zip(calls, fields, strict=True)):
            if np.isnan(want[i, j]):  # pROC could not (e.g. a variance that is not positive)
                with pytest.raises(ValueError):
                    power_roc_test_data(y, a, b, **kw, **call)
                continue
            res = power_roc_test_data(y, a, b, **kw, **call)
            np.testing.assert_allclose(getattr(res, name), want[i, j], rtol=1e-9, atol=0)
            np.testing.assert_allclose(res.auc, want[i, 4:], rtol=1e-9, atol=1e-15)
            compared += 1
    assert compared > 120


def test_whole_range_is_the_full_area():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 150)
    a, b = rng.normal(size=150) + y, rng.normal(size=150) + 0.5 * y
    full = power_roc_test_data(y, a, b, method="obuchowski", sig_level=0.05)
    whole = power_roc_test_data(y, a, b, method="obuchowski", fpr=(0, 1), sig_level=0.05)
    assert whole.power == pytest.approx(full.power, rel=1e-12)
    assert whole.auc == pytest.approx(full.auc, rel=1e-12)
    assert "partial areas over FPR [0, 1]" in whole.method


@pytest.mark.parametrize("kwargs, match", [
    ({"fpr": (0, 0.2)}, "fpr .*needs two curves"),
    ({"fpr": (0, 0.2), "score_b": True, "method": "delong"}, "needs method='obuchowski'"),
    ({"fpr": (0.2, 0.2), "score_b": True, "method": "obuchowski"}, "fpr"),
    ({"fpr": (0, 1.5), "score_b": True, "method": "obuchowski"}, "fpr"),
])
def test_partial_errors(kwargs, match):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 40)
    a, b = rng.normal(size=40) + y, rng.normal(size=40)
    if kwargs.pop("score_b", False):
        kwargs["score_b"] = b
    with pytest.raises(ValueError, match=match):
        power_roc_test_data(y, a, **kwargs)
