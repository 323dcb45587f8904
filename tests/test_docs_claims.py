"""The behaviour the documentation states, claim by claim.

Each test quotes the claim it checks and names the page and section. Values come from
independent oracles: scikit-learn, statsmodels, SciPy, fairlearn, pROC through
``tests/proc_oracle.py`` (Robin et al. 2011), or a formula worked in the test.
The last part checks that the pages cite their sources by author and year and that every
``confmat.xxx`` name they mention exists and is public.
"""

from __future__ import annotations

import importlib
import inspect
import json
import math
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

import confmat
from confmat import ConfusionMatrix
from confmat import sklearn as csk
from proc_oracle import proc  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parent.parent


def _binary(n: int = 300, seed: int = 0, ties: bool = True) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = 0.3 * y + rng.random(n) * 0.7
    return y, (np.round(s, 2) if ties else s)


def _three(n: int = 300, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    logits = rng.normal(size=(n, 3)) + 1.2 * np.eye(3)[y]
    return y, np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)


# =============================================================================================
# docs/guide.md


def test_guide_orientation_rows_true_columns_predicted() -> None:
    # guide.md, Orientation: "`C[i, j]` counts samples whose **true** label is `labels[i]` and
    # whose **predicted** label is `labels[j]` ... as in scikit-learn"
    rng = np.random.default_rng(0)
    t, p = rng.integers(0, 4, 200), rng.integers(0, 4, 200)
    np.testing.assert_array_equal(ConfusionMatrix.from_predictions(t, p).counts,
                                  skm.confusion_matrix(t, p))


def test_guide_pred_rows_transposes_once() -> None:
    # guide.md, Orientation: "`ConfusionMatrix(table, orientation="pred_rows")`, which
    # transposes it once on entry"
    table = [[5, 1, 0], [2, 7, 3], [0, 4, 9]]
    cm = ConfusionMatrix(table, orientation="pred_rows")
    np.testing.assert_array_equal(cm.counts, np.array(table).T)


@pytest.mark.parametrize("y_true, y_pred, name", [
    ([1, "a", 1], [1, 1, 1], "y_true"),            # a mix that cannot be ordered
    ([1, None, 1], [1, 1, 1], "y_true"),           # a missing value
    ([1.0, 2.0, 1.0], [1.0, float("nan"), 1.0], "y_pred"),
    ([[1, 2], [1, 2]], [[1, 2], [1, 2]], "y_true"),  # 2-D
    ([1, 2, 1], [1, 2], "y_"),                     # unequal lengths
    ([], [], "y_true"),                            # empty
])
def test_guide_bad_labels_name_the_argument(y_true: list, y_pred: list, name: str) -> None:
    # guide.md, Labels: "A mix that cannot be ordered (`[1, "a"]`), a missing value (`None`,
    # `NaN`, ...), 2-D input, unequal lengths and empty input are errors naming the argument"
    with pytest.raises((ValueError, TypeError), match=name):
        ConfusionMatrix.from_predictions(y_true, y_pred)


def test_guide_missing_value_names_its_row() -> None:
    # guide.md, Labels: "... errors naming the argument (and the row of a missing value)"
    with pytest.raises(ValueError, match=r"y_pred.*\b3\b|\b3\b.*y_pred"):
        ConfusionMatrix.from_predictions(["a", "b", "a", "b"], ["a", "b", "a", None])


def test_guide_labels_compared_by_value() -> None:
    # guide.md, Labels: "`1` and `1.0` are one class, `-0.0` and `0.0` too, but
    # `float32(0.1)` and `0.1` are two (they are different numbers)"
    assert ConfusionMatrix.from_predictions([1, 2], [1.0, 2.0]).n_classes == 2
    assert ConfusionMatrix.from_predictions([-0.0, 1.0], [0.0, 1.0]).n_classes == 2
    assert ConfusionMatrix.from_predictions(np.array([np.float32(0.1)], dtype=object),
                                            np.array([0.1], dtype=object)).n_classes == 2


def test_guide_true_next_to_one_is_an_error_everywhere() -> None:
    # guide.md, Labels: "`True` next to `1` is an error, in one call, against `labels=` and
    # across `Accumulator` chunks (the drop-in `confmat.sklearn` keeps scikit-learn's
    # `True == 1`)"
    with pytest.raises((TypeError, ValueError)):
        ConfusionMatrix.from_predictions([True, False], [1, 0])
    with pytest.raises((TypeError, ValueError), match="labels"):
        ConfusionMatrix.from_predictions([1, 0], [1, 0], labels=[True, False])
    acc = confmat.Accumulator()
    acc.update([1, 0], [1, 0])
    with pytest.raises((TypeError, ValueError), match="chunk"):
        acc.update([True, False], [True, False])
    t, p = [True, False, True], [1, 0, 0]
    np.testing.assert_array_equal(csk.confusion_matrix(t, p), skm.confusion_matrix(t, p))


def test_guide_series_paired_by_position() -> None:
    # guide.md, Labels: "A pandas Series is paired by position, not aligned on its index, as in
    # scikit-learn"
    t = pd.Series(["a", "b", "a"], index=[0, 1, 2])
    p = pd.Series(["a", "b", "b"], index=[2, 1, 0])
    np.testing.assert_array_equal(ConfusionMatrix.from_predictions(t, p).counts,
                                  skm.confusion_matrix(t, p))


def test_guide_categorical_order_does_not_order_classes() -> None:
    # guide.md, Labels: "A categorical's category order does not order the classes: without
    # `labels` they are sorted by value, and unused categories are not classes."
    cat = pd.CategoricalDtype(["z", "b", "a", "unused"])
    t = pd.Series(["a", "z", "b"], dtype=cat)
    cm = ConfusionMatrix.from_predictions(t, t)
    assert list(cm.labels) == ["a", "b", "z"]


def test_guide_datetimes_at_microseconds() -> None:
    # guide.md, Labels: "a date in days and the same instant in seconds are one class; values
    # finer than a microsecond ... are an error"
    days = np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]")
    secs = days.astype("datetime64[s]")
    assert ConfusionMatrix.from_predictions(days, secs).n_classes == 2
    ns = np.array(["2020-01-01T00:00:00.000000001"], dtype="datetime64[ns]")
    with pytest.raises(ValueError, match="y_true"):
        ConfusionMatrix.from_predictions(ns, ns)


def test_guide_labels_sorted_union_absent_and_subset() -> None:
    # guide.md, Labels: "Without `labels`, the classes are the sorted union"; "`labels` may name
    # classes that never occur (their rows and columns are zero) or select a subset ... a sample
    # whose true label is unselected but which is predicted as class `j` is a false positive of
    # `j`, exactly as in `precision_recall_fscore_support(labels=...)`"
    t, p = ["c", "a", "b", "c", "a"], ["a", "a", "c", "c", "b"]
    assert list(ConfusionMatrix.from_predictions(t, p).labels) == ["a", "b", "c"]
    cm = ConfusionMatrix.from_predictions(t, p, labels=["c", "a", "zz"])
    assert cm.counts[2].sum() == 0 and cm.counts[:, 2].sum() == 0
    sub = ConfusionMatrix.from_predictions(t, p, labels=["a", "c"])
    assert sub.n_outside == 2  # the samples whose true and predicted labels are both "b"-ish
    prec, rec, *_ = skm.precision_recall_fscore_support(t, p, labels=["a", "c"],
                                                         zero_division=0)
    np.testing.assert_allclose(sub.metric("precision"), prec)
    np.testing.assert_allclose(sub.metric("recall"), rec)


@pytest.mark.parametrize("w", [[1, -1, 1], [1, np.nan, 1], [1, np.inf, 1], [0, 0, 0]])
def test_guide_bad_weights(w: list) -> None:
    # guide.md, Labels: "Weights must be finite, non-negative and not all zero."
    with pytest.raises(ValueError, match="sample_weight"):
        ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=w)


def test_guide_metric_names_case_and_dash_insensitive_with_suggestions() -> None:
    # guide.md, Metrics and averaging: "looks the name or any alias up in the registry (case and
    # `-`/`_` insensitive; an unknown name suggests close matches)"
    cm = ConfusionMatrix([[5, 2], [1, 7]])
    np.testing.assert_allclose(cm.metric("Balanced-Accuracy"), cm.metric("balanced_accuracy"))
    with pytest.raises(ValueError, match="recall"):
        cm.metric("recal")


@settings(max_examples=60)
@given(st.integers(1, 5).flatmap(lambda k: st.tuples(
    st.lists(st.integers(0, k - 1), min_size=1, max_size=60),
    st.randoms(use_true_random=False))))
def test_guide_micro_identities_and_weighted_recall(data: tuple) -> None:
    # guide.md, Metrics and averaging: "micro recall = micro precision = micro F1 = accuracy";
    # "weighted recall = accuracy" (random inputs)
    t, rnd = data
    p = [rnd.choice(t) if rnd.random() < 0.5 else x for x in t]
    cm = ConfusionMatrix.from_predictions(t, p)
    acc = skm.accuracy_score(t, p)
    for name in ("recall", "precision", "f1"):
        assert cm.metric(name, average="micro") == pytest.approx(acc, abs=1e-12)
    assert cm.metric("recall", average="weighted") == pytest.approx(acc, abs=1e-12)


def test_guide_macro_leaves_nan_out_and_pos_label_is_binary() -> None:
    # guide.md, Metrics and averaging: "As in scikit-learn, `NaN` values (with
    # `zero_division=np.nan`) are left out"; "`pos_label=<label>` returns that class's value,
    # like scikit-learn's `average="binary"`"
    t, p = [0, 1, 2, 0, 1], [0, 1, 1, 0, 1]  # class 2 never predicted
    cm = ConfusionMatrix.from_predictions(t, p)
    assert cm.metric("precision", average="macro", zero_division=np.nan) == pytest.approx(
        skm.precision_score(t, p, average="macro", zero_division=np.nan))
    assert cm.metric("recall", pos_label=1) == pytest.approx(
        skm.recall_score(t, p, labels=[1], average="macro"))


def test_guide_zero_division_warns_and_mcc_is_zero() -> None:
    # guide.md, Division by zero: "`zero_division="warn"` (default: the value is 0 and an
    # `UndefinedMetricWarning` names the metric)"; "MCC ... 0 when their denominator vanishes"
    cm = ConfusionMatrix([[3, 0], [4, 0]])  # nothing predicted positive
    with pytest.warns(Warning, match="precision"):
        assert cm.metric("precision", pos_label=1) == 0
    t, p = [0, 0, 0, 1], [0, 0, 0, 0]
    assert cm.metric("mcc") == skm.matthews_corrcoef(t, p) == 0


