"""Scores, weights and intervals at the edges of float64: every number equals scikit-learn's or a
value worked by hand, or the call says why not (a ValueError naming the argument).

Curves: scores at +-1e308, subnormals, -0.0 and 0.0, ties, one positive, zero and subnormal
weights, against ``sklearn.metrics`` (roc_curve, roc_auc_score, average_precision_score,
precision_recall_curve). Integer scores that float64 cannot tell apart (beyond 2**53) and
weights whose total overflows are refused. Intervals: Fisher's z with N <= 3 and the bootstrap
of a weighted table of total below 1/2 are refused instead of NaN or a one-case bootstrap.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from sklearn import metrics as skm

import confmat
from confmat import ConfusionMatrix
from confmat.inference import score_ci
from confmat.metrics import UndefinedMetricWarning
from proc_oracle import proc  # noqa: F401  (the fixture)

EDGE_SCORES = [1e308, -1e308, 5e-324, -5e-324, 1e-310, 0.0, -0.0, 1.0, 0.5, -2.0,
               np.nextafter(1.0, 2.0)]
EDGE_WEIGHTS = [0.0, 1e-310, 1.0, 3.5, 1e300]


def _same(ours, theirs) -> None:
    if isinstance(theirs, tuple):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12, equal_nan=True)
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, equal_nan=True)


@settings(max_examples=150)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from(EDGE_SCORES),
                          st.sampled_from(EDGE_WEIGHTS)), min_size=2, max_size=12),
       st.booleans())
def test_curves_equal_sklearn_at_float64_edges(rows, weighted: bool) -> None:
    y = np.array([int(r[0]) for r in rows])
    s = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows]) if weighted else None
    if w is not None and (not w.any() or not np.isfinite(w.sum())):
        return  # refused by both; checked in test_weights_that_overflow_are_refused
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pairs = [
            (lambda: tuple(confmat.roc_curve(y, s, sample_weight=w)),
             lambda: tuple(skm.roc_curve(y, s, sample_weight=w))),
            (lambda: tuple(confmat.roc_curve(y, s, sample_weight=w, drop_intermediate=False)),
             lambda: tuple(skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False))),
            (lambda: confmat.roc_auc(y, s, sample_weight=w),
             lambda: skm.roc_auc_score(y, s, sample_weight=w)),
            (lambda: confmat.average_precision(y, s, sample_weight=w),
             lambda: skm.average_precision_score(y, s, sample_weight=w)),
            (lambda: tuple(confmat.precision_recall_curve(y, s, sample_weight=w)),
             lambda: tuple(skm.precision_recall_curve(y, s, sample_weight=w))),
        ]
        for ours, theirs in pairs:
            try:
                expected = theirs()
            except ValueError:  # e.g. a single class for roc_auc_score: ours says so too
                with pytest.raises(ValueError):
                    ours()
                continue
            _same(ours(), expected)


def test_negative_zero_ties_zero() -> None:
    """-0.0 == 0.0: one threshold, a tie worth half a pair (hand: AUC = (1 + 0.5) / 2)."""
    y, s = [0, 1, 0, 1], [-0.0, 0.0, -1.0, 1.0]
    assert confmat.roc_auc(y, s) == pytest.approx(0.875)
    assert confmat.roc_auc(y, s) == skm.roc_auc_score(y, s)


def test_integer_scores_float64_cannot_separate_are_refused() -> None:
    """2**62 and 2**62 + 1 are one float64: converting them made a tie and the AUC 0.875,
    where every positive outranks every negative (scikit-learn: 1.0)."""
    y = [0, 1, 0, 1]
    s = np.array([2**62, 2**62 + 1, -(2**63), 2**63 - 1])
    assert skm.roc_auc_score(y, s) == 1.0
    for call in (confmat.roc_auc, confmat.average_precision, confmat.roc_curve,
                 confmat.precision_recall_curve):
        with pytest.raises(ValueError, match=r"y_score: the integer scores 4611686018427387904 "
                                             r"and 4611686018427387905 are both"):
            call(y, s)
    u = np.array([2**64 - 1, 2**64 - 2, 0, 1], dtype=np.uint64)
    with pytest.raises(ValueError, match="y_score: the integer scores"):
        confmat.roc_auc(y, u)
    with pytest.raises(ValueError, match="y_score: the integer scores"):
        confmat.roc_auc([0, 1, 2, 1], np.array([[2**62, 0, 0], [2**62 + 1, 1, 0], [0, 0, 1],
                                               [1, 2, 0]]), multi_class="ovr")


def test_large_integer_scores_that_stay_distinct_still_work() -> None:
    y = [0, 1, 0, 1, 1]
    s = np.array([2**60, 2**61, -(2**62), 2**62, 3])
    assert confmat.roc_auc(y, s) == pytest.approx(skm.roc_auc_score(y, s), rel=1e-12)
    assert confmat.average_precision(y, s) == pytest.approx(skm.average_precision_score(y, s),
                                                            rel=1e-12)


def test_weights_that_overflow_are_refused() -> None:
    """Four weights of 1e308 sum past float64: the AUC was NaN and the ROC curve NaN."""
    y, s, w = [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8], [1e308] * 4
    for call in (confmat.roc_auc, confmat.average_precision, confmat.roc_curve,
                 confmat.precision_recall_curve):
        with pytest.raises(ValueError, match="sample_weight: the total weight overflows"):
            call(y, s, sample_weight=w)
    with pytest.raises(ValueError, match="sample_weight: the total weight overflows"):
        ConfusionMatrix.from_predictions(y, [0, 1, 0, 1], sample_weight=w)
    # a total just inside float64 is fine (hand: 2 of the 4 positive-negative pairs in order)
    assert confmat.roc_auc(y, s, sample_weight=[4e307] * 4) == 0.5
    assert confmat.average_precision(y, s, sample_weight=[4e307] * 4) == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=[4e307] * 4), rel=1e-12)


def test_finite_scores_whose_sum_overflows() -> None:
    """Two scores of 1e308 are finite; the finiteness check summed them and then failed
    with an IndexError looking for the infinite one."""
    y, s = [0, 1, 0, 1], [1e308, 1e308, -1e308, 1e308]
    assert confmat.roc_auc(y, s) == skm.roc_auc_score(y, s) == 0.75


def test_fisher_z_needs_more_than_three_samples() -> None:
    """Its standard error is 1 / sqrt(N - 3): NaN bounds for N <= 3 came back silently."""
    for table in ([[1, 0], [0, 1]], [[2.5, 0.2], [0.1, 0.1]], [[1e-300, 2e-300], [3e-300, 0]]):
        with pytest.raises(ValueError, match=r"method='fisher_z' needs more than 3 samples"):
            ConfusionMatrix(table).ci("mcc", method="fisher_z")
    # N = 4 by hand: tanh(atanh(r) +- z / sqrt(1)), r = MCC of [[2, 0], [1, 1]] = 1 / sqrt(3)
    ci = ConfusionMatrix([[2, 0], [1, 1]]).ci("mcc", method="fisher_z")
    r, z = 1 / math.sqrt(3), sps.norm.ppf(0.975)
    assert ci.low == pytest.approx(math.tanh(math.atanh(r) - z), rel=1e-12)
    assert ci.high == pytest.approx(math.tanh(math.atanh(r) + z), rel=1e-12)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_bootstrap_of_weights_below_one_case_is_refused(method: str) -> None:
    """A weighted table is bootstrapped as round(N) unit cases; N = 1e-299 was drawn as one
    case, and kappa's interval [0, 0] missed its estimate -0.087."""
    cm = ConfusionMatrix([[1e-300, 2e-300], [3e-300, 4e-300]])
    with pytest.raises(ValueError, match=r"table: .*total N = 1e-299 rounds to no case"):
        cm.ci("kappa", method=method, random_state=0)
    # one case or more: resampled as before, the same interval for the same random_state
    ok = ConfusionMatrix([[0.6, 0.2], [0.1, 0.4]])
    a = ok.ci("accuracy", method=method, random_state=7, n_resamples=500)
    b = ok.ci("accuracy", method=method, random_state=7, n_resamples=500)
    assert (a.low, a.high) == (b.low, b.high)


