"""Multilabel indicator input, the scikit-learn scorers and ``explain``, probed against their
oracles: scikit-learn 1.9's own functions and scorers (``sklearn.metrics``), and hand formulas
on each fold's predictions (the folds reproduced with the same splitter) for the metrics
scikit-learn lacks (Powers 2011: informedness, markedness; Yao et al. 2022 for MCC).
"""

from __future__ import annotations

import pickle
import re
import warnings

import numpy as np
import pycm
import pytest
import scipy.sparse as sp
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import confmat.sklearn as drop_in
from confmat import explain
from confmat import multilabel as ml
from confmat.metrics import list_metrics
from confmat.sklearn_scorers import get_scorer, make_scorer


# --------------------------------------------------------------------------- multilabel
@st.composite
def indicator_pairs(draw):
    n = draw(st.integers(1, 7))
    k = draw(st.integers(2, 5))
    cell = st.integers(0, 1)
    t = np.array(draw(st.lists(st.lists(cell, min_size=k, max_size=k), min_size=n, max_size=n)))
    p = np.array(draw(st.lists(st.lists(cell, min_size=k, max_size=k), min_size=n, max_size=n)))
    edge = draw(st.sampled_from(["none", "true_col_0", "true_col_1", "pred_col_0",
                                 "pred_col_1"]))
    if edge != "none":
        side, value = (t if edge.startswith("true") else p), int(edge[-1])
        side[:, draw(st.integers(0, k - 1))] = value
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25]),
                                   min_size=n, max_size=n)))
        if w.sum() == 0:
            w[0] = 1.0
    sparse = draw(st.booleans())
    return t, p, w, sparse


def _as(x: np.ndarray, sparse: bool):
    return sp.csr_matrix(x) if sparse else x


@settings(max_examples=150)
@given(indicator_pairs())
def test_multilabel_module_against_sklearn(case) -> None:
    t, p, w, sparse = case
    T, P = _as(t, sparse), _as(p, sparse)
    np.testing.assert_allclose(ml.multilabel_confusion_matrix(T, P, sample_weight=w),
                               skm.multilabel_confusion_matrix(T, P, sample_weight=w),
                               rtol=1e-12)
    np.testing.assert_allclose(
        ml.multilabel_confusion_matrix(T, P, sample_weight=w, samplewise=True),
        skm.multilabel_confusion_matrix(T, P, sample_weight=w, samplewise=True), rtol=1e-12)
    assert ml.hamming_loss(T, P, sample_weight=w) == pytest.approx(
        skm.hamming_loss(T, P, sample_weight=w), rel=1e-12, abs=1e-15)


@settings(max_examples=100)
@given(indicator_pairs(), st.sampled_from(["micro", "macro", "weighted", "samples", None]),
       st.sampled_from(["warn", 0, 1, np.nan]))
def test_multilabel_scores_of_the_drop_in_against_sklearn(case, average, zero_division) -> None:
    """The drop-in's set-wise scores are built on ``confmat.multilabel.indicator_counts``."""
    t, p, w, sparse = case
    T, P = _as(t, sparse), _as(p, sparse)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn in ("f1_score", "precision_score", "recall_score", "jaccard_score"):
            if fn == "jaccard_score" and not isinstance(zero_division, str) \
                    and np.isnan(zero_division):
                continue  # scikit-learn's jaccard_score takes no NaN (both refuse it)
            ours = getattr(drop_in, fn)(T, P, average=average, zero_division=zero_division,
                                        sample_weight=w)
            theirs = getattr(skm, fn)(T, P, average=average, zero_division=zero_division,
                                      sample_weight=w)
            np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15, err_msg=fn)
        for fn in ("accuracy_score", "zero_one_loss", "hamming_loss"):
            assert getattr(drop_in, fn)(T, P, sample_weight=w) == pytest.approx(
                getattr(skm, fn)(T, P, sample_weight=w), rel=1e-12, abs=1e-15)


