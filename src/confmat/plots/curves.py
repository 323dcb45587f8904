"""ROC, precision-recall and metric-against-threshold displays of one
:class:`~confmat.curves.ThresholdSweep` (several models on one ROC plot:
:mod:`confmat.plots.comparison`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..curves import ThresholdSweep
from ..curves.partial import PartialRange
from ..metrics import get_metric
from .common import Saving, annotate_thresholds, literal_text, new_ax, place_legend, scores_of
from .roc_shading import draw_band, draw_partial_range, partial_range_label
from .sweeps import marked_points, sweep_from_predictions, sweep_metric, thin_index


class _CurveDisplay(Saving):
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
        s, pos = scores_of(estimator, X, y, pos_label, response_method)
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

    Raises
    ------
    TypeError
        If ``sweep`` is not a :class:`~confmat.curves.ThresholdSweep`.

    Attributes
    ----------
    sweep : ThresholdSweep
        The counts given.
    fpr, tpr : ndarray
        The curve's points, starting at (0, 0) for the threshold +inf.
    roc_auc : float or None
        The area shown in the legend.
    figure_, ax_ : matplotlib objects
        Set by :meth:`plot`.
    band_ : matplotlib collection
        The shaded confidence band, set by :meth:`plot` with ``band=``.
    partial_range_ : matplotlib collection
        The shaded range of a partial AUC, set by :meth:`plot` with ``partial_auc=``.

    Examples
    --------
    >>> from confmat.curves import threshold_sweep
    >>> d = RocCurveDisplay(threshold_sweep([0, 1, 1], [0.2, 0.9, 0.4]))
    >>> d.fpr.tolist(), d.tpr.tolist()
    ([0.0, 0.0, 0.0, 1.0], [0.0, 0.5, 1.0, 1.0])
    """

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, pos_label: Any = None,
                         sample_weight: Any = None, name: str | None = None, ax: Any = None,
                         **plot_kw: Any) -> Any:
        """Build from true labels and positive-class scores, and draw.

        With ``partial_auc=`` among ``plot_kw`` (and no ``partial_auc_value``), the legend's
        value of the shaded range is :func:`confmat.curves.partial.partial_auc` of the same
        data (pROC's ``auc(roc, partial.auc=, partial.auc.focus=, partial.auc.correct=)``,
        Robin et al. 2011).

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
        RocCurveDisplay
            The drawn display.

        Raises
        ------
        ValueError
            ``pos_label`` missing for other labels, or not among them; bad scores; a bad
            partial range (see :meth:`plot`).

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> d = RocCurveDisplay.from_predictions([0, 0, 1, 1], [.1, .4, .35, .8],
        ...                                      partial_auc=(0.5, 1), ax=Figure().add_subplot())
        >>> d.partial_range_.get_label()  # (1 + 0.125 / 0.375) / 2, McClish 1989
        'partial AUC = 0.667 (specificity 0.5 to 1, McClish-corrected)'
        """
        if plot_kw.get("partial_auc") is not None and plot_kw.get("partial_auc_value") is None:
            from ..curves.partial import partial_auc

            prange = PartialRange.parse(plot_kw["partial_auc"],
                                        plot_kw.get("partial_auc_focus", "specificity"),
                                        plot_kw.get("partial_auc_correct", True))
            plot_kw["partial_auc_value"] = partial_auc(
                y_true, y_score, **prange.curve_kwargs(), correct=prange.correct,
                pos_label=pos_label, sample_weight=sample_weight)
        return super().from_predictions(y_true, y_score, pos_label=pos_label,
                                        sample_weight=sample_weight, name=name, ax=ax,
                                        **plot_kw)

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
             max_points: int | None = None, legend: bool = True, band: Any = None,
             band_kw: dict[str, Any] | None = None, partial_auc: Any = None,
             partial_auc_focus: str = "specificity", partial_auc_correct: bool = True,
             partial_auc_value: float | None = None,
             partial_auc_kw: dict[str, Any] | None = None, **line_kw: Any) -> RocCurveDisplay:
        """Draw the curve, optionally with a bootstrap confidence band around it and the
        range of a partial AUC shaded.

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
        legend : bool, default True
            Draw the legend (:func:`confmat.plots.common.place_legend`); pass False while
            more curves are to be drawn on the same axes, and call ``place_legend`` after.
        band : RocCI, optional
            Intervals from :func:`confmat.roc_ci` on the same data: with ``specificities=``
            the sensitivity interval at each specificity is shaded between the specificities
            (pROC's ``plot(ci.se(...), type="shape")``, Robin et al. 2011); with
            ``sensitivities=`` the specificity interval at each sensitivity, across.
        band_kw : dict, optional
            Passed to ``ax.fill_between`` (or ``fill_betweenx``) for the band.
        partial_auc : pair of float, optional
            The range of a partial AUC, shaded under the curve (:func:`confmat.plots.roc_shading.draw_partial_range`):
            a specificity range ``(low, high)`` as the vertical strip of false positive rates
            ``1 - high`` to ``1 - low``, or with ``partial_auc_focus='sensitivity'`` the
            horizontal strip of true positive rates ``low`` to ``high``; its legend entry
            names the range and ``partial_auc_value``.
        partial_auc_focus : {'specificity', 'sensitivity'}, default 'specificity'
            The axis of ``partial_auc`` (pROC's ``partial.auc.focus``).
        partial_auc_correct : bool, default True
            Whether ``partial_auc_value`` is McClish's (1989) standardised area (the legend
            says which).
        partial_auc_value : float, optional
            The partial area shown in the legend (``from_predictions`` computes it); without
            it the legend names the range only.
        partial_auc_kw : dict, optional
            Passed to ``ax.fill_between`` (or ``fill_betweenx``) for the shaded range.
        **line_kw
            Passed to ``ax.plot``.

        Returns
        -------
        RocCurveDisplay

        Raises
        ------
        TypeError
            ``band`` is not a :class:`~confmat.inference.RocCI`; ``partial_auc`` not two
            numbers; ``partial_auc_correct`` not a bool.
        ValueError
            ``band`` holds intervals at given thresholds (no band to shade), or fewer than
            two points; ``partial_auc`` outside [0, 1] or of zero width, another
            ``partial_auc_focus``, or a focus, correction or value without ``partial_auc``.

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> from confmat.curves import threshold_sweep
        >>> d = RocCurveDisplay(threshold_sweep([0, 1], [0.2, 0.9])).plot(ax=Figure().add_subplot())
        >>> d.ax_.get_xlabel()
        'false positive rate (1 − specificity)'
        >>> d = RocCurveDisplay(threshold_sweep([0, 1], [0.2, 0.9])).plot(
        ...     ax=Figure().add_subplot(), partial_auc=(0.9, 1), partial_auc_focus="sensitivity")
        >>> d.partial_range_.get_label()
        'partial AUC range: sensitivity 0.9 to 1'
        """
        prange = PartialRange.optional(partial_auc, partial_auc_focus, partial_auc_correct)
        if prange is None and partial_auc_value is not None:
            raise ValueError("partial_auc_value applies to a partial AUC: give "
                             "partial_auc=(low, high) too")
        fig, ax = new_ax(ax)
        fpr, tpr = self.fpr, self.tpr
        keep = thin_index(len(fpr), max_points)
        if label is None:
            label = literal_text(self.name or f"class {self.pos_label}")
            if self.roc_auc is not None:
                label += f" (AUC = {self.roc_auc:.3f})"
        (line,) = ax.plot(fpr[keep], tpr[keep], drawstyle="default", label=label, **line_kw)
        if band is not None:  # after the curve (its legend entry follows), under it (zorder)
            kw = {"color": line.get_color(), "zorder": line.get_zorder() - 0.5}
            self.band_ = draw_band(ax, band, kw | (band_kw or {}))
        if prange is not None:  # after the band (legend order), under the curve and the band
            kw = {"zorder": line.get_zorder() - 1,
                  "label": partial_range_label(prange, partial_auc_value)}
            self.partial_range_ = draw_partial_range(ax, prange, kw | (partial_auc_kw or {}))
        if chance:
            ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="chance")
            ax.plot([0], [1], marker="*", markersize=12, color="gold", markeredgecolor="black",
                    linestyle="none", label="perfect")
        if mark_thresholds:
            pts = marked_points(self.sweep)
            ax.plot([p["fpr"] for p in pts], [p["tpr"] for p in pts], "o", markersize=4,
                    color="black")
            annotate_thresholds(ax, [(p["fpr"], p["tpr"], p["threshold"]) for p in pts],
                                 (5, -10))
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_xlabel("false positive rate (1 − specificity)")
        ax.set_ylabel("true positive rate (recall)")
        ax.set_aspect("equal")
        if legend:
            place_legend(ax, loc="lower right")
        if title:
            ax.set_title(title)
        self.figure_, self.ax_ = fig, ax
        return self


