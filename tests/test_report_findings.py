"""The warnings and findings at the top of a report, in every format.

Oracles: ``sklearn.metrics.roc_auc_score`` for the area, supports and majority shares counted
with numpy here.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

import confmat
from confmat.report import build_report, render_html, render_json, render_markdown, render_text
from confmat.report.findings import IMBALANCE_RATIO, TINY_SUPPORT


def _binary(seed: int, n: int = 120):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, "sick", "healthy")
    s = np.clip(0.25 * (y == "sick") + 0.75 * rng.random(n), 0, 1)
    return y, s


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_auc_below_half_is_a_visible_warning_in_every_format(seed: int, swap: bool) -> None:
    y, s = _binary(seed)
    score = 1 - s if swap else s  # swapped: the scores of the other class
    pred = np.where(score >= 0.5, "sick", "healthy")
    cm = confmat.ConfusionMatrix.from_predictions(y, pred)
    rep = build_report(cm, y_true=y, y_score=score, y_pred=pred, pos_label="sick",
                       intervals=False)
    auc = roc_auc_score(y == "sick", score)
    low = auc < 0.5
    hit = [w for w in rep.warnings if w.startswith("ROC AUC")]
    assert bool(hit) == low
    if low:
        (w,) = hit
        assert f"{auc:.3f}" in w and "pos_label='healthy'" in w
        assert "! " + w in render_text(rep)
        assert w in json.loads(render_json(rep))["warnings"]
        assert "**Warning:**" in render_markdown(rep)
        page = render_html(rep)
        warn_box = page[page.index('<div class="warn"'):]
        assert "below 0.5" in warn_box[:warn_box.index("</div>")]


def test_multiclass_auc_warning_names_the_class() -> None:
    rng = np.random.default_rng(3)
    labels = ["a", "b", "c"]
    y = rng.choice(labels, 300)
    p = rng.dirichlet([1, 1, 1], 300)
    p[np.arange(300), [labels.index(v) for v in y]] += 0.6
    p[:, [1, 2]] = p[:, [2, 1]]  # columns of b and c swapped
    cm = confmat.ConfusionMatrix.from_predictions(y, np.array(labels)[p.argmax(1)],
                                                  labels=labels)
    rep = build_report(cm, y_true=y, y_score=p, intervals=False)
    for k, lab in enumerate(labels):
        auc = roc_auc_score(y == lab, p[:, k])
        assert any(f"ROC AUC {auc:.3f} for positive class {lab} " in w
                   for w in rep.warnings) == (auc < 0.5)
    assert sum("ROC AUC" in w for w in rep.warnings) == 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 400), min_size=2, max_size=5))
def test_support_warnings_follow_the_counts(support: list[int]) -> None:
    k = len(support)
    counts = np.diag(support).astype(float)
    counts[0, 1 % k] += 1  # at least one sample
    rows = counts.sum(axis=1)
    rep = build_report(confmat.ConfusionMatrix(counts), intervals=False)
    text = " ".join(rep.warnings)
    tiny = [i for i in range(k) if rows[i] < TINY_SUPPORT]
    assert ("wide intervals" in text) == bool(tiny)
    for i in tiny:
        assert f"{i} " in text or f"{i} (" in text
    present = rows[rows > 0]
    imbalanced = present.size >= 2 and present.max() >= IMBALANCE_RATIO * present.min()
    assert ("heavy class imbalance" in text) == bool(imbalanced)
    if imbalanced:
        share = rows.max() / rows.sum()
        assert f"accuracy {share:.3f}" in text
        assert f"always predicting {int(np.argmax(rows))} " in text


def test_no_warning_for_a_balanced_large_table() -> None:
    rep = build_report(confmat.ConfusionMatrix([[90, 10], [12, 88]]), intervals=False)
    assert rep.warnings == []
    assert "Warnings" not in render_text(rep)
    assert 'class="warn"' not in render_html(rep)


@pytest.mark.parametrize("swap", [False, True])
def test_cli_prints_the_auc_warning(tmp_path, capsys, swap: bool) -> None:
    from confmat.cli.app import main

    y, s = _binary(5, 200)
    score = 1 - s if swap else s
    f = tmp_path / "p.csv"
    f.write_text("y,yhat,p\n" + "".join(
        f"{a},{'sick' if b >= 0.5 else 'healthy'},{b}\n" for a, b in zip(y, score, strict=True)))
    assert main(["report", str(f), "--true", "y", "--pred", "yhat", "--score", "p",
                 "--pos-label", "sick", "-f", "json", "--no-intervals"]) == 0
    warns = json.loads(capsys.readouterr().out)["warnings"]
    assert any("below 0.5" in w for w in warns) == (roc_auc_score(y == "sick", score) < 0.5)
