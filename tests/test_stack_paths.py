"""The fast paths of metrics over long stacks of tables (threshold sweeps, bootstrap stacks)
give every table the value computed from that table alone: Aickin's alpha (compiled
iteration, Aickin 1990), the p-value of accuracy against the no-information rate (tails
settled by Bernstein's inequality, the others by SciPy's incomplete beta function) and the
multi-class MCC of Yao et al. (2022) on 2 x 2 tables (from the four cells)."""

from __future__ import annotations

import math
import warnings

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import betainc
from scipy.stats import binom

import confmat
from confmat import deps
from confmat.metrics import Stats, evaluate
from confmat.metrics.significance import EXACT_TAIL_MAX_TABLES, settled_tail

#: stacks of more tables than this take the compiled Aickin iteration and SciPy's tails
LONG = max(EXACT_TAIL_MAX_TABLES, 4096) + 1


@st.composite
def stacks(draw, ks=(2, 3, 4)):
    """A stack of LONG+ tables with the awkward cases: zero cells, empty rows and columns,
    all-zero tables, counts up to about 1e14, and (weighted) float counts."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.sampled_from(ks))
    scale = draw(st.sampled_from([1, 10, 1000, 10**6, 10**12]))
    m = LONG + draw(st.integers(0, 300))
    t = rng.integers(0, 50, (m, k, k)) * scale
    t += np.eye(k, dtype=np.int64) * rng.integers(0, 100, (m, 1, 1)) * scale
    t[rng.random(t.shape) < draw(st.sampled_from([0.0, 0.1, 0.5]))] = 0
    some = rng.random(m) < 0.05
    t[some, rng.integers(0, k), :] = 0  # an empty row (a class never true)
    some = rng.random(m) < 0.05
    t[some, :, rng.integers(0, k)] = 0  # an empty column (a class never predicted)
    t[rng.random(m) < 0.01] = 0  # empty tables
    if draw(st.booleans()):
        return t * rng.uniform(0.0, 2.0, t.shape)  # sample weights: float sums
    return t


def _quiet(name, table, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(evaluate(name, Stats(table, zero_division="nan"), **kw))


def _picked(m, rng, n=60):
    return np.r_[np.arange(20), rng.choice(m, n, replace=False)]


# --------------------------------------------------------------------- Aickin's alpha
def _aickin_one(table, max_iter=200, eps=1e-4):
    """Aickin's (1990) fixed-point iteration on one table in numpy float64 scalars (IEEE
    arithmetic, x / 0 gives inf or nan), with PyCM's update and its divisions by pe and n
    hoisted out of the class loop (the order the compiled kernel documents); None where it
    diverges or does not converge."""
    f = np.float64
    table = np.asarray(table, dtype=np.float64)
    k = table.shape[0]
    n = f(table.sum())
    with np.errstate(all="ignore"):
        top = [f(v) / n for v in table.sum(axis=0)]
        p = [f(v) / n for v in table.sum(axis=1)]
        acc = f(np.trace(table)) / n
        pa, pb = list(top), list(p)
        a = f(0.0)
        step = 1
        while True:
            pe = f(0.0)
            for i in range(k):
                pe += pa[i] * pb[i]
            new = (acc - pe) / (f(1.0) - pe)
            wrong = not np.isfinite(new)
            previous = a
            a = a if wrong else new
            r = a / pe
            pa = [top[i] / ((f(1.0) - a) + r * pb[i]) for i in range(k)]
            pb = [p[i] / ((f(1.0) - a) + r * pa[i]) for i in range(k)]
            total = f(0.0)
            for i in range(k):
                total += pa[i] + pb[i]
            wrong = wrong or not np.isfinite(total) or abs(a) > 1.0
            converged = abs(a - previous) < eps
            if step > max_iter and not converged:
                wrong = True
            if converged or wrong or step > max_iter:
                return None if wrong else float(a)
            step += 1


@pytest.mark.skipif(deps.numba_module() is None, reason="the compiled iteration needs numba")
@settings(max_examples=12)
@given(stacks(), st.sampled_from([(200, 1e-4), (3, 1e-2)]))
def test_aickin_alpha_of_a_stack_is_each_tables_iteration(tables, params):
    max_iter, eps = params
    got = _quiet("aickin_alpha", tables, max_iter=max_iter, epsilon=eps)
    for i in _picked(len(tables), np.random.default_rng(len(tables))):
        want = _aickin_one(tables[i], max_iter, eps)
        if want is None:
            assert np.isnan(got[i]), (i, tables[i])
        else:
            assert got[i] == want, (i, tables[i])  # the same operations: the same bits


# --------------------------------------------------------------------- p-value
def _p_value_one(table):
    """P(X >= trace), X ~ Binomial(N, NIR), with SciPy (the path stacks took before)."""
    table = np.asarray(table)
    n = float(table.sum())
    if n == 0:
        return math.nan
    x = float(np.trace(table))
    nir = float(table.sum(axis=1).max()) / n
    return 1.0 if x <= 0 else float(betainc(x, n - x + 1.0, nir))


@settings(max_examples=20)
@given(stacks())
def test_p_value_of_a_stack_is_each_tables_tail(tables):
    got = _quiet("p_value", tables)
    want = np.array([_p_value_one(t) for t in tables])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0, equal_nan=True)
    if tables.dtype.kind == "i":  # and the binomial distribution's own tail
        n = tables.sum(axis=(1, 2))
        x = np.trace(tables, axis1=1, axis2=2)
        with np.errstate(invalid="ignore", divide="ignore"):
            sf = binom.sf(x - 1, n, tables.sum(axis=2).max(axis=1) / n)
        tiny = sf < 1e-290  # scipy.stats loses digits near the smallest doubles
        np.testing.assert_allclose(got[~tiny], sf[~tiny], rtol=1e-9, equal_nan=True)
        assert np.all(got[tiny] < 1e-280)


@settings(max_examples=15)
@given(st.integers(0, 2**32 - 1), st.integers(5_000, 300_000), st.floats(0.02, 0.98),
       st.floats(0.0, 3.0), st.sampled_from([None, 2, 3]))
def test_p_value_of_a_sweep_is_each_thresholds_tail(seed, n, prevalence, shift, digits):
    """Sweeps over many samples: most tails are 0 or 1 to the last bit, settled by the bound;
    exactly where SciPy says 0 (or within a unit in the last place of 1)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(np.int64)
    s = rng.normal(shift * y, 1.0)
    if digits is not None:
        s = s.round(digits)
    sweep = confmat.threshold_sweep(y, s)
    got = sweep.metric("p_value")
    x = (sweep.tp + sweep.tn).astype(np.float64)
    nir = max(int(y.sum()), n - int(y.sum())) / n
    want = np.where(x <= 0, 1.0, betainc(np.maximum(x, 1.0), n - x + 1.0, nir))
    if len(sweep) > EXACT_TAIL_MAX_TABLES:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
    else:  # summed term by term (standard library only): about 1e-12, subnormals aside
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-300)


