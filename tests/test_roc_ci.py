"""Bootstrap intervals of the ROC curve (roc_ci, partial_auc_ci) against pROC.

Exact comparison: R draws the resamples (``set.seed`` then pROC's ``ci.se`` / ``ci.sp`` /
``ci.thresholds`` / ``ci.auc``), the same seed replays pROC's ``sample`` calls to export the
resample indices, and confmat's vectorised kernel evaluates those very resamples: the
quantiles must agree to 1e-9. A second comparison runs both tools with their own random
numbers and checks agreement within Monte-Carlo error.
"""

from __future__ import annotations

import numpy as np
import pytest

from confmat.curves.partial import partial_auc
from confmat.inference.roc_boot import ScoreGroups, percentile_rows
from confmat.inference.roc_ci import partial_auc_ci, roc_ci
from proc_oracle import proc  # noqa: F401  (the fixture)

R_EXACT = r"""
r <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
nc <- length(r$controls); np_ <- length(r$cases)
set.seed(7); a <- ci.se(r, specificities = sp, boot.n = B)
set.seed(7); b <- ci.sp(r, sensitivities = se, boot.n = B)
set.seed(7); d <- ci.thresholds(r, thresholds = th, boot.n = B)
set.seed(7); e <- ci.auc(r, method = "bootstrap", boot.n = B)
r2 <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE, partial.auc = c(1, 0.8),
          partial.auc.focus = "specificity", partial.auc.correct = TRUE)
set.seed(7); f <- ci.auc(r2, method = "bootstrap", boot.n = B)
r3 <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE, partial.auc = c(1, 0.9),
          partial.auc.focus = "sensitivity")
set.seed(7); g <- ci.auc(r3, method = "bootstrap", boot.n = B)
set.seed(7)
ic <- matrix(0L, B, nc); ip <- matrix(0L, B, np_)
for (i in 1:B) { ic[i, ] <- sample.int(nc, replace = TRUE); ip[i, ] <- sample.int(np_, replace = TRUE) }
out <- list(se = as.numeric(t(a)), sp = as.numeric(t(b)),
            th_sp = as.numeric(t(d$specificity)), th_se = as.numeric(t(d$sensitivity)),
            auc = as.numeric(e), pauc_sp = as.numeric(f), pauc_se = as.numeric(g),
            ic = as.numeric(t(ic)), ip = as.numeric(t(ip)))
"""


def _data(seed: int, n: int, ties: bool) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + 1.2 * y
    if ties:
        s = np.round(s, 1)
    return y, s


