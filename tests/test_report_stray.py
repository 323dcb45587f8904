"""``build_report`` and ``build_comparison``: predicted labels beside scores follow the one rule
of :func:`confmat.inputs.decisions.check_scored_predictions`, as :func:`confmat.by_group`,
:func:`confmat.compare` and the command line do.

A predicted label that is neither a class of ``y_true`` nor the positive class of one score
column is refused, naming it and its position (and, in a comparison, the model). The
legitimate cases are reports: a class never predicted, the positive class predicted beside a
truth of one class (all 0, beside the scores of the class 1 that the default rule implies),
and a class absent from ``y_true`` that has its own column of a score matrix. Without scores
such a label is one more class of the matrix.

Oracles: scikit-learn's ``confusion_matrix``, ``accuracy_score`` and ``roc_auc_score``
computed in the tests; set membership worked by hand for which label is stray.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, confusion_matrix, roc_auc_score

from confmat import ConfusionMatrix
from confmat.report import build_comparison, build_report
from stray_rule import scored_classes

Y = np.array(["ham", "spam", "ham", "spam", "ham", "spam", "ham", "spam"])
S = np.array([0.1, 0.9, 0.4, 0.8, 0.2, 0.7, 0.3, 0.35])
STRAY = np.array(["ham", "spam", "eggs", "spam", "ham", "spam", "eggs", "spam"])


def _report(y, p, s, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 0 / 0 ratios of absent classes
        return build_report(ConfusionMatrix.from_predictions(y, p), y_true=y, y_score=s,
                            y_pred=p, intervals=False, **kw)


def test_build_report_refuses_a_stray_prediction_beside_scores():
    """Before: a three-class matrix ('eggs' among its classes) beside the binary curve of
    'spam', no word about it."""
    with pytest.raises(ValueError, match=r"^y_pred holds label 'eggs' \(first at position 2, "
                                         r"counted from 0\), which is not one of the classes "
                                         r"of y_true \['ham', 'spam'\]; the scores \(y_score\)"):
        _report(Y, STRAY, S, pos_label="spam")
    # without scores 'eggs' is a class of the matrix like any other
    rep = build_report(ConfusionMatrix.from_predictions(Y, STRAY), intervals=False)
    assert rep.labels == ["eggs", "ham", "spam"]
    assert rep.counts.tolist() == confusion_matrix(Y, STRAY,
                                                   labels=["eggs", "ham", "spam"]).tolist()


def test_build_comparison_refuses_a_stray_prediction_naming_the_model():
    with pytest.raises(ValueError, match=r"^while evaluating model 'b': y_pred holds label "
                                         r"'eggs' \(first at position 2"):
        build_comparison(Y, {"a": Y, "b": STRAY}, scores={"a": S, "b": S}, pos_label="spam",
                         intervals=False, n_resamples=100)
    # the same models without scores: a three-class comparison, as scikit-learn counts it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # f1 of 'eggs' is 0 / 0
        cmp = build_comparison(Y, {"a": Y, "b": STRAY}, intervals=False, n_resamples=100,
                               metrics=["accuracy"])
    table = {r["model"]: r for r in cmp.table}
    assert table["b"]["accuracy"] == pytest.approx(accuracy_score(Y, STRAY))
    assert cmp.reports[1].labels == ["eggs", "ham", "spam"]


def test_a_class_never_predicted_beside_scores_is_reported():
    p = np.full(Y.shape, "ham")
    rep = _report(Y, p, S, pos_label="spam")
    assert rep.counts.tolist() == confusion_matrix(Y, p, labels=["ham", "spam"]).tolist()
    assert rep.curves[0].auc == pytest.approx(roc_auc_score(Y == "spam", S))


def test_the_positive_class_beside_a_truth_of_one_class_is_reported():
    """A truth of 0 only beside the scores of the class 1 that the default rule implies: a
    predicted 1 has its score column; a predicted 2 has none."""
    y = np.zeros(6, dtype=int)
    p, s = np.array([0, 1, 0, 1, 0, 0]), np.array([.1, .8, .3, .6, .2, .4])
    rep = _report(y, p, s)
    assert rep.counts.tolist() == confusion_matrix(y, p, labels=[0, 1]).tolist()
    assert rep.curves[0].pos_label == 1
    with pytest.raises(ValueError, match=r"^y_pred holds label 2 \(first at position 1.*nor "
                                         r"the positive class 1"):
        _report(y, np.where(p == 1, 2, 0), s)


def test_a_predicted_class_with_its_own_score_column_is_reported():
    """Class 2 is predicted and has a column of the score matrix but no true sample: the
    matrix holds it, the present classes get their one-vs-rest curves."""
    y = np.array([0, 1, 0, 1, 0, 1, 1, 0])
    s = np.array([[.7, .2, .1], [.1, .6, .3], [.2, .2, .6], [.3, .5, .2],
                  [.6, .3, .1], [.2, .3, .5], [.1, .8, .1], [.5, .4, .1]])
    p = s.argmax(axis=1)
    rep = _report(y, p, s)
    assert rep.counts.tolist() == confusion_matrix(y, p, labels=[0, 1, 2]).tolist()
    assert {c.pos_label: c.auc for c in rep.curves} == pytest.approx(
        {c: roc_auc_score(y == c, s[:, c]) for c in (0, 1)})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, 1, 2]),
                          st.floats(0, 1)), min_size=2, max_size=25))
def test_refused_exactly_when_a_prediction_is_outside_the_scored_classes(rows):
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    s = np.array([r[2] for r in rows])
    scored = scored_classes(y.tolist(), p.tolist(), 1)  # the positive class is 1
    first = next((i for i, v in enumerate(p.tolist()) if v not in scored), None)
    if first is not None:
        with pytest.raises(ValueError, match=rf"holds label {p[first]} \(first at position "
                                             rf"{first}, counted from 0\)"):
            _report(y, p, s)
        return
    rep = _report(y, p, s)
    assert rep.counts.tolist() == confusion_matrix(y, p, labels=rep.labels).tolist()
    if len(set(y.tolist())) == 2:
        assert rep.curves[0].auc == pytest.approx(roc_auc_score(y, s))


def test_a_comparison_on_a_truth_of_one_class_leaves_the_areas_out():
    """Every model has scores, but y_true holds one class: scikit-learn leaves the ROC AUC
    undefined (no ROC curve without both classes), so the comparison does not compare areas and says
    so; the other metrics are compared (accuracy against scikit-learn). Before, the
    comparison stopped: 'pos_label=1 is not one of the labels in y_true [0]'."""
    y = np.zeros(6, int)
    preds = {"a": np.array([0, 1, 0, 0, 0, 0]), "b": np.array([0, 0, 0, 1, 1, 0])}
    scores = {"a": [.1, .7, .2, .3, .4, .2], "b": [.2, .1, .3, .8, .9, .1]}
    with warnings.catch_warnings():  # scikit-learn: undefined (NaN and a warning)
        warnings.simplefilter("ignore")
        assert np.isnan(roc_auc_score(y, scores["a"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comp = build_comparison(y, preds, scores=scores, intervals=False)
    table = comp.to_dict()["table"]
    assert [row["model"] for row in table] == ["a", "b"]
    for row in table:
        assert "roc_auc" not in row and "average_precision" not in row
        assert row["accuracy"] == pytest.approx(accuracy_score(y, preds[row["model"]]))
    assert comp.notes[0].startswith("ROC AUC and average precision are not compared: y_true "
                                    "holds one class (0)")
