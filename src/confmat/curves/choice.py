"""Threshold choice: the threshold of a binary scorer that optimizes a criterion
(:func:`best_threshold`), read off its :class:`~confmat.curves.sweep.ThresholdSweep`, with
exact ties broken towards the highest threshold (:func:`first_best`)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..inputs.decisions import check_cost_matrix
from ..inputs.targets import binary_target
from ..matrix import ConfusionMatrix
from ..metrics import get_metric
from .best import roc_criterion
from .common import check_real
from .rank import cumulative_counts
from .sweep import ThresholdSweep, counts_below


@dataclass(frozen=True)
class ThresholdChoice:
    """The chosen threshold, the criterion's value there and the confusion matrix there
    (decision rule ``score >= threshold``; ``inf`` means "predict nothing positive").

    Returned by :func:`best_threshold`.

    Parameters
    ----------
    threshold : float
        The chosen threshold, in score units.
    criterion : str
        The criterion, lower-cased (e.g. ``'youden'``).
    value : float
        The criterion's value at ``threshold`` (the metric, or the expected cost per sample).
    confusion_matrix : ConfusionMatrix
        The confusion matrix at ``threshold`` (labels ``[negative, positive]``).
    details : dict
        The criterion's parameters (``beta``, ``target``, ``cost_matrix``) when it has any.

    Examples
    --------
    >>> c = best_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], "f1")
    >>> c.threshold, round(c.value, 3), c.details
    (0.35, 0.8, {'beta': 1.0})
    """

    threshold: float
    criterion: str
    value: float
    confusion_matrix: ConfusionMatrix
    details: dict[str, Any] = field(default_factory=dict)


def first_best(values: np.ndarray, tp: np.ndarray, fp: np.ndarray, n_pos: Any, n_neg: Any,
               criterion: str, beta: float = 1.0) -> int:
    r"""Where ``values`` (to maximise) are best, the first (highest threshold) on ties, with
    the ties of Youden's index, the distance to the top-left corner, the MCC and
    :math:`F_\beta` found exactly.

    Two thresholds can tie exactly, :math:`(16/21)^2 + (12/21)^2 = (20/21)^2 + 0^2`, while
    their float64 values differ in the last bit, and ``argmax`` would then pick the lower
    threshold. When the counts are whole numbers (counts, or integer weights), the
    candidates within rounding of the best are compared as fractions: :math:`\mathrm{TP}/P
    - \mathrm{FP}/N`, minus the squared distance, :math:`\mathrm{sign}(c)\,c^2/d` for the
    MCC :math:`c/\sqrt{d}` (0 when :math:`d = 0`, as the registry), or :math:`F_\beta`;
    otherwise ``argmax`` decides.

    Parameters
    ----------
    values : ndarray
        The criterion at each threshold, higher is better (minus the squared distance for
        ``'closest_topleft'``); NaN where undefined, not everywhere.
    tp, fp : ndarray
        The counts at each threshold.
    n_pos, n_neg : int or float
        Total positives and negatives.
    criterion : {'youden', 'closest_topleft', 'mcc', 'fbeta'}
        Any other name: ``nanargmax`` alone.
    beta : float, default=1.0
        The ``beta`` of ``'fbeta'``.

    Returns
    -------
    int

    Examples
    --------
    >>> tp, fp = np.array([0, 1, 5, 21]), np.array([0, 0, 12, 21])
    >>> v = -((1 - tp / 21) ** 2 + (fp / 21) ** 2)  # thresholds 1 and 2 tie exactly
    >>> int(np.argmax(v)), first_best(v, tp, fp, 21, 21, "closest_topleft")
    (2, 1)
    """
    i = int(np.nanargmax(values))
    if criterion not in ("youden", "closest_topleft", "mcc", "fbeta"):
        return i
    best = float(values[i])
    near = np.flatnonzero(values >= best - 1e-9 * max(1.0, abs(best)))
    counts = np.concatenate([tp[near], fp[near], [n_pos, n_neg]]).astype(np.float64)
    if near.size == 1 or not (np.all(counts == np.round(counts)) and counts.max() < 2.0**53):
        return i
    big_p, big_n = int(n_pos), int(n_neg)
    b2 = Fraction(beta) ** 2

    def exact(j: int) -> Fraction:
        t, f = int(tp[j]), int(fp[j])
        fn, tn = big_p - t, big_n - f
        if criterion == "youden":
            return Fraction(t, big_p) - Fraction(f, big_n)
        if criterion == "closest_topleft":
            return -((1 - Fraction(t, big_p)) ** 2 + Fraction(f, big_n) ** 2)
        if criterion == "mcc":
            c, d = t * tn - f * fn, (t + f) * (t + fn) * (tn + f) * (tn + fn)
            return Fraction((1 if c >= 0 else -1) * c * c, d) if d else Fraction(0)
        return Fraction((1 + b2) * t) / ((1 + b2) * t + b2 * fn + f)  # near the best: defined

    scores = [exact(int(j)) for j in near]
    return int(near[scores.index(max(scores))])


_CRITERIA = ("youden", "closest_topleft", "mcc", "f1", "fbeta", "cost", "recall", "precision")


def best_threshold(
    y_true: Any,
    y_score: Any,
    criterion: str = "youden",
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    beta: float = 1.0,
    cost_matrix: Any = None,
    target: float | None = None,
) -> ThresholdChoice:
    """Choose a threshold from the data (decision rule ``score >= threshold``).

    Candidates are ``+inf`` (predict nothing positive) and every distinct score.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`roc_curve`.
    criterion : str, default='youden'
        - ``'youden'``: maximize Youden's :math:`J = TPR - FPR` (informedness).
        - ``'closest_topleft'``: minimize the squared distance to the corner (0, 1) of the
          ROC plot, :math:`(1 - TPR)^2 + FPR^2` (pROC's ``closest.topleft``; for pROC's
          ``best.weights`` and every tied point see :func:`confmat.curves.best.best_thresholds`).
        - ``'mcc'``: maximize the Matthews correlation coefficient.
        - ``'f1'`` / ``'fbeta'``: maximize :math:`F_\\beta` (``beta``, default 1).
        - ``'cost'``: minimize the expected cost per sample
          :math:`\\frac{1}{n}\\sum_{ij} C_{ij} M_{ij}(\\theta)` for ``cost_matrix`` ``C``
          (rows true, columns predicted, order ``[negative, positive]``; e.g. Kneusel 2021's
          cancer screening, where a missed cancer costs more than a false alarm:
          ``[[0, 1], [20, 0]]``).
        - ``'recall'``: the highest threshold whose recall is at least ``target``.
        - ``'precision'``: among thresholds whose precision is at least ``target``, the one
          with the highest recall (the highest such threshold on ties).
        - any other registry metric name: maximized when higher is better, else minimized.

        Ties are broken towards the highest threshold.
    beta : float, default=1.0
        The ``beta`` of ``'fbeta'``.
    cost_matrix : array-like of shape (2, 2), optional
        Costs of ``'cost'``.
    target : float in [0, 1], optional
        The level of ``'recall'`` and ``'precision'``.

    Returns
    -------
    ThresholdChoice
        The threshold, the criterion's value there and the confusion matrix there.

    Raises
    ------
    TypeError
        ``criterion`` is not a string; ``target`` or ``beta`` not a real number;
        ``cost_matrix`` not numbers.
    ValueError
        Unknown criterion; ``target`` or ``cost_matrix`` missing or invalid; ``target``,
        ``cost_matrix`` or a ``beta`` other than 1 given to a criterion that does not use
        it; no threshold reaches ``target``; the metric is undefined at every threshold;
        invalid input (as :func:`roc_curve`).

    Examples
    --------
    >>> c = best_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], "youden")
    >>> c.threshold, c.value
    (0.8, 0.5)
    """
    if not isinstance(criterion, str):
        raise TypeError(f"criterion must be a string, got {type(criterion).__name__}")
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    grid, tps, fps = cumulative_counts(b.pos, b.score, b.weight)
    cand = np.concatenate([[np.inf], grid])
    sweep = ThresholdSweep(cand, grid, tps, fps, tps[-1], fps[-1], [b.neg_label, b.pos_label],
                           below=counts_below(b.pos, b.score, b.weight, grid))
    crit = criterion.strip().lower()
    details: dict[str, Any] = {}
    if crit in ("recall", "precision"):
        if target is None:
            raise ValueError(f"criterion={crit!r} needs target= a number in [0, 1], got None")
        if not 0 <= check_real(target, "target") <= 1:
            raise ValueError(f"criterion={crit!r} needs target= a number in [0, 1], got {target!r}")
        details["target"] = float(target)
        values = sweep.metric(crit, zero_division="nan")
        ok = np.flatnonzero(values >= float(target))
        if ok.size == 0:
            best = np.nanmax(values) if not np.isnan(values).all() else float("nan")
            raise ValueError(f"no threshold reaches {crit} >= {target}; the best is {best}")
        if crit == "recall":
            i = int(ok[0])
        else:
            rec = sweep.metric("recall", zero_division=0)[ok]
            i = int(ok[int(np.argmax(rec))])
    elif crit == "closest_topleft":
        n_pos, n_neg = tps[-1], fps[-1]
        if not (n_pos > 0 and n_neg > 0):
            raise ValueError("closest_topleft needs both classes in y_true")
        se = sweep.tp / n_pos
        sp = (n_neg - sweep.fp) / n_neg
        values = -roc_criterion(np.asarray(se, dtype=np.float64),
                                np.asarray(sp, dtype=np.float64), "closest_topleft")
        i = first_best(-values, sweep.tp, sweep.fp, n_pos, n_neg, crit)
    elif crit == "cost":
        if cost_matrix is None:
            raise ValueError("criterion='cost' needs cost_matrix=[[C_TN, C_FP], [C_FN, C_TP]]")
        c = check_cost_matrix(cost_matrix)
        details["cost_matrix"] = c.tolist()
        values = (sweep.tables * c).sum(axis=(-2, -1)) / (tps[-1] + fps[-1])
        i = int(np.argmin(values))
    else:
        params: dict[str, Any] = {}
        name = {"youden": "informedness", "f1": "fbeta", "fbeta": "fbeta"}.get(crit, crit)
        spec = get_metric(name)
        if spec.name == "fbeta":
            params["beta"] = check_real(beta, "beta") if crit != "f1" else 1.0
            details["beta"] = params["beta"]
        values = sweep.metric(spec.name, zero_division="nan", **params)
        if np.isnan(values).all():
            raise ValueError(f"{spec.name} is undefined at every threshold")
        higher = spec.higher_is_better is not False
        if higher:
            i = first_best(values, sweep.tp, sweep.fp, tps[-1], fps[-1],
                           {"informedness": "youden"}.get(spec.name, spec.name),
                           params.get("beta", 1.0))
        else:
            i = int(np.nanargmin(values))
    # a parameter the criterion does not use would be ignored without a word
    if target is not None and "target" not in details:
        raise ValueError(f"target applies to criterion='recall' or 'precision', not {crit!r}")
    if cost_matrix is not None and "cost_matrix" not in details:
        raise ValueError(f"cost_matrix applies to criterion='cost', not {crit!r}")
    beta_given = (isinstance(beta, bool | np.bool_) or not isinstance(beta, numbers.Real)
                  or beta != 1.0)  # anything but the default number 1
    if beta_given and details.get("beta", 1.0) == 1.0:
        raise ValueError(f"beta={beta!r} applies to criterion='fbeta', not {crit!r}")
    thr = float(cand[i])
    return ThresholdChoice(thr, crit, float(values[i]), sweep.at(thr), details)
