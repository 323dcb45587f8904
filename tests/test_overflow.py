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
from collections.abc import Callable
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat import Accumulator, ConfusionMatrix, list_metrics
from confmat.metrics import Stats, evaluate

INT64_MAX = 2**63 - 1
RTOL = Fraction(1, 10**9)
TINY = Fraction(np.finfo(np.float64).tiny)


# --------------------------------------------------------------------------- exact oracles
class Undefined(Exception):
    """A zero denominator in the textbook definition."""


def q(a, b) -> Fraction:
    if b == 0:
        raise Undefined
    return Fraction(a) / Fraction(b)


def comb2(x: int) -> int:
    return x * (x - 1) // 2


# per-class metrics: functions of the one-vs-rest counts (tp, fp, fn, tn)
def _tpr(tp, fp, fn, tn):
    return q(tp, tp + fn)


def _tnr(tp, fp, fn, tn):
    return q(tn, tn + fp)


def _ppv(tp, fp, fn, tn):
    return q(tp, tp + fp)


def _npv(tp, fp, fn, tn):
    return q(tn, tn + fn)


def _fpr(tp, fp, fn, tn):
    return q(fp, fp + tn)


def _fnr(tp, fp, fn, tn):
    return q(fn, tp + fn)


def _n(tp, fp, fn, tn):
    return tp + fp + fn + tn


def _lr_plus(*c):
    return q(_tpr(*c), _fpr(*c))


def _lr_minus(*c):
    return q(_fnr(*c), _tnr(*c))


PER_CLASS: dict[str, Callable[..., Fraction | int]] = {
    "tp": lambda tp, fp, fn, tn: tp,
    "fn": lambda tp, fp, fn, tn: fn,
    "fp": lambda tp, fp, fn, tn: fp,
    "tn": lambda tp, fp, fn, tn: tn,
    "support": lambda tp, fp, fn, tn: tp + fn,
    "predicted": lambda tp, fp, fn, tn: tp + fp,
    "negatives": lambda tp, fp, fn, tn: fp + tn,
    "predicted_negatives": lambda tp, fp, fn, tn: tn + fn,
    "class_errors": lambda tp, fp, fn, tn: fp + fn,
    "automatic_manual": lambda tp, fp, fn, tn: (tp + fp) - (tp + fn),
    "recall": _tpr,
    "class_accuracy": _tpr,
    "specificity": _tnr,
    "precision": _ppv,
    "npv": _npv,
    "fpr": _fpr,
    "fnr": _fnr,
    "fdr": lambda tp, fp, fn, tn: q(fp, tp + fp),
    "for": lambda tp, fp, fn, tn: q(fn, fn + tn),
    "f1": lambda tp, fp, fn, tn: q(2 * tp, 2 * tp + fp + fn),
    "fbeta": lambda tp, fp, fn, tn: q(2 * tp, 2 * tp + fn + fp),  # beta = 1
    "jaccard": lambda tp, fp, fn, tn: q(tp, tp + fp + fn),
    "informedness": lambda *c: _tpr(*c) + _tnr(*c) - 1,
    "markedness": lambda *c: _ppv(*c) + _npv(*c) - 1,
    "prevalence": lambda *c: q(c[0] + c[2], _n(*c)),
    "lr_plus": _lr_plus,
    "lr_minus": _lr_minus,
    "dor": lambda *c: q(_lr_plus(*c), _lr_minus(*c)),
    "class_auc": lambda *c: (_tpr(*c) + _tnr(*c)) / 2,
    "optimized_precision": lambda *c: (
        q(c[0] + c[3], _n(*c)) - q(abs(_tnr(*c) - _tpr(*c)), _tnr(*c) + _tpr(*c))
    ),
    "iba": lambda *c: (1 + (_tpr(*c) - _tnr(*c))) * _tpr(*c) * _tnr(*c),  # alpha 1, squared
    "yule_q": lambda tp, fp, fn, tn: q(tp * tn - fp * fn, tp * tn + fp * fn),
    "ovr_accuracy": lambda *c: q(c[0] + c[3], _n(*c)),
    "ovr_error_rate": lambda *c: q(c[1] + c[2], _n(*c)),
    "predicted_rate": lambda *c: q(c[0] + c[1], _n(*c)),
    "lift": lambda *c: q(_ppv(*c), q(c[0] + c[2], _n(*c))),
    "icsi": lambda *c: _ppv(*c) + _tpr(*c) - 1,
    "class_aupr": lambda *c: (_ppv(*c) + _tpr(*c)) / 2,
    "random_accuracy": lambda *c: q((c[0] + c[1]) * (c[0] + c[2]), _n(*c) ** 2),
    "random_accuracy_unbiased": lambda *c: q(2 * c[0] + c[1] + c[2], 2 * _n(*c)) ** 2,
    "overlap_coefficient": lambda tp, fp, fn, tn: q(tp, min(tp + fp, tp + fn)),
    "braun_blanquet": lambda tp, fp, fn, tn: q(tp, max(tp + fp, tp + fn)),
    "bray_curtis": lambda *c: q(abs((c[0] + c[1]) - (c[0] + c[2])), 2 * _n(*c)),
    "tversky_index": lambda tp, fp, fn, tn: q(tp, tp + Fraction(fn, 2) + Fraction(fp, 2)),
    "net_benefit": lambda *c: q(c[0] - c[1], _n(*c)),  # w = 1
}