def test_guide_kappa_zero_expected_disagreement_follows_policy() -> None:
    # guide.md, Division by zero: "Cohen's kappa with zero expected disagreement follows the
    # policy (scikit-learn's default there is NaN; pass `zero_division=np.nan` to match it)"
    t = p = [1, 1, 1]
    cm = ConfusionMatrix.from_predictions(t, p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = skm.cohen_kappa_score(t, p)
    assert np.isnan(ref) and np.isnan(cm.metric("kappa", zero_division=np.nan))
    assert cm.metric("kappa", zero_division=1) == 1


def test_guide_binary_and_one_vs_rest_layouts() -> None:
    # guide.md, The 2 x 2 views: "`cm.binary(pos_label)` ... `[[TP, FN], [FP, TN]]`, labels
    # `[pos_label, "rest"]`"; "`cm.one_vs_rest()` returns a `(K, 2, 2)` array in
    # scikit-learn's `multilabel_confusion_matrix` layout"
    rng = np.random.default_rng(4)
    t, p = rng.integers(0, 3, 100), rng.integers(0, 3, 100)
    cm = ConfusionMatrix.from_predictions(t, p)
    b = cm.binary(1)
    tp = np.sum((t == 1) & (p == 1))
    fn = np.sum((t == 1) & (p != 1))
    fp = np.sum((t != 1) & (p == 1))
    tn = np.sum((t != 1) & (p != 1))
    np.testing.assert_array_equal(b.counts, [[tp, fn], [fp, tn]])
    assert list(b.labels) == [1, "rest"]
    np.testing.assert_array_equal(cm.one_vs_rest(), skm.multilabel_confusion_matrix(t, p))


def test_guide_huge_weights_scaled_and_far_apart_refused() -> None:
    # guide.md, Numerical honesty: "`ConfusionMatrix([[1e160, 2e159], [3e159, 4e160]])
    # .metric("mcc")` is the MCC of `[[10, 2], [3, 40]]`"; "1e300 beside 1e-300 in one table
    # make the metrics built of products a `ValueError` that names them"
    tp, fn, fp, tn = 40, 3, 2, 10  # the positive class is the second
    hand = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert ConfusionMatrix([[1e160, 2e159], [3e159, 4e160]]).metric("mcc") == pytest.approx(hand)
    with pytest.raises(ValueError, match="mcc"):
        ConfusionMatrix([[1e300, 1e-300], [1e-300, 1e300]]).metric("mcc")


def test_guide_gmean_and_yao_mcc_finite_on_big_tables() -> None:
    # guide.md, Numerical honesty: "a 50-class table with counts near 10^6 gives a finite,
    # correct value"
    rng = np.random.default_rng(5)
    table = rng.integers(10**5, 10**6, (50, 50)) + np.diag(np.full(50, 10**7))
    cm = ConfusionMatrix(table)
    recall = np.diag(table) / table.sum(axis=1)
    assert cm.metric("gmean") == pytest.approx(math.exp(np.mean(np.log(recall))), rel=1e-12)
    assert np.isfinite(cm.metric("mcc_yao2022"))


def test_guide_serialisation_schema() -> None:
    # guide.md, Serialisation: `{"schema": "confmat.confusion_matrix", "version": 1,
    # "orientation": "true_rows", "labels": [...], "counts": [[...]], "dtype": "int64" |
    # "float64"}` plus `"outside"` ... when a label subset left samples outside
    d = ConfusionMatrix([[1, 2], [3, 4]], labels=["a", "b"]).to_dict()
    assert d["schema"] == "confmat.confusion_matrix" and d["version"] == 1
    assert d["orientation"] == "true_rows" and d["dtype"] == "int64"
    assert d["labels"] == ["a", "b"] and d["counts"] == [[1, 2], [3, 4]]
    assert "outside" not in d
    w = ConfusionMatrix.from_predictions([0, 1], [0, 1], sample_weight=[0.5, 2.0]).to_dict()
    assert w["dtype"] == "float64"
    sub = ConfusionMatrix.from_predictions([0, 1, 2], [0, 1, 2], labels=[0, 1]).to_dict()
    assert np.array(sub["outside"]).shape == (3, 3)
    assert ConfusionMatrix.from_json(json.dumps(sub)).n_outside == 1


# =============================================================================================
# docs/sklearn.md

SK_FUNCS = ["confusion_matrix", "multilabel_confusion_matrix", "accuracy_score",
            "precision_score", "recall_score", "f1_score", "fbeta_score",
            "precision_recall_fscore_support", "jaccard_score", "matthews_corrcoef",
            "cohen_kappa_score", "balanced_accuracy_score", "hamming_loss", "zero_one_loss",
            "class_likelihood_ratios", "classification_report", "roc_auc_score", "roc_curve",
            "precision_recall_curve", "average_precision_score", "det_curve",
            "top_k_accuracy_score", "auc", "confusion_matrix_at_thresholds"]


@pytest.mark.parametrize("name", SK_FUNCS)
def test_sklearn_same_signatures(name: str) -> None:
    # sklearn.md: "`confmat.sklearn` provides, with scikit-learn's signatures (keyword-only
    # markers and defaults included) and behaviour:" (the table of functions)
    ours = inspect.signature(getattr(csk, name))
    theirs = inspect.signature(getattr(skm, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]


@pytest.mark.parametrize("beta", [0.0, np.inf, 0.5])
def test_sklearn_fbeta_zero_and_infinite_beta(beta: float) -> None:
    # sklearn.md: "`fbeta_score` (β = 0 and β = ∞ too)"
    rng = np.random.default_rng(6)
    t, p = rng.integers(0, 3, 100), rng.integers(0, 3, 100)
    assert csk.fbeta_score(t, p, beta=beta, average="macro") == pytest.approx(
        skm.fbeta_score(t, p, beta=beta, average="macro"))


def test_sklearn_weights_refused() -> None:
    # sklearn.md, Differences, Weights: "negative, NaN or infinite weights, and weights that
    # are all zero, are refused with a `ValueError` by every function of `confmat.sklearn`";
    # "For all-zero weights the message is scikit-learn 1.9's own"
    t, p = [0, 1, 1], [0, 1, 0]
    with pytest.raises(ValueError, match="sample_weight"):
        csk.accuracy_score(t, p, sample_weight=[1, -1, 1])
    with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero"):
        csk.f1_score(t, p, sample_weight=[0, 0, 0])


def test_sklearn_booleans_against_numbers() -> None:
    # sklearn.md, Booleans against numbers: "`confusion_matrix(y_int, p_int, labels=[True,
    # False])` counts the classes 1 and 0"; "A `labels=` list that itself mixes kinds
    # (`[True, 2]`, `['a', True]`) is a `TypeError`"
    t, p = [1, 0, 1, 1], [1, 0, 0, 1]
    np.testing.assert_array_equal(csk.confusion_matrix(t, p, labels=[True, False]),
                                  skm.confusion_matrix(t, p, labels=[True, False]))
    with pytest.raises(TypeError):
        csk.confusion_matrix(t, p, labels=[True, 2])


def test_sklearn_text_labels_for_numeric_targets() -> None:
    # sklearn.md, Text `labels=` or `pos_label=`: "`precision_score(y_int, p_int,
    # labels=['1'])` ... is a `ValueError` ("Mix of label input types ..."); "So is ...
    # (`f1_score([0, 0], [0, 0], pos_label='0')`"
    with pytest.raises(ValueError, match="Mix of label input types"):
        csk.precision_score([0, 1, 1], [0, 1, 0], labels=["1"], average="macro")
    with pytest.raises(ValueError):
        csk.f1_score([0, 0], [0, 0], pos_label="0")


def test_sklearn_pos_label_none_and_boolean_parameters() -> None:
    # sklearn.md: "`pos_label=None` with `average='binary'` is a `ValueError` naming
    # `pos_label`"; "`zero_division=True` or `beta=True` ... are a `ValueError` naming the
    # parameter"; "`pos_label=True` on labels {0, 1} ... is a `ValueError` that names the
    # class to pass" in confmat's own curves and scorers, "and so do the score functions of
    # `confmat.sklearn`" follow scikit-learn's `True == 1`; "`pos_label=1.0` for the class `1`
    # is the same number and is accepted"
    t, p = [0, 1, 1, 0], [0, 1, 0, 0]
    with pytest.raises(ValueError, match="pos_label"):
        csk.f1_score(t, p, pos_label=None)
    with pytest.raises(ValueError, match="zero_division"):
        csk.f1_score(t, p, zero_division=True)
    with pytest.raises(ValueError, match="beta"):
        csk.fbeta_score(t, p, beta=True)
    s = [0.1, 0.8, 0.4, 0.3]
    with pytest.raises(ValueError, match="pass pos_label=1"):
        confmat.roc_curve(t, s, pos_label=True)
    with pytest.raises(ValueError, match="pass pos_label=1"):
        confmat.sklearn_scorers.make_scorer("f1", pos_label=True)(_fixed(p), np.arange(4.0).reshape(-1, 1), t)
    for a, b in zip(csk.roc_curve(t, s, pos_label=True), skm.roc_curve(t, s, pos_label=True),
                    strict=True):
        np.testing.assert_allclose(a, b)
    np.testing.assert_allclose(csk.roc_curve(t, s, pos_label=1.0)[1],
                               skm.roc_curve(t, s, pos_label=1)[1])


def _fixed(pred: list) -> object:
    """A fitted classifier that predicts ``pred`` (for a scorer)."""
    from sklearn.neighbors import KNeighborsClassifier

    X = np.arange(len(pred), dtype=float).reshape(-1, 1)
    return KNeighborsClassifier(n_neighbors=1).fit(X, pred)


def test_sklearn_repeated_labels() -> None:
    # sklearn.md: "Repeated labels in `labels=` of `confusion_matrix` ... (`labels=[1, 1, 0]`)
    # are a `ValueError` naming `labels`"; "The set-wise scores ... repeat the label's values,
    # as scikit-learn does"
    t, p = [0, 1, 1, 0], [0, 1, 0, 0]
    with pytest.raises(ValueError, match="labels"):
        csk.confusion_matrix(t, p, labels=[1, 1, 0])
    np.testing.assert_allclose(csk.recall_score(t, p, labels=[1, 1, 0], average=None),
                               skm.recall_score(t, p, labels=[1, 1, 0], average=None))


def test_sklearn_sparse_explicit_zeros_are_zeros() -> None:
    # sklearn.md: "Explicit zeros stored in a sparse indicator matrix ... are zeros, as in the
    # same matrix made dense"
    import scipy.sparse as sp

    dense_t = np.array([[1, 0], [0, 1], [1, 1]])
    dense_p = np.array([[1, 0], [0, 0], [1, 1]])
    # row 1 stores an explicit 0 in column 1
    sp_p = sp.csr_matrix((np.array([1, 0, 1, 1]), np.array([0, 1, 0, 1]), np.array([0, 1, 2, 4])),
                         shape=(3, 2))
    assert sp_p.nnz == 4 and (sp_p.toarray() == dense_p).all()
    np.testing.assert_array_equal(
        csk.multilabel_confusion_matrix(sp.csr_matrix(dense_t), sp_p),
        skm.multilabel_confusion_matrix(dense_t, dense_p))


def test_sklearn_huge_integer_scores_and_masked_arrays() -> None:
    # sklearn.md: "Integer scores beyond 2**53 that float64 rounds to one value (`2**62` and
    # `2**62 + 1`) are a `ValueError` naming `y_score`"; "A masked entry of a numpy masked
    # array ... is a missing value and refused"
    with pytest.raises(ValueError, match="y_score"):
        csk.roc_auc_score([0, 1, 0], np.array([2**62, 2**62 + 1, 3], dtype=np.int64))
    masked = np.ma.masked_array([0, 1, 1], mask=[False, True, False])
    with pytest.raises(ValueError):
        csk.accuracy_score(masked, [0, 1, 1])


# =============================================================================================
# docs/curves.md


@settings(max_examples=60)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 8), st.integers(1, 4)),
                min_size=2, max_size=80).filter(lambda r: len({y for y, _, _ in r}) == 2))
