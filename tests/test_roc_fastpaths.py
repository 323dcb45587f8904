"""The fast paths of ROC inference agree with independent computations: DeLong's covariance
from one sort (against DeLong et al. 1988's O(mn) placement-kernel definition and, for the AUC, scikit-learn), and the
fused bootstrap AUC (against scikit-learn on the resampled data)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from confmat.inference import roc_delong, roc_fused
from confmat.inference.roc_boot import ScoreGroups, draw
from confmat.inference.roc_delong import delong_covariance_sorted
from confmat.inference.roc_fused import resampled_auc, resampled_se_at_sp


def _delong_by_definition(pos, scores):
    """DeLong et al. (1988) from the placement kernel psi, O(m n)."""
    x, y = scores[:, pos], scores[:, ~pos]
    m, n = x.shape[1], y.shape[1]
    psi = (x[:, :, None] > y[:, None, :]) + 0.5 * (x[:, :, None] == y[:, None, :])
    auc = psi.mean(axis=(1, 2))
    v10, v01 = psi.mean(axis=2), psi.mean(axis=1)
    s10 = np.atleast_2d(np.cov(v10)) if m > 1 else np.zeros((2, 2))
    s01 = np.atleast_2d(np.cov(v01)) if n > 1 else np.zeros((2, 2))
    return auc, s10 / m + s01 / n


def _data(data, n_max=80):
    n = data.draw(st.integers(2, n_max))
    pos = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    pos[:2] = [False, True]
    scores = np.array(data.draw(st.lists(st.integers(0, 6), min_size=2 * n,
                                         max_size=2 * n)), dtype=float).reshape(2, n)
    return pos, scores


@pytest.mark.parametrize("compiled", [True, False])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_delong_one_sort(compiled, data):
    pos, scores = _data(data)
    with pytest.MonkeyPatch.context() as mp:
        if not compiled:
            mp.setattr(roc_delong, "components_kernel", lambda: None)
        auc, cov = delong_covariance_sorted(pos, scores)
    want_auc, want_cov = _delong_by_definition(pos, scores)
    for r in range(2):
        assert auc[r] == pytest.approx(roc_auc_score(pos, scores[r]), abs=1e-12)
    np.testing.assert_allclose(auc, want_auc, rtol=1e-13)
    np.testing.assert_allclose(cov, want_cov, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("compiled", [True, False])
@settings(max_examples=40, deadline=None)
@given(data=st.data(), stratified=st.booleans())
def test_resampled_auc_is_the_auc_of_the_resample(compiled, data, stratified):
    pos, scores = _data(data)
    s = scores[0]
    groups = ScoreGroups.build(pos, s)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    neg_i, pos_i = np.flatnonzero(~pos), np.flatnonzero(pos)
    if stratified:
        idx = (draw(rng, 6, neg_i.size), draw(rng, 6, pos_i.size))
    else:
        idx = (draw(rng, 6, pos.size),)
    with pytest.MonkeyPatch.context() as mp:
        if not compiled:
            mp.setattr(roc_fused, "auc_kernels", lambda: None)
        got = resampled_auc(groups, idx)
    for r in range(6):
        if stratified:
            rows = np.concatenate([neg_i[idx[0][r]], pos_i[idx[1][r]]])
        else:
            rows = idx[0][r]
        yy = pos[rows]
        if yy.all() or not yy.any():
            assert np.isnan(got[r])
        else:
            assert got[r] == pytest.approx(roc_auc_score(yy, s[rows]), abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_fused_se_at_sp_is_procs_rule_on_the_resample(data):
    # the fused kernel against the Curves path (itself tested against pROC's ci.se on pROC's
    # own resamples) on the same index tables: the same doubles
    pos, scores = _data(data, 120)
    s = scores[0]
    groups = ScoreGroups.build(pos, s)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    n_neg, n_pos = int((~pos).sum()), int(pos.sum())
    neg_idx, pos_idx = draw(rng, 8, n_neg), draw(rng, 8, n_pos)
    grid = np.arange(n_neg + 1) / n_neg  # values on the points: pROC's exact-match rule
    values = np.concatenate([grid, rng.random(10), [0.0, 1.0, 0.5, 0.5]])
    rng.shuffle(values)
    got = resampled_se_at_sp(groups, neg_idx, pos_idx, values)
    want = groups.stratified_curves(neg_idx, pos_idx).at_specificity(values)
    np.testing.assert_array_equal(got, want)


def test_argsort_rows_is_numpy_argsort_of_each_row_in_both_paths():
    """The threaded path (rows of 2**18 scores or more) and the plain one give numpy's own
    argsort of each row, ties included (the DeLong components read the scores in it)."""
    from confmat.curves.rank import argsort_rows

    rng = np.random.default_rng(5)
    for shape in [(3, 1000), (2, 1 << 18), (1, 1 << 18)]:
        scores = np.round(rng.normal(size=shape), 2)  # many ties
        got = argsort_rows(scores)
        assert len(got) == shape[0]
        for row, order in zip(scores, got, strict=True):
            np.testing.assert_array_equal(order, np.argsort(row))
