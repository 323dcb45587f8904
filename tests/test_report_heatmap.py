"""The report's heatmap: each cell's tooltip states exactly the matrix's numbers, and large
matrices no longer carry a tooltip per cell in the file.

Oracle: scikit-learn's ``confusion_matrix`` (counts) and each row's percentage worked from it
(100 * count / row total, one decimal); the HTML read back with the standard library's
``html.parser``.
"""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

import confmat
from confmat.report import build_report, render_fragment, render_html
from confmat.report.render_html import HEAT_TITLES_MAX, matrix_html

LABELS = ["<b>x</b>", "a & b", 'q"uote', "true c, predicted d", "plain"]


class Heat(HTMLParser):
    """The heatmap table: each body cell's text and ``title``, the headers and their scope."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.on = False
        self.rows: list[list[dict]] = []
        self.heads: list[dict] = []
        self._cell: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("class") == "heat":
            self.on = True
        elif self.on and tag == "tr":
            self.rows.append([])
        elif self.on and tag in ("td", "th"):
            self._cell = {"tag": tag, "title": a.get("title"), "scope": a.get("scope"),
                          "text": ""}

    def handle_endtag(self, tag):
        if tag == "table":
            self.on = False
        elif self.on and tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell["text"] += data


def heat(html: str) -> Heat:
    h = Heat()
    h.feed(html)
    return h


def case(k: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    labels = (LABELS + [f"c{i}" for i in range(k)])[:k]
    y = rng.integers(0, k, 40 * k)
    pred = np.where(rng.random(y.size) < 0.5, y, rng.integers(0, k, y.size))
    yt, yp = np.array(labels, dtype=object)[y], np.array(labels, dtype=object)[pred]
    cm = confmat.ConfusionMatrix.from_predictions(yt, yp, labels=labels)
    return labels, confusion_matrix(yt, yp, labels=labels), cm


def expected_tips(labels, counts) -> list[list[str]]:
    tips = []
    for i, t in enumerate(labels):
        row = counts[i].sum()
        tips.append([f"true {t}, predicted {p}: {counts[i, j]} "
                     f"({100 * counts[i, j] / row if row else 0.0:.1f}% of true {t})"
                     for j, p in enumerate(labels)])
    return tips


@pytest.mark.parametrize("k", [2, 5, HEAT_TITLES_MAX])
def test_small_matrices_carry_tooltips_with_the_matrix_numbers(k: int) -> None:
    labels, counts, cm = case(k)
    rep = build_report(cm, intervals=False)
    want = expected_tips(labels, counts)
    for html in (render_html(rep), render_fragment(rep), matrix_html(cm)):
        h = heat(html)
        body = h.rows[1:1 + k]
        assert [r[0]["text"] for r in body] == [str(v) for v in labels]
        assert [[c["title"] for c in r[1:1 + k]] for r in body] == want
        # the cell's own text is the count then the row percentage
        assert [[c["text"].split("%")[0] + "%" for c in r[1:1 + k]] for r in body] == [
            [f"{counts[i, j]}{100 * counts[i, j] / counts[i].sum():.1f}%" for j in range(k)]
            for i in range(k)]


def test_large_matrices_carry_no_title_per_cell_and_scoped_headers() -> None:
    k = HEAT_TITLES_MAX + 1
    _, counts, cm = case(k, seed=1)
    rep = build_report(cm, intervals=False)
    page = render_html(rep)
    for html in (page, render_fragment(rep), matrix_html(cm)):
        h = heat(html)
        assert all(c["title"] is None for r in h.rows for c in r)
        head, *body = h.rows
        assert [c["scope"] for c in head[1:]] == ["col"] * (k + 1)
        assert [r[0]["scope"] for r in body] == ["row"] * (k + 1)  # and the totals row
        assert [int(r[-1]["text"]) for r in body[:k]] == counts.sum(axis=1).tolist()
    # the page's script writes them on hover (tests/browser/test_html_report.py); a notebook
    # view has no script
    assert "table.heat" in page and "<script>" in page
    assert "<script" not in render_fragment(rep)


def test_many_classes_page_weight_is_bounded() -> None:
    """200 classes: the heatmap holds 40,000 cells at under 45 bytes each (a title on each
    used to take 2-3 MB; benchmarks/report_page_size.py prints the sizes)."""
    k = 200
    rng = np.random.default_rng(2)
    y = rng.integers(0, k, 20_000)
    pred = np.where(rng.random(y.size) < 0.6, y, rng.integers(0, k, y.size))
    names = np.array([f"class_{i:03d}" for i in range(k)])
    cm = confmat.ConfusionMatrix.from_predictions(names[y], names[pred], labels=list(names))
    page = render_html(build_report(cm, intervals=False))
    a = page.index('<table class="heat">')
    table = page[a:page.index("</table>", a)]
    assert " title=" not in table
    assert len(table.encode()) < 45 * k * k