def test_curves_roc_random_against_sklearn(rows: list) -> None:
    # curves.md, Curves and areas: "`confmat.roc_curve(y, score)  # ==
    # sklearn.metrics.roc_curve`" and `roc_auc` "== roc_auc_score (to 1e-12)", ties and
    # `sample_weight` included (random inputs)
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows]) / 8
    w = np.array([r[2] for r in rows], dtype=float)
    for a, b in zip(confmat.roc_curve(y, s, sample_weight=w),
                    skm.roc_curve(y, s, sample_weight=w), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    assert confmat.roc_auc(y, s, sample_weight=w) == pytest.approx(
        skm.roc_auc_score(y, s, sample_weight=w), abs=1e-12)


def test_curves_match_sklearn_with_ties_and_weights() -> None:
    # curves.md, Curves and areas: "`confmat.roc_curve(y, score)  # ==
    # sklearn.metrics.roc_curve`", precision_recall_curve, roc_auc (to 1e-12),
    # average_precision; "Same parameters ... `sample_weight` ..., `drop_intermediate`"
    y, s = _binary()
    w = np.random.default_rng(1).random(y.size)
    for kw in ({}, {"sample_weight": w}, {"drop_intermediate": False}):
        for a, b in zip(confmat.roc_curve(y, s, **kw), skm.roc_curve(y, s, **kw), strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12)
    kw = {"sample_weight": w}
    for a, b in zip(confmat.precision_recall_curve(y, s, **kw),
                    skm.precision_recall_curve(y, s, **kw), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    assert confmat.roc_auc(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert confmat.roc_auc(y, s, max_fpr=0.1) == pytest.approx(
        skm.roc_auc_score(y, s, max_fpr=0.1), abs=1e-12)
    assert confmat.average_precision(y, s) == pytest.approx(
        skm.average_precision_score(y, s), abs=1e-12)


def test_curves_multiclass_averages_match_sklearn() -> None:
    # curves.md: "`roc_auc(y, proba, multi_class="ovr", average="macro")   # also weighted,
    # micro, None`", "ovo" weighted (Hand & Till 2001)
    y, p = _three()
    for mc, avg in [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovr", None),
                    ("ovo", "macro"), ("ovo", "weighted")]:
        np.testing.assert_allclose(confmat.roc_auc(y, p, multi_class=mc, average=avg),
                                   skm.roc_auc_score(y, p, multi_class=mc, average=avg),
                                   atol=1e-12)


def test_curves_interpolated_average_precision_by_hand() -> None:
    # curves.md, Formulas: "`method="interpolated"` replaces `P_n` by `max_{m >= n} P_m`"
    y, s = _binary(seed=2)
    prec, rec, _ = skm.precision_recall_curve(y, s)
    # scikit-learn orders by decreasing threshold from the end; walk by increasing recall
    prec, rec = prec[::-1], rec[::-1]
    interp = np.maximum.accumulate(prec[::-1])[::-1]
    hand = float(np.sum(np.diff(rec) * interp[1:]))
    assert confmat.average_precision(y, s, method="interpolated") == pytest.approx(hand, abs=1e-12)


def test_curves_mcclish_partial_auc_formula() -> None:
    # curves.md, Formulas: "Partial AUC (`max_fpr`): ... `½ (1 + (A - m) / (M - m))`,
    # `m = max_fpr² / 2`, `M = max_fpr` (McClish 1989)"
    y, s = _binary(seed=3)
    fpr, tpr, _ = skm.roc_curve(y, s)
    t = 0.2
    tpr_t = np.interp(t, fpr, tpr)
    keep = fpr <= t
    a = np.trapezoid(np.append(tpr[keep], tpr_t), np.append(fpr[keep], t))
    hand = 0.5 * (1 + (a - t * t / 2) / (t - t * t / 2))
    assert confmat.roc_auc(y, s, max_fpr=t) == pytest.approx(hand, abs=1e-12)


def test_curves_deliberate_differences() -> None:
    # curves.md, "Where confmat differs from scikit-learn": `pos_label` absent from `y_true`
    # -> "`ValueError` naming `pos_label` and the labels"; binary `y_score` of shape (n, 2):
    # "column 1 is used"; non-finite scores: "`ValueError` naming `y_score` and the position"
    y, s = _binary(seed=4)
    with pytest.raises(ValueError, match="pos_label"):
        confmat.roc_curve(y, s, pos_label=7)
    both = np.column_stack([1 - s, s])
    assert confmat.roc_auc(y, both) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    bad = s.copy()
    bad[5] = np.nan
    with pytest.raises(ValueError, match=r"y_score.*5|5.*y_score"):
        confmat.roc_auc(y, bad)
    with pytest.raises(ValueError, match="sample_weight"):
        confmat.roc_auc(y, s, sample_weight=np.zeros(y.size))


def test_curves_one_class_is_nan_and_rows_must_sum_to_one() -> None:
    # curves.md: "One class only in `y_true` gives NaN with an `UndefinedMetricWarning`";
    # "Rows of a multiclass probability matrix that do not sum to 1 are a `ValueError` (naming
    # the first bad row)"
    with pytest.warns(Warning, match="(?i)undefined|one class|only one"):
        assert np.isnan(confmat.roc_auc([1, 1, 1], [0.2, 0.5, 0.9]))
    y, p = _three()
    p = p.copy()
    p[4] *= 2
    with pytest.raises(ValueError, match=r"\b4\b"):
        confmat.roc_auc(y, p, multi_class="ovr")


def test_curves_pos_label_rule_of_roc_auc() -> None:
    # curves.md, Curves and areas: "`pos_label` (needed unless the labels are {0, 1} or {-1,
    # 1})"; "`roc_auc` follows the same rule (scikit-learn's `roc_auc_score` takes the larger of
    # two labels ...; `confmat.sklearn.roc_auc_score` does too)"
    y, s = _binary(seed=5)
    text = np.where(y == 1, "b", "a")
    with pytest.raises(ValueError, match="pos_label"):
        confmat.roc_auc(text, s)
    assert confmat.roc_auc(text, s, pos_label="b") == pytest.approx(
        skm.roc_auc_score(text, s), abs=1e-12)
    assert csk.roc_auc_score(text, s) == pytest.approx(skm.roc_auc_score(text, s), abs=1e-12)
    assert confmat.roc_auc(2 * y - 1, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)


def test_curves_ovr_mean_auc() -> None:
    # curves.md, One-vs-rest curves: "`ovr.mean_auc` ... (== roc_auc(..., average="macro"))"
    y, p = _three()
    ovr = confmat.roc_curve_ovr(y, p)
    assert ovr.mean_auc == pytest.approx(skm.roc_auc_score(y, p, multi_class="ovr"), abs=1e-12)


def test_curves_sweep_tables_and_order() -> None:
    # curves.md, Threshold sweeps: "`sweep.thresholds  # kept in the given order`"; "`(T, 2, 2)`
    # stack [[TN, FP], [FN, TP]]"; "next to a weight of `1e200`, a negative of weight 4 still
    # counts 4 (the cells equal `sklearn.metrics.confusion_matrix(y, score >= t,
    # sample_weight=w)`"
    y, s = _binary(seed=6)
    th = [0.3, 0.9, 0.5]
    sw = confmat.threshold_sweep(y, s, thresholds=th)
    np.testing.assert_array_equal(sw.thresholds, th)
    for t, table in zip(th, sw.tables, strict=True):
        np.testing.assert_array_equal(table, skm.confusion_matrix(y, s >= t, labels=[0, 1]))
    yw, sc, w = np.array([1, 0, 0]), np.array([0.9, 0.2, 0.95]), np.array([1e200, 4.0, 1.0])
    tw = confmat.threshold_sweep(yw, sc, thresholds=[0.5], sample_weight=w).tables[0]
    np.testing.assert_allclose(tw, skm.confusion_matrix(yw, sc >= 0.5, sample_weight=w))
    assert tw[0, 0] == 4.0


def _brute(y: np.ndarray, s: np.ndarray) -> list[tuple[float, np.ndarray]]:
    """Every candidate threshold (+inf and every distinct score) with its sklearn table."""
    th = np.concatenate([[np.inf], np.unique(s)[::-1]])
    return [(float(t), skm.confusion_matrix(y, s >= t, labels=[0, 1])) for t in th]


def test_curves_best_threshold_criteria_by_brute_force() -> None:
    # curves.md, Choosing a threshold: "Candidates are `+inf` ... and every distinct score;
    # ties go to the highest threshold"; youden = max TPR - FPR; "`"cost"` minimizes the
    # expected cost per sample"; "`"recall"` returns the highest threshold reaching the target
    # recall"
    y, s = _binary(seed=7)
    cand = _brute(y, s)

    def youden(m: np.ndarray) -> float:
        return m[1, 1] / m[1].sum() - m[0, 1] / m[0].sum()

    best = max(youden(m) for _, m in cand)
    want = max(t for t, m in cand if youden(m) >= best - 1e-15)
    assert confmat.best_threshold(y, s, "youden").threshold == want
    cost = np.array([[0, 1], [20, 0]])
    costs = [(np.sum(cost * m) / y.size, t) for t, m in cand]
    low = min(c for c, _ in costs)
    want = max(t for c, t in costs if c <= low + 1e-15)
    assert confmat.best_threshold(y, s, "cost", cost_matrix=cost).threshold == want
    want = max(t for t, m in cand if m[1, 1] / m[1].sum() >= 0.95)
    assert confmat.best_threshold(y, s, "recall", target=0.95).threshold == want


def test_curves_score_histogram_exact_at_edges_and_bound() -> None:
    # curves.md, Binned form: "labels (0, 1), 10,000 bins over [0, 1]"; "a sweep at bin edges
    # gives the exact confusion matrices of the rule `score >= edge`"; "|AUC_exact −
    # AUC_binned| <= ½ · Σ_b pos_b · neg_b / (P · N)"; "A score outside `score_range` is an
    # error"; JSON round trip
    y, s = _binary(seed=8, ties=False)
    h = confmat.ScoreHistogram().update(y, s)
    for t, table in zip([0.9, 0.5, 0.1], h.threshold_sweep(thresholds=[0.9, 0.5, 0.1]).tables,
                        strict=True):
        np.testing.assert_array_equal(table, skm.confusion_matrix(y, s >= t, labels=[0, 1]))
    exact = skm.roc_auc_score(y, s)
    assert abs(exact - h.roc_auc()) <= h.auc_error_bound() + 1e-12
    with pytest.raises(ValueError):
        confmat.ScoreHistogram().update([0, 1], [0.5, 1.5])
    h2 = confmat.ScoreHistogram.from_dict(json.loads(json.dumps(h.to_dict())))
    assert h2.roc_auc() == h.roc_auc()
    merged = confmat.ScoreHistogram().update(y[:100], s[:100]) + \
        confmat.ScoreHistogram().update(y[100:], s[100:])
    assert merged.roc_auc() == h.roc_auc()


# =============================================================================================
# docs/inference.md

@pytest.mark.parametrize("method, sm_method", [("wilson", "wilson"),
                                               ("agresti_coull", "agresti_coull"),
                                               ("clopper_pearson", "beta"), ("wald", "normal")])
def test_inference_proportion_intervals_match_statsmodels(method: str, sm_method: str) -> None:
    # inference.md, Methods: wilson, agresti_coull, clopper_pearson, wald for proportions;
    # "Every interval is clipped to the metric's declared range"
    from statsmodels.stats.proportion import proportion_confint

    cm = ConfusionMatrix([[40, 7], [12, 31]])
    low, high = cm.ci("recall", method=method)
    lo_ref, hi_ref = proportion_confint([40, 31], [47, 43], alpha=0.05, method=sm_method)
    np.testing.assert_allclose(low, np.clip(lo_ref, 0, 1), rtol=1e-9)
    np.testing.assert_allclose(high, np.clip(hi_ref, 0, 1), rtol=1e-9)


def test_inference_auto_method_choice() -> None:
    # inference.md: "`method="auto"` chooses: Wilson for proportions ..., `kappa_asymptotic`
    # for kappa, and `bca` for everything else (including MCC ...)"
    cm = ConfusionMatrix([[40, 7], [12, 31]])
    assert cm.ci("accuracy").method == "wilson"
    assert cm.ci("kappa").method == "kappa_asymptotic"
    assert cm.ci("mcc", n_resamples=200, random_state=0).method == "bca"


def test_inference_level_and_resample_rules() -> None:
    # inference.md: "`level` is a number strictly between 0 and 1"; "`n_resamples` must be at
    # least max(100, 2/(1 − level)); fewer is an error"; "`n` itself is fixed, so its interval
    # is [N, N]"; "`random_state` is an int ..." (reproducible)
    cm = ConfusionMatrix([[40, 7], [12, 31]])
    for bad in (0, 1, 1.5):
        with pytest.raises(ValueError, match="level"):
            cm.ci("accuracy", level=bad)
    with pytest.raises(ValueError, match="n_resamples"):
        cm.ci("mcc", n_resamples=99)
    with pytest.raises(ValueError, match="n_resamples"):
        cm.ci("mcc", level=0.999, n_resamples=1000)
    low, high = cm.ci("n", method="percentile", n_resamples=200, random_state=0)
    assert low == high == 90
    a = cm.ci("mcc", n_resamples=300, random_state=3)
    b = cm.ci("mcc", n_resamples=300, random_state=3)
    assert (a.low, a.high) == (b.low, b.high)


def test_inference_float32_level_read_as_decimal() -> None:
    # inference.md: "`np.float32(0.95)` is 0.95 ..., and reading it so gives the same interval
    # as the float64 `0.95`"
    cm = ConfusionMatrix([[40, 7], [12, 31]])
    a = cm.ci("accuracy", level=np.float32(0.95))
    b = cm.ci("accuracy", level=0.95)
    assert (a.low, a.high) == (b.low, b.high)


def test_inference_kappa_asymptotic_clipped() -> None:
    # inference.md: "Every interval is clipped to the metric's declared range (kappa ± z·SE
    # can pass 1)"
    cm = ConfusionMatrix([[10, 0], [1, 9]])
    low, high = cm.ci("kappa")
    assert high <= 1.0 and low < high


def test_inference_mcnemar_exact_and_chi2() -> None:
    # inference.md: "`exact=None` uses the exact binomial test when b + c < 25, else χ² with
    # Edwards' continuity correction"
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 400)
    a = np.where(rng.random(400) < 0.1, 1 - y, y)
    b = np.where(rng.random(400) < 0.2, 1 - y, y)
    res = confmat.mcnemar(y, a, b)
    ra, rb = a == y, b == y
    table = [[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]]
    assert res.b + res.c >= 25
    ref = sm_mcnemar(table, exact=False, correction=True)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    small_a, small_b, small_y = a[:40], b[:40], y[:40]
    res = confmat.mcnemar(small_y, small_a, small_b)
    assert res.b + res.c < 25
    ref_p = scipy.stats.binomtest(res.b, res.b + res.c, 0.5).pvalue
    assert res.pvalue == pytest.approx(ref_p, rel=1e-9)


def test_inference_bowker_and_stuart_maxwell_match_statsmodels() -> None:
    # inference.md: "`bowker(table)` (symmetry, df = K(K − 1)/2 as in Bowker 1948 and
    # statsmodels)"; Stuart-Maxwell: "where V has full rank the two agree, tested"
    from statsmodels.stats.contingency_tables import SquareTable

    table = np.array([[20, 5, 3], [8, 25, 6], [2, 9, 30]])
    st = SquareTable(table, shift_zeros=False)
    b = confmat.bowker(table)
    ref = st.symmetry()
    assert b.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert b.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    sm = confmat.stuart_maxwell(table)
    ref = st.homogeneity()
    assert sm.statistic == pytest.approx(ref.statistic, rel=1e-9)


def test_inference_holm() -> None:
    # inference.md: "`holm(pvalues)`: Holm's (1979) step-down adjustment, equal to statsmodels'
    # `multipletests(method="holm")`; a NaN p-value ... stays NaN and is left out of the
    # family"; "P-values outside [0, 1] are an error"
    from statsmodels.stats.multitest import multipletests

    p = np.array([0.01, 0.04, 0.03, 0.2])
    np.testing.assert_allclose(confmat.inference.holm(p),
                               multipletests(p, method="holm")[1], rtol=1e-12)
    with_nan = confmat.inference.holm(np.append(p, np.nan))
    assert np.isnan(with_nan[-1])
    np.testing.assert_allclose(with_nan[:-1], multipletests(p, method="holm")[1], rtol=1e-12)
    with pytest.raises(ValueError):
        confmat.inference.holm([0.5, 1.5])


def test_inference_at_prevalence_bayes_rule() -> None:
    # inference.md, Prior shift: "PPV′ = TPR·π / (TPR·π + FPR·(1 − π))"; "a matrix counted on a
    # label subset is refused"; "informedness ... is invariant; markedness ... moves"
    cm = ConfusionMatrix([[80, 20], [10, 90]], labels=["healthy", "sick"])
    tpr, fpr, pi = 90 / 100, 20 / 100, 0.01
    shifted = cm.at_prevalence({"sick": pi, "healthy": 1 - pi})
    assert shifted.metric("precision", pos_label="sick") == pytest.approx(
        tpr * pi / (tpr * pi + fpr * (1 - pi)), rel=1e-12)
    assert shifted.metric("informedness", pos_label="sick") == pytest.approx(
        cm.metric("informedness", pos_label="sick"), rel=1e-12)
    assert abs(shifted.metric("markedness", pos_label="sick")
               - cm.metric("markedness", pos_label="sick")) > 0.1
    sub = ConfusionMatrix.from_predictions([0, 1, 2], [0, 1, 2], labels=[0, 1])
    with pytest.raises(ValueError):
        sub.at_prevalence({0: 0.5, 1: 0.5})


def test_inference_delong_against_proc(proc) -> None:  # noqa: F811
    # inference.md: "`delong(y_true, score_a, score_b)` compares two correlated AUCs with
    # DeLong et al. (1988) ...: it returns both AUCs, ... z and the two-sided p-value";
    # "`score_ci(..., "roc_auc")` defaults to DeLong's interval for binary scores"
    y, a = _binary(seed=10)
    b = np.round(0.2 * y + np.random.default_rng(11).random(y.size) * 0.8, 2)
    res = confmat.delong(y, a, b)
    out = proc("""
r1 <- roc(y, a, direction = "<", levels = c(0, 1), quiet = TRUE)
r2 <- roc(y, b, direction = "<", levels = c(0, 1), quiet = TRUE)
t <- roc.test(r1, r2, method = "delong", paired = TRUE)
ci <- ci.auc(r1, method = "delong")
out <- list(z = t$statistic, p = t$p.value, ci = c(ci[1], ci[3]))
""", y=y, a=a, b=b)
    assert res.z == pytest.approx(out["z"][0], rel=1e-9)
    assert res.pvalue == pytest.approx(out["p"][0], rel=1e-9)
    assert res.auc_a == pytest.approx(skm.roc_auc_score(y, a), abs=1e-12)
    ci = confmat.score_ci(y, a, "roc_auc")
    np.testing.assert_allclose([ci.low, ci.high], out["ci"], rtol=1e-9)


# =============================================================================================
# docs/calibration.md


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_calibration_bins_match_sklearn(strategy: str) -> None:
    # calibration.md, Bins: "The bins are those of scikit-learn's `calibration_curve`";
    # "empty bins are kept, with `NaN` means and zero counts (... `curve.nonempty` selects the
    # bins it returns)"; Brier score as scikit-learn's
    from sklearn.calibration import calibration_curve

    from confmat.curves import calibration

    y, s = _binary(seed=12)
    cal = calibration(y, s, n_bins=10, strategy=strategy)
    obs, pred = calibration_curve(y, s, n_bins=10, strategy=strategy)
    ne = cal.curve.nonempty
    np.testing.assert_allclose(cal.curve.observed[ne], obs, rtol=1e-12)
    np.testing.assert_allclose(cal.curve.mean_predicted[ne], pred, rtol=1e-12)
    assert cal.brier == pytest.approx(skm.brier_score_loss(y, s), rel=1e-12)


def test_calibration_ece_mce_by_hand_and_empty_bins() -> None:
    # calibration.md: "ECE ... `Σ_b (w_b / W) · |observed_b - predicted_b|`"; "MCE ...
    # `max_b |observed_b - predicted_b|` over the non-empty bins"; "A probability equal to an
    # inner edge falls in the bin **below** it"
    from confmat.curves import calibration

    y = np.array([0, 1, 1, 0, 1, 0])
    s = np.array([0.05, 0.5, 0.55, 0.45, 0.95, 0.9])
    cal = calibration(y, s, n_bins=2)
    # bins [0, 0.5] and (0.5, 1]: 0.5 falls below
    lo, hi = s <= 0.5, s > 0.5
    gaps = [abs(y[b].mean() - s[b].mean()) for b in (lo, hi)]
    assert cal.ece == pytest.approx((lo.sum() * gaps[0] + hi.sum() * gaps[1]) / 6, abs=1e-12)
    assert cal.mce == pytest.approx(max(gaps), abs=1e-12)
    cal10 = calibration(y, s, n_bins=10)
    empty = cal10.curve.counts == 0
    assert empty.any() and np.isnan(cal10.curve.mean_predicted[empty]).all()


def test_calibration_bad_input() -> None:
    # calibration.md: "**Bad input** raises `ValueError` naming the argument: probabilities
    # outside [0, 1] (with the first position), rows of a 2-D `y_prob` that do not sum to 1,
    # `n_bins` below 1, an unknown `strategy`, weights summing to 0; a non-integer `n_bins` is a
    # `TypeError`."
    from confmat.curves import calibration

    y = [0, 1, 1]
    with pytest.raises(ValueError, match=r"y_prob.*\b1\b"):
        calibration(y, [0.2, 1.5, 0.4])
    with pytest.raises(ValueError, match="y_prob"):
        calibration([0, 1, 2], [[0.5, 0.5, 0.5]] * 3)
    with pytest.raises(ValueError, match="n_bins"):
        calibration(y, [0.2, 0.5, 0.4], n_bins=0)
    with pytest.raises(ValueError, match="strategy"):
        calibration(y, [0.2, 0.5, 0.4], strategy="kmeans")
    with pytest.raises(ValueError, match="sample_weight"):
        calibration(y, [0.2, 0.5, 0.4], sample_weight=[0, 0, 0])
    with pytest.raises(TypeError, match="n_bins"):
        calibration(y, [0.2, 0.5, 0.4], n_bins=2.5)


def test_calibration_poor_ece_threshold() -> None:
    # calibration.md, In reports: "The calibration is called **poor when the ECE is at least
    # 0.05** (`confmat.report.findings.POOR_ECE`)"
    from confmat.report import findings

    assert findings.POOR_ECE == 0.05


# =============================================================================================
# docs/roc.md


def test_roc_partial_auc_against_proc(proc) -> None:  # noqa: F811
    # roc.md, table: pROC's `auc(roc, partial.auc=c(1, .8), partial.auc.focus=,
    # partial.auc.correct=)` is `confmat.curves.partial_auc(y, s, specificity=(.8, 1) |
    # sensitivity=(...), correct=)`, "1e-9 relative"
    from confmat.curves import partial_auc

    y, s = _binary(seed=13)
    out = proc("""
r <- roc(y, s, direction = "<", levels = c(0, 1), quiet = TRUE)
out <- list(
  sp = as.numeric(auc(r, partial.auc = c(1, .8), partial.auc.focus = "specificity")),
  spc = as.numeric(auc(r, partial.auc = c(1, .8), partial.auc.correct = TRUE)),
  se = as.numeric(auc(r, partial.auc = c(1, .9), partial.auc.focus = "sensitivity")))
""", y=y, s=s)
    assert partial_auc(y, s, specificity=(0.8, 1)) == pytest.approx(out["sp"][0], rel=1e-9)
    assert partial_auc(y, s, specificity=(0.8, 1), correct=True) == pytest.approx(
        out["spc"][0], rel=1e-9)
    assert partial_auc(y, s, sensitivity=(0.9, 1)) == pytest.approx(out["se"][0], rel=1e-9)


def test_roc_mcclish_standardisation_by_hand() -> None:
    # roc.md, Partial area and McClish's correction: "`m = (2 - a - b)(b - a)/2` ..., `M = b -
    # a`: `(1 + (A - m)/(M - m)) / 2`"
    from confmat.curves import partial_auc

    y, s = _binary(seed=14)
    a_, b_ = 0.7, 0.95
    area = partial_auc(y, s, specificity=(a_, b_))
    m, big_m = (2 - a_ - b_) * (b_ - a_) / 2, b_ - a_
    assert partial_auc(y, s, specificity=(a_, b_), correct=True) == pytest.approx(
        (1 + (area - m) / (big_m - m)) / 2, rel=1e-12)


def test_roc_ks_statistic_is_scipy_ks_2samp() -> None:
    # roc.md, Gain and lift curves, KS statistic: "`max_t |TPR(t) - FPR(t)|` ... (equal to
    # `scipy.stats.ks_2samp`)"
    from confmat.curves.gain import ks_statistic

    y, s = _binary(seed=15)
    res = ks_statistic(y, s)
    ref = scipy.stats.ks_2samp(s[y == 1], s[y == 0]).statistic
    assert res.statistic == pytest.approx(ref, abs=1e-12)


def test_roc_gain_curve_by_hand() -> None:
    # roc.md: "`percent_tested` is the percentage (0 to 100, as yardstick) of all samples ...
    # scoring at or above the score, `percent_found` the percentage of all positives among
    # them"; "**Lift** = found / tested"
    from confmat.curves.gain import gain_curve

    y = np.array([1, 0, 1, 1, 0, 0])
    s = np.array([0.9, 0.8, 0.8, 0.4, 0.3, 0.1])
    g = gain_curve(y, s)
    thr = [0.9, 0.8, 0.4, 0.3, 0.1]
    tested = [0.0] + [100 * np.mean(s >= t) for t in thr]
    found = [0.0] + [100 * np.sum((s >= t) & (y == 1)) / 3 for t in thr]
    np.testing.assert_allclose(g.percent_tested, tested)
    np.testing.assert_allclose(g.percent_found, found)
    np.testing.assert_allclose(g.lift[1:], np.array(found[1:]) / np.array(tested[1:]))


def test_roc_multiclass_roc_is_hand_till() -> None:
    # roc.md: `multiclass_roc(y, P)` "equal to scikit-learn's `roc_auc_score(multi_class="ovo",
    # average="macro")`"
    from confmat.curves.multiclass_roc import multiclass_roc

    y, p = _three(seed=16)
    assert multiclass_roc(y, p).auc == pytest.approx(
        skm.roc_auc_score(y, p, multi_class="ovo"), abs=1e-12)


def test_roc_nrd0_bandwidth_by_hand() -> None:
    # roc.md, Bandwidth rules: "`"nrd0"`: Silverman's (1986) rule of thumb `0.9 min(sd,
    # IQR/1.34) n^(-1/5)`"; "Scores all equal ... are an error for every rule but `"nrd0"`,
    # naming `bw` in `smooth_roc` and `rule` and `x` in `bandwidth(x, rule)`" (through the
    # export `confmat.curves.bandwidth` that roc.md names)
    from confmat import smooth_roc
    from confmat.curves import bandwidth

    x = np.random.default_rng(17).normal(size=200)
    iqr = np.subtract(*np.percentile(x, [75, 25]))
    hand = 0.9 * min(np.std(x, ddof=1), iqr / 1.34) * x.size ** -0.2
    assert bandwidth(x, "nrd0") == pytest.approx(hand, rel=1e-12)
    assert bandwidth(x, "nrd") == pytest.approx(hand / 0.9 * 1.06, rel=1e-12)
    with pytest.raises(ValueError, match="rule='ucv' needs values of x that are not all equal"):
        bandwidth(np.ones(5), "ucv")
    assert bandwidth(np.ones(5), "nrd0") > 0  # R's fallback
    with pytest.raises(ValueError, match="bw='ucv' needs scores that are not all equal"):
        smooth_roc([0, 1, 0, 1, 0], np.ones(5), method="density", bw="ucv")


def test_roc_table_calls_name_real_parameters() -> None:
    # roc.md, the table of pROC's tools: every call in the confmat column (`name(kw=, ...)`) is
    # a public function whose signature has each keyword shown, and the names the page says
    # the package root exports are exported there
    text = (ROOT / "docs" / "roc.md").read_text(encoding="utf-8")
    table = text.split("\n## ", 1)[0]
    rows = [ln for ln in table.splitlines() if ln.startswith("| ") and not ln.startswith("| pROC")]
    checked = 0
    for row in rows:
        ours = re.split(r"(?<!\\)\|", row)[2]
        for m in re.finditer(r"`((?:confmat\.)?[\w.]+)\(([^`()]*)\)`", ours):
            name, args = m.groups()
            if name.startswith("confmat."):  # the package's attribute, not a submodule
                package, _, attr = name.rpartition(".")
                obj = getattr(importlib.import_module(package), attr)
            else:
                obj = next(getattr(mod, name) for mod in (confmat, confmat.curves,
                                                          confmat.inference, confmat.report)
                           if name in getattr(mod, "__all__", ()))
            params = inspect.signature(obj).parameters  # type: ignore[arg-type]
            for kw in re.findall(r"(\w+)=", args):
                assert kw in params, f"roc.md: {name} has no parameter {kw}"
            checked += 1
    assert checked >= 25
    listed = text.split("The package root exports every function of this table:", 1)[1]
    listed = listed.split("`confmat.curves` exports", 1)[0]
    for name in re.findall(r"`(?:confmat\.)?(\w+)`", listed):
        assert name in confmat.__all__, name


def test_roc_best_thresholds_youden_by_hand() -> None:
    # roc.md, Best thresholds: "every point of the empirical curve that maximises `Se + r Sp`
    # ..., ties included, with confmat's threshold (positive when `score >= threshold`)";
    # "The reported value is pROC's column: `Se + r Sp`"
    from confmat.curves.best import best_thresholds

    y, s = _binary(seed=18)
    cand = _brute(y, s)
    vals = [(m[1, 1] / m[1].sum() + m[0, 0] / m[0].sum(), t) for t, m in cand]
    top = max(v for v, _ in vals)
    want = sorted(t for v, t in vals if v >= top - 1e-12)
    res = best_thresholds(y, s)
    assert sorted(np.atleast_1d(res.thresholds).tolist()) == want
    np.testing.assert_allclose(res.value, top, rtol=1e-12)


# =============================================================================================
# docs/groups.md


def _groups_data(seed: int = 19) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = 400
    g = rng.choice(["a", "b", "c"], n)
    y = rng.integers(0, 2, n)
    p = np.where(rng.random(n) < np.where(g == "c", 0.35, 0.15), 1 - y, y)
    s = np.clip(0.4 * y + rng.random(n) * 0.6, 0, 1)
    return y, p, g, s


def test_groups_metric_per_group_and_disparity_definitions() -> None:
    # groups.md, Definitions of the disparities: `between_groups`: `max v − min v` and
    # `min v / max v`; `to_overall`: `max |v_g − o|`, `min ρ(v_g / o)`
    from confmat.groups import by_group

    y, p, g, _ = _groups_data()
    ev = by_group(y, p, g, pos_label=1)
    per = np.array([skm.recall_score(y[g == k], p[g == k]) for k in ["a", "b", "c"]])
    np.testing.assert_allclose(np.asarray(ev.metric("recall")), per, rtol=1e-12)
    o = skm.recall_score(y, p)
    assert ev.difference("recall") == pytest.approx(per.max() - per.min(), rel=1e-12)
    assert ev.ratio("recall") == pytest.approx(per.min() / per.max(), rel=1e-12)
    assert ev.difference("recall", method="to_overall") == pytest.approx(
        np.max(np.abs(per - o)), rel=1e-12)
    rho = np.where(per / o <= 1, per / o, o / per)
    assert ev.ratio("recall", method="to_overall") == pytest.approx(rho.min(), rel=1e-12)
    assert ev.difference("recall", method="to_group", reference="a") == pytest.approx(
        np.max(np.abs(per - per[0])), rel=1e-12)


def test_groups_fairlearn_measures() -> None:
    # groups.md: "fairlearn's named measures with the same definitions (Weerts et al. 2023)"
    import fairlearn.metrics as flm

    from confmat.groups import by_group

    y, p, g, _ = _groups_data(20)
    ev = by_group(y, p, g)
    assert ev.demographic_parity_difference() == pytest.approx(
        flm.demographic_parity_difference(y, p, sensitive_features=g), rel=1e-12)
    assert ev.demographic_parity_ratio() == pytest.approx(
        flm.demographic_parity_ratio(y, p, sensitive_features=g), rel=1e-12)
    assert ev.equalized_odds_difference() == pytest.approx(
        flm.equalized_odds_difference(y, p, sensitive_features=g), rel=1e-12)
    assert ev.equalized_odds_ratio(agg="mean") == pytest.approx(
        flm.equalized_odds_ratio(y, p, sensitive_features=g, agg="mean"), rel=1e-12)
    assert ev.equalized_odds_difference(method="to_overall") == pytest.approx(
        flm.equalized_odds_difference(y, p, sensitive_features=g, method="to_overall"),
        rel=1e-12)
    assert confmat.groups.equal_opportunity_difference(
        y, p, sensitive_features=g) == pytest.approx(
        flm.equal_opportunity_difference(y, p, sensitive_features=g), rel=1e-12)


def test_groups_several_features_give_occurring_intersections() -> None:
    # groups.md: "With several features the groups are their **intersections that occur**,
    # keyed by tuples in sorted order"; "two names that read the same (`1` and `"1"`) are
    # refused"
    from confmat.groups import by_group

    y, p = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1]
    ev = by_group(y, p, {"s": ["m", "f", "m", "f", "m"], "a": ["x", "x", "y", "x", "x"]})
    assert list(ev.matrices) == [("f", "x"), ("m", "x"), ("m", "y")]
    with pytest.raises(ValueError):
        by_group(y, p, {1: ["a"] * 5, "1": ["b"] * 5})


def test_groups_missing_key_and_reference_kind() -> None:
    # groups.md: "no missing value (the error names `groups` or `groups['feature']` and the
    # position"; "A `reference=` must be a key of the groups' kind: `True` is not the group `1`"
    from confmat.groups import by_group

    with pytest.raises(ValueError, match=r"groups.*\b2\b"):
        by_group([0, 1, 1], [0, 1, 1], ["a", "b", None])
    ev = by_group([0, 1, 1, 0], [0, 1, 1, 1], [1, 1, 2, 2])
    with pytest.raises((ValueError, TypeError)):
        ev.difference("recall", method="to_group", reference=True)


def test_groups_feature_rules_and_zero_weight_group() -> None:
    # groups.md, by_group: "two names that read the same (`1` and `"1"`) are refused"; "A
    # list of lists is read as **one list per feature**; rows of several features go in a 2-D
    # array or a DataFrame (a list of rows is refused by its length)"; "A group whose weights
    # are all zero holds no evidence: it is left out of every difference and ratio ..., its
    # interval per group is NaN"; "with two classes seen, a `pos_label` among neither is an
    # error"
    from confmat.groups import by_group

    y, p, g, _ = _groups_data(36)
    with pytest.raises(ValueError, match="twice"):
        by_group(y, p, {1: g, "1": g})
    h = g[::-1]
    ev = by_group(y, p, [list(g), list(h)])
    pairs = sorted({(a, b) for a, b in zip(g, h, strict=True)})
    assert list(ev.groups) == pairs
    with pytest.raises(ValueError, match="groups"):
        by_group(y, p, [[a, b] for a, b in zip(g, h, strict=True)])
    with pytest.raises(ValueError, match="pos_label"):
        by_group(y, p, g, pos_label=5)
    w = np.where(g == "a", 0.0, 1.0)
    evw = by_group(y, p, g, sample_weight=w, pos_label=1)
    recall = {k: skm.recall_score(y[g == k], p[g == k]) for k in ["b", "c"]}
    assert evw.difference("recall") == pytest.approx(abs(recall["b"] - recall["c"]),
                                                     rel=1e-12)
    low = np.asarray(evw.ci("recall").low)
    assert np.isnan(low[0]) and np.isfinite(low[1:]).all()


def test_groups_fairlearn_signatures() -> None:
    # groups.md: "All fairlearn functions are also given with fairlearn's signatures:
    # `confmat.groups.demographic_parity_difference(y_true, y_pred, sensitive_features=...,
    # method=..., sample_weight=...)`, and likewise for the ratio, `equalized_odds_*` (with
    # `agg`) and `equal_opportunity_*`" (confmat adds `pos_label` at the end)
    import fairlearn.metrics as fm

    import confmat.groups as groups

    names = [f"{a}_{b}" for a in ("demographic_parity", "equalized_odds", "equal_opportunity")
             for b in ("difference", "ratio")]
    for name in names:
        theirs = inspect.signature(getattr(fm, name)).parameters
        ours = inspect.signature(getattr(groups, name)).parameters
        assert [k for k in ours if k != "pos_label"] == list(theirs), name
        for k, par in theirs.items():
            assert ours[k].kind == par.kind and ours[k].default == par.default, (name, k)


def test_groups_small_flag_never_drops_and_selection_rate() -> None:
    # groups.md: "Groups with fewer than `min_support` rows are flagged (`ev.small` ...),
    # **never dropped**"; "`selection_rate` is accepted as a name of the registry's
    # `predicted_rate`"
    from confmat.groups import by_group

    y, p, g, _ = _groups_data(21)
    g = g.astype(object)
    g[:5] = "tiny"
    ev = by_group(y, p, g, min_support=30, pos_label=1)
    frame = ev.to_frame(["selection_rate"])
    assert "tiny" in frame.index and bool(frame.loc["tiny", "small"])
    want = np.mean(p[g == "tiny"] == 1)
    assert frame.loc["tiny", "selection_rate"] == pytest.approx(want)


def test_groups_overall_roc_auc_pooled_and_delong_with_weights() -> None:
    # groups.md, ROC AUC and average precision: "The overall value `o` is the metric of **all
    # groups' samples pooled** (... the same as `confmat.roc_auc` on every sample)";
    # Intervals per group: "`method="delong"` with weights is an error that names
    # `sample_weight`"
    from confmat.groups import by_group

    y, p, g, s = _groups_data(22)
    ev = by_group(y, p, g, scores=s, pos_label=1)
    assert ev.overall_metric("roc_auc") == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    for k in ["a", "b", "c"]:
        assert np.asarray(ev.metric("roc_auc"))[["a", "b", "c"].index(k)] == pytest.approx(
            skm.roc_auc_score(y[g == k], s[g == k]), abs=1e-12)
    w = np.random.default_rng(0).random(y.size)
    evw = by_group(y, p, g, scores=s, sample_weight=w)
    with pytest.raises(ValueError, match="sample_weight"):
        evw.ci("roc_auc", method="delong")


def test_groups_accumulator_equals_by_group() -> None:
    # groups.md, Streams: "`acc.result()` equal to `by_group` on the concatenated chunks";
    # "`acc.to_json()` / `GroupedAccumulator.from_json(text)`"
    from confmat.accumulator import GroupedAccumulator
    from confmat.groups import by_group

    y, p, g, _ = _groups_data(23)
    a, b = GroupedAccumulator(), GroupedAccumulator()
    a.update(y[:150], p[:150], g[:150])
    b.update(y[150:], p[150:], g[150:])
    merged = GroupedAccumulator.from_json((a + b).to_json())
    np.testing.assert_array_equal(merged.result().stack, by_group(y, p, g).stack)


# =============================================================================================
# docs/cli.md


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "confmat", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300,
                          env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")})


@pytest.fixture(scope="module")
def preds_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli")
    rng = np.random.default_rng(24)
    y = rng.integers(0, 2, 60)
    pd.DataFrame({"y": y, "yhat": np.where(rng.random(60) < 0.2, 1 - y, y),
                  "p": np.round(rng.random(60), 3),
                  "sex": rng.choice(["f", "m"], 60)}).to_csv(d / "preds.csv", index=False)
    return d / "preds.csv"


def test_cli_matrix_imports_no_scipy_rich_matplotlib() -> None:
    # cli.md, What the terminal shows: "`confmat matrix "[[61,2],[8,58]]"` imports neither SciPy
    # ... nor rich ... nor matplotlib"
    code = ("import sys\nfrom confmat.cli.app import main\n"
            "try:\n    main(['matrix', '[[61,2],[8,58]]', '--labels', 'bus,opel'])\n"
            "except SystemExit as e:\n    assert not e.code, e.code\n"
            "bad = [m for m in ('scipy', 'rich', 'matplotlib') if m in sys.modules]\n"
            "print('LOADED', bad)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")},
                         timeout=300)
    assert "LOADED []" in res.stdout, res.stdout + res.stderr