def test_settled_tails_are_what_scipy_computes():
    """Wherever the bound settles a tail, SciPy's value is exactly 0, or 1 to within a unit
    in the last place; near the bound's edges the tails are left to SciPy."""
    rng = np.random.default_rng(5)
    n = np.round(10 ** rng.uniform(0, 9, 200_000))
    p = rng.choice([rng.uniform(0, 1, n.size), rng.uniform(0.99, 1.0, n.size),
                    np.full(n.size, 0.5), np.full(n.size, 1.0)], axis=0)[0]
    p = np.where(rng.random(n.size) < 0.5, rng.uniform(0.0, 1.0, n.size), p)
    sd = np.sqrt(n * p * (1 - p)) + 1.0
    x = np.clip(np.round(n * p + rng.normal(0, 50, n.size) * sd), 1, n)
    settled = settled_tail(x, n, p)
    scipy_tail = betainc(x, n - x + 1.0, p)
    zero = settled == 0.0
    one = settled == 1.0
    assert zero.sum() > 1000 and one.sum() > 1000 and np.isnan(settled).sum() > 1000
    assert np.all(scipy_tail[zero] == 0.0)
    assert np.all(scipy_tail[one] >= 1.0 - 2.3e-16)
    weighted = settled_tail(x + 0.5, n + 1.0, p)
    assert np.isnan(weighted).all()  # weighted tables: no bound, SciPy decides


# --------------------------------------------------------------------- Yao et al. (2022)
def _yao_one(table):
    """MCC of Yao et al. (2022) for one 2 x 2 table, exactly (Python fractions of the float
    cells), the square root at 50 digits; 0 for a zero denominator."""
    from fractions import Fraction

    (a, b), (c, d) = ((Fraction(float(v)) for v in row) for row in np.asarray(table))
    num = a * d - b * c
    den = (a + b) * (d + c) * (d + b) * (a + c)
    if den == 0 or num == 0:
        return 0.0
    with mpmath.workdps(50):
        return float(mpmath.mpf(num.numerator) / mpmath.mpf(num.denominator)
                     / mpmath.sqrt(mpmath.mpf(den.numerator) / mpmath.mpf(den.denominator)))


@settings(max_examples=20)
@given(stacks(ks=(2,)))
def test_mcc_yao2022_of_a_stack_of_two_class_tables(tables):
    got = _quiet("mcc_yao2022", tables)
    for i in _picked(len(tables), np.random.default_rng(1), 200):
        # integer tables: exact where the logs cancel; float tables: logs only, so near
        # cancellation an absolute error of a few 1e-13
        assert got[i] == pytest.approx(_yao_one(tables[i]), rel=1e-9, abs=1e-11), tables[i]


def test_two_class_logs_are_the_general_paths_to_the_last_bit():
    """The four-cell logs of 2 x 2 tables add the same logs in the same order as the K x K
    path, so a stack's values did not change when it took the shorter path."""
    from confmat.metrics import overall

    rng = np.random.default_rng(11)
    for tables in (rng.integers(0, 5, (50_000, 2, 2)), rng.integers(0, 10**9, (50_000, 2, 2)),
                   rng.random((50_000, 2, 2)) * 10.0 ** rng.integers(-3, 12, (50_000, 1, 1))):
        for mine, general in zip(overall._yao_logs_binary(tables), overall._yao_logs(tables),
                                 strict=True):
            np.testing.assert_array_equal(mine, general)
