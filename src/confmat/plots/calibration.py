"""The reliability diagram of a :class:`~confmat.curves.calibration.Calibration`.

Mean predicted probability against observed frequency per bin, with the diagonal of perfect
calibration (Niculescu-Mizil and Caruana 2005), and the count of samples in each bin drawn
as bars underneath, so that a bin of three samples is not read like a bin of three hundred.
The title gives the binless scores (Brier score, log loss) and the MCE, as the report's
calibration line does; the legend gives the ECE.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..curves.calibration import Calibration, calibration
from .common import Saving, literal_text, new_ax

__all__ = ["CalibrationDisplay"]


class CalibrationDisplay(Saving):
    """Reliability diagram: observed frequency against mean predicted probability per bin.

    Parameters
    ----------
    calibration : Calibration
        From :func:`confmat.curves.calibration.calibration`; the display draws its main
        curve (positive class, or top label for multi-class).
    name : str, optional
        Legend name.

    Raises
    ------
    TypeError
        ``calibration`` is not a Calibration.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from confmat.curves.calibration import calibration
    >>> cal = calibration([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], n_bins=2)
    >>> d = CalibrationDisplay(cal).plot(ax=Figure().add_subplot())
    >>> d.ax_.get_xlabel()
    'mean predicted probability'
    >>> d.ax_.get_title()
    'Reliability diagram (Brier 0.158, log loss 0.472, MCE 0.200)'
    """

    def __init__(self, calibration: Calibration, *, name: str | None = None):
        if not isinstance(calibration, Calibration):
            raise TypeError("calibration must be a confmat.curves.calibration.Calibration, "
                            f"got {type(calibration).__name__}")
        self.calibration = calibration
        self.name = name
        self.figure_: Any = None
        self.ax_: Any = None
        self.counts_ax_: Any = None

    @classmethod
    def from_predictions(cls, y_true: Any, y_prob: Any, *, n_bins: int = 10,
                         strategy: str = "uniform", pos_label: Any = None,
                         sample_weight: Any = None, labels: Any = None,
                         name: str | None = None, ax: Any = None,
                         **plot_kw: Any) -> CalibrationDisplay:
        """Compute the calibration of ``y_prob`` and draw its reliability diagram.

        Parameters
        ----------
        y_true, y_prob, n_bins, strategy, pos_label, sample_weight, labels
            As in :func:`confmat.curves.calibration.calibration`.
        name : str, optional
            Legend name.
        ax : matplotlib Axes, optional
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        CalibrationDisplay
            The drawn display.

        Raises
        ------
        ValueError, TypeError
            As :func:`confmat.curves.calibration.calibration`.

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> d = CalibrationDisplay.from_predictions([0, 1, 1], [0.2, 0.9, 0.6], n_bins=2,
        ...                                         ax=Figure().add_subplot())
        >>> d.calibration.curve.counts.tolist()
        [1, 2]
        """
        cal = calibration(y_true, y_prob, n_bins=n_bins, strategy=strategy,
                          pos_label=pos_label, sample_weight=sample_weight, labels=labels)
        return cls(cal, name=name).plot(ax=ax, **plot_kw)

    def plot(self, ax: Any = None, *, counts: bool = True, label: str | None = None
             ) -> CalibrationDisplay:
        """Draw the reliability diagram.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Axes to draw on (a new figure otherwise).
        counts : bool, default True
            Draw the samples per bin as bars on a second y axis (right), the bars spanning
            their bins.
        label : str, optional
            Legend entry of the curve (default: the name, or the event with its ECE).

        Returns
        -------
        CalibrationDisplay

        Examples
        --------
        >>> from matplotlib.figure import Figure
        >>> from confmat.curves.calibration import calibration
        >>> cal = calibration([0, 1, 1], [0.2, 0.9, 0.6], n_bins=2)
        >>> d = CalibrationDisplay(cal).plot(ax=Figure().add_subplot(), counts=False)
        >>> d.counts_ax_ is None
        True
        """
        fig, ax = new_ax(ax)
        cal = self.calibration
        c = cal.curve
        keep = c.nonempty
        if counts:
            twin = ax.twinx()
            widths = np.diff(c.edges)
            twin.bar(c.edges[:-1], c.counts, width=widths, align="edge", color="0.85",
                     edgecolor="0.6", linewidth=0.5, zorder=0)
            twin.set_ylabel("samples per bin")
            twin.set_ylim(0, max(1.0, float(c.counts.max())) * 3.0)  # bars in the lower third
            ax.set_zorder(twin.get_zorder() + 1)
            ax.patch.set_visible(False)
            self.counts_ax_ = twin
        else:
            self.counts_ax_ = None
        ax.plot([0, 1], [0, 1], linestyle="--", color="0.5", linewidth=1,
                label="perfectly calibrated")
        what = "top label" if cal.kind == "multiclass" else c.event
        text = label or literal_text(self.name or f"{what} (ECE = {cal.ece:.3f})")
        ax.plot(c.mean_predicted[keep], c.observed[keep], marker="o", linewidth=1.5,
                label=text)
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("mean predicted probability")
        ax.set_ylabel("observed frequency")
        ax.set_title(f"Reliability diagram (Brier {cal.brier:.3f}, log loss {cal.log_loss:.3f}, "
                     f"MCE {cal.mce:.3f})", fontsize=10)
        ax.legend(loc="upper left", fontsize=8, framealpha=0.9)
        self.figure_, self.ax_ = fig, ax
        return self