def test_cli_errors_one_line_status_2(preds_csv: Path) -> None:
    # cli.md, Errors: "Bad input prints one line `confmat: error: …` naming the problem (missing
    # column with the available ones ...) and exits with status **2**, without a traceback";
    # "a value out of range such as `--bins 0` ... also exit with 2"
    res = _cli("report", str(preds_csv), "--true", "nope", "--pred", "yhat")
    assert res.returncode == 2
    assert "confmat: error:" in res.stderr and "Traceback" not in res.stderr
    assert "nope" in res.stderr and "yhat" in res.stderr
    res = _cli("report", str(preds_csv), "--true", "y", "--pred", "yhat", "--score", "p",
               "--bins", "0")
    assert res.returncode == 2 and "Traceback" not in res.stderr


def test_cli_group_metric_suggestion(preds_csv: Path) -> None:
    # cli.md, By group: "`confmat: error: --group-metrics: unknown metric 'recal'; did you mean
    # 'recall'?`, status 2"
    res = _cli("report", str(preds_csv), "--true", "y", "--pred", "yhat", "--by", "sex",
               "--pos-label", "1", "--group-metrics", "recal")
    assert res.returncode == 2
    assert "--group-metrics: unknown metric 'recal'; did you mean 'recall'?" in res.stderr


