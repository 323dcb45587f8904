"""The registry: lookups, parameter errors, laziness, vectorisation, the PyCM key table."""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import confmat
from confmat.metrics import Stats, evaluate, get_metric, list_metrics, pycm_keys
from confmat.metrics import registry as reg
from confmat.metrics.evaluation import bind_params, check_average

CM = confmat.ConfusionMatrix([[5, 2, 0], [1, 7, 3], [0, 2, 9]])


def test_unknown_metric_suggests_close_names() -> None:
    with pytest.raises(ValueError, match=r"unknown metric 'cohen_kapa'; did you mean 'kappa'"):
        CM.metric("cohen_kapa")
    with pytest.raises(ValueError, match="did you mean 'scott_pi'"):
        CM.metric("scott_py")
    with pytest.raises(TypeError, match="metric name must be a string"):
        get_metric(3)


@pytest.mark.parametrize("beta", [0, -1.0, float("nan"), float("inf"), "2", True])
def test_bad_beta(beta) -> None:
    with pytest.raises(ValueError, match="beta must be a positive finite number"):
        CM.metric("fbeta", beta=beta)


@pytest.mark.parametrize("average", ["samples", "binary", "Macro", 1])
def test_unknown_average(average) -> None:
    with pytest.raises(ValueError, match="average must be None, 'micro', 'macro' or 'weighted'"):
        CM.metric("recall", average=average)


def test_average_on_overall_metric_and_unknown_parameters() -> None:
    with pytest.raises(ValueError, match="'gwet_ac1' is an overall metric"):
        CM.metric("gwet_ac1", average="macro")
    with pytest.raises(TypeError, match=r"'iba' got unexpected parameter\(s\) \['beta'\]; "
                                        r"it accepts: alpha, squared"):
        CM.metric("iba", beta=2)


@pytest.mark.parametrize(("name", "kw", "message"), [
    ("kappa_ci_lower", {"z": 0}, "z must be a positive finite number"),
    ("accuracy_ci_upper", {"z": -1.96}, "z must be a positive finite number"),
    ("iba", {"alpha": "big"}, "alpha must be a finite number"),
    ("iba", {"squared": 1}, "squared must be True or False"),
    ("gmean", {"correction": 2.0}, r"correction must be a number in \[0, 1\]"),
])
def test_bad_parameters(name, kw, message) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        CM.metric(name, **kw)


def test_asking_for_one_metric_computes_only_that_one(monkeypatch) -> None:
    calls: list[str] = []
    for name, spec in list(reg._REGISTRY.items()):
        def counted(*a, _f=spec.func, _n=name, **k):
            calls.append(_n)
            return _f(*a, **k)
        monkeypatch.setitem(reg._REGISTRY, name, dataclasses.replace(spec, func=counted))
    CM.metric("gwet_ac1")
    CM.metric("cen", average="macro")
    assert calls == ["gwet_ac1", "cen"]
    stats = CM.stats()
    evaluate("kappa", stats)
    assert "per_class" not in vars(stats) and "micro" not in vars(stats)


def test_every_metric_is_vectorised_over_batch_axes() -> None:
    rng = np.random.default_rng(5)
    stack = rng.integers(0, 9, (2, 3, 4, 4))
    stack[0, 1, 2] = 0
    stack[1, 0, :, 3] = 0
    stack[1, 2] = np.diag([2, 3, 4, 5])
    for spec in list_metrics():
        averages = (None, "micro", "macro", "weighted") if spec.kind == "per_class" else (None,)
        for avg in averages:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                batched = evaluate(spec.name, Stats(stack, zero_division="nan"), avg, warn=False)
                single = np.array([[evaluate(spec.name, Stats(t, zero_division="nan"), avg,
                                             warn=False) for t in row] for row in stack])
            assert batched.shape == single.shape, (spec.name, avg)
            np.testing.assert_allclose(batched, single, rtol=1e-12, equal_nan=True,
                                       err_msg=f"{spec.name} {avg}")


def test_pycm_key_table_is_consistent() -> None:
    table = pycm_keys()
    assert len(table) >= 118
    for (where, key), entries in table.items():
        assert where in ("class", "overall")
        elements = [e.element for e in entries]
        assert elements == [None] or elements == list(range(len(entries))), key
        for e in entries:
            spec = get_metric(e.metric)
            check_average(e.average)
            bind_params(spec, e.params)
            if e.average is not None:
                assert spec.kind == "per_class", key
    # the spec field names the key that needs no average, parameter or element
    assert pycm_keys()[("class", "TPR")][0].metric == "recall"
    assert pycm_keys()[("class", "POP")][0].metric == "n"