class PrecisionRecallDisplay(_CurveDisplay):
    """Precision-recall curve with the chance level (the prevalence) and thresholds marked.

    Parameters
    ----------
    sweep : ThresholdSweep
        Counts at every threshold (from :func:`confmat.curves.threshold_sweep`).
    roc_auc, average_precision : float, optional
        Areas; the legend shows ``average_precision``.
    name : str, optional
        Legend name.

    Raises
    ------
    TypeError
        If ``sweep`` is not a :class:`~confmat.curves.ThresholdSweep`.

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
             max_points: int | None = None, legend: bool = True,
             **line_kw: Any) -> PrecisionRecallDisplay:
        """Draw the curve as steps: each precision is held up to the next point's recall.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Axes to draw on; None makes a new figure.
        mark_thresholds : bool, default True
            Mark and label :func:`marked_points`.
        chance : bool, default True
            Draw the chance level: a horizontal line at the positive prevalence.
        label : str, optional
            Legend text; by default the name (or the positive class) and the AP if given.
        title : str, optional
            Axes title.
        max_points : int, optional
            Draw at most this many points (evenly thinned, for very long sweeps).
        legend : bool, default True
            Draw the legend (:func:`confmat.plots.common.place_legend`); pass False while
            more curves are to be drawn on the same axes, and call ``place_legend`` after.
        **line_kw
            Passed to ``ax.plot`` for the curve.

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
        fig, ax = new_ax(ax)
        recall, precision = self.recall, self.precision
        keep = thin_index(len(recall), max_points)
        if label is None:
            label = literal_text(self.name or f"class {self.pos_label}")
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
            annotate_thresholds(ax, [(p["tpr"], p["precision"], p["threshold"]) for p in pts],
                                 (-10, -12))
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.05)
        ax.set_xlabel("recall (true positive rate)")
        ax.set_ylabel("precision (PPV)")
        if legend:
            place_legend(ax, loc="lower left")
        if title:
            ax.set_title(title)
        self.figure_, self.ax_ = fig, ax
        return self