def test_cli_pos_label_written_another_way(preds_csv: Path) -> None:
    # cli.md, Input files: "`--pos-label 1.0` or `1e0` is the integer 1"; "one that denotes no
    # label (`--pos-label 1.5` on integers) stops with status 2 and a message naming
    # `--pos-label` and the labels"
    ok = _cli("report", str(preds_csv), "--true", "y", "--pred", "yhat", "--pos-label", "1e0",
              "--no-intervals", "-f", "json")
    assert ok.returncode == 0, ok.stderr
    bad = _cli("report", str(preds_csv), "--true", "y", "--pred", "yhat", "--pos-label", "1.5")
    assert bad.returncode == 2 and "--pos-label" in bad.stderr


def test_cli_csv_columns_and_excel_safe(preds_csv: Path, tmp_path: Path) -> None:
    # cli.md, Output: "columns `model, section, metric, class, value, low, high, true,
    # predicted`"; "`--csv-excel-safe` ... a text cell ... whose first character is `=` ...
    # gets a leading single quote (`'=1+1`)"; "The option applies to CSV output only (exit
    # status 2 with another format)"
    f = tmp_path / "x.csv"
    pd.DataFrame({"y": ["=1+1", "b", "b", "=1+1"], "yhat": ["=1+1", "b", "=1+1", "=1+1"]}
                 ).to_csv(f, index=False)
    plain = _cli("report", str(f), "--true", "y", "--pred", "yhat", "--no-intervals", "-f", "csv")
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.splitlines()[0] == "model,section,metric,class,value,low,high,true,predicted"
    assert "=1+1" in plain.stdout and "'=1+1" not in plain.stdout
    safe = _cli("report", str(f), "--true", "y", "--pred", "yhat", "--no-intervals", "-f", "csv",
                "--csv-excel-safe")
    assert "'=1+1" in safe.stdout
    other = _cli("report", str(f), "--true", "y", "--pred", "yhat", "-f", "json",
                 "--csv-excel-safe")
    assert other.returncode == 2


