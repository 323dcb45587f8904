"""The metric registry on edge tables, against PyCM 4.6 and exact oracles.

The random catalogue check (``tests/oracles/test_pycm_catalogue.py``) draws K from 2 to 12 and
cells below 10 000; the exact-oracle tests (``tests/test_overflow.py``, ``tests/test_scale.py``)
draw random integer tables and evenly scaled weights. This file takes the tables those draws
rarely reach: K = 1; 2 x 2 tables with an empty row, an empty column, an empty diagonal or all
the counts in one cell; up to 30 classes of which most are empty; cells near 2**53 and 2**62;
weights near 1e-300 and 1e300, weights that are not integers, and weights whose cells span
more than 2**53 within one table. Every table is given both as counts and as predictions.

Oracles: PyCM 4.6 (``pycm.ConfusionMatrix``) where it accepts the table; ``fractions.Fraction``
and mpmath at 50 digits written from the textbook formulas (``tests/exact_oracles.py``, and the
logarithmic and probit metrics below, from Sokolova et al. 2006 and Macmillan & Creelman 2005).

Policy (as in the catalogue check): where PyCM gives a number confmat agrees to 1e-9 relative
(1e-12 absolute); where PyCM says "None" confmat gives NaN with ``zero_division=np.nan``,
except for the documented differences, each pinned here to an independent value:

- Matthews coefficients are 0 when a marginal is constant (Yao et al. 2022, scikit-learn);
- averages leave undefined classes out (scikit-learn's rule), PyCM's averages become None;
- the keys the registry marks ``differs`` (``confmat.metrics.pycm_keys``), with their reason;
- weights near 1e-300: PyCM's float products of counts underflow to 0 and it reports None;
  confmat rescales the table by a power of two (``metrics/rescaling.py``, docs/scaling.md)
  and equals the exact value;
- counts near 2**53 and beyond: PyCM rounds a rate to 1 and reports a logit or probit as
  None; confmat forms them from the counts (the exact value).
"""

from __future__ import annotations

import math
import numbers
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pycm
import pytest

from confmat import ConfusionMatrix
from confmat.metrics import Stats, evaluate, find_pycm, pycm_keys
from exact_oracles import (
    IRRATIONAL_OVERALL,
    IRRATIONAL_PER_CLASS,
    OVERALL,
    PER_CLASS,
    agrees,
    ovr,
    value,
)

RTOL, ATOL = 1e-9, 1e-12


def _one_cell(i: int, j: int) -> np.ndarray:
    t = np.zeros((2, 2), dtype=np.int64)
    t[i, j] = 9
    return t


