"""Plots as objects, following scikit-learn's Display convention.

Each display is built with ``from_predictions`` (or ``from_estimator``, or from a
:class:`~confmat.ConfusionMatrix`), keeps the computed data as attributes, and draws with
``.plot(ax=None, ...)``, which sets ``.figure_`` and ``.ax_`` and returns the display.
``.savefig(path)`` writes PNG, SVG or PDF (from the file's extension). Matplotlib is imported
only when a plot is drawn (``pip install confmat[plot]``).

Displays:

- :class:`ConfusionMatrixDisplay` - heatmap with counts and row percentages (the book's
  accuracy matrix);
- :class:`RocCurveDisplay` - ROC curve with the chance diagonal, the perfect point and the
  thresholds 0.1 ... 0.9 marked (the book's Figure 11-1);
- :class:`PrecisionRecallDisplay` - PR curve with the chance level (the prevalence);
- :class:`ThresholdDisplay` - registry metrics against the decision threshold (Figure 11-2);
- :class:`RocComparisonDisplay` - several models' ROC curves with a zoomed inset of the
  top-left corner (Figure 11-3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .matrix import ConfusionMatrix
from .metrics import get_metric
from .report.model import ThresholdCurve, threshold_curve

__all__ = [
    "ConfusionMatrixDisplay",
    "PrecisionRecallDisplay",
    "RocComparisonDisplay",
    "RocCurveDisplay",
    "ThresholdDisplay",
]


def _new_ax(ax: Any, figsize: tuple[float, float] = (5.0, 4.5)) -> tuple[Any, Any]:
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:  # pragma: no cover - matplotlib is in the plot extra
        raise ImportError("plots need matplotlib: pip install 'confmat[plot]'") from exc
    if ax is not None:
        return ax.figure, ax
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize)
    return fig, ax


def _scores_of(estimator: Any, X: Any, response_method: str = "auto") -> tuple[np.ndarray, list]:
    classes = list(getattr(estimator, "classes_", []))
    methods = ["predict_proba", "decision_function"] if response_method == "auto" else [
        response_method]
    for m in methods:
        fn = getattr(estimator, m, None)
        if fn is not None:
            s = np.asarray(fn(X), dtype=np.float64)
            if s.ndim == 2 and s.shape[1] == 2:
                s = s[:, 1]
            return s, classes
    raise TypeError(
        f"estimator {type(estimator).__name__} has neither predict_proba nor decision_function"
    )


def _annotate_thresholds(ax: Any, points: list[tuple[float, float, float]],
                         offset: tuple[float, float], min_gap: float = 0.07) -> None:
    """Label marked thresholds; points closer than ``min_gap`` to one already labelled share
    its label (``θ=0.6-0.8``) instead of overprinting it."""
    groups: list[list[tuple[float, float, float]]] = []
    for x, y, t in points:
        for g in groups:
            if abs(g[0][0] - x) < min_gap and abs(g[0][1] - y) < min_gap:
                g.append((x, y, t))
                break
        else:
            groups.append([(x, y, t)])
    order = sorted(t for _, _, t in points)
    for g in groups:
        ts = sorted(t for _, _, t in g)
        pos = [order.index(t) for t in ts]
        if len(ts) == 1:
            text = f"θ={ts[0]:.2g}"
        elif pos == list(range(pos[0], pos[0] + len(pos))):
            text = f"θ={ts[0]:.2g}–{ts[-1]:.2g}"
        else:
            text = "θ=" + ", ".join(f"{t:.2g}" for t in ts)
        ax.annotate(text, (g[0][0], g[0][1]), textcoords="offset points", xytext=offset,
                    fontsize=7)


class _Saving:
    figure_: Any
    ax_: Any

    def savefig(self, path: Any, **kwargs: Any) -> Any:
        """Save the drawn figure (PNG, SVG or PDF from the extension); draws it first if
        needed."""
        if getattr(self, "figure_", None) is None:
            self.plot()  # type: ignore[attr-defined]
        kwargs.setdefault("bbox_inches", "tight")
        self.figure_.savefig(path, **kwargs)
        return path


class ConfusionMatrixDisplay(_Saving):
    """Confusion-matrix heatmap: counts, and each row's percentages (the accuracy matrix).

    Parameters
    ----------
    confusion_matrix : ConfusionMatrix or array-like of shape (K, K)
        Rows = true class, columns = predicted class.
    display_labels : sequence, optional
        Tick labels (default: the matrix's labels).

    Examples
    --------
    >>> disp = ConfusionMatrixDisplay.from_predictions([0, 1, 1], [0, 1, 0])  # doctest: +SKIP
    >>> disp.plot(cmap="Blues").savefig("cm.png")                             # doctest: +SKIP
    """

    def __init__(self, confusion_matrix: Any, *, display_labels: Sequence[Any] | None = None):
        cm = confusion_matrix if isinstance(confusion_matrix, ConfusionMatrix) \
            else ConfusionMatrix(confusion_matrix)
        self.confusion_matrix = np.asarray(cm.counts)
        self.display_labels = list(display_labels) if display_labels is not None else cm.labels
        self.row_percentages = cm.accuracy_matrix()
        self.figure_ = None
        self.ax_ = None

    @classmethod
    def from_predictions(cls, y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None,
                         sample_weight: Any = None, ax: Any = None,
                         **plot_kw: Any) -> ConfusionMatrixDisplay:
        cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                              sample_weight=sample_weight)
        return cls(cm).plot(ax=ax, **plot_kw)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: Any, *, labels: Sequence[Any] | None = None,
                       sample_weight: Any = None, ax: Any = None,
                       **plot_kw: Any) -> ConfusionMatrixDisplay:
        cm = ConfusionMatrix.from_estimator(estimator, X, y, labels=labels,
                                            sample_weight=sample_weight)
        return cls(cm).plot(ax=ax, **plot_kw)

    def plot(self, ax: Any = None, *, cmap: str = "Blues", percentages: bool = True,
             colorbar: bool = True, title: str | None = None) -> ConfusionMatrixDisplay:
        """Draw the heatmap; colour encodes the row percentage so classes of different sizes
        compare fairly, each cell shows its count and (``percentages``) its row percentage."""
        k = len(self.display_labels)
        size = max(4.0, min(12.0, 1.0 + 0.7 * k))
        fig, ax = _new_ax(ax, (size + 1, size))
        pct = self.row_percentages
        im = ax.imshow(pct, cmap=cmap, vmin=0, vmax=100)
        fs = 10 if k <= 6 else (8 if k <= 12 else 6)
        for i in range(k):
            for j in range(k):
                c = self.confusion_matrix[i, j]
                txt = f"{c:g}" + (f"\n{pct[i, j]:.1f}%" if percentages else "")
                ax.text(j, i, txt, ha="center", va="center", fontsize=fs,
                        color="white" if pct[i, j] > 55 else "black")
        names = [str(v) for v in self.display_labels]
        ax.set_xticks(range(k), names, rotation=45 if max(map(len, names)) > 4 else 0,
                      ha="right" if max(map(len, names)) > 4 else "center")
        ax.set_yticks(range(k), names)
        ax.set_xlabel("predicted class")
        ax.set_ylabel("true class")
        if title:
            ax.set_title(title)
        if colorbar:
            fig.colorbar(im, ax=ax, label="% of true class")
        self.figure_, self.ax_ = fig, ax
        return self


class _CurveDisplay(_Saving):
    def __init__(self, curve: ThresholdCurve, *, name: str | None = None):
        if not isinstance(curve, ThresholdCurve):
            raise TypeError(f"curve must be a ThresholdCurve, got {type(curve).__name__}")
        self.curve = curve
        self.name = name
        self.figure_ = None
        self.ax_ = None

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, pos_label: Any = None,
                         sample_weight: Any = None, name: str | None = None, ax: Any = None,
                         **plot_kw: Any) -> Any:
        """Build from true labels and positive-class scores (``pos_label`` defaults to the
        larger of two labels, as scikit-learn's)."""
        y = np.asarray(y_true)
        if pos_label is None:
            classes = np.unique(y)
            if len(classes) > 2:
                raise ValueError(
                    f"y_true has {len(classes)} classes; give pos_label for a one-vs-rest curve"
                )
            pos_label = classes[-1].item() if len(classes) else 1
        curve = threshold_curve(y, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return cls(curve, name=name).plot(ax=ax, **plot_kw)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: Any, *, pos_label: Any = None,
                       sample_weight: Any = None, name: str | None = None,
                       response_method: str = "auto", ax: Any = None, **plot_kw: Any) -> Any:
        """Build from a fitted binary classifier's ``predict_proba`` (or
        ``decision_function``)."""
        s, classes = _scores_of(estimator, X, response_method)
        if s.ndim != 1:
            raise ValueError("from_estimator draws binary problems; use from_predictions with "
                             "pos_label and that class's score column")
        if pos_label is None and classes:
            pos_label = classes[-1]
        return cls.from_predictions(y, s, pos_label=pos_label, sample_weight=sample_weight,
                                    name=name or type(estimator).__name__, ax=ax, **plot_kw)


class RocCurveDisplay(_CurveDisplay):
    """ROC curve with the chance diagonal, the perfect point and thresholds marked.

    Attributes after construction: ``curve`` (the cumulative counts), ``fpr``, ``tpr``,
    ``roc_auc``; after ``plot``: ``figure_``, ``ax_``.
    """

    @property
    def fpr(self) -> np.ndarray:
        return self.curve.roc()[0]

    @property
    def tpr(self) -> np.ndarray:
        return self.curve.roc()[1]

    @property
    def roc_auc(self) -> float | None:
        return self.curve.auc

    def plot(self, ax: Any = None, *, mark_thresholds: bool = True, chance: bool = True,
             label: str | None = None, title: str | None = None, **line_kw: Any) -> RocCurveDisplay:
        fig, ax = _new_ax(ax)
        fpr, tpr = self.curve.roc()
        if label is None:
            label = self.name or f"class {self.curve.pos_label}"
            if self.curve.auc is not None:
                label += f" (AUC = {self.curve.auc:.3f})"
        ax.plot(fpr, tpr, drawstyle="default", label=label, **line_kw)
        if chance:
            ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="chance")
            ax.plot([0], [1], marker="*", markersize=12, color="gold", markeredgecolor="black",
                    linestyle="none", label="perfect")
        if mark_thresholds:
            pts = self.curve.marked()
            ax.plot([p["fpr"] for p in pts], [p["tpr"] for p in pts], "o", markersize=4,
                    color="black")
            _annotate_thresholds(ax, [(p["fpr"], p["tpr"], p["threshold"]) for p in pts],
                                 (5, -10))
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_xlabel("false positive rate (1 − specificity)")
        ax.set_ylabel("true positive rate (recall)")
        ax.set_aspect("equal")
        ax.legend(loc="lower right", fontsize=8)
        if title:
            ax.set_title(title)
        self.figure_, self.ax_ = fig, ax
        return self


class PrecisionRecallDisplay(_CurveDisplay):
    """Precision-recall curve with the chance level (the positive prevalence) and thresholds
    marked."""

    @property
    def recall(self) -> np.ndarray:
        return self.curve.pr()[0]

    @property
    def precision(self) -> np.ndarray:
        return self.curve.pr()[1]

    @property
    def average_precision(self) -> float | None:
        return self.curve.average_precision

    def plot(self, ax: Any = None, *, mark_thresholds: bool = True, chance: bool = True,
             label: str | None = None, title: str | None = None,
             **line_kw: Any) -> PrecisionRecallDisplay:
        fig, ax = _new_ax(ax)
        recall, precision = self.curve.pr()
        if label is None:
            label = self.name or f"class {self.curve.pos_label}"
            if self.curve.average_precision is not None:
                label += f" (AP = {self.curve.average_precision:.3f})"
        ax.plot(recall, precision, drawstyle="steps-post", label=label, **line_kw)
        c = self.curve
        total = c.positives + c.negatives
        if chance and total:
            ax.axhline(c.positives / total, linestyle="--", color="grey", linewidth=1,
                       label="chance (prevalence)")
        if mark_thresholds:
            pts = c.marked()
            ax.plot([p["tpr"] for p in pts], [p["precision"] for p in pts], "o", markersize=4,
                    color="black")
            _annotate_thresholds(ax, [(p["tpr"], p["precision"], p["threshold"]) for p in pts],
                                 (-10, -12))
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.05)
        ax.set_xlabel("recall (true positive rate)")
        ax.set_ylabel("precision (PPV)")
        ax.legend(loc="lower left", fontsize=8)
        if title:
            ax.set_title(title)
        self.figure_, self.ax_ = fig, ax
        return self


