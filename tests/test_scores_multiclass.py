"""Multiclass (one-vs-rest) ROC AUC and average precision, with bootstrap intervals, against
scikit-learn: the point estimates to 1e-12, and the bootstrap interval against scikit-learn's
metric computed on the very resamples drawn."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.preprocessing import label_binarize

from confmat import score_ci
from confmat.inference import score_metric


def _sklearn(y, s, classes, metric, average):
    if metric == "roc_auc":
        return roc_auc_score(y, s, multi_class="ovr", average=average, labels=classes)
    return average_precision_score(label_binarize(y, classes=classes), s, average=average)


def _data(seed, n, k, ties):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # every class present
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y]
    if ties:
        logits = np.round(logits, 1)
    s = np.exp(logits)
    return y, s / s.sum(axis=1, keepdims=True)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(12, 400), k=st.integers(3, 6),
       ties=st.booleans(), metric=st.sampled_from(["roc_auc", "average_precision"]),
       average=st.sampled_from(["macro", "weighted"]))
def test_point_estimates_equal_sklearn(seed, n, k, ties, metric, average):
    y, s = _data(seed, n, k, ties)
    want = _sklearn(y, s, list(range(k)), metric, average)
    assert score_metric(y, s, metric, average=average) == pytest.approx(want, abs=1e-12)
    # string labels with explicit column order
    names = np.array(["ant", "bee", "cat", "dog", "eel", "fox"])[:k]
    order = list(names[::-1])
    s_rev = s[:, ::-1]
    got = score_metric(names[y], s_rev, metric, average=average, labels=order)
    assert got == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("metric", ["roc_auc", "average_precision"])
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_bootstrap_interval_is_sklearn_on_the_same_resamples(metric, average):
    y, s = _data(3, 150, 4, False)
    b, seed = 300, 11
    ci = score_ci(y, s, metric, method="percentile", n_resamples=b, random_state=seed,
                  average=average)
    assert ci.estimate == pytest.approx(_sklearn(y, s, [0, 1, 2, 3], metric, average), abs=1e-12)
    # the resamples confmat draws (one chunk: 300 x 150 indices from the seeded generator)
    idx = np.random.default_rng(seed).integers(0, len(y), size=(b, len(y)))
    reps = []
    for row in idx:
        yy, ss = y[row], s[row]
        if len(np.unique(yy)) < 4:
            continue  # a class is missing: confmat leaves the resample out
        reps.append(_sklearn(yy, ss, [0, 1, 2, 3], metric, average))
    lo, hi = np.quantile(reps, [0.025, 0.975])
    assert ci.low == pytest.approx(lo, abs=1e-12)
    assert ci.high == pytest.approx(hi, abs=1e-12)
    assert ci.low < ci.estimate < ci.high


def test_multiclass_scores_bad_input():
    y, s = _data(0, 60, 3, False)
    with pytest.raises(ValueError, match="3 columns but there are 4 classes"):
        score_metric(np.r_[y[:-1], 3], s, "roc_auc")
    with pytest.raises(ValueError, match="average must be one of"):
        score_metric(y, s, "roc_auc", average="micro")
    with pytest.raises(ValueError, match="class 2 has no samples"):
        score_metric(np.where(y == 2, 0, y), s, "roc_auc", labels=[0, 1, 2])
    with pytest.raises(ValueError, match="binary metric='roc_auc' only"):
        score_ci(y, s, "roc_auc", method="delong")
    with pytest.raises(ValueError, match="y_true contains label 7"):
        score_metric(np.r_[y[:-1], 7], s, "roc_auc", labels=[0, 1, 2])
    bad = s.copy()
    bad[5, 1] = np.nan
    with pytest.raises(ValueError, match="y_score contains NaN"):
        score_metric(y, bad, "roc_auc")


def test_paired_bootstrap_of_two_multiclass_models_is_sklearn_on_the_same_resamples():
    from confmat.inference import paired_bootstrap

    y, s_a = _data(5, 120, 3, False)
    _, s_b = _data(6, 120, 3, False)
    s_b = 0.5 * s_b + 0.5 * s_a  # correlated with model A
    b, seed = 200, 4
    res = paired_bootstrap(y, s_a, s_b, "roc_auc", n_resamples=b, random_state=seed,
                           average="weighted")
    want_a = _sklearn(y, s_a, [0, 1, 2], "roc_auc", "weighted")
    want_b = _sklearn(y, s_b, [0, 1, 2], "roc_auc", "weighted")
    assert res.difference == pytest.approx(want_a - want_b, abs=1e-12)
    idx = np.random.default_rng(seed).integers(0, len(y), size=(b, len(y)))
    diffs = [
        _sklearn(y[r], s_a[r], [0, 1, 2], "roc_auc", "weighted")
        - _sklearn(y[r], s_b[r], [0, 1, 2], "roc_auc", "weighted")
        for r in idx if len(np.unique(y[r])) == 3
    ]
    lo, hi = np.quantile(diffs, [0.025, 0.975])
    assert (res.low, res.high) == (pytest.approx(lo, abs=1e-12), pytest.approx(hi, abs=1e-12))