def _many_empty(k: int, used: list[int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.zeros((k, k), dtype=np.int64)
    for a in used:
        for b in used:
            t[a, b] = rng.integers(0, 20)
    t[used[0], used[0]] += 1
    return t


INTEGER_TABLES = {
    "k1": np.array([[7]]),
    "k2_zero_row": np.array([[0, 0], [3, 4]]),
    "k2_zero_col": np.array([[0, 5], [0, 4]]),
    "k2_zero_diag": np.array([[0, 5], [3, 0]]),
    **{f"k2_only_cell_{i}{j}": _one_cell(i, j) for i in (0, 1) for j in (0, 1)},
    "k3_one_true_class": np.array([[0, 0, 0], [4, 5, 6], [0, 0, 0]]),
    "k20_three_cells": np.array([[5 if (i, j) == (3, 3) else 2 if (i, j) == (3, 7)
                                  else 1 if (i, j) == (7, 3) else 0 for j in range(20)]
                                 for i in range(20)]),
    "k30_five_used": _many_empty(30, [2, 9, 17, 23, 29], 3),
    "k30_one_cell": np.diag([0] * 4 + [3] + [0] * 25),
    "near_2_53": np.array([[2**53 - 1, 3], [5, 2**52]]),
    "near_2_53_k3": np.array([[2**53 - 1, 1, 0], [1, 2**53 - 3, 2], [0, 0, 7]]),
    "above_2_53": np.array([[2**53 + 1, 1], [1, 2**53 + 1]]),
    "near_2_62": np.array([[2**62, 2**61], [2**60, 2**60 - 1]]),
    "near_2_62_lopsided": np.array([[2**62 - 3, 1], [1, 1]]),
    "near_2_62_halves": np.array([[2**61, 2**61 - 1], [2**61 - 1, 1]]),
}
WEIGHTED_TABLES = {
    "w_k1": np.array([[0.3]]),
    "w_k1_tiny": np.array([[1e-300]]),
    "w_k1_huge": np.array([[1e300]]),
    "w_tiny": np.array([[3e-300, 1e-300], [2e-300, 5e-300]]),
    "w_huge": np.array([[3e300, 1e300], [2e300, 5e300]]),
    "w_not_integers": np.array([[0.5, 1.25, 0.0], [0.1, 2.7, 0.3], [0.0, 0.4, 1.9]]),
    "w_zero_row_tiny": np.array([[0.0, 0.0], [1e-300, 5e-301]]),
    "w_one_cell_huge": np.array([[0.0, 1e300], [0.0, 0.0]]),
    "w_k30_sparse": _many_empty(30, [0, 11, 28], 5) * 0.37,
}
TABLES = {**INTEGER_TABLES, **WEIGHTED_TABLES}


def _predictions(table: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """One sample per non-zero cell (weighted by the cell) or ``cell`` samples per cell."""
    k = table.shape[0]
    yt, yp = np.repeat(np.arange(k), k), np.tile(np.arange(k), k)
    keep = table.ravel() > 0
    if table.dtype.kind == "f":
        return yt[keep], yp[keep], table.ravel()[keep]
    reps = table.ravel()
    return np.repeat(yt, reps), np.repeat(yp, reps), None


def _is_number(v: object) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _undefined(v: object) -> bool:
    return v is None or v == "None" or (isinstance(v, tuple) and any(_undefined(x) for x in v))


def _pycm(table: np.ndarray) -> pycm.ConfusionMatrix:
    k = table.shape[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if table.dtype.kind != "f":
            return pycm.ConfusionMatrix(matrix=table.tolist())
        yt, yp, w = _predictions(table)
        return pycm.ConfusionMatrix(actual_vector=yt.tolist(), predict_vector=yp.tolist(),
                                    sample_weight=w.tolist(), classes=list(range(k)))


def _fraction_table(table: np.ndarray) -> list[list]:
    if table.dtype.kind == "f":
        return [[Fraction(float(v)) for v in row] for row in table]
    return [[int(v) for v in row] for row in table]


def _exact(metric: str, table: np.ndarray, cls: int | None) -> object:
    """The exact oracle of ``metric`` (None where it divides by zero), or ``...`` if there is
    none for it."""
    t = _fraction_table(table)
    with mpmath.workdps(50):
        if cls is None and metric in {**OVERALL, **IRRATIONAL_OVERALL}:
            return value({**OVERALL, **IRRATIONAL_OVERALL}[metric], t)
        if cls is not None and metric in {**PER_CLASS, **IRRATIONAL_PER_CLASS}:
            return value({**PER_CLASS, **IRRATIONAL_PER_CLASS}[metric], *ovr(t)[cls])
        if cls is not None and metric in EXTRA_PER_CLASS:
            return value(EXTRA_PER_CLASS[metric], *ovr(t)[cls])
        if cls is None and metric in EXTRA_OVERALL:
            return value(EXTRA_OVERALL[metric], t)
    return ...


# --------------------------------------------------------------------------- logits, probits
def _mp(x) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _dp(tp, fp, fn, tn):
    """Discriminant power (Sokolova et al. 2006): sqrt(3)/pi (log10 TPR/(1-TPR) + log10
    TNR/(1-TNR)); the odds are TP/FN and TN/FP."""
    from exact_oracles import Undefined

    if 0 in (tp, fp, fn, tn):
        raise Undefined
    return mpmath.sqrt(3) / mpmath.pi * (mpmath.log10(_mp(Fraction(tp) / fn))
                                         + mpmath.log10(_mp(Fraction(tn) / fp)))


def _d_prime(tp, fp, fn, tn):
    """Sensitivity index d' = Phi^-1(TPR) - Phi^-1(FPR) (Macmillan & Creelman 2005)."""
    from exact_oracles import Undefined

    if 0 in (tp, fp, fn, tn):
        raise Undefined
    tpr, fpr = _mp(Fraction(tp) / (tp + fn)), _mp(Fraction(fp) / (fp + tn))
    return mpmath.sqrt(2) * (mpmath.erfinv(2 * tpr - 1) - mpmath.erfinv(2 * fpr - 1))


def _dind(tp, fp, fn, tn):
    """Distance index sqrt(FPR^2 + FNR^2) (PyCM's dInd)."""
    from exact_oracles import q

    return mpmath.sqrt(_mp(q(fp, fp + tn)) ** 2 + _mp(q(fn, fn + tp)) ** 2)


EXTRA_PER_CLASS = {"dp": _dp, "sensitivity_index": _d_prime, "dind": _dind}


def _kappa_se(t):
    """Standard error of kappa, sqrt(p_o (1 - p_o) / (N (1 - p_e)^2)) (Cohen 1960, as PyCM)."""
    from exact_oracles import acc, margins, q, racc

    p_o, p_e = acc(t), racc(t)
    return mpmath.sqrt(_mp(q(p_o * (1 - p_o), margins(t).n * (1 - p_e) ** 2)))


def _kappa_ci(sign: int):
    def ci(t):
        from exact_oracles import kappa

        return _mp(kappa(t)) + sign * mpmath.mpf("1.96") * _kappa_se(t)

    return ci


def _h(counts, total) -> mpmath.mpf:
    """Shannon entropy in bits of the shares counts / total (Shannon 1948)."""
    return -sum((_mp(Fraction(c) / total) * mpmath.log(_mp(Fraction(c) / total), 2)
                 for c in counts if c), mpmath.mpf(0))


def _entropies(t):
    k = len(t)
    rows = [sum(r) for r in t]
    cols = [sum(t[i][j] for i in range(k)) for j in range(k)]
    n = sum(rows)
    h_t, h_p = _h(rows, n), _h(cols, n)
    h_joint = _h([c for r in t for c in r], n)
    h_cond = sum((_mp(Fraction(r) / n) * _h(t[i], r) for i, r in enumerate(rows) if r),
                 mpmath.mpf(0))
    return h_t, h_p, h_joint, h_cond


def _rci(t):
    from exact_oracles import Undefined

    h_t, h_p, _, h_cond = _entropies(t)
    if h_t == 0:
        raise Undefined
    return (h_p - h_cond) / h_t


EXTRA_OVERALL = {"kappa_se": _kappa_se, "kappa_ci_lower": _kappa_ci(-1),
                 "kappa_ci_upper": _kappa_ci(1),
                 "reference_entropy": lambda t: _entropies(t)[0],
                 "response_entropy": lambda t: _entropies(t)[1],
                 "joint_entropy": lambda t: _entropies(t)[2],
                 "conditional_entropy": lambda t: _entropies(t)[3],
                 "mutual_information": lambda t: _entropies(t)[1] - _entropies(t)[3],
                 "rci": _rci}


def _close(ours: float, exact: object, scale: float | None = None) -> bool:
    if exact is None:
        return math.isnan(ours)
    if isinstance(exact, mpmath.mpf):
        return math.isfinite(ours) and abs(mpmath.mpf(ours) - exact) <= RTOL * abs(exact) + 1e-300
    return agrees(ours, exact, scale)


# --------------------------------------------------------------------------- against PyCM
def _our_values(table: np.ndarray) -> dict:
    out = {}
    for (tname, key), entries in pycm_keys().items():
        for e in entries:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                v = evaluate(e.metric, Stats(table, zero_division="nan"), e.average,
                             warn=False, **e.params)
            out[(tname, key, e.element)] = (e, np.asarray(v, dtype=np.float64))
    return out


PYCM_TABLES = [name for name in TABLES if TABLES[name].shape[0] > 1 and name not in
               ("w_huge", "w_one_cell_huge")]  # PyCM: K >= 2; its float sums overflow at 1e300


def _disagreements(name: str) -> list[str]:
    table = TABLES[name]
    cm = _pycm(table)
    weighted = table.dtype.kind == "f"
    bad = []
    for (tname, key, element), (e, v) in _our_values(table).items():
        if tname == "class":
            pairs = [(float(np.broadcast_to(v, (len(cm.classes),))[i]),
                      cm.class_stat[key][c], i) for i, c in enumerate(cm.classes)]
        else:
            theirs = cm.overall_stat[key]
            if element is not None and isinstance(theirs, tuple):
                theirs = theirs[element]
            pairs = [(float(v), theirs, None)]
        for ours, theirs, cls in pairs:
            where = f"{name} {key} class {cls}"
            if _undefined(theirs):
                if e.differs or key in ("MCC", "Overall MCC") or e.average is not None:
                    continue  # documented; pinned in tests/oracles/test_pycm_catalogue.py
                if weighted and key in ("ARI", "P-Value"):
                    continue  # PyCM's pair counts and binomial sums need integer counts
                exact = _exact(e.metric, table, cls) if not e.params else ...
                if exact is ... or exact is None:
                    if not math.isnan(ours):
                        bad.append(f"{where}: PyCM None, confmat {ours!r}")
                # PyCM's products underflowed (or a rate rounded to 1): the exact value
                elif not _close(ours, exact):
                    bad.append(f"{where}: PyCM None, confmat {ours!r}, exact {exact}")
                continue
            if not _is_number(theirs):
                continue
            theirs = float(theirs)
            if key == "P-Value":
                ok = abs(ours - theirs) <= 1e-9
            elif key == "Cross Entropy" and math.isinf(ours):
                ok = True  # PyCM drops the infinite term (documented)
            else:
                ok = math.isclose(ours, theirs, rel_tol=RTOL, abs_tol=ATOL)
            if not ok and not e.params:
                # PyCM takes log2 of shares that round near 1 and loses digits: where confmat
                # equals the exact value and PyCM does not, confmat stands
                exact = _exact(e.metric, table, cls)
                ok = exact is not ... and exact is not None and _close(ours, exact) \
                    and not _close(theirs, exact)
            if not ok:
                bad.append(f"{where}: confmat {ours!r}, PyCM {theirs!r}")
    return bad


@pytest.mark.parametrize("name", PYCM_TABLES)
def test_every_pycm_statistic_on_edge_tables(name: str) -> None:
    assert not _disagreements(name)


def test_pycm_refuses_what_confmat_answers_exactly() -> None:
    """PyCM does not build a 1 x 1 table, and its sums of 1e300 weights overflow; confmat's
    values there are pinned to the exact oracles below."""
    with pytest.raises(pycm.pycmMatrixError):
        _pycm(TABLES["k1"])
    with pytest.raises(OverflowError):
        _pycm(TABLES["w_huge"])


# --------------------------------------------------------------------------- exact oracles
def _exact_disagreements(table: np.ndarray) -> list[str]:
    cm = ConfusionMatrix(table)
    t = _fraction_table(table)
    sides = ovr(t)
    pooled = tuple(sum(c[i] for c in sides) for i in range(4))
    n = sum(sum(row) for row in t)
    bad = []
    with warnings.catch_warnings(), mpmath.workdps(50):
        warnings.simplefilter("ignore")
        for name, fn in {**OVERALL, **IRRATIONAL_OVERALL, **EXTRA_OVERALL}.items():
            got = cm.metric(name, zero_division=np.nan)
            if not _close(got, value(fn, t)):
                bad.append(f"{name}: {got!r} vs {value(fn, t)}")
        for name, fn in {**PER_CLASS, **IRRATIONAL_PER_CLASS, **EXTRA_PER_CLASS}.items():
            # counts and differences of counts are exact to the rounding of the total
            scale = n if name in ("automatic_manual", "tn", "negatives",
                                  "predicted_negatives") else None
            got = cm.metric(name, zero_division=np.nan)
            for i, c in enumerate(sides):
                if not _close(float(got[i]), value(fn, *c), scale):
                    bad.append(f"{name}[{i}]: {got[i]!r} vs {value(fn, *c)}")
            if name in EXTRA_PER_CLASS:
                continue
            micro = cm.metric(name, average="micro", zero_division=np.nan)
            if not _close(float(micro), value(fn, *pooled), scale):
                bad.append(f"{name} micro: {micro!r} vs {value(fn, *pooled)}")
    return bad


@pytest.mark.parametrize("name", list(TABLES))
def test_rational_and_irrational_metrics_equal_exact_oracles(name: str) -> None:
    assert not _exact_disagreements(TABLES[name])


# tables of more than a million samples are not listed one by one
LISTABLE = [name for name, t in TABLES.items() if t.dtype.kind == "f" or t.sum() <= 10**6]


@pytest.mark.parametrize("name", LISTABLE)
def test_counts_and_predictions_give_the_same_metrics(name: str) -> None:
    table = TABLES[name]
    yt, yp, w = _predictions(table)
    k = table.shape[0]
    from_pred = ConfusionMatrix.from_predictions(yt, yp, labels=list(range(k)), sample_weight=w)
    np.testing.assert_array_equal(from_pred.counts, table)
    a, b = ConfusionMatrix(table), from_pred
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for e in {e.metric: e for es in pycm_keys().values() for e in es}.values():
            np.testing.assert_array_equal(
                a.metric(e.metric, zero_division=np.nan, **e.params),
                b.metric(e.metric, zero_division=np.nan, **e.params), err_msg=e.metric)


# --------------------------------------------------------------------------- pinned by hand
def test_one_class_table_by_hand() -> None:
    """K = 1 ([[7]]): every sample right, no negatives. Accuracy = 1; recall = precision = 1;
    specificity = TN / (TN + FP) = 0 / 0 undefined; kappa's chance agreement is 1, so kappa is
    0 / 0 undefined; MCC is 0 by the constant-marginal rule (Yao et al. 2022)."""
    cm = ConfusionMatrix([[7]])
    assert cm.metric("accuracy") == 1.0
    assert cm.metric("recall").tolist() == [1.0]
    assert cm.metric("precision").tolist() == [1.0]
    assert math.isnan(cm.metric("specificity", zero_division=np.nan)[0])
    assert math.isnan(cm.metric("kappa", zero_division=np.nan))
    assert cm.metric("mcc") == 0.0


def test_discriminant_power_near_2_53_by_hand() -> None:
    """TP = 2**53 - 1, FN = 1, TN = 2**53 + 6, FP = 1 (class 0 of ``near_2_53_k3``): the odds
    TPR / (1 - TPR) and TNR / (1 - TNR) are TP / FN and TN / FP, so DP = sqrt(3) / pi
    log10((2**53 - 1)(2**53 + 6)) (Sokolova et al. 2006). ``1 - TNR`` in floats is 2**-52 instead
    of about 2**-53: the value was 0.166 too low."""
    dp = math.sqrt(3) / math.pi * (math.log10(2**53 - 1) + math.log10(2**53 + 6))
    got = ConfusionMatrix(TABLES["near_2_53_k3"]).metric("dp")[0]
    assert got == pytest.approx(dp, rel=1e-12)
    assert find_pycm("DP")[0].metric == "dp"


def test_rates_rounding_to_one_stay_defined() -> None:
    """[[2**60, 1], [1, 2**60]]: TPR = 2**60 / (2**60 + 1) is 1.0 in float64, so PyCM's DP is
    None (log of 1 / 0); its exact value is sqrt(3) / pi 2 log10(2**60), and the distance index
    sqrt(FPR^2 + FNR^2) = sqrt(2) / (2**60 + 1) (not 0)."""
    t = np.array([[2**60, 1], [1, 2**60]])
    assert _undefined(_pycm(t).class_stat["DP"][0])
    cm = ConfusionMatrix(t)
    assert cm.metric("dp")[0] == pytest.approx(math.sqrt(3) / math.pi * 120 * math.log10(2),
                                               rel=1e-12)
    assert cm.metric("dind")[0] == pytest.approx(math.sqrt(2) / (2**60 + 1), rel=1e-12)
    # d' = 2 Phi^-1(1 - 1 / (2**60 + 1)), worked with mpmath at 50 digits
    with mpmath.workdps(50):
        d = float(2 * mpmath.sqrt(2) * mpmath.erfinv(1 - mpmath.mpf(2) / (2**60 + 1)))
    assert cm.metric("sensitivity_index")[0] == pytest.approx(d, rel=1e-9)


def test_tiny_weights_where_pycm_underflows() -> None:
    """Weights near 1e-300: PyCM's kappa is None (its products of margins underflow); kappa of
    [[3, 1], [2, 5]] by hand is (p_o - p_e) / (1 - p_e), p_o = 8/11, p_e = (4 5 + 7 6) / 11**2."""
    t = TABLES["w_tiny"]
    assert _undefined(_pycm(t).overall_stat["Kappa"])
    p_o, p_e = Fraction(8, 11), Fraction(4 * 5 + 7 * 6, 121)
    assert ConfusionMatrix(t).metric("kappa") == pytest.approx(float((p_o - p_e) / (1 - p_e)),
                                                               rel=1e-13)


def test_lambda_with_weights_spanning_more_than_2_53() -> None:
    """Goodman & Kruskal's lambdas of [[2**53, 1], [1, 3]] as weights: the rows sum to
    2**53 + 1 and 4, so lambda_B = (sum_j max_i C_ij - max_i P_i) / (N - max_i P_i)
    = (2**53 + 3 - (2**53 + 1)) / (2**53 + 5 - (2**53 + 1)) = 2 / 4. Float sums round
    2**53 + 1 to 2**53, which gave 1.0."""
    cm = ConfusionMatrix(np.array([[2.0**53, 1.0], [1.0, 3.0]]))
    assert cm.metric("lambda_b") == 0.5
    assert cm.metric("lambda_a") == 0.5


SPAN_2_53 = np.array([[2.0**53, 1.0], [1.0, 3.0]])


def test_weights_spanning_more_than_2_53() -> None:
    """[[2**53, 1], [1, 3]] as weights: the error rate is 2 / (2**53 + 5) (it was 0: 1 - ACC
    with ACC rounding to 1), the entropies, mutual information and RCI equal their mpmath
    values (RCI was 0.7319, exact 0.7250), and so does every other metric with an oracle
    (Scott's pi, Krippendorff's alpha and the adjusted Rand index gave 1.0, exact about 3/4)."""
    assert not _exact_disagreements(SPAN_2_53)
    assert ConfusionMatrix(SPAN_2_53).metric("error_rate") == pytest.approx(2 / (2**53 + 5),
                                                                             rel=1e-15)