def test_cli_partial_auc_options_need_the_range(preds_csv: Path) -> None:
    # cli.md, ROC options: "`--partial-auc-focus` or `--partial-auc-uncorrected` without
    # `--partial-auc`, stops with exit status 2 and a message"
    res = _cli("report", str(preds_csv), "--true", "y", "--pred", "yhat", "--score", "p",
               "--partial-auc-uncorrected")
    assert res.returncode == 2 and "--partial-auc" in res.stderr


def test_cli_matrix_counts_typed_in() -> None:
    # cli.md, Commands: "`matrix MATRIX` the metrics of a typed-in matrix (`"[[61,2],[8,58]]"`,
    # rows = true class)"; accuracy (61 + 58) / 129 by hand
    res = _cli("matrix", "[[61,2],[8,58]]", "--labels", "bus,opel")
    assert res.returncode == 0, res.stderr
    assert f"{119 / 129:.4f}" in res.stdout


# =============================================================================================
# All pages: sources cited by author and year, public names that exist

CLAIM_DOCS = ["guide", "sklearn", "groups", "curves", "inference", "calibration", "roc", "cli"]
AUTHOR_YEAR = re.compile(r"[A-Z][A-Za-zäöüé'\-]+(?: et al\.| (?:&|and) [A-Z][A-Za-zäöüé'\-]+)?"
                         r"(?:'s)? \(?(?:19|20)\d\d\b")


#: pages that state no result of the literature (they describe code and options)
NO_LITERATURE = {"index", "sklearn"}


@pytest.mark.parametrize("page", [*CLAIM_DOCS, "report", "metrics", "index"])
def test_docs_cite_by_author_and_year(page: str) -> None:
    # the project's rule: docs cite sources by author and year, and name no internal source
    # document (test_wording.py holds the list of words; this checks the pages it builds)
    text = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
    if page not in NO_LITERATURE:
        assert AUTHOR_YEAR.search(text), f"docs/{page}.md cites no source by author and year"
    assert not re.search(r"\bthe book\b|\bseeds?\b", text, re.IGNORECASE), page


#: dotted strings the docs mention that are JSON schema names, not Python names
SCHEMA_NAMES = {"confmat.confusion_matrix", "confmat.comparison", "confmat.report"}


def _mentioned_names() -> list[tuple[str, str]]:
    found = set()
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"\bconfmat(?:\.[A-Za-z_][A-Za-z0-9_]*)+", text):
            if m.group(0) not in SCHEMA_NAMES or m.group(0) == "confmat.report":
                found.add((path.relative_to(ROOT).as_posix(), m.group(0)))
    return sorted(found)


