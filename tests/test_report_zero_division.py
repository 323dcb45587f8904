"""One zero-division rule on the whole report: the threshold slider, the printed tables (text,
Markdown, HTML) and the JSON give a ratio with a zero denominator the same value, 0.0 as
scikit-learn's ``zero_division=0``, and the same mark.

Oracles: scikit-learn's ``precision_score`` / ``recall_score`` / ``f1_score`` with
``zero_division=0`` for the values and with ``zero_division=np.nan`` for which of them are
undefined (those carry the mark), ``accuracy_score``, ``balanced_accuracy_score``,
``matthews_corrcoef``; informedness and markedness by hand (TPR + TNR - 1, PPV + NPV - 1, from
scikit-learn's values, undefined when a part is; Powers 2011). The page's numbers are read
back with the standard library's ``html.parser`` and ``json``.
"""

from __future__ import annotations

import json
import math
import warnings
from html.parser import HTMLParser

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    f1_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
)

import confmat
from confmat.report import build_report, render_html, render_json, render_markdown, render_text
from confmat.report.slider import SLIDER_METRICS

MARK = "\u2020"


class Page(HTMLParser):
    """The slider's JSON, and the text of each cell of the per-class and overall tables."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.data = ""
        self.rows: dict[str, list[list[str]]] = {"per-class": [], "overall": []}
        self._json = False
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self._json = tag == "script" and a.get("id") == "confmat-data"
        if tag == "table":
            classes = (a.get("class") or "").split()
            self._table = next((c for c in self.rows if c in classes), None)
        elif tag == "tr" and self._table:
            self.rows[self._table].append([])
        elif tag in ("td", "th") and self._table:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "script":
            self._json = False
        elif tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._cell is not None and self._table:
            self.rows[self._table][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._json:
            self.data += data
        elif self._cell is not None:
            self._cell.append(data)


def read_page(html: str) -> Page:
    p = Page()
    p.feed(html)
    return p


def text_tables(text: str) -> dict[str, dict[str, list[str]]]:
    """The per-class and overall tables of ``render_text``: metric -> its cells."""
    out: dict[str, dict[str, list[str]]] = {"per-class": {}, "overall": {}}
    key = None
    for line in text.splitlines():
        if line.startswith("Per-class metrics"):
            key = "per-class"
        elif line.startswith("All overall metrics"):
            key = "overall"
        elif not line.strip():
            key = None
        elif key and not line.startswith(("metric", "---")):
            cells = line.split()
            out[key][cells[0]] = cells[1:]
    return out


def markdown_tables(md: str) -> dict[str, dict[str, list[str]]]:
    """The per-class and overall tables of ``render_markdown``: metric -> its cells."""
    out: dict[str, dict[str, list[str]]] = {"per-class": {}, "overall": {}}
    key = None
    for line in md.splitlines():
        if line.startswith("#"):
            key = ("per-class" if "Per-class metrics" in line
                   else "overall" if "All overall metrics" in line else None)
        elif key and line.startswith("| ") and not line.startswith("| metric"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            out[key][cells[0].replace("\\_", "_")] = cells[1:]
    return out


def oracle(y: np.ndarray, pred: np.ndarray, w: np.ndarray | None) -> dict[str, tuple[float, bool]]:
    """Each slider metric of ``pred`` (1 = positive): (value with zero_division=0, undefined)."""
    kw = {"labels": [0, 1], "sample_weight": w}
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, fn, pos in (("recall", recall_score, 1), ("specificity", recall_score, 0),
                              ("precision", precision_score, 1), ("npv", precision_score, 0),
                              ("f1", f1_score, 1)):
            v = fn(y, pred, pos_label=pos, average="binary", zero_division=0, **kw)
            left_open = fn(y, pred, pos_label=pos, average="binary", zero_division=np.nan, **kw)
            out[name] = (float(v), bool(np.isnan(left_open)))
        out["accuracy"] = (accuracy_score(y, pred, sample_weight=w), False)
        if len(np.unique(y)) == 2:  # with one class scikit-learn averages over that class only
            out["balanced_accuracy"] = (balanced_accuracy_score(y, pred, sample_weight=w), False)
        out["mcc"] = (matthews_corrcoef(y, pred, sample_weight=w), False)
    for name, a, b in (("informedness", "recall", "specificity"), ("markedness", "precision",
                                                                     "npv")):
        out[name] = (out[a][0] + out[b][0] - 1.0, out[a][1] or out[b][1])
    return out


def check_stop(text: str, expected: tuple[float, bool], where: str) -> None:
    value, undefined = expected
    assert text.endswith(MARK) == undefined, (where, text, expected)
    assert float(text.removesuffix(MARK)) == pytest.approx(value, abs=6e-5), (where, text)


def report(y, s, pred, w=None):
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, labels=[0, 1], sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build_report(cm, y_true=y, y_score=s, y_pred=pred, sample_weight=w,
                            intervals=False)


def check_report(y, s, pred, w=None) -> None:
    """Every stop of the slider against scikit-learn; at the opening, every printed table."""
    rep = report(y, s, pred, w)
    html = render_html(rep)
    page = read_page(html)
    (c,) = json.loads(page.data)["widgets"]["r0"]
    i0 = c["start"]
    assert rep.slider_data()[0]["start_mode"] == "predictions"  # opens on the printed matrix
    assert c["thresholds"][0] is None and c["theta_text"][0] == "above every score"
    for i, t in enumerate(c["thresholds"]):
        t = math.inf if t is None else t  # the stop above every score: JSON null
        expected = oracle(y, (s >= t).astype(int), w)
        for name, exp in expected.items():
            check_stop(c["metrics"][name][i], exp, f"{name} at θ={t}")
    shown = {m: c["metrics"][m][i0] for m in SLIDER_METRICS}
    # the printed tables at the opening: the same text, mark included, in every format
    per = {r.name: r for r in rep.per_class}
    txt = text_tables(render_text(rep))
    md = markdown_tables(render_markdown(rep))
    html_rows = {r[0]: r[1:] for key in ("per-class", "overall") for r in page.rows[key] if r}
    d = json.loads(render_json(rep))
    jper = {r["name"]: r for r in d["per_class"]}
    jall = {m["name"]: m for m in d["overall"]}
    for name, text in shown.items():
        if name in per:  # a per-class metric: the positive class's column (class 1)
            assert txt["per-class"][name][1] == text, name
            assert md["per-class"][name][1] == text, name
            assert html_rows[name][1] == text, name
            assert (1 in jper[name]["undefined"]) == text.endswith(MARK), name
        else:
            assert txt["overall"][name][0] == text, name
            assert md["overall"][name][0] == text, name
            assert html_rows[name][0] == text, name
            assert jall[name]["undefined"] == text.endswith(MARK), name
    if any(t.endswith(MARK) for t in shown.values()):  # the tables' footnote names them
        (note,) = [n for n in rep.notes if n.startswith(f"{MARK} undefined for some classes")]
        named = note.split(": ", 1)[1].split(", ")
        assert {m for m, t in shown.items() if t.endswith(MARK)} <= set(named)
        assert 'data-out="zd-note"' in html


def test_all_positive_model_opens_on_npv_zero_marked() -> None:
    # every sample predicted positive: NPV = 0 / 0 (and markedness with it) at the opening
    y = np.array([0, 0, 0, 1, 1, 1, 1, 0])
    s = np.array([.6, .7, .8, .65, .9, .75, .95, .55])
    pred = np.ones(8, int)
    check_report(y, s, pred)
    (c,) = json.loads(read_page(render_html(report(y, s, pred))).data)["widgets"]["r0"]
    i = c["start"]
    # by hand: PPV 4/8, NPV 0/0 -> 0, MK = 0.5 + 0 - 1 = -0.5; MCC 0 (sklearn's too)
    assert [c["metrics"][m][i] for m in ("precision", "npv", "markedness", "mcc")] == [
        "0.5000", f"0.0000{MARK}", f"-0.5000{MARK}", "0.0000"]
    assert "undefined" not in json.dumps(c)  # the page shows no "undefined" any more


def test_one_class_truth_marks_recall_at_every_stop() -> None:
    # no positive sample: recall = 0 / 0 at every threshold, NPV too at the lowest one
    y = np.zeros(6, int)
    s = np.linspace(0.1, 0.9, 6)
    check_report(y, s, (s >= 0.5).astype(int))


def test_markers_vanish_where_the_ratio_is_defined() -> None:
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([.9, .8, .7, .6, .5, .4])
    check_report(y, s, (s >= 0.65).astype(int))


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 40), st.booleans(), st.booleans(),
       st.sampled_from(["all", "none_below", "cut", "none"]), st.data())
def test_slider_and_tables_tell_one_story(n, one_class, weighted, kind, data) -> None:
    # the samples are drawn by hypothesis itself (not from a drawn seed), so that a failure
    # shrinks to a small table instead of searching seeds for minutes
    sized = {"min_size": n, "max_size": n}
    y = np.zeros(n, int) if one_class else np.array(data.draw(st.lists(st.integers(0, 1),
                                                                       **sized)))
    s = np.array(data.draw(st.lists(st.integers(0, 10), **sized))) / 10.0  # ties
    w = np.array(data.draw(st.lists(st.integers(1, 3), **sized)), float) if weighted else None
    if kind == "all":  # predicted positive everywhere: the lowest stop
        pred = np.ones(n, int)
    elif kind == "none_below":  # only the top score predicted positive: the highest stop
        pred = (s >= s.max()).astype(int)
    elif kind == "none":  # nothing predicted positive: the stop above every score
        pred = np.zeros(n, int)
    else:
        pred = (s >= data.draw(st.sampled_from(sorted(set(s.tolist()))))).astype(int)
    check_report(y, s, pred, w)


def test_threshold_table_writes_an_empty_prediction_by_the_tables_rule() -> None:
    """Text and Markdown list the thresholds 0.1 ... 0.9; where no score reaches one, its PPV is
    0 / 0: written 0.000 with the mark (scikit-learn's zero_division=0; zero_division=np.nan
    calls it undefined), not 1.000 (the start of the PR curve), and the table's title says
    why."""
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 50)
    s = (0.2 + 0.5 * rng.random(50)).round(2)  # every score below 0.71
    pred = (s >= 0.5).astype(int)
    rep = report(y, s, pred)
    for rendered in (render_text(rep), render_markdown(rep)):
        lines = rendered.splitlines()
        head = next(k for k, line in enumerate(lines) if "Thresholds for positive class 1" in line)
        assert f"{MARK} no sample predicted positive" in lines[head]
        rows = {}
        for line in lines[head + 1:]:
            cells = [c for c in line.replace("|", " ").split() if c]
            if cells and cells[0][0].isdigit():
                rows[float(cells[0])] = cells[-1]
            elif rows and not line.strip():
                break
        assert sorted(rows) == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
        for t, ppv in rows.items():
            at = (s >= t).astype(int)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                undefined = np.isnan(precision_score(y, at, zero_division=np.nan))
            assert ppv.endswith(MARK) == undefined == (t > s.max()), t
            assert float(ppv.removesuffix(MARK)) == pytest.approx(
                precision_score(y, at, zero_division=0), abs=6e-4)


def test_notebook_view_marks_what_the_report_marks() -> None:
    """One class only, always right: Cohen's kappa is 0 / 0 (scikit-learn's cohen_kappa_score
    calls it undefined: nan). The report's tables and the matrix's notebook view both write
    0.0000 with the mark; accuracy (defined: 1) carries none."""
    from sklearn.metrics import cohen_kappa_score

    from confmat.report.render_html import matrix_html

    labels = ["a", "b", "c"]
    y = ["a"] * 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(cohen_kappa_score(y, y, labels=labels))
    cm = confmat.ConfusionMatrix.from_predictions(y, y, labels=labels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = build_report(cm, intervals=False)
    assert text_tables(render_text(rep))["overall"]["kappa"][0] == f"0.0000{MARK}"
    assert text_tables(render_text(rep))["overall"]["accuracy"][0] == "1.0000"
    view = matrix_html(cm)
    assert f'kappa <b>0.0000<span class="zd">{MARK}</span></b>' in view
    assert "accuracy <b>1.0000</b>" in view
    assert f"{MARK} undefined (a zero denominator)" in view
