"""User text in the Markdown report stays text, and the slider shows the printed numbers.

Oracles: two independent Markdown parsers (markdown-it-py in CommonMark mode with raw HTML
allowed, GitHub's table and strike-through rules; Python-Markdown with its tables extension,
as mkdocs renders) whose HTML is read back with the standard library's ``html.parser``;
scikit-learn's ``precision_score`` and hand counts for the slider.
"""

from __future__ import annotations

import warnings
from html.parser import HTMLParser

import markdown
import numpy as np
import pytest
from markdown_it import MarkdownIt

import confmat
from confmat.report import build_comparison, build_report, render_markdown

EVIL = ["<img src=x onerror=alert(1)>", "</script><!--", "]]>", "`x`", "a|b", "l1\nl2",
        "A & B &lt;", "*em* _u_ ~~s~~", "[x](http://e)", "# h", "\u202eRTL 😀 e\u0301",
        "x" * 200]
#: the elements a report's Markdown may produce: headings, lists, bold, tables
ALLOWED = {"h1", "h2", "h3", "h4", "p", "ul", "li", "strong", "table", "thead", "tbody", "tr",
           "th", "td"}


class Cells(HTMLParser):
    """Every element's name, and the text of each table row's cells."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.rows: list[list[str]] = []
        self.headings: list[str] = []
        self._cell: list[str] | None = None
        self._heading: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag in ("h1", "h2", "h3", "h4"):
            self._heading = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag in ("h1", "h2", "h3", "h4") and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None

    def handle_data(self, data):
        for part in (self._cell, self._heading):
            if part is not None:
                part.append(data)

    def handle_comment(self, data):
        self.tags.add("<!-- comment -->")


def _renderers():
    gfm = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return {"markdown-it": gfm.render,
            "python-markdown": lambda s: markdown.markdown(s, extensions=["tables"])}


@pytest.mark.parametrize("renderer", ["markdown-it", "python-markdown"])
def test_markdown_labels_and_titles_read_back_as_text(renderer: str) -> None:
    rng = np.random.default_rng(0)
    k = len(EVIL)
    y = rng.integers(0, k, 400)
    p = np.where(rng.random(400) < 0.6, y, rng.integers(0, k, 400))
    yt, yp = [EVIL[i] for i in y], [EVIL[i] for i in p]
    cm = confmat.ConfusionMatrix.from_predictions(yt, yp, labels=EVIL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = build_report(cm, y_true=yt, y_score=rng.dirichlet(np.ones(k), 400),
                           intervals=False, title="<b>T</b> & *x*")
    html = _renderers()[renderer](render_markdown(rep))
    doc = Cells()
    doc.feed(html)
    assert doc.tags <= ALLOWED, doc.tags - ALLOWED
    shown = [" ".join(v.split("\n")) for v in EVIL]  # a line break reads as a space
    assert doc.headings[0] == "<b>T</b> & *x*"
    matrix = next(r for r in doc.rows if r and r[0] == "true \\ pred")
    assert matrix == ["true \\ pred", *shown, "total"]
    counts = [r for r in doc.rows if r and r[0] in shown][:k]  # the confusion matrix's rows
    assert [r[0] for r in counts] == shown
    assert [[int(v) for v in r[1:-1]] for r in counts] == cm.counts.tolist()
    for label in shown:  # each per-class threshold table names its class in its heading
        head = f"Thresholds for positive class {label}"
        marked = f"{head} (\u2020 no sample predicted positive"  # + why a PPV is marked
        assert any(h == head or h.startswith(marked) for h in doc.headings), head


def test_markdown_comparison_model_names_are_text() -> None:
    y = [0, 1, 1, 0, 1, 0]
    cmp = build_comparison(y, {"<i>a</i>|b": [0, 1, 1, 1, 1, 0], "_c_": [0, 1, 0, 1, 1, 0]},
                           intervals=False, metrics=["accuracy"])
    html = _renderers()["markdown-it"](render_markdown(cmp))
    doc = Cells()
    doc.feed(html)
    assert doc.tags <= ALLOWED, doc.tags - ALLOWED
    assert [r[:2] for r in doc.rows if r and r[0] in ("<i>a</i>|b", "_c_")][:2] == [
        ["<i>a</i>|b", f"{5 / 6:.4f}"], ["_c_", f"{4 / 6:.4f}"]]  # correct: 5 and 4 of 6
    assert {"<i>a</i>|b", "_c_"} <= set(doc.headings)


def _svg_texts(html: str) -> list[list[str]]:
    """The text matplotlib drew in each figure of a page (it writes each string it draws as
    a comment of the SVG, entities for ``<``, ``>`` and ``&``)."""
    import base64
    import re
    from html import unescape

    figs = re.findall(r'data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)', html)
    return [[unescape(t) for t in re.findall(r"<!-- (.*?) -->", base64.b64decode(f).decode())]
            for f in figs]


def test_figures_draw_labels_as_typed() -> None:
    """Labels with ``$`` (matplotlib's mathtext: ``$\\frac$`` could not be drawn at all and the
    page failed) or a leading ``_`` (left out of matplotlib legends) reach every figure as
    typed."""
    from confmat.report import render_html
    from confmat.report.render_text import fmt

    labels = ["$\\frac$", "$x^2$", "cost $1-$5", "_neg", "</text><script>"]
    rng = np.random.default_rng(1)
    y = rng.integers(0, len(labels), 200)
    yt = [labels[i] for i in y]
    proba = rng.dirichlet(np.ones(len(labels)), 200)
    cm = confmat.ConfusionMatrix.from_predictions(yt, [labels[i] for i in proba.argmax(1)],
                                                  labels=sorted(labels))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = build_report(cm, y_true=yt, y_score=proba, intervals=False)
    roc, pr = _svg_texts(render_html(rep))[:2]
    for c in rep.curves:  # legend entries: the label as typed (zero-width space aside)
        assert f"{c.pos_label} (AUC = {fmt(c.auc, 3)})" in [t.lstrip("\u200b") for t in roc]
        assert f"{c.pos_label} (AP = {fmt(c.average_precision, 3)})" in [
            t.lstrip("\u200b") for t in pr]


def test_display_legend_keeps_a_name_that_starts_with_underscore() -> None:
    from matplotlib.figure import Figure

    from confmat.curves import threshold_sweep
    from confmat.plots import RocCurveDisplay

    d = RocCurveDisplay(threshold_sweep([0, 1, 1], [0.2, 0.9, 0.4]), name="_m $5").plot(
        ax=Figure().add_subplot())
    shown = [t.get_text() for t in d.ax_.get_legend().get_texts()]
    assert any(t.lstrip("\u200b").startswith("_m \\$5") for t in shown), shown


CONTROL = ["red\x1b[31m", "l1\nl2", "\u202eevil", "tab\there"]
SHOWN = ["red\\x1b[31m", "l1\\nl2", "\\u202eevil", "tab\\there"]  # as Python writes them


def _control_report():
    from sklearn.metrics import confusion_matrix

    y = [CONTROL[i % 4] for i in range(12)]
    p = [CONTROL[(i * 5) % 4] if i % 3 else CONTROL[i % 4] for i in range(12)]
    cm = confmat.ConfusionMatrix.from_predictions(y, p, labels=CONTROL)
    counts = confusion_matrix(y, p, labels=CONTROL)
    return build_report(cm, intervals=False, title="T\x1b]0;x\x07"), counts


@pytest.mark.parametrize("where", ["render_text", "terminal"])
def test_text_output_writes_control_characters_as_escapes(where, capsys) -> None:
    from confmat.cli.render import print_terminal
    from confmat.report import render_text

    rep, counts = _control_report()
    if where == "render_text":
        out = render_text(rep)
    else:
        print_terminal(rep, summary=True)
        out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\t\u202e")
    lines = out.splitlines()
    for label, row in zip(SHOWN, counts.tolist(), strict=True):  # one line per matrix row
        (line,) = [ln for ln in lines if ln.split() and ln.split()[0] == label
                   and len(ln.split()) == len(CONTROL) + 2]
        assert [int(v) for v in line.split()[1:-1]] == row
    assert "T\\x1b]0;x\\x07" in out


def test_text_of_groups_writes_control_characters_as_escapes() -> None:
    from confmat.groups import by_group
    from confmat.report import build_groups_section
    from confmat.report.groups_section import render_groups_text

    y = [0, 1, 0, 1, 1, 0]
    g = ["a\x1b[2J", "a\x1b[2J", "b\nc", "b\nc", "b\nc", "a\x1b[2J"]
    text = render_groups_text(build_groups_section(by_group(y, y, {"si\tte": g}),
                                                   metrics=["accuracy"], intervals=False))
    assert not any(c in text for c in "\x1b\t")
    rows = {ln.split()[0]: ln.split()[1] for ln in text.splitlines()[2:4]}
    assert rows == {"a\\x1b[2J": "3*", "b\\nc": "3*"}  # sizes counted by hand
    assert "By group (si\\tte)" in text