# overall metrics: functions of the table (a list of lists of Python ints)
def _margins(t) -> SimpleNamespace:
    k = len(t)
    rows = [sum(r) for r in t]
    cols = [sum(t[i][j] for i in range(k)) for j in range(k)]
    diag = [t[i][i] for i in range(k)]
    return SimpleNamespace(k=k, rows=rows, cols=cols, diag=diag, n=sum(rows))


def _acc(t):
    m = _margins(t)
    return q(sum(m.diag), m.n)


def _racc(t):
    m = _margins(t)
    return q(sum(r * p for r, p in zip(m.rows, m.cols, strict=True)), m.n * m.n)


def _raccu(t):
    m = _margins(t)
    return sum(q(r + p, 2 * m.n) ** 2 for r, p in zip(m.rows, m.cols, strict=True))


def _kappa(t, weights=None):
    if weights is None:
        return q(_acc(t) - _racc(t), 1 - _racc(t))
    m = _margins(t)
    w = [[abs(i - j) ** (1 if weights == "linear" else 2) for j in range(m.k)]
         for i in range(m.k)]
    observed = sum(w[i][j] * t[i][j] for i in range(m.k) for j in range(m.k))
    expected = sum(w[i][j] * q(m.rows[i] * m.cols[j], m.n)
                   for i in range(m.k) for j in range(m.k))
    return 1 - q(observed, expected)


def _gwet(t):
    m = _margins(t)
    pi = [q(r + p, 2 * m.n) for r, p in zip(m.rows, m.cols, strict=True)]
    pe = q(sum(x * (1 - x) for x in pi), m.k - 1)
    return q(_acc(t) - pe, 1 - pe)


def _krippendorff(t):
    n = _margins(t).n
    pa = (1 - q(1, 2 * n)) * _acc(t) + q(1, 2 * n)
    return q(pa - _raccu(t), 1 - _raccu(t))


def _ari(t):
    m = _margins(t)
    index = sum(comb2(x) for row in t for x in row)
    a = sum(comb2(r) for r in m.rows)
    b = sum(comb2(p) for p in m.cols)
    expected = q(a * b, comb2(m.n))
    return q(index - expected, Fraction(a + b, 2) - expected)


def _chi2(t):
    m = _margins(t)
    total = Fraction(0)
    for i in range(m.k):
        for j in range(m.k):
            e = q(m.rows[i] * m.cols[j], m.n)
            total += q((t[i][j] - e) ** 2, e)
    return total


def _lambda(t, transpose: bool):
    if transpose:
        t = [list(col) for col in zip(*t, strict=True)]
    m = _margins(t)
    top = max(m.cols)
    return q(sum(max(row) for row in t) - top, m.n - top)


def _balanced_accuracy(t):
    m = _margins(t)
    per = [q(d, r) for d, r in zip(m.diag, m.rows, strict=True) if r > 0]
    return q(sum(per), len(per))


def _weighted_accuracy(t):
    m = _margins(t)
    return sum(q(r, m.n) * q(d, r) for d, r in zip(m.diag, m.rows, strict=True) if r > 0)


def _cba(t):
    m = _margins(t)
    return sum(q(d, max(r, p)) for d, r, p in zip(m.diag, m.rows, m.cols, strict=True)) / m.k


def _jaccard_sum(t):
    return sum(PER_CLASS["jaccard"](*c) for c in _ovr(t))


