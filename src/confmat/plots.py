"""Plots as objects, following scikit-learn's Display convention.

Each display is built with ``from_predictions`` (or ``from_estimator``, or from a
:class:`~confmat.ConfusionMatrix` / a :class:`~confmat.curves.ThresholdSweep`), keeps the
computed data as attributes, and draws with ``.plot(ax=None, ...)``, which sets ``.figure_``
and ``.ax_`` and returns the display. ``.savefig(path)`` writes PNG, SVG or PDF (from the
file's extension). Matplotlib is imported only when a plot is drawn
(``pip install confmat[plot]``).

The curve displays take a :class:`~confmat.curves.ThresholdSweep` (per-threshold 2 x 2
tables) and read every value through its public API and the metric registry; areas are plain
arguments. The positive class is never decided here: ``from_predictions`` hands ``pos_label``
to :func:`confmat.curves.threshold_sweep`, whose input door
(:func:`confmat.inputs.targets.resolve_pos_label`) applies confmat's one rule.

Displays:

- :class:`ConfusionMatrixDisplay` - heatmap with counts and row percentages (the accuracy
  matrix of Kneusel 2021, ch. 11);
- :class:`RocCurveDisplay` - ROC curve with the chance diagonal, the perfect point and the
  thresholds 0.1 ... 0.9 marked (as in Kneusel 2021, Figure 11-1);
- :class:`PrecisionRecallDisplay` - PR curve with the chance level (the prevalence);
- :class:`ThresholdDisplay` - registry metrics against the decision threshold (Kneusel 2021,
  Figure 11-2);
- :class:`RocComparisonDisplay` - several models' ROC curves with a zoomed inset of the
  top-left corner (Kneusel 2021, Figure 11-3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .curves import ThresholdSweep, average_precision, roc_auc, threshold_sweep
from .inputs.targets import binary_target, encode_truth, resolve_pos_label
from .matrix import ConfusionMatrix
from .metrics import Stats, evaluate, get_metric

__all__ = [
    "MARKED_THRESHOLDS",
    "ConfusionMatrixDisplay",
    "PrecisionRecallDisplay",
    "RocComparisonDisplay",
    "RocCurveDisplay",
    "ThresholdDisplay",
    "marked_points",
    "sweep_from_predictions",
    "sweep_metric",
    "thin_index",
]

#: the thresholds marked on ROC and PR curves (as in Kneusel 2021, Figure 11-1)
MARKED_THRESHOLDS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def thin_index(m: int, max_points: int | None) -> np.ndarray:
    """Indices of at most ``max_points`` evenly spaced points out of ``m`` (first and last kept).

    Parameters
    ----------
    m : int
        Number of points.
    max_points : int or None
        Largest number of points to keep; None keeps all.

    Returns
    -------
    ndarray of int64
        Increasing indices into the ``m`` points.

    Examples
    --------
    >>> thin_index(10, 4).tolist()
    [0, 3, 6, 9]
    >>> thin_index(3, 4).tolist()
    [0, 1, 2]
    """
    if max_points is None or m <= max_points:
        return np.arange(m, dtype=np.int64)
    return np.unique(np.linspace(0, m - 1, max_points).round().astype(np.int64))


def sweep_metric(sweep: ThresholdSweep, name: str, index: Any = None,
                 zero_division: Any = 0) -> np.ndarray:
    """A registry metric of the positive class at the sweep's thresholds (or some of them).

    The stacked 2 x 2 tables (``sweep.tables``, layout ``[[TN, FP], [FN, TP]]``) go through
    :func:`confmat.metrics.evaluate`; per-class metrics are those of the positive class.

    Parameters
    ----------
    sweep : ThresholdSweep
    name : str
        Registry name or alias.
    index : array-like of int, optional
        Positions in ``sweep.thresholds`` (default: all).
    zero_division : 0, 1, nan or "warn"
        Value of undefined ratios.

    Returns
    -------
    ndarray of float64, shape (len(index),)

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> sweep_metric(sw, "precision", [0, 2]).round(3).tolist()
    [1.0, 0.667]
    """
    tables = sweep.tables if index is None else sweep.tables[np.asarray(index, np.int64)]
    spec = get_metric(name)
    out = evaluate(spec.name, Stats(np.asarray(tables, np.float64), zero_division=zero_division),
                   None, warn=False)
    return np.asarray(out[..., 1] if spec.kind == "per_class" else out, np.float64)


def sweep_from_predictions(y_true: Any, y_score: Any, *, pos_label: Any = None,
                           sample_weight: Any = None
                           ) -> tuple[ThresholdSweep, float | None, float | None]:
    """The threshold sweep, ROC AUC and average precision of one score vector.

    ``pos_label`` is resolved by the input door (:func:`confmat.inputs.targets.binary_target`):
    labels {0, 1}, {-1, 1} or {False, True} need none, any others do.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_score : array-like of shape (n,)
        Scores of the positive class.
    pos_label : label, optional
    sample_weight : array-like of shape (n,), optional

    Returns
    -------
    sweep : ThresholdSweep
        Counts at every distinct score (rule ``score >= threshold``).
    auc, average_precision : float or None
        None when ``y_true`` has one class only.

    Raises
    ------
    ValueError
        Labels other than {0, 1}, {-1, 1}, {False, True} without ``pos_label``; bad scores.

    Examples
    --------
    >>> sw, auc, ap = sweep_from_predictions(["a", "b", "b"], [0.2, 0.9, 0.4], pos_label="b")
    >>> sw.labels, auc, ap
    (['a', 'b'], 1.0, 1.0)
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    sweep = threshold_sweep(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if b.pos.all() or not b.pos.any():
        return sweep, None, None
    return (sweep, float(roc_auc(b.pos, b.score, sample_weight=b.weight)),
            float(average_precision(b.pos, b.score, sample_weight=b.weight)))


def marked_points(sweep: ThresholdSweep,
                  thresholds: Sequence[float] | None = None) -> list[dict[str, float]]:
    """FPR, TPR and precision at a few thresholds, from the registry.

    By default the thresholds 0.1 ... 0.9 (:data:`MARKED_THRESHOLDS`) when the scores lie in
    [0, 1], else five score quantiles. Counts come from :meth:`ThresholdSweep.at` (exact at
    any threshold).

    Parameters
    ----------
    sweep : ThresholdSweep
    thresholds : sequence of float, optional

    Returns
    -------
    list of dict
        ``{"threshold", "fpr", "tpr", "precision"}`` per threshold (an empty prediction has
        precision 1, as on scikit-learn's PR curve).

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> marked_points(sw, [0.3])
    [{'threshold': 0.3, 'fpr': 0.5, 'tpr': 1.0, 'precision': 0.6666666666666666}]
    """
    if thresholds is None:
        t = np.asarray(sweep.thresholds, np.float64)
        if len(t) and t.min() >= 0.0 and t.max() <= 1.0:
            thresholds = list(MARKED_THRESHOLDS)
        elif len(t):
            thresholds = [float(v) for v in np.quantile(t, [0.1, 0.3, 0.5, 0.7, 0.9])]
        else:
            thresholds = []
    ts = [float(v) for v in thresholds]
    if not ts:
        return []
    tables = np.stack([np.asarray(sweep.at(t).counts, np.float64) for t in ts])

    def per_class(name: str, zd: Any) -> np.ndarray:
        return np.asarray(evaluate(name, Stats(tables, zero_division=zd), None, warn=False)
                          )[..., 1]

    fpr, tpr, ppv = per_class("fpr", 0), per_class("recall", 0), per_class("precision", 1)
    return [{"threshold": t, "fpr": float(a), "tpr": float(b), "precision": float(c)}
            for t, a, b, c in zip(ts, fpr, tpr, ppv, strict=True)]


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


def _scores_of(estimator: Any, X: Any, y: Any, pos_label: Any,
               response_method: str = "auto") -> tuple[np.ndarray, Any]:
    """Scores of the positive class from a fitted binary classifier, and that class.

    The positive class is resolved by the input door from the estimator's ``classes_`` (or
    the classes of ``y``); the score column is the one of that class.
    """
    classes = list(getattr(estimator, "classes_", [])) or encode_truth(y)[0]
    pos = resolve_pos_label([c.item() if isinstance(c, np.generic) else c for c in classes],
                            pos_label)
    k = [c.item() if isinstance(c, np.generic) else c for c in classes].index(pos)
    methods = ["predict_proba", "decision_function"] if response_method == "auto" else [
        response_method]
    for m in methods:
        fn = getattr(estimator, m, None)
        if fn is None:
            continue
        s = np.asarray(fn(X), dtype=np.float64)
        if s.ndim == 2:
            if s.shape[1] != len(classes):
                raise ValueError(f"{m} gave {s.shape[1]} columns for {len(classes)} classes")
            return s[:, k], pos
        if len(classes) != 2:
            raise ValueError("from_estimator draws binary problems; use from_predictions with "
                             "pos_label and that class's score column")
        return (s if k == 1 else -s), pos  # decision_function scores classes_[1]
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
        needed.

        Parameters
        ----------
        path : str or path-like
        **kwargs
            Passed to ``Figure.savefig`` (``bbox_inches="tight"`` by default).

        Returns
        -------
        path

        Examples
        --------
        >>> import os, tempfile
        >>> from matplotlib.figure import Figure
        >>> d = ConfusionMatrixDisplay([[3, 1], [0, 4]]).plot(ax=Figure().add_subplot())
        >>> out = d.savefig(os.path.join(tempfile.mkdtemp(), "cm.svg"))
        >>> os.path.getsize(out) > 0
        True
        """
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
    >>> from matplotlib.figure import Figure
    >>> disp = ConfusionMatrixDisplay.from_predictions([0, 1, 1], [0, 1, 0],
    ...                                                ax=Figure().add_subplot())
    >>> disp.confusion_matrix.tolist(), disp.row_percentages.tolist()
    ([[1, 0], [1, 1]], [[100.0, 0.0], [50.0, 50.0]])
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
        """Count the predictions and draw.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n,)
        labels : sequence, optional
            Classes and their order (default: those seen, sorted).
        sample_weight : array-like, optional
        ax : matplotlib Axes, optional
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        ConfusionMatrixDisplay

        Raises
        ------
        ValueError
            Inputs of different lengths or bad labels (from :class:`ConfusionMatrix`).

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> d = ConfusionMatrixDisplay.from_predictions(["a", "b"], ["a", "a"],
        ...                                             ax=Figure().add_subplot())
        >>> d.display_labels
        ['a', 'b']
        """
        cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels,
                                              sample_weight=sample_weight)
        return cls(cm).plot(ax=ax, **plot_kw)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: Any, *, labels: Sequence[Any] | None = None,
                       sample_weight: Any = None, ax: Any = None,
                       **plot_kw: Any) -> ConfusionMatrixDisplay:
        """Predict ``X`` with a fitted classifier, count against ``y`` and draw.

        Parameters
        ----------
        estimator : fitted classifier
        X, y : array-like
        labels, sample_weight, ax, **plot_kw
            As in :meth:`from_predictions`.

        Returns
        -------
        ConfusionMatrixDisplay

        Examples
        --------
        >>> from sklearn.dummy import DummyClassifier
        >>> from matplotlib.figure import Figure
        >>> clf = DummyClassifier(strategy="constant", constant=1).fit([[0], [1]], [0, 1])
        >>> ConfusionMatrixDisplay.from_estimator(clf, [[0], [1]], [0, 1],
        ...                                       ax=Figure().add_subplot()).confusion_matrix.tolist()
        [[0, 1], [0, 1]]
        """
        cm = ConfusionMatrix.from_estimator(estimator, X, y, labels=labels,
                                            sample_weight=sample_weight)
        return cls(cm).plot(ax=ax, **plot_kw)

    def plot(self, ax: Any = None, *, cmap: str = "Blues", percentages: bool = True,
             colorbar: bool = True, title: str | None = None) -> ConfusionMatrixDisplay:
        """Draw the heatmap; colour encodes the row percentage so classes of different sizes
        compare fairly, each cell shows its count and (``percentages``) its row percentage.

        Parameters
        ----------
        ax : matplotlib Axes, optional
        cmap : str
        percentages : bool
        colorbar : bool
        title : str, optional

        Returns
        -------
        ConfusionMatrixDisplay

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> d = ConfusionMatrixDisplay([[3, 1], [0, 4]]).plot(ax=Figure().add_subplot())
        >>> d.ax_.texts[0].get_text()
        '3\\n75.0%'
        """
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
    """A display of one :class:`~confmat.curves.ThresholdSweep` (positive class
    ``sweep.labels[1]``)."""

    def __init__(self, sweep: ThresholdSweep, *, roc_auc: float | None = None,
                 average_precision: float | None = None, name: str | None = None):
        if not isinstance(sweep, ThresholdSweep):
            raise TypeError(
                f"sweep must be a confmat.curves.ThresholdSweep, got {type(sweep).__name__}")
        self.sweep = sweep
        self.roc_auc = None if roc_auc is None else float(roc_auc)
        self.average_precision = None if average_precision is None else float(average_precision)
        self.name = name
        self.figure_: Any = None
        self.ax_: Any = None

    @property
    def pos_label(self) -> Any:
        """The positive class (``sweep.labels[1]``)."""
        return self.sweep.labels[1]

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, pos_label: Any = None,
                         sample_weight: Any = None, name: str | None = None, ax: Any = None,
                         **plot_kw: Any) -> Any:
        """Build from true labels and positive-class scores, and draw.

        Parameters
        ----------
        y_true, y_score : array-like of shape (n,)
        pos_label : label, optional
            Required unless the labels are {0, 1}, {-1, 1} or {False, True}
            (:func:`confmat.inputs.targets.resolve_pos_label`).
        sample_weight : array-like, optional
        name : str, optional
            Legend name.
        ax : matplotlib Axes, optional
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        display
            The drawn display.

        Raises
        ------
        ValueError
            ``pos_label`` missing for other labels, or not among them; bad scores.

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> d = RocCurveDisplay.from_predictions([0, 1, 1], [0.2, 0.9, 0.4],
        ...                                      ax=Figure().add_subplot())
        >>> d.roc_auc
        1.0
        """
        sweep, auc, ap = sweep_from_predictions(y_true, y_score, pos_label=pos_label,
                                                sample_weight=sample_weight)
        disp: Any = cls(sweep, roc_auc=auc, average_precision=ap, name=name)
        return disp.plot(ax=ax, **plot_kw)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: Any, *, pos_label: Any = None,
                       sample_weight: Any = None, name: str | None = None,
                       response_method: str = "auto", ax: Any = None, **plot_kw: Any) -> Any:
        """Build from a fitted classifier's ``predict_proba`` (or ``decision_function``).

        Parameters
        ----------
        estimator : fitted classifier
        X : array-like
            Samples to score.
        y : array-like of shape (n,)
            True labels.
        pos_label : label, optional
            Resolved from ``estimator.classes_`` by the input door; the score column is that
            class's.
        sample_weight, name, ax, **plot_kw
            As in :meth:`from_predictions`.
        response_method : {"auto", "predict_proba", "decision_function"}

        Returns
        -------
        display

        Raises
        ------
        TypeError
            The estimator has neither ``predict_proba`` nor ``decision_function``.
        ValueError
            ``pos_label`` missing for labels other than {0, 1}, {-1, 1}, {False, True}.

        Examples
        --------
        >>> from sklearn.linear_model import LogisticRegression
        >>> from matplotlib.figure import Figure
        >>> X, y = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]
        >>> clf = LogisticRegression().fit(X, y)
        >>> RocCurveDisplay.from_estimator(clf, X, y, ax=Figure().add_subplot()).roc_auc
        1.0
        """
        s, pos = _scores_of(estimator, X, y, pos_label, response_method)
        return cls.from_predictions(y, s, pos_label=pos, sample_weight=sample_weight,
                                    name=name or type(estimator).__name__, ax=ax, **plot_kw)


class RocCurveDisplay(_CurveDisplay):
    """ROC curve with the chance diagonal, the perfect point and thresholds marked.

    Parameters
    ----------
    sweep : ThresholdSweep
        Counts at every threshold (from :func:`confmat.curves.threshold_sweep`).
    roc_auc, average_precision : float, optional
        Areas shown in the legend.
    name : str, optional
        Legend name.

    Attributes: ``sweep``, ``fpr``, ``tpr``, ``roc_auc``; after ``plot``: ``figure_``, ``ax_``.

    Examples
    --------
    >>> from confmat.curves import threshold_sweep
    >>> d = RocCurveDisplay(threshold_sweep([0, 1, 1], [0.2, 0.9, 0.4]))
    >>> d.fpr.tolist(), d.tpr.tolist()
    ([0.0, 0.0, 0.0, 1.0], [0.0, 0.5, 1.0, 1.0])
    """

    @property
    def fpr(self) -> np.ndarray:
        """False positive rates, starting at 0 (threshold +inf)."""
        return np.r_[0.0, sweep_metric(self.sweep, "fpr")]

    @property
    def tpr(self) -> np.ndarray:
        """True positive rates, starting at 0 (threshold +inf)."""
        return np.r_[0.0, sweep_metric(self.sweep, "recall")]

    def plot(self, ax: Any = None, *, mark_thresholds: bool = True, chance: bool = True,
             label: str | None = None, title: str | None = None,
             max_points: int | None = None, **line_kw: Any) -> RocCurveDisplay:
        """Draw the curve.

        Parameters
        ----------
        ax : matplotlib Axes, optional
        mark_thresholds : bool
            Mark :func:`marked_points`.
        chance : bool
            Draw the diagonal and the perfect point.
        label, title : str, optional
        max_points : int, optional
            Draw at most this many points (evenly thinned, for very long sweeps).
        **line_kw
            Passed to ``ax.plot``.

        Returns
        -------
        RocCurveDisplay

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> from confmat.curves import threshold_sweep
        >>> d = RocCurveDisplay(threshold_sweep([0, 1], [0.2, 0.9])).plot(ax=Figure().add_subplot())
        >>> d.ax_.get_xlabel()
        'false positive rate (1 − specificity)'
        """
        fig, ax = _new_ax(ax)
        fpr, tpr = self.fpr, self.tpr
        keep = thin_index(len(fpr), max_points)
        if label is None:
            label = self.name or f"class {self.pos_label}"
            if self.roc_auc is not None:
                label += f" (AUC = {self.roc_auc:.3f})"
        ax.plot(fpr[keep], tpr[keep], drawstyle="default", label=label, **line_kw)
        if chance:
            ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="chance")
            ax.plot([0], [1], marker="*", markersize=12, color="gold", markeredgecolor="black",
                    linestyle="none", label="perfect")
        if mark_thresholds:
            pts = marked_points(self.sweep)
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
    marked.

    Parameters are those of :class:`RocCurveDisplay`.

    Examples
    --------
    >>> from confmat.curves import threshold_sweep
    >>> d = PrecisionRecallDisplay(threshold_sweep([0, 1, 1], [0.2, 0.9, 0.4]))
    >>> d.recall.tolist(), d.precision.round(3).tolist()
    ([0.0, 0.5, 1.0, 1.0], [1.0, 1.0, 1.0, 0.667])
    """

    @property
    def recall(self) -> np.ndarray:
        """Recall, read from high thresholds to low, starting at 0."""
        return np.r_[0.0, sweep_metric(self.sweep, "recall")]

    @property
    def precision(self) -> np.ndarray:
        """Precision, starting at 1 (nothing predicted positive)."""
        return np.r_[1.0, sweep_metric(self.sweep, "precision", zero_division=1)]

    def plot(self, ax: Any = None, *, mark_thresholds: bool = True, chance: bool = True,
             label: str | None = None, title: str | None = None,
             max_points: int | None = None, **line_kw: Any) -> PrecisionRecallDisplay:
        """Draw the curve; parameters as in :meth:`RocCurveDisplay.plot` (``chance`` draws the
        prevalence line).

        Returns
        -------
        PrecisionRecallDisplay

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> from confmat.curves import threshold_sweep
        >>> d = PrecisionRecallDisplay(threshold_sweep([0, 1], [0.2, 0.9]))
        >>> d.plot(ax=Figure().add_subplot()).ax_.get_ylabel()
        'precision (PPV)'
        """
        fig, ax = _new_ax(ax)
        recall, precision = self.recall, self.precision
        keep = thin_index(len(recall), max_points)
        if label is None:
            label = self.name or f"class {self.pos_label}"
            if self.average_precision is not None:
                label += f" (AP = {self.average_precision:.3f})"
        ax.plot(recall[keep], precision[keep], drawstyle="steps-post", label=label, **line_kw)
        if chance and len(self.sweep):
            prevalence = float(sweep_metric(self.sweep, "prevalence", [0])[0])
            ax.axhline(prevalence, linestyle="--", color="grey", linewidth=1,
                       label="chance (prevalence)")
        if mark_thresholds:
            pts = marked_points(self.sweep)
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
    """Registry metrics against the decision threshold (rule ``score >= θ``), e.g. MCC and
    PPV as in Kneusel 2021, Figure 11-2.

    Parameters are those of :class:`RocCurveDisplay`; ``plot(metrics=...)`` takes registry
    names or aliases; per-class metrics are those of the positive class.

    Examples
    --------
    >>> from confmat.curves import threshold_sweep
    >>> ThresholdDisplay(threshold_sweep([0, 1, 1], [0.2, 0.9, 0.4])).values("recall").tolist()
    [0.5, 1.0, 1.0]
    """

    def values(self, name: str) -> np.ndarray:
        """The metric at every threshold in ``sweep.thresholds``.

        Parameters
        ----------
        name : str
            Registry name or alias.

        Returns
        -------
        ndarray of float64

        Raises
        ------
        KeyError
            Unknown metric.

        Examples
        --------
        >>> from confmat.curves import threshold_sweep
        >>> ThresholdDisplay(threshold_sweep([0, 1], [0.2, 0.9])).values("fpr").tolist()
        [0.0, 1.0]
        """
        return self.sweep.metric(name, zero_division=0)

    def plot(self, ax: Any = None, *, metrics: Sequence[str] = ("mcc", "precision"),
             title: str | None = None, max_points: int | None = None) -> ThresholdDisplay:
        """Draw each metric against the threshold.

        Parameters
        ----------
        ax : matplotlib Axes, optional
        metrics : sequence of str
            Registry names or aliases.
        title : str, optional
        max_points : int, optional
            Draw at most this many thresholds.

        Returns
        -------
        ThresholdDisplay

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> from confmat.curves import threshold_sweep
        >>> d = ThresholdDisplay(threshold_sweep([0, 1, 1], [0.2, 0.9, 0.4]))
        >>> len(d.plot(ax=Figure().add_subplot(), metrics=["f1"]).ax_.get_lines())
        1
        """
        fig, ax = _new_ax(ax, (6.0, 4.0))
        keep = thin_index(len(self.sweep), max_points)
        t = np.asarray(self.sweep.thresholds)[keep]
        markers = "osd^v<>"
        for i, m in enumerate(metrics):
            spec = get_metric(m)
            ax.plot(t, self.values(spec.name)[keep], marker=markers[i % len(markers)],
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
    sweeps : mapping name -> ThresholdSweep
        One sweep per model, the same positive class.
    roc_auc : mapping name -> float, optional
        Areas shown in the legend.

    Raises
    ------
    ValueError
        ``sweeps`` is empty.

    Examples
    --------
    >>> from confmat.curves import threshold_sweep
    >>> d = RocComparisonDisplay({"a": threshold_sweep([0, 1], [0.2, 0.9])})
    >>> list(d.sweeps)
    ['a']
    """

    def __init__(self, sweeps: Mapping[str, ThresholdSweep],
                 roc_auc: Mapping[str, float | None] | None = None):
        if not sweeps:
            raise ValueError("sweeps is empty: give at least one model")
        for k, v in sweeps.items():
            if not isinstance(v, ThresholdSweep):
                raise TypeError(f"sweeps[{k!r}] must be a ThresholdSweep, got {type(v).__name__}")
        self.sweeps = dict(sweeps)
        self.roc_auc = dict(roc_auc or {})
        self.figure_: Any = None
        self.ax_: Any = None
        self.inset_ax_: Any = None

    @classmethod
    def from_predictions(cls, y_true: Any, scores: Mapping[str, Any], *, pos_label: Any = None,
                         sample_weight: Any = None, ax: Any = None,
                         **plot_kw: Any) -> RocComparisonDisplay:
        """Build from one ``y_true`` and each model's positive-class scores, and draw.

        Parameters
        ----------
        y_true : array-like of shape (n,)
        scores : mapping name -> array-like of shape (n,)
        pos_label : label, optional
            Required unless the labels are {0, 1}, {-1, 1} or {False, True}.
        sample_weight : array-like, optional
        ax : matplotlib Axes, optional
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        RocComparisonDisplay

        Raises
        ------
        ValueError
            ``pos_label`` missing or unknown; bad scores; no models.

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> d = RocComparisonDisplay.from_predictions(
        ...     [0, 1, 1], {"a": [0.2, 0.9, 0.4], "b": [0.5, 0.1, 0.7]}, ax=Figure().add_subplot())
        >>> d.roc_auc
        {'a': 1.0, 'b': 0.5}
        """
        sweeps, aucs = {}, {}
        for k, s in scores.items():
            sweeps[str(k)], aucs[str(k)], _ = sweep_from_predictions(
                y_true, s, pos_label=pos_label, sample_weight=sample_weight)
        return cls(sweeps, aucs).plot(ax=ax, **plot_kw)

    @classmethod
    def from_estimators(cls, estimators: Mapping[str, Any], X: Any, y: Any, *,
                        pos_label: Any = None, ax: Any = None,
                        **plot_kw: Any) -> RocComparisonDisplay:
        """Build from fitted classifiers scored on the same ``X``, and draw.

        Parameters
        ----------
        estimators : mapping name -> fitted classifier
        X, y : array-like
        pos_label : label, optional
            Resolved from each estimator's ``classes_`` by the input door.
        ax, **plot_kw
            As in :meth:`from_predictions`.

        Returns
        -------
        RocComparisonDisplay

        Examples
        --------
        >>> from sklearn.linear_model import LogisticRegression
        >>> from matplotlib.figure import Figure
        >>> X, y = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]
        >>> d = RocComparisonDisplay.from_estimators({"lr": LogisticRegression().fit(X, y)},
        ...                                          X, y, ax=Figure().add_subplot())
        >>> d.roc_auc
        {'lr': 1.0}
        """
        scores = {}
        for k, e in estimators.items():
            s, pos = _scores_of(e, X, y, pos_label)
            scores[k] = s
            pos_label = pos
        return cls.from_predictions(y, scores, pos_label=pos_label, ax=ax, **plot_kw)

    def plot(self, ax: Any = None, *, inset: bool = True,
             zoom: tuple[float, float, float, float] = (0.0, 0.2, 0.8, 1.0),
             title: str | None = None, max_points: int | None = None) -> RocComparisonDisplay:
        """Draw every curve; ``zoom = (x0, x1, y0, y1)`` is the inset's window.

        Parameters
        ----------
        ax : matplotlib Axes, optional
        inset : bool
            Draw the zoomed inset.
        zoom : (x0, x1, y0, y1)
        title : str, optional
        max_points : int, optional
            Draw at most this many points per curve.

        Returns
        -------
        RocComparisonDisplay

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> from confmat.curves import threshold_sweep
        >>> d = RocComparisonDisplay({"a": threshold_sweep([0, 1], [0.2, 0.9])})
        >>> [float(v) for v in d.plot(ax=Figure().add_subplot()).inset_ax_.get_xlim()]
        [0.0, 0.2]
        """
        fig, ax = _new_ax(ax, (6.0, 5.5))
        ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="chance")
        lines = []
        for name, sw in self.sweeps.items():
            fpr = np.r_[0.0, sweep_metric(sw, "fpr")]
            tpr = np.r_[0.0, sweep_metric(sw, "recall")]
            keep = thin_index(len(fpr), max_points)
            fpr, tpr = fpr[keep], tpr[keep]
            auc = self.roc_auc.get(name)
            lab = name + ("" if auc is None else f" (AUC = {auc:.3f})")
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
