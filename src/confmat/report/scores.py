"""Score curves of a report: one :class:`~confmat.curves.ThresholdSweep` per positive class.

The sweep holds the per-threshold 2 x 2 tables (``[[TN, FP], [FN, TP]]``, rule
``score >= threshold``); every value the report shows of them - ROC and PR points, marked
thresholds, and each value of the HTML threshold slider - is read through the sweep's public
API and the metric registry (:func:`stack_metric` on its tables). The slider has one stop more
than the sweep: above every score (threshold ``inf``, no sample predicted positive), the
first threshold of scikit-learn's ``roc_curve``. The page's script only looks values up. The positive class is resolved by the input door
(:func:`confmat.inputs.targets.resolve_pos_label`), never here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..curves import ThresholdSweep
from ..inputs.encode import encode_pair
from ..inputs.probabilities import in_unit_interval
from ..inputs.score_columns import check_score_columns
from ..inputs.score_shape import check_score_length
from ..inputs.scores import check_finite_columns
from ..inputs.targets import (
    EncodedTruth,
    check_scores_1d,
    check_scores_2d,
    encoded_truth,
    resolve_pos_label,
)
from ..metrics import get_metric
from ..plots import sweep_from_predictions, thin_index
from ..words import arg_value
from .jsonable import label_json, num
from .slider import (  # noqa: F401  (re-exported)
    ABOVE_EVERY_SCORE,
    MAX_SLIDER_STOPS,
    MAX_SLIDER_THRESHOLDS,
    MIN_SLIDER_THRESHOLDS,
    SLIDER_METRICS,
    slider_points,
    stack_metric,
    subset_note,
    table_metric,
    theta_text,
)


class Opening(NamedTuple):
    """Where the threshold slider opens (see :meth:`ScoreCurve.opening`).

    Parameters
    ----------
    start : int
        Position in :attr:`ScoreCurve.stops` (0: the stop above every score).
    mode : {'predictions', 'counts', 'conventional'}
        The model's own predictions; the threshold whose table equals the printed matrix;
        the conventional point (0.5 for probabilities, 0 for decision functions).
    note : str
        The reason, in words for the page.
    """

    start: int
    mode: str
    note: str


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
    predicted_interval : tuple of float, optional
        ``(low, high)``: the model's predictions are exactly ``score >= θ`` for every θ in
        ``(low, high]`` (``low`` is ``-inf`` when every sample is predicted positive,
        ``high`` is ``inf`` when none is). None when they are no threshold of the scores
        or were not given.
    predictions_given : bool
        Whether the model's predictions were compared with the scores.

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
    predicted_interval: tuple[float, float] | None = None
    predictions_given: bool = False

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

    @property
    def stops(self) -> np.ndarray:
        """The slider's thresholds, decreasing: ``inf`` (above every score: no sample
        predicted positive, as the first threshold of scikit-learn's ``roc_curve``), then
        :attr:`thresholds` (the lowest predicts every sample positive)."""
        return np.r_[math.inf, self.thresholds]

    @property
    def stop_tables(self) -> np.ndarray:
        """The ``(len(stops), 2, 2)`` tables ``[[TN, FP], [FN, TP]]`` at :attr:`stops`: the
        all-negative table (TP = FP = 0) above every score, then the sweep's tables."""
        none = np.array([[[self.negatives, 0.0], [self.positives, 0.0]]])
        return np.concatenate([none, np.asarray(self.sweep.tables, np.float64)])

    def start_index(self, table: np.ndarray | None) -> tuple[int, bool]:
        """Where the slider opens, and whether that is the printed matrix (see :meth:`opening`).

        Parameters
        ----------
        table : ndarray of shape (2, 2) or None
            The printed matrix as positive class against the rest, ``[[TN, FP], [FN, TP]]``.

        Returns
        -------
        index : int
            Position in :attr:`stops`.
        matched : bool
            Whether the slider opens on the model's predictions or on a table equal to
            ``table``.

        Examples
        --------
        >>> c = score_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0, 1])[0]
        >>> c.start_index(np.array([[1, 1], [1, 1]]))
        (2, True)
        >>> c.start_index(np.array([[2, 0], [2, 0]]))  # nothing predicted positive
        (0, True)
        """
        op = self.opening(table)
        return op.start, op.mode != "conventional"

    def opening(self, table: np.ndarray | None = None) -> Opening:
        """Where the slider opens and why.

        In order: the model's own predictions when they are ``score >= θ`` for some θ
        (:attr:`predicted_interval`, known when ``y_pred`` was given to
        :func:`score_curves`; a model that predicts no sample positive is the stop above
        every score); else, without ``y_pred``, the stop whose 2 x 2 table equals ``table``;
        else the conventional point: θ = 0.5 when every score lies in [0, 1]
        (probabilities), θ = 0 otherwise (decision functions), that is the lowest stop at or
        above it.

        Parameters
        ----------
        table : ndarray of shape (2, 2) or None
            The printed matrix as positive class against the rest, ``[[TN, FP], [FN, TP]]``.

        Returns
        -------
        Opening

        Examples
        --------
        >>> c = score_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0, 1],
        ...                  y_pred=[0, 1, 0, 1])[0]
        >>> op = c.opening()
        >>> op.mode, float(c.stops[op.start])
        ('predictions', 0.4)
        >>> op = score_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0, 1],
        ...                   y_pred=[0, 0, 0, 0])[0].opening()
        >>> op.start, op.mode
        (0, 'predictions')
        >>> score_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0, 1],
        ...              y_pred=[0, 0, 1, 1])[0].opening().mode
        'conventional'
        """
        t = self.thresholds
        if len(t) == 0:
            return Opening(0, "conventional", "There are no scores to threshold.")
        iv = self.predicted_interval
        reason = ""
        if iv is not None and iv[1] == math.inf:
            return Opening(0, "predictions",
                           "It opens on the model's own predictions: no sample is predicted "
                           f"{self.pos_label}, that is score ≥ θ for every θ above every "
                           f"score (the largest is {theta_text(iv[0], -math.inf)}).")
        if iv is not None:
            k = np.flatnonzero(t == iv[1])
            if k.size:
                where = (f"every θ ≤ {theta_text(iv[1], -math.inf)}" if iv[0] == -math.inf
                         else f"every θ in ({theta_text(iv[0], -math.inf)}, "
                              f"{theta_text(iv[1], iv[0])}]")
                return Opening(int(k[0]) + 1, "predictions",
                               "It opens on the model's own predictions: they are exactly "
                               f"score ≥ θ for {where}.")
            reason = "The model's predictions are not a threshold of these scores; "
        elif self.predictions_given:
            reason = ("The model's predictions are not score ≥ θ for any single θ (for "
                      "example the largest of several classes' scores); ")
        elif table is not None:
            tb = np.asarray(table, np.float64)
            st = self.stop_tables
            hit = np.flatnonzero(np.isclose(st[:, 1, 1], tb[1, 1])
                                 & np.isclose(st[:, 0, 1], tb[0, 1])
                                 & np.isclose(st[:, 1, 0], tb[1, 0])
                                 & np.isclose(st[:, 0, 0], tb[0, 0]))
            if hit.size:
                return Opening(int(hit[0]), "counts",
                               "It opens on the threshold whose counts equal the printed "
                               "matrix.")
            reason = "The printed matrix is not the table of any threshold of these scores; "
        else:
            reason = "No predictions were given; "
        probabilities = in_unit_interval(t)
        point = 0.5 if probabilities else 0.0
        kind = ("probabilities (every score lies in [0, 1])" if probabilities
                else "decision-function scores")
        at_least = np.flatnonzero(t >= point)  # rule score >= point: lowest threshold >= point
        if at_least.size:
            return Opening(int(at_least[-1]) + 1, "conventional",
                           f"{reason}it opens at the conventional θ = {point:g} for {kind}.")
        return Opening(0, "conventional",
                       f"{reason}no score reaches the conventional θ = {point:g} for {kind}, "
                       "so it opens above every score (no sample predicted positive).")

    def slider(self, table: np.ndarray | None = None,
               max_points: int = MAX_SLIDER_THRESHOLDS, cost_matrix: Any = None,
               cost_threshold: float | None = None) -> dict[str, Any]:
        """Every value the HTML slider shows, at every threshold it can stop at.

        The stops are :attr:`stops`: one above every score (threshold ``inf``, no sample
        predicted positive, so TP = FP = 0 and the precision is 0 / 0) and each distinct
        score down to the lowest (every sample predicted positive). They are thinned to
        ``max_points`` (both ends, the opening one and the cost-optimal one always kept);
        counts come from :attr:`stop_tables` and each metric of :data:`SLIDER_METRICS`, the
        FPR and TPR of the ROC dot from the registry on those tables. A metric whose ratio
        divides by zero at a threshold follows the rule of the report's tables
        (:func:`confmat.report.build.zero_division_fills`): the undefined ratio counts as
        0.0 (scikit-learn's ``zero_division=0``), and ``undefined`` lists where, so that
        the page marks those values as the tables do.

        Parameters
        ----------
        table : ndarray of shape (2, 2), optional
            The printed matrix (positive against the rest); the slider opens on it when it is
            one of the stops' tables.
        max_points : int
        cost_matrix : array-like of shape (2, 2), optional
            Costs ``[[C_TN, C_FP], [C_FN, C_TP]]``: adds ``expected_cost`` (per sample, at
            each kept threshold).
        cost_threshold : float, optional
            The cost-optimal threshold (:class:`confmat.report.score_summaries.CostChoice`):
            adds ``cost_optimal``, its position among the kept stops (``inf``, predicting
            nothing positive, is the stop above every score).

        Returns
        -------
        dict
            ``thresholds`` (decreasing, the first ``inf``), ``tp``, ``fn``, ``fp``, ``tn``,
            ``fpr``, ``tpr``, ``metrics`` (name -> values), ``undefined`` (name -> positions
            of the values that come from the zero-division rule; metrics without any left
            out), ``full_names``, ``start`` (opening index),
            ``start_is_printed_matrix``, ``start_mode`` and ``start_note`` (see
            :meth:`opening`), ``theta_text`` (each threshold as typed, see
            :func:`theta_text`; :data:`ABOVE_EVERY_SCORE` for ``inf``), ``pos_label``,
            ``thinned``; with costs ``expected_cost`` and ``cost_optimal``.

        Examples
        --------
        >>> c = score_curves([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0, 1])[0]
        >>> d = c.slider(np.array([[1, 1], [1, 1]]))
        >>> d["thresholds"][d["start"]], d["metrics"]["precision"][d["start"]]
        (0.4, 0.5)
        >>> d["thresholds"][0], d["theta_text"][0], d["tp"][0], d["fp"][0]
        (inf, 'above every score', 0.0, 0.0)
        >>> d["undefined"]  # θ = 0.1 predicts every sample positive: NPV = 0 / 0
        {'precision': [0], 'npv': [4], 'markedness': [0, 4]}
        >>> d["metrics"]["npv"][4], d["metrics"]["markedness"][4]  # PPV 0.5 + 0 - 1
        (0.0, -0.5)
        """
        op = self.opening(table)
        start = op.start
        stops = self.stops
        idx = thin_index(len(stops), max_points)
        if start not in idx:
            idx = np.sort(np.r_[idx, start])
        at_cost = np.flatnonzero(stops == cost_threshold) \
            if cost_threshold is not None else np.array([], np.int64)
        if at_cost.size and at_cost[0] not in idx:
            idx = np.sort(np.r_[idx, at_cost[0]])
        tables = self.stop_tables[idx]
        at = int(np.searchsorted(idx, start))
        printed = table is not None and op.mode != "conventional"
        if printed:
            # the opening stop is the printed matrix: its own counts, not the sweep's
            # cumulative sums, which add weights in another order and may differ in the last
            # bits (a value at a decimal tie then printed another digit than the tables)
            tables[at] = np.asarray(table, np.float64)
        values: dict[str, list[float | None]] = {}
        undefined: dict[str, list[int]] = {}
        for m in SLIDER_METRICS:  # the tables' rule: an undefined ratio counts as 0.0
            v = stack_metric(tables, m, zero_division=0)
            left_open = stack_metric(tables, m, zero_division=np.nan)
            values[m] = [num(x) for x in v]
            fills = np.flatnonzero(np.isnan(left_open) & ~np.isnan(v))
            if fills.size:
                undefined[m] = fills.tolist()
        extra: dict[str, Any] = {}
        if cost_matrix is not None:
            c = np.asarray(cost_matrix, np.float64)
            n = tables[0].sum() if len(tables) else 0.0
            extra["expected_cost"] = [num(v) for v in (tables * c).sum(axis=(1, 2)) / n] \
                if n > 0 else []
            extra["cost_optimal"] = int(np.searchsorted(idx, at_cost[0])) if at_cost.size \
                else None
        return extra | {
            "pos_label": label_json(self.pos_label),
            "rule": "score >= threshold",
            "thresholds": [float(v) for v in stops[idx]],
            "theta_text": [ABOVE_EVERY_SCORE if i == 0 else theta_text(
                float(stops[i]), float(stops[i + 1]) if i + 1 < len(stops) else -math.inf)
                for i in idx],
            "tp": tables[:, 1, 1].tolist(),
            "fn": tables[:, 1, 0].tolist(),
            "fp": tables[:, 0, 1].tolist(),
            "tn": tables[:, 0, 0].tolist(),
            "fpr": [num(v) for v in stack_metric(tables, "fpr")],
            "tpr": [num(v) for v in stack_metric(tables, "recall")],
            "metrics": values,
            "undefined": undefined,
            "full_names": {m: get_metric(m).full_name for m in SLIDER_METRICS},
            "start": at,
            "start_is_printed_matrix": op.mode != "conventional",
            "start_mode": op.mode,
            "start_note": op.note,
            "thinned": len(idx) < len(stops),
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


def checked_scores(y_true: Any, y_score: Any, labels: Sequence[Any]) -> np.ndarray:
    """A report's scores as an array, their shape checked before the content of ``y_true``
    or of the scores (the door's order): one row per sample of ``y_true``
    (:func:`~confmat.inputs.score_shape.check_score_length`), and a matrix one column per
    class of the report (:func:`~confmat.inputs.score_columns.check_score_columns`).

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels (only their number is read).
    y_score : array-like of shape (n,), (n, 1) or (n, K)
        A vector of positive-class scores or one column per label of ``labels``.
    labels : sequence
        The report's classes.

    Returns
    -------
    ndarray
        ``y_score`` as an array; one column is returned 1-D.

    Raises
    ------
    ValueError
        Another number of rows than ``y_true``'s samples, of columns than ``labels``, or an
        array that is neither 1-D nor 2-D.

    Examples
    --------
    >>> checked_scores([0, 1, None], [[0.2], [0.7], [0.5]], [0, 1]).tolist()
    [0.2, 0.7, 0.5]
    >>> checked_scores([0, 1, None], [0.2, 0.7], [0, 1])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_score have different lengths: 3 and 2
    """
    s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    check_score_length(y_true, s)
    if s.ndim == 2:
        check_score_columns(s, list(labels))
    elif s.ndim != 1:  # the door's message of an array that is neither
        check_scores_2d(s, 0)
    return s


def score_curves(y_true: Any, y_score: Any, labels: Sequence[Any], *, pos_label: Any = None,
                 sample_weight: Any = None, y_pred: Any = None) -> list[ScoreCurve]:
    """The score curves of a report: one per positive class.

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels, encoded here once (:func:`confmat.inputs.targets.encoded_truth`) for
        every curve; a caller that holds them encoded passes the
        :class:`~confmat.inputs.truth.EncodedTruth`.
    y_score : array-like of shape (n,) or (n, K)
        A vector of positive-class scores (``pos_label`` by confmat's rule: required unless
        the labels are {0, 1}, {-1, 1} or {False, True}), or one column per label of
        ``labels`` (one-vs-rest curves for every class; for two classes only the positive
        class's, resolved by the same rule).
    labels : sequence
        The report's classes (column order of a 2-D ``y_score``).
    pos_label : label, optional
    sample_weight : array-like of shape (n,), optional
    y_pred : array-like of shape (n,), optional
        The model's predicted labels. Each curve then records whether they are
        ``score >= θ`` for some θ (:attr:`ScoreCurve.predicted_interval`), where the
        threshold slider opens.

    Returns
    -------
    list of ScoreCurve

    Raises
    ------
    ValueError
        Scores of the wrong shape (:func:`checked_scores`, before ``y_true`` is read) or not
        finite; ``pos_label`` missing for other labels or not among them; ``y_pred`` of
        another length than ``y_true``.

    Examples
    --------
    >>> [c.pos_label for c in score_curves(["a", "b", "c"], np.eye(3), ["a", "b", "c"])]
    ['a', 'b', 'c']
    """
    labels = list(labels)
    s = checked_scores(y_true, y_score, labels)
    if s.ndim == 1:
        truth = encoded_truth(y_true)
        return _with_predictions([_curve(truth, s, pos_label, sample_weight)], truth, s,
                                 labels, y_pred)
    if pos_label is not None and pos_label not in labels:
        raise ValueError(f"{arg_value('pos_label', pos_label)} is not one of the labels "
                         f"{labels}")
    truth = encoded_truth(y_true)
    if pos_label is not None:
        chosen = [pos_label]
    elif len(labels) == 2:
        chosen = [resolve_pos_label(list(truth.classes), None)]
    else:  # one-vs-rest curves of the classes y_true holds (the others have no positives)
        chosen = truth.present(labels) if len(truth.classes) > 1 else []
    if chosen:  # a NaN or infinite score of a column read is named by (row, column)
        check_finite_columns(s, [labels.index(c) for c in chosen])
    curves = [_curve(truth, s[:, labels.index(c)], c, sample_weight) for c in chosen]
    return _with_predictions(curves, truth, s, labels, y_pred)


def _with_predictions(curves: list[ScoreCurve], truth: EncodedTruth, s: np.ndarray,
                      labels: list[Any], y_pred: Any) -> list[ScoreCurve]:
    """Record on each curve the θ interval (if any) where ``score >= θ`` is ``y_pred``."""
    if y_pred is None:
        return curves
    _, codes, book, _ = encode_pair(truth, y_pred, labels)
    for c in curves:
        col = s if s.ndim == 1 else s[:, labels.index(c.pos_label)]
        score = check_scores_1d(col, codes.shape[0])
        predicted = (codes == book.index(c.pos_label)) if c.pos_label in book \
            else np.zeros(codes.shape[0], dtype=bool)
        c.predictions_given = True
        if predicted.all():
            c.predicted_interval = (-math.inf, float(score.min()))
        elif not predicted.any():
            c.predicted_interval = (float(score.max()), math.inf)
        else:
            low, high = float(score[~predicted].max()), float(score[predicted].min())
            c.predicted_interval = (low, high) if low < high else None
    return curves


def _curve(truth: EncodedTruth, s: Any, pos_label: Any, sample_weight: Any) -> ScoreCurve:
    sweep, auc, ap = sweep_from_predictions(truth, s, pos_label=pos_label,
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
