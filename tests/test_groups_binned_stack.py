"""ROC AUC and average precision of many groups' score histograms at once
(:meth:`confmat.groups.binned_scores.BinnedGroupedScores.values`, one array operation over the
(G, 2, bins) stack of counts).

Oracles: scikit-learn's ``roc_auc_score`` / ``average_precision_score`` on each group's scores
rounded down to their bin's lower edge (``io_files.floor_to_bin``: the scores a histogram's
exact metrics are those of), with the same sample weights; and, as a second check, each
histogram's own ``roc_auc()`` / ``average_precision()`` one at a time. Groups of one class
and groups whose weights are all zero are included: no ROC AUC for the first (NaN), no value
at all for the second.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from confmat.binned import ScoreHistogram
from confmat.groups.binned_scores import BinnedGroupedScores
from io_files import floor_to_bin


def _groups(seed: int, weighted: bool) -> tuple[list[ScoreHistogram], list[tuple], int]:
    rng = np.random.default_rng(seed)
    n_groups = int(rng.integers(1, 501))
    bins = int(rng.choice([2, 7, 32, 100]))
    hists, data = [], []
    for g in range(n_groups):
        n = int(rng.integers(1, 40))
        kind = rng.random()
        if kind < 0.1:  # one class only
            y = np.full(n, int(rng.integers(0, 2)))
        else:
            y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(int)
        s = np.clip(rng.random(n) * 0.7 + 0.3 * y, 0, 1)
        s[rng.random(n) < 0.1] = 1.0  # the last bin is closed
        w = rng.integers(0, 4, n).astype(float) if weighted else None
        if weighted and g % 17 == 3:
            w = np.zeros(n)  # all weights zero
        hists.append(ScoreHistogram([0, 1], bins=bins).update(y, s, sample_weight=w))
        data.append((y, s, w))
    return hists, data, bins


def _sklearn(name: str, y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> float:
    if w is not None and not w.any():
        return float("nan")  # no sample at all
    if name == "roc_auc":
        present = np.unique(y if w is None else y[w > 0])
        if len(present) < 2:
            return float("nan")
        return float(roc_auc_score(y, s, sample_weight=w))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(average_precision_score(y, s, sample_weight=w))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name", ["roc_auc", "average_precision"])
def test_stacked_values_equal_sklearn_and_each_histogram(name: str, seed: int,
                                                         weighted: bool) -> None:
    hists, data, bins = _groups(seed, weighted)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = BinnedGroupedScores(hists).values(name)
    expected = np.array([_sklearn(name, y, floor_to_bin(s, bins), w) for y, s, w in data])
    assert got.shape == (len(hists),)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one_by_one = np.array([h.roc_auc() if name == "roc_auc" else h.average_precision()
                               for h in hists], dtype=float)
    one_by_one[[not h.counts.any() for h in hists]] = np.nan  # no weight: no value
    np.testing.assert_allclose(got, one_by_one, rtol=1e-12, atol=1e-15)


def test_one_warning_names_the_groups_without_roc_auc() -> None:
    a = ScoreHistogram([0, 1], bins=4).update([0, 1], [0.1, 0.9])
    b = ScoreHistogram([0, 1], bins=4).update([1, 1], [0.3, 0.8])
    with pytest.warns(Warning) as caught:
        got = BinnedGroupedScores([a, b, b]).values("roc_auc")
    assert got[0] == 1.0 and np.isnan(got[1:]).all()
    assert len(caught) == 1 and "2" in str(caught[0].message)


def test_sizes_and_weightless() -> None:
    a = ScoreHistogram([0, 1], bins=4).update([0, 1, 1], [0.1, 0.9, 0.5], sample_weight=[1, 2, 0.5])
    b = ScoreHistogram([0, 1], bins=4).update([0, 1], [0.1, 0.9], sample_weight=[0, 0])
    scores = BinnedGroupedScores([a, b])
    assert scores.sizes.tolist() == [3.5, 0.0]
    assert scores.weightless.tolist() == [False, True]