@pytest.mark.parametrize("scores", [
    [1e308, -1e308, 1e308, -1e308, 0.0, 5.0, 1e307, -1e307, 1e308, 2.0],
    [5e-324, 1e-310, 0.0, -5e-324, -0.0, 1e-320, 2e-320, -1e-310, 3e-320, 4e-320],
], ids=["1e308", "subnormal"])
def test_auc_partial_auc_and_delong_at_float64_edges_match_proc(proc, scores):  # noqa: F811
    """pROC (Robin et al. 2011) on the same scores: AUC, partial AUC over specificity 0.8-1
    (uncorrected) and DeLong's interval (DeLong et al. 1988)."""
    y = np.array([0, 1, 1, 0, 1, 0, 1, 0, 0, 1])
    s = np.array(scores)
    r = proc("r <- roc(y, s, direction = '<', quiet = TRUE); "
             "out <- list(auc = as.numeric(auc(r)), "
             "pa = as.numeric(auc(r, partial.auc = c(1, 0.8))), "
             "ci = as.numeric(ci.auc(r, method = 'delong')))", y=y.astype(float), s=s)
    assert confmat.roc_auc(y, s) == pytest.approx(r["auc"][0], rel=1e-12)
    assert confmat.partial_auc(y, s, specificity=(0.8, 1.0)) == pytest.approx(r["pa"][0],
                                                                              rel=1e-12)
    ci = score_ci(y, s, method="delong")
    np.testing.assert_allclose([ci.low, ci.estimate, ci.high], r["ci"], rtol=1e-12)


