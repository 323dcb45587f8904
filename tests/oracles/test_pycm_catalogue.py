"""The whole PyCM 4.6 catalogue against confmat, on 500 random matrices per run.

PyCM is evaluated once per matrix; every numeric statistic of its ``class_stat`` and
``overall_stat`` is then compared with the confmat evaluation named by the registry's PyCM key
table (``confmat.metrics.pycm_keys()``). confmat evaluates each statistic once per stack of
matrices with the same K, so the same run also checks that every metric is vectorised over
batch axes (the per-matrix spot check below completes that).

Policy: where PyCM gives a number we agree to a relative 1e-9 (absolute 1e-12 for values that
should be 0); where PyCM is undefined ("None") confmat with ``zero_division=np.nan`` gives NaN,
except for the keys the table marks as ``differs`` (and the Matthews coefficients and the
averages, see below), whose values are pinned to independent computations in this file.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections import defaultdict

import numpy as np
import pycm
import pytest
from scipy import stats as sps

from confmat import ConfusionMatrix
from confmat.metrics import Stats, evaluate, find_pycm, get_metric, pycm_keys

N_MATRICES = 500


class CatalogueCoverage(UserWarning):
    """Carries the coverage line to the end of a pytest run (not a problem report)."""

RTOL, ATOL = 1e-9, 1e-12

# Defined by confmat where PyCM says None, on purpose (checked against independent oracles):
#  - Matthews coefficients are 0 when a marginal is constant (Yao et al. 2022, Kneusel 2021, scikit-learn);
#  - averages leave undefined classes out (scikit-learn's rule), PyCM's become None.
DEFINED_WHERE_PYCM_IS_NOT = {"MCC", "Overall MCC"}


def _random_tables(seed: int = 20261121) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    kinds = ["dense", "sparse", "zero_row", "zero_col", "perfect", "perfect_gap",
             "one_pred", "one_true", "large", "tiny", "diag_heavy", "zero_row_col"]
    i = 0
    while len(out) < N_MATRICES:
        kind = kinds[i % len(kinds)]
        i += 1
        k = int(rng.integers(2, 13))
        t = rng.integers(0, 20, (k, k))
        if kind == "sparse":
            t = t * (rng.random((k, k)) < 0.3)
        elif kind == "zero_row":
            t[rng.integers(k)] = 0
        elif kind == "zero_col":
            t[:, rng.integers(k)] = 0
        elif kind == "perfect":
            t = np.diag(rng.integers(1, 30, k))
        elif kind == "perfect_gap":
            t = np.diag(rng.integers(1, 30, k))
            g = rng.integers(k)
            t[g, g] = 0
        elif kind == "one_pred":
            t = np.zeros((k, k), dtype=np.int64)
            t[:, rng.integers(k)] = rng.integers(0, 20, k)
        elif kind == "one_true":
            t = np.zeros((k, k), dtype=np.int64)
            t[rng.integers(k)] = rng.integers(0, 20, k)
        elif kind == "large":
            t = rng.integers(0, 10_000, (k, k))
        elif kind == "tiny":
            t = rng.integers(0, 3, (k, k))
        elif kind == "diag_heavy":
            t = t + np.diag(rng.integers(50, 200, k))
        elif kind == "zero_row_col":
            g = rng.integers(k)
            t[g] = 0
            t[:, g] = 0
        if t.sum() == 0:
            continue
        out.append(t.astype(np.int64))
    return out


TABLES = _random_tables()


def _pycm(table: np.ndarray) -> pycm.ConfusionMatrix:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pycm.ConfusionMatrix(matrix=table.tolist())


def _is_number(v: object) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _numeric(v: object) -> bool:
    """A numeric PyCM value: a number, or a tuple of numbers (intervals, 'Overall J')."""
    if isinstance(v, tuple):
        return len(v) > 0 and all(_is_number(x) for x in v)
    return _is_number(v)


def _undefined(v: object) -> bool:
    return v is None or v == "None" or (isinstance(v, tuple) and any(_undefined(x) for x in v))


@pytest.fixture(scope="module")
def pycm_objects() -> list[pycm.ConfusionMatrix]:
    return [_pycm(t) for t in TABLES]


@pytest.fixture(scope="module")
def ours() -> dict:
    """Every PyCM key evaluated by confmat, batched over all matrices of one K."""
    by_k: dict[int, list[int]] = defaultdict(list)
    for idx, t in enumerate(TABLES):
        by_k[t.shape[0]].append(idx)
    values: dict[tuple[str, str, int], list] = {}
    for (table, key), entries in pycm_keys().items():
        for e in entries:
            per_matrix: list = [None] * len(TABLES)
            for idxs in by_k.values():
                stack = np.stack([TABLES[i] for i in idxs])
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    out = evaluate(e.metric, Stats(stack, zero_division="nan"), e.average,
                                   warn=False, **e.params)
                for row, i in enumerate(idxs):
                    per_matrix[i] = out[row]
            values[(table, key, -1 if e.element is None else e.element)] = per_matrix
    return values


def _numeric_keys(objs) -> set[tuple[str, str]]:
    keys = set()
    for cm in objs:
        for key, per_class in cm.class_stat.items():
            if any(_numeric(v) for v in per_class.values()):
                keys.add(("class", key))
        for key, v in cm.overall_stat.items():
            if _numeric(v):
                keys.add(("overall", key))
    return keys


def test_coverage_of_numeric_pycm_statistics(pycm_objects, capsys) -> None:
    numeric = _numeric_keys(pycm_objects)
    table = pycm_keys()
    covered = numeric & set(table)
    missing = sorted(numeric - covered)
    line = (f"PyCM 4.6 numeric statistics covered: {len(covered)} / {len(numeric)} "
            f"(class_stat {sum(t == 'class' for t, _ in covered)}, overall_stat "
            f"{sum(t == 'overall' for t, _ in covered)}); missing: {missing or 'none'}")
    with capsys.disabled():
        print("\n" + line)
    # also in pytest's warnings summary, which survives pytest-xdist (workers' prints do not)
    warnings.warn(line, CatalogueCoverage, stacklevel=1)
    assert len(numeric) >= 110  # the enumeration is not vacuous (118 in PyCM 4.6)
    assert not missing, line
    # every declared key exists in PyCM (no typos in the table)
    names = {("class", k) for k in pycm_objects[0].class_stat} | {
        ("overall", k) for k in pycm_objects[0].overall_stat}
    assert set(table) <= names, sorted(set(table) - names)


def _compare(e, ours_v: float, theirs: object, where: str) -> None:
    key = e.key
    if _undefined(theirs):
        if e.differs or key in DEFINED_WHERE_PYCM_IS_NOT:
            return  # pinned by the tests below
        if e.average is not None:
            return  # confmat's averages skip undefined classes; pinned below
        assert math.isnan(ours_v), f"{key} {where}: PyCM None, confmat {ours_v}"
        return
    theirs = float(theirs)
    if key == "P-Value":
        assert abs(ours_v - theirs) <= 1e-9, (key, where, ours_v, theirs)
        return
    if key == "Cross Entropy" and math.isinf(ours_v):
        return  # PyCM drops the infinite term; pinned below
    assert math.isclose(ours_v, theirs, rel_tol=RTOL, abs_tol=ATOL), \
        f"{key} {where}: confmat {ours_v!r} vs PyCM {theirs!r}"


def test_every_numeric_statistic_agrees(pycm_objects, ours) -> None:
    table = pycm_keys()
    compared = 0
    for (tname, key), entries in table.items():
        for e in entries:
            elem = -1 if e.element is None else e.element
            vals = ours[(tname, key, elem)]
            for m, cm in enumerate(pycm_objects):
                if tname == "class":
                    mine = np.broadcast_to(vals[m], (len(cm.classes),))
                    for i, label in enumerate(cm.classes):
                        theirs = cm.class_stat[key][label]
                        if not (_numeric(theirs) or _undefined(theirs)):
                            continue
                        _compare(e, float(mine[i]), theirs, f"matrix {m} class {label}")
                        compared += 1
                else:
                    theirs = cm.overall_stat[key]
                    if e.element is not None and not _undefined(theirs):
                        theirs = theirs[e.element]
                    _compare(e, float(vals[m]), theirs, f"matrix {m}")
                    compared += 1
    assert compared > 100_000


def test_batched_equals_per_matrix() -> None:
    """Each metric on a (B, K, K) stack equals the metric on each matrix alone."""
    rng = np.random.default_rng(7)
    stack = rng.integers(0, 9, (6, 4, 4))
    stack[1, 2] = 0
    stack[2, :, 1] = 0
    stack[3] = np.diag([3, 4, 5, 6])
    seen = set()
    for entries in pycm_keys().values():
        for e in entries:
            if (e.metric, e.average) in seen:
                continue
            seen.add((e.metric, e.average))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                batched = evaluate(e.metric, Stats(stack, zero_division="nan"), e.average,
                                   warn=False, **e.params)
                single = [evaluate(e.metric, Stats(t, zero_division="nan"), e.average,
                                   warn=False, **e.params) for t in stack]
            np.testing.assert_allclose(batched, np.stack(single), rtol=1e-12, atol=0,
                                       err_msg=e.metric, equal_nan=True)


# ------------------------------------------------------------------ pinned deviations
def test_yule_q_defined_where_pycm_divides_by_zero() -> None:
    # [[TP, FN], [FP, TN]] = [[5, 0], [3, 7]]: FN = 0, so FP FN = 0 and Q = 35 / 35 = 1
    cm = ConfusionMatrix([[5, 0], [3, 7]])
    assert cm.metric("yule_q", pos_label=0) == 1.0
    assert _undefined(_pycm(np.array([[5, 0], [3, 7]])).class_stat["Q"][0])
    # all four cells non-zero: Q = (ad - bc) / (ad + bc) by hand
    a, b, c, d = 6, 2, 3, 9
    q = (a * d - b * c) / (a * d + b * c)
    assert ConfusionMatrix([[a, b], [c, d]]).metric("yule_q", pos_label=0) == pytest.approx(q)
    # both products zero: undefined
    assert math.isnan(ConfusionMatrix([[0, 0], [3, 7]]).metric("yule_q", pos_label=0,
                                                                 zero_division=np.nan))


@pytest.mark.parametrize("idx", range(0, N_MATRICES, 7))
def test_kl_and_cross_entropy_against_scipy(idx: int) -> None:
    t = TABLES[idx]
    p = t.sum(1) / t.sum()
    q = t.sum(0) / t.sum()
    cm = ConfusionMatrix(t)
    assert cm.metric("kl_divergence") == pytest.approx(sps.entropy(p, q, base=2), rel=1e-9,
                                                       abs=1e-12)
    ce = sps.entropy(p, base=2) + sps.entropy(p, q, base=2)
    assert cm.metric("cross_entropy") == pytest.approx(ce, rel=1e-9, abs=1e-12)


def test_kl_when_a_class_is_absent_from_the_truth() -> None:
    t = np.array([[4, 1, 0], [0, 0, 0], [1, 1, 3]])  # class 1 never occurs but is predicted
    p = np.array([5, 0, 5]) / 10
    q = np.array([5, 2, 3]) / 10
    expected = 0.5 * math.log2(0.5 / 0.5) + 0.5 * math.log2(0.5 / 0.3)
    assert ConfusionMatrix(t).metric("kl_divergence") == pytest.approx(expected)
    assert sps.entropy(p, q, base=2) == pytest.approx(expected)
    assert _undefined(_pycm(t).overall_stat["KL Divergence"])


@pytest.mark.parametrize("idx", range(0, N_MATRICES, 5))
def test_p_value_against_scipy_binomial(idx: int) -> None:
    t = TABLES[idx]
    n = int(t.sum())
    x = int(np.trace(t))
    nir = t.sum(1).max() / n
    expected = sps.binom.sf(x - 1, n, nir)
    assert ConfusionMatrix(t).metric("p_value") == pytest.approx(expected, rel=1e-7, abs=1e-300)


def test_mcc_zero_where_pycm_undefined() -> None:
    from sklearn.metrics import matthews_corrcoef

    t = np.array([[0, 5], [0, 7]])  # constant prediction
    y_true = np.repeat([0, 0, 1, 1], [0, 5, 0, 7])
    y_pred = np.repeat([0, 1, 0, 1], [0, 5, 0, 7])
    assert matthews_corrcoef(y_true, y_pred) == 0.0
    assert ConfusionMatrix(t).metric("mcc") == 0.0
    assert _undefined(_pycm(t).overall_stat["Overall MCC"])


def test_macro_average_skips_undefined_classes_like_sklearn() -> None:
    from sklearn.metrics import recall_score

    t = np.array([[3, 1, 0], [0, 0, 0], [1, 0, 4]])  # class 1 has no true samples
    y_true = np.repeat(np.repeat(np.arange(3), 3), t.ravel())
    y_pred = np.repeat(np.tile(np.arange(3), 3), t.ravel())
    expected = recall_score(y_true, y_pred, average="macro", labels=[0, 1, 2],
                            zero_division=np.nan)
    ours_v = ConfusionMatrix(t).metric("recall", average="macro", zero_division=np.nan)
    assert ours_v == pytest.approx(expected)
    assert ours_v == pytest.approx((3 / 4 + 4 / 5) / 2)
    assert _undefined(_pycm(t).overall_stat["TPR Macro"])


def test_pycm_key_lookup_and_errors() -> None:
    (e,) = find_pycm("TPR Macro")
    assert (e.metric, e.average) == ("recall", "macro")
    lo, hi = find_pycm("95% CI")
    assert (lo.metric, hi.metric) == ("accuracy_ci_lower", "accuracy_ci_upper")
    assert get_metric(find_pycm("F0.5")[0].metric).name == "fbeta"
    assert find_pycm("F0.5")[0].params == {"beta": 0.5}
    with pytest.raises(ValueError, match="did you mean 'TPR Macro'"):
        find_pycm("TPR Macr")
    with pytest.raises(TypeError, match="key must be a string"):
        find_pycm(3)


# PyCM's parametrised per-class methods (not part of class_stat)
METHODS = [
    ("sensitivity_index", {}, lambda cm: cm.sensitivity_index()),
    ("tversky_index", {"alpha": 0.3, "beta": 1.7}, lambda cm: cm.TI(0.3, 1.7)),
    ("net_benefit", {"w": 0.25}, lambda cm: cm.NB(0.25)),
    ("fbeta", {"beta": 3.0}, lambda cm: cm.F_beta(3.0)),
    ("iba", {"alpha": 0.1}, lambda cm: cm.IBA_alpha(0.1)),
]


@pytest.mark.parametrize(("name", "params", "method"), METHODS, ids=[m[0] for m in METHODS])
def test_pycm_methods(pycm_objects, name, params, method) -> None:
    compared = 0
    for t, cm in zip(TABLES[::2], pycm_objects[::2], strict=True):
        ours_v = ConfusionMatrix(t).metric(name, zero_division=np.nan, **params)
        theirs = method(cm)
        for i, label in enumerate(cm.classes):
            _compare(find_pycm("TPR")[0], float(ours_v[i]), theirs[label], f"{name} {label}")
            compared += 1
    assert compared > 1000


def test_aickin_alpha(pycm_objects) -> None:
    """Agrees with PyCM's aickin_alpha() wherever the fixed-point iteration converges; where
    it diverges confmat says undefined (PyCM returns a chaotic iterate, pinned below)."""
    agree = diverged = 0
    for t, cm in zip(TABLES, pycm_objects, strict=True):
        theirs = cm.aickin_alpha()
        ours_v = ConfusionMatrix(t).metric("aickin_alpha", zero_division=np.nan)
        if _undefined(theirs):
            assert math.isnan(ours_v)
        elif math.isnan(ours_v):
            diverged += 1
        else:
            assert math.isclose(ours_v, theirs, rel_tol=RTOL, abs_tol=ATOL), (t, ours_v, theirs)
            agree += 1
    assert agree > 400 and diverged <= N_MATRICES // 50, (agree, diverged)


def test_aickin_alpha_divergence_is_undefined() -> None:
    from pycm.overall_funcs import alpha2_calc

    t = np.array([[2, 1], [1, 0]])
    top, p, pop = {0: 3, 1: 1}, {0: 3, 1: 1}, {0: 4, 1: 4}
    # PyCM's answer is not a fixed point: it jumps with the iteration budget
    runs = [alpha2_calc(top, p, 0.5, pop, [0, 1], max_iter=m) for m in (3, 4, 20, 21, 32)]
    assert max(runs) - min(runs) > 5
    assert math.isnan(ConfusionMatrix(t).metric("aickin_alpha", zero_division=np.nan))
    # a well-behaved table: the result is a fixed point of Aickin's equations
    t = np.array([[40, 5, 2], [6, 30, 4], [1, 3, 20]])
    a = ConfusionMatrix(t).metric("aickin_alpha", epsilon=1e-12, max_iter=10_000)
    n, top, p = t.sum(), t.sum(0), t.sum(1)
    acc = np.trace(t) / n
    pa, pb = top / n, p / n
    for _ in range(5000):  # solve the same model independently, iterating to convergence
        pe = (pa * pb).sum()
        pa = top / ((1 - a + a * pb / pe) * n)
        pb = p / ((1 - a + a * pa / pe) * n)
    pe = (pa * pb).sum()
    assert a == pytest.approx((acc - pe) / (1 - pe), rel=1e-6)


def test_weighted_counts_agree_with_pycm_sample_weights() -> None:
    """Float tables (sums of sample weights) against PyCM built from weighted vectors."""
    rng = np.random.default_rng(99)
    compared = 0
    for _ in range(40):
        k = int(rng.integers(2, 6))
        w = rng.random((k, k)) * 5 * (rng.random((k, k)) < 0.85)
        keep = w.ravel() > 0
        if not keep.any():
            continue
        yt = np.repeat(np.arange(k), k)[keep].tolist()
        yp = np.tile(np.arange(k), k)[keep].tolist()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cm = pycm.ConfusionMatrix(actual_vector=yt, predict_vector=yp,
                                      sample_weight=w.ravel()[keep].tolist(),
                                      classes=list(range(k)))
        t = np.array([[cm.table[i][j] for j in range(k)] for i in range(k)], dtype=float)
        np.testing.assert_allclose(t, w, rtol=1e-12)
        for (table, key), entries in pycm_keys().items():
            for e in entries:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    v = evaluate(e.metric, Stats(t, zero_division="nan"), e.average, warn=False,
                                 **e.params)
                if table == "class":
                    pairs = zip(np.broadcast_to(v, (k,)),
                                (cm.class_stat[key][c] for c in cm.classes), strict=True)
                else:
                    theirs = cm.overall_stat[key]
                    if e.element is not None and isinstance(theirs, tuple):
                        theirs = theirs[e.element]
                    pairs = [(v, theirs)]
                for ours_v, theirs in pairs:
                    if key in ("ARI", "P-Value") and _undefined(theirs):
                        continue  # PyCM's pair counts and binomial sum need integer counts
                    if _numeric(theirs) or _undefined(theirs):
                        _compare(e, float(ours_v), theirs, f"weighted {key}")
                        compared += 1
    assert compared > 5000