class ThresholdDisplay(_CurveDisplay):
    """Registry metrics against the decision threshold (rule ``score >= θ``), e.g. the book's
    Figure 11-2 (MCC and PPV).

    ``plot(metrics=...)`` takes registry names or aliases; per-class metrics are those of the
    positive class.
    """

    def values(self, name: str) -> np.ndarray:
        """The metric at every threshold in ``curve.thresholds``."""
        return self.curve.metric(name)

    def plot(self, ax: Any = None, *, metrics: Sequence[str] = ("mcc", "precision"),
             title: str | None = None) -> ThresholdDisplay:
        fig, ax = _new_ax(ax, (6.0, 4.0))
        t = self.curve.thresholds
        markers = "osd^v<>"
        for i, m in enumerate(metrics):
            spec = get_metric(m)
            ax.plot(t, self.values(spec.name), marker=markers[i % len(markers)],
                    markevery=max(1, len(t) // 25), markersize=4, label=spec.full_name)
        ax.set_xlabel("decision threshold θ (predict positive when score ≥ θ)")
        ax.set_ylabel("metric value")
        ax.legend(fontsize=8, loc="lower center")
        ax.grid(alpha=0.3)
        if title:
            ax.set_title(title)
        self.figure_, self.ax_ = fig, ax
        return self


class RocComparisonDisplay(_Saving):
    """Several models' ROC curves on one plot, with a zoomed inset of the top-left corner.

    Parameters
    ----------
    curves : mapping name -> ThresholdCurve
    """

    def __init__(self, curves: Mapping[str, ThresholdCurve]):
        if not curves:
            raise ValueError("curves is empty: give at least one model")
        self.curves = dict(curves)
        self.figure_ = None
        self.ax_ = None
        self.inset_ax_ = None

    @classmethod
    def from_predictions(cls, y_true: Any, scores: Mapping[str, Any], *, pos_label: Any = None,
                         sample_weight: Any = None, ax: Any = None,
                         **plot_kw: Any) -> RocComparisonDisplay:
        y = np.asarray(y_true)
        if pos_label is None:
            classes = np.unique(y)
            if len(classes) > 2:
                raise ValueError("give pos_label: y_true has more than two classes")
            pos_label = classes[-1].item()
        curves = {str(k): threshold_curve(y, s, pos_label=pos_label, sample_weight=sample_weight)
                  for k, s in scores.items()}
        return cls(curves).plot(ax=ax, **plot_kw)

    @classmethod
    def from_estimators(cls, estimators: Mapping[str, Any], X: Any, y: Any, *,
                        pos_label: Any = None, ax: Any = None,
                        **plot_kw: Any) -> RocComparisonDisplay:
        scores = {k: _scores_of(e, X)[0] for k, e in estimators.items()}
        return cls.from_predictions(y, scores, pos_label=pos_label, ax=ax, **plot_kw)

    def plot(self, ax: Any = None, *, inset: bool = True,
             zoom: tuple[float, float, float, float] = (0.0, 0.2, 0.8, 1.0),
             title: str | None = None) -> RocComparisonDisplay:
        """Draw every curve; ``zoom = (x0, x1, y0, y1)`` is the inset's window."""
        fig, ax = _new_ax(ax, (6.0, 5.5))
        ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="chance")
        lines = []
        for name, c in self.curves.items():
            fpr, tpr = c.roc()
            lab = name + ("" if c.auc is None else f" (AUC = {c.auc:.3f})")
            (ln,) = ax.plot(fpr, tpr, label=lab)
            lines.append((ln, fpr, tpr))
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate")
        ax.legend(loc="lower right", fontsize=8)
        if inset:
            x0, x1, y0, y1 = zoom
            axins = ax.inset_axes([0.35, 0.3, 0.45, 0.45])
            for ln, fpr, tpr in lines:
                axins.plot(fpr, tpr, color=ln.get_color())
            axins.set_xlim(x0, x1)
            axins.set_ylim(y0, y1)
            axins.tick_params(labelsize=7)
            axins.set_title("top-left corner", fontsize=8)
            ax.indicate_inset_zoom(axins, edgecolor="black")
            self.inset_ax_ = axins
        if title:
            ax.set_title(title)
        self.figure_, self.ax_ = fig, ax
        return self
