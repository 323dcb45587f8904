"""``confmat.inference.kappa_test``: the z test of kappa = 0 with the null variance of Fleiss,
Cohen and Everitt (1969).

Oracles: statsmodels' ``cohens_kappa`` (``std_kappa0``, ``z_value``, ``pvalue_one_sided``,
``pvalue_two_sided``; its weighted form with ``wt='linear'`` / ``'quadratic'``) on random
tables drawn by hypothesis, and the null variance worked by hand for a 2 x 2 table.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import norm
from statsmodels.stats.inter_rater import cohens_kappa

from confmat import ConfusionMatrix
from confmat.inference import kappa_test

tables = st.integers(2, 5).flatmap(
    lambda k: arrays(np.int64, (k, k), elements=st.integers(0, 60)))


def _statsmodels(c: np.ndarray, weights: str | None):
    kw = {} if weights is None else {"wt": weights}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cohens_kappa(c, return_results=True, **kw)


@settings(max_examples=150, deadline=None)
@given(tables, st.sampled_from([None, "linear", "quadratic"]))
def test_against_statsmodels(c, weights):
    assume(c.sum() > 0)  # statsmodels asserts on an empty table (tested by hand below)
    # where one rating uses a single class the null variance is 0: statsmodels gives NaN or
    # the square root of a rounding error (1.2e-8 at [[10, 5], [0, 0]]); tested by hand below
    assume((c.sum(axis=0) > 0).sum() >= 2 and (c.sum(axis=1) > 0).sum() >= 2)
    ref = _statsmodels(c, weights)
    got = kappa_test(c, weights)
    assert got.kappa == pytest.approx(ref.kappa, rel=1e-9, abs=1e-12)
    assert got.se0 == pytest.approx(ref.std_kappa0, rel=1e-9)
    assert got.statistic == pytest.approx(ref.z_value, rel=1e-9, abs=1e-9)
    assert got.pvalue == pytest.approx(ref.pvalue_two_sided, rel=1e-9, abs=1e-15)
    greater = kappa_test(c, weights, alternative="greater").pvalue
    assert greater == pytest.approx(ref.pvalue_one_sided, rel=1e-9, abs=1e-15)
    assert kappa_test(c, weights, alternative="less").pvalue == pytest.approx(1 - greater,
                                                                              abs=1e-12)


def test_null_variance_by_hand():
    """[[20, 5], [10, 15]]: margins r = (1/2, 1/2), q = (3/5, 2/5), p_e = 1/2, kappa = 2/5.
    With identity weights wbar_i. = q_i and wbar_.j = r_j, so the sum of Fleiss et al.
    (1969) is sum_i r_i q_i (1 - q_i - r_i)^2 + sum_{i != j} r_i q_j (q_i + r_j)^2."""
    r = [Fraction(1, 2), Fraction(1, 2)]
    q = [Fraction(3, 5), Fraction(2, 5)]
    pe = sum(ri * qi for ri, qi in zip(r, q, strict=True))
    core = sum(r[i] * q[j] * ((1 if i == j else 0) - (q[i] + r[j])) ** 2
               for i in range(2) for j in range(2))
    var0 = (core - pe**2) / (50 * (1 - pe) ** 2)
    got = kappa_test([[20, 5], [10, 15]], alternative="greater")
    assert got.se0 == pytest.approx(math.sqrt(var0), rel=1e-14)
    z = 0.4 / math.sqrt(var0)
    assert got.statistic == pytest.approx(z, rel=1e-14)
    assert got.pvalue == pytest.approx(norm.sf(z), rel=1e-12)


def test_a_confusion_matrix_and_its_table_agree():
    c = np.array([[12, 3, 0], [4, 20, 6], [1, 2, 9]])
    a = kappa_test(ConfusionMatrix(c), "linear").to_dict()
    b = kappa_test(c, "linear").to_dict()
    assert a == b and a["kappa"] == ConfusionMatrix(c).metric("kappa", weights="linear")


def test_zero_null_variance_and_undefined_kappa():
    # one rating uses a single class: kappa is 0 on every table with these margins, the null
    # variance is 0; statsmodels gives NaN there
    r = kappa_test([[5, 5], [0, 0]])
    assert (r.kappa, r.se0, r.statistic, r.pvalue) == (0.0, 0.0, 0.0, 1.0)
    assert kappa_test([[5, 5], [0, 0]], alternative="greater").pvalue == 0.5
    for table in ([[0, 0], [0, 0]], [[7]]):
        r = kappa_test(table)
        assert math.isnan(r.statistic) and math.isnan(r.pvalue) and math.isnan(r.kappa)


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"alternative": "bigger"}, ValueError, "alternative must be one of two-sided, greater"),
    ({"alternative": 1}, TypeError, "alternative must be a string"),
    ({"weights": "cubic"}, ValueError, "weights"),
])
def test_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        kappa_test([[3, 1], [2, 4]], **kwargs)


@pytest.mark.parametrize("table, match", [
    ([[1, 2, 3], [4, 5, 6]], "square"),
    ([[1, -2], [3, 4]], "negative"),
    ([[1, np.nan], [3, 4]], "NaN"),
])
def test_bad_tables(table, match):
    with pytest.raises(ValueError, match=f"counts.*{match}|{match}.*counts"):
        kappa_test(table)
