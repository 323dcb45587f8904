"""Power and sample size (confmat.inference.power) against pROC's ``power.roc.test``, run
through Rscript on random settings and data sets (1e-9 relative)."""

from __future__ import annotations

import numpy as np
import pytest

from confmat.inference.power import power_roc_test, power_roc_test_binormal
from confmat.inference.power_data import power_roc_test_data
from proc_oracle import proc  # noqa: F401  (the fixture)

RTOL = 1e-9

R_NUMERIC = r"""
k <- length(auc); res <- matrix(NA, k, 5)
for (i in seq_len(k)) {
  alt <- ifelse(two[i] == 1, "two.sided", "one.sided")
  res[i, 1] <- power.roc.test(auc = auc[i], kappa = kap[i], sig.level = sig[i], power = pw[i],
                              alternative = alt)$ncases
  res[i, 2] <- power.roc.test(auc = auc[i], ncases = nc[i], ncontrols = nn[i],
                              sig.level = sig[i], alternative = alt)$power
  res[i, 3] <- power.roc.test(auc = auc[i], ncases = nc[i], ncontrols = nn[i], power = pw[i],
                              sig.level = NULL, alternative = alt)$sig.level
  a <- tryCatch(power.roc.test(ncases = nc[i], ncontrols = nn[i], power = pw[i],
                               sig.level = sig[i], alternative = alt)$auc,
                error = function(e) NA)
  res[i, 4] <- a
  # the power pROC gives at confmat's solved AUC
  res[i, 5] <- power.roc.test(auc = mine[i], ncases = nc[i], ncontrols = nn[i],
                              sig.level = sig[i], alternative = alt)$power
}
out <- list(n = res[, 1], power = res[, 2], sig = res[, 3], auc = res[, 4], back = res[, 5])
"""


def test_one_curve_numeric_matches_proc(proc):  # noqa: F811
    rng = np.random.default_rng(7)
    k = 150
    auc = rng.uniform(0.55, 0.97, k)
    nc = rng.integers(5, 400, k).astype(float)
    nn = np.round(nc * rng.uniform(0.3, 3, k))
    kap = rng.uniform(0.3, 3, k)
    sig = rng.uniform(0.005, 0.15, k)
    pw = rng.uniform(0.5, 0.99, k)
    two = rng.integers(0, 2, k)
    mine = []
    for i in range(k):
        alt = "two-sided" if two[i] else "one-sided"
        try:
            mine.append(power_roc_test(n_cases=nc[i], n_controls=nn[i], power=pw[i],
                                       sig_level=sig[i], alternative=alt).auc[0])
        except ValueError:
            mine.append(0.9)
    mine_a = np.array(mine)
    r = proc(R_NUMERIC, auc=auc, nc=nc, nn=nn, kap=kap, sig=sig, pw=pw, two=two, mine=mine_a)
    solved = 0
    for i in range(k):
        alt = "two-sided" if two[i] else "one-sided"
        got_n = power_roc_test(auc=auc[i], kappa=kap[i], sig_level=sig[i], power=pw[i],
                               alternative=alt)
        np.testing.assert_allclose(got_n.n_cases, r["n"][i], rtol=RTOL)
        np.testing.assert_allclose(got_n.n_controls, kap[i] * r["n"][i], rtol=RTOL)
        got_p = power_roc_test(auc=auc[i], n_cases=nc[i], n_controls=nn[i], sig_level=sig[i],
                               alternative=alt)
        np.testing.assert_allclose(got_p.power, r["power"][i], rtol=RTOL)
        got_s = power_roc_test(auc=auc[i], n_cases=nc[i], n_controls=nn[i], power=pw[i],
                               sig_level=None, alternative=alt)
        np.testing.assert_allclose(got_s.sig_level, r["sig"][i], rtol=RTOL)
        if np.isnan(r["auc"][i]):
            continue
        solved += 1
        # pROC solves the AUC with uniroot's default tolerance (about 1e-4); confmat to machine
        # precision: pROC's own power at confmat's AUC is the requested power
        assert abs(mine_a[i] - r["auc"][i]) < 2e-4
        np.testing.assert_allclose(r["back"][i], pw[i], rtol=RTOL)
    assert solved > 50


