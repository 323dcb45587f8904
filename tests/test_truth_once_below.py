"""``y_true`` read once below the report layer: a model comparison counts every model's table
from one encoding of the truth (the counting kernels read an
:class:`~confmat.inputs.truth.EncodedTruth` as the codes of a column already coded),
:func:`confmat.inference.compare` encodes it once for its tables, intervals, tests and
curves, and the score functions that read one truth twice (``roc_auc``,
``average_precision``, ``delong``, ``roc_test``, ``compare_curves``, the paired tests) read
it once.

How it is counted: string labels are encoded by the door's kernel
:func:`confmat.inputs.encode.factorize` (below numba's size threshold, which these inputs
are, the counting kernels call it too). :func:`truth_encodings` wraps that name in every
module that looks it up and counts the rows of ``y_true`` it is handed: a call on
``y_true`` counts 1, a call on ``m`` copies of it stacked (as the paired tests stacked one
copy per model) counts ``m``. Predictions differ from the truth, so their own encoding is not
counted. Before the change (c9707a4), with four models on string labels as below:
``build_comparison`` encoded 31 truths without scores and 43 with them;
``inference.compare`` 22 with predictions, 30 with predictions and scores, 50 with scores
and a partial AUC; ``roc_auc``, ``average_precision``, ``delong`` and ``roc_test`` 2 each,
``compare_curves`` of three models 6, ``mcnemar`` and ``paired_bootstrap`` 2 (one call on
the truth stacked twice); ``roc_curve`` and ``threshold_sweep`` already read it once.

Oracles for the numbers the shared truth must leave unchanged: scikit-learn's
``confusion_matrix``, ``roc_curve``, ``roc_auc_score``, ``average_precision_score`` and
``accuracy_score``, statsmodels' ``mcnemar``, and label sets worked in the tests.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    accuracy_score,
    average_precision_score,
    confusion_matrix,
    roc_auc_score,
)
from sklearn.metrics import roc_curve as sk_roc_curve
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from confmat import ConfusionMatrix
from confmat.curves import average_precision, roc_auc, roc_curve, threshold_sweep
from confmat.inference import compare_curves, delong, mcnemar, paired_bootstrap, roc_test
from confmat.inference.scores import score_metric
from confmat.inputs.targets import EncodedTruth, encoded_truth
from confmat.report import build_comparison
from conftest import POOLS, Case, cases, quiet

# the module, not the function of the same name that the package confmat.inference exports
inference_compare = importlib.import_module("confmat.inference.compare")

#: every module that looks the door's kernel up by name
KERNEL_USERS = ("confmat.inputs.encode", "confmat.inputs.targets", "confmat.counting.codes",
                "confmat.binned.histogram", "confmat.inputs.grouping")


@contextmanager
def truth_encodings(y: np.ndarray) -> Iterator[list[int]]:
    """The truths encoded while the block runs: one entry per call of the door's kernel on
    ``y`` (or on copies of it stacked), the number of copies."""
    calls: list[int] = []
    real = importlib.import_module("confmat.inputs.encode").factorize
    n = y.shape[0]

    def spy(arr: np.ndarray, *args: Any, **kwargs: Any) -> Any:
        m, rest = divmod(arr.shape[0], n)
        if arr.ndim == 1 and m and not rest and bool((arr == np.tile(y, m)).all()):
            calls.append(m)
        return real(arr, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        for name in KERNEL_USERS:
            mp.setattr(importlib.import_module(name), "factorize", spy)
        yield calls


def _models(n: int = 240, k: int = 2, m: int = 4, seed: int = 0
            ) -> tuple[np.ndarray, dict[str, np.ndarray], dict[str, np.ndarray]]:
    """String truth, ``m`` models' predictions (none equal to the truth) and their scores of
    the last class."""
    names = np.array(["cat", "dog", "eel"][:k])
    rng = np.random.default_rng(seed)
    y = names[rng.integers(0, k, n)].astype(object)
    preds, scores = {}, {}
    for i in range(m):
        s = np.clip(0.35 * (y == names[-1]) + 0.65 * rng.random(n), 0, 1)
        pred = np.where(s >= 0.5, names[-1], names[0]).astype(object)
        assert (pred != y).any()
        preds[f"m{i}"], scores[f"m{i}"] = pred, s
    return y, preds, scores


def _once(y: np.ndarray, fn: Callable[[], Any]) -> Any:
    with truth_encodings(y) as calls, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn()
    assert calls == [1], f"y_true encoded {sum(calls)} times ({len(calls)} calls)"
    return out


# ----------------------------------------------------------------------------- counts
@pytest.mark.parametrize("with_scores", [False, True])
def test_comparison_of_four_models_encodes_y_true_once(with_scores):
    y, preds, scores = _models()
    cmp = _once(y, lambda: build_comparison(
        y, preds, scores=scores if with_scores else None, pos_label="dog", intervals=False,
        n_resamples=100))
    for r, name in zip(cmp.reports, preds, strict=True):
        np.testing.assert_array_equal(r.matrix.counts,
                                      confusion_matrix(y, preds[name], labels=["cat", "dog"]))
    acc = {row["model"]: row["accuracy"] for row in cmp.table}
    assert acc == pytest.approx({k: accuracy_score(y, p) for k, p in preds.items()}, abs=1e-12)
    if with_scores:
        auc = {row["model"]: row["roc_auc"] for row in cmp.table}
        assert auc == pytest.approx({k: roc_auc_score(y == "dog", s) for k, s in scores.items()},
                                    abs=1e-12)


@pytest.mark.parametrize("form", ["pred", "pred+score", "score"])
def test_inference_compare_of_four_models_encodes_y_true_once(form):
    y, preds, scores = _models()
    if form == "pred":
        models: dict[str, Any] = preds
        metrics = ["accuracy", "mcc", "f1"]
    elif form == "score":
        models, metrics = scores, ["roc_auc", "average_precision", "accuracy"]
    else:
        models = {k: {"pred": preds[k], "score": scores[k]} for k in preds}
        metrics = ["roc_auc", "accuracy"]
    cmp = _once(y, lambda: inference_compare.compare(
        models, y, metrics, pos_label="dog", n_resamples=100, random_state=0,
        partial_auc=(0.8, 1.0) if form == "score" else None))
    if form != "pred":
        assert {m: cmp.intervals[m]["roc_auc"].estimate for m in models} == pytest.approx(
            {k: roc_auc_score(y == "dog", s) for k, s in scores.items()}, abs=1e-12)
        assert {m: cmp.intervals[m]["average_precision"].estimate for m in models
                if "average_precision" in metrics} == pytest.approx(
            {k: average_precision_score(y == "dog", s) for k, s in scores.items()
             if "average_precision" in metrics}, abs=1e-12)
    if form != "score":
        assert {m: cmp.intervals[m]["accuracy"].estimate for m in models} == pytest.approx(
            {k: accuracy_score(y, p) for k, p in preds.items()}, abs=1e-12)
    assert len(cmp.pairwise) >= 6


def test_score_functions_read_y_true_once():
    y, preds, scores = _models(m=3)
    s1, s2, s3 = scores.values()
    p1, p2, _ = preds.values()
    pos = y == "dog"
    sweep = _once(y, lambda: threshold_sweep(y, s1, pos_label="dog", thresholds=[0.5]))
    _, fp, fn, tp = confusion_matrix(pos, s1 >= 0.5, labels=[False, True]).ravel()
    assert (sweep.tp[0], sweep.fp[0], sweep.fn[0]) == (tp, fp, fn)
    ours = _once(y, lambda: roc_curve(y, s1, pos_label="dog"))
    for a, b in zip(ours, sk_roc_curve(y, s1, pos_label="dog"), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-12)
    assert _once(y, lambda: roc_auc(y, s1, pos_label="dog")) == pytest.approx(
        roc_auc_score(pos, s1), abs=1e-12)
    assert _once(y, lambda: average_precision(y, s1, pos_label="dog")) == pytest.approx(
        average_precision_score(pos, s1), abs=1e-12)
    r = _once(y, lambda: delong(y, s1, s2, pos_label="dog"))
    assert (r.auc_a, r.auc_b) == pytest.approx((roc_auc_score(pos, s1), roc_auc_score(pos, s2)),
                                               abs=1e-12)
    t = _once(y, lambda: roc_test(y, s1, s2, pos_label="dog"))
    assert (t.estimate_a, t.estimate_b) == pytest.approx(
        (roc_auc_score(pos, s1), roc_auc_score(pos, s2)), abs=1e-12)
    curves = _once(y, lambda: compare_curves(y, {"a": s1, "b": s2, "c": s3}, pos_label="dog"))
    assert curves.auc == pytest.approx({k: roc_auc_score(pos, s) for k, s in
                                        zip("abc", (s1, s2, s3), strict=True)}, abs=1e-12)
    mc = _once(y, lambda: mcnemar(y, p1, p2))
    ra, rb = p1 == y, p2 == y
    assert mc.table.tolist() == [[np.sum(ra & rb), np.sum(ra & ~rb)],
                                 [np.sum(~ra & rb), np.sum(~ra & ~rb)]]
    pb = _once(y, lambda: paired_bootstrap(y, p1, p2, "accuracy", n_resamples=100,
                                           random_state=0))
    assert pb.difference == pytest.approx(accuracy_score(y, p1) - accuracy_score(y, p2),
                                          abs=1e-12)


def test_multiclass_score_metric_of_an_encoded_truth_reads_it_as_it_is():
    y, _, _ = _models(k=3, m=1)
    p = np.random.default_rng(3).dirichlet(np.ones(3), y.shape[0])
    truth = _once(y, lambda: encoded_truth(y))
    with truth_encodings(y) as calls:
        value = score_metric(truth, p, "roc_auc")
    assert calls == []
    assert value == pytest.approx(roc_auc_score(y, p, multi_class="ovr"), abs=1e-12)


# ----------------------------------------------------------------------------- the value
def test_taking_rows_keeps_the_classes_that_remain():
    y = np.array(["b", "a", "c", "a", "c"], dtype=object)
    truth = encoded_truth(y)
    for rows in ([True, True, True, True, True], [True, False, True, False, True],
                 [False, True, False, True, False]):
        kept = truth.take(np.array(rows))
        expected = y[np.array(rows)]
        assert list(kept.classes) == sorted(set(expected))  # worked: the labels kept, sorted
        assert [kept.classes[c] for c in kept.codes.tolist()] == expected.tolist()
        with pytest.raises(ValueError):
            kept.codes[0] = 0
    with pytest.raises(ValueError, match="y_true is empty"):
        truth.take(np.zeros(5, dtype=bool))


def test_comparison_on_a_label_subset_compares_the_samples_inside_it():
    """``labels`` a subset that leaves a true class out: the comparison's statistics count
    the samples whose labels are both inside it (the truth taken on those rows)."""
    y = np.array(["a", "b", "c", "a", "b", "c", "a", "b", "a", "b"], dtype=object)
    p1 = np.array(["a", "b", "a", "a", "a", "b", "a", "b", "b", "b"], dtype=object)
    p2 = np.array(["b", "b", "b", "a", "b", "a", "a", "a", "a", "b"], dtype=object)
    inside = y != "c"
    cmp = quiet(build_comparison, y, {"p1": p1, "p2": p2}, labels=["a", "b"], intervals=False,
                metrics=["accuracy"], n_resamples=100)
    acc = {row["model"]: row["accuracy"] for row in cmp.table}
    assert acc == pytest.approx({"p1": accuracy_score(y[inside], p1[inside]),
                                 "p2": accuracy_score(y[inside], p2[inside])}, abs=1e-12)
    for r, p in zip(cmp.reports, (p1, p2), strict=True):
        np.testing.assert_array_equal(r.matrix.counts, confusion_matrix(y, p, labels=["a", "b"]))


# ----------------------------------------------------------------------------- differential
@settings(max_examples=200)
@given(cases(("int", "str", "bool")))
def test_a_table_counted_from_the_encoded_truth_is_scikit_learns(case: Case):
    """Every label set, ``labels=`` list (absent classes, permutations, subsets) and weights:
    the table counted from the encoded truth is scikit-learn's, with the same label book and
    the same samples left outside, as counting the raw labels gives."""
    truth = encoded_truth(case.y_true)
    labels = case.labels
    if labels is not None and not set(labels) & set(case.y_true):
        with pytest.raises(ValueError, match="names no class"):
            ConfusionMatrix.from_predictions(truth, case.y_pred, labels=labels,
                                             sample_weight=case.sample_weight)
        return
    cm = ConfusionMatrix.from_predictions(truth, case.y_pred, labels=labels,
                                          sample_weight=case.sample_weight)
    assert cm.labels == (labels if labels is not None else case.seen)
    expected = quiet(confusion_matrix, case.y_true, case.y_pred, labels=cm.labels,
                     sample_weight=case.sample_weight)
    np.testing.assert_allclose(cm.counts, expected, rtol=1e-12, atol=0)
    w = np.ones(len(case.y_true)) if case.sample_weight is None else np.asarray(
        case.sample_weight)
    book = set(cm.labels)
    outside = [t not in book or p not in book for t, p in
               zip(case.y_true, case.y_pred, strict=True)]
    assert cm.n_outside == pytest.approx(float(w[outside].sum()), rel=1e-12, abs=0)


@st.composite
def _comparisons(draw: Any) -> tuple[list[Any], list[list[Any]], list[Any] | None]:
    kind = draw(st.sampled_from(["int", "str", "bool"]))
    classes = draw(st.permutations(POOLS[kind]))[:draw(st.integers(2, 4))]
    n = draw(st.integers(4, 40))
    y = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    preds = [draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
             for _ in range(draw(st.integers(2, 4)))]
    seen = sorted(set(y).union(*preds))
    extra = [v for v in POOLS[kind] if v not in seen]
    labels = draw(st.one_of(st.none(), st.permutations(seen + extra[:1])))
    return y, preds, labels


@settings(max_examples=60)
@given(_comparisons(), st.booleans())
def test_a_comparison_on_the_encoded_truth_is_scikit_learns(drawn, weighted):
    """A comparison of models on ints, strings or bools, with or without ``labels=`` and
    sample weights: each model's table is scikit-learn's ``confusion_matrix``, its accuracy
    scikit-learn's and McNemar's test statsmodels'."""
    y, preds, labels = drawn
    models = {f"m{i}": p for i, p in enumerate(preds)}
    w = np.linspace(0.5, 2.0, len(y)) if weighted else None
    cmp = quiet(build_comparison, y, models, labels=labels, sample_weight=w, intervals=False,
                metrics=["accuracy"], n_resamples=100)
    book = labels if labels is not None else sorted(set(y).union(*preds))
    for r, p in zip(cmp.reports, preds, strict=True):
        assert r.matrix.labels == book
        np.testing.assert_allclose(r.matrix.counts, confusion_matrix(y, p, labels=book,
                                                                     sample_weight=w),
                                   rtol=1e-12, atol=0)
    result = cmp.result
    assert {m: result.intervals[m]["accuracy"].estimate for m in models} == pytest.approx(
        {m: accuracy_score(y, p) for m, p in models.items()}, abs=1e-12)
    yt = np.asarray(y)
    for row in result.pairwise:
        ra = np.asarray(models[row["model_a"]]) == yt
        rb = np.asarray(models[row["model_b"]]) == yt
        b, c = int(np.sum(ra & ~rb)), int(np.sum(~ra & rb))
        exact = b + c < 25
        expected = sm_mcnemar([[0, b], [c, 0]], exact=exact, correction=True).pvalue
        assert row["pvalue"] == pytest.approx(min(1.0, expected), abs=1e-12)