def test_one_label_column() -> None:
    """One label column. scikit-learn reads a dense (n, 1) array as a column of labels;
    confmat's input door refuses column vectors by design, naming the argument and the fix
    (``.ravel()``), after which both agree. A sparse single column is refused by both."""
    t, p = np.array([[1], [0], [1]]), np.array([[1], [1], [0]])
    for fn in (ml.multilabel_confusion_matrix, ml.hamming_loss):
        with pytest.raises(ValueError, match=r"y_true must be 1-D; got a column vector of "
                                             r"shape \(3, 1\) \(use .ravel\(\) if meant\)"):
            fn(t, p)
    np.testing.assert_array_equal(ml.multilabel_confusion_matrix(t.ravel(), p.ravel()),
                                  skm.multilabel_confusion_matrix(t, p))
    assert ml.hamming_loss(t.ravel(), p.ravel()) == skm.hamming_loss(t, p)
    with pytest.raises(TypeError):
        skm.hamming_loss(sp.csr_matrix(t), sp.csr_matrix(p))
    with pytest.raises(TypeError, match="y_true is a sparse matrix of shape"):
        ml.hamming_loss(sp.csr_matrix(t), sp.csr_matrix(p))
    with pytest.raises(TypeError, match="y_true is a sparse matrix of shape"):
        ml.multilabel_confusion_matrix(sp.csr_matrix(t), sp.csr_matrix(p))


@pytest.mark.parametrize(("y_true", "y_pred", "error", "message"), [
    ([[2, 0], [0, 1]], [[1, 0], [0, 1]], ValueError, r"y_true must contain only 0 and 1.*2"),
    ([[1, 0], [0, 1]], [[1, 0], [0, np.nan]], ValueError, r"y_pred must contain only 0 and 1.*nan"),
    ([[0.5, 0], [0, 1]], [[1, 0], [0, 1]], ValueError, r"y_true must contain only 0 and 1"),
    ([[1, 0], [0]], [[1, 0], [0, 1]], ValueError, r"y_true must be an indicator matrix .*"
                                                  r"rows of lengths \[1, 2\]"),
    ([[1, 0], [0, 1]], [[1, 0], 1], ValueError, r"y_pred .* single values among rows"),
    ([[1, 0], [0, 1]], [[1, 0, 1], [0, 1, 0]], ValueError, r"different shapes: \(2, 2\) and "
                                                          r"\(2, 3\)"),
    ([[1, 0], [0, 1]], [[1, 0]], ValueError, r"different shapes"),
    ([["a", "b"]], [[1, 0]], TypeError, r"y_true must be a 0/1 indicator matrix, got dtype"),
    ([[1, 0], [0, 1]], [0, 1], ValueError, r"y_pred must be a 2-D indicator matrix"),
])
def test_bad_indicator_input_names_the_argument(y_true, y_pred, error, message) -> None:
    for fn in (ml.hamming_loss, ml.multilabel_confusion_matrix):
        with pytest.raises(error, match=message):
            fn(y_true, y_pred)


def test_bad_weights_and_options_of_multilabel() -> None:
    t, p = [[1, 0], [0, 1]], [[1, 1], [0, 1]]
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        ml.hamming_loss(t, p, sample_weight=[1, -1])
    with pytest.raises(ValueError, match="sample_weight has 1 entries but there are 2"):
        ml.multilabel_confusion_matrix(t, p, sample_weight=[1], samplewise=True)
    with pytest.raises(ValueError, match="samplewise=True needs multilabel indicator"):
        ml.multilabel_confusion_matrix([0, 1], [1, 1], samplewise=True)
    with pytest.raises(ValueError, match="Samplewise"):  # scikit-learn refuses it too
        skm.multilabel_confusion_matrix([0, 1], [1, 1], samplewise=True)
    with pytest.raises(TypeError, match="samplewise must be True or False"):
        ml.multilabel_confusion_matrix(t, p, samplewise="yes")
    with pytest.raises(ValueError, match=r"labels must be column indices in \[0, 2\)"):
        ml.multilabel_confusion_matrix(t, p, labels=[0, 2])


def test_samplewise_by_hand() -> None:
    """Sample 0: labels {0} predicted {0, 1} -> TP 1, FP 1, FN 0, TN 1 of 3 columns; weight 2
    doubles each count; sample 1 with weight 0 counts nothing."""
    t, p = np.array([[1, 0, 0], [0, 1, 1]]), np.array([[1, 1, 0], [1, 1, 0]])
    got = ml.multilabel_confusion_matrix(t, p, sample_weight=[2.0, 0.0], samplewise=True)
    np.testing.assert_array_equal(got, [[[2, 2], [0, 2]], [[0, 0], [0, 0]]])


# --------------------------------------------------------------------------- scorers
X2, Y2 = make_classification(160, 5, n_informative=3, random_state=0)
X3, Y3 = make_classification(180, 5, n_informative=3, n_classes=3, random_state=1)
CV = StratifiedKFold(4, shuffle=True, random_state=0)
SAME_NAMES = ["f1", "f1_macro", "f1_micro", "f1_weighted", "precision", "recall_macro",
              "precision_weighted", "balanced_accuracy", "matthews_corrcoef", "jaccard",
              "jaccard_macro", "accuracy"]
