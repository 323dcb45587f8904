"""Arithmetic on counts that cannot silently overflow (issue #11, section 4).

Counts are int64 with checked totals: a table, a merge or an accumulated chunk whose total
would pass 2**63 - 1 raises ``OverflowError`` naming the argument. Metrics never form int64
products: on random tables with cells up to 1e15 and up to 50 classes, every registry metric
that is a rational function of the counts agrees with an exact ``fractions.Fraction``
evaluation of its textbook definition (written here from the formula, never by calling
confmat), and the square-root and product metrics agree with mpmath at 50 digits.
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

from confmat import Accumulator, ConfusionMatrix, list_metrics
from confmat.metrics import Stats, evaluate
from exact_oracles import (
    IRRATIONAL_OVERALL,
    IRRATIONAL_PER_CLASS,
    NOT_CHECKED,
    OVERALL,
    PER_CLASS,
    agrees,
    kappa,
    mcc,
    mpf_to_fraction,
    ovr,
    value,
    yao,
)

INT64_MAX = 2**63 - 1


def _check_table(table: np.ndarray) -> list[str]:
    """Every checked metric on one table, with no, micro and macro averaging; returns the
    disagreements."""
    t = [[int(v) for v in row] for row in table]
    cm = ConfusionMatrix(table)
    bad: list[str] = []
    per_class = {**PER_CLASS, **IRRATIONAL_PER_CLASS}
    overall = {**OVERALL, **IRRATIONAL_OVERALL}
    sides = ovr(t)
    pooled = tuple(sum(c[i] for c in sides) for i in range(4))
    with warnings.catch_warnings(), mpmath.workdps(50):
        warnings.simplefilter("ignore")
        ours = cm.metrics(list(per_class) + list(overall), zero_division=np.nan)
        micro = cm.metrics(list(per_class), average="micro", zero_division=np.nan)
        macro = cm.metrics(list(per_class), average="macro", zero_division=np.nan)
        for name, fn in overall.items():
            exact = value(fn, t)
            if not agrees(ours[name], exact):
                bad.append(f"{name}: {ours[name]!r} vs {exact}")
        for name, fn in per_class.items():
            exact = [value(fn, *c) for c in sides]
            for i, e in enumerate(exact):
                if not agrees(ours[name][i], e):
                    bad.append(f"{name}[{i}]: {ours[name][i]!r} vs {e}")
            e = value(fn, *pooled)
            if not agrees(micro[name], e):
                bad.append(f"{name} micro: {micro[name]!r} vs {e}")
            defined = [Fraction(mpf_to_fraction(v)) for v in exact if v is not None]
            if defined:
                mean = sum(defined) / len(defined)
                scale = sum(abs(v) for v in defined) / len(defined)
                ok = agrees(macro[name], mean, scale)
            else:
                ok = math.isnan(macro[name])
            if not ok:
                bad.append(f"{name} macro: {macro[name]!r}")
        for weights in ("linear", "quadratic"):
            got = cm.metric("kappa", weights=weights, zero_division=np.nan)
            exact = value(kappa, t, weights)
            if not agrees(got, exact):
                bad.append(f"kappa {weights}: {got!r} vs {exact}")
    return bad



# --------------------------------------------------------------------------- tables
MODES = ("uniform", "log", "sparse", "near_independent", "independent", "diagonal", "small",
         "empty_rows")


def make_table(k: int, mode: str, seed: int) -> np.ndarray:
    """A K x K table with cells up to 1e15 (every total fits int64; K * N may not)."""
    rng = np.random.default_rng(seed)
    top = 10**15
    if mode == "uniform":
        t = rng.integers(0, top, (k, k), endpoint=True)
    elif mode == "log":
        t = np.floor(10.0 ** rng.uniform(0, 15, (k, k))).astype(np.int64)
    elif mode == "sparse":  # huge cells mixed with zeros and a few small ones
        t = np.where(rng.random((k, k)) < 0.3, rng.integers(top // 2, top, (k, k)), 0)
        t = t + np.where(rng.random((k, k)) < 0.1, rng.integers(0, 5, (k, k)), 0)
    elif mode in ("near_independent", "independent"):  # products of the margins: chance level
        a = rng.integers(1, 31_622_776, k)
        b = rng.integers(1, 31_622_776, k)
        t = np.outer(a, b)
        if mode == "near_independent":
            t = np.maximum(t + rng.integers(-3, 4, (k, k)), 0)
    elif mode == "diagonal":
        t = rng.integers(0, 1000, (k, k))
        np.fill_diagonal(t, rng.integers(top // 10, top, k))
    elif mode == "small":
        t = rng.integers(0, 20, (k, k))
    else:  # empty rows and columns
        t = rng.integers(0, top, (k, k), endpoint=True)
        t[rng.integers(0, k, max(1, k // 3))] = 0
        t[:, rng.integers(0, k, max(1, k // 3))] = 0
    t = np.asarray(t, dtype=np.int64)
    if t.sum() == 0:
        t[0, 0] = 1
    return t


# --------------------------------------------------------------------------- the registry
def test_every_registry_metric_is_classified() -> None:
    """A new metric must be given an oracle here or a reason why it has none."""
    names = {s.name for s in list_metrics()}
    checked = set(PER_CLASS) | set(OVERALL) | set(IRRATIONAL_OVERALL) | set(IRRATIONAL_PER_CLASS)
    assert not checked & set(NOT_CHECKED)
    assert checked | set(NOT_CHECKED) == names, (names - checked - set(NOT_CHECKED),
                                                 (checked | set(NOT_CHECKED)) - names)
    assert {s.name for s in list_metrics(kind="per_class")} >= set(PER_CLASS)


@settings(max_examples=60)
@given(st.integers(2, 50), st.sampled_from(MODES), st.integers(0, 2**32 - 1))
def test_metrics_equal_exact_oracles_on_huge_tables(k: int, mode: str, seed: int) -> None:
    table = make_table(k, mode, seed)
    assert not _check_table(table)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("k", [2, 3, 50])
def test_metrics_equal_exact_oracles_each_mode(k: int, mode: str) -> None:
    assert not _check_table(make_table(k, mode, 1000 * k + MODES.index(mode)))


# --------------------------------------------------------------------------- the issue's cases
def test_cells_of_2_62_raise_at_construction() -> None:
    with pytest.raises(OverflowError, match=r"counts: the total of the table would exceed "
                                            r"2\*\*63 - 1"):
        ConfusionMatrix([[2**62, 2**62], [2**62, 2**62]])
    with pytest.raises(OverflowError, match="counts"):
        ConfusionMatrix(np.array([[2**63 + 5]], dtype=np.uint64))
    with pytest.raises(OverflowError, match="table: the total"):  # a stack for Stats too
        Stats(np.full((3, 2, 2), 2**61))


def test_totals_up_to_the_limit_are_exact() -> None:
    cm = ConfusionMatrix([[2**62, 2**61], [2**60, 2**60 - 1]])
    assert cm.n == INT64_MAX
    assert cm.metric("accuracy") == pytest.approx(float(Fraction(2**62 + 2**60 - 1, INT64_MAX)))
    np.testing.assert_array_equal(cm.metric("tn"), [2**60 - 1, 2**62])
    # summed true negatives of 3 classes exceed int64: they are then float sums
    cm3 = ConfusionMatrix(np.diag([2**61, 2**61, 2**61]))
    assert cm3.metric("tn", average="micro") == pytest.approx(float(2 * 3 * 2**61))
    assert cm3.metric("specificity", average="micro") == 1.0


def test_intervals_of_a_table_at_the_limit() -> None:
    # cells above 2**53 are not float64 numbers: the BCa jackknife removes its one case in
    # integers (a float64 round trip made this total 2**63 + 3 and raised OverflowError)
    cm = ConfusionMatrix([[2**62, 2**62 - 4], [1, 2]])  # total 2**63 - 1
    exact = Fraction(2**62 + 2, INT64_MAX)
    half_width = 3 * math.sqrt(float(exact * (1 - exact)) / INT64_MAX)  # 3 binomial SEs
    for method in ("bca", "percentile"):
        ci = cm.ci("accuracy", method=method, random_state=0, n_resamples=200)
        assert ci.low <= float(exact) <= ci.high
        assert ci.high - ci.low < 2 * half_width


def test_bootstrap_of_a_weighted_table_beyond_int64_says_so() -> None:
    cm = ConfusionMatrix([[1e300, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match=r"table: .*total N = 1e\+300 exceeds"):
        cm.ci("accuracy", method="percentile")
    with pytest.raises(ValueError, match="counts: the total of the weighted table overflows"):
        ConfusionMatrix([[1e308, 1e308], [1e308, 1e308]])
    # the analytic interval needs no draw
    assert cm.ci("accuracy", method="wilson").estimate == 1.0


def test_adding_matrices_past_the_limit_raises() -> None:
    half = ConfusionMatrix([[2**61, 2**61], [2**61, 2**61 - 1]])  # total 2**63 - 1
    one = ConfusionMatrix([[1, 0], [0, 0]])
    assert (half + ConfusionMatrix([[0, 0], [0, 0]])).n == INT64_MAX
    with pytest.raises(OverflowError, match=r"cm \+ other"):
        half + one
    with pytest.raises(OverflowError, match=r"cm \+ other"):
        sum([one, half])
    with pytest.raises(OverflowError, match="merge"):
        one.merge(one, half)
    big = ConfusionMatrix([[2**62, 0], [0, 0]])
    with pytest.raises(OverflowError):
        big + big
    # weighted counts are float sums: no int64 limit
    assert (ConfusionMatrix([[2.0**62]]) + ConfusionMatrix([[2.0**62]])).n == 2.0**63


def test_accumulator_update_grouped_past_the_limit_raises() -> None:
    acc = Accumulator()
    with pytest.raises(OverflowError, match="counts of chunk 1"):
        acc.update_grouped([0, 1], [0, 1], [2**62, 2**62])
    assert acc.n_samples == 0 and acc.counts.size == 0
    with pytest.raises(OverflowError, match="counts"):
        acc.update_grouped([0], [0], np.array([2**63], dtype=np.uint64))
    with pytest.raises(OverflowError, match="counts"):
        acc.update_grouped([0], [0], [1e19])
    acc.update_grouped([0, 1], [0, 1], [2**62, 2**61])
    with pytest.raises(OverflowError, match="chunk 2"):
        acc.update_grouped([1], [1], [2**61])
    # the failed chunk left the state untouched
    assert acc.counts.tolist() == [[2**62, 0], [0, 2**61]]
    assert acc.n_samples == 2**62 + 2**61
    acc.update_grouped([1], [0], [2**61 - 1])
    assert acc.result().n == INT64_MAX


def test_accumulator_merge_past_the_limit_raises() -> None:
    a = Accumulator()
    a.update_grouped(["x", "y"], ["x", "y"], [2**62, 2**61])
    b = Accumulator()
    b.update_grouped(["y"], ["x"], [2**62])
    with pytest.raises(OverflowError, match="merg"):
        a.merge(b)
    assert a.counts.tolist() == [[2**62, 0], [0, 2**61]]
    with pytest.raises(OverflowError, match="merg"):
        a + b


def test_kappa_of_the_issue() -> None:
    """p_o = 0.8, p_e = 0.5, so kappa = (0.8 - 0.5) / (1 - 0.5) = 0.6."""
    cm = ConfusionMatrix([[4 * 10**9, 10**9], [10**9, 4 * 10**9]])
    assert cm.metric("kappa") == pytest.approx(0.6, rel=1e-14)
    for weights in ("linear", "quadratic"):  # two classes: every weighting is the same
        assert cm.metric("kappa", weights=weights) == pytest.approx(0.6, rel=1e-14)
    assert cm.metric("mcc") == pytest.approx(0.6, rel=1e-14)
    assert cm.metric("chi_squared") == pytest.approx(0.36 * 10**10, rel=1e-14)


def test_mcc_yao2022_of_the_issue() -> None:
    """Ten classes near a million: the two products of the numerator nearly cancel."""
    t = np.full((10, 10), 10**6, dtype=np.int64)
    t[0, 1] += 1
    rng = np.random.default_rng(11)
    u = rng.integers(999_000, 1_001_000, (10, 10))
    for table in (t, u):
        cm = ConfusionMatrix(table)
        got = cm.metric("mcc_yao2022")
        assert math.isfinite(got)
        with mpmath.workdps(50):
            exact = yao([[int(v) for v in row] for row in table])
            assert got == pytest.approx(float(exact), rel=1e-12)
        values = cm.metrics()  # the registry-wide path used by reports and the CLI
        assert values["mcc_yao2022"] == got


@pytest.mark.parametrize("k", [2, 5, 30])
def test_chance_corrected_metrics_keep_relative_precision(k: int) -> None:
    """Near chance level the numerators (N c - sum t p and friends) cancel; they are formed
    exactly, so the relative error stays near 1e-12 however large the counts."""
    for seed in range(5):
        table = make_table(k, "near_independent", seed)
        t = [[int(v) for v in row] for row in table]
        cm = ConfusionMatrix(table)
        with mpmath.workdps(50):
            assert cm.metric("mcc") == pytest.approx(float(mcc(t)), rel=1e-12)
        for name in ("kappa", "scott_pi", "ari", "chi_squared", "gwet_ac1",
                     "krippendorff_alpha"):
            assert cm.metric(name) == pytest.approx(float(OVERALL[name](t)), rel=1e-12), name
        for name in ("informedness", "markedness", "yule_q"):
            exact = [float(PER_CLASS[name](*c)) for c in ovr(t)]
            np.testing.assert_allclose(cm.metric(name), exact, rtol=1e-12, err_msg=name)


def test_batched_statistics_match_single_tables_on_huge_counts() -> None:
    """A (B, K, K) stack mixing huge and small tables gives each table's own value."""
    tables = [make_table(4, mode, s) for s, mode in enumerate(MODES)]
    stack = np.stack(tables)
    for name in ("kappa", "mcc", "ari", "chi_squared", "scott_pi", "mcc_yao2022", "accuracy"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            batched = evaluate(name, Stats(stack, zero_division="nan"), warn=False)
            single = [float(evaluate(name, Stats(t, zero_division="nan"), warn=False))
                      for t in tables]
        np.testing.assert_allclose(batched, single, rtol=1e-12, equal_nan=True, err_msg=name)
    for name in ("informedness", "class_mcc", "tn"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            batched = evaluate(name, Stats(stack, zero_division="nan"), "micro", warn=False)
            single = [float(evaluate(name, Stats(t, zero_division="nan"), "micro", warn=False))
                      for t in tables]
        np.testing.assert_allclose(batched, single, rtol=1e-12, equal_nan=True, err_msg=name)