def test_micro_of_table_metric_is_the_pooled_one_vs_rest_table() -> None:
    # pooled [[TP, FN], [FP, TN]] of CM: TP 21, FN 8, FP 8, TN 50; class-0 CEN of a 2 x 2 table
    tp, fn, fp = 21, 8, 8  # TN (50) does not enter class 0's CEN
    den = 2 * tp + fn + fp
    by_hand = -sum(p * math.log2(p) / math.log2(2) for p in (fn / den, fp / den))
    assert CM.metric("cen", average="micro") == pytest.approx(by_hand)
    assert CM.metric("cen", average="macro") == pytest.approx(CM.metric("cen").mean())


def test_hand_worked_values() -> None:
    # [[5, 2, 0], [1, 7, 3], [0, 2, 9]]: N 29, correct 21, rows 7 11 11, cols 6 11 12
    n, acc = 29, 21 / 29
    pe = (7 * 6 + 11 * 11 + 11 * 12) / n**2
    assert CM.metric("kappa_no_prevalence") == pytest.approx(2 * acc - 1)
    assert CM.metric("bennett_s") == pytest.approx((acc - 1 / 3) / (1 - 1 / 3))
    assert CM.metric("overall_random_accuracy") == pytest.approx(pe)
    assert CM.metric("kappa_se") == pytest.approx(math.sqrt(acc * (1 - acc) / (n * (1 - pe)**2)))
    assert CM.metric("nir") == pytest.approx(11 / 29)
    assert CM.metric("global_performance_index") == pytest.approx(29 / 3)
    assert CM.metric("chi_squared_dof") == 4
    assert CM.metric("lambda_b") == pytest.approx((5 + 7 + 9 - 12) / (29 - 12))
    assert CM.metric("lambda_a") == pytest.approx((5 + 7 + 9 - 11) / (29 - 11))
    assert CM.metric("bangdiwala_b") == pytest.approx((25 + 49 + 81) / (42 + 121 + 132))


def test_binomial_tail_matches_scipy() -> None:
    from scipy.stats import binom

    from confmat.metrics.significance import binomial_tail

    for x, n, p in [(5, 10, 0.3), (80, 100, 0.4), (1, 5, 0.2), (10, 10, 0.5), (0, 4, 0.5),
                    (700, 1000, 0.62), (999_000, 1_000_000, 0.5), (3, 1_000_000, 1e-6),
                    (510_000, 1_000_000, 0.5)]:
        assert binomial_tail(x, n, p) == pytest.approx(binom.sf(x - 1, n, p), rel=1e-9,
                                                       abs=1e-300)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 100_000), st.floats(0.0, 1.0), st.floats(1e-6, 1 - 1e-6))
def test_binomial_tail_differential_against_scipy(n: int, frac: float, p: float) -> None:
    """P(X >= x), X ~ Binomial(n, p), against ``scipy.stats.binom.sf``; in the deep upper tail
    (below 1e-250), where SciPy's incomplete beta keeps fewer digits (n = 199, x = 174,
    p = 1/64: SciPy 1.41904370e-283, the exact sum 1.41904375e-283), against the sum of the
    binomial terms in mpmath at 50 digits (they fall geometrically there, x > n p)."""
    import mpmath
    from scipy.stats import binom

    from confmat.metrics.significance import binomial_tail

    x = round(frac * n)
    expected = float(binom.sf(x - 1, n, p))
    if 0 < expected < 1e-250 and x > n * p:
        with mpmath.workdps(50):
            q, total, k = mpmath.mpf(p), mpmath.mpf(0), x
            term = mpmath.binomial(n, k) * q**k * (1 - q) ** (n - k)
            while k <= n and term > total * mpmath.mpf(10) ** -45:
                total += term
                term *= mpmath.mpf(n - k) / (k + 1) * q / (1 - q)
                k += 1
            expected = float(total)
    assert binomial_tail(x, n, p) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_binomial_tail_in_the_deep_tail_by_exact_sum() -> None:
    """The case hypothesis found: sum_{k >= 174} C(199, k) (1/64)^k (63/64)^(199 - k) with
    exact rationals (``fractions.Fraction``); SciPy's ``binom.sf`` differs from it by 4e-8."""
    from fractions import Fraction
    from math import comb

    from confmat.metrics.significance import binomial_tail

    p = Fraction(1, 64)
    exact = sum(comb(199, k) * p**k * (1 - p) ** (199 - k) for k in range(174, 200))
    assert binomial_tail(174, 199, 1 / 64) == pytest.approx(float(exact), rel=1e-12)


