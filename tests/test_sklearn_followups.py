"""Follow-ups of the drop-in's differential probe (tests/test_sklearn_probe.py), each against
scikit-learn 1.9 itself as the oracle:

* all-zero sample weights: one documented behaviour for every public function of
  ``confmat.sklearn`` (scikit-learn 1.9 refuses them with a ``ValueError`` in most functions,
  its scikit-learn#32212; ``top_k_accuracy_score`` and ``average='samples'`` of the areas divide
  by zero instead, or return 0);
* ``warn_for`` of ``precision_recall_fscore_support``: a list, tuple or set only, as
  scikit-learn's parameter check;
* integer scores beyond 2**53: thresholds returned in the scores' own integer type are the
  scores themselves, exactly, as scikit-learn returns them.
"""

from __future__ import annotations

import inspect
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

skm = pytest.importorskip("sklearn.metrics")

import confmat.sklearn as cms  # noqa: E402

DOC = Path(__file__).resolve().parents[1] / "docs" / "sklearn.md"
ZERO_MESSAGE = "Sample weights must contain at least one non-zero number."


def _documented(*phrases: str) -> None:
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    for phrase in phrases:
        assert phrase in text, f"docs/sklearn.md does not say {phrase!r}"


T, P = [0, 1, 1, 0], [0, 1, 0, 0]
S = [0.1, 0.8, 0.4, 0.3]
T3 = [0, 1, 2, 0]
PROB = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4]])
ML_T = np.array([[0, 1], [1, 1], [1, 0], [0, 0]])
ML_S = np.array([[0.1, 0.9], [0.8, 0.7], [0.6, 0.2], [0.3, 0.4]])

#: (function, case id) -> (args, kwargs); every public function taking sample_weight
CASES: dict[tuple[str, str], tuple[tuple[Any, ...], dict[str, Any]]] = {
    ("confusion_matrix", ""): ((T, P), {}),
    ("multilabel_confusion_matrix", ""): ((T, P), {}),
    ("multilabel_confusion_matrix", "samplewise"): ((ML_T, ML_T), {"samplewise": True}),
    ("accuracy_score", ""): ((T, P), {}),
    ("accuracy_score", "count"): ((T, P), {"normalize": False}),
    ("precision_score", ""): ((T, P), {}),
    ("precision_score", "samples"): ((ML_T, ML_T), {"average": "samples"}),
    ("recall_score", ""): ((T, P), {}),
    ("f1_score", ""): ((T, P), {}),
    ("fbeta_score", ""): ((T, P), {"beta": 2.0}),
    ("precision_recall_fscore_support", ""): ((T, P), {}),
    ("jaccard_score", ""): ((T, P), {}),
    ("matthews_corrcoef", ""): ((T, P), {}),
    ("cohen_kappa_score", ""): ((T, P), {}),
    ("balanced_accuracy_score", ""): ((T, P), {}),
    ("hamming_loss", ""): ((T, P), {}),
    ("zero_one_loss", ""): ((T, P), {}),
    ("class_likelihood_ratios", ""): ((T, P), {}),
    ("classification_report", ""): ((T, P), {}),
    ("roc_auc_score", ""): ((T, S), {}),
    ("roc_auc_score", "ovr"): ((T3, PROB), {"multi_class": "ovr"}),
    ("roc_auc_score", "multilabel"): ((ML_T, ML_S), {}),
    ("roc_auc_score", "samples"): ((ML_T, ML_S), {"average": "samples"}),
    ("average_precision_score", ""): ((T, S), {}),
    ("average_precision_score", "samples"): ((ML_T, ML_S), {"average": "samples"}),
    ("roc_curve", ""): ((T, S), {}),
    ("precision_recall_curve", ""): ((T, S), {}),
    ("det_curve", ""): ((T, S), {}),
    ("confusion_matrix_at_thresholds", ""): ((T, S), {}),
    ("top_k_accuracy_score", ""): ((T3, PROB), {"k": 1}),
    ("top_k_accuracy_score", "count"): ((T3, PROB), {"k": 1, "normalize": False}),
    ("log_loss", ""): ((T, S), {}),
    ("log_loss", "count"): ((T, S), {"normalize": False}),
    ("log_loss", "multiclass"): ((T3, PROB), {}),
    ("brier_score_loss", ""): ((T, S), {}),
    ("brier_score_loss", "multiclass"): ((T3, PROB), {}),
}

