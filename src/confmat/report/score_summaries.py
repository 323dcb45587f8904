"""What a report adds from the scores beyond the curves: calibration, the cost-optimal
threshold and the micro / macro averages of multi-class ROC.

Each piece is computed by its layer - :func:`confmat.curves.calibration.calibration`,
:func:`confmat.curves.best_threshold` (``criterion='cost'``),
:func:`confmat.curves.roc_curve_ovr` - and only selected and held here for the renderers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..curves import OneVsRestROC, best_threshold, roc_curve_ovr
from ..curves.calibration import Calibration, calibration
from ..inputs.probabilities import first_row_off_one, in_unit_interval
from ..inputs.targets import encoded_truth
from .jsonable import label_json, num
from .scores import ScoreCurve
from .slider import ABOVE_EVERY_SCORE, theta_text


@dataclass
class CostChoice:
    """The cost-optimal threshold of a report's positive class (``score >= threshold``).

    Parameters
    ----------
    pos_label : label
        The positive class.
    cost_matrix : ndarray of shape (2, 2)
        Costs ``[[C_TN, C_FP], [C_FN, C_TP]]`` (rows true, columns predicted, order
        ``[rest, positive]``).
    threshold : float
        The threshold of least expected cost (``inf``: predict nothing positive).
    expected_cost : float
        Expected cost per sample at ``threshold``.
    counts : ndarray of shape (2, 2)
        The table at ``threshold``, ``[[TN, FP], [FN, TP]]``.
    model_cost : float, optional
        Expected cost per sample of the model's own predictions (the printed matrix as the
        positive class against the rest).
    text : str
        ``threshold`` as typed on the slider (see :func:`confmat.report.slider.theta_text`;
        :data:`~confmat.report.slider.ABOVE_EVERY_SCORE` for ``inf``).

    Examples
    --------
    >>> c = cost_choice([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 1, None, [[0, 1], [5, 0]])
    >>> c.threshold, c.expected_cost, c.counts.tolist()
    (0.35, 0.25, [[1.0, 1.0], [0.0, 2.0]])
    """

    pos_label: Any
    cost_matrix: np.ndarray
    threshold: float
    expected_cost: float
    counts: np.ndarray
    model_cost: float | None = None
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (an infinite threshold as ``None``).

        Returns
        -------
        dict

        Examples
        --------
        >>> c = cost_choice([0, 1], [0.2, 0.7], 1, None, [[0, 1], [1, 0]])
        >>> c.to_dict()["threshold"], c.to_dict()["expected_cost"]
        (0.7, 0.0)
        """
        return {
            "pos_label": label_json(self.pos_label),
            "cost_matrix": self.cost_matrix.tolist(),
            "rule": "score >= threshold",
            "threshold": num(self.threshold),
            "threshold_text": self.text,
            "expected_cost": num(self.expected_cost),
            "counts": self.counts.tolist(),
            "model_cost": None if self.model_cost is None else num(self.model_cost),
        }


def cost_choice(y_true: Any, score: Any, pos_label: Any, sample_weight: Any, cost_matrix: Any,
                table: np.ndarray | None = None) -> CostChoice:
    """The cost-optimal threshold of one score vector (:func:`confmat.curves.best_threshold`).

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels, or the :class:`~confmat.inputs.truth.EncodedTruth` of a caller that
        holds them encoded.
    score : array-like of shape (n,)
        Scores of ``pos_label``.
    pos_label : label
        The positive class (every other class is the rest).
    sample_weight : array-like of shape (n,) or None
    cost_matrix : array-like of shape (2, 2)
        ``[[C_TN, C_FP], [C_FN, C_TP]]``.
    table : ndarray of shape (2, 2), optional
        The model's own table ``[[TN, FP], [FN, TP]]``, for :attr:`CostChoice.model_cost`.

    Returns
    -------
    CostChoice

    Raises
    ------
    ValueError
        ``cost_matrix`` is not a finite 2 x 2 array (as :func:`confmat.curves.best_threshold`).

    Examples
    --------
    >>> cost_choice([0, 1], [0.2, 0.7], 1, None, [[0, 1], [1, 0]]).threshold
    0.7
    """
    choice = best_threshold(y_true, score, "cost", pos_label=pos_label,
                            sample_weight=sample_weight, cost_matrix=cost_matrix)
    c = np.asarray(choice.details["cost_matrix"], np.float64)
    counts = np.asarray(choice.confusion_matrix.counts, np.float64)
    model = None
    if table is not None and float(np.sum(table)) > 0:
        model = float((np.asarray(table, np.float64) * c).sum() / np.sum(table))
    s = np.unique(np.asarray(score, np.float64))
    t = choice.threshold
    below = s[s < t]
    text = theta_text(t, float(below[-1]) if below.size else -math.inf) \
        if math.isfinite(t) else ABOVE_EVERY_SCORE
    return CostChoice(choice.confusion_matrix.labels[1] if pos_label is None else pos_label,
                      c, t, choice.value, counts, model, text)


def score_column(y_score: Any, labels: list[Any], curve: ScoreCurve) -> np.ndarray:
    """The scores of ``curve``'s positive class: the vector itself, or its column.

    Parameters
    ----------
    y_score : array-like of shape (n,) or (n, K)
    labels : list
        Column order of a 2-D ``y_score``.
    curve : ScoreCurve

    Returns
    -------
    ndarray of shape (n,)

    Examples
    --------
    >>> from confmat.report.scores import score_curves
    >>> c = score_curves([0, 1], [[0.8, 0.2], [0.3, 0.7]], [0, 1])[0]
    >>> score_column([[0.8, 0.2], [0.3, 0.7]], [0, 1], c).tolist()
    [0.2, 0.7]
    """
    s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    if s.ndim == 1:
        return np.asarray(s, np.float64)
    return np.asarray(s[:, labels.index(curve.pos_label)], np.float64)


def report_calibration(y_true: Any, y_score: Any, labels: list[Any], curves: list[ScoreCurve],
                       sample_weight: Any, n_bins: int = 10
                       ) -> tuple[Calibration | None, str | None]:
    """The calibration a report shows, when its scores are probabilities.

    One score curve (a binary report, or one class against the rest): the calibration of that
    class's scores when they all lie in [0, 1]. One curve per class of a multi-class report:
    the top-label and one-vs-rest calibration when every row of probabilities lies in [0, 1]
    and sums to 1. Other scores (decision functions, unnormalised scores) get no calibration
    and a note saying why.

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels, or the :class:`~confmat.inputs.truth.EncodedTruth` of a caller that
        holds them encoded (a report hands its own).
    y_score : array-like of shape (n,) or (n, K)
    labels : list
        The report's classes (column order of a 2-D ``y_score``).
    curves : list of ScoreCurve
        The report's score curves.
    sample_weight : array-like of shape (n,) or None
    n_bins : int, default 10

    Returns
    -------
    calibration : Calibration or None
    note : str or None
        Why there is no calibration, when there is none.

    Examples
    --------
    >>> from confmat.report.scores import score_curves
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> cal, note = report_calibration(y, s, [0, 1], score_curves(y, s, [0, 1]), None)
    >>> round(cal.brier, 4), note
    (0.1581, None)
    """
    if not curves:
        return None, None
    s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if len(curves) == 1:
        col = score_column(s, labels, curves[0])
        if not in_unit_interval(col):
            return None, ("no calibration section: the scores are not probabilities (some lie "
                          "outside [0, 1])")
        truth = encoded_truth(y_true)
        if curves[0].pos_label not in truth.classes:
            return None, (f"no calibration section: y_true holds no sample of the positive "
                          f"class {curves[0].pos_label!r}")
        return calibration(truth, col, pos_label=curves[0].pos_label,
                           sample_weight=sample_weight, n_bins=n_bins), None
    p = np.asarray(s, np.float64)
    if not in_unit_interval(p) or first_row_off_one(p) is not None:
        return None, ("no calibration section: the class scores are not probabilities (each "
                      "row in [0, 1] summing to 1)")
    return calibration(y_true, p, labels=labels, sample_weight=sample_weight,
                       n_bins=n_bins), None


@dataclass
class RocAverages:
    """Micro and macro averages of a multi-class report's one-vs-rest ROC curves.

    Parameters
    ----------
    ovr : OneVsRestROC
        The per-class curves and the averaged curves (:func:`confmat.curves.roc_curve_ovr`).

    Examples
    --------
    >>> r = roc_averages([0, 1, 2, 2], [[.8, .1, .1], [.2, .3, .5], [.1, .2, .7],
    ...                                 [.3, .4, .3]], [0, 1, 2], None)
    >>> round(r.micro_auc, 4), round(r.macro_auc, 4)
    (0.8438, 0.8056)
    """

    ovr: OneVsRestROC

    @property
    def micro_auc(self) -> float:
        """Area under the micro-averaged curve (every sample-class pair pooled)."""
        return self.ovr.micro_auc

    @property
    def macro_auc(self) -> float:
        """Mean of the per-class areas (scikit-learn's macro one-vs-rest AUC)."""
        return self.ovr.macro_auc

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: both areas and both averaged curves.

        Returns
        -------
        dict
            ``micro_auc``, ``macro_auc``, ``macro_curve_auc`` (area under the averaged
            curve), ``micro`` and ``macro`` (``fpr``, ``tpr`` lists).

        Examples
        --------
        >>> roc_averages([0, 1, 2], np.eye(3), [0, 1, 2], None).to_dict()["micro_auc"]
        1.0
        """
        return {
            "micro_auc": num(self.micro_auc),
            "macro_auc": num(self.macro_auc),
            "macro_curve_auc": num(self.ovr.macro.auc),
            "micro": {"fpr": [float(v) for v in self.ovr.micro.fpr],
                      "tpr": [float(v) for v in self.ovr.micro.tpr]},
            "macro": {"fpr": [float(v) for v in self.ovr.macro.fpr],
                      "tpr": [float(v) for v in self.ovr.macro.tpr]},
        }


def roc_averages(y_true: Any, y_score: Any, labels: list[Any], sample_weight: Any
                 ) -> RocAverages:
    """The micro and macro one-vs-rest ROC averages of per-class scores.

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels, or the :class:`~confmat.inputs.truth.EncodedTruth` of a caller that
        holds them encoded.
    y_score : array-like of shape (n, K)
        One score column per class of ``labels``.
    labels : list
    sample_weight : array-like of shape (n,) or None

    Returns
    -------
    RocAverages

    Raises
    ------
    ValueError
        As :func:`confmat.curves.roc_curve_ovr`.

    Examples
    --------
    >>> roc_averages([0, 1, 2], np.eye(3), [0, 1, 2], None).macro_auc
    1.0
    """
    return RocAverages(roc_curve_ovr(y_true, y_score, labels=labels,
                                     sample_weight=sample_weight))
