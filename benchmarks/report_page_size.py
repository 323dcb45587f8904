"""Size of the HTML report page for 10, 50 and 200 classes (not a timing: bytes).

Prints, for each number of classes, the page's bytes, the bytes of its heatmap table and of
every ``title`` attribute, for a report of labels only and for one with a score matrix (one
threshold slider per class). Run it once with ``PYTHONPATH`` pointing at each version to
compare (the inputs are drawn with a fixed seed):

    PYTHONPATH=src python benchmarks/report_page_size.py
"""

from __future__ import annotations

import re

import numpy as np

import confmat
from confmat.report import build_report, render_html


def page(k: int, scores: bool) -> str:
    """The page of a k-class report on 20,000 drawn samples (60 % right)."""
    rng = np.random.default_rng(0)
    n = 20_000
    y = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))
    labels = np.array([f"class_{i:03d}" for i in range(k)])
    cm = confmat.ConfusionMatrix.from_predictions(labels[y], labels[pred], labels=list(labels))
    kw = {}
    if scores:
        proba = rng.dirichlet(np.ones(k), n)
        proba[np.arange(n), pred] += 1.0
        kw = {"y_true": labels[y], "y_score": proba / proba.sum(axis=1, keepdims=True)}
    return render_html(build_report(cm, intervals=False, **kw))


def main() -> None:
    print(f"{'classes':>7} {'scores':>6} {'page bytes':>11} {'heatmap':>10} {'titles':>10}")
    for scores in (False, True):
        for k in (10, 50, 200):
            html = page(k, scores)
            a = html.index('<table class="heat">')
            heat = html.index("</table>", a) - a
            titles = sum(len(t) for t in re.findall(r' title="[^"]*"', html))
            print(f"{k:>7} {scores!s:>6} {len(html.encode()):>11,} {heat:>10,} {titles:>10,}")


if __name__ == "__main__":
    main()
