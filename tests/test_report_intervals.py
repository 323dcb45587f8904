"""Honest intervals in reports: within the metric's range, none for values that are not
estimates, infinite likelihood ratios, and the same interval whatever the label order.

Oracles: statsmodels' ``cohens_kappa`` (asymptotic interval), likelihood ratios worked with
``fractions.Fraction`` from the counts, and the report's own interval recomputed on the table
with the labels permuted (invariance).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import confmat
from confmat.metrics import get_metric
from confmat.report import build_comparison, build_report, render_html, render_text
from confmat.report.shown import interval_applies

tables = st.integers(2, 4).flatmap(
    lambda k: st.lists(st.lists(st.integers(0, 40), min_size=k, max_size=k), min_size=k,
                       max_size=k)).filter(lambda t: sum(map(sum, t)) > 0)


@settings(max_examples=20, deadline=None)
@given(tables)
def test_every_interval_lies_in_the_metric_range(table) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = build_report(confmat.ConfusionMatrix(table), n_resamples=200)
    for m in rep.overall:
        spec = get_metric(m.name)
        if m.interval is None:
            continue
        assert interval_applies(spec), m.name
        lo, hi = m.interval
        assert spec.range[0] <= lo < hi <= spec.range[1], (m.name, m.interval)
    for r in rep.per_class:
        spec = get_metric(r.name)
        for v, iv in zip(r.values, r.intervals or [], strict=False):
            if iv is not None:
                assert spec.range[0] <= iv[0] < iv[1] <= spec.range[1], (r.name, iv)
                assert math.isfinite(v)


def test_no_interval_for_bounds_p_values_and_fixed_indices() -> None:
    rep = build_report(confmat.ConfusionMatrix([[61, 2], [8, 58]]))
    by = {m.name: m for m in rep.overall}
    for name in ("kappa_ci_upper", "kappa_ci_lower", "kappa_se", "p_value", "accuracy_se",
                 "accuracy_ci_lower", "accuracy_ci_upper", "global_performance_index"):
        assert by[name].interval is None, name
    assert by["mcc"].interval is not None and by["kappa"].interval is not None
    text = render_text(rep)
    p_line = next(line for line in text.splitlines() if line.startswith("p_value"))
    assert "0.0000" not in p_line and "e-" in p_line  # a tiny p-value is not printed as 0


def test_kappa_interval_clipped_where_statsmodels_exceeds_one() -> None:
    from statsmodels.stats.inter_rater import cohens_kappa

    table = np.array([[60, 1], [0, 58]])
    ref = cohens_kappa(table)
    assert ref.kappa_upp > 1  # the asymptotic interval runs past the range
    rep = build_report(confmat.ConfusionMatrix(table))
    lo, hi = next(m for m in rep.overall if m.name == "kappa").interval
    assert hi == 1.0
    assert lo == pytest.approx(ref.kappa_low, abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=4, max_size=4))
def test_likelihood_ratios_read_inf(cells) -> None:
    tn, fp, fn, tp = cells
    if min(tn + fp, fn + tp) == 0:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = build_report(confmat.ConfusionMatrix([[tn, fp], [fn, tp]]), intervals=False)
    row = {r.name: r.values[1] for r in rep.per_class}  # class 1 against class 0

    def ratio(num: Fraction, den: Fraction) -> float:
        if den == 0:
            return math.inf if num > 0 else math.nan
        return float(num / den)

    tpr, fpr = Fraction(tp, tp + fn), Fraction(fp, fp + tn)
    expected = {"lr_plus": ratio(tpr, fpr), "lr_minus": ratio(1 - tpr, 1 - fpr),
                "dor": ratio(Fraction(tp * tn), Fraction(fp * fn))}
    for name, want in expected.items():
        got = row[name]
        if math.isnan(want):
            assert math.isnan(got), name
        else:
            assert got == pytest.approx(want, rel=1e-12), name
    if math.isinf(expected["lr_plus"]):
        assert "inf" in render_text(rep) and "inf" in render_html(rep)


def test_same_interval_whatever_the_label_order() -> None:
    rng = np.random.default_rng(8)
    y = rng.choice(["benign", "malignant"], 171, p=[0.63, 0.37])
    p = np.where(rng.random(171) < 0.93, y, np.where(y == "benign", "malignant", "benign"))
    a = build_report(confmat.ConfusionMatrix.from_predictions(y, p,
                                                               labels=["benign", "malignant"]))
    b = build_report(confmat.ConfusionMatrix.from_predictions(y, p,
                                                               labels=["malignant", "benign"]))
    for ma, mb in zip(a.overall, b.overall, strict=True):
        assert ma.name == mb.name
        if ma.interval is None:
            assert mb.interval is None, ma.name
        else:
            assert mb.interval == pytest.approx(ma.interval, abs=1e-9), ma.name
    # a comparison gives each model the interval of its table alone, whatever its companions
    for others in ({}, {"flipped": np.roll(p, 5)}, {"z": y, "a": np.roll(p, 9)}):
        cmp = build_comparison(y, {**others, "model": p}, labels=["malignant", "benign"],
                               pos_label="malignant")
        row = next(r for r in cmp.table if r["model"] == "model")
        mcc = next(m for m in a.overall if m.name == "mcc")
        assert row["mcc_interval"] == pytest.approx(mcc.interval, abs=1e-9)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 4))
def test_multiclass_permutation_invariance(seed: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 30, (k, k)) + np.diag(rng.integers(20, 60, k))
    perm = rng.permutation(k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = build_report(confmat.ConfusionMatrix(table), n_resamples=200)
        b = build_report(confmat.ConfusionMatrix(table[np.ix_(perm, perm)]), n_resamples=200)
    for name in ("mcc", "accuracy", "kappa", "balanced_accuracy"):
        ia = next(m.interval for m in a.overall if m.name == name)
        ib = next(m.interval for m in b.overall if m.name == name)
        assert ib == pytest.approx(ia, abs=1e-9), name