class ThresholdDisplay(_CurveDisplay):
    """Registry metrics against the decision threshold (rule ``score >= θ``), e.g. MCC and
    PPV as in Kneusel 2021, Figure 11-2.

    ``plot(metrics=...)`` takes registry names or aliases; per-class metrics are those of the
    positive class.

    Parameters
    ----------
    sweep : ThresholdSweep
        Counts at every threshold (from :func:`confmat.curves.threshold_sweep`).
    roc_auc, average_precision : float, optional
        Areas; the legend shows neither (they are kept for a uniform constructor).
    name : str, optional
        Legend name.

    Raises
    ------
    TypeError
        If ``sweep`` is not a :class:`~confmat.curves.ThresholdSweep`.

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
            One value per threshold; undefined values are 0.

        Raises
        ------
        ValueError
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
        fig, ax = new_ax(ax, (6.0, 4.0))
        keep = thin_index(len(self.sweep), max_points)
        t = np.asarray(self.sweep.thresholds)[keep]
        markers = "osd^v<>"
        for i, m in enumerate(metrics):
            spec = get_metric(m)
            ax.plot(t, self.values(spec.name)[keep], marker=markers[i % len(markers)],
                    markevery=max(1, len(t) // 25), markersize=4, label=spec.full_name)
        ax.set_xlabel("decision threshold θ (predict positive when score ≥ θ)")
        ax.set_ylabel("metric value")
        place_legend(ax, loc="best")  # the spot that hides the fewest points
        ax.grid(alpha=0.3)
        if title:
            ax.set_title(title)
        self.figure_, self.ax_ = fig, ax
        return self