#: where scikit-learn 1.9 does not raise its ValueError: what it does instead (documented)
SKLEARN_OTHERWISE: dict[tuple[str, str], Any] = {
    ("roc_auc_score", "samples"): ZeroDivisionError,
    ("average_precision_score", "samples"): ZeroDivisionError,
    ("top_k_accuracy_score", ""): ZeroDivisionError,
    ("top_k_accuracy_score", "count"): 0.0,
}


def test_every_public_function_with_weights_has_a_case():
    with_weights = {name for name in cms.__all__
                    if "sample_weight" in inspect.signature(getattr(cms, name)).parameters}
    assert with_weights == {name for name, _ in CASES}
    assert set(cms.__all__) - with_weights == {"auc"}  # a curve's area: no samples


@pytest.mark.parametrize(("name", "case"), list(CASES), ids=lambda v: v or "-")
@pytest.mark.parametrize("zeros", [[0, 0, 0, 0], [0.0, 0.0, 0.0, 0.0], [0, -0.0, 0, 0]],
                         ids=["int", "float", "signed"])
def test_all_zero_weights_are_one_value_error(name, case, zeros):
    _documented("weights that are all zero, are refused with a `ValueError` by every function "
                "of `confmat.sklearn`")
    args, kwargs = CASES[name, case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        otherwise = SKLEARN_OTHERWISE.get((name, case))
        if otherwise is None:  # the oracle: scikit-learn 1.9 refuses them with this message
            with pytest.raises(ValueError, match=ZERO_MESSAGE):
                getattr(skm, name)(*args, sample_weight=zeros, **kwargs)
        elif isinstance(otherwise, type):
            with pytest.raises(otherwise):
                getattr(skm, name)(*args, sample_weight=zeros, **kwargs)
        else:
            assert getattr(skm, name)(*args, sample_weight=zeros, **kwargs) == otherwise
        with pytest.raises(ValueError, match=ZERO_MESSAGE):
            getattr(cms, name)(*args, sample_weight=zeros, **kwargs)


def test_scikit_learns_other_answers_are_documented():
    _documented("`top_k_accuracy_score` (a `ZeroDivisionError`, or 0.0 with `normalize=False`)",
                "`roc_auc_score` and `average_precision_score` with `average='samples'` (a "
                "`ZeroDivisionError`)")


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
@pytest.mark.parametrize("bad", [[-1.0, 2.0, 1.0, 1.0], [np.nan, 1.0, 1.0, 1.0],
                                 [np.inf, 1.0, 1.0, 1.0], [1.0, 1.0], [[1.0] * 4]])
def test_samples_average_weights_go_through_the_door(name, bad):
    # the weights of average='samples' weigh the rows' scores; scikit-learn hands them to
    # numpy.average unchecked (negative weights give a number or NaN); confmat's door
    # refuses them as it refuses them in every other function
    with pytest.raises((ValueError, TypeError),
                       match=r"(?i)sample.weight|inconsistent numbers of samples"):
        getattr(cms, name)(ML_T, ML_S, average="samples", sample_weight=bad)


@pytest.mark.parametrize("w", [[1.0, 0.0, 0.0, 0.0], [0.5, 2.0, 1.0, 0.0], [1, 2, 3, 0],
                               [1, 2, 3, 4]])
def test_samples_average_with_valid_weights_equals_sklearn(w):
    for name in ("roc_auc_score", "average_precision_score"):
        with warnings.catch_warnings(record=True) as ours_w:
            warnings.simplefilter("always")
            ours = getattr(cms, name)(ML_T, ML_S, average="samples", sample_weight=w)
        with warnings.catch_warnings(record=True) as theirs_w:
            warnings.simplefilter("always")
            theirs = getattr(skm, name)(ML_T, ML_S, average="samples", sample_weight=w)
        assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-12, nan_ok=True)
        # the last row holds no positive: both warn of it, with the same message
        assert sorted(str(m.message) for m in ours_w) == sorted(str(m.message) for m in theirs_w)


# ------------------------------------------------------------------------------ warn_for
@pytest.mark.parametrize("warn_for", [{"precision": 1}, frozenset({"recall"}),
                                      {"precision": 1}.keys(), np.array(["recall"]), "recall",
                                      None, 1])
