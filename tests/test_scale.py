"""Weighted tables far from 1: every metric of a table scaled by ``c`` (weights from 1e-300 to
1e300) is the metric of the table times ``c**d``, ``d`` the degree the registry declares
(``MetricSpec.scale_degree``: 0 for ratios, 1 for counts and chi-squared, -1/2 for standard
errors), and equals the exact value of its textbook definition.

Oracles: the metric of the unscaled table (no second implementation), and for the rational
metrics ``fractions.Fraction`` of the weighted cells (a float weight is a binary fraction, so
its ``Fraction`` is exact), mpmath at 50 digits for the square roots (``tests/exact_oracles.py``,
written from the formulas). Products of marginals used to overflow float64 (1e160 squared) or
underflow (1e-300 squared): MCC, kappa, chi-squared, Cramer's V ... were NaN or 0.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat import ConfusionMatrix, list_metrics
from confmat.metrics import Stats, evaluate, get_metric
from exact_oracles import (
    IRRATIONAL_OVERALL,
    IRRATIONAL_PER_CLASS,
    OVERALL,
    PER_CLASS,
    agrees,
    ovr,
    value,
)

SPECS = list_metrics()
#: metrics that are no power of the scale (small-sample corrections, p-values, intervals)
NOT_HOMOGENEOUS = {"kappa_ci_lower", "kappa_ci_upper", "accuracy_ci_lower", "accuracy_ci_upper",
                   "krippendorff_alpha", "ari", "p_value"}


def _averages(spec) -> list[str | None]:
    return [None] if spec.kind == "overall" else [None, "micro", "macro", "weighted"]


#: parameters other than the defaults, each checked too
OTHER_PARAMS = {"zero_one_loss": [{"normalize": False}],
                "kappa": [{"weights": "linear"}, {"weights": "quadratic"}],
                "fbeta": [{"beta": 2.0}], "gmean": [{"correction": 0.1}],
                "balanced_accuracy": [{"adjusted": True}],
                "iba": [{"alpha": 0.5, "squared": False}],
                "tversky_index": [{"alpha": 0.3, "beta": 0.9}], "net_benefit": [{"w": 0.5}],
                "accuracy_ci_lower": [{"z": 3.0}], "kappa_ci_upper": [{"z": 1.0}]}


def _cases():
    """(spec, average, params, degree) of every metric and average, params included."""
    for spec in SPECS:
        for params in [{}, *OTHER_PARAMS.get(spec.name, [])]:
            for average in _averages(spec):
                yield spec, average, params, spec.degree({**spec.params, **params})


def _values(table, spec, average, params=None) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(evaluate(spec.name, Stats(table, zero_division="nan"), average,
                                   warn=False, **(params or {})), dtype=np.float64)


def test_declared_degrees() -> None:
    """The degree of every metric, checked on integer tables (the exact path, which never
    rescales): ``metric(3 T) = 3**d metric(T)``."""
    assert {s.name for s in SPECS if s.scale_degree is None} == NOT_HOMOGENEOUS
    rng = np.random.default_rng(5)
    tables = [rng.integers(0, 40, (k, k)) for k in (2, 3, 5) for _ in range(4)]
    tables.append(np.array([[9, 0, 1], [0, 0, 0], [2, 0, 7]]))  # an empty class
    for spec, average, params, degree in _cases():
        moved = False
        for t in tables:
            base = _values(t, spec, average, params)
            scaled = _values(3 * t, spec, average, params)
            if degree is None:
                moved |= not np.allclose(scaled, base, rtol=1e-9, equal_nan=True)
                continue
            np.testing.assert_allclose(scaled, 3.0**degree * base, rtol=1e-9, atol=1e-12,
                                       equal_nan=True,
                                       err_msg=f"{spec.name} average={average} {params}")
        assert moved or degree is not None, (spec.name, params)


@settings(max_examples=60)
@given(st.integers(2, 5), st.integers(0, 2**32 - 1), st.floats(-300, 300),
       st.sampled_from(["dense", "sparse", "empty_class"]))
def test_scaled_tables_keep_their_metrics(k: int, seed: int, exponent: float, mode: str) -> None:
    """``metric(c T)`` against ``c**d metric(T)``, every homogeneous metric and average, the
    largest weight at ``10**exponent``."""
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 1000, (k, k)).astype(np.float64)
    if mode == "sparse":
        t[rng.random((k, k)) < 0.5] = 0.0
    elif mode == "empty_class":
        t[rng.integers(0, k)] = 0.0
        t[:, rng.integers(0, k)] = 0.0
    if not t.any():
        t[0, 0] = 1.0
    c = 10.0**exponent / t.max()
    w = t * c
    for spec, average, params, degree in _cases():
        if degree is None:
            continue
        got = _values(w, spec, average, params)
        expected = _values(t, spec, average, params)
        with np.errstate(over="ignore", under="ignore"):
            expected = expected * c**degree
        # absolute: rounding of the weighted total (counts such as P - S may be 0)
        atol = 1e-12 * (c * t.sum()) ** degree
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=atol, equal_nan=True,
                                   err_msg=f"{spec.name} average={average} {params} c={c!r}")


def _close(name: str, ours, exact, scale=None) -> bool:
    """Within 1e-9 of the exact value, relative to it, or for a metric without unit (degree
    0) also absolute: a difference such as ``|P - S| / 2N`` whose exact value is 0 comes out
    as 1e-17 in float64."""
    if agrees(ours, exact, scale):
        return True
    return get_metric(name).scale_degree == 0 and exact is not None and agrees(ours, exact, 1)


def _exact_disagreements(w: np.ndarray) -> list[str]:
    """Every metric with a Fraction or mpmath oracle on the weighted table ``w``."""
    t = [[Fraction(float(v)) for v in row] for row in w]
    cm = ConfusionMatrix(w)
    sides = ovr(t)
    pooled = tuple(sum(c[i] for c in sides) for i in range(4))
    n = sum(sum(row) for row in t)
    bad = []
    with warnings.catch_warnings(), mpmath.workdps(50):
        warnings.simplefilter("ignore")
        for name, fn in {**OVERALL, **IRRATIONAL_OVERALL}.items():
            got = cm.metric(name, zero_division=np.nan)
            if not _close(name, got, value(fn, t)):
                bad.append(f"{name}: {got!r}")
        for name, fn in {**PER_CLASS, **IRRATIONAL_PER_CLASS}.items():
            # counts and their differences are exact to rounding of the total
            scale = n if name in ("automatic_manual", "tn", "negatives",
                                  "predicted_negatives") else None
            got = cm.metric(name, zero_division=np.nan)
            for i, c in enumerate(sides):
                if not _close(name, got[i], value(fn, *c), scale):
                    bad.append(f"{name}[{i}]: {got[i]!r}")
            micro = cm.metric(name, average="micro", zero_division=np.nan)
            if not _close(name, micro, value(fn, *pooled), scale):
                bad.append(f"{name} micro: {micro!r}")
    return bad


@settings(max_examples=25)
@given(st.integers(2, 4), st.integers(0, 2**32 - 1), st.floats(-300, 300))
def test_weighted_tables_equal_exact_oracles(k: int, seed: int, exponent: float) -> None:
    rng = np.random.default_rng(seed)
    t = rng.integers(1, 1000, (k, k)).astype(np.float64)
    w = t * (10.0**exponent / t.max())
    assert not _exact_disagreements(w)


@pytest.mark.parametrize("scale", [1e159, 1e-160, 1e300, 1e-300, 2.0**-1020])
def test_exact_oracles_at_the_ends_of_float64(scale: float) -> None:
    w = np.array([[10.0, 2.0, 0.0], [3.0, 40.0, 5.0], [1.0, 0.0, 22.0]]) * scale
    assert not _exact_disagreements(w)


def test_the_reported_table() -> None:
    """[[10, 2], [3, 40]] times 1e159, worked by hand: ad - bc = 394, the four margins 12, 43,
    13, 42 multiply to 281736, so MCC = 394 / sqrt(281736), chi-squared = 55 * 394**2 /
    281736 * 1e159 (all of them were NaN: 1e160 * 1e160 overflows)."""
    cm = ConfusionMatrix([[1e160, 2e159], [3e159, 4e160]])
    mcc = 394 / math.sqrt(281736)
    assert cm.metric("mcc") == pytest.approx(mcc, rel=1e-13)
    assert cm.metric("cramer_v") == pytest.approx(mcc, rel=1e-13)  # |phi| for 2 x 2
    assert cm.metric("chi_squared") == pytest.approx(55 * 394**2 / 281736 * 1e159, rel=1e-13)
    # kappa = (p_o - p_e) / (1 - p_e), p_o = 50/55, p_e = (12 * 13 + 43 * 42) / 55**2
    p_o, p_e = Fraction(50, 55), Fraction(12 * 13 + 43 * 42, 55**2)
    assert cm.metric("kappa") == pytest.approx(float((p_o - p_e) / (1 - p_e)), rel=1e-13)


def test_tiny_weights_are_not_zero() -> None:
    """MCC of a table of weights near 1e-300 was 0.0 (its denominator underflowed to 0 and was
    read as 'undefined'); the table is perfectly correlated."""
    cm = ConfusionMatrix([[3e-300, 0.0], [0.0, 5e-300]])
    assert cm.metric("mcc") == pytest.approx(1.0, rel=1e-15)
    assert cm.metric("kappa") == pytest.approx(1.0, rel=1e-15)
    np.testing.assert_allclose(cm.metric("class_mcc"), [1.0, 1.0], rtol=1e-15)


@pytest.mark.parametrize("scale", [1e-100, 1e-200, 1e-300, 2.0**-1070])
def test_ari_of_tiny_weights(scale: float) -> None:
    """Pair counts t (t - 1) of weights far below 1: the index is decided by products of
    four counts below 1e-308 (it was NaN)."""
    for t in ([[10.0, 2.0], [3.0, 40.0]], [[1.0, 0.0, 2.0], [0.0, 3.0, 1.0], [2.0, 2.0, 0.0]]):
        w = np.array(t) * scale
        exact = value(OVERALL["ari"], [[Fraction(float(v)) for v in row] for row in w])
        assert agrees(ConfusionMatrix(w).metric("ari", zero_division=np.nan), exact)
    stack = np.stack([np.array([[10.0, 2.0], [3.0, 40.0]]) * 1e-300,
                      np.array([[10.0, 2.0], [3.0, 40.0]])])
    got = evaluate("ari", Stats(stack), warn=False)
    for g, table in zip(got, stack, strict=True):
        assert agrees(g, value(OVERALL["ari"], [[Fraction(float(v)) for v in row]
                                                for row in table]))


def test_standard_errors_scale() -> None:
    """SE = sqrt(ACC (1 - ACC) / N) by hand: accuracy 50/55 of a weight 55e300."""
    cm = ConfusionMatrix([[1e301, 2e300], [3e300, 4e301]])
    se = math.sqrt(50 / 55 * 5 / 55 / 55e300)
    assert cm.metric("accuracy_se") == pytest.approx(se, rel=1e-12)
    assert cm.metric("accuracy_ci_lower") == pytest.approx(50 / 55 - 1.96 * se, rel=1e-12)
    assert math.isfinite(cm.metric("kappa_se")) and cm.metric("kappa_se") > 0


def test_stacks_rescale_each_table() -> None:
    """A stack mixing weights near 1e300, 1 and 1e-300 gives each table its own value."""
    t = np.array([[10.0, 2.0], [3.0, 40.0]])
    stack = np.stack([t * 1e299, t, t * 1e-299])
    for name in ("mcc", "kappa", "cramer_v", "scott_pi", "gwet_ac1"):
        got = evaluate(name, Stats(stack), warn=False)
        single = float(evaluate(name, Stats(t), warn=False))
        np.testing.assert_allclose(got, single, rtol=1e-12, err_msg=name)
    chi = evaluate("chi_squared", Stats(stack), warn=False)
    base = float(evaluate("chi_squared", Stats(t), warn=False))
    np.testing.assert_allclose(chi, [base * 1e299, base, base * 1e-299], rtol=1e-12)


def test_true_negatives_without_weight_are_zero() -> None:
    """Class 0 of [[0.1, 0.7], [0.2, 0]] has no true negative (the only cell outside its row
    and column is 0), so its specificity is 0 and LR- = FNR / TNR is undefined; the float
    difference N - TP - FN - FP rounds to 5.6e-17 and made LR- 3e15."""
    cm = ConfusionMatrix([[0.1, 0.7], [0.2, 0.0]])
    assert cm.metric("tn")[0] == 0.0
    assert cm.metric("specificity", zero_division=np.nan)[0] == 0.0
    assert math.isnan(cm.metric("lr_minus", zero_division=np.nan)[0])


@pytest.mark.parametrize("zero_division", ["warn", 0, np.nan])
def test_weights_too_far_apart_say_so(zero_division) -> None:
    """Weights 1e300 and 1e-300 in one table: no power of two keeps both TP TN and the
    products of the margins in float64, and kappa, MCC, chi-squared were NaN with no word (the
    exact values by hand: MCC = (1 - 1e-600) / sqrt(1e300 * 1e300 * 2e-300 * 2e-300) = 1/2)."""
    cm = ConfusionMatrix([[1e300, 1e-300], [1e-300, 1e-300]])
    for name in ("kappa", "mcc", "chi_squared", "cramer_v"):
        with pytest.raises(ValueError, match=rf"{name}: the nonzero weights of the table run "
                                             r"from 1e-300 to 1e\+300"):
            cm.metric(name, zero_division=zero_division)
    # ratios of sums need no product: still numbers (recall of class 1: 1e-300 / 2e-300)
    np.testing.assert_array_equal(cm.metric("recall", zero_division=zero_division), [1.0, 0.5])
    assert cm.metric("accuracy") == 1.0