def test_p_value_without_scipy_and_beyond_the_exact_range() -> None:
    """The summed tail serves integer tables up to 10^6 samples without importing SciPy;
    weighted and larger tables use SciPy's incomplete beta function; both equal
    scipy.stats.binom.sf (the oracle), and stacks give each table's own value."""
    import subprocess
    import sys

    code = ("import sys; from confmat import ConfusionMatrix; "
            "v = ConfusionMatrix([[61, 2], [8, 58]]).metric('p_value'); "
            "print(v, 'scipy.special' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    from scipy.stats import binom

    assert float(out[0]) == pytest.approx(binom.sf(118, 129, 66 / 129), rel=1e-9)
    assert out[1] == "False"
    big = np.array([[1_500_000, 10_000], [9_000, 1_400_000]])
    n, x = int(big.sum()), int(np.trace(big))
    assert confmat.ConfusionMatrix(big).metric("p_value") == pytest.approx(
        binom.sf(x - 1, n, big.sum(1).max() / n), rel=1e-7, abs=1e-300)
    weighted = np.array([[6.5, 2.25], [1.5, 7.0]])
    from scipy.special import betainc

    nw, xw = weighted.sum(), np.trace(weighted)
    assert confmat.ConfusionMatrix(weighted).metric("p_value") == pytest.approx(
        betainc(xw, nw - xw + 1, weighted.sum(1).max() / nw), rel=1e-12)
    stack = np.array([[[61, 2], [8, 58]], [[30, 20], [25, 25]], [[0, 5], [5, 0]]])
    got = evaluate("p_value", Stats(stack))
    for t, v in zip(stack, got, strict=True):
        nn, xx = int(t.sum()), int(np.trace(t))
        assert v == pytest.approx(binom.sf(xx - 1, nn, t.sum(1).max() / nn), rel=1e-9)


def test_values_stay_in_the_declared_range() -> None:
    rng = np.random.default_rng(17)
    tables = []
    for k in (2, 3, 5, 9):
        stack = rng.integers(0, 30, (60, k, k))
        stack[::7, 0] = 0
        stack[1::7, :, -1] = 0
        stack[2::7] = np.eye(k, dtype=np.int64) * 9
        stack[3::7] = stack[3::7][:, :, ::-1]  # anti-diagonal heavy: negative correlations
        tables.append(stack)
    for spec in list_metrics():
        lo, hi = spec.range
        for stack in tables:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                v = evaluate(spec.name, Stats(stack, zero_division="nan"), warn=False)
            v = v[~np.isnan(v)]
            assert v.size, spec.name
            assert (v >= lo - 1e-12).all() and (v <= hi + 1e-12).all(), (
                spec.name, spec.range, float(v.min()), float(v.max()))


def test_cached_statistics_give_each_call_its_own_array_and_warning() -> None:
    """A matrix caches its statistics (and intermediates such as recall) between calls: the
    values must not change, a caller's array is its own, and an undefined metric warns on
    every call. Expected values by hand: recall [5/6, 4/6]; precision of column 1 is 0/0."""
    cm = confmat.ConfusionMatrix([[5, 1], [2, 4]])
    first = cm.metric("recall")
    first[0] = 99.0
    assert cm.metric("recall") == pytest.approx([5 / 6, 4 / 6])
    every = cm.metrics()
    every["recall"][1] = -1.0
    assert cm.metrics()["recall"] == pytest.approx([5 / 6, 4 / 6])
    assert cm.metric("informedness") == pytest.approx([5 / 6 + 4 / 6 - 1] * 2)
    undefined = confmat.ConfusionMatrix([[2, 0], [3, 0]])
    for _ in range(3):
        with pytest.warns(UserWarning, match="precision is ill-defined"):
            assert undefined.metric("precision").tolist() == [0.4, 0.0]
        with pytest.warns(UserWarning, match="npv is ill-defined"):
            assert undefined.metric("npv").tolist() == [0.0, 0.4]  # TN / (TN + FN): 0/0, 2/5
    assert undefined.metric("precision", zero_division=1).tolist() == [0.4, 1.0]
    assert np.isnan(undefined.metric("precision", zero_division=np.nan)[1])
