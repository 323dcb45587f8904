"""Several models' ROC curves on one plot, with a zoomed inset of the top-left corner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..curves import ThresholdSweep
from .common import Saving, literal_text, new_ax, place_legend, scores_of
from .roc_shading import draw_band
from .sweeps import sweep_from_predictions, sweep_metric, thin_index


class RocComparisonDisplay(Saving):
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
        self.bands_: dict[str, Any] = {}

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
            s, pos = scores_of(e, X, y, pos_label)
            scores[k] = s
            pos_label = pos
        return cls.from_predictions(y, scores, pos_label=pos_label, ax=ax, **plot_kw)

    def plot(self, ax: Any = None, *, inset: bool = True,
             zoom: tuple[float, float, float, float] = (0.0, 0.2, 0.8, 1.0),
             title: str | None = None, max_points: int | None = None,
             bands: Mapping[str, Any] | None = None,
             band_alpha: float = 0.12) -> RocComparisonDisplay:
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
        bands : mapping name -> RocCI, optional
            Confidence bands (:func:`confmat.roc_ci` with ``specificities=``) of some models,
            shaded lightly in each model's colour under its curve (and in the inset), without
            a legend entry (say what they are in the caption). ``bands_`` holds the drawn
            collections by name.
        band_alpha : float, default 0.12
            Opacity of the bands.

        Returns
        -------
        RocComparisonDisplay

        Raises
        ------
        ValueError
            ``bands`` names a model that has no curve, or holds a band that cannot be drawn
            (see :func:`confmat.plots.roc_shading.draw_band`).

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> from confmat.curves import threshold_sweep
        >>> d = RocComparisonDisplay({"a": threshold_sweep([0, 1], [0.2, 0.9])})
        >>> [float(v) for v in d.plot(ax=Figure().add_subplot()).inset_ax_.get_xlim()]
        [0.0, 0.2]
        """
        bands = dict(bands or {})
        unknown = sorted(set(bands) - set(self.sweeps))
        if unknown:
            raise ValueError(f"bands given for models without a curve: {unknown}")
        fig, ax = new_ax(ax, (6.0, 5.5))
        ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="chance")
        lines = []
        self.bands_ = {}
        for name, sw in self.sweeps.items():
            fpr = np.r_[0.0, sweep_metric(sw, "fpr")]
            tpr = np.r_[0.0, sweep_metric(sw, "recall")]
            keep = thin_index(len(fpr), max_points)
            fpr, tpr = fpr[keep], tpr[keep]
            auc = self.roc_auc.get(name)
            lab = literal_text(name) + ("" if auc is None else f" (AUC = {auc:.3f})")
            (ln,) = ax.plot(fpr, tpr, label=lab)
            lines.append((name, ln, fpr, tpr))
            if name in bands:
                self.bands_[name] = draw_band(ax, bands[name], self._band_kw(ln, band_alpha))
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate")
        if inset:
            x0, x1, y0, y1 = zoom
            axins = ax.inset_axes([0.35, 0.3, 0.45, 0.45])
            for name, ln, fpr, tpr in lines:
                axins.plot(fpr, tpr, color=ln.get_color())
                if name in bands:
                    draw_band(axins, bands[name], self._band_kw(ln, band_alpha))
            axins.set_xlim(x0, x1)
            axins.set_ylim(y0, y1)
            axins.tick_params(labelsize=7)
            axins.set_title("top-left corner", fontsize=8)
            ax.indicate_inset_zoom(axins, edgecolor="black")
            self.inset_ax_ = axins
        # below the axes: inside, it would cover the inset's tick labels
        place_legend(ax, max_inside=0 if inset else 4)
        if title:
            ax.set_title(title)
        self.figure_, self.ax_ = fig, ax
        return self

    @staticmethod
    def _band_kw(line: Any, alpha: float) -> dict[str, Any]:
        return {"color": line.get_color(), "alpha": alpha, "label": "_nolegend_",
                "zorder": line.get_zorder() - 0.5}