ESTIMATORS = [LogisticRegression(), LinearSVC(), DecisionTreeClassifier(random_state=0)]


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("name", SAME_NAMES)
def test_scorers_equal_sklearns_own_in_cross_validate(estimator, name) -> None:
    """LinearSVC has no predict_proba and the tree no decision_function: confmat's scorers read
    predict only, like scikit-learn's label scorers."""
    for X, y in ((X2, Y2), (X3, Y3)):
        if name in ("f1", "precision", "jaccard") and len(set(y)) > 2:
            with pytest.raises(ValueError, match="average"):
                cross_validate(estimator, X, y, cv=CV, scoring=get_scorer(name),
                               error_score="raise")
            continue
        ours = cross_validate(estimator, X, y, cv=CV, scoring=get_scorer(name))["test_score"]
        theirs = cross_validate(estimator, X, y, cv=CV, scoring=name)["test_score"]
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)


def test_grid_search_picks_what_sklearn_picks() -> None:
    grid = {"C": [0.001, 0.1, 10.0]}
    ours = GridSearchCV(LinearSVC(), grid, scoring=get_scorer("f1_macro"), cv=CV).fit(X3, Y3)
    theirs = GridSearchCV(LinearSVC(), grid, scoring="f1_macro", cv=CV).fit(X3, Y3)
    np.testing.assert_allclose(ours.cv_results_["mean_test_score"],
                               theirs.cv_results_["mean_test_score"], rtol=1e-12)
    assert ours.best_params_ == theirs.best_params_


def _folds(estimator, X, y):
    for train, test in CV.split(X, y):
        m = pickle.loads(pickle.dumps(estimator)).fit(X[train], y[train])
        yield y[test], m.predict(X[test])


def test_metrics_sklearn_lacks_equal_hand_formulas_on_each_fold() -> None:
    """Informedness and markedness by hand (Powers 2011), macro over classes; the error rate
    and the false positive rate negated (lower is better)."""
    y = np.where(Y3 == 0, "cat", np.where(Y3 == 1, "dog", "emu"))
    scoring = {"bm": get_scorer("informedness_macro"), "mk": get_scorer("markedness_macro"),
               "err": get_scorer("error_rate"), "neg_err": get_scorer("neg_error_rate"),
               "fpr": make_scorer("fpr", pos_label="dog")}
    res = cross_validate(LinearSVC(), X3, y, cv=CV, scoring=scoring)
    for i, (yt, yp) in enumerate(_folds(LinearSVC(), X3, y)):
        bm, mk = [], []
        for c in ("cat", "dog", "emu"):
            tp = np.sum((yt == c) & (yp == c))
            fn = np.sum((yt == c) & (yp != c))
            fp = np.sum((yt != c) & (yp == c))
            tn = np.sum((yt != c) & (yp != c))
            bm.append(tp / (tp + fn) + tn / (tn + fp) - 1)
            mk.append(tp / (tp + fp) + tn / (tn + fn) - 1)
        assert res["test_bm"][i] == pytest.approx(np.mean(bm), abs=1e-12)
        assert res["test_mk"][i] == pytest.approx(np.mean(mk), abs=1e-12)
        assert res["test_err"][i] == pytest.approx(-np.mean(yt != yp), abs=1e-12)
        assert res["test_neg_err"][i] == res["test_err"][i]
        dog_fpr = np.sum((yt != "dog") & (yp == "dog")) / np.sum(yt != "dog")
        assert res["test_fpr"][i] == pytest.approx(-dog_fpr, abs=1e-12)


@pytest.mark.parametrize("pos_label", ["spam", "ham"])
@pytest.mark.parametrize(("name", "func"), [("f1", skm.f1_score), ("recall", skm.recall_score),
                                            ("precision", skm.precision_score),
                                            ("jaccard", skm.jaccard_score)])
def test_pos_label_with_string_labels(name, func, pos_label) -> None:
    y = np.where(Y2 == 1, "spam", "ham")
    ours = cross_validate(LogisticRegression(), X2, y, cv=CV,
                          scoring=make_scorer(name, pos_label=pos_label))["test_score"]
    theirs = cross_validate(LogisticRegression(), X2, y, cv=CV,
                            scoring=skm.make_scorer(func, pos_label=pos_label))["test_score"]
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    with pytest.raises(ValueError, match="pos_label"):  # both refuse the default 1 here
        cross_validate(LogisticRegression(), X2, y, cv=CV, scoring=get_scorer(name),
                       error_score="raise")