@pytest.mark.parametrize("seed, n, ties", [(1, 80, False), (2, 150, True), (3, 40, True)])
def test_same_resamples_as_proc(proc, seed, n, ties):  # noqa: F811
    y, s = _data(seed, n, ties)
    rng = np.random.default_rng(seed + 100)
    # the grid hits exact rates (k / N) as well as points between them
    sp = np.r_[np.linspace(0, 1, 11), rng.random(5)]
    se = np.r_[np.linspace(0, 1, 11), rng.random(5)]
    th = np.r_[np.quantile(s, [0.1, 0.5, 0.9]), s[3], s[7], -10.0, 10.0]
    b = 300
    r = proc(R_EXACT, y=y, s=s, sp=sp, se=se, th=th, B=[b])
    pos = y == 1
    groups = ScoreGroups.build(pos, s.astype(float))
    ic = r["ic"].astype(np.int64).reshape(b, -1) - 1
    ip = r["ip"].astype(np.int64).reshape(b, -1) - 1
    curves = groups.stratified_curves(ic, ip)

    def quant(values: np.ndarray) -> np.ndarray:
        lo, med, hi, used = percentile_rows(values, 0.95)
        assert used == b
        return np.stack([lo, med, hi], axis=1).ravel()

    np.testing.assert_allclose(quant(curves.at_specificity(sp)), r["se"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(quant(curves.at_sensitivity(se)), r["sp"], rtol=1e-9, atol=1e-12)
    k = np.searchsorted(-groups.scores, -th, side="right")
    se_t, sp_t = curves.at_groups(k)
    np.testing.assert_allclose(quant(se_t), r["th_se"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(quant(sp_t), r["th_sp"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(quant(curves.auc()[:, None]), r["auc"], rtol=1e-9)
    pa = curves.partial_auc("specificity", 0.8, 1.0, True)[:, None]
    np.testing.assert_allclose(quant(pa), r["pauc_sp"], rtol=1e-9)
    pa = curves.partial_auc("sensitivity", 0.9, 1.0, False)[:, None]
    np.testing.assert_allclose(quant(pa), r["pauc_se"], rtol=1e-9, atol=1e-15)


R_MC = r"""
r <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
set.seed(11)
a <- ci.se(r, specificities = sp, boot.n = B, boot.stratified = strat[1] == 1)
r2 <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE, partial.auc = c(1, 0.8))
f <- ci.auc(r2, method = "bootstrap", boot.n = B, boot.stratified = strat[1] == 1)
out <- list(se = as.numeric(t(a)), pauc = as.numeric(f),
            est = coords(r, sp, input = "specificity", ret = "sensitivity")[, 1])
"""


@pytest.mark.parametrize("stratified", [True, False])
def test_monte_carlo_agreement_with_proc(proc, stratified):  # noqa: F811
    # Independent random numbers: each percentile bound has a Monte-Carlo standard deviation
    # of about sqrt(q (1 - q) / B) / f(x_q). Here the bootstrap distribution of a sensitivity
    # (P ~ 300) has sd ~ 0.027, so at q = 0.025, B = 4000: ~0.0025 / 0.058 * 0.027 ~ 0.0012
    # per tool, 0.0017 for the difference; 0.012 is seven of them (rate grid steps 1/P add
    # at most 0.0033 more).
    y, s = _data(4, 600, False)
    sp = np.array([0.5, 0.8, 0.9, 0.95])
    b = 4000
    r = proc(R_MC, y=y, s=s, sp=sp, B=[b], strat=[int(stratified)])
    ci = roc_ci(y, s, specificities=sp, n_resamples=b, random_state=3, stratified=stratified)
    assert ci.sensitivity is not None
    np.testing.assert_allclose(ci.sensitivity.estimate, r["est"], rtol=1e-12)
    want = r["se"].reshape(-1, 3)
    np.testing.assert_allclose(ci.sensitivity.low, want[:, 0], atol=0.012)
    np.testing.assert_allclose(ci.sensitivity.median, want[:, 1], atol=0.012)
    np.testing.assert_allclose(ci.sensitivity.high, want[:, 2], atol=0.012)
    p = partial_auc_ci(y, s, specificity=(0.8, 1), n_resamples=b, random_state=3,
                       stratified=stratified)
    assert p.estimate == pytest.approx(r["pauc"][1], abs=0.004)  # pROC's middle is a median
    np.testing.assert_allclose([p.low, p.high], r["pauc"][[0, 2]], atol=0.004)


def test_estimates_are_the_sample_curve():
    y, s = _data(5, 120, True)
    ci = partial_auc_ci(y, s, sensitivity=(0.9, 1), correct=True, n_resamples=200,
                        random_state=0)
    assert ci.estimate == partial_auc(y, s, sensitivity=(0.9, 1), correct=True)
    full = partial_auc_ci(y, s, n_resamples=200, random_state=0)
    from sklearn.metrics import roc_auc_score
    assert full.estimate == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    # thresholds: rates at a threshold by direct counting
    t = np.array([-0.5, 0.3, 1.1])
    ci_t = roc_ci(y, s, thresholds=t, n_resamples=200, random_state=0)
    assert ci_t.sensitivity is not None and ci_t.specificity is not None
    want_se = [(s[y == 1] >= v).mean() for v in t]
    want_sp = [(s[y == 0] < v).mean() for v in t]
    np.testing.assert_allclose(ci_t.sensitivity.estimate, want_se, rtol=1e-12)
    np.testing.assert_allclose(ci_t.specificity.estimate, want_sp, rtol=1e-12)


def test_reproducible_and_labels():
    y, s = _data(6, 100, False)
    lab = np.where(y == 1, "case", "control")
    a = roc_ci(y, s, sensitivities=[0.5, 0.9], n_resamples=300, random_state=5)
    b = roc_ci(lab, s, sensitivities=[0.5, 0.9], n_resamples=300, random_state=5,
               pos_label="case")
    assert a.specificity is not None and b.specificity is not None
    np.testing.assert_array_equal(a.specificity.low, b.specificity.low)
    assert a.to_dict()["given"] == "sensitivity"


@pytest.mark.parametrize("kw, err, msg", [
    ({}, ValueError, "exactly one"),
    ({"specificities": [0.5], "thresholds": [0.1]}, ValueError, "exactly one"),
    ({"specificities": [1.5]}, ValueError, "specificities must lie within"),
    ({"sensitivities": ["a"]}, TypeError, "sensitivities must be"),
    ({"specificities": [0.5], "sample_weight": [1.0] * 6}, ValueError, "sample_weight"),
    ({"specificities": [0.5], "stratified": "yes"}, TypeError, "stratified"),
    ({"specificities": [0.5], "n_resamples": 10}, ValueError, "n_resamples"),
])
def test_roc_ci_errors(kw, err, msg):
    with pytest.raises(err, match=msg):
        roc_ci([0, 1, 0, 1, 1, 0], [0.1, 0.5, 0.3, 0.9, 0.2, 0.4], **kw)


def test_one_class_is_an_error():
    with pytest.raises(ValueError, match="both classes"):
        roc_ci([1, 1, 1], [0.1, 0.2, 0.3], specificities=0.5, pos_label=1)
    with pytest.raises(ValueError, match="sample_weight"):
        partial_auc_ci([0, 1], [0.1, 0.2], sample_weight=[1, 1])
