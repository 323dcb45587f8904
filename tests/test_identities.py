"""Identities between metrics (a tutorial's identities and the definitions) as hypothesis properties, and the
numerical honesty of products of many counts (``mcc_yao2022``, ``gmean``).

The identities are stated by the published sources or follow in one line from the definitions; each test
computes one side with confmat and the other side by hand from the raw counts.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import matthews_corrcoef

from confmat import ConfusionMatrix
from conftest import N_EXAMPLES, Case, cases, count_tables, expand, quiet


def _defined(*arrays):
    mask = np.ones(np.shape(arrays[0]), dtype=bool)
    for a in arrays:
        mask &= ~np.isnan(np.asarray(a, dtype=np.float64))
    return mask


# -------------------------------------------- multi-class F1 tutorial, 1.5-1.7
@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool"), labels="full"), st.floats(0.1, 10.0))
def test_micro_averages_equal_accuracy(case: Case, beta: float) -> None:
    """micro recall = micro precision = micro F1 = micro F-beta = accuracy (no label subset),
    and weighted recall = accuracy."""
    cm = ConfusionMatrix.from_predictions(
        case.y_true, case.y_pred, labels=case.labels, sample_weight=case.sample_weight
    )
    acc = cm.metric("accuracy")
    # by hand: trace / total of the table
    assert acc == pytest.approx(np.trace(cm.counts) / cm.counts.sum(), rel=1e-12)
    for name in ("recall", "precision", "f1"):
        ours = cm.metric(name, "micro", zero_division=0)
        assert ours == pytest.approx(acc, rel=1e-12, abs=1e-15), name
    ours = cm.metric("fbeta", "micro", beta=beta, zero_division=0)
    assert ours == pytest.approx(acc, rel=1e-12, abs=1e-15)
    ours = cm.metric("recall", "weighted", zero_division=0)
    assert ours == pytest.approx(acc, rel=1e-12, abs=1e-15)
    assert cm.metric("weighted_accuracy") == pytest.approx(acc, rel=1e-12, abs=1e-15)


@settings(max_examples=N_EXAMPLES)
@given(count_tables(1, 8))
def test_counting_blog_formulas_by_hand(table: np.ndarray) -> None:
    """Per-class and averaged recall/precision/F1/F-beta/Jaccard from AP_i, PP_i, TP_i."""
    cm = ConfusionMatrix(table)
    tp = np.diag(table).astype(float)
    ap = table.sum(axis=1).astype(float)
    pp = table.sum(axis=0).astype(float)
    n = table.sum()
    beta = 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        by_hand = {
            "recall": tp / ap,
            "precision": tp / pp,
            "f1": 2 * tp / (ap + pp),
            "jaccard": tp / (ap + pp - tp),
        }
        fb = (beta**2 + 1) * tp / (beta**2 * ap + pp)
    for name, expected in by_hand.items():
        ours = cm.metric(name, zero_division="nan")
        np.testing.assert_allclose(ours, expected, rtol=1e-12, equal_nan=True, err_msg=name)
        # macro: plain mean over the classes where the value is defined (sklearn's nan rule)
        defined = ~np.isnan(expected)
        if defined.any():
            macro = expected[defined].mean()
            assert cm.metric(name, "macro", zero_division="nan") == pytest.approx(macro, rel=1e-12)
        # weighted by frequency AP_i / N (multi-class F1 tutorial, 1.7) where every value is defined
        if defined.all():
            weighted = float((ap / n * expected).sum())
            ours = cm.metric(name, "weighted", zero_division=0)
            assert ours == pytest.approx(weighted, rel=1e-12, abs=1e-15)
    np.testing.assert_allclose(
        cm.metric("fbeta", beta=beta, zero_division="nan"), fb, rtol=1e-12, equal_nan=True
    )
    # micro jaccard: sum TP / sum (AP + PP - TP)
    micro_j = cm.metric("jaccard", "micro", zero_division="nan")
    assert micro_j == pytest.approx(tp.sum() / (ap + pp - tp).sum(), nan_ok=True)
    assert ap.sum() == pp.sum() == n == cm.n


@settings(max_examples=N_EXAMPLES)
@given(count_tables(2, 8))
def test_per_class_identities(table: np.ndarray) -> None:
    cm = ConfusionMatrix(table)
    m = {name: quiet(cm.metric, name, zero_division="nan") for name in (
        "recall", "specificity", "precision", "npv", "fpr", "fnr", "fdr", "for", "f1",
        "jaccard", "informedness", "markedness", "class_accuracy", "class_gmean", "lr_plus",
        "lr_minus", "dor", "tp", "fp", "fn", "tn", "support", "predicted", "prevalence",
        "class_mcc",
    )}

    def same(a, b, what):
        mask = _defined(a, b)
        np.testing.assert_allclose(np.asarray(a)[mask], np.asarray(b)[mask], rtol=1e-10,
                                   atol=1e-12, err_msg=what)

    same(m["jaccard"], m["f1"] / (2 - m["f1"]), "jaccard = f1 / (2 - f1)")
    same(m["informedness"], m["recall"] + m["specificity"] - 1, "BM = TPR + TNR - 1")
    same(m["markedness"], m["precision"] + m["npv"] - 1, "MK = PPV + NPV - 1")
    same(m["fpr"], 1 - m["specificity"], "FPR = 1 - TNR")
    same(m["fnr"], 1 - m["recall"], "FNR = 1 - TPR")
    same(m["fdr"], 1 - m["precision"], "FDR = 1 - PPV")
    same(m["for"], 1 - m["npv"], "FOR = 1 - NPV")
    same(m["class_accuracy"], m["recall"], "Kneusel (2021)'s per-class accuracy = recall")
    same(m["class_gmean"], np.sqrt(m["recall"] * m["specificity"]), "GM = sqrt(TPR TNR)")
    with np.errstate(divide="ignore", invalid="ignore"):
        same(m["lr_plus"], m["recall"] / m["fpr"], "LR+ = TPR / FPR")
        same(m["lr_minus"], m["fnr"] / m["specificity"], "LR- = FNR / TNR")
        same(m["dor"], m["lr_plus"] / m["lr_minus"], "DOR = LR+ / LR-")
    # |MCC| = sqrt(BM * MK) for every one-vs-rest table (Kneusel 2021)
    with np.errstate(invalid="ignore"):
        same(np.abs(m["class_mcc"]), np.sqrt(m["informedness"] * m["markedness"]), "MCC^2 = BM MK")
    # counts
    n = table.sum()
    assert np.array_equal(m["tp"], np.diag(table))
    assert np.array_equal(m["support"], table.sum(axis=1))
    assert np.array_equal(m["predicted"], table.sum(axis=0))
    assert np.array_equal(m["tp"] + m["fn"], m["support"])
    assert np.array_equal(m["tp"] + m["fp"], m["predicted"])
    assert np.array_equal(m["tp"] + m["fp"] + m["fn"] + m["tn"], np.full(table.shape[0], n))
    np.testing.assert_allclose(m["prevalence"], table.sum(axis=1) / n)


@settings(max_examples=N_EXAMPLES)
@given(count_tables(1, 8), st.sampled_from([None, "micro", "macro", "weighted"]))
def test_fbeta_at_one_is_f1(table: np.ndarray, average) -> None:
    cm = ConfusionMatrix(table)
    ours = quiet(cm.metric, "fbeta", average, beta=1.0, zero_division="nan")
    np.testing.assert_allclose(ours, quiet(cm.metric, "f1", average, zero_division="nan"),
                               rtol=1e-14, equal_nan=True)


@settings(max_examples=N_EXAMPLES)
@given(count_tables(1, 8))
def test_overall_identities(table: np.ndarray) -> None:
    cm = ConfusionMatrix(table)
    n = table.sum()
    acc = np.trace(table) / n
    assert cm.metric("accuracy") == pytest.approx(acc)
    assert cm.metric("error_rate") == pytest.approx(1 - acc, abs=1e-15)
    assert cm.metric("hamming_loss") == pytest.approx(1 - acc, abs=1e-15)
    assert cm.metric("zero_one_loss") == pytest.approx(1 - acc, abs=1e-15)
    assert cm.metric("zero_one_loss", normalize=False) == n - np.trace(table)
    assert cm.metric("n") == n
    # Cohen's kappa as (p_o - p_e) / (1 - p_e) (Yao et al. 2022; scikit-learn)
    pe = (table.sum(axis=1) * table.sum(axis=0)).sum() / n**2
    if pe != 1:
        assert quiet(cm.metric, "kappa") == pytest.approx((acc - pe) / (1 - pe), rel=1e-9, abs=1e-12)
    # balanced accuracy: mean recall over classes that occur in the truth
    rows = table.sum(axis=1)
    present = rows > 0
    assert quiet(cm.metric, "balanced_accuracy") == pytest.approx(
        (np.diag(table)[present] / rows[present]).mean()
    )


@settings(max_examples=N_EXAMPLES)
@given(count_tables(2, 6), st.data())
def test_permutation_and_scale_invariance(table: np.ndarray, data) -> None:
    """Renaming or reordering classes permutes per-class values and keeps unweighted overall
    metrics; multiplying every count by c changes no rate."""
    k = table.shape[0]
    perm = data.draw(st.permutations(range(k)))
    cm = ConfusionMatrix(table)
    moved = ConfusionMatrix(table[np.ix_(perm, perm)])
    scaled = ConfusionMatrix(table * 7)
    for name in ("recall", "precision", "f1", "class_mcc", "informedness"):
        a = quiet(cm.metric, name, zero_division="nan")
        np.testing.assert_allclose(quiet(moved.metric, name, zero_division="nan"),
                                   a[perm], rtol=1e-12, equal_nan=True)
        np.testing.assert_allclose(quiet(scaled.metric, name, zero_division="nan"), a,
                                   rtol=1e-12, equal_nan=True)
    for name in ("accuracy", "kappa", "mcc", "mcc_yao2022", "gmean", "balanced_accuracy"):
        a = quiet(cm.metric, name, zero_division="nan")
        for other in (moved, scaled):
            b = quiet(other.metric, name, zero_division="nan")
            assert b == pytest.approx(a, rel=1e-9, abs=1e-12, nan_ok=True), name


# --------------------------------------------------------------------- MCC: two classes
@settings(max_examples=N_EXAMPLES)
@given(count_tables(2, 2, high=1000))
def test_mcc_yao2022_equals_sklearn_mcc_for_two_classes(table: np.ndarray) -> None:
    cm = ConfusionMatrix(table)
    expected = quiet(matthews_corrcoef, *expand(table))
    assert quiet(cm.metric, "mcc_yao2022") == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert quiet(cm.metric, "mcc") == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert quiet(cm.metric, "class_mcc")[0] == pytest.approx(expected, rel=1e-9, abs=1e-12)


# --------------------------------------------------------------------- numerical honesty
def _yao_mpmath(table: np.ndarray) -> mpmath.mpf:
    """The generalised MCC of Yao et al. (2022) with exact integers, the square root at 60 digits."""
    c = [[int(v) for v in row] for row in table]
    k = len(c)
    t = math.prod(c[i][i] for i in range(k)) ** (k - 1)
    f = math.prod(c[i][j] for i in range(k) for j in range(k) if i != j)
    a = math.prod(c[i][i] + c[i][j] for i in range(k) for j in range(k) if i != j)
    p = math.prod(c[j][j] + c[i][j] for j in range(k) for i in range(k) if i != j)
    with mpmath.workdps(60):
        return mpmath.mpf(t - f) / mpmath.sqrt(mpmath.mpf(a) * mpmath.mpf(p))


def _gmean_mpmath(table: np.ndarray) -> mpmath.mpf:
    k = table.shape[0]
    with mpmath.workdps(60):
        prod = mpmath.mpf(1)
        for i in range(k):
            prod *= mpmath.mpf(int(table[i, i])) / mpmath.mpf(int(table[i].sum()))
        return prod ** (mpmath.mpf(1) / k)


@pytest.mark.parametrize("kind", ["diagonal_heavy", "all_near_1e6"])
def test_fifty_classes_near_a_million(kind: str) -> None:
    rng = np.random.default_rng(50)
    k = 50
    if kind == "diagonal_heavy":
        table = rng.integers(1, 20_000, size=(k, k))
        np.fill_diagonal(table, rng.integers(900_000, 1_100_000, size=k))
    else:  # every cell near 1e6: the two products of Yao et al.'s numerator nearly cancel
        table = rng.integers(999_000, 1_001_000, size=(k, k))
    cm = ConfusionMatrix(table)
    yao = cm.metric("mcc_yao2022")
    assert math.isfinite(yao)
    expected = _yao_mpmath(table)
    assert yao == pytest.approx(float(expected), rel=1e-9, abs=1e-300)
    g = cm.metric("gmean")
    assert math.isfinite(g) and g > 0
    assert g == pytest.approx(float(_gmean_mpmath(table)), rel=1e-12)


def test_gmean_does_not_underflow_with_many_classes() -> None:
    """400 classes with recall 1e-3 each: the product 1e-1200 underflows a float; the mean of
    logs does not."""
    k = 400
    table = np.ones((k, k), dtype=np.int64)
    table[np.arange(k), (np.arange(k) + 1) % k] += 600  # each row: 1 correct out of 1000
    rows = table.sum(axis=1)
    assert np.all(rows == 1000)
    assert float(np.prod(np.diag(table) / rows)) == 0.0  # the naive product underflows
    g = ConfusionMatrix(table).metric("gmean")
    assert g > 0
    assert g == pytest.approx(float(_gmean_mpmath(table)), rel=1e-12)


def test_mcc_yao2022_with_zero_cells_follows_the_formula() -> None:
    """A zero off-diagonal cell removes the penalty term; a zero diagonal cell the reward
    (the formula, worked exactly)."""
    for table in ([[5, 0, 1], [2, 7, 3], [1, 1, 9]], [[0, 2, 1], [2, 7, 3], [1, 1, 9]]):
        table = np.array(table)
        expected = float(_yao_mpmath(table))
        assert ConfusionMatrix(table).metric("mcc_yao2022") == pytest.approx(expected, rel=1e-12)