def test_pickled_scorer_with_string_labels_runs_in_two_jobs() -> None:
    y = np.where(Y2 == 1, "spam", "ham")
    scorer = pickle.loads(pickle.dumps(make_scorer("mcc_yao2022")))
    par = cross_validate(LogisticRegression(), X2, y, cv=CV, scoring=scorer, n_jobs=2)
    # Yao et al. 2022's MCC equals Matthews' for two classes
    mcc = cross_validate(LogisticRegression(), X2, y, cv=CV, scoring="matthews_corrcoef")
    np.testing.assert_allclose(par["test_score"], mcc["test_score"], rtol=1e-9)


def test_response_method_and_scores_scorers() -> None:
    assert make_scorer("f1", response_method="predict")._response_method == "predict"
    for kw in ({"response_method": "predict_proba"}, {"response_method": "decision_function"},
               {"needs_proba": True}, {"needs_threshold": True}):
        with pytest.raises(ValueError, match=rf"{next(iter(kw))}=.* does not apply: confmat "
                                             r"scorers score predicted labels"):
            make_scorer("f1", **kw)
    for name in ("roc_auc", "neg_log_loss", "average_precision", "neg_brier_score"):
        with pytest.raises(ValueError, match=rf"'{name}' is a scikit-learn scorer.*"
                                             r"sklearn.metrics.get_scorer"):
            get_scorer(name)
    with pytest.raises(ValueError, match="'samples' average of multilabel"):
        get_scorer("f1_samples")


def test_scorer_parameter_errors_fail_when_made() -> None:
    with pytest.raises(ValueError, match=r"zero_division must be one of 'warn', 0, 1 or np\.nan, "
                                         r"got 5"):
        make_scorer("f1", zero_division=5)
    with pytest.raises(TypeError, match="labels must be an array-like of labels, got a single "
                                        "string 'ab'"):
        make_scorer("f1", labels="ab")
    with pytest.raises(ValueError, match="labels contains duplicates"):
        make_scorer("f1", average="macro", labels=[0, 0])
    with pytest.raises(ValueError, match=r"unknown metric 'nonsense'"):
        get_scorer("nonsense")
    with pytest.raises(ValueError, match=r"'neg_f1': 'f1' is not a lower-is-better metric"):
        get_scorer("neg_f1")
    with pytest.raises(ValueError, match="beta must be a positive finite number"):
        make_scorer("fbeta", beta=-1)


def test_neg_prefix_names_the_negated_scorer() -> None:
    est = LogisticRegression().fit(X2, Y2)
    expected = -skm.hamming_loss(Y2, est.predict(X2))
    assert get_scorer("neg_hamming_loss")(est, X2, Y2) == pytest.approx(expected)
    assert get_scorer("hamming_loss")(est, X2, Y2) == pytest.approx(expected)
    fnr = np.mean(est.predict(X2)[Y2 == 1] == 0)
    assert get_scorer("neg_fnr_macro")(est, X2, Y2) == pytest.approx(
        -np.mean([np.mean(est.predict(X2)[Y2 == c] != c) for c in (0, 1)]))
    assert get_scorer("neg_fnr")(est, X2, Y2) == pytest.approx(-fnr)


# --------------------------------------------------------------------------- explain
YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")


def test_every_metric_and_alias_explains_with_dated_sources() -> None:
    for spec in list_metrics():
        for name in (spec.name, *spec.aliases):
            e = explain(name)
            assert e.name == spec.name
            assert e.references and all(YEAR.search(r) for r in e.references), name
            assert spec.name in str(e) and e.to_dict()["name"] == spec.name


def test_every_pycm_key_explains() -> None:
    cm = pycm.ConfusionMatrix(matrix=[[3, 1, 0], [1, 4, 2], [0, 1, 5]])
    keys = set(cm.class_stat) | set(cm.overall_stat)
    assert len(keys) > 130
    for key in keys:
        e = explain(key)
        # a key that is also a registry alias ("TOPR") is found as the metric itself
        assert e.asked_as in (key, None) and YEAR.search(str(e)), key


@pytest.mark.parametrize(("asked", "suggested"), [
    ("recal", "'recall'"), ("Kapa", "'kappa'"), ("TPR macro", "'TPR Macro'"),
    ("tpr macro", "'TPR Macro'"), ("F1 macro", "'F1 Macro'"), ("Overall mcc", "'Overall MCC'"),
    ("SOA1(Landis)", "'SOA1(Landis & Koch)'"),
])
def test_unknown_names_suggest_close_matches(asked, suggested) -> None:
    with pytest.raises(ValueError, match=rf"unknown metric '{re.escape(asked)}'.*did you mean.*"
                                         rf"{re.escape(suggested)}"):
        explain(asked)
