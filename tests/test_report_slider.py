"""Where the report's threshold slider opens, and how its θ is written.

Oracles: ``sklearn.metrics.confusion_matrix`` of the predictions, numpy ``score >= θ`` counts,
``fractions.Fraction`` for the decimal written for θ.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

import confmat
from confmat.report import build_report
from confmat.report.slider import theta_text


def _opening(y, s, pred, **kw):
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, **({"labels": kw["labels"]}
                                                             if "labels" in kw else {}))
    rep = build_report(cm, y_true=y, y_score=s, y_pred=pred, intervals=False, **kw)
    return rep.slider_data()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(5, 80), st.booleans(), st.booleans())
def test_opens_on_predictions_that_are_a_threshold(seed: int, n: int, proba: bool,
                                                   ties: bool) -> None:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = rng.random(n) if proba else rng.normal(0, 3, n)
    if ties:
        s = s.round(1)
    cut = rng.choice(s)  # predictions are score >= cut (or score > cut, the same family)
    pred = (s > cut if rng.random() < 0.5 else s >= cut).astype(int)
    (d,) = _opening(y, s, pred)
    i = d["start"]
    shown = [[d["tn"][i], d["fp"][i]], [d["fn"][i], d["tp"][i]]]
    assert d["start_mode"] == "predictions" and d["start_is_printed_matrix"]
    assert shown == confusion_matrix(y, pred, labels=[0, 1]).tolist()
    if pred.any():
        theta = float(d["theta_text"][i])  # the written θ reproduces the predictions
        assert np.array_equal(s >= theta, pred == 1)
    else:  # no sample predicted positive: the stop above every score
        assert i == 0 and d["thresholds"][0] == math.inf
        assert d["theta_text"][0] == "above every score"
        assert "no sample is predicted 1" in d["start_note"]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_other_predictions_open_at_the_conventional_point(seed: int, proba: bool) -> None:
    rng = np.random.default_rng(seed)
    n = 60
    y = rng.integers(0, 2, n)
    s = rng.random(n) if proba else rng.normal(0, 2, n)
    pred = (s >= np.median(s)).astype(int)
    lo, hi = np.flatnonzero(pred == 0)[0], np.flatnonzero(pred == 1)[0]
    pred[lo], pred[hi] = 1, 0  # a low score predicted positive, a high one negative
    (d,) = _opening(y, s, pred)
    point = 0.5 if proba else 0.0
    assert d["start_mode"] == "conventional" and not d["start_is_printed_matrix"]
    assert f"conventional θ = {point:g}" in d["start_note"]
    assert ("probabilities" in d["start_note"]) == proba
    i = d["start"]
    hit = s >= point
    assert [d["tp"][i], d["fp"][i]] == [np.sum(hit & (y == 1)), np.sum(hit & (y == 0))]
    if hit.any():
        assert np.array_equal(s >= float(d["theta_text"][i]), hit)
    else:  # score >= point for no sample: the stop above every score is that table
        assert i == 0 and "no score reaches" in d["start_note"]


def test_string_labels_and_a_decision_function() -> None:
    rng = np.random.default_rng(1)
    y = rng.choice(["ham", "spam"], 200)
    d_score = rng.normal(0, 1.5, 200) + (y == "spam")
    pred = np.where(d_score > 0, "spam", "ham")  # a linear model's rule: decision > 0
    (d,) = _opening(y, d_score, pred, pos_label="spam")
    i = d["start"]
    assert d["start_mode"] == "predictions"
    (tn, fp), (fn, tp) = confusion_matrix(y, pred, labels=["ham", "spam"]).tolist()
    assert (d["tn"][i], d["fp"][i], d["fn"][i], d["tp"][i]) == (tn, fp, fn, tp)
    assert d["thresholds"][i] == d_score[d_score > 0].min()


def test_without_predictions_the_counts_are_matched() -> None:
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 100)
    s = rng.random(100).round(2)
    pred = (s >= 0.37).astype(int)
    cm = confmat.ConfusionMatrix.from_predictions(y, pred)
    (d,) = build_report(cm, y_true=y, y_score=s, intervals=False).slider_data()
    i = d["start"]
    assert d["start_mode"] == "counts"
    assert [[d["tn"][i], d["fp"][i]], [d["fn"][i], d["tp"][i]]] == confusion_matrix(
        y, pred).tolist()


@settings(max_examples=300, deadline=None)
@given(st.floats(-1e6, 1e6, allow_nan=False), st.floats(1e-12, 10.0))
def test_theta_text_lies_in_the_interval_of_its_table(t: float, gap: float) -> None:
    below = t - gap
    if not below < t:
        return
    text = theta_text(t, below)
    v = float(text)
    assert below < v <= t  # typed back, it gives the same table as t
    four = f"{t:.4g}"
    if below < float(four) <= t:
        assert text == four  # 4 significant digits whenever they suffice
    else:  # more digits (or 4 cut rather than rounded), as few as needed
        def cut(digits: int) -> float:
            scale = Fraction(10) ** (digits - 1 - math.floor(math.log10(abs(t))))
            return float(Fraction(math.floor(Fraction(t) * scale)) / scale)

        mantissa = text.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
        p = len(mantissa)
        assert p >= 4 or v == cut(4)  # 1.800 is written 1.8
        if p > 4:  # p - 1 digits, rounded or cut, leave the interval
            for c in (float(f"{t:.{p - 1}g}"), cut(p - 1)):
                assert not below < c <= t
