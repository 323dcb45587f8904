"""The report model: plain data structures from which every renderer works.

A :class:`Report` holds what one classifier's evaluation shows: the counts, per-class and
overall metrics (chosen and named by the metric registry, never by a list kept here),
intervals, interpretations and, when scores were given, one
:class:`~confmat.report.scores.ScoreCurve` per positive class. It is built by
:func:`confmat.report.build_report`; a comparison of several models is
:class:`confmat.report.comparison.Comparison`.

Rendering without upward imports
--------------------------------
This module never imports its renderers. ``str(report)`` and the notebook view
(``_repr_html_``) look the renderer up by name in :data:`RENDERERS`, a registry that the
package ``confmat.report`` fills when it is imported (always before this module can be used,
since importing ``confmat.report.model`` runs the package's ``__init__`` first). Users who
want a format call the renderer functions directly (``render_text``, ``render_html``, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..inputs.targets import default_pos_label
from ..matrix import ConfusionMatrix
from ..metrics import get_metric
from ..metrics.one_vs_rest import one_vs_rest
from .findings import (
    auc_warnings,
    calibration_finding,
    cost_finding,
    headline_names,
    largest_confusion,
    support_warnings,
    weakest_class,
)
from .jsonable import label_json, num
from .marks import row_percentages
from .score_summaries import Calibration, CostChoice, RocAverages
from .scores import ScoreCurve
from .slider import slider_points, subset_note

if TYPE_CHECKING:  # data only; the model imports no renderer
    from .groups_section import GroupsSection
    from .roc_summaries import MulticlassAUC, PartialAUCSummary, RocBandSummary

#: renderers by name ('text', 'html_fragment'); filled by ``confmat.report.__init__``
RENDERERS: dict[str, Callable[[Any], str]] = {}

class Displayable:
    """``str()`` and the notebook view through the renderers in :data:`RENDERERS`.

    Examples
    --------
    >>> from confmat.report import build_report
    >>> rep = build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False)
    >>> str(rep).splitlines()[0]
    'Classification report'
    """

    def __str__(self) -> str:
        return RENDERERS["text"](self)

    def _repr_html_(self) -> str:
        return RENDERERS["html_fragment"](self)


@dataclass
class MetricValue:
    """One overall metric: value, optional interval and interpretation.

    Parameters
    ----------
    name : str
        The metric's registry name.
    full_name : str
        Its name for readers.
    value : float
        Its value.
    interval : (float, float), optional
        Confidence interval ``(low, high)``.
    interpretation : str, optional
        The interpretation band the value falls in, when the metric has one.
    higher_is_better : bool, optional
        Direction of the metric (None: neither).
    range : (float, float), default (0.0, 1.0)
        The metric's possible values.
    family : str, default ''
        The metric's family in the registry.
    interval_method : str, optional
        How ``interval`` was computed.
    undefined : bool, default False
        The value divides by zero and comes from the zero-division rule (it is written with
        :data:`ZERO_DIVISION_MARK`).

    Examples
    --------
    >>> MetricValue("accuracy", "Accuracy", 0.75).to_dict()["value"]
    0.75
    """

    name: str
    full_name: str
    value: float
    interval: tuple[float, float] | None = None
    interpretation: str | None = None
    higher_is_better: bool | None = None
    range: tuple[float, float] = (0.0, 1.0)
    family: str = ""
    interval_method: str | None = None
    undefined: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (NaN and infinities as ``None``).

        Returns
        -------
        dict

        Examples
        --------
        >>> MetricValue("mcc", "MCC", float("nan")).to_dict()["value"] is None
        True
        """
        return {
            "name": self.name,
            "full_name": self.full_name,
            "value": num(self.value),
            "interval": None if self.interval is None else [num(v) for v in self.interval],
            "interpretation": self.interpretation,
            "higher_is_better": self.higher_is_better,
            "range": [num(v) for v in self.range],
            "family": self.family,
            "interval_method": self.interval_method,
            "undefined": self.undefined,
        }


