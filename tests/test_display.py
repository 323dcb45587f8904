"""Terminal and notebook display of ConfusionMatrix, Report and Comparison objects."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import confmat
from confmat.report import build_comparison, build_report

EVIL = "<script>alert(1)</script>"


def test_matrix_str_shows_counts_totals_and_recall() -> None:
    cm = confmat.ConfusionMatrix([[61, 2], [8, 58]], labels=["bus", "opel"])
    lines = str(cm).splitlines()
    assert lines[0].split() == ["true", "\\", "pred", "bus", "opel", "total", "recall"]
    assert lines[1].split() == ["bus", "61", "2", "63", f"{100 * 61 / 63:.1f}%"]
    assert lines[2].split() == ["opel", "8", "58", "66", f"{100 * 58 / 66:.1f}%"]
    assert lines[-1].split() == ["total", "69", "60", "129", "acc", f"{100 * 119 / 129:.1f}%"]
    assert repr(cm).startswith("ConfusionMatrix(labels=['bus', 'opel'], n=129)")


def test_matrix_str_with_weights_and_empty_rows() -> None:
    cm = confmat.ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], labels=[0, 1, 2],
                                                  sample_weight=[0.5, 1.25, 2.0])
    text = str(cm)
    assert "1.25" in text and "0.5" in text
    row2 = text.splitlines()[3].split()
    # no true sample of 2: recall 0 / 0, written as the report's accuracy matrix writes it
    # (the zero-division rule's 0.0 and the mark, explained by the note under the table)
    assert row2 == ["2", "0", "0", "0", "0", "0.0%\u2020"]
    assert text.splitlines()[-1].startswith("\u2020 no true sample of 2:")


def test_matrix_html_is_an_escaped_heatmap() -> None:
    cm = confmat.ConfusionMatrix([[3, 1], [0, 4]], labels=[EVIL, "b"])
    html = cm._repr_html_()
    assert EVIL not in html and "&lt;script&gt;" in html
    assert "<script" not in html
    assert f"{100 * 3 / 4:.1f}%" in html and "100.0%" in html
    assert "mcc" in html


def test_report_and_comparison_display() -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 60)
    p = np.where(rng.random(60) < 0.8, y, 1 - y)
    cm = confmat.ConfusionMatrix.from_predictions(y, p)
    rep = build_report(cm, intervals=False, title=EVIL)
    assert "All overall metrics" in str(rep) and "Headline metrics" in str(rep)
    assert repr(rep).startswith("<Report")
    html = rep._repr_html_()
    assert EVIL not in html and "<script" not in html and "table" in html
    cmp = build_comparison(y, {"m1": p, EVIL: 1 - p}, intervals=False)
    assert "Models side by side" in str(cmp)
    chtml = cmp._repr_html_()
    assert EVIL not in chtml and "&lt;script&gt;" in chtml


def test_notebook_css_is_scoped_to_the_fragment() -> None:
    import re

    cm = confmat.ConfusionMatrix([[3, 1], [0, 4]])
    rep = build_report(cm, intervals=False)
    for html, scope in ((cm._repr_html_(), ".confmat-matrix"), (rep._repr_html_(),
                                                                 ".confmat-report")):
        css = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
        selectors = [sel.strip() for rule in re.findall(r"([^{}]+)\{", css)
                     for sel in rule.split(",")]
        assert len(selectors) > 20
        assert all(sel.startswith(scope) for sel in selectors), selectors


def test_page_policy_hashes_the_exact_style_and_script_blocks() -> None:
    import base64
    import hashlib
    import re

    from confmat.report import render_html

    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 80)
    s = np.clip(0.4 * y + 0.6 * rng.random(80), 0, 1)
    cm = confmat.ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int))
    page = render_html(build_report(cm, y_true=y, y_score=s, intervals=False, title=EVIL))
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    policy = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert "unsafe" not in csp and policy["default-src"] == "'none'"

    def sha(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)  # executable: no type=
    assert len(styles) == len(scripts) == 1
    assert policy["style-src"] == sha(styles[0]) and policy["script-src"] == sha(scripts[0])
    assert EVIL not in page


def test_many_classes_list_the_classes_as_rows() -> None:
    import re

    from sklearn.metrics import precision_score, recall_score

    from confmat.report import render_html

    rng = np.random.default_rng(4)
    labels = [f"c{k}<&>" for k in range(6)]
    y = rng.choice(labels, 300)
    pred = np.where(rng.random(300) < 0.7, y, rng.choice(labels, 300))
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, labels=labels)
    page = render_html(build_report(cm, intervals=False))
    table = page[page.index('<table class="per-class by-class">'):]
    table = table[:table.index("</table>")]
    heads = re.findall(r"<th[^>]*>(.*?)</th>", table[:table.index("</thead>")])
    rows = re.findall(r"<tr[^>]*><th>(.*?)</th>(.*?)</tr>", table[table.index("<tbody>"):])
    assert [r[0] for r in rows] == [v.replace("&", "&amp;").replace("<", "&lt;").replace(
        ">", "&gt;") for v in labels] + ["micro average", "macro average", "weighted average"]
    rec = recall_score(y, pred, labels=labels, average=None)
    prec = precision_score(y, pred, labels=labels, average=None, zero_division=0)
    for k, (_, cells) in enumerate(rows[:6]):
        values = [None, *re.findall(r"<td>([^<]*)", cells)]  # the class is a th
        assert float(values[heads.index("recall")]) == pytest.approx(rec[k], abs=5e-5)
        assert float(values[heads.index("precision")]) == pytest.approx(prec[k], abs=5e-5)
    small = render_html(build_report(confmat.ConfusionMatrix([[3, 1], [0, 4]]), intervals=False))
    assert 'class="per-class by-class"' not in small and 'class="per-class"' in small


ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "h3",
                "h4", "p", "span", "b", "div", "table", "thead", "tbody", "tr", "th", "td",
                "small", "ul", "li", "details", "summary", "svg", "rect", "footer", "script",
                "figure", "img", "figcaption", "label", "select", "option", "input", "button"}


class _Tags:
    """Every start tag and attribute of a page, and the text of each th and title element
    (Python's own HTML parser: an oracle independent of jinja2)."""

    def __init__(self, page: str):
        from html.parser import HTMLParser

        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.texts: dict[str, list[str]] = {"th": [], "title": [], "option": []}
        outer = self

        class P(HTMLParser):
            def __init__(self) -> None:
                super().__init__(convert_charrefs=True)
                self.open: list[str] = []

            def handle_starttag(self, tag, attrs):
                outer.tags.append((tag, attrs))
                if tag in outer.texts:
                    self.open.append(tag)
                    outer.texts[tag].append("")

            def handle_endtag(self, tag):
                if self.open and self.open[-1] == tag:
                    self.open.pop()

            def handle_data(self, data):
                if self.open:
                    outer.texts[self.open[-1]][-1] += data

        P().feed(page)


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")  # matplotlib, exotic labels
@settings(max_examples=20, deadline=None)
@given(label=st.text(min_size=1, max_size=12).filter(lambda s: s.strip() == s and s != "x"),
       title=st.text(max_size=20))
def test_any_label_or_title_stays_text(label, title) -> None:
    from confmat.report import render_html

    y = np.array([label, "x", label, "x", label, "x"], dtype=object)
    s = np.array([0.9, 0.2, 0.6, 0.7, 0.4, 0.1])
    cm = confmat.ConfusionMatrix.from_predictions(y, np.where(s >= 0.5, label, "x"))
    rep = build_report(cm, y_true=y, y_score=s, pos_label=label, intervals=False,
                       title=title, source={"file": title})
    page = render_html(rep)
    parsed = _Tags(page)
    assert {t for t, _ in parsed.tags} <= ALLOWED_TAGS
    assert [a for _, attrs in parsed.tags for a, _ in attrs if a.startswith("on") or
            a == "style"] == []
    assert [t for t, _ in parsed.tags].count("script") == 2
    assert label in parsed.texts["th"]  # the label, decoded by the parser, is a header's text
    assert parsed.texts["title"] == [title]
