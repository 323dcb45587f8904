"""One rule for the accuracy matrix's row of a class without a true sample (0 / 0), in
``str(cm)``, the notebook view and every format of the report: the zero-division rule's 0.0,
the mark †, and the same note under it.

Oracles: scikit-learn's ``confusion_matrix`` for the counts, ``recall_score`` with
``zero_division=0`` for the value written (percent of the row = recall on the diagonal) and
with ``zero_division=np.nan`` for which classes divide by zero (those, and only those, are
marked).
"""

from __future__ import annotations

import json
import re
import warnings
from html import unescape

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, recall_score

import confmat
from confmat.report import build_report, render_html, render_json, render_markdown, render_text

MARK = "\u2020"


def sklearn_recall(y, p, labels):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = recall_score(y, p, labels=labels, average=None, zero_division=0)
        left_open = recall_score(y, p, labels=labels, average=None, zero_division=np.nan)
    return value, np.isnan(left_open)


def note_of(names) -> str:
    """The note, as the rule's documentation words it (docs/report.md)."""
    rows, recall = ("its row's", "its recall") if len(names) == 1 else ("their rows'",
                                                                       "their recalls")
    return (f"{MARK} no true sample of {', '.join(map(str, names))}: {rows} percentages (and "
            f"{recall}) are 0 / 0, counted as 0.0 by the zero-division rule")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=30), st.data())
def test_str_of_a_matrix_marks_the_rows_sklearn_leaves_undefined(y, data) -> None:
    n = len(y)
    p = data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    labels = [0, 1, 2, 3, 4]  # 3 never true, maybe 4 neither: rows without a sample
    cm = confmat.ConfusionMatrix.from_predictions(y, p, labels=labels)
    assert cm.counts.tolist() == confusion_matrix(y, p, labels=labels).tolist()
    value, undefined = sklearn_recall(y, p, labels)
    lines = str(cm).splitlines()
    for k, lab in enumerate(labels):
        cell = lines[1 + k].split()[-1]
        assert cell == f"{100 * value[k]:.1f}%" + (MARK if undefined[k] else ""), (lab, cell)
    empty = [lab for k, lab in enumerate(labels) if undefined[k]]
    assert lines[-1] == note_of(empty)


def test_every_view_writes_the_empty_row_alike() -> None:
    y = np.array([0, 0, 0, 1, 1, 1])
    p = np.array([0, 1, 2, 1, 0, 1])
    labels = [0, 1, 2]
    value, undefined = sklearn_recall(y, p, labels)
    assert undefined.tolist() == [False, False, True] and value[2] == 0.0
    note = note_of([2])
    cm = confmat.ConfusionMatrix.from_predictions(y, p, labels=labels)
    # str(cm): the recall column of class 2, and the note under the table
    text = str(cm)
    assert re.search(rf"^2 .* 0\.0%{MARK}$", text, re.M) and text.endswith(note)
    # the report: its accuracy matrix row (text and Markdown) and the same note
    rep = build_report(cm, intervals=False)
    assert note in rep.notes
    for out in (render_text(rep), render_markdown(rep)):
        acc = out[out.index("Accuracy matrix"):]
        row = next(ln for ln in acc.splitlines() if re.match(r"^\|? *2[ |]", ln))
        assert row.count(f"0.0{MARK}") == 3, row
        assert note.replace("_", r"\_") in out or note in out
    assert note in json.loads(render_json(rep))["notes"]
    assert json.loads(render_json(rep))["row_percentages_undefined"] == [2]
    # the HTML page and the notebook views: the cells marked, the note written once
    for html in (render_html(rep), cm._repr_html_()):
        heat = html[html.index('<table class="heat">'):]
        heat = heat[:heat.index("</table>")]
        assert heat.count(f'<span class="zd">{MARK}</span>') == 3
        assert unescape(html).count(note) == 1


def test_no_note_without_an_empty_row() -> None:
    cm = confmat.ConfusionMatrix([[3, 1], [0, 4]], labels=["a", "b"])
    assert MARK not in str(cm) and MARK not in cm._repr_html_()
    assert not any("no true sample" in n for n in build_report(cm, intervals=False).notes)


def test_an_empty_table_says_the_accuracy_is_undefined_too() -> None:
    """No sample at all: each recall is 0 / 0 and so is the accuracy trace / N (scikit-learn's
    ``recall_score`` leaves every class undefined), so the note speaks of the accuracy too,
    not only of rows."""
    labels = ["a", "b", "c"]
    cm = confmat.ConfusionMatrix(np.zeros((3, 3)), labels=labels)
    lines = str(cm).splitlines()
    assert [ln.split()[-1] for ln in lines[1:4]] == [f"0.0%{MARK}"] * 3
    assert lines[-2].split()[-2:] == ["acc", f"0.0%{MARK}"]
    assert lines[-1] == (f"{MARK} no sample at all: every row's percentages, every recall and "
                         "the accuracy are 0 / 0, counted as 0.0 by the zero-division rule")
    one = confmat.ConfusionMatrix([[0, 0], [0, 2]], labels=["a", "b"])
    assert str(one).splitlines()[-1] == note_of(["a"])