OVERALL: dict[str, Callable[[list[list[int]]], Fraction | int]] = {
    "n": lambda t: _margins(t).n,
    "accuracy": _acc,
    "weighted_accuracy": _weighted_accuracy,
    "error_rate": lambda t: 1 - _acc(t),
    "zero_one_loss": lambda t: 1 - _acc(t),
    "hamming_loss": lambda t: 1 - _acc(t),
    "balanced_accuracy": _balanced_accuracy,
    "kappa": _kappa,
    "overall_random_accuracy": _racc,
    "overall_random_accuracy_unbiased": _raccu,
    "scott_pi": lambda t: q(_acc(t) - _raccu(t), 1 - _raccu(t)),
    "kappa_no_prevalence": lambda t: 2 * _acc(t) - 1,
    "gwet_ac1": _gwet,
    "bennett_s": lambda t: q(_acc(t) - Fraction(1, len(t)), 1 - Fraction(1, len(t))),
    "krippendorff_alpha": _krippendorff,
    "bangdiwala_b": lambda t: q(sum(d * d for d in _margins(t).diag), _racc(t) * _margins(t).n ** 2),
    "ari": _ari,
    "chi_squared": _chi2,
    "chi_squared_dof": lambda t: (len(t) - 1) ** 2,
    "phi_squared": lambda t: q(_chi2(t), _margins(t).n),
    "lambda_b": lambda t: _lambda(t, False),
    "lambda_a": lambda t: _lambda(t, True),
    "cba": _cba,
    "nir": lambda t: q(max(_margins(t).rows), _margins(t).n),
    "global_performance_index": lambda t: q(_margins(t).n, len(t)),
    "jaccard_sum": _jaccard_sum,
}


# square roots and products of many counts: mpmath at 50 digits
def _msqrt(x) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.sqrt(mpmath.mpf(x.numerator) / x.denominator)


def _mpf(x) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _mcc(t):
    m = _margins(t)
    num = sum(m.diag) * m.n - sum(r * p for r, p in zip(m.rows, m.cols, strict=True))
    den = (m.n**2 - sum(p * p for p in m.cols)) * (m.n**2 - sum(r * r for r in m.rows))
    return mpmath.mpf(0) if den == 0 else mpmath.mpf(num) / mpmath.sqrt(mpmath.mpf(den))


def _yao(t):
    k = len(t)
    tt = math.prod(t[i][i] for i in range(k)) ** (k - 1)
    ff = math.prod(t[i][j] for i in range(k) for j in range(k) if i != j)
    a = math.prod(t[i][i] + t[i][j] for i in range(k) for j in range(k) if i != j)
    b = math.prod(t[j][j] + t[i][j] for j in range(k) for i in range(k) if i != j)
    if a * b == 0:
        return mpmath.mpf(0)
    return mpmath.mpf(tt - ff) / mpmath.sqrt(mpmath.mpf(a) * mpmath.mpf(b))


def _gmean(t):
    m = _margins(t)
    prod = math.prod(q(d, r) for d, r in zip(m.diag, m.rows, strict=True))
    return _mpf(prod) ** (mpmath.mpf(1) / m.k)


def _class_mcc(tp, fp, fn, tn):
    den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return mpmath.mpf(0) if den == 0 else mpmath.mpf(tp * tn - fp * fn) / _msqrt(den)


IRRATIONAL_OVERALL = {
    "mcc": _mcc,
    "mcc_yao2022": _yao,
    "gmean": _gmean,
    "cramer_v": lambda t: _msqrt(q(_chi2(t), _margins(t).n * (len(t) - 1))),
    "pearson_c": lambda t: _msqrt(q(_chi2(t), _margins(t).n + _chi2(t))),
}
IRRATIONAL_PER_CLASS = {
    "class_mcc": _class_mcc,
    "class_gmean": lambda *c: _msqrt(_tpr(*c) * _tnr(*c)),
    "g_measure": lambda *c: _msqrt(_ppv(*c) * _tpr(*c)),
}

#: metrics neither rational nor among the products fixed here, with the reason
NOT_CHECKED = {
    "kappa_se": "square root; built from accuracy and random accuracy (both checked)",
    "kappa_ci_lower": "kappa (checked) minus z standard errors",
    "kappa_ci_upper": "kappa (checked) plus z standard errors",
    "aickin_alpha": "fixed-point iteration",
    "dind": "square root of rates",
    "sind": "square root of rates",
    "dp": "logarithms",
    "agm": "square root of rates",
    "agf": "square root of F-scores",
    "sensitivity_index": "probits",
    "p_value": "incomplete beta function",
    "accuracy_se": "square root of accuracy (checked)",
    "accuracy_ci_lower": "accuracy (checked) minus z standard errors",
    "accuracy_ci_upper": "accuracy (checked) plus z standard errors",
    "reference_entropy": "logarithms",
    "response_entropy": "logarithms",
    "joint_entropy": "logarithms",
    "conditional_entropy": "logarithms",
    "mutual_information": "logarithms",
    "rci": "logarithms",
    "cross_entropy": "logarithms",
    "kl_divergence": "logarithms",
    "cen": "logarithms",
    "mcen": "logarithms",
    "overall_cen": "logarithms",
    "overall_mcen": "logarithms",
    "information_score": "logarithms",
}