def _resolve(dotted: str) -> object:
    """The object a dotted name denotes: the longest importable module, then attributes (a
    module shadowed by a function of its name, as ``confmat.report.render_html``, still
    resolves by its import path)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise AssertionError(f"{dotted} does not resolve")


@pytest.mark.parametrize("doc, name", _mentioned_names())
def test_docs_names_exist_and_are_public(doc: str, name: str) -> None:
    # the project's rule: "every public name the docs mention exists" and "no doc names ... a private name
    # as public API" (architecture.md's internal modules must exist too)
    assert not any(p.startswith("_") for p in name.split(".")), f"{doc} names {name}"
    _resolve(name)


# =============================================================================================
# More claims (second pass over the same pages)


def test_guide_numpy_path_gives_identical_counts() -> None:
    # guide.md, Counting kernel: "without numba (or with `CONFMAT_DISABLE_NUMBA=1`) a pure-numpy
    # path gives identical counts"
    code = ("import numpy as np, confmat, sklearn.metrics as m\n"
            "rng = np.random.default_rng(0)\n"
            "t = rng.integers(0, 70, 2**20 + 5); p = rng.integers(0, 70, t.size)\n"
            "assert (confmat.ConfusionMatrix.from_predictions(t, p).counts\n"
            "        == m.confusion_matrix(t, p)).all()\nprint('OK')\n")
    import os

    for flag in ("1", ""):
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "CONFMAT_DISABLE_NUMBA": flag}
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, timeout=300)
        assert res.stdout.strip() == "OK", res.stderr


def test_inference_methods_table_is_the_doc_table() -> None:
    # inference.md, Methods: "`confmat.inference.METHODS` holds the same table"
    text = (ROOT / "docs" / "inference.md").read_text(encoding="utf-8")
    section = text.split("### Methods", 1)[1].split("Every interval is clipped", 1)[0]
    documented = re.findall(r"^\| `([a-z_]+)`", section, re.MULTILINE)
    assert documented[0] == "method"  # the header row
    assert documented[1:] == list(confmat.inference.METHODS)


def test_inference_compare_names_the_model_of_wrong_length() -> None:
    # inference.md, compare: "Errors: lengths that differ from `y_true` (the model is named)"
    y = [0, 1, 1, 0, 1]
    with pytest.raises(ValueError, match="knn"):
        confmat.compare({"tree": [0, 1, 1, 0, 1], "knn": [0, 1, 1]}, y, ["accuracy"])


def test_inference_multiclass_score_ci_estimate_is_sklearn_ovr() -> None:
    # inference.md, Score-based metrics: "Multiclass scores ... the one-vs-rest average,
    # `average="macro"` (default) or `"weighted"` by class support — scikit-learn's
    # `roc_auc_score(multi_class="ovr")` ... (equal to 1e-12 on random data, tested)"
    y, p = _three(seed=25)
    for avg in ("macro", "weighted"):
        ci = confmat.score_ci(y, p, "roc_auc", average=avg, n_resamples=200, random_state=0)
        assert ci.estimate == pytest.approx(
            skm.roc_auc_score(y, p, multi_class="ovr", average=avg), abs=1e-12)


def test_inference_weighted_total_below_half_refused() -> None:
    # inference.md, The multinomial bootstrap: "a total below 1/2 (no sample) is a
    # `ValueError`"
    cm = ConfusionMatrix([[0.1, 0.05], [0.1, 0.1]])
    with pytest.raises(ValueError):
        cm.ci("mcc", n_resamples=200, random_state=0)


def test_calibration_weights_equal_repeated_samples() -> None:
    # calibration.md, Bins: "weighted bins equal the unweighted bins of the samples repeated by
    # their integer weights"
    from sklearn.calibration import calibration_curve

    from confmat.curves import calibration

    y, s = _binary(seed=26)
    w = np.random.default_rng(27).integers(1, 4, y.size)
    cal = calibration(y, s, n_bins=8, sample_weight=w)
    obs, pred = calibration_curve(np.repeat(y, w), np.repeat(s, w), n_bins=8)
    ne = cal.curve.nonempty
    np.testing.assert_allclose(cal.curve.observed[ne], obs, rtol=1e-12)
    np.testing.assert_allclose(cal.curve.mean_predicted[ne], pred, rtol=1e-12)


def test_curves_precision_target_and_eight_of_ten() -> None:
    # curves.md, Choosing a threshold: "`"precision"` the threshold with the highest recall
    # among those reaching the target precision (... 8 of 10 reaches `target=0.8`)"
    y = np.array([1] * 8 + [0] * 2 + [1, 0, 0, 0])
    s = np.array([0.9] * 10 + [0.5, 0.4, 0.3, 0.2])  # 10 samples at 0.9, 8 positives
    c = confmat.best_threshold(y, s, "precision", target=0.8)
    assert c.threshold == 0.5  # precision 9/11 >= 0.8 and the higher recall, over 8/10 at 0.9
    c = confmat.best_threshold(y, s, "precision", target=0.81)
    assert c.threshold == 0.5
    c = confmat.best_threshold(y[:10], s[:10], "precision", target=0.8)
    assert c.threshold == 0.9  # 8 of 10 reaches 0.8


def test_sklearn_integer_weights_give_int64_table() -> None:
    # sklearn.md, Weights: "Integer weights are summed in float64 and the table is then returned
    # as int64 (as scikit-learn returns it)"
    t, p, w = [0, 1, 1, 0], [0, 1, 0, 0], [2, 3, 1, 5]
    ours = csk.confusion_matrix(t, p, sample_weight=w)
    theirs = skm.confusion_matrix(t, p, sample_weight=w)
    assert ours.dtype == theirs.dtype == np.int64
    np.testing.assert_array_equal(ours, theirs)


def test_groups_wilson_interval_per_group_and_no_report_method() -> None:
    # groups.md, Intervals per group: "Wilson for proportions"; "(`GroupedEvaluation` has no
    # `.report()` method: the groups layer sits below the report layer)"
    from statsmodels.stats.proportion import proportion_confint

    from confmat.groups import by_group

    y, p, g, _ = _groups_data(28)
    ev = by_group(y, p, g, pos_label=1)
    ci = ev.ci("recall")
    for i, k in enumerate(["a", "b", "c"]):
        m = g == k
        x, n = np.sum((y == 1) & (p == 1) & m), np.sum((y == 1) & m)
        lo, hi = proportion_confint(x, n, method="wilson")
        assert (np.asarray(ci.low)[i], np.asarray(ci.high)[i]) == pytest.approx((lo, hi),
                                                                                 rel=1e-9)
    assert not hasattr(ev, "report")


def test_cli_by_refuses_scores_and_cost(preds_csv: Path) -> None:
    # cli.md, By group: "`--scores` and `--cost` are refused with `--by`"; `--score --bins`
    # is counted by group (one score histogram per group)
    base = ["report", str(preds_csv), "--true", "y", "--pred", "yhat", "--by", "sex",
            "--pos-label", "1"]
    for extra in (["--scores", "p,p"], ["--score", "p", "--cost", "[[0,1],[5,0]]"]):
        res = _cli(*base, *extra)
        assert res.returncode == 2, (extra, res.stderr)
        assert "confmat: error:" in res.stderr
    res = _cli(*base, "--bins", "10", "--score", "p", "--group-metrics", "roc_auc")
    assert res.returncode == 0, res.stderr


def test_cli_where_unknown_column_and_format_from_extension(preds_csv: Path,
                                                            tmp_path: Path) -> None:
    # cli.md: "A condition DuckDB cannot evaluate (an unknown column ...) is an error with
    # status 2"; Output: "or the format implied by `-o`'s extension: `.html`, `.json`, ..."
    res = _cli("report", str(preds_csv), "--true", "y", "--pred", "yhat",
               "--where", "nope = 1")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    out = tmp_path / "r.json"
    res = _cli("report", str(preds_csv), "--true", "y", "--pred", "yhat", "--no-intervals",
               "-o", str(out))
    assert res.returncode == 0, res.stderr
    data = json.loads(out.read_text())
    assert np.array(data["counts"]).sum() == 60


def test_roc_univariate_multiclass_against_proc(proc) -> None:  # noqa: F811
    # roc.md, Multi-class AUC: "**One predictor** ... For every pair `(a, b)` of `levels` ...
    # with `direction="auto"` ... each pair chooses `"<"` when the median of the controls is at
    # most that of the cases ... The multi-class AUC is the mean of the pairwise AUCs"
    from confmat.curves.multiclass_roc import multiclass_roc

    rng = np.random.default_rng(29)
    y = rng.integers(0, 3, 90)
    x = np.round(rng.random(90) + np.array([0.0, 0.6, -0.3])[y], 2)
    out = proc("""
r <- multiclass.roc(factor(y), x, levels = c(0, 1, 2), quiet = TRUE)
out <- list(auc = as.numeric(auc(r)))
""", y=y, x=x)
    res = multiclass_roc(y, x)
    assert res.auc == pytest.approx(out["auc"][0], rel=1e-9)
    assert res.directions[(1, 2)] == ">"  # the cases (2) score lower than the controls (1)


def test_roc_multiclass_errors() -> None:
    # roc.md, Multi-class AUC: "Errors name the problem: a single class, a level absent from
    # `y_true`, a one-column matrix, `direction="auto"` with a matrix (pROC refuses it too)";
    # weights "are refused with `direction="auto"`"
    from confmat.curves.multiclass_roc import multiclass_roc

    y, p = _three(seed=30)
    with pytest.raises(ValueError):
        multiclass_roc(np.zeros(10, int), np.random.default_rng(0).random(10))
    with pytest.raises(ValueError, match="7"):
        multiclass_roc(y, p, levels=[0, 1, 7])
    with pytest.raises(ValueError):
        multiclass_roc(y, p[:, :1])
    with pytest.raises(ValueError, match="direction"):
        multiclass_roc(y, p, direction="auto")
    with pytest.raises(ValueError):
        multiclass_roc(y, p[:, 0], sample_weight=np.ones(y.size))


def test_roc_smooth_binormal_and_unpaired_delong_against_proc(proc) -> None:  # noqa: F811
    # roc.md, table: `smooth(roc, method="binormal")` is `smooth_roc(y, s)`: "coefficients,
    # curve and AUC to 1e-9"; `roc.test(method="delong")` unpaired is `roc_test(y, a, b,
    # y_true_b=y2)`: "z, t, df and p to 1e-9"
    from confmat.curves.smooth import smooth_roc
    from confmat.inference import roc_test

    y, a = _binary(n=120, seed=31)
    y2, b = _binary(n=90, seed=32)
    out = proc("""
r1 <- roc(y, a, direction = "<", levels = c(0, 1), quiet = TRUE)
r2 <- roc(y2, b, direction = "<", levels = c(0, 1), quiet = TRUE)
t <- roc.test(r1, r2, method = "delong", paired = FALSE)
out <- list(smooth = as.numeric(auc(smooth(r1, method = "binormal"))),
            stat = t$statistic, df = t$parameter, p = t$p.value)
""", y=y, a=a, y2=y2, b=b)
    assert smooth_roc(y, a).auc == pytest.approx(out["smooth"][0], rel=1e-9)
    res = roc_test(y, a, b, y_true_b=y2)
    assert res.statistic == pytest.approx(out["stat"][0], rel=1e-9)
    assert res.df == pytest.approx(out["df"][0], rel=1e-9)
    assert res.pvalue == pytest.approx(out["p"][0], rel=1e-9)


def test_roc_power_against_proc(proc) -> None:  # noqa: F811
    # roc.md, table: `power.roc.test(auc=, ncases=, ncontrols=, kappa=, sig.level=, power=)` is
    # `confmat.inference.power.power_roc_test(...)`: "n, power and significance level to 1e-9"
    from confmat.inference.power import power_roc_test

    out = proc("""