R_BINORMAL = r"""
k <- length(A1); res <- matrix(NA, k, 4)
for (i in seq_len(k)) {
  alt <- ifelse(two[i] == 1, "two.sided", "one.sided")
  L <- list(A1 = A1[i], B1 = B1[i], A2 = A2[i], B2 = B2[i], rn = rn[i], ra = ra[i],
            delta = delta[i])
  if (part[i] == 1) L <- c(L, list(FPR11 = f1[i], FPR12 = f2[i], FPR21 = f1[i], FPR22 = f2[i]))
  res[i, 1] <- power.roc.test(L, kappa = kap[i], power = pw[i], sig.level = sig[i],
                              alternative = alt)$ncases
  res[i, 2] <- power.roc.test(L, ncases = nc[i], ncontrols = nn[i], sig.level = sig[i],
                              alternative = alt)$power
  res[i, 3] <- power.roc.test(L, ncases = nc[i], ncontrols = nn[i], power = pw[i],
                              sig.level = NULL, alternative = alt)$sig.level
  L$delta <- mine[i]
  res[i, 4] <- power.roc.test(L, ncases = nc[i], ncontrols = nn[i], sig.level = sig[i],
                              alternative = alt)$power
}
out <- list(n = res[, 1], power = res[, 2], sig = res[, 3], back = res[, 4])
"""


def test_two_curves_binormal_matches_proc(proc):  # noqa: F811
    rng = np.random.default_rng(11)
    k = 120
    a1, a2 = rng.uniform(0.3, 2.5, k), rng.uniform(0.3, 2.5, k)
    b1, b2 = rng.uniform(0.4, 1.8, k), rng.uniform(0.4, 1.8, k)
    rn, ra = rng.uniform(-0.2, 0.9, k), rng.uniform(-0.2, 0.9, k)
    delta = rng.uniform(0.02, 0.2, k)
    part = rng.integers(0, 2, k)
    f1 = rng.uniform(0, 0.3, k)
    f2 = f1 + rng.uniform(0.05, 0.5, k)
    nc = rng.integers(20, 500, k).astype(float)
    nn = np.round(nc * rng.uniform(0.3, 3, k))
    kap = rng.uniform(0.3, 3, k)
    sig = rng.uniform(0.005, 0.15, k)
    pw = rng.uniform(0.5, 0.99, k)
    two = rng.integers(0, 2, k)

    def call(i: int, **kw):
        fpr = {"fpr1": (f1[i], f2[i]), "fpr2": (f1[i], f2[i])} if part[i] else {}
        base = {"a1": a1[i], "b1": b1[i], "a2": a2[i], "b2": b2[i], "rn": rn[i], "ra": ra[i],
                "alternative": "two-sided" if two[i] else "one-sided"}
        return power_roc_test_binormal(**base, **fpr, **kw)

    def solved_delta(i: int) -> float:
        try:
            return call(i, delta=None, n_cases=nc[i], n_controls=nn[i], power=pw[i],
                        sig_level=sig[i]).delta
        except ValueError:
            return 0.1

    mine = np.array([solved_delta(i) for i in range(k)])
    r = proc(R_BINORMAL, A1=a1, B1=b1, A2=a2, B2=b2, rn=rn, ra=ra, delta=delta, part=part,
             f1=f1, f2=f2, nc=nc, nn=nn, kap=kap, sig=sig, pw=pw, two=two, mine=mine)
    valid = 0
    for i in range(k):
        checks = [
            ("n", "n_cases", {"delta": delta[i], "kappa": kap[i], "power": pw[i],
                              "sig_level": sig[i]}),
            ("power", "power", {"delta": delta[i], "n_cases": nc[i], "n_controls": nn[i],
                                "sig_level": sig[i]}),
            ("sig", "sig_level", {"delta": delta[i], "n_cases": nc[i], "n_controls": nn[i],
                                  "power": pw[i], "sig_level": None}),
        ]
        for key, attr, kw in checks:
            if np.isnan(r[key][i]):  # a negative variance: pROC gives NaN, confmat an error
                with pytest.raises(ValueError, match="not positive"):
                    call(i, **kw)
                continue
            valid += 1
            np.testing.assert_allclose(getattr(call(i, **kw), attr), r[key][i], rtol=RTOL)
        if not np.isnan(r["power"][i]):
            # pROC cannot solve delta: its power at confmat's delta is the requested power
            np.testing.assert_allclose(r["back"][i], pw[i], rtol=RTOL)
    assert valid > 200