@settings(max_examples=100)
@given(st.sampled_from(["int", "str", "bool"]), st.integers(4, 60), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_curves_of_the_encoded_truth_are_scikit_learns(kind, n, weighted, seed):
    """ROC curve, ROC AUC, average precision and a threshold sweep of two classes out of
    ints, strings or bools, with ties and weights: scikit-learn's, whether ``y_true`` is the
    labels or their encoded truth."""
    rng = np.random.default_rng(seed)
    pool = POOLS[kind]
    neg, pos = (pool[i] for i in rng.choice(len(pool), 2, replace=False))
    y = [pos if v else neg for v in rng.integers(0, 2, n)]
    y[0], y[1] = neg, pos
    s = np.round(rng.random(n), 1)  # ties
    w = rng.random(n) + 0.1 if weighted else None
    yp = np.array([v == pos for v in y])
    expected = sk_roc_curve(yp, s, sample_weight=w)
    for given_truth in (y, encoded_truth(y)):
        ours = roc_curve(given_truth, s, pos_label=pos, sample_weight=w)
        for a, b in zip(ours, expected, strict=True):  # fpr, tpr, thresholds
            np.testing.assert_allclose(a, b, atol=1e-12)
        assert roc_auc(given_truth, s, pos_label=pos, sample_weight=w) == pytest.approx(
            roc_auc_score(yp, s, sample_weight=w), abs=1e-12)
        assert average_precision(given_truth, s, pos_label=pos, sample_weight=w) == \
            pytest.approx(average_precision_score(yp, s, sample_weight=w), abs=1e-12)
        sweep = threshold_sweep(given_truth, s, pos_label=pos, sample_weight=w,
                                thresholds=[0.3, 0.6])
        for i, thr in enumerate((0.3, 0.6)):
            tn, fp, fn, tp = confusion_matrix(yp, s >= thr, labels=[False, True],
                                              sample_weight=w).ravel()
            assert (sweep.tn[i], sweep.fp[i], sweep.fn[i], sweep.tp[i]) == pytest.approx(
                (tn, fp, fn, tp), abs=1e-9)
    assert isinstance(encoded_truth(y), EncodedTruth)
