"""The normal distribution and the binomial tail take a standard-library path for one table and
a compiled SciPy path for long stacks (threshold sweeps); both give the oracle's numbers."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import confmat
from confmat.metrics.normal import VECTOR_MIN, norm_cdf, z_quantile
from confmat.metrics.significance import EXACT_TAIL_MAX_TABLES


@pytest.mark.parametrize("size", [VECTOR_MIN // 2, VECTOR_MIN * 4])
def test_both_paths_agree_with_scipy_stats(size):
    rng = np.random.default_rng(size)
    p = np.r_[rng.random(size - 4), 0.0, 1.0, -0.5, np.nan]
    want = stats.norm.ppf(p)  # ppf: nan outside [0, 1], -inf / inf at the ends
    np.testing.assert_allclose(z_quantile(p), want, rtol=1e-14, equal_nan=True)
    x = rng.normal(0, 3, size)
    np.testing.assert_allclose(norm_cdf(x), stats.norm.cdf(x), rtol=1e-13)


@pytest.mark.parametrize("n,digits", [(300, 2), (20_000, 4)])
def test_p_value_of_a_sweep_is_the_binomial_tail(n, digits):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, n)
    s = rng.random(n).round(digits)
    sweep = confmat.threshold_sweep(y, s)
    # the first sweep is summed term by term, the second takes the compiled stack path
    assert (sweep.tp.size > EXACT_TAIL_MAX_TABLES) == (n > 300)
    got = sweep.metric("p_value")
    tab = sweep.tables
    n = tab.sum(axis=(1, 2))
    correct = tab[:, 0, 0] + tab[:, 1, 1]
    nir = tab.sum(axis=2).max(axis=1) / n
    want = stats.binom.sf(correct - 1, n, nir)  # P(X >= correct)
    np.testing.assert_allclose(got, want, rtol=1e-9)