def test_warn_for_is_a_list_tuple_or_set_as_in_sklearn(warn_for):
    args, kw = ([0, 0, 1], [0, 0, 0]), {"average": "macro", "warn_for": warn_for}
    with pytest.raises(ValueError, match="warn_for"):  # scikit-learn's parameter check
        skm.precision_recall_fscore_support(*args, **kw)
    with pytest.raises(ValueError, match=r"'warn_for' parameter .* 'list', .* 'tuple' .* 'set'"):
        cms.precision_recall_fscore_support(*args, **kw)


@pytest.mark.parametrize("warn_for", [["recall"], ("precision",), {"f-score"}, [], ["x"]])
def test_warn_for_collections_warn_as_in_sklearn(warn_for):
    args, kw = ([0, 0, 1], [0, 0, 0]), {"average": "macro", "warn_for": warn_for}
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        expected = skm.precision_recall_fscore_support(*args, **kw)
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        got = cms.precision_recall_fscore_support(*args, **kw)
    assert got[:3] == pytest.approx(expected[:3], rel=1e-12)
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]


# ------------------------------------------------------------ integer scores past 2**53
def _distinct_in_float64(values: list[int]) -> bool:
    return len(set(values)) == len({float(v) for v in values})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(["int64", "uint64"]), st.integers(2, 12))
def test_integer_thresholds_are_the_scores_exactly(data, dtype, n):
    lo, hi = (-(2**63), 2**63 - 1) if dtype == "int64" else (0, 2**64 - 1)
    near = st.one_of(st.integers(lo, hi), st.integers(2**53 - 8, 2**53 + 8),
                     st.integers(max(lo, -(2**53) - 8), max(lo, -(2**53) + 8)),
                     st.integers(hi - 4096, hi))
    values = data.draw(st.lists(near, min_size=n, max_size=n).filter(_distinct_in_float64))
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    s = np.array(values, dtype=dtype)
    w = data.draw(st.one_of(st.none(), st.lists(st.sampled_from([0.0, 1.0, 2.5]), min_size=n,
                                                max_size=n).filter(any)))
    kw = {} if w is None else {"sample_weight": w}
    for name in ("precision_recall_curve", "confusion_matrix_at_thresholds"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = getattr(skm, name)(y, s, pos_label=1, **kw)[-1]
            ours = getattr(cms, name)(y, s, pos_label=1, **kw)[-1]
        assert ours.dtype == theirs.dtype == s.dtype
        assert ours.tolist() == theirs.tolist(), name  # Python integers: exact


def test_integer_thresholds_by_hand():
    # 2**53 + 1 has no float64 of its own (it rounds to 2**53), 2**64 - 1 rounds to 2**64,
    # which uint64 cannot hold; the thresholds are the scores as given, by hand
    y = [0, 1, 0, 1]
    s = np.array([2**53 + 1, 2**64 - 1, 3, 2**63 + 5], dtype=np.uint64)
    _, _, thr = cms.precision_recall_curve(y, s)
    assert thr.dtype == np.uint64
    assert thr.tolist() == [3, 2**53 + 1, 2**63 + 5, 2**64 - 1]
    *_, thr = cms.confusion_matrix_at_thresholds(y, s)
    assert thr.tolist() == [2**64 - 1, 2**63 + 5, 2**53 + 1, 3]


@pytest.mark.parametrize("name", ["roc_auc_score", "roc_curve", "precision_recall_curve",
                                  "average_precision_score", "det_curve",
                                  "confusion_matrix_at_thresholds"])
def test_integer_scores_float64_merges_are_refused_as_documented(name):
    _documented("**Integer scores beyond 2**53 that float64 rounds to one value**",
                "are a `ValueError` naming `y_score` and the two scores in every score function")
    y, s = [0, 1, 0, 1], np.array([2**62, 2**62 + 1, 3, 4], dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(skm, name)(y, s)  # scikit-learn ranks them (no error)
    assert skm.roc_auc_score(y, s) == 0.75  # by hand: 3 of the 4 pairs ordered
    with pytest.raises(ValueError, match=r"y_score: the integer scores 4611686018427387904 and "
                                         r"4611686018427387905"):
        getattr(cms, name)(y, s)
