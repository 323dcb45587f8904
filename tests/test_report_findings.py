"""The warnings and findings at the top of a report, in every format.

Oracles: ``sklearn.metrics.roc_auc_score`` for the area, supports and majority shares counted
with numpy here.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, roc_auc_score

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
@example(733, True)  # an area of exactly 0.2375, a rounding tie at three decimals
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
        # three decimals of the area: scikit-learn's float may sit an ulp across a rounding
        # tie from the exact area (0.2375 exactly here prints 0.237, its 0.23750000000000002
        # prints 0.238), so the printed value is checked against the area within half a unit
        shown = re.search(r"ROC AUC (\d\.\d{3}) ", w)
        assert shown and abs(float(shown[1]) - auc) <= 0.0005 + 1e-12, (w, auc)
        assert "pos_label='healthy'" in w
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


def _multiclass(seed: int, k: int, n: int = 400):
    rng = np.random.default_rng(seed)
    labels = [f"c{i}" for i in range(k)]
    y = rng.choice(labels, n)
    p = rng.dirichlet(np.ones(k), n)
    p[np.arange(n), [labels.index(v) for v in y]] += rng.random(n)
    p /= p.sum(1, keepdims=True)
    return labels, y, p


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5))
def test_headline_fits_the_task_and_matches_sklearn(seed: int, k: int) -> None:
    from sklearn.metrics import (
        accuracy_score,
        average_precision_score,
        balanced_accuracy_score,
        cohen_kappa_score,
        f1_score,
        matthews_corrcoef,
    )

    labels, y, p = _multiclass(seed, k)
    pred = np.array(labels)[p.argmax(1)]
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, labels=labels)
    pos = labels[1] if k == 2 else None
    score = p[:, 1] if k == 2 else p
    rep = build_report(cm, y_true=y, y_score=score, y_pred=pred, pos_label=pos,
                       intervals=False)
    got = {m.name: m.value for m in rep.headline}
    want = {"accuracy": accuracy_score(y, pred),
            "balanced_accuracy": balanced_accuracy_score(y, pred),
            "mcc": matthews_corrcoef(y, pred)}
    if k == 2:
        want["f1"] = f1_score(y, pred, pos_label=pos)
        want["roc_auc"] = roc_auc_score(y == pos, score)
        want["average_precision"] = average_precision_score(y == pos, score)
    else:
        want["f1_macro"] = f1_score(y, pred, average="macro")
        want["kappa"] = cohen_kappa_score(y, pred)
        want["roc_auc"] = np.mean([roc_auc_score(y == c, p[:, i])
                                   for i, c in enumerate(labels)])
        want["average_precision"] = np.mean([average_precision_score(y == c, p[:, i])
                                             for i, c in enumerate(labels)])
    assert list(got) == list(want)  # exactly these, in this order; mcc_yao2022 is not one
    for name, v in want.items():
        assert got[name] == pytest.approx(v, abs=1e-9), name


def test_headline_intervals_and_findings() -> None:
    from sklearn.metrics import recall_score

    labels, y, p = _multiclass(4, 4, 300)
    pred = np.array(labels)[p.argmax(1)]
    cm = confmat.ConfusionMatrix.from_predictions(y, pred, labels=labels)
    rep = build_report(cm, n_resamples=300)
    for m in rep.headline:
        assert m.interval is not None and m.interval[0] <= m.value <= m.interval[1], m.name
    rec = recall_score(y, pred, labels=labels, average=None)
    weakest = labels[int(np.argmin(rec))]
    table = confusion_matrix(y, pred, labels=labels).astype(float)
    np.fill_diagonal(table, -1)
    i, j = np.unravel_index(np.argmax(table), table.shape)
    assert rep.findings[0].startswith(f"weakest class: {weakest}, recall {rec.min():.3f} [")
    assert rep.findings[1].startswith(
        f"largest confusion: true {labels[i]} predicted as {labels[j]}, {int(table[i, j])} time")
    text = render_text(rep)
    assert text.index("Findings") < text.index("Confusion matrix")
    page = render_html(rep)
    assert page.index("<h2>Findings</h2>") < page.index("<h2>Confusion matrix</h2>")
    head = page[page.index("<h2>Findings</h2>"):page.index("<h2>Confusion matrix</h2>")]
    assert "mcc_yao2022" not in head and ">kappa<" in head
    assert "<details class='family'><summary>summary (" in page  # the rest, by family
    frag = rep._repr_html_()  # the notebook shows the headline view, not every metric
    assert "mcc_yao2022" not in frag and "weakest class" in frag and "kappa" in frag
    def content(html: str) -> str:  # the markup without the (shared) style sheet
        return re.sub(r"<style>.*?</style>", "", html, flags=re.S)

    assert len(content(frag)) < len(content(page)) / 4
    assert json.loads(render_json(rep))["findings"] == rep.findings


def test_confusion_matrix_notebook_view_shows_the_headline() -> None:
    from sklearn.metrics import f1_score

    y = [0, 0, 1, 1, 2, 2, 2]
    pred = [0, 1, 1, 1, 2, 0, 2]
    html = confmat.ConfusionMatrix.from_predictions(y, pred)._repr_html_()
    assert "mcc_yao2022" not in html and "kappa" in html
    assert f"f1_macro <b>{f1_score(y, pred, average='macro'):.4f}</b>" in html


def test_largest_confusion_counts_exactly_and_in_the_singular() -> None:
    # counts beyond 2**53 print as integers (float64 would round them), one time in the singular
    from confmat.report.findings import largest_confusion

    big = 2**62 - 3
    assert largest_confusion([0, 1], np.array([[2**62, big], [1, 2]])) == (
        f"largest confusion: true 0 predicted as 1, {big} times (50.0% of 0)")
    assert largest_confusion(["a", "b"], [[3, 1], [0, 4]]).endswith(", 1 time (25.0% of a)")
    assert largest_confusion(["a", "b"], [[3.0, 2.5], [0.0, 4.0]]).endswith(
        ", 2.5 times (45.5% of a)")


def test_weakest_class_and_small_classes_write_counts_in_full() -> None:
    from confmat.report.findings import support_warnings, weakest_class

    # 0.6 * 2,000,000 is 1,200,000 found; :g wrote 1.2e+06 of 2e+06
    assert weakest_class(["a", "b"], [0.9, 0.6], None, [3_000_000, 2_000_000]) == (
        "weakest class: b, recall 0.600 (1200000 of its 2000000 samples found)")
    assert weakest_class(["a", "b"], [0.9, 0.5], None, [3.0, 2.5]).endswith(
        "(1.25 of its 2.5 samples found)")
    assert support_warnings(["a", "b"], [1_500_000, 12])[0].startswith(
        "class b has only 12 true samples")
    # with the diagonal, counts past 2**53 exactly (recall times support would round them)
    big = [[2**62, 2**62 - 4], [1, 2]]
    assert weakest_class([0, 1], [0.5, 2 / 3], None, np.sum(big, axis=1), np.diagonal(big)) == (
        f"weakest class: 0, recall 0.500 ({2**62} of its {2**63 - 4} samples found)")

