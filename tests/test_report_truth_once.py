"""A report reads its truth once: ``build_report`` encodes ``y_true`` through the input door a
single time and hands the encoded truth (:class:`confmat.inputs.truth.EncodedTruth`,
:func:`confmat.inputs.targets.encoded_truth`) to every
helper - score curves, the stray-label check, calibration, ROC averages, Hand and Till's AUC,
the ROC band, the cost-optimal threshold, the partial AUC - and ``build_comparison`` encodes
it once for all its models.

How it is counted: string labels are encoded by the door's kernel
:func:`confmat.inputs.encode.factorize`; the test wraps that name where the door's modules
look it up (``confmat.inputs.encode`` for :func:`~confmat.inputs.encode.encode_pair`,
``confmat.inputs.targets`` for :func:`~confmat.inputs.targets.encode_truth`) and counts the
calls whose array is ``y_true`` (the predictions differ from it, so their own encoding is
not counted). Before the change a binary report with every section encoded ``y_true`` 11
times, a three-class one 12 times, and a comparison of two models 15 times (besides the
encodings of :func:`confmat.inference.compare`, which takes raw labels, and is not counted).

Oracles for the numbers that the shared truth must leave unchanged: scikit-learn's
``roc_auc_score``, ``average_precision_score`` and ``brier_score_loss`` computed in the
tests.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, brier_score_loss, roc_auc_score

import confmat.inputs.encode as encode_module
import confmat.inputs.targets as targets_module
from confmat import ConfusionMatrix
from confmat.inputs.targets import EncodedTruth, encode_truth, encoded_truth
from confmat.report import build_comparison, build_report

# the module, not the function of the same name that the package confmat.inference exports
inference_compare = importlib.import_module("confmat.inference.compare")

CLASSES = np.array(["cat", "dog", "eel"])


def _data(n: int = 300, k: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = CLASSES[:k][rng.integers(0, k, n)].astype(object)
    p = rng.dirichlet(np.ones(k), n)
    # scores that know something of the truth, and predictions that are not the truth
    p[np.arange(n), CLASSES[:k].searchsorted(y)] += 0.5
    p /= p.sum(axis=1, keepdims=True)
    return y, p, CLASSES[:k][p.argmax(axis=1)].astype(object)


@contextmanager
def _counting() -> Iterator[Any]:
    """Yield a function ``count(y)``: how many times the door's kernel has encoded ``y`` so
    far, outside :func:`confmat.inference.compare` (the comparison's statistics, a layer below
    the report that takes raw labels and reads them in its own way)."""
    seen: list[np.ndarray] = []
    below = [0]
    real = encode_module.factorize
    real_compare = inference_compare.compare

    def spy(arr: np.ndarray, *args: Any, **kwargs: Any) -> Any:
        if not below[0]:
            seen.append(arr)
        return real(arr, *args, **kwargs)

    def compare(*args: Any, **kwargs: Any) -> Any:
        below[0] += 1
        try:
            return real_compare(*args, **kwargs)
        finally:
            below[0] -= 1

    def count(y: np.ndarray) -> int:
        return sum(1 for a in seen if a.shape == y.shape and bool((a == y).all()))

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(encode_module, "factorize", spy)
        mp.setattr(targets_module, "factorize", spy)
        mp.setattr(inference_compare, "compare", compare)
        yield count


@pytest.fixture
def truth_encodings() -> Iterator[Any]:
    """:func:`_counting` around a test."""
    with _counting() as count:
        yield count


def _quiet_report(cm: ConfusionMatrix, **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build_report(cm, **kw)


def test_binary_report_with_one_score_column_encodes_y_true_once(truth_encodings):
    y, p, _ = _data(k=2)
    s = p[:, 1]
    pred = np.where(s >= 0.5, "dog", "cat").astype(object)
    assert (pred != y).any()
    cm = ConfusionMatrix.from_predictions(y, pred)
    before = truth_encodings(y)
    rep = _quiet_report(cm, y_true=y, y_score=s, y_pred=pred, pos_label="dog",
                        cost_matrix=[[0, 1], [5, 0]], partial_auc=(0.8, 1.0), n_resamples=100,
                        interval_metrics=["roc_band", "partial_auc"])
    assert truth_encodings(y) - before == 1
    pos = y == "dog"
    assert rep.curves[0].auc == pytest.approx(roc_auc_score(pos, s), abs=1e-12)
    assert rep.curves[0].average_precision == pytest.approx(
        average_precision_score(pos, s), abs=1e-12)
    assert rep.calibration.brier == pytest.approx(brier_score_loss(pos, s), abs=1e-12)
    assert rep.roc_band is not None and rep.partial_auc is not None and rep.cost is not None


def test_three_class_report_with_a_score_matrix_encodes_y_true_once(truth_encodings):
    y, p, pred = _data(k=3)
    cm = ConfusionMatrix.from_predictions(y, pred)
    before = truth_encodings(y)
    rep = _quiet_report(cm, y_true=y, y_score=p, y_pred=pred, intervals=False)
    assert truth_encodings(y) - before == 1
    assert [c.pos_label for c in rep.curves] == ["cat", "dog", "eel"]
    for j, c in enumerate(rep.curves):
        assert c.auc == pytest.approx(roc_auc_score(y == CLASSES[j], p[:, j]), abs=1e-12)
    assert rep.roc_averages.macro_auc == pytest.approx(
        roc_auc_score(y, p, multi_class="ovr", average="macro"), abs=1e-12)
    assert rep.multiclass_auc.auc == pytest.approx(
        roc_auc_score(y, p, multi_class="ovo", average="macro"), abs=1e-12)


def test_comparison_encodes_y_true_once_for_all_models(truth_encodings):
    y, p, pred = _data(k=2)
    s = p[:, 1]
    other = np.where(s >= 0.3, "dog", "cat").astype(object)
    before = truth_encodings(y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = build_comparison(y, {"a": pred, "b": other}, scores={"a": s, "b": s * s},
                               pos_label="dog", intervals=False, n_resamples=100)
    # the door's kernel reads y_true once for the report layer (the fixture leaves out
    # compare()'s own statistics, which take raw labels)
    assert truth_encodings(y) - before == 1
    pos = y == "dog"
    assert [r.curves[0].auc for r in cmp.reports] == pytest.approx(
        [roc_auc_score(pos, s), roc_auc_score(pos, s * s)], abs=1e-12)


def test_encoded_truth_is_read_by_the_door_without_encoding_again(truth_encodings):
    y = np.array(["b", "a", "c", "a"], dtype=object)
    truth = encoded_truth(y)
    assert truth_encodings(y) == 1
    assert encoded_truth(truth) is truth
    classes, codes = encode_truth(truth)
    assert truth_encodings(y) == 1
    assert classes == ["a", "b", "c"] and codes.tolist() == [1, 0, 2, 0]
    classes.append("d")  # the caller's list is its own
    assert truth.classes == ("a", "b", "c")
    with pytest.raises(ValueError):
        truth.codes[0] = 2  # read-only: helpers share one truth
    assert isinstance(truth, EncodedTruth) and truth.n_samples == 4


@settings(max_examples=25, deadline=None)
@given(k=st.integers(3, 4), n=st.integers(12, 60), seed=st.integers(0, 2**32 - 1),
       missing=st.booleans())
def test_any_score_matrix_report_encodes_y_true_once(k, n, seed, missing):
    """Every shape of a score-matrix report - three or four classes, a class the truth lacks
    (its column still scored and predicted) - reads y_true once, and each class's curve keeps
    scikit-learn's one-vs-rest AUC."""
    names = np.array(["ant", "bee", "cow", "doe"][:k])
    rng = np.random.default_rng(seed)
    y = names[rng.integers(0, k - 1 if missing else k, n)].astype(object)
    p = rng.dirichlet(np.ones(k), n)
    pred = names[p.argmax(axis=1)].astype(object)
    cm = ConfusionMatrix.from_predictions(y, pred, labels=list(names))
    with _counting() as count:
        rep = _quiet_report(cm, y_true=y, y_score=p, y_pred=pred, intervals=False)
        assert count(y) == 1
    held = [c for c in names if c in set(y)]
    assert [c.pos_label for c in rep.curves] == (held if len(held) > 1 else [])
    for c in rep.curves:
        j = list(names).index(c.pos_label)
        pos = y == c.pos_label
        if c.auc is not None:
            assert c.auc == pytest.approx(roc_auc_score(pos, p[:, j]), abs=1e-12)
