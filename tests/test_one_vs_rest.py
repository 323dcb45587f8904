"""One-vs-rest counts of weighted tables (FN, FP, TN of each class) are the exact sums of their
cells rounded once: the oracle is ``fractions.Fraction`` (a float is a binary fraction, so its
``Fraction`` is exact and a sum of them is exact), rounded by ``float(Fraction)``, on random
tables whose cells spread over many orders of magnitude; the per-class registry metrics built
on them against the exact oracles of ``tests/exact_oracles.py``."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat import ConfusionMatrix
from confmat.metrics import Stats, get_metric
from confmat.metrics.one_vs_rest import one_vs_rest
from exact_oracles import IRRATIONAL_OVERALL, OVERALL, PER_CLASS, agrees, value


def _exact_counts(table: np.ndarray, k: int) -> list[list[float]]:
    """FN, FP, TN of the first ``k`` classes: Fraction sums of the cells, rounded once."""
    m = table.shape[0]
    f = [[Fraction(float(x)) for x in row] for row in table]
    fn = [sum((f[i][j] for j in range(m) if j != i), Fraction(0)) for i in range(k)]
    fp = [sum((f[j][i] for j in range(m) if j != i), Fraction(0)) for i in range(k)]
    tn = [sum((f[a][b] for a in range(m) for b in range(m) if i not in (a, b)), Fraction(0))
          for i in range(k)]
    return [[float(x) for x in c] for c in (fn, fp, tn)]


def _cell(lo: int, hi: int) -> st.SearchStrategy[float]:
    """0, a float 2**e * mantissa with e in [lo, hi], a subnormal, or a short decimal."""
    spread = st.builds(math.ldexp, st.floats(0.5, 1.0, exclude_max=True), st.integers(lo, hi))
    options = [st.just(0.0), spread, spread,
               st.integers(0, 1000).map(lambda i: i / 10), st.integers(0, 50).map(float)]
    if lo <= -1074:
        options.append(st.integers(1, 2**52).map(lambda i: math.ldexp(i, -1074)))
    return st.one_of(options)


@st.composite
def _tables(draw, lo: int = -1100, hi: int = 1000, max_m: int = 6):
    m = draw(st.integers(1, max_m), label="M")
    batch = draw(st.integers(1, 3), label="tables")
    cells = draw(st.lists(_cell(lo, hi), min_size=batch * m * m, max_size=batch * m * m))
    k = draw(st.integers(0, m), label="k")
    return np.array(cells, dtype=np.float64).reshape(batch, m, m), k


@settings(max_examples=300, deadline=None)
@given(case=_tables())
def test_counts_are_exact_sums_rounded_once(case):
    stack, k = case
    fn, fp, tn = one_vs_rest(stack, k)
    for b, table in enumerate(stack):
        want = _exact_counts(table, k)
        for got, exp in zip((fn[b], fp[b], tn[b]), want, strict=True):
            assert got.tolist() == exp
        s = Stats(table, k=k)  # what every metric reads
        assert [s.fn.tolist(), s.fp.tolist(), s.tn.tolist()] == want


def test_the_two_tables_of_the_defect():
    # each count was a difference of rounded float sums: 4e-310 was lost from TN, and 1e-20
    # from FN and FP
    fn, fp, tn = one_vs_rest(np.array([[1e-310, 2.0], [3.0, 4e-310]]), 2)
    assert (fn.tolist(), fp.tolist(), tn.tolist()) == ([2.0, 3.0], [3.0, 2.0], [4e-310, 1e-310])
    s = Stats([[1.0, 1e-20], [1e-20, 1.0]])
    assert (s.fn.tolist(), s.fp.tolist(), s.tn.tolist()) == ([1e-20] * 2, [1e-20] * 2, [1.0] * 2)
    # three classes: the pooled and the ordinary sums
    s = Stats([[1.0, 1e-20, 0.0], [1e-20, 1.0, 1e-30], [0.0, 1e-30, 1.0]])
    assert s.fn.tolist() == [1e-20, math.fsum([1e-20, 1e-30]), 1e-30]
    assert s.tn.tolist() == [math.fsum([1.0, 1e-30, 1e-30, 1.0]), 2.0, math.fsum(
        [1.0, 1e-20, 1e-20, 1.0])]


def test_cells_without_weight_give_exact_zeros():
    # a rounding residue never makes a rate defined that is not: TN of class 0 is 0
    s = Stats([[0.1, 0.7], [0.2, 0.0]])
    assert s.tn.tolist() == [0.0, 0.1]
    s = Stats([[0.1, 0.7, 0.0], [0.2, 0.3, 0.0], [0.0, 0.0, 0.0]])
    assert s.fn.tolist() == [0.7, 0.2, 0.0] and s.tn[2] == math.fsum([0.1, 0.7, 0.2, 0.3])


def test_stacks_equal_each_table_and_bad_input():
    rng = np.random.default_rng(3)
    stack = rng.random((50, 4, 4)) * np.exp(rng.uniform(-30, 30, (50, 4, 4)))
    whole = one_vs_rest(stack, 3)
    for b in range(50):
        one = one_vs_rest(stack[b], 3)
        for x, y in zip(whole, one, strict=True):
            assert x[b].tolist() == y.tolist()
    with pytest.raises(ValueError, match="non-negative"):
        one_vs_rest(np.array([[1.0, -1.0], [0.0, 1.0]]), 2)
    with pytest.raises(ValueError, match="finite"):
        one_vs_rest(np.array([[1.0, np.inf, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), 3)
    with pytest.raises(ValueError, match="square"):
        one_vs_rest(np.ones((2, 3)), 2)
    with pytest.raises(ValueError, match="k must be"):
        one_vs_rest(np.ones((2, 2)), 3)
    # Stats keeps the differences for tables the exact sums refuse (negative weights)
    assert Stats([[1.0, -0.5], [0.25, 1.0]]).fn.tolist() == [-0.5, 0.25]


@settings(max_examples=60, deadline=None)
@given(case=_tables(lo=-150, hi=150, max_m=5))
def test_per_class_metrics_agree_with_exact_oracles(case):
    # cells spread over 2**-150 .. 2**150: every product of four counts is a float64 number,
    # so the registry's values are within 1e-9 of the exact rational definitions
    stack, _ = case
    table = stack[0]
    if table.shape[0] < 2 or not table.any():
        return
    cm = ConfusionMatrix(table)
    f = [[Fraction(float(x)) for x in row] for row in table]
    m = len(f)
    n = sum((sum(r, Fraction(0)) for r in f), Fraction(0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, oracle in PER_CLASS.items():
            if name in ("fbeta",):
                continue
            ours = cm.metric(name, average=None, zero_division=np.nan)
            for i in range(m):
                tp = f[i][i]
                fn_ = sum((f[i][j] for j in range(m) if j != i), Fraction(0))
                fp_ = sum((f[j][i] for j in range(m) if j != i), Fraction(0))
                tn_ = n - tp - fn_ - fp_
                exact = value(oracle, tp, fp_, fn_, tn_)
                # relative to the value; a signed difference of counts relative to its
                # operands; a metric without unit (a difference of rates near 0) also
                # absolutely, as tests/test_scale.py
                scale = fp_ + fn_ if name == "automatic_manual" else None
                assert agrees(ours[i], exact, scale) or (
                    get_metric(name).scale_degree == 0 and exact is not None
                    and agrees(ours[i], exact, 1)), (name, i, float(ours[i]), exact)


def test_mcc_of_a_class_lighter_than_1e_16_stays_in_range():
    # N - p_k was a difference of rounded sums: MCC of [[0, 1], [1e-65, 0]] came out -2
    # (scikit-learn's matthews_corrcoef gives 0 there for the same reason); exactly it is -1
    eps = 4.6356967909469847e-66
    cm = ConfusionMatrix.from_predictions([-2.0, 0.0], [0.0, -2.0], sample_weight=[1.0, eps])
    t = [[Fraction(0), Fraction(1)], [Fraction(eps), Fraction(0)]]
    assert agrees(cm.metric("mcc"), value(IRRATIONAL_OVERALL["mcc"], t))
    assert agrees(cm.metric("kappa"), value(OVERALL["kappa"], t), scale=1)


@settings(max_examples=60, deadline=None)
@given(case=_tables(lo=-150, hi=150, max_m=4))
def test_kappa_and_mcc_agree_with_exact_oracles(case):
    # kappa and MCC from the chance terms (N - p_k, N - t_k summed exactly, the covariance
    # formed again in rationals where it cancels): within 1e-9 of the exact values, relative
    # to them or, near 0, to 1
    stack, _ = case
    table = stack[0]
    if table.shape[0] < 2 or not table.any():
        return
    cm = ConfusionMatrix(table)
    t = [[Fraction(float(x)) for x in row] for row in table]
    with warnings.catch_warnings(), mpmath.workdps(50):
        warnings.simplefilter("ignore")
        for name, oracle in (("kappa", OVERALL["kappa"]), ("mcc", IRRATIONAL_OVERALL["mcc"])):
            ours = cm.metric(name, zero_division=np.nan)
            exact = value(oracle, t)
            if name == "mcc" and exact is None:
                exact = Fraction(0)  # a zero denominator gives 0 (the registry's note)
            assert agrees(ours, exact) or agrees(ours, exact, 1), (name, float(ours), exact)
