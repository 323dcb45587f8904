"""confmat scorers in scikit-learn's model selection; oracles are scikit-learn / imbalanced-learn
metrics recomputed here on the same folds."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from imblearn.metrics import geometric_mean_score
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import matthews_corrcoef, precision_score, recall_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from confmat.sklearn_scorers import get_scorer, make_scorer

CV = StratifiedKFold(4, shuffle=True, random_state=0)


def fold_predictions(model, X, y):
    for train, test in CV.split(X, y):
        m = pickle.loads(pickle.dumps(model)).fit(X[train], y[train])
        yield y[test], m.predict(X[test])


def test_cross_validate_binary_scores_match_oracles() -> None:
    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=500))
    scoring = {
        "J": make_scorer("informedness", pos_label=1),
        "MK": make_scorer("markedness", pos_label=0),
        "gmean": get_scorer("gmean"),
        "yao": get_scorer("mcc_yao2022"),
        "fpr": make_scorer("fpr", pos_label=1),
    }
    res = cross_validate(model, X, y, cv=CV, scoring=scoring)
    for i, (yt, yp) in enumerate(fold_predictions(model, X, y)):
        informed = recall_score(yt, yp, pos_label=1) + recall_score(yt, yp, pos_label=0) - 1
        marked = precision_score(yt, yp, pos_label=0) + precision_score(yt, yp, pos_label=1) - 1
        assert res["test_J"][i] == pytest.approx(informed, abs=1e-12)
        assert res["test_MK"][i] == pytest.approx(marked, abs=1e-12)
        assert res["test_gmean"][i] == pytest.approx(geometric_mean_score(yt, yp), abs=1e-12)
        assert res["test_yao"][i] == pytest.approx(matthews_corrcoef(yt, yp), abs=1e-9)
        # lower is better: negated, like scikit-learn's neg_* scorers
        fpr = np.mean(yp[yt == 0] == 1)
        assert res["test_fpr"][i] == pytest.approx(-fpr, abs=1e-12)


def test_grid_search_with_a_metric_sklearn_lacks() -> None:
    X, y = load_iris(return_X_y=True)
    grid = {"n_neighbors": [1, 5, 25, 60]}
    scorer = get_scorer("informedness_macro")
    search = GridSearchCV(KNeighborsClassifier(), grid, scoring=scorer, cv=CV).fit(X, y)
    means = []
    for k in grid["n_neighbors"]:
        vals = []
        for yt, yp in fold_predictions(KNeighborsClassifier(k), X, y):
            per_class = []
            for c in np.unique(y):
                tpr = np.mean(yp[yt == c] == c)
                tnr = np.mean(yp[yt != c] != c)
                per_class.append(tpr + tnr - 1)
            vals.append(np.mean(per_class))
        means.append(np.mean(vals))
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], means, atol=1e-12)
    assert search.best_params_["n_neighbors"] == grid["n_neighbors"][int(np.argmax(means))]


def test_scorer_pickles_and_runs_in_parallel() -> None:
    X, y = load_iris(return_X_y=True)
    scorer = pickle.loads(pickle.dumps(make_scorer("fbeta", average="weighted", beta=2.0)))
    res = cross_validate(KNeighborsClassifier(3), X, y, cv=CV, scoring=scorer, n_jobs=2)
    from sklearn.metrics import fbeta_score

    expected = [fbeta_score(yt, yp, beta=2.0, average="weighted")
                for yt, yp in fold_predictions(KNeighborsClassifier(3), X, y)]
    np.testing.assert_allclose(res["test_score"], expected, atol=1e-12)


def test_scorer_errors() -> None:
    with pytest.raises(ValueError, match="unknown metric"):
        make_scorer("informedess")
    with pytest.raises(ValueError, match="overall metric"):
        make_scorer("mcc", average="macro")
    with pytest.raises(ValueError, match="either pos_label or average"):
        make_scorer("recall", average="macro", pos_label=1)
    with pytest.raises(TypeError, match="beta"):
        make_scorer("recall", beta=2)
    from confmat import list_metrics

    no_direction = next(s.name for s in list_metrics() if s.higher_is_better is None)
    with pytest.raises(ValueError, match="no better direction"):
        make_scorer(no_direction)
    assert make_scorer(no_direction, greater_is_better=True) is not None


# --------------------------------------------- names shared with scikit-learn's own scorers
SHARED = ["f1", "precision", "recall", "jaccard"]


@pytest.mark.parametrize("name", SHARED)
@pytest.mark.parametrize("coding", [(0, 1), (-1, 1), (False, True)])
def test_unaveraged_per_class_scorer_is_sklearns_binary_scorer(name, coding) -> None:
    """get_scorer("f1") gives scikit-learn's "f1" (average='binary', positive class 1 / True)
    on every fold, not a macro average."""
    from sklearn.metrics import get_scorer as sk_get_scorer

    X, y01 = load_breast_cancer(return_X_y=True)
    y = np.array(coding, dtype=object if coding[0] is False else int)[y01]
    if coding[0] is False:
        y = y.astype(bool)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.01, max_iter=500))
    ours = cross_validate(model, X, y, cv=CV, scoring=get_scorer(name), error_score="raise")
    theirs = cross_validate(model, X, y, cv=CV, scoring=sk_get_scorer(name))
    np.testing.assert_allclose(ours["test_score"], theirs["test_score"], atol=1e-12)
    macro = cross_validate(model, X, y, cv=CV, scoring=get_scorer(name + "_macro"))
    sk_macro = cross_validate(model, X, y, cv=CV, scoring=sk_get_scorer(name + "_macro"))
    np.testing.assert_allclose(macro["test_score"], sk_macro["test_score"], atol=1e-12)
    assert not np.allclose(ours["test_score"], macro["test_score"])  # the two differ here


def test_unaveraged_scorer_refuses_what_sklearn_refuses() -> None:
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=r"labels are \[0, 1, 2\]; pass average=.*'f1_macro'"):
        cross_validate(KNeighborsClassifier(), X, y, cv=CV, scoring=get_scorer("f1"),
                       error_score="raise")
    Xb, yb = load_breast_cancer(return_X_y=True)
    text = np.array(["benign", "malignant"])[yb]
    with pytest.raises(ValueError, match=r"takes values \['benign', 'malignant'\] and pos_label is not specified"):
        cross_validate(KNeighborsClassifier(), Xb, text, cv=CV, scoring=get_scorer("recall"),
                       error_score="raise")
    ours = cross_validate(KNeighborsClassifier(), Xb, text, cv=CV,
                          scoring=make_scorer("recall", pos_label="malignant"))
    expected = [recall_score(yt, yp, pos_label="malignant")
                for yt, yp in fold_predictions(KNeighborsClassifier(), Xb, text)]
    np.testing.assert_allclose(ours["test_score"], expected, atol=1e-12)


@pytest.mark.parametrize("zero_division", [0, 1])
@pytest.mark.parametrize("name", SHARED)
def test_fold_without_the_positive_class_follows_zero_division(name, zero_division) -> None:
    """A fold whose truth and predictions hold only the negative class: scikit-learn scores
    the positive class as an empty row and column (its zero_division value), not an error."""
    from sklearn.dummy import DummyClassifier
    from sklearn.metrics import f1_score, jaccard_score

    oracle = {"f1": f1_score, "precision": precision_score, "recall": recall_score,
              "jaccard": jaccard_score}[name]
    X = np.zeros((6, 1))
    model = DummyClassifier(strategy="constant", constant=0).fit(X, [0, 0, 0, 1, 1, 1])
    y_fold = np.zeros(6, dtype=int)
    expected = oracle(y_fold, model.predict(X), zero_division=zero_division)
    assert make_scorer(name, zero_division=zero_division)(model, X, y_fold) == expected
    assert make_scorer(name, pos_label=1, zero_division=zero_division)(model, X, y_fold) \
        == expected
    # two labels present, neither of them the given positive class: an error, as in
    # scikit-learn (a model that knows the class, so that scikit-learn's scorer lets it pass)
    five = DummyClassifier(strategy="constant", constant=0).fit(X, [0, 0, 0, 5, 5, 5])
    with pytest.raises(ValueError, match=r"pos_label=5 is not one of the labels in y_true and y_pred \[0, 1\]"):
        make_scorer(name, pos_label=5)(five, X, np.array([0, 1, 0, 1, 0, 1]))
    with pytest.raises(ValueError):
        oracle(np.array([0, 1, 0, 1, 0, 1]), five.predict(X), pos_label=5)