@dataclass
class PerClassRow:
    """One per-class metric: a value per class, its averages, optional per-class intervals.

    Parameters
    ----------
    name : str
        The metric's registry name.
    full_name : str
        Its name for readers.
    values : list of float
        One value per class, in label order.
    averages : dict of str to float
        The averages by name (``'macro'``, ``'micro'``, ``'weighted'``).
    intervals : list of (float, float), optional
        Confidence interval ``(low, high)`` of each class.
    higher_is_better : bool, optional
        Direction of the metric (None: neither).
    family : str, default ''
        The metric's family in the registry.
    interval_method : str, optional
        How ``intervals`` were computed.
    undefined : list of int, optional
        Positions of the classes whose value divides by zero and comes from the
        zero-division rule (written with :data:`ZERO_DIVISION_MARK`).

    Examples
    --------
    >>> PerClassRow("recall", "Recall", [0.5, 1.0], {"macro": 0.75}).to_dict()["averages"]
    {'macro': 0.75}
    """

    name: str
    full_name: str
    values: list[float]
    averages: dict[str, float]
    intervals: list[tuple[float, float] | None] | None = None
    higher_is_better: bool | None = None
    family: str = ""
    interval_method: str | None = None
    undefined: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (NaN and infinities as ``None``).

        Returns
        -------
        dict

        Examples
        --------
        >>> PerClassRow("f1", "F1", [float("inf")], {}).to_dict()["values"]
        [None]
        """
        return {
            "name": self.name,
            "full_name": self.full_name,
            "values": [num(v) for v in self.values],
            "averages": {k: num(v) for k, v in self.averages.items()},
            "intervals": None
            if self.intervals is None
            else [None if iv is None else [num(iv[0]), num(iv[1])] for iv in self.intervals],
            "higher_is_better": self.higher_is_better,
            "family": self.family,
            "interval_method": self.interval_method,
            "undefined": list(self.undefined),
        }


@dataclass
class Report(Displayable):
    """Everything a renderer shows about one classifier's evaluation.

    Built by :func:`confmat.report.build_report`; ``curves`` holds one
    :class:`~confmat.report.scores.ScoreCurve` per positive class when scores were given.

    Parameters
    ----------
    title : str
        Heading of the report.
    labels : list
        The classes, in matrix order.
    counts : ndarray of shape (K, K)
        The confusion matrix (rows true, columns predicted; weighted sums when weighted).
    per_class : list of PerClassRow
        The per-class metrics.
    overall : list of MetricValue
        The overall metrics.
    curves : list of ScoreCurve, optional
        One score curve per positive class, when scores were given.
    source : dict, optional
        Where the data came from (``key: value`` lines of the rendered output; empty values
        are left out).
    notes : list of str, optional
        Notes shown under the report (warnings met while computing it, samples outside the
        classes).
    level : float, default 0.95
        Confidence level of the intervals.
    matrix : ConfusionMatrix, optional
        The matrix the report was built from.
    extra_intervals : dict, optional
        Intervals of headline values that are not rows of ``overall`` (e.g. ``"f1_macro"``:
        the macro F1 of a multi-class headline), ``name -> (low, high)`` or None.
    calibration : Calibration, optional
        Calibration of the scores when they are probabilities
        (:func:`confmat.curves.calibration.calibration`: reliability bins with their counts,
        Brier score, ECE, MCE).
    cost : CostChoice, optional
        The cost-optimal threshold, when a cost matrix was given.
    roc_averages : RocAverages, optional
        Micro and macro averages of a multi-class report's one-vs-rest ROC curves.
    groups : GroupsSection, optional
        The evaluation by group (:func:`confmat.report.build_report` with ``groups=``).
    roc_band : RocBandSummary, optional
        The confidence band of the one score curve (sensitivity intervals at 101
        specificities, :func:`confmat.inference.roc_ci`).
    multiclass_auc : MulticlassAUC, optional
        Hand and Till's (2001) multi-class AUC of a score matrix.
    partial_auc : PartialAUCSummary, optional
        The partial AUC on a specificity or a sensitivity range (McClish-corrected unless
        asked otherwise), when asked for.

    Examples
    --------
    >>> from confmat.report import build_report
    >>> rep = build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False)
    >>> rep.n, rep.overall_value("accuracy")
    (8.0, 0.875)
    """

    title: str
    labels: list[Any]
    counts: np.ndarray
    per_class: list[PerClassRow]
    overall: list[MetricValue]
    curves: list[ScoreCurve] = field(default_factory=list)
    source: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    level: float = 0.95
    matrix: ConfusionMatrix | None = None
    extra_intervals: dict[str, tuple[float, float] | None] = field(default_factory=dict)
    calibration: Calibration | None = None
    cost: CostChoice | None = None
    roc_averages: RocAverages | None = None
    groups: GroupsSection | None = None
    roc_band: RocBandSummary | None = None
    multiclass_auc: MulticlassAUC | None = None
    partial_auc: PartialAUCSummary | None = None

    @property
    def n(self) -> float:
        """Total count (weighted when the matrix is)."""
        return float(self.counts.sum())

    @property
    def row_percentages(self) -> np.ndarray:
        """The accuracy matrix (Kneusel 2021, ch. 11): each row in percent of its total.

        Examples
        --------
        >>> Report("", [0, 1], np.array([[3, 1], [0, 4]]), [], []).row_percentages.tolist()
        [[75.0, 25.0], [0.0, 100.0]]
        """
        return row_percentages(self.counts)[0]

    @property
    def empty_rows(self) -> np.ndarray:
        """Which rows of the matrix hold no sample (a class absent from the truth).

        Their percentages in :attr:`row_percentages` divide by zero: they are the
        zero-division rule's 0.0, and every format marks them as it marks that class's recall
        (:data:`confmat.report.marks.ZERO_DIVISION_MARK`; the one rule:
        :func:`confmat.report.marks.row_percentages`, shared with ``str(cm)``).

        Examples
        --------
        >>> Report("", [0, 1], np.array([[3, 1], [0, 0]]), [], []).empty_rows.tolist()
        [False, True]
        """
        return row_percentages(self.counts)[1]

    @property
    def support(self) -> np.ndarray:
        """Row totals: the count of each true class."""
        return self.counts.sum(axis=1)

    @property
    def warnings(self) -> list[str]:
        """What a reader must not miss, shown at the top of every format: a ROC AUC below 0.5
        (the other class's scores?), tiny classes, heavy imbalance
        (see :mod:`confmat.report.findings`).

        Examples
        --------
        >>> Report("", ["a", "b"], np.array([[300, 1], [2, 3]]), [], []).warnings[0][:22]
        'class b has only 5 tru'
        """
        return auc_warnings(self.curves, self.labels) + support_warnings(self.labels,
                                                                         self.support)

    @property
    def positive_class(self) -> Any:
        """The positive class of a binary report: that of its score curve, else the one the
        labels imply ({0, 1}, {-1, 1}, {False, True}); None otherwise."""
        if len(self.labels) != 2:
            return None
        if len(self.curves) == 1:
            return self.curves[0].pos_label
        return default_pos_label(list(self.labels))

    @property
    def headline(self) -> list[MetricValue]:
        """The headline metrics, with intervals where the report has them
        (:func:`confmat.report.findings.headline_names`): F1 of the positive class for a
        binary report (macro F1 when no class is positive), ROC AUC and average precision
        when scores were given (multi-class: means of the one-vs-rest areas).

        Examples
        --------
        >>> from confmat.report import build_report
        >>> rep = build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False)
        >>> [(m.name, m.value) for m in rep.headline][:4]
        [('accuracy', 0.875), ('balanced_accuracy', 0.875), ('mcc', 0.7745966692414834), ('f1', 0.8888888888888888)]
        """
        by = {m.name: m for m in self.overall}
        rows = {r.name: r for r in self.per_class}
        out = []
        for name in headline_names(len(self.labels)):
            if name in by:
                out.append(by[name])
            elif name in ("f1", "f1_macro") and "f1" in rows:
                r, pos = rows["f1"], self.positive_class
                spec = get_metric("f1")
                if name == "f1" and pos in self.labels:
                    k = self.labels.index(pos)
                    iv = r.intervals[k] if r.intervals else None
                    out.append(MetricValue("f1", f"F1 of class {pos}", r.values[k], iv,
                                           None, True, spec.range, spec.family,
                                           undefined=k in r.undefined))
                else:
                    out.append(MetricValue("f1_macro", "macro-averaged F1", r.averages["macro"],
                                           self.extra_intervals.get("f1_macro"), None, True,
                                           spec.range, spec.family))
            elif name in ("roc_auc", "average_precision") and self.curves:
                vals = [c.auc if name == "roc_auc" else c.average_precision for c in self.curves]
                if any(v is None for v in vals) or (len(vals) > 1
                                                     and len(vals) != len(self.labels)):
                    continue
                full = "ROC AUC" if name == "roc_auc" else "average precision"
                if len(vals) > 1:
                    full += " (mean of the one-vs-rest curves)"
                out.append(MetricValue(name, full, float(np.mean([float(v or 0.0) for v in vals])),
                                       None, None, True,
                                       (0.0, 1.0), "curves"))
        return out

    @property
    def roc_summary(self) -> list[MetricValue]:
        """The ROC summary numbers beyond the curves' areas: the one-vs-rest averages and
        Hand and Till's AUC (multi-class), one point of the confidence band, the partial AUC
        (:func:`confmat.report.roc_summaries.summary_rows`); empty when there are none."""
        from .roc_summaries import summary_rows

        return [MetricValue(name, full, value, iv, None, True, (0.0, 1.0), "curves", method)
                for name, full, value, iv, method in summary_rows(
                    self.roc_averages, self.multiclass_auc, self.roc_band, self.partial_auc)]

    @property
    def findings(self) -> list[str]:
        """Plain sentences for the top of the report: the weakest class, the largest
        confusion, the calibration of probabilities and the cost-optimal threshold
        (:mod:`confmat.report.findings`).

        Examples
        --------
        >>> Report("", ["a", "b"], np.array([[5, 1], [3, 4]]), [], []).findings
        ['largest confusion: true b predicted as a, 3 times (42.9% of b)']
        """
        out = []
        rec = next((r for r in self.per_class if r.name == "recall"), None)
        if rec is not None:
            w = weakest_class(self.labels, rec.values, rec.intervals, self.support,
                              np.diagonal(self.counts))
            if w:
                out.append(w)
        lc = largest_confusion(self.labels, self.counts)
        if lc:
            out.append(lc)
        if self.calibration is not None:
            out.append(calibration_finding(self.calibration))
        if self.cost is not None:
            out.append(cost_finding(self.cost))
        return out

    def one_vs_rest(self, pos_label: Any) -> np.ndarray | None:
        """The printed matrix as a 2 x 2 table of ``pos_label`` against the rest.

        Layout ``[[TN, FP], [FN, TP]]`` (the layout of
        :class:`~confmat.curves.ThresholdSweep`); None when ``pos_label`` is not a label.

        Parameters
        ----------
        pos_label : label

        Returns
        -------
        ndarray of shape (2, 2) or None

        Examples
        --------
        >>> rep = Report("", ["a", "b"], np.array([[3, 1], [2, 4]]), [], [])
        >>> rep.one_vs_rest("b").tolist()
        [[3.0, 1.0], [2.0, 4.0]]
        """
        if pos_label not in self.labels:
            return None
        k = self.labels.index(pos_label)
        c = np.asarray(self.counts, np.float64)
        # FN, FP and TN as the per-class tables have them: each the exact sum of its cells,
        # rounded once (differences of rounded sums differ in the last bits for weights)
        fn, fp, tn = one_vs_rest(c, len(self.labels))
        return np.array([[tn[k], fp[k]], [fn[k], c[k, k]]])

    def overall_value(self, name: str) -> float:
        """Value of an overall metric held by the report (by registry name or alias).

        Parameters
        ----------
        name : str

        Returns
        -------
        float

        Raises
        ------
        KeyError
            The report holds no such metric.

        Examples
        --------
        >>> from confmat.report import build_report
        >>> build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False).overall_value("acc")
        0.875
        """
        key = get_metric(name).name
        for m in self.overall:
            if m.name == key:
                return m.value
        raise KeyError(f"the report holds no overall metric {name!r}")

    def slider_data(self) -> list[dict[str, Any]]:
        """Per positive class, every value the HTML threshold slider shows, at every threshold
        it can stop at (see :meth:`ScoreCurve.slider`; at most
        :func:`~confmat.report.slider.slider_points` thresholds per class), opening on the
        printed matrix.

        When the printed matrix leaves samples out (``labels`` naming a subset of the
        classes, :attr:`ConfusionMatrix.n_outside`), the slider, like the curves and their
        areas, still counts every sample (the positive class against all others, as
        scikit-learn's ``roc_auc_score``): no stop is then the printed matrix, and the
        opening note (``start_note``) says so with both sample counts first.

        Returns
        -------
        list of dict

        Examples
        --------
        >>> from confmat.report import build_report
        >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
        >>> cm = ConfusionMatrix.from_predictions(y, [int(v >= 0.4) for v in s])
        >>> d = build_report(cm, y_true=y, y_score=s, intervals=False).slider_data()[0]
        >>> d["thresholds"][d["start"]]
        0.4
        """
        out = []
        points = slider_points(len(self.curves))
        subset = self.matrix is not None and bool(self.matrix.n_outside)
        for c in self.curves:
            cost = self.cost if self.cost is not None and self.cost.pos_label == c.pos_label \
                else None
            d = c.slider(None if subset else self.one_vs_rest(c.pos_label),
                         max_points=points,
                         cost_matrix=None if cost is None else cost.cost_matrix,
                         cost_threshold=None if cost is None else cost.threshold)
            if subset:
                note = subset_note(c.positives + c.negatives, self.n, c.pos_label)
                d["start_note"] = f"{note[0].upper()}{note[1:]}. {d['start_note']}"
                d["start_is_printed_matrix"] = False
            out.append(d)
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (NaN and infinities as ``null``).

        Returns
        -------
        dict
            ``schema`` 'confmat.report', version 1.

        Examples
        --------
        >>> from confmat.report import build_report
        >>> build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False).to_dict()["counts"]
        [[3, 1], [0, 4]]
        """
        return {
            "schema": "confmat.report",
            "version": 1,
            "title": self.title,
            "source": dict(self.source),
            "labels": [label_json(v) for v in self.labels],
            "n": num(self.n),
            "counts": self.counts.tolist(),
            "row_percentages": [[num(v) for v in r] for r in self.row_percentages],
            "row_percentages_undefined": [int(i) for i in np.flatnonzero(self.empty_rows)],
            "interval_level": self.level,
            "per_class": [r.to_dict() for r in self.per_class],
            "overall": [m.to_dict() for m in self.overall],
            "curves": [c.to_dict() for c in self.curves],
            "headline": [m.to_dict() for m in self.headline],
            "findings": self.findings,
            "warnings": self.warnings,
            "notes": list(self.notes),
            "calibration": None if self.calibration is None else self.calibration.to_dict(),
            "cost": None if self.cost is None else self.cost.to_dict(),
            "roc_averages": None if self.roc_averages is None else self.roc_averages.to_dict(),
            "groups": None if self.groups is None else self.groups.to_dict(),
            "roc_band": None if self.roc_band is None else self.roc_band.to_dict(),
            "multiclass_auc": None if self.multiclass_auc is None
            else self.multiclass_auc.to_dict(),
            "partial_auc": None if self.partial_auc is None else self.partial_auc.to_dict(),
        }

    def __repr__(self) -> str:
        return f"<Report {self.title!r}: {len(self.labels)} classes, n={self.n:g}>"
