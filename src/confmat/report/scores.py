"""Score curves of a report: one :class:`~confmat.curves.ThresholdSweep` per positive class.

The sweep holds the per-threshold 2 x 2 tables (``[[TN, FP], [FN, TP]]``, rule
``score >= threshold``); every value the report shows of them - ROC and PR points, marked
thresholds, and each value of the HTML threshold slider - is read through the sweep's public
API and the metric registry (:func:`confmat.plots.sweep_metric`). The page's script only looks
values up. The positive class is resolved by the input door
(:func:`confmat.inputs.targets.resolve_pos_label`), never here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..curves import ThresholdSweep
from ..inputs.targets import encode_truth, resolve_pos_label
from ..metrics import get_metric
from ..plots import sweep_from_predictions, sweep_metric, thin_index
from .jsonable import label_json, num

#: thresholds kept for the interactive slider; longer sweeps are thinned to this many (exact
#: counts at each kept threshold)
MAX_SLIDER_THRESHOLDS = 2000

#: registry metrics the slider shows at each threshold (values computed here, not in the page)
SLIDER_METRICS = ("recall", "specificity", "precision", "npv", "f1", "accuracy",
                  "balanced_accuracy", "informedness", "markedness", "mcc")


@dataclass
class ScoreCurve:
    """One positive class against the rest: its threshold sweep and areas.

    Parameters
    ----------
    sweep : ThresholdSweep
        Counts at every threshold (positive class ``sweep.labels[1]``).
    auc, average_precision : float, optional
        ROC AUC and average precision (None when one class is absent).
    exact : bool
        False for curves from score bins (then ``auc`` has a known error bound).

    Examples
    --------
    >>> c = score_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0, 1])[0]
    >>> c.pos_label, c.auc, c.positives, c.negatives
    (1, 0.75, 2.0, 2.0)
    """

    sweep: ThresholdSweep
    auc: float | None = None
    average_precision: float | None = None
    exact: bool = True

    @property
    def pos_label(self) -> Any:
        """The positive class."""
        return self.sweep.labels[1]

    @property
    def thresholds(self) -> np.ndarray:
        """The sweep's thresholds (decreasing)."""
        return np.asarray(self.sweep.thresholds, np.float64)

    @property
    def positives(self) -> float:
        """Total (weighted) count of the positive class."""
        return float(self.sweep.tp[0] + self.sweep.fn[0]) if len(self.sweep) else 0.0

    @property
    def negatives(self) -> float:
        """Total (weighted) count of the other classes."""
        return float(self.sweep.fp[0] + self.sweep.tn[0]) if len(self.sweep) else 0.0

    def start_index(self, table: np.ndarray | None) -> tuple[int, bool]:
        """Where the slider opens: the threshold whose 2 x 2 table equals ``table``.

        Parameters
        ----------
        table : ndarray of shape (2, 2) or None
            The printed matrix as positive class against the rest, ``[[TN, FP], [FN, TP]]``.

        Returns
        -------
        index : int
            Position in :attr:`thresholds`: the matching threshold, or else the rule
            ``score >= 0.5`` (scores in [0, 1]) or the median threshold.
        matched : bool
            Whether ``table`` is one of the sweep's tables.

        Examples
        --------
        >>> c = score_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0, 1])[0]
        >>> c.start_index(np.array([[1, 1], [1, 1]]))
        (1, True)
        """
        t = self.thresholds
        if len(t) == 0:
            return 0, False
        if table is not None:
            tb = np.asarray(table, np.float64)
            hit = np.flatnonzero(np.isclose(self.sweep.tp, tb[1, 1])
                                 & np.isclose(self.sweep.fp, tb[0, 1])
                                 & np.isclose(self.sweep.fn, tb[1, 0])
                                 & np.isclose(self.sweep.tn, tb[0, 0]))
            if hit.size:
                return int(hit[0]), True
        if t.min() >= 0.0 and t.max() <= 1.0:
            at_least = np.flatnonzero(t >= 0.5)  # rule score >= 0.5: lowest threshold >= 0.5
            return (int(at_least[-1]) if at_least.size else 0), False
        return len(t) // 2, False

    def slider(self, table: np.ndarray | None = None,
               max_points: int = MAX_SLIDER_THRESHOLDS) -> dict[str, Any]:
        """Every value the HTML slider shows, at every threshold it can stop at.

        The thresholds are thinned to ``max_points`` (the opening one always kept); counts
        come from ``sweep.tables`` and each metric of :data:`SLIDER_METRICS`, the FPR and TPR
        of the ROC dot from the registry on those tables (undefined values as ``None``).

        Parameters
        ----------
        table : ndarray of shape (2, 2), optional
            The printed matrix (positive against the rest); the slider opens on it when it is
            one of the sweep's tables.
        max_points : int

        Returns
        -------
        dict
            ``thresholds`` (decreasing), ``tp``, ``fn``, ``fp``, ``tn``, ``fpr``, ``tpr``,
            ``metrics`` (name -> values), ``full_names``, ``start`` (opening index),
            ``start_is_printed_matrix``, ``pos_label``, ``thinned``.

        Examples
        --------
        >>> c = score_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0, 1])[0]
        >>> d = c.slider(np.array([[1, 1], [1, 1]]))
        >>> d["thresholds"][d["start"]], d["metrics"]["precision"][d["start"]]
        (0.4, 0.5)
        """
        start, matched = self.start_index(table)
        idx = thin_index(len(self.thresholds), max_points)
        if start not in idx:
            idx = np.sort(np.r_[idx, start])
        tables = np.asarray(self.sweep.tables, np.float64)[idx]
        values = {m: [num(v) for v in sweep_metric(self.sweep, m, idx, zero_division=np.nan)]
                  for m in SLIDER_METRICS}
        return {
            "pos_label": label_json(self.pos_label),
            "rule": "score >= threshold",
            "thresholds": [float(v) for v in self.thresholds[idx]],
            "tp": tables[:, 1, 1].tolist(),
            "fn": tables[:, 1, 0].tolist(),
            "fp": tables[:, 0, 1].tolist(),
            "tn": tables[:, 0, 0].tolist(),
            "fpr": [num(v) for v in sweep_metric(self.sweep, "fpr", idx)],
            "tpr": [num(v) for v in sweep_metric(self.sweep, "recall", idx)],
            "metrics": values,
            "full_names": {m: get_metric(m).full_name for m in SLIDER_METRICS},
            "start": int(np.searchsorted(idx, start)),
            "start_is_printed_matrix": matched,
            "thinned": len(idx) < len(self.thresholds),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: areas and the (thinned) cumulative counts.

        Returns
        -------
        dict

        Examples
        --------
        >>> c = score_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0, 1])[0]
        >>> c.to_dict()["tp"]
        [1.0, 1.0, 2.0, 2.0]
        """
        idx = thin_index(len(self.thresholds), MAX_SLIDER_THRESHOLDS)
        return {
            "pos_label": label_json(self.pos_label),
            "rule": "score >= threshold",
            "positives": self.positives,
            "negatives": self.negatives,
            "thresholds": [float(v) for v in self.thresholds[idx]],
            "tp": [float(v) for v in np.asarray(self.sweep.tp)[idx]],
            "fp": [float(v) for v in np.asarray(self.sweep.fp)[idx]],
            "auc": None if self.auc is None else num(self.auc),
            "average_precision": None
            if self.average_precision is None else num(self.average_precision),
            "thinned": len(idx) < len(self.thresholds),
            "exact": self.exact,
        }


def score_curves(y_true: Any, y_score: Any, labels: Sequence[Any], *, pos_label: Any = None,
                 sample_weight: Any = None) -> list[ScoreCurve]:
    """The score curves of a report: one per positive class.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_score : array-like of shape (n,) or (n, K)
        A vector of positive-class scores (``pos_label`` by confmat's rule: required unless
        the labels are {0, 1}, {-1, 1} or {False, True}), or one column per label of
        ``labels`` (one-vs-rest curves for every class; for two classes only the positive
        class's, resolved by the same rule).
    labels : sequence
        The report's classes (column order of a 2-D ``y_score``).
    pos_label : label, optional
    sample_weight : array-like of shape (n,), optional

    Returns
    -------
    list of ScoreCurve

    Raises
    ------
    ValueError
        Scores of the wrong shape or not finite; ``pos_label`` missing for other labels or
        not among them.

    Examples
    --------
    >>> [c.pos_label for c in score_curves(["a", "b", "c"], np.eye(3), ["a", "b", "c"])]
    ['a', 'b', 'c']
    """
    labels = list(labels)
    s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    n = len(np.asarray(y_true))
    if s.ndim == 1:
        if s.shape[0] != n:
            raise ValueError(f"y_score must be one value per sample: got shape {s.shape} for "
                             f"{n} labels")
        return [_curve(y_true, s, pos_label, sample_weight)]
    if s.ndim != 2 or s.shape[1] != len(labels) or s.shape[0] != n:
        raise ValueError(f"y_score must have one column per class ({len(labels)}: {labels}) "
                         f"and one row per sample ({n}), got shape {s.shape}")
    if pos_label is not None:
        if pos_label not in labels:
            raise ValueError(f"pos_label={pos_label!r} is not one of the labels {labels}")
        chosen = [pos_label]
    elif len(labels) == 2:
        chosen = [resolve_pos_label(encode_truth(y_true)[0], None)]
    else:
        chosen = labels
    return [_curve(y_true, s[:, labels.index(c)], c, sample_weight) for c in chosen]


def _curve(y_true: Any, s: Any, pos_label: Any, sample_weight: Any) -> ScoreCurve:
    sweep, auc, ap = sweep_from_predictions(y_true, s, pos_label=pos_label,
                                            sample_weight=sample_weight)
    return ScoreCurve(sweep, auc, ap)


def curves_from_histogram(hist: Any, pos_labels: Sequence[Any] | None = None
                          ) -> tuple[list[ScoreCurve], list[str]]:
    """Score curves from a binned :class:`confmat.binned.ScoreHistogram`.

    The thresholds are the lower edges of the non-empty bins; counts there are exact for the
    rule ``score >= edge``. Without ``pos_labels``, a binary histogram gives the curve of its
    second label (the class its scores are of) and a multiclass one a curve per class.

    Parameters
    ----------
    hist : ScoreHistogram
    pos_labels : sequence of labels, optional

    Returns
    -------
    curves : list of ScoreCurve
    notes : list of str
        Each AUC's error bound.

    Examples
    --------
    >>> from confmat.binned import ScoreHistogram
    >>> h = ScoreHistogram(bins=10)
    >>> h = h.update([0, 0, 1, 1], [0.15, 0.45, 0.35, 0.85])
    >>> curves, notes = curves_from_histogram(h)
    >>> curves[0].auc, len(notes)
    (0.75, 1)
    """
    labels = list(hist.labels)
    if pos_labels is None:
        pos_labels = [labels[1]] if hist.is_binary else labels
    curves, notes = [], []
    for pl in pos_labels:
        kw = {} if hist.is_binary else {"pos_label": pl}
        sw = hist.threshold_sweep(**kw)
        c = ScoreCurve(sw, exact=False)
        if c.positives > 0 and c.negatives > 0:
            c.auc = float(hist.roc_auc(**kw))
            c.average_precision = float(hist.average_precision(**kw))
            bound = float(hist.auc_error_bound(**kw))
            notes.append(f"class {pl}: curves from {hist.bins} score bins; the ROC AUC is within "
                         f"{bound:.2g} of the exact one")
        curves.append(c)
    return curves, notes