R_DATA = r"""
ends <- cumsum(lens); starts <- ends - lens + 1; res <- matrix(NA, length(lens), 8)
for (i in seq_along(lens)) {
  j <- starts[i]:ends[i]
  r1 <- roc(y[j], a[j], levels = c(0, 1), direction = "<", quiet = TRUE)
  r2 <- roc(y[j], b[j], levels = c(0, 1), direction = "<", quiet = TRUE)
  m <- ifelse(ob[i] == 1, "obuchowski", "delong")
  alt <- ifelse(two[i] == 1, "two.sided", "one.sided")
  res[i, 1] <- power.roc.test(r1, r2, method = m, sig.level = sig[i], alternative = alt)$power
  res[i, 2] <- power.roc.test(r1, r2, method = m, power = pw[i], sig.level = sig[i],
                              alternative = alt)$ncases
  res[i, 3] <- power.roc.test(r1, r2, method = m, power = pw[i], sig.level = sig[i],
                              kappa = kap[i], alternative = alt)$ncontrols
  res[i, 4] <- power.roc.test(r1, r2, method = m, power = pw[i], sig.level = NULL,
                              alternative = alt)$sig.level
  res[i, 5] <- power.roc.test(r1, sig.level = sig[i], alternative = alt)$power
  res[i, 6] <- power.roc.test(r1, power = pw[i], sig.level = sig[i], alternative = alt)$ncases
  res[i, 7] <- power.roc.test(r1, power = pw[i], sig.level = sig[i], kappa = kap[i],
                              alternative = alt)$ncontrols
  res[i, 8] <- power.roc.test(r1, power = pw[i], sig.level = NULL, alternative = alt)$sig.level
}
out <- list(res = as.vector(t(res)))
"""


def test_from_data_matches_proc(proc):  # noqa: F811
    rng = np.random.default_rng(5)
    k = 60
    sets = []
    for _ in range(k):
        n = int(rng.integers(20, 300))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        a = rng.normal(size=n) + rng.uniform(0.3, 2) * y
        b = rng.uniform(0, 1) * a + rng.normal(size=n) + rng.uniform(0, 1.5) * y
        if rng.random() < 0.3:
            a, b = np.round(a, 1), np.round(b, 1)
        sets.append((y, a, b))
    ob, two = rng.integers(0, 2, k), rng.integers(0, 2, k)
    sig, pw, kap = rng.uniform(0.01, 0.1, k), rng.uniform(0.5, 0.95, k), rng.uniform(0.5, 2, k)
    r = proc(R_DATA, y=np.concatenate([s[0] for s in sets]),
             a=np.concatenate([s[1] for s in sets]), b=np.concatenate([s[2] for s in sets]),
             lens=[len(s[0]) for s in sets], ob=ob, two=two, sig=sig, pw=pw, kap=kap)
    want = r["res"].reshape(k, 8)
    for i, (y, a, b) in enumerate(sets):
        kw = {"method": "obuchowski" if ob[i] else "delong",
              "alternative": "two-sided" if two[i] else "one-sided"}
        one = {"alternative": kw["alternative"]}
        got = [
            power_roc_test_data(y, a, b, sig_level=sig[i], **kw).power,
            power_roc_test_data(y, a, b, power=pw[i], sig_level=sig[i], **kw).n_cases,
            power_roc_test_data(y, a, b, power=pw[i], sig_level=sig[i], kappa=kap[i],
                                **kw).n_controls,
            power_roc_test_data(y, a, b, power=pw[i], sig_level=None, **kw).sig_level,
            power_roc_test_data(y, a, sig_level=sig[i], **one).power,
            power_roc_test_data(y, a, power=pw[i], sig_level=sig[i], **one).n_cases,
            power_roc_test_data(y, a, power=pw[i], sig_level=sig[i], kappa=kap[i],
                                **one).n_controls,
            power_roc_test_data(y, a, power=pw[i], sig_level=None, **one).sig_level,
        ]
        np.testing.assert_allclose(got, want[i], rtol=RTOL)