@pytest.mark.parametrize("table", [[[7]], [[5, 3], [0, 0]], [[40, 10], [5, 45]]],
                         ids=["1x1", "zero-row", "2x2"])
@pytest.mark.parametrize("level", [0.95, 1e-9, 1 - 1e-9])
def test_proportion_intervals_at_extreme_levels_match_statsmodels(table, level) -> None:
    from statsmodels.stats.proportion import proportion_confint

    cm = ConfusionMatrix(table)
    x, n = sum(table[i][i] for i in range(len(table))), sum(map(sum, table))
    for ours, theirs in (("wilson", "wilson"), ("agresti_coull", "agresti_coull"),
                         ("clopper_pearson", "beta"), ("wald", "normal")):
        ci = cm.ci("accuracy", method=ours, level=level)
        low, high = proportion_confint(x, n, alpha=1 - level, method=theirs)
        assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-9), ours


@pytest.mark.parametrize("method", ["wilson", "clopper_pearson", "percentile", "bca"])
def test_intervals_of_an_empty_class_say_it_is_undefined(method: str) -> None:
    """Recall of a class with no true sample: undefined, so NaN bounds with the warning."""
    cm = ConfusionMatrix([[5, 3], [0, 0]])
    with pytest.warns(UndefinedMetricWarning, match="recall"):
        ci = cm.ci("recall", pos_label=1, method=method, random_state=0)
    assert math.isnan(ci.low) and math.isnan(ci.high)


@pytest.mark.parametrize("level", [0.95, 1e-9])
def test_too_few_resamples_are_refused(level: float) -> None:
    with pytest.raises(ValueError, match=r"n_resamples=1 is too few for level="):
        ConfusionMatrix([[7]]).ci("accuracy", method="percentile", level=level, n_resamples=1)
