"""Terminal and notebook display of ConfusionMatrix, Report and Comparison objects."""

from __future__ import annotations

import numpy as np

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
    assert row2 == ["2", "0", "0", "0", "0", "-"]


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