def _ovr(t):
    """One-vs-rest (TP, FP, FN, TN) of every class."""
    m = _margins(t)
    return [(d, p - d, r - d, m.n - r - p + d)
            for d, r, p in zip(m.diag, m.rows, m.cols, strict=True)]


def _value(fn, *args):
    try:
        return fn(*args)
    except Undefined:
        return None


# --------------------------------------------------------------------------- comparison
def _agrees(ours, exact, scale=None) -> bool:
    """``ours`` within 1e-9 of ``exact`` relative to ``|exact|`` (or to ``scale`` for a mean of
    signed values), NaN exactly where the definition divides by zero."""
    ours = float(ours) if isinstance(ours, float | np.floating) else int(ours)
    if exact is None:
        return isinstance(ours, float) and math.isnan(ours)
    if isinstance(ours, float) and not math.isfinite(ours):
        return False
    if isinstance(exact, mpmath.mpf):
        exact = Fraction(mpmath.nstr(exact, 40, strip_zeros=False)) if exact else Fraction(0)
    exact = Fraction(exact)
    ref = abs(exact) if scale is None else Fraction(scale)
    # below float64's normal range a value keeps no relative precision (it may round to 0)
    return abs(Fraction(ours) - exact) <= RTOL * ref + TINY


def _check_table(table: np.ndarray) -> list[str]:
    """Every checked metric on one table, with no, micro and macro averaging; returns the
    disagreements."""
    t = [[int(v) for v in row] for row in table]
    cm = ConfusionMatrix(table)
    bad: list[str] = []
    per_class = {**PER_CLASS, **IRRATIONAL_PER_CLASS}
    overall = {**OVERALL, **IRRATIONAL_OVERALL}
    ovr = _ovr(t)
    pooled = tuple(sum(c[i] for c in ovr) for i in range(4))
    with warnings.catch_warnings(), mpmath.workdps(50):
        warnings.simplefilter("ignore")
        ours = cm.metrics(list(per_class) + list(overall), zero_division=np.nan)
        micro = cm.metrics(list(per_class), average="micro", zero_division=np.nan)
        macro = cm.metrics(list(per_class), average="macro", zero_division=np.nan)
        for name, fn in overall.items():
            exact = _value(fn, t)
            if not _agrees(ours[name], exact):
                bad.append(f"{name}: {ours[name]!r} vs {exact}")
        for name, fn in per_class.items():
            exact = [_value(fn, *c) for c in ovr]
            for i, e in enumerate(exact):
                if not _agrees(ours[name][i], e):
                    bad.append(f"{name}[{i}]: {ours[name][i]!r} vs {e}")
            e = _value(fn, *pooled)
            if not _agrees(micro[name], e):
                bad.append(f"{name} micro: {micro[name]!r} vs {e}")
            defined = [Fraction(_mpf_to_fraction(v)) for v in exact if v is not None]
            if defined:
                mean = sum(defined) / len(defined)
                scale = sum(abs(v) for v in defined) / len(defined)
                ok = _agrees(macro[name], mean, scale)
            else:
                ok = math.isnan(macro[name])
            if not ok:
                bad.append(f"{name} macro: {macro[name]!r}")
        for weights in ("linear", "quadratic"):
            got = cm.metric("kappa", weights=weights, zero_division=np.nan)
            exact = _value(_kappa, t, weights)
            if not _agrees(got, exact):
                bad.append(f"kappa {weights}: {got!r} vs {exact}")
    return bad


def _mpf_to_fraction(v):
    if isinstance(v, mpmath.mpf):
        return Fraction(mpmath.nstr(v, 40, strip_zeros=False)) if v else Fraction(0)
    return v


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
            exact = _yao([[int(v) for v in row] for row in table])
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
            assert cm.metric("mcc") == pytest.approx(float(_mcc(t)), rel=1e-12)
        for name in ("kappa", "scott_pi", "ari", "chi_squared", "gwet_ac1",
                     "krippendorff_alpha"):
            assert cm.metric(name) == pytest.approx(float(OVERALL[name](t)), rel=1e-12), name
        for name in ("informedness", "markedness", "yule_q"):
            exact = [float(PER_CLASS[name](*c)) for c in _ovr(t)]
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