def test_string_labels_through_the_door():
    y = np.array(["ill", "well", "ill", "well", "ill", "well", "well", "ill"])
    a = [0.9, 0.2, 0.7, 0.4, 0.3, 0.1, 0.5, 0.8]
    num = power_roc_test_data((y == "ill").astype(int), a)
    lab = power_roc_test_data(y, a, pos_label="ill")
    assert lab.power == num.power and lab.n_cases == 4
    with pytest.raises(ValueError, match="pos_label"):
        power_roc_test_data(y, a)


def test_hand_worked_one_curve():
    # AUC 0.5 + 0.1 with n = 100 cases = controls, two-sided 5 %: Obuchowski's formula by hand
    from math import erf, exp, sqrt

    from scipy.stats import norm

    theta, n = 0.6, 100.0
    a = norm.ppf(theta) * 1.414
    va = 0.0099 * exp(-a * a / 2) * ((5 * a * a + 8) + (a * a + 8))
    zb = (sqrt(n * 0.01) - norm.ppf(0.975) * sqrt(0.0792 * 2)) / sqrt(va)
    want = 0.5 * (1 + erf(zb / sqrt(2)))
    got = power_roc_test(auc=theta, n_cases=n, n_controls=n)
    assert got.solved == "power"
    assert abs(got.power - want) < 1e-12


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"auc": 0.8}, ValueError, "exactly one"),
    ({"auc": 0.8, "n_cases": 10, "power": 0.8, "sig_level": 0.05}, ValueError, "exactly one"),
    ({"auc": 1.5, "power": 0.8}, ValueError, "auc"),
    ({"auc": 0.8, "power": 1.2}, ValueError, "power"),
    ({"auc": 0.8, "power": "high"}, TypeError, "power"),
    ({"auc": 0.8, "n_cases": -3}, ValueError, "n_cases"),
    ({"auc": 0.8, "power": 0.8, "kappa": 0}, ValueError, "kappa"),
    ({"auc": 0.8, "power": 0.8, "alternative": "less"}, ValueError, "alternative"),
    ({"n_cases": 3, "n_controls": 3, "power": 0.999999, "sig_level": 1e-9}, ValueError,
     "could not be solved"),
])
def test_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        power_roc_test(**kwargs)


def test_data_errors():
    with pytest.raises(ValueError, match="both classes"):
        power_roc_test_data([1, 1, 1], [0.1, 0.2, 0.3], pos_label=1)
    with pytest.raises(ValueError, match="method"):
        power_roc_test_data([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [1, 2, 3, 4], method="boot")
    with pytest.raises(ValueError, match="sig_level, power"):
        power_roc_test_data([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [1, 2, 3, 4], sig_level=None)
    with pytest.raises(ValueError, match="score_b"):
        power_roc_test_data([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [1, 2, 3])
    with pytest.raises(ValueError, match="sample_weight"):
        power_roc_test_data([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], sample_weight=[1, 2, 1, 2])
    with pytest.raises(ValueError, match="fpr1 and fpr2"):
        power_roc_test_binormal(a1=1, b1=1, a2=1, b2=1, rn=0, ra=0, delta=0.1, power=0.8,
                                fpr1=(0, 0.2))
