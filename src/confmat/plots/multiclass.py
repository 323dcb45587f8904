"""One-vs-rest ROC curves of a multi-class problem with their micro and macro averages."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..curves import OneVsRestROC, roc_curve_ovr
from .common import Saving, literal_text, new_ax, place_legend
from .sweeps import thin_index

__all__ = ["OneVsRestRocDisplay"]


class OneVsRestRocDisplay(Saving):
    """ROC curves of every class against the rest, with the micro- and macro-averaged curves.

    The micro average pools every (sample, class) pair into one curve; the macro average is
    the mean of the class curves' true positive rates on a common false positive rate grid
    (see :class:`confmat.curves.OneVsRestROC`). The legend gives the micro AUC and the macro
    AUC as scikit-learn defines it (the mean of the per-class areas).

    Parameters
    ----------
    ovr : OneVsRestROC
        From :func:`confmat.curves.roc_curve_ovr`.

    Raises
    ------
    TypeError
        ``ovr`` is not a OneVsRestROC.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from confmat.curves import roc_curve_ovr
    >>> ovr = roc_curve_ovr([0, 1, 2, 2], [[.8, .1, .1], [.2, .3, .5], [.1, .2, .7],
    ...                                    [.3, .4, .3]])
    >>> d = OneVsRestRocDisplay(ovr).plot(ax=Figure().add_subplot())
    >>> [t.get_text() for t in d.ax_.get_legend().get_texts()][-3:]
    ['micro average (AUC = 0.844)', 'macro average (AUC = 0.806)', 'chance']
    """

    def __init__(self, ovr: OneVsRestROC):
        if not isinstance(ovr, OneVsRestROC):
            raise TypeError(f"ovr must be a confmat.curves.OneVsRestROC, got {type(ovr).__name__}")
        self.ovr = ovr
        self.figure_: Any = None
        self.ax_: Any = None

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, labels: Any = None,
                         sample_weight: Any = None, ax: Any = None,
                         **plot_kw: Any) -> OneVsRestRocDisplay:
        """Compute the one-vs-rest curves of per-class scores and draw them.

        Parameters
        ----------
        y_true, y_score, labels, sample_weight
            As in :func:`confmat.curves.roc_curve_ovr`.
        ax : matplotlib Axes, optional
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        OneVsRestRocDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`confmat.curves.roc_curve_ovr`.

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> d = OneVsRestRocDisplay.from_predictions([0, 1, 2], np.eye(3),
        ...                                          ax=Figure().add_subplot())
        >>> d.ovr.micro_auc
        1.0
        """
        ovr = roc_curve_ovr(y_true, y_score, labels=labels, sample_weight=sample_weight)
        return cls(ovr).plot(ax=ax, **plot_kw)

    def plot(self, ax: Any = None, *, per_class: bool = True, averages: bool = True,
             chance: bool = True, max_points: int | None = None,
             legend: bool = True) -> OneVsRestRocDisplay:
        """Draw the curves (classes in label order, then the averages, dashed).

        Parameters
        ----------
        ax : matplotlib Axes, optional
        per_class : bool, default True
            Draw each class's curve (False: only the averages, e.g. on axes that already show
            the class curves).
        averages : bool, default True
            Draw the micro and macro averages.
        chance : bool, default True
            Draw the chance diagonal (only with ``per_class``).
        max_points : int, optional
            Draw at most this many points per curve.
        legend : bool, default True
            Draw the legend (:func:`~confmat.plots.common.place_legend`: class order, the
            reference line last, clear of tick labels); False leaves it to the caller, who may
            draw more on the same axes.

        Returns
        -------
        OneVsRestRocDisplay

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> from confmat.curves import roc_curve_ovr
        >>> d = OneVsRestRocDisplay(roc_curve_ovr([0, 1, 2], np.eye(3)))
        >>> len(d.plot(ax=Figure().add_subplot(), per_class=False).ax_.lines)
        2
        """
        fig, ax = new_ax(ax)

        def line(fpr: np.ndarray, tpr: np.ndarray, **kw: Any) -> None:
            keep = thin_index(len(fpr), max_points)
            ax.plot(np.asarray(fpr)[keep], np.asarray(tpr)[keep], **kw)

        if per_class:
            for lab, c in self.ovr.curves.items():
                line(c.fpr, c.tpr, linewidth=1.2, label=f"{literal_text(lab)} (AUC = {c.auc:.3f})")
            if chance:
                ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1,
                        label="chance")
        if averages:
            line(self.ovr.micro.fpr, self.ovr.micro.tpr, linestyle=":", linewidth=2.2,
                 color="black", label=f"micro average (AUC = {self.ovr.micro_auc:.3f})")
            line(self.ovr.macro.fpr, self.ovr.macro.tpr, linestyle="-.", linewidth=2.2,
                 color="0.35", label=f"macro average (AUC = {self.ovr.macro_auc:.3f})")
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_xlabel("false positive rate (1 − specificity)")
        ax.set_ylabel("true positive rate (recall)")
        ax.set_aspect("equal")
        if legend:
            place_legend(ax)
        self.figure_, self.ax_ = fig, ax
        return self