p <- power.roc.test(auc = 0.72, ncases = 35, ncontrols = 50, sig.level = 0.05)
n <- power.roc.test(auc = 0.72, power = 0.9, sig.level = 0.05, kappa = 1.5)
out <- list(power = p$power, ncases = n$ncases)
""")
    assert power_roc_test(auc=0.72, n_cases=35, n_controls=50).power == pytest.approx(
        out["power"][0], rel=1e-9)
    assert power_roc_test(auc=0.72, power=0.9, kappa=1.5).n_cases == pytest.approx(
        out["ncases"][0], rel=1e-9)


def test_roc_band_display_and_threshold_intervals_refused() -> None:
    # roc.md, Confidence band in the ROC plot: "`RocCurveDisplay(...).plot(band=ci)` shades the
    # intervals of `ci = roc_ci(y, s, specificities=...)`"; "`display.band_` is the drawn
    # collection"; "intervals at given thresholds are refused"
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from confmat.inference import roc_ci
    from confmat.plots import RocCurveDisplay

    y, s = _binary(seed=33)
    band = roc_ci(y, s, specificities=np.linspace(0, 1, 21), n_resamples=200, random_state=0)
    disp = RocCurveDisplay.from_predictions(y, s)
    disp.plot(band=band)
    assert disp.band_ is not None
    by_threshold = roc_ci(y, s, thresholds=[0.3, 0.5], n_resamples=200, random_state=0)
    with pytest.raises(ValueError):
        RocCurveDisplay.from_predictions(y, s).plot(band=by_threshold)
    plt.close("all")


def _api_modules() -> set[str]:
    """The modules of the API reference (docs/api/*.md, ``::: module`` lines)."""
    mods = set()
    for page in (ROOT / "docs" / "api").glob("*.md"):
        mods.update(re.findall(r"^::: (confmat[\w.]*)", page.read_text(encoding="utf-8"),
                               re.MULTILINE))
    return mods


def test_api_pages_render_functions_named_like_their_module() -> None:
    # docs/architecture.md, "Public within the package": users' API is what the packages
    # export. mkdocstrings (griffe) takes a name that is both an exported function and a
    # submodule of the package (``confmat.curves.bandwidth``, ``confmat.inference.roc_ci``)
    # for the submodule, which ``::: package`` does not show; each such function therefore has
    # its own ``::: defining_module.name`` block on the package's page (``confmat.explain`` has
    # a page of its own)
    import pkgutil

    missing = []
    for page in sorted((ROOT / "docs" / "api").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        blocks = set(re.findall(r"^::: (confmat[\w.]*)", text, re.MULTILINE))
        for modname in sorted(blocks):
            try:
                mod = importlib.import_module(modname)
            except ModuleNotFoundError:  # a function's own block (``module.name``)
                continue
            if not hasattr(mod, "__path__"):
                continue
            subs = {info.name for info in pkgutil.iter_modules(mod.__path__)}
            for name in getattr(mod, "__all__", ()):
                if name not in subs or (modname == "confmat" and name == "explain"):
                    continue
                obj = getattr(mod, name)
                if f"{obj.__module__}.{name}" not in blocks:
                    missing.append(f"{page.name}: {modname}.{name}")
    assert (ROOT / "docs" / "api" / "explain.md").read_text().count("::: confmat.explain") == 1
    assert not missing, missing


#: names the docs mention that are neither in the API reference nor exported by a package
#: there, each with the reason: constants and helpers named so that a reader finds them
NOT_IN_API_REFERENCE = {
    "confmat.report.findings": "calibration.md: the POOR_ECE threshold",
    "confmat.report.html_env": "report.md: where the HTML escaping is set up",
    "confmat.metrics.scales": "metrics.md (generated from the registry)",
}


@pytest.mark.parametrize("doc, name", [(d, n) for d, n in _mentioned_names()
                                       if d != "docs/architecture.md"])  # about internals
def test_docs_names_are_api_or_known(doc: str, name: str) -> None:
    # the project's rule: "no doc names an internal module ... as public API": a dotted name in the docs is
    # a module of the API reference, a name exported (__all__) by one, or one of the known
    # exceptions above
    api = _api_modules()
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in NOT_IN_API_REFERENCE:
            return
        if prefix in api:
            rest = parts[i:]
            if not rest:
                return
            exported = getattr(importlib.import_module(prefix), "__all__", [])
            assert rest[0] in exported, f"{doc}: {name}: {rest[0]} is not exported by {prefix}"
            return
    raise AssertionError(f"{doc}: {name} is not in the API reference")


#: "X et al." without a year anywhere on the page, known and reported: metrics.md is generated
#: from the registry (src/confmat/metrics/, not edited by the docs pass)
ET_AL_WITHOUT_YEAR = {("metrics", "Sokolova")}


@pytest.mark.parametrize("page", ["README", *CLAIM_DOCS, "report", "metrics", "index",
                                  "scaling", "architecture", "seed_errata"])
def test_docs_et_al_has_a_year(page: str) -> None:
    # the project's rule: "Code, docs and tests cite sources by author and year": every "X et al." of a page
    # is cited with its year at least once on that page ("X et al. (2022)", "X et al.'s (2022)")
    path = ROOT / ("README.md" if page == "README" else f"docs/{page}.md")
    text = path.read_text(encoding="utf-8")
    missing = {m.group(1) for m in re.finditer(r"([A-Z][\w-]+) et al\.", text)
               if not re.search(re.escape(m.group(1)) + r" et al\.(?:'s)?,? \(?(?:19|20)\d\d",
                                text)}
    assert {(page, name) for name in missing} <= ET_AL_WITHOUT_YEAR, missing


# =============================================================================================
# Tools the docs tell users to call are exported (roc.md, groups.md)


@pytest.mark.parametrize("package, name, module", [
    ("confmat.curves", "bandwidth", "confmat.curves.bandwidth"),
    ("confmat.curves", "BANDWIDTHS", "confmat.curves.bandwidth"),
    ("confmat.curves", "fit_log_concave", "confmat.curves.logconcave"),
    ("confmat.curves", "LogConcaveDensity", "confmat.curves.logconcave"),
    ("confmat.curves", "probability_cost", "confmat.curves.cost"),
    ("confmat.plots", "plot_group_forest", "confmat.plots.groups"),
    ("confmat.plots", "draw_group_forest", "confmat.plots.groups"),
])
def test_docs_tools_are_exported(package: str, name: str, module: str) -> None:
    # roc.md: "`confmat.curves` exports three tools behind them: the bandwidth rules
    # (`confmat.curves.bandwidth`), the log-concave density estimate
    # (`confmat.curves.fit_log_concave`, a `LogConcaveDensity`) and the probability cost ...
    # (`confmat.curves.probability_cost`)"; groups.md: `confmat.plots.plot_group_forest`,
    # `confmat.plots.draw_group_forest`. The export is the module's object, listed in __all__
    # (so the API reference page of the package shows it)
    pkg = importlib.import_module(package)
    assert name in pkg.__all__
    assert getattr(pkg, name) is vars(sys.modules[module])[name]
    page = (ROOT / "docs" / "api" / f"{package.split('.')[1]}.md").read_text(encoding="utf-8")
    assert f"::: {package}" in page


def test_docs_bandwidth_export_wins_over_its_module() -> None:
    # roc.md: "`confmat.curves.bandwidth(x, rule)` computes them on their own": the function
    # shares its name with its module; as for `confmat.inference.roc_ci` (docs/architecture.md,
    # "lazy"), the package attribute stays the function even when a program imports the
    # submodule first, and the submodule's other names stay importable
    code = ("import confmat.curves.bandwidth\n"
            "from confmat.curves.bandwidth import BANDWIDTHS, canonical_rule\n"
            "import confmat.curves as c\n"
            "print(c.bandwidth.__name__, type(c.bandwidth).__name__, BANDWIDTHS[0],"
            " canonical_rule('SJ'))\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=300)
    assert res.stdout.split() == ["bandwidth", "function", "nrd0", "SJ"], res.stderr


def test_docs_plots_exports_keep_matplotlib_optional() -> None:
    # plots/__init__: "Matplotlib is imported only when a plot is drawn (`pip install
    # confmat[plot]`)": exporting the forest plot must not import it
    code = ("import sys, confmat.plots as p\n"
            "p.plot_group_forest, p.draw_group_forest\n"
            "print('matplotlib' in sys.modules)\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=300)
    assert res.stdout.strip() == "False", res.stderr


def _forest_rows(ax: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high) per drawn row from the top down, and the x of the overall line."""
    segs = ax.collections[0].get_segments()  # type: ignore[attr-defined]
    rows = sorted(((s[0][1], s[0][0], s[1][0]) for s in segs), reverse=True)
    low = np.array([r[1] for r in rows])
    high = np.array([r[2] for r in rows])
    vlines = [ln.get_xdata()[0] for ln in ax.lines  # type: ignore[attr-defined]
              if ln.get_label() == "overall"]
    return low, high, np.array(vlines)


def test_groups_forest_plot_draws_wilson_intervals_and_overall_recall() -> None:
    # groups.md, Report data: "`confmat.plots.plot_group_forest(ev, "recall", pos_label=1)` (a
    # metric with its interval per group, small groups drawn hollow, the overall value as a
    # dashed line; `confmat.plots.draw_group_forest(section.forest)` draws the same figure from
    # a section's data)"; intervals per group are Wilson's for proportions (groups.md,
    # Intervals per group), here against statsmodels
    from matplotlib.figure import Figure
    from statsmodels.stats.proportion import proportion_confint

    from confmat.groups import by_group
    from confmat.plots import draw_group_forest, plot_group_forest
    from confmat.report import build_groups_section

    y, p, g, _ = _groups_data(34)
    small = "c"
    keep = (g != small) | (np.arange(g.size) % 10 == 0)  # group "c" below min_support
    y, p, g = y[keep], p[keep], g[keep]
    ev = by_group(y, p, g, pos_label=1, min_support=30)
    ax = plot_group_forest(ev, "recall", pos_label=1, ax=Figure().add_subplot())
    low, high, overall = _forest_rows(ax)
    for i, k in enumerate(["a", "b", "c"]):
        m = g == k
        lo, hi = proportion_confint(np.sum((y == 1) & (p == 1) & m), np.sum((y == 1) & m),
                                    method="wilson")
        assert (low[i], high[i]) == pytest.approx((lo, hi), rel=1e-9)
    assert overall == pytest.approx([skm.recall_score(y, p)], rel=1e-12)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [f"{k} (n={np.sum(g == k)})" for k in ["a", "b", "c"]]
    hollow = [ln for ln in ax.lines if ln.get_markerfacecolor() == "white"]
    assert len(hollow) == 1 and list(hollow[0].get_ydata()) == [0]  # "c", the bottom row
    section = build_groups_section(ev, ["recall"], forest_metric="recall", pos_label=1)
    ax2 = draw_group_forest(section.forest, ax=Figure().add_subplot(), min_support=30)
    low2, high2, overall2 = _forest_rows(ax2)
    np.testing.assert_allclose(low2, low, rtol=1e-12)
    np.testing.assert_allclose(high2, high, rtol=1e-12)
    np.testing.assert_allclose(overall2, overall, rtol=1e-12)


# =============================================================================================
# docs/scaling.md


@pytest.fixture(scope="module")
def scaling_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    import pyarrow.feather

    d = tmp_path_factory.mktemp("scaling")
    rng = np.random.default_rng(35)
    y = rng.integers(0, 2, 500)
    p = np.round(np.clip(0.3 * y + rng.random(500) * 0.7, 0, 1), 2)
    df = pd.DataFrame({"y": y, "yhat": (p >= 0.5).astype(int), "p": p, "q": 1 - p,
                       "split": np.where(np.arange(500) % 4 == 0, "test", "train")})
    df.to_parquet(d / "f.parquet")
    df.to_csv(d / "f.csv", index=False)
    pyarrow.feather.write_feather(df, d / "f.arrow")
    np.savez(d / "f.npz", y=df["y"].to_numpy(), yhat=df["yhat"].to_numpy())
    return d, df


@pytest.mark.parametrize("name, kwargs, engine", [
    ("f.parquet", {}, "duckdb GROUP BY"),
    ("f.parquet", {"score_cols": "p"}, "duckdb GROUP BY"),
    ("f.csv", {"score_cols": "p"}, "duckdb GROUP BY"),
    ("f.parquet", {"score_cols": ["q", "p"]}, "pyarrow dataset"),
    ("f.csv", {"score_cols": ["q", "p"]}, "duckdb stream"),
    ("f.arrow", {}, "pyarrow dataset"),
    ("f.arrow", {"where": "split = 'test'"}, "duckdb GROUP BY"),
    ("f.npz", {}, "numpy"),
])
def test_scaling_report_engine_names_the_reader(scaling_files: tuple[Path, pd.DataFrame],
                                                name: str, kwargs: dict, engine: str) -> None:
    # scaling.md, Pushed into the engine: a confusion matrix is a `GROUP BY` ("`report.engine`
    # reads `'duckdb GROUP BY'`"); "Several score columns (one per class) are streamed
    # instead, as are Arrow IPC and NumPy files without `where=`: ... `'pyarrow dataset'`
    # (... Parquet, Arrow IPC), `'duckdb stream'` (... CSV, TSV, JSON lines) or `'numpy'`";
    # whichever engine, the matrix is scikit-learn's
    from confmat import io

    d, df = scaling_files
    cm, report = io.evaluate_file(str(d / name), "y", "yhat", **kwargs)
    assert report.engine == engine
    rows = df[df["split"] == "test"] if "where" in kwargs else df
    np.testing.assert_array_equal(cm.counts, skm.confusion_matrix(rows["y"], rows["yhat"]))
    assert report.rows_read + report.rows_skipped == len(df)


def test_scaling_score_bins_counted_by_duckdb_are_exact_at_edges(tmp_path: Path) -> None:
    # scaling.md, Pushed into the engine: "confmat gives those two the exact bin of
    # `ScoreHistogram`"; curves.md: "Bin `j` holds `e_j <= s < e_{j+1}` (the last bin also
    # holds `s = hi`), with edges `e_j = lo + (hi - lo) · j / B`": scores on every edge and on
    # both float neighbours, binned by that formula here
    from confmat import io

    bins = 50
    edges = np.arange(bins + 1) / bins
    s = np.concatenate([edges, np.nextafter(edges, 2.0), np.nextafter(edges, -1.0)])
    s = np.clip(s, 0.0, 1.0)
    y = np.arange(s.size) % 2
    pd.DataFrame({"y": y, "yhat": y, "p": s}).to_parquet(tmp_path / "edges.parquet")
    _, report = io.evaluate_file(str(tmp_path / "edges.parquet"), "y", "yhat", score_cols="p",
                                 bins=bins)
    assert report.engine == "duckdb GROUP BY"
    b = np.minimum(np.searchsorted(edges, s, side="right") - 1, bins - 1)
    for k in (0, 1):
        np.testing.assert_array_equal(report.curves.counts[k, 0],
                                      np.bincount(b[y == k], minlength=bins))


def test_scaling_accumulator_auc_is_sklearns_on_the_page_data() -> None:
    # scaling.md, Accumulator: "`h.roc_auc()  # -> 0.9086 (scikit-learn's roc_auc_score of the
    # 410)`": the page's chunks and `other_acc` (tests/test_docs_examples.py builds them), scores
    # of three decimals, each in a bin of its own among the default 10,000
    from test_docs_examples import _scaling

    ns = _scaling()
    acc = confmat.Accumulator()
    for t, p, s in ns["chunks"]:
        acc.update(t, p, scores=s)
    acc.merge(ns["other_acc"])
    y = np.concatenate([t for t, _, _ in ns["chunks"]] + [ns["y"][:10]])
    s = np.concatenate([s for _, _, s in ns["chunks"]] + [ns["score"][:10]])
    assert acc.curves().roc_auc() == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert round(skm.roc_auc_score(y, s), 4) == 0.9086
