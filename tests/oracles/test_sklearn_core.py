"""Differential tests: confmat against scikit-learn on hundreds of random inputs.

Every expected value is computed by scikit-learn on the same label vectors. The drawn inputs
include classes listed in ``labels`` but never seen, a single class, ``labels`` that reorder or
select a subset, sample weights, and int / str / bool / float labels. ``zero_division`` is
matched between the two libraries in every comparison (scikit-learn's kappa calls it
``replace_undefined_by``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import confmat
from confmat import ConfusionMatrix
from conftest import N_EXAMPLES, Case, cases, quiet, sk_or_error
from exact_oracles import IRRATIONAL_OVERALL, agrees
from exact_oracles import value as exact_value

ZERO_DIVISIONS = st.sampled_from([0, 1, np.nan, "warn"])
AVERAGES = [None, "micro", "macro", "weighted"]


def _cm(case: Case, *, labels: bool = True, strict: bool = False) -> ConfusionMatrix:
    """The matrix of a case; not strict by default: scikit-learn's metric functions accept a
    labels list naming no class of y_true (only its confusion_matrix refuses it)."""
    return ConfusionMatrix.from_predictions(
        case.y_true,
        case.y_pred,
        labels=case.labels if labels else None,
        sample_weight=case.sample_weight,
        strict_labels=strict,
    )


def _close(ours, expected, rtol: float = 1e-10, atol: float = 1e-12) -> None:
    np.testing.assert_allclose(
        np.asarray(ours, dtype=np.float64),
        np.asarray(expected, dtype=np.float64),
        rtol=rtol,
        atol=atol,
        equal_nan=True,
    )


# ----------------------------------------------------------------------------- confusion_matrix
@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool", "float")))
def test_confusion_matrix_counts_labels_weights(case: Case) -> None:
    """Counts equal sklearn's for any labels= (absent classes, reordering, subsets) and weights."""
    expected = sk_or_error(
        skm.confusion_matrix,
        case.y_true,
        case.y_pred,
        labels=case.labels,
        sample_weight=case.sample_weight,
    )
    if isinstance(expected, ValueError):
        # sklearn refuses a labels list with no class present in y_true, and so does confmat
        assert not set(case.labels) & set(case.y_true)
        with pytest.raises(ValueError, match="labels names no class that occurs in y_true"):
            _cm(case, strict=True)
        return
    cm = _cm(case, strict=True)
    assert cm.labels == (case.labels if case.labels is not None else case.seen)
    assert cm.counts.shape == expected.shape
    assert cm.counts.dtype.kind == ("f" if case.sample_weight is not None else "i")
    _close(cm.counts, expected, rtol=1e-12)


@settings(max_examples=N_EXAMPLES)
@given(cases(), st.sampled_from(["true", "pred", "all"]))
def test_confusion_matrix_normalize(case: Case, normalize: str) -> None:
    expected = sk_or_error(
        skm.confusion_matrix,
        case.y_true,
        case.y_pred,
        labels=case.labels,
        sample_weight=case.sample_weight,
        normalize=normalize,
    )
    assume(not isinstance(expected, ValueError))
    _close(_cm(case).normalize(normalize), expected)


# ------------------------------------------------------------------ precision / recall / F / J
@settings(max_examples=N_EXAMPLES)
@given(
    cases(("int", "str", "bool")),
    st.sampled_from(AVERAGES),
    ZERO_DIVISIONS,
    st.floats(0.1, 5.0),
)
def test_precision_recall_fbeta_jaccard(case: Case, average, zero_division, beta: float) -> None:
    kw = dict(labels=case.labels, sample_weight=case.sample_weight, zero_division=zero_division)
    p, r, f, _ = quiet(
        skm.precision_recall_fscore_support,
        case.y_true, case.y_pred, beta=beta, average=average, **kw,
    )
    f1 = quiet(skm.f1_score, case.y_true, case.y_pred, average=average, **kw)
    # sklearn's jaccard_score does not accept zero_division=np.nan
    j = None
    if not (isinstance(zero_division, float) and math.isnan(zero_division)):
        j = quiet(skm.jaccard_score, case.y_true, case.y_pred, average=average, **kw)
    cm = _cm(case)
    ours = lambda name, **params: quiet(  # noqa: E731
        cm.metric, name, average, zero_division=zero_division, **params
    )
    _close(ours("precision"), p)
    _close(ours("recall"), r)
    _close(ours("fbeta", beta=beta), f)
    _close(ours("f1"), f1)
    if j is not None:
        _close(ours("jaccard"), j)
    # the alias names reach the same functions
    _close(ours("tpr"), r)
    _close(ours("ppv"), p)


