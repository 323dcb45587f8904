"""Calibration of predicted probabilities: reliability curves, Brier score, log loss, ECE, MCE.

A classifier is calibrated when, among the samples it gives probability ``p``, a share ``p``
belongs to the class (DeGroot and Fienberg 1983). The reliability curve bins the
probabilities and compares, bin by bin, the mean predicted probability with the observed
frequency of the class (Niculescu-Mizil and Caruana 2005). Three numbers summarise it:

* the **Brier score** (Brier 1950), the mean squared difference between the probability and
  the outcome (0 or 1), a proper scoring rule that needs no bins; beside it the **log loss**
  (the logarithmic score of Good 1952), the mean of ``-log`` of the probability given to the
  class that occurred, also proper and binless, and harsher on confident mistakes (both in
  :mod:`confmat.curves.scoring_rules`);
* the **expected calibration error** (ECE, Naeini et al. 2015), the mean over bins of
  ``|observed - predicted|`` weighted by each bin's share of the samples;
* the **maximum calibration error** (MCE, Naeini et al. 2015), the largest such gap over the
  non-empty bins.

Bins are those of scikit-learn's ``calibration_curve``: ``n_bins`` equal-width bins on
[0, 1] (``strategy='uniform'``) or edges at the quantiles of the probabilities
(``strategy='quantile'``, ``numpy.percentile`` with linear interpolation, unweighted, over the
samples of non-zero weight), and a
probability equal to an inner edge falls in the bin *below* it (bins ``[e0, e1]``,
``(e1, e2]``, ..., ``(e_{n-1}, e_n]``). Unlike scikit-learn, empty bins are kept (with NaN
means and zero counts, so that every bin has a place in a figure or a table);
:attr:`ReliabilityCurve.nonempty` selects the bins scikit-learn returns. Sample weights
weigh every bin statistic, the ECE and the Brier score; bins with samples of total weight 0
count as empty.

Multi-class probabilities (one column per class, rows summing to 1) give the **top-label**
curve (Guo et al. 2017: the confidence ``max_k p_k`` against whether the top class is the
true one; ties go to the first column) and a **one-vs-rest** curve per class (class ``k``
against the rest, the classwise calibration of Kull et al. 2019); the Brier score is then
the multi-class one, summed over the classes (in [0, 2], as scikit-learn's
``brier_score_loss`` for more than two classes); of two columns it is halved, to the binary
Brier score of either column (in [0, 1], as scikit-learn's ``scale_by_half='auto'``).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..inputs.kinds import py_scalar
from ..inputs.probabilities import check_rows_sum_to_one, check_unit_interval
from ..inputs.score_columns import class_columns
from ..inputs.score_shape import check_score_length
from ..inputs.targets import binary_target, check_scores_2d, check_weights, encode_truth
from .scoring_rules import brier_terms, log_loss_terms, mean_score

__all__ = ["Calibration", "ReliabilityCurve", "calibration"]

#: the binning strategies of :func:`calibration` (those of scikit-learn's calibration_curve)
STRATEGIES = ("uniform", "quantile")


@dataclass(frozen=True)
class ReliabilityCurve:
    """One event's reliability curve: per bin, the mean predicted probability, the observed
    frequency and the bin's counts; with its Brier score, ECE and MCE.

    Parameters
    ----------
    event : str
        What the probabilities predict (``'class 1'``, ``'top label'``).
    edges : ndarray of shape (n_bins + 1,)
        Bin edges, increasing (quantile edges may repeat; such bins are empty).
    mean_predicted : ndarray of shape (n_bins,)
        (Weighted) mean probability in each bin; NaN for an empty bin.
    observed : ndarray of shape (n_bins,)
        (Weighted) share of the bin's samples where the event happened; NaN for an empty bin.
    counts : ndarray of int64, shape (n_bins,)
        Samples in each bin.
    weights : ndarray of float64, shape (n_bins,)
        Total sample weight in each bin (equal to ``counts`` without weights).
    brier : float
        Weighted mean of ``(p - outcome) ** 2`` over all samples.

    Examples
    --------
    >>> c = calibration([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.8], n_bins=2).curve
    >>> c.counts.tolist(), c.observed.tolist(), round(c.ece, 3)
    ([2, 2], [0.0, 1.0], 0.25)
    """

    event: str
    edges: np.ndarray
    mean_predicted: np.ndarray
    observed: np.ndarray
    counts: np.ndarray
    weights: np.ndarray
    brier: float

    @property
    def nonempty(self) -> np.ndarray:
        """Boolean mask of the bins holding weight (the bins scikit-learn returns)."""
        return np.asarray(self.weights > 0)

    @property
    def gaps(self) -> np.ndarray:
        """``|observed - mean_predicted|`` per bin (NaN for empty bins)."""
        return np.abs(self.observed - self.mean_predicted)

    @property
    def ece(self) -> float:
        """Expected calibration error: the bins' gaps weighted by their share of the weight."""
        keep = self.nonempty
        w = near_one(self.weights[keep])
        return float((w * self.gaps[keep]).sum() / w.sum())

    @property
    def mce(self) -> float:
        """Maximum calibration error: the largest gap of a non-empty bin."""
        return float(self.gaps[self.nonempty].max())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (NaN as ``None``).

        Returns
        -------
        dict
            ``event``, ``edges``, ``mean_predicted``, ``observed``, ``counts``,
            ``weights``, ``brier``, ``ece``, ``mce``.

        Examples
        --------
        >>> calibration([0, 1], [0.2, 0.7], n_bins=2).curve.to_dict()["counts"]
        [1, 1]
        """
        def f(v: Any) -> float | None:
            v = float(v)
            return v if math.isfinite(v) else None

        return {
            "event": self.event,
            "edges": [f(v) for v in self.edges],
            "mean_predicted": [f(v) for v in self.mean_predicted],
            "observed": [f(v) for v in self.observed],
            "counts": [int(v) for v in self.counts],
            "weights": [f(v) for v in self.weights],
            "brier": f(self.brier),
            "ece": f(self.ece),
            "mce": f(self.mce),
        }


@dataclass(frozen=True)
class Calibration:
    """Calibration of a classifier's probabilities, returned by :func:`calibration`.

    Parameters
    ----------
    kind : {'binary', 'multiclass'}
        Binary: the probabilities of one positive class; multi-class: one column per class.
    labels : list
        The classes (binary: ``[negative, positive]``; multi-class: in column order).
    curve : ReliabilityCurve
        The main curve: the positive class (binary) or the top label (multi-class).
    curves : dict
        ``class -> ReliabilityCurve`` of that class against the rest (binary: the positive
        class only).
    brier : float
        Brier score: binary (a probability vector, or two columns), in [0, 1]; three
        classes or more, summed over the classes, in [0, 2].
    n_bins : int
        Number of bins.
    strategy : {'uniform', 'quantile'}
        How the bins were chosen.
    pos_label : label, optional
        The positive class of a binary calibration (None for multi-class).
    log_loss : float
        Log loss in nats: the (weighted) mean of ``-log`` of the probability given to the
        true class, clipped to ``[eps, 1 - eps]`` as in scikit-learn's ``log_loss``
        (:mod:`confmat.curves.scoring_rules`).

    Examples
    --------
    >>> cal = calibration(["a", "b", "b", "a"], [0.2, 0.9, 0.6, 0.4], pos_label="b", n_bins=2)
    >>> cal.kind, cal.pos_label, round(cal.brier, 4), round(cal.ece, 4), round(cal.mce, 4)
    ('binary', 'b', 0.0925, 0.275, 0.3)
    >>> round(cal.log_loss, 4)
    0.3375
    """

    kind: str
    labels: list[Any]
    curve: ReliabilityCurve
    curves: dict[Any, ReliabilityCurve] = field(default_factory=dict)
    brier: float = math.nan
    n_bins: int = 10
    strategy: str = "uniform"
    pos_label: Any = None
    log_loss: float = math.nan

    @property
    def ece(self) -> float:
        """Expected calibration error of :attr:`curve` (positive class, or top label)."""
        return self.curve.ece

    @property
    def mce(self) -> float:
        """Maximum calibration error of :attr:`curve` (positive class, or top label)."""
        return self.curve.mce

    @property
    def classwise_ece(self) -> float:
        """Mean ECE of the one-vs-rest curves (Kull et al. 2019's classwise ECE); equal to
        :attr:`ece` for a binary calibration."""
        return float(np.mean([c.ece for c in self.curves.values()]))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (NaN as ``None``).

        Returns
        -------
        dict
            ``kind``, ``labels``, ``pos_label``, ``n_bins``, ``strategy``, ``brier``,
            ``log_loss``, ``ece``, ``mce``, ``classwise_ece``, ``curve`` and ``curves`` (one per class,
            with its ``label``).

        Examples
        --------
        >>> calibration([0, 1], [0.2, 0.7], n_bins=2).to_dict()["ece"]
        0.25
        """
        return {
            "kind": self.kind,
            "labels": [py_scalar(v) for v in self.labels],
            "pos_label": py_scalar(self.pos_label),
            "n_bins": self.n_bins,
            "strategy": self.strategy,
            "brier": float(self.brier),
            "log_loss": float(self.log_loss),
            "ece": self.ece,
            "mce": self.mce,
            "classwise_ece": self.classwise_ece,
            "curve": self.curve.to_dict(),
            "curves": [{"label": py_scalar(k), **c.to_dict()} for k, c in self.curves.items()],
        }


def near_one(w: np.ndarray) -> np.ndarray:
    """Non-negative weights whose largest is below 0.5, moved up by a power of two (exact, and
    no weight can overflow) until the largest lies in [0.5, 1); other weights as they are.

    Every statistic of a reliability curve is a ratio of sums of weights, so the scale
    cancels; products such as ``w * p`` of subnormal weights (``1e-320``) would otherwise
    lose their digits.

    Parameters
    ----------
    w : ndarray of float64
        Non-negative weights, at least one positive.

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> near_one(np.ldexp([1.0, 3.0], -1070)).tolist()  # subnormal weights
    [0.25, 0.75]
    """
    top = float(w.max())
    return w if top >= 0.5 else np.ldexp(w, -int(np.frexp(top)[1]))


def check_n_bins(n_bins: Any) -> int:
    """``n_bins`` as a positive int.

    Parameters
    ----------
    n_bins : int

    Returns
    -------
    int

    Raises
    ------
    TypeError
        ``n_bins`` is not an integer.
    ValueError
        ``n_bins`` is below 1.

    Examples
    --------
    >>> check_n_bins(5)
    5
    """
    if isinstance(n_bins, bool) or not isinstance(n_bins, numbers.Integral):
        raise TypeError(f"n_bins must be an integer >= 1, got {n_bins!r}")
    if n_bins < 1:
        raise ValueError(f"n_bins must be at least 1, got {n_bins}")
    return int(n_bins)


def _check_strategy(strategy: Any) -> str:
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {list(STRATEGIES)}, got {strategy!r}")
    return str(strategy)


def bin_edges(p: np.ndarray, n_bins: int, strategy: str) -> np.ndarray:
    """Bin edges of :func:`calibration` (those of scikit-learn's ``calibration_curve``).

    Parameters
    ----------
    p : ndarray of float64
        Probabilities in [0, 1].
    n_bins : int
    strategy : {'uniform', 'quantile'}

    Returns
    -------
    ndarray of shape (n_bins + 1,)

    Examples
    --------
    >>> bin_edges(np.array([0.1, 0.2, 0.9]), 2, "uniform").tolist()
    [0.0, 0.5, 1.0]
    """
    if strategy == "quantile":
        return np.asarray(np.percentile(p, np.linspace(0.0, 1.0, n_bins + 1) * 100))
    return np.linspace(0.0, 1.0, n_bins + 1)


def reliability(outcome: np.ndarray, p: np.ndarray, w: np.ndarray | None, n_bins: int,
                strategy: str, event: str) -> ReliabilityCurve:
    """The reliability curve of validated probabilities ``p`` of a 0/1 ``outcome``.

    Parameters
    ----------
    outcome : ndarray of bool, shape (n,)
        Whether the event happened.
    p : ndarray of float64, shape (n,)
        Its predicted probabilities, in [0, 1].
    w : ndarray of float64 or None
        Sample weights.
    n_bins : int
    strategy : {'uniform', 'quantile'}
    event : str
        What ``p`` predicts, for the curve's ``event``.

    Returns
    -------
    ReliabilityCurve

    Raises
    ------
    ValueError
        The weights sum to 0.

    Examples
    --------
    >>> c = reliability(np.array([False, True]), np.array([0.2, 0.7]), None, 2, "uniform", "x")
    >>> c.mean_predicted.tolist(), c.observed.tolist()
    ([0.2, 0.7], [0.0, 1.0])
    """
    if w is not None and not (w > 0).any():
        raise ValueError("sample_weight sums to 0; calibration needs some weight")
    # a sample of weight 0 is absent: it moves no quantile edge
    edges = bin_edges(p if w is None else p[w > 0], n_bins, strategy)
    ids = np.searchsorted(edges[1:-1], p)  # an inner edge's value joins the bin below
    y = outcome.astype(np.float64)
    if w is None:
        ww = np.ones_like(p)
    else:
        ww = near_one(w)
    total = float(ww.sum())
    counts = np.bincount(ids, minlength=n_bins).astype(np.int64)
    wsum = np.bincount(ids, weights=ww, minlength=n_bins)
    psum = np.bincount(ids, weights=ww * p, minlength=n_bins)
    ysum = np.bincount(ids, weights=ww * y, minlength=n_bins)
    keep = wsum > 0
    safe = np.where(keep, wsum, 1.0)
    mean_p = np.where(keep, psum / safe, np.nan)
    obs = np.where(keep, ysum / safe, np.nan)
    brier = float((ww * (p - y) ** 2).sum() / total)
    if ww is not w and w is not None:
        wsum = np.bincount(ids, weights=w, minlength=n_bins)  # reported in the user's units
    return ReliabilityCurve(event, edges, mean_p, obs, counts, wsum, brier)


def calibration(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 10,
    strategy: str = "uniform",
    pos_label: Any = None,
    sample_weight: Any = None,
    labels: Any = None,
) -> Calibration:
    """Calibration of predicted probabilities: reliability curve, Brier score, log loss, ECE
    and MCE.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        A vector of positive-class probabilities (binary; every class other than
        ``pos_label`` is negative), or one probability column per class (rows summing to 1;
        columns follow ``labels``, default the sorted classes of ``y_true``).
    n_bins : int, default 10
        Number of bins (scikit-learn's ``calibration_curve`` defaults to 5).
    strategy : {'uniform', 'quantile'}, default 'uniform'
        Equal-width bins on [0, 1], or edges at the quantiles of the probabilities (each
        bin holding about the same number of samples).
    pos_label : label, optional
        The positive class of a probability vector: required unless the labels are
        {0, 1}, {-1, 1} or {False, True} (:func:`confmat.inputs.targets.resolve_pos_label`).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    labels : array-like, optional
        The class of each column of a 2-D ``y_prob``.

    Returns
    -------
    Calibration
        ``curve`` (positive class, or top label for multi-class), ``curves`` (one-vs-rest),
        ``brier``, ``log_loss``, ``ece``, ``mce``.

    Raises
    ------
    ValueError
        Probabilities outside [0, 1] (the first position is named), rows of a 2-D
        ``y_prob`` that do not sum to 1, ``n_bins`` below 1, an unknown ``strategy``,
        weights summing to 0, and the errors of the input door (lengths, NaN, ``pos_label``).
    TypeError
        ``n_bins`` is not an integer; non-numeric probabilities or labels of mixed kinds.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> p = [0.1, 0.2, 0.6, 0.4, 0.8, 0.9]
    >>> cal = calibration(y, p, n_bins=2)
    >>> cal.curve.mean_predicted.tolist(), cal.curve.observed.tolist()
    ([0.23333333333333336, 0.7666666666666666], [0.3333333333333333, 0.6666666666666666])
    >>> round(cal.ece, 4), round(cal.mce, 4), round(cal.brier, 4), round(cal.log_loss, 4)
    (0.1, 0.1, 0.1367, 0.4149)
    """
    n_bins = check_n_bins(n_bins)
    strategy = _check_strategy(strategy)
    s = y_prob.to_numpy() if hasattr(y_prob, "to_numpy") else np.asarray(y_prob)
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    if s.ndim != 2:
        b = binary_target(y_true, s, pos_label, sample_weight, score_name="y_prob")
        check_unit_interval(b.score, "y_prob")
        curve = reliability(b.pos, b.score, b.weight, n_bins, strategy,
                            f"class {b.pos_label}")
        loss = mean_score(log_loss_terms(np.where(b.pos, b.score, 1.0 - b.score)), b.weight)
        return Calibration("binary", [b.neg_label, b.pos_label], curve, {b.pos_label: curve},
                           curve.brier, n_bins, strategy, b.pos_label, loss)
    check_score_length(y_true, s, "y_prob")  # before the labels' content
    classes, codes = encode_truth(y_true)
    p = check_scores_2d(s, codes.shape[0], "y_prob")
    check_unit_interval(p, "y_prob")
    check_rows_sum_to_one(p, "y_prob")
    cols, index = class_columns(classes, labels, p.shape[1], "y_prob")
    w = check_weights(sample_weight, codes.shape[0])
    col_of = np.array([index[c] for c in classes], dtype=np.int64)[codes]
    onehot = np.zeros(p.shape, dtype=bool)
    onehot[np.arange(codes.shape[0]), col_of] = True
    curves = {c: reliability(onehot[:, j], p[:, j], w, n_bins, strategy, f"class {c}")
              for j, c in enumerate(cols)}
    top = p.argmax(axis=1)
    curve = reliability(top == col_of, p[np.arange(p.shape[0]), top], w, n_bins, strategy,
                        "top label")
    brier = mean_score(brier_terms(p, col_of), w)
    if p.shape[1] == 2:  # two columns: the binary Brier score, in [0, 1]
        brier /= 2.0
    loss = mean_score(log_loss_terms(p[np.arange(p.shape[0]), col_of]), w)
    return Calibration("multiclass", list(cols), curve, curves, brier, n_bins, strategy,
                       log_loss=loss)
