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
- :class:`CalibrationDisplay` - reliability diagram with the samples per bin;
- :class:`OneVsRestRocDisplay` - one-vs-rest ROC curves with their micro and macro averages;
- :class:`RocComparisonDisplay` - several models' ROC curves with a zoomed inset of the
  top-left corner (Kneusel 2021, Figure 11-3).

Functions:

- :func:`plot_group_forest` - the forest plot of an evaluation by group
  (:func:`confmat.by_group`): one metric with its confidence interval per group;
- :func:`draw_group_forest` - the same figure from the forest data of a report's by-group
  section (``build_groups_section(ev).forest``).
"""

from __future__ import annotations

from .calibration import CalibrationDisplay
from .comparison import RocComparisonDisplay
from .curves import PrecisionRecallDisplay, RocCurveDisplay, ThresholdDisplay
from .groups import draw_group_forest, plot_group_forest
from .matrix import ConfusionMatrixDisplay
from .multiclass import OneVsRestRocDisplay
from .sweeps import (
    MARKED_THRESHOLDS,
    marked_points,
    sweep_from_predictions,
    sweep_metric,
    thin_index,
)

__all__ = [
    "MARKED_THRESHOLDS",
    "CalibrationDisplay",
    "ConfusionMatrixDisplay",
    "OneVsRestRocDisplay",
    "PrecisionRecallDisplay",
    "RocComparisonDisplay",
    "RocCurveDisplay",
    "ThresholdDisplay",
    "draw_group_forest",
    "marked_points",
    "plot_group_forest",
    "sweep_from_predictions",
    "sweep_metric",
    "thin_index",
]