@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool"), labels="none", max_classes=2), ZERO_DIVISIONS, st.data())
def test_binary_average_via_pos_label(case: Case, zero_division, data) -> None:
    """sklearn's average='binary' equals confmat's metric(..., pos_label=...)."""
    assert len(case.seen) <= 2
    pos_label = data.draw(st.sampled_from(case.seen))
    kw = dict(pos_label=pos_label, sample_weight=case.sample_weight, zero_division=zero_division)
    cm = _cm(case)
    for name, fn in [
        ("precision", skm.precision_score),
        ("recall", skm.recall_score),
        ("f1", skm.f1_score),
        ("jaccard", skm.jaccard_score),
    ]:
        if name == "jaccard" and isinstance(zero_division, float):
            continue  # sklearn's jaccard_score does not accept zero_division=np.nan
        expected = quiet(fn, case.y_true, case.y_pred, average="binary", **kw)
        _close(quiet(cm.metric, name, pos_label=pos_label, zero_division=zero_division), expected)
    expected = quiet(skm.fbeta_score, case.y_true, case.y_pred, beta=2.0, average="binary", **kw)
    ours = quiet(cm.metric, "fbeta", pos_label=pos_label, zero_division=zero_division, beta=2.0)
    _close(ours, expected)


# ----------------------------------------------------------------------------- overall scores
@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool", "float"), labels="full"))
def test_accuracy_mcc_losses(case: Case) -> None:
    """accuracy, MCC, Hamming and zero-one loss (no label subset: these take no labels)."""
    t, p, w = case.y_true, case.y_pred, case.sample_weight
    cm = _cm(case)
    _close(cm.metric("accuracy"), skm.accuracy_score(t, p, sample_weight=w))
    ours, sk = cm.metric("mcc"), quiet(skm.matthews_corrcoef, t, p, sample_weight=w)
    if not np.isclose(ours, sk, rtol=1e-10, atol=1e-9):
        # scikit-learn forms N^2 - sum_k p_k^2 as a float difference, which loses a class
        # lighter than 1e-16 of N (weights 1 and 1e-65 give 0): the exact value decides
        with mpmath.workdps(50):
            exact = exact_value(IRRATIONAL_OVERALL["mcc"],
                          [[Fraction(float(v)) for v in row] for row in cm.counts])
        assert exact is not None and agrees(ours, exact, 1) and not agrees(sk, exact, 1)
    _close(cm.metric("hamming_loss"), skm.hamming_loss(t, p, sample_weight=w))
    _close(confmat.hamming_loss(t, p, sample_weight=w), skm.hamming_loss(t, p, sample_weight=w))
    _close(cm.metric("zero_one_loss"), skm.zero_one_loss(t, p, sample_weight=w))
    _close(
        cm.metric("zero_one_loss", normalize=False),
        skm.zero_one_loss(t, p, normalize=False, sample_weight=w),
    )
    _close(cm.metric("error_rate"), 1.0 - skm.accuracy_score(t, p, sample_weight=w))


@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool"), labels="full"), st.booleans())
def test_balanced_accuracy(case: Case, adjusted: bool) -> None:
    t, p, w = case.y_true, case.y_pred, case.sample_weight
    cm = _cm(case)
    ours = quiet(cm.metric, "balanced_accuracy", adjusted=adjusted, zero_division="nan")
    supported = {c for c, wt in zip(t, w or [1.0] * len(t), strict=True) if wt > 0}
    if adjusted and len(supported) == 1:
        # sklearn divides by 1 - chance = 0 here (nan or inf); confmat applies zero_division
        assert math.isnan(ours)
        assert cm.metric("balanced_accuracy", adjusted=True, zero_division=0) == 0.0
        return
    expected = quiet(skm.balanced_accuracy_score, t, p, sample_weight=w, adjusted=adjusted)
    _close(ours, expected)


@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool")), st.sampled_from([None, "linear", "quadratic"]),
       st.sampled_from([0.0, 1.0, np.nan]))
def test_cohen_kappa(case: Case, weights, undefined: float) -> None:
    expected = sk_or_error(
        skm.cohen_kappa_score,
        case.y_true,
        case.y_pred,
        labels=case.labels,
        weights=weights,
        sample_weight=case.sample_weight,
        replace_undefined_by=undefined,
    )
    assume(not isinstance(expected, ValueError))
    zd = "nan" if math.isnan(undefined) else int(undefined)
    ours = quiet(_cm(case).metric, "kappa", weights=weights, zero_division=zd)
    _close(ours, expected, atol=1e-9)


# ------------------------------------------------------------------- multilabel / one-vs-rest
@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool")))
def test_multilabel_confusion_matrix_label_vectors(case: Case) -> None:
    kw = dict(labels=case.labels, sample_weight=case.sample_weight)
    expected = sk_or_error(skm.multilabel_confusion_matrix, case.y_true, case.y_pred, **kw)
    assume(not isinstance(expected, ValueError))
    _close(confmat.multilabel_confusion_matrix(case.y_true, case.y_pred, **kw), expected)
    _close(_cm(case).one_vs_rest(), expected)


