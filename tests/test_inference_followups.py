"""Follow-ups of the inference probe (tests/test_inference_oracles.py):

* a float32 (or float16) confidence level is the decimal it prints as (``np.float32(0.95)``
  is 0.95, not 0.949999988): the oracle is the float32 itself (the returned float64 rounds
  back to it, and is the shortest decimal that does) and statsmodels' ``proportion_confint``
  at ``alpha = 0.05``;
* ``power_roc_test``: an AUC below 0.5 is as far from 0.5 as its mirror ``1 - AUC`` (pROC's
  ``power.roc.test`` through Rscript is the oracle; the test FAILS under ``CI`` without R);
  AUC 0 and 1, where Obuchowski's (2004) variance is undefined, are refused;
* ``TestResult`` is not collected by pytest (no ``PytestCollectionWarning`` under
  ``--doctest-modules``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.proportion import proportion_confint

from confmat import ConfusionMatrix
from confmat.inference.common import check_level
from confmat.inference.paired import TestResult
from confmat.inference.power import power_roc_test
from confmat.inference.power_data import power_roc_test_data
from proc_oracle import proc  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------- float32 levels
@pytest.mark.parametrize(("level", "expected"), [
    (np.float32(0.95), 0.95), (np.float32(0.9), 0.9), (np.float32(0.99), 0.99),
    (np.float16(0.9), 0.9), (np.float32(0.999), 0.999), (np.float64(0.95), 0.95),
    (0.95, 0.95), (np.longdouble("0.95"), 0.95),
])
def test_narrow_float_levels_are_their_decimal(level, expected):
    assert check_level(level) == expected  # the decimal written, by hand


@settings(max_examples=300, deadline=None)
@given(st.floats(0.0, 1.0, width=32, exclude_min=True, exclude_max=True))
def test_float32_level_is_the_shortest_decimal_of_that_float32(x):
    level = np.float32(x)
    got = check_level(level)
    # the oracle, by brute force: the decimal of fewest significant digits that rounds to
    # the user's float32 (Steele & White 1990's shortest round-trip), read as float64
    shortest = next(float(f"{float(level):.{d}g}") for d in range(1, 18)
                    if np.float32(float(f"{float(level):.{d}g}")) == level)
    assert got == shortest


@pytest.mark.parametrize("method", ["wilson", "clopper_pearson", "agresti_coull", "wald"])
def test_ci_at_a_float32_level_is_statsmodels_at_the_decimal_level(method):
    cm = ConfusionMatrix([[40, 10], [5, 45]])
    ci = cm.ci("accuracy", method=method, level=np.float32(0.95))
    sm = {"wilson": "wilson", "clopper_pearson": "beta", "agresti_coull": "agresti_coull",
          "wald": "normal"}[method]
    low, high = proportion_confint(85, 100, alpha=0.05, method=sm)
    assert ci.level == 0.95
    assert (ci.low, ci.high) == pytest.approx((low, high), rel=1e-12)


def test_float32_sig_level_and_power_are_their_decimal():
    a = power_roc_test(auc=0.8, n_cases=20, n_controls=30, sig_level=np.float32(0.05))
    b = power_roc_test(auc=0.8, n_cases=20, n_controls=30, sig_level=0.05)
    assert a.sig_level == 0.05 and a.power == b.power
    c = power_roc_test(auc=0.8, power=np.float32(0.9))
    assert c.power == 0.9 and c.n_cases == power_roc_test(auc=0.8, power=0.9).n_cases


# ----------------------------------------------------------------- AUC below 0.5
R_MIRROR = r"""
k <- length(auc); res <- matrix(NA, k, 2)
for (i in seq_len(k)) {
  res[i, 1] <- power.roc.test(auc = auc[i], ncases = nc[i], ncontrols = nn[i])$power
  res[i, 2] <- power.roc.test(auc = auc[i], kappa = 1.5, power = 0.8)$ncases
}
out <- list(power = res[, 1], n = res[, 2])
"""


def test_auc_below_one_half_is_procs_power_roc_test(proc):  # noqa: F811
    rng = np.random.default_rng(5)
    auc = np.concatenate([rng.uniform(0.03, 0.47, 20), [0.3, 0.7]])
    nc = rng.integers(10, 300, auc.size).astype(float)
    nn = np.round(nc * rng.uniform(0.5, 2.0, auc.size))
    r = proc(R_MIRROR, auc=auc, nc=nc, nn=nn)
    for i, theta in enumerate(auc):
        got = power_roc_test(auc=theta, n_cases=nc[i], n_controls=nn[i])
        assert got.power == pytest.approx(r["power"][i], rel=1e-9)
        got_n = power_roc_test(auc=theta, kappa=1.5, power=0.8)
        assert got_n.n_cases == pytest.approx(r["n"][i], rel=1e-9)
        # the mirror 1 - theta, as the docstring says
        mirror = power_roc_test(auc=1.0 - theta, n_cases=nc[i], n_controls=nn[i])
        assert got.power == pytest.approx(mirror.power, rel=1e-9)


@pytest.mark.parametrize("auc", [0.0, 1.0, -0.1, 1.5, np.float32(1.0)])
def test_auc_outside_the_open_unit_interval_is_refused(auc):
    with pytest.raises(ValueError, match=r"auc must be in \(0, 1\)"):
        power_roc_test(auc=auc, n_cases=20, n_controls=30)


@pytest.mark.parametrize("scores", [[0.1, 0.2, 0.8, 0.9], [0.9, 0.8, 0.2, 0.1]])
def test_separated_classes_name_the_scores_in_the_power_from_data(scores):
    # AUC 1 (or 0) by hand: every positive above (below) every negative
    with pytest.raises(ValueError, match=r"AUC of score_a is [01]\.0"):
        power_roc_test_data([0, 0, 1, 1], scores)


def test_power_docstring_says_what_the_function_does():
    doc = " ".join((power_roc_test.__doc__ or "").split())
    assert "auc : float in (0, 1)" in doc
    assert "below 0.5" in doc and "1 - auc" in doc
    assert "auc : float in (0.5, 1)" not in doc


# --------------------------------------------------------------------- TestResult
def test_test_result_is_not_collected_by_pytest():
    assert TestResult.__test__ is False
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
         "--collect-only", "--doctest-modules", "-W", "error::pytest.PytestCollectionWarning",
         str(ROOT / "src" / "confmat" / "inference" / "paired.py")],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "PytestCollectionWarning" not in res.stdout + res.stderr
    assert "paired.py" in res.stdout
