"""Display objects (scikit-learn's convention) and the images they save.

Oracles: scikit-learn's curves and numpy counts; images are checked to be non-empty PNGs of
the size asked for, SVG and PDF by their headers.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import re

import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import matthews_corrcoef, precision_recall_curve, roc_auc_score, roc_curve

from confmat.plots import (
    ConfusionMatrixDisplay,
    PrecisionRecallDisplay,
    RocComparisonDisplay,
    RocCurveDisplay,
    ThresholdDisplay,
    draw_group_forest,
    plot_group_forest,
)


@pytest.fixture(scope="module")
def scored():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 250)
    s = np.clip(0.35 * y + 0.65 * rng.random(250), 0, 1).round(3)
    return y, s


def fresh_ax(w: float = 5.0, h: float = 4.0):
    fig = Figure(figsize=(w, h), dpi=100)
    return fig, fig.add_subplot()


def assert_png(path, size) -> None:
    with Image.open(path) as im:
        assert im.format == "PNG" and im.size == size
        arr = np.asarray(im.convert("RGB"))
    assert len(np.unique(arr.reshape(-1, 3), axis=0)) > 20  # drawn, not blank


def test_confusion_matrix_display(tmp_path) -> None:
    y = ["a", "b", "b", "c", "a", "c", "c"]
    p = ["a", "b", "c", "c", "b", "c", "a"]
    fig, ax = fresh_ax(6, 5)
    disp = ConfusionMatrixDisplay.from_predictions(y, p, ax=ax)
    assert disp.ax_ is ax and disp.figure_ is fig
    assert disp.confusion_matrix.tolist() == [[1, 1, 0], [0, 1, 1], [1, 0, 2]]
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 9 and texts[0] == "1\n50.0%" and texts[8] == "2\n66.7%"
    path = tmp_path / "cm.png"
    disp.savefig(path, bbox_inches=None)
    assert_png(path, (600, 500))
    disp.savefig(tmp_path / "cm.svg")
    disp.savefig(tmp_path / "cm.pdf")
    assert (tmp_path / "cm.svg").read_bytes().lstrip()[:5] in (b"<?xml", b"<svg ")
    assert (tmp_path / "cm.pdf").read_bytes()[:4] == b"%PDF"


def test_roc_display_matches_sklearn(scored, tmp_path) -> None:
    y, s = scored
    _fig, ax = fresh_ax()
    disp = RocCurveDisplay.from_predictions(y, s, ax=ax, name="model")
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(disp.fpr, fpr)
    np.testing.assert_allclose(disp.tpr, tpr)
    assert disp.roc_auc == pytest.approx(roc_auc_score(y, s))
    labels = [ln.get_label() for ln in ax.get_lines()]
    assert "chance" in labels and "perfect" in labels
    chance = ax.get_lines()[labels.index("chance")]
    assert list(chance.get_xdata()) == [0, 1] and list(chance.get_ydata()) == [0, 1]
    # thresholds 0.1 ... 0.9 are marked at the (FPR, TPR) of score >= theta
    marker = next(ln for ln in ax.get_lines() if ln.get_marker() == "o")
    expected = [(np.mean(s[y == 0] >= t), np.mean(s[y == 1] >= t)) for t in np.arange(1, 10) / 10]
    np.testing.assert_allclose(np.column_stack([marker.get_xdata(), marker.get_ydata()]),
                               expected)
    # labels name every threshold once; close points share one label
    named = []
    for text in (t.get_text() for t in ax.texts):
        for part in text.removeprefix("θ=").split(", "):
            lo, _, hi = part.partition("–")
            named += [round(v, 1) for v in np.arange(float(lo), float(hi or lo) + 1e-9, 0.1)]
    assert sorted(named) == pytest.approx(list(np.arange(1, 10) / 10))
    disp.savefig(tmp_path / "roc.png", bbox_inches=None)
    assert_png(tmp_path / "roc.png", (500, 400))


def test_pr_and_threshold_displays(scored, tmp_path) -> None:
    y, s = scored
    _fig, ax = fresh_ax()
    pr = PrecisionRecallDisplay.from_predictions(y, s, ax=ax)
    precision, recall, _ = precision_recall_curve(y, s, drop_intermediate=False)
    # the same points, read from high thresholds to low
    np.testing.assert_allclose(pr.recall, recall[::-1])
    np.testing.assert_allclose(pr.precision, precision[::-1])
    chance = next(ln for ln in ax.get_lines() if ln.get_label().startswith("chance"))
    assert chance.get_ydata()[0] == pytest.approx(np.mean(y))
    pr.savefig(tmp_path / "pr.png", bbox_inches=None)
    assert_png(tmp_path / "pr.png", (500, 400))
    _fig2, ax2 = fresh_ax(6.5, 4)
    th = ThresholdDisplay.from_predictions(y, s, ax=ax2)
    mcc = th.values("mcc")
    for i in (0, 10, 60, len(mcc) - 1):
        t = th.sweep.thresholds[i]
        assert mcc[i] == pytest.approx(matthews_corrcoef(y, s >= t), abs=1e-12)
    assert len(ax2.get_lines()) == 2
    th.savefig(tmp_path / "th.png", bbox_inches=None)
    assert_png(tmp_path / "th.png", (650, 400))


def test_from_estimator_and_comparison_with_inset(tmp_path) -> None:
    X, y = load_breast_cancer(return_X_y=True)
    X = (X - X.mean(0)) / X.std(0)
    clf = LogisticRegression(max_iter=500).fit(X[:400], y[:400])
    _fig, ax = fresh_ax()
    roc = RocCurveDisplay.from_estimator(clf, X[400:], y[400:], ax=ax)
    assert roc.roc_auc == pytest.approx(roc_auc_score(y[400:], clf.predict_proba(X[400:])[:, 1]))
    cmd = ConfusionMatrixDisplay.from_estimator(clf, X[400:], y[400:], ax=fresh_ax()[1])
    assert cmd.confusion_matrix.sum() == len(y) - 400
    weak = LogisticRegression(C=1e-4).fit(X[:400, :2], y[:400])
    _fig3, ax3 = fresh_ax(6, 6)
    cmp = RocComparisonDisplay.from_predictions(
        y[400:], {"full": clf.predict_proba(X[400:])[:, 1],
                  "two features": weak.predict_proba(X[400:, :2])[:, 1]}, ax=ax3)
    assert cmp.inset_ax_ is not None
    assert cmp.inset_ax_.get_xlim() == (0.0, 0.2) and cmp.inset_ax_.get_ylim() == (0.8, 1.0)
    assert len(cmp.inset_ax_.get_lines()) == 2
    cmp.savefig(tmp_path / "cmp.png", bbox_inches=None)
    assert_png(tmp_path / "cmp.png", (600, 600))
    with pytest.raises(ValueError, match="pos_label"):
        RocCurveDisplay.from_predictions([0, 1, 2], [0.1, 0.5, 0.9])
    with pytest.raises(ValueError, match="empty"):
        RocComparisonDisplay({})


def test_plots_take_pos_label_from_the_door_only() -> None:
    # string labels: no guess of the positive class; with pos_label the curve is that class's
    y = np.array(["healthy", "sick", "sick", "healthy", "sick"])
    s = np.array([0.2, 0.8, 0.6, 0.4, 0.3])
    with pytest.raises(ValueError, match="pos_label"):
        RocCurveDisplay.from_predictions(y, s, ax=fresh_ax()[1])
    with pytest.raises(ValueError, match="pos_label"):
        RocComparisonDisplay.from_predictions(y, {"a": s}, ax=fresh_ax()[1])
    sick = RocCurveDisplay.from_predictions(y, s, pos_label="sick", ax=fresh_ax()[1])
    assert sick.roc_auc == pytest.approx(roc_auc_score(y == "sick", s))
    healthy = RocCurveDisplay.from_predictions(y, s, pos_label="healthy", ax=fresh_ax()[1])
    assert healthy.roc_auc == pytest.approx(roc_auc_score(y == "healthy", s))
    with pytest.raises(TypeError, match="ThresholdSweep"):
        RocCurveDisplay([0.1, 0.2])


def _agg_figure(w: float, h: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = Figure(figsize=(w, h), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _boxes_overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _tick_label_boxes(fig, axes):
    renderer = fig.canvas.get_renderer()
    out = []
    for a in axes:
        for t in [*a.get_xticklabels(), *a.get_yticklabels()]:
            if t.get_visible() and t.get_text():
                out.append((t.get_text(), t.get_window_extent(renderer)))
    return out


@pytest.mark.parametrize("n_classes", [3, 10])
def test_one_vs_rest_roc_legend_in_class_order_clear_of_tick_labels(n_classes) -> None:
    from confmat.curves import threshold_sweep
    from confmat.plots.common import place_legend

    rng = np.random.default_rng(n_classes)
    y = rng.integers(0, n_classes, 400)
    fig = _agg_figure(5.6, 4.8)
    ax = fig.add_subplot()
    for k in range(n_classes):
        s = np.clip(0.4 * (y == k) + 0.6 * rng.random(400), 0, 1)
        RocCurveDisplay(threshold_sweep((y == k).astype(int), s)).plot(
            ax=ax, mark_thresholds=False, chance=k == 0, label=f"class {k}", legend=False)
    legend = place_legend(ax)
    fig.canvas.draw()
    texts = [t.get_text() for t in legend.get_texts()]
    # the classes in their order, the reference lines after them (chance was drawn first)
    assert texts == [f"class {k}" for k in range(n_classes)] + ["chance", "perfect"]
    box = legend.get_window_extent(fig.canvas.get_renderer())
    ticks = _tick_label_boxes(fig, [ax])
    assert len(ticks) >= 10
    assert [t for t, b in ticks if _boxes_overlap(box, b)] == []
    assert not _boxes_overlap(box, ax.xaxis.label.get_window_extent(fig.canvas.get_renderer()))


@pytest.mark.parametrize("n_models", [2, 5])
def test_comparison_legend_covers_no_tick_label_of_the_inset(n_models) -> None:
    from confmat.curves import threshold_sweep

    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 300)
    sweeps = {f"model {m}": threshold_sweep(y, np.clip((0.2 + 0.1 * m) * y + rng.random(300),
                                                       0, 2))
              for m in range(n_models)}
    fig = _agg_figure(6.0, 5.5)
    d = RocComparisonDisplay(sweeps).plot(ax=fig.add_subplot())
    fig.canvas.draw()
    legend = d.ax_.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [*sweeps, "chance"]
    box = legend.get_window_extent(fig.canvas.get_renderer())
    ticks = _tick_label_boxes(fig, [d.ax_, d.inset_ax_])
    assert len(ticks) >= 16
    assert [t for t, b in ticks if _boxes_overlap(box, b)] == []


@pytest.mark.parametrize("call, error, message", [
    (lambda: plot_group_forest([1, 2, 3], "recall"), TypeError,
     "ev must be a GroupedEvaluation (made by confmat.by_group), got list"),
    (lambda: draw_group_forest([1]), TypeError, "forest must be a mapping"),
    (lambda: draw_group_forest({"metric": "recall"}), ValueError,
     "forest lacks the key(s) 'method', 'level'"),
    (lambda: draw_group_forest({"metric": "r", "method": "wilson", "level": 0.95,
                                "names": ["site"], "groups": ["a"], "sizes": [1, 2],
                                "small": [False], "estimate": [1.0], "low": [0.5],
                                "high": [1.0]}), ValueError,
     "forest's per-group lists must have one entry per group, got lengths groups=1, sizes=2"),
])
def test_group_forest_refuses_what_it_cannot_draw(call, error, message) -> None:
    # an AttributeError from inside matplotlib code ('list' object has no attribute 'ci')
    # was all a wrong argument gave
    with pytest.raises(error, match=re.escape(message)):
        call()
