"""Fixes of issue #13 in confmat's own API, against scikit-learn and hand computations.

* The multilabel "samples avg" of :func:`confmat.classification_report`: a sample's counts
  carry its weight, so a zero-weight sample is undefined there (it no longer decides the value).
* Cohen's kappa warns whenever it is undefined under ``zero_division="warn"``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import confmat
from confmat import ConfusionMatrix, UndefinedMetricWarning

skm = pytest.importorskip("sklearn.metrics")


def test_zero_weight_sample_does_not_decide_the_samples_average():
    kw = dict(sample_weight=[1, 0], output_dict=True, zero_division=np.nan)
    ours = confmat.classification_report([[1, 0], [0, 1]], [[0, 0], [0, 1]], **kw)["samples avg"]
    # by hand: sample 0 predicts nothing (precision 0/0, undefined), recall 0/1; sample 1
    # weighs 0, so all its counts are 0 and every ratio is undefined -> precision NaN
    assert math.isnan(ours["precision"])
    assert ours["recall"] == 0.0 and ours["f1-score"] == 0.0


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 8), st.integers(2, 4), st.data(),
       st.sampled_from([0.0, 1.0, np.nan]))
def test_samples_average_matches_scikit_learn(n, m, data, zero_division):
    cells = st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)
    t, p = np.array(data.draw(cells)), np.array(data.draw(cells))
    w = data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=n, max_size=n)
                  .filter(any))
    kw = dict(sample_weight=w, output_dict=True, zero_division=zero_division)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = skm.classification_report(t, p, **kw)["samples avg"]
        ours = confmat.classification_report(t, p, **kw)["samples avg"]
    for key in ("precision", "recall", "f1-score", "support"):
        np.testing.assert_allclose(ours[key], expected[key], rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
@pytest.mark.parametrize(("y1", "y2", "labels"), [
    ([0, 0, 0], [0, 0, 0], [0, 1]),      # one class in common: no chance disagreement
    ([0, 0, 1], [1, 1, 0], [0]),         # nothing left once the labels select
    ([2, 2], [2, 2], None),              # a single class
])
def test_kappa_warns_when_undefined(y1, y2, labels, weights):
    # scikit-learn calls these undefined too (it warns and returns replace_undefined_by)
    with pytest.warns(Warning, match="undefined"):
        skm.cohen_kappa_score(y1, y2, labels=labels, weights=weights)
    cm = ConfusionMatrix.from_predictions(y1, y2, labels=labels, strict_labels=False)
    with pytest.warns(UndefinedMetricWarning, match="kappa"):
        assert cm.metric("kappa", weights=weights) == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(cm.metric("kappa", weights=weights, zero_division="nan"))
