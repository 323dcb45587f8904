"""``by_group(..., scores=...)``: predicted labels beside scores follow the one rule of
:func:`confmat.inputs.decisions.check_scored_predictions`. A predicted label that is neither
a class of ``y_true`` nor the positive class of the score column is refused, naming it and
where it is; the legitimate cases (a class never predicted, the positive class predicted
beside a truth of one class, one-vs-rest scores of a class among three) are evaluated.

Oracles: scikit-learn's ``confusion_matrix`` and ``roc_auc_score`` on each group's slice,
computed here; set membership worked by hand for which label is stray.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, roc_auc_score

from confmat import by_group
from stray_rule import scored_classes

Y = np.array(["ham", "spam", "ham", "spam", "ham", "spam", "ham", "spam"])
S = np.array([0.1, 0.9, 0.4, 0.8, 0.2, 0.7, 0.3, 0.35])
G = np.array(["a", "a", "a", "a", "b", "b", "b", "b"])


def test_a_stray_prediction_beside_scores_is_refused():
    """Before: the stray 'eggs' became a third class of every group's table beside the
    binary scores of 'spam', and the selection rate and the rates by group were silently
    those of a three-class table."""
    p = np.array(["ham", "spam", "eggs", "spam", "ham", "spam", "eggs", "ham"])
    with pytest.raises(ValueError, match=r"^y_pred holds label 'eggs' \(first at position 2, "
                                         r"counted from 0\), which is not one of the classes "
                                         r"of y_true \['ham', 'spam'\]; the scores \(scores\)"):
        by_group(Y, p, G, scores=S, pos_label="spam")
    # without scores the same predictions are a three-class evaluation, as scikit-learn counts
    ev = by_group(Y, p, G, pos_label="spam")
    assert ev.overall.counts.tolist() == confusion_matrix(
        Y, p, labels=["eggs", "ham", "spam"]).tolist()


def test_a_class_never_predicted_is_legitimate():
    p = np.full(Y.shape, "ham")
    ev = by_group(Y, p, G, scores=S, pos_label="spam")
    for i, g in enumerate(ev.groups):
        m = G == g
        assert ev.stack[i].tolist() == confusion_matrix(Y[m], p[m],
                                                         labels=["ham", "spam"]).tolist()
        assert ev.metric("roc_auc")[i] == pytest.approx(roc_auc_score(Y[m] == "spam", S[m]))


def test_the_positive_class_predicted_beside_a_truth_of_one_class_is_legitimate():
    """A truth of 0 only beside the scores of the class 1 (the default rule's positive class):
    a predicted 1 has its score column, as in build_report."""
    y, p = np.zeros(4, dtype=int), np.array([0, 1, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ROC AUC of one class is undefined
        ev = by_group(y, p, ["a", "a", "b", "b"], scores=[0.1, 0.9, 0.4, 0.8])
    assert ev.overall.counts.tolist() == confusion_matrix(y, p, labels=[0, 1]).tolist()


def test_one_score_column_of_a_class_among_three_is_one_vs_rest():
    y = np.array(["a", "b", "c", "c", "a", "b", "c", "a", "c", "b"])
    p = np.array(["a", "c", "c", "b", "a", "b", "c", "c", "a", "b"])
    s = np.array([0.1, 0.6, 0.9, 0.4, 0.2, 0.3, 0.8, 0.7, 0.65, 0.05])
    g = np.array(["x"] * 5 + ["y"] * 5)
    ev = by_group(y, p, g, scores=s, pos_label="c")
    for i, key in enumerate(ev.groups):
        m = g == key
        assert ev.metric("roc_auc")[i] == pytest.approx(roc_auc_score(y[m] == "c", s[m]))
    with pytest.raises(ValueError, match=r"holds label 'd' \(first at position 1,"):
        by_group(y, np.where(np.arange(10) == 1, "d", p), g, scores=s, pos_label="c")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, 1, 2]),
                          st.sampled_from("ab"), st.floats(0, 1)), min_size=2, max_size=30))
def test_refused_exactly_when_a_prediction_is_outside_the_scored_classes(rows):
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    g = np.array([r[2] for r in rows])
    s = np.array([r[3] for r in rows])
    scored = scored_classes(y.tolist(), p.tolist(), 1)  # the positive class is 1
    first = next((i for i, v in enumerate(p.tolist()) if v not in scored), None)
    if first is not None:
        with pytest.raises(ValueError, match=rf"holds label {p[first]} \(first at position "
                                             rf"{first}, counted from 0\)"):
            by_group(y, p, g, scores=s)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # groups of one class: no ROC AUC
        ev = by_group(y, p, g, scores=s)
        auc = ev.metric("roc_auc")
    for i, key in enumerate(ev.groups):
        m = g == key
        assert ev.stack[i].tolist() == confusion_matrix(y[m], p[m], labels=ev.labels).tolist()
        if len(set(y[m].tolist())) == 2:
            assert auc[i] == pytest.approx(roc_auc_score(y[m], s[m]))
