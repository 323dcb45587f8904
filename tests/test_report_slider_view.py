"""The page's threshold slider shows the numbers of the printed tables, and its data is bounded.

Oracles: counts and precision worked by hand (1 true positive among 32 predicted positives:
precision 1/32 = 0.03125, which Python's ``format`` rounds half to even, 0.0312, and
JavaScript's ``toFixed`` up, 0.0313), scikit-learn's ``precision_score`` and
``confusion_matrix``; the page's JSON read back with ``json.loads`` from ``html.parser``.
"""

from __future__ import annotations

import json
import warnings
from html.parser import HTMLParser

import numpy as np
from sklearn.metrics import confusion_matrix, precision_score

import confmat
from confmat.report import build_report, render_html


class Island(HTMLParser):
    """The text of ``<script id="confmat-data">``."""

    def __init__(self) -> None:
        super().__init__()
        self.data = ""
        self._on = False

    def handle_starttag(self, tag, attrs):
        self._on = tag == "script" and ("id", "confmat-data") in attrs

    def handle_endtag(self, tag):
        self._on = False

    def handle_data(self, data):
        if self._on:
            self.data += data


def widgets(html: str) -> dict:
    p = Island()
    p.feed(html)
    return json.loads(p.data)["widgets"]


def _halfway_case():
    # 1 positive and 31 negatives score >= 0.5 (predicted positive), 20 of each class below
    y = np.r_[1, np.zeros(31, int), np.ones(20, int), np.zeros(20, int)]
    s = np.r_[0.9, np.linspace(0.55, 0.85, 31), np.linspace(0.05, 0.45, 40)]
    return y, s, (s >= 0.5).astype(int)


def test_slider_opens_on_the_printed_precision_at_a_halfway_value() -> None:
    y, s, pred = _halfway_case()
    assert precision_score(y, pred) == 1 / 32  # the oracle's value, exactly halfway at 4 dp
    cm = confmat.ConfusionMatrix.from_predictions(y, pred)
    rep = build_report(cm, y_true=y, y_score=s, intervals=False)
    (c,) = widgets(render_html(rep))["r0"]
    i = c["start"]
    assert c["metrics"]["precision"][i] == "0.0312"  # as every printed table writes it
    (tn, fp), (fn, tp) = confusion_matrix(y, pred).tolist()
    assert [c[k][i] for k in ("tp", "fn", "fp", "tn")] == [str(tp), str(fn), str(fp), str(tn)]


def test_slider_shows_weighted_counts_as_the_printed_matrix() -> None:
    y, s, pred = _halfway_case()
    w = np.full(len(y), 2.5)
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = build_report(cm, y_true=y, y_score=s, sample_weight=w, intervals=False)
    (c,) = widgets(render_html(rep))["r0"]
    i = c["start"]
    # by hand: TP 1 x 2.5, FN 20 x 2.5, FP 31 x 2.5, TN 20 x 2.5, written as the matrix (%g)
    assert [c[k][i] for k in ("tp", "fn", "fp", "tn")] == ["2.5", "50", "77.5", "50"]


def test_slider_data_of_many_classes_is_bounded() -> None:
    rng = np.random.default_rng(3)
    k, n = 60, 3000
    y = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.5, y, rng.integers(0, k, n))
    proba = rng.dirichlet(np.ones(k), n)
    rep = build_report(confmat.ConfusionMatrix.from_predictions(y, pred), y_true=y,
                       y_score=proba, intervals=False)
    curves = rep.slider_data()
    assert len(curves) == k
    assert sum(len(c["thresholds"]) for c in curves) <= 20_000
    for j, c in enumerate(curves):  # each kept stop still has the counts of score >= t
        t = np.asarray(c["thresholds"])
        hit = proba[:, j][None, :] >= t[:, None]
        assert c["tp"] == (hit & (y == j)).sum(axis=1).tolist()
        assert c["fp"] == (hit & (y != j)).sum(axis=1).tolist()


class Captions(HTMLParser):
    """The text of every ``<caption>`` of the slider's metric tables."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_table = self._on = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._in_table = ("class", "slider-metrics") in attrs
        self._on = tag == "caption" and self._in_table
        if self._on:
            self.found.append("")

    def handle_endtag(self, tag):
        if tag == "caption":
            self._on = False

    def handle_data(self, data):
        if self._on:
            self.found[-1] += data


def test_multiclass_slider_says_its_metrics_are_of_the_two_by_two_table() -> None:
    """A 3-class page prints 3-class accuracy and MCC in its tables and the slider's
    one-against-the-rest values beside them: the slider's table says which they are; a binary
    page (one positive class) needs no such caption."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 300)
    proba = rng.dirichlet(np.ones(3), 300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pred = proba.argmax(axis=1)
        page = render_html(build_report(confmat.ConfusionMatrix.from_predictions(y, pred),
                                        y_true=y, y_score=proba, intervals=False))
    caps = Captions()
    caps.feed(page)
    assert caps.found and all("2×2 table" in c and "3-class" in c for c in caps.found)
    yb = (y > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pred = (proba[:, 1] >= 0.5).astype(int)
        page = render_html(build_report(confmat.ConfusionMatrix.from_predictions(yb, pred),
                                        y_true=yb, y_score=proba[:, 1], intervals=False))
    caps = Captions()
    caps.feed(page)
    assert caps.found == []