@st.composite
def indicators(draw, weights: bool = True):
    n = draw(st.integers(1, 20))
    n_labels = draw(st.integers(2, 6))
    cells = st.lists(st.integers(0, 1), min_size=n * n_labels, max_size=n * n_labels)
    t = np.array(draw(cells)).reshape(n, n_labels)
    p = np.array(draw(cells)).reshape(n, n_labels)
    w = None
    if weights and draw(st.booleans()):
        w = np.array(draw(st.lists(st.floats(0.0, 5.0), min_size=n, max_size=n)))
        if not (w > 0).any():
            w[0] = 1.0
    return t, p, w


@settings(max_examples=N_EXAMPLES)
@given(indicators(), st.data())
def test_multilabel_indicators(data_tpw, data) -> None:
    t, p, w = data_tpw
    _close(confmat.hamming_loss(t, p, sample_weight=w), skm.hamming_loss(t, p, sample_weight=w))
    _close(
        confmat.multilabel_confusion_matrix(t, p, sample_weight=w),
        skm.multilabel_confusion_matrix(t, p, sample_weight=w),
    )
    cols = data.draw(st.lists(st.integers(0, t.shape[1] - 1), min_size=1, unique=True))
    _close(
        confmat.multilabel_confusion_matrix(t, p, sample_weight=w, labels=cols),
        skm.multilabel_confusion_matrix(t, p, sample_weight=w, labels=cols),
    )


# -------------------------------------------------------------------- classification_report
def _assert_report_dicts_equal(ours, expected) -> None:
    assert list(ours) == list(expected)
    for key, value in expected.items():
        if isinstance(value, dict):
            assert list(ours[key]) == list(value)
            for h, v in value.items():
                assert ours[key][h] == pytest.approx(v, rel=1e-12, abs=1e-12, nan_ok=True), (key, h)
        else:
            assert ours[key] == pytest.approx(value, rel=1e-12, abs=1e-12, nan_ok=True), key


@settings(max_examples=N_EXAMPLES)
@given(
    cases(("int", "str", "bool", "float")),
    st.integers(0, 5),
    st.booleans(),
    ZERO_DIVISIONS,
)
def test_classification_report_text_and_dict(case: Case, digits, names, zero_division) -> None:
    """Text is character-for-character sklearn's, including the 'micro avg' row for subsets."""
    target_names = None
    if names:
        k = len(case.labels) if case.labels is not None else len(case.seen)
        target_names = [f"class {i} of {k}" for i in range(k)]
    kw = dict(
        labels=case.labels,
        target_names=target_names,
        sample_weight=case.sample_weight,
        zero_division=zero_division,
    )
    expected = sk_or_error(skm.classification_report, case.y_true, case.y_pred, digits=digits, **kw)
    assume(not isinstance(expected, ValueError))
    ours = quiet(confmat.classification_report, case.y_true, case.y_pred, digits=digits, **kw)
    assert ours == expected
    expected_d = quiet(skm.classification_report, case.y_true, case.y_pred, output_dict=True, **kw)
    ours_d = quiet(confmat.classification_report, case.y_true, case.y_pred, output_dict=True, **kw)
    _assert_report_dicts_equal(ours_d, expected_d)


@settings(max_examples=N_EXAMPLES // 2)
@given(indicators(), st.integers(1, 4), ZERO_DIVISIONS, st.data())
def test_classification_report_multilabel(data_tpw, digits, zero_division, data) -> None:
    """Multilabel indicators: 'micro avg' and 'samples avg' rows, column subsets, names."""
    t, p, w = data_tpw
    labels = None
    names = None
    if data.draw(st.booleans()):
        labels = data.draw(st.lists(st.integers(0, t.shape[1] - 1), min_size=1, unique=True))
        names = [f"tag{c}" for c in labels]
    kw = dict(sample_weight=w, zero_division=zero_division, digits=digits, labels=labels,
              target_names=names)
    expected = sk_or_error(skm.classification_report, t, p, **kw)
    assume(not isinstance(expected, ValueError))
    assert quiet(confmat.classification_report, t, p, **kw) == expected
    expected_d = quiet(skm.classification_report, t, p, output_dict=True, **kw)
    ours_d = quiet(confmat.classification_report, t, p, output_dict=True, **kw)
    _assert_report_dicts_equal(ours_d, expected_d)


def test_classification_report_mismatched_target_names_warns_like_sklearn() -> None:
    y_true, y_pred = [0, 1, 2, 2, 0], [0, 0, 2, 1, 0]
    kw = dict(labels=[0, 1], target_names=["a", "b", "c"])
    with pytest.warns(UserWarning, match="labels size"):
        expected = skm.classification_report(y_true, y_pred, **kw)
    with pytest.warns(UserWarning, match="labels size"):
        ours = confmat.classification_report(y_true, y_pred, **kw)
    assert ours == expected
