r"""Gain and lift curves (yardstick's definitions) and the Kolmogorov--Smirnov statistic of a
binary scorer.

**Gain curve** (the cumulative accuracy profile of Engelmann et al. 2003). Samples are taken
in decreasing order of score, all samples with one score at a time; after each distinct score
the curve records the share of all samples tested and the share of all positives found, in
percent:

.. math:: \%\,\text{tested}(t) = 100\,\frac{\sum_i w_i [s_i \ge t]}{\sum_i w_i},\qquad
          \%\,\text{found}(t) = 100\,\frac{\sum_i w_i [y_i = +][s_i \ge t]}
          {\sum_i w_i [y_i = +]},

starting from the origin (nothing tested). The **lift** is their ratio, found / tested (1
for a random ordering; undefined at the origin). This is yardstick's ``gain_curve`` and
``lift_curve`` (Kuhn and Vaughan), with weights as frequency weights; samples of weight zero
are left out (they create no point).

**Kolmogorov--Smirnov statistic**: the largest distance between the empirical distribution
functions of the positives' and the negatives' scores,
:math:`KS = \max_t |\mathrm{TPR}(t) - \mathrm{FPR}(t)|`, the two-sample statistic of
Smirnov (1939), weighted when weights are given. For scores oriented as here (higher = more
positive) it is the largest Youden index.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs.targets import binary_target
from .rank import cumulative_counts

__all__ = ["GainCurve", "KSResult", "gain_curve", "ks_index", "ks_statistic", "lift_curve"]

REF_ENGELMANN = (
    "Engelmann, B., Hayden, E., Tasche, D. (2003), Testing rating accuracy, Risk 16(1), 82-86."
)
REF_SMIRNOV = (
    "Smirnov, N. V. (1939), On the estimation of the discrepancy between empirical curves of "
    "distribution for two independent samples, Bulletin Mathematique de l'Universite de "
    "Moscou 2(2)."
)


@dataclass(frozen=True)
class GainCurve:
    """Gain (and lift) curve of a binary scorer (:func:`gain_curve`).

    Parameters
    ----------
    thresholds : ndarray of shape (T + 1,)
        ``inf`` (nothing tested), then the distinct scores, decreasing.
    n_tested, n_found : ndarray of shape (T + 1,)
        Samples (weights) scoring at or above each threshold, and positives among them.
    percent_tested, percent_found : ndarray of shape (T + 1,)
        The same in percent of all samples and of all positives.
    labels : list
        ``[negative, positive]``.

    Examples
    --------
    >>> g = gain_curve(["Yes", "Yes", "No", "Yes", "No"], [.9, .8, .7, .68, .5],
    ...                pos_label="Yes")
    >>> g.percent_found.round(4).tolist()  # yardstick's (and caret's) values
    [0.0, 33.3333, 66.6667, 66.6667, 100.0, 100.0]
    """

    thresholds: np.ndarray
    n_tested: np.ndarray
    n_found: np.ndarray
    percent_tested: np.ndarray
    percent_found: np.ndarray
    labels: list[Any]

    @property
    def lift(self) -> np.ndarray:
        """``percent_found / percent_tested`` (nan at the origin).

        Examples
        --------
        >>> gain_curve([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.3]).lift.tolist()[1:]
        [2.0, 2.0, 1.3333333333333333, 1.0]
        """
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.percent_found / self.percent_tested

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the threshold of the origin as the string ``'inf'``; the lift at
        the origin as None).

        Returns
        -------
        dict

        Examples
        --------
        >>> gain_curve([0, 1], [0.2, 0.7]).to_dict()["percent_found"]
        [0.0, 100.0, 100.0]
        """
        lift = self.lift
        return {"thresholds": ["inf", *self.thresholds[1:].tolist()],
                "n_tested": self.n_tested.tolist(), "n_found": self.n_found.tolist(),
                "percent_tested": self.percent_tested.tolist(),
                "percent_found": self.percent_found.tolist(),
                "lift": [None, *lift[1:].tolist()], "labels": list(self.labels),
                "references": [REF_ENGELMANN]}


def gain_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> GainCurve:
    """Gain curve: the percentage of positives found against the percentage of samples tested,
    samples taken by decreasing score (yardstick's ``gain_curve``; see the module notes).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more likely positive.
    pos_label : label, optional
        The positive class.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative (frequency) weights.

    Returns
    -------
    GainCurve
        Also gives the lift (:attr:`GainCurve.lift`).

    Raises
    ------
    ValueError
        No positive (or none with weight); bad labels, scores or weights.

    Examples
    --------
    >>> g = gain_curve([1, 1, 0, 1, 0], [.9, .8, .7, .68, .5], sample_weight=[2, 1, 1, 3, 2])
    >>> g.n_tested.tolist(), g.n_found.tolist()  # yardstick's weighted example
    ([0.0, 2.0, 3.0, 4.0, 7.0, 9.0], [0.0, 2.0, 3.0, 3.0, 6.0, 6.0])
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    thr, tps, fps = cumulative_counts(b.pos, b.score, b.weight)
    if tps.size == 0 or not tps[-1] > 0:
        raise ValueError("a gain curve needs positives in y_true (with positive weight)")
    tested = np.concatenate([[0], tps + fps])
    found = np.concatenate([[0], tps])
    if b.weight is not None:
        tested, found = tested.astype(np.float64), found.astype(np.float64)
    return GainCurve(np.concatenate([[np.inf], thr]), tested, found,
                     tested / tested[-1] * 100.0, found / found[-1] * 100.0,
                     [b.neg_label, b.pos_label])


def lift_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Lift curve: ``(percent_tested, lift)`` of :func:`gain_curve` without the origin
    (yardstick's ``lift_curve`` keeps the origin with an undefined lift).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`gain_curve`.

    Returns
    -------
    percent_tested, lift : ndarray

    Raises
    ------
    ValueError
        As :func:`gain_curve`.

    Examples
    --------
    >>> tested, lift = lift_curve([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.3])
    >>> tested.tolist(), lift.tolist()
    ([25.0, 50.0, 75.0, 100.0], [2.0, 2.0, 1.3333333333333333, 1.0])
    """
    g = gain_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return g.percent_tested[1:], g.lift[1:]


@dataclass(frozen=True)
class KSResult:
    """The Kolmogorov--Smirnov statistic of a scorer (:func:`ks_statistic`).

    Parameters
    ----------
    statistic : float
        :math:`\\max_t |\\mathrm{TPR}(t) - \\mathrm{FPR}(t)|`.
    threshold : float
        The highest threshold where it is reached (positive when ``score >= threshold``).
    tpr, fpr : float
        The rates there.

    Examples
    --------
    >>> ks_statistic([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).statistic
    0.5
    """

    statistic: float
    threshold: float
    tpr: float
    fpr: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict

        Examples
        --------
        >>> ks_statistic([0, 1], [0.2, 0.7]).to_dict()["statistic"]
        1.0
        """
        return {"statistic": self.statistic, "threshold": self.threshold, "tpr": self.tpr,
                "fpr": self.fpr, "references": [REF_SMIRNOV]}


def ks_statistic(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> KSResult:
    """Two-sample Kolmogorov--Smirnov statistic between the scores of the positives and of the
    negatives (see the module notes), and where it is reached.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,)
        Scores.
    pos_label : label, optional
        The positive class.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights (weighted distribution functions).

    Returns
    -------
    KSResult

    Raises
    ------
    ValueError
        A class missing (or without weight); bad labels, scores or weights.

    Examples
    --------
    >>> r = ks_statistic([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(r.statistic, 4), r.threshold  # scipy.stats.ks_2samp gives 0.6667 too
    (0.6667, 0.8)
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    thr, tps, fps = cumulative_counts(b.pos, b.score, b.weight)
    if tps.size == 0 or not (tps[-1] > 0 and fps[-1] > 0):
        raise ValueError("the KS statistic needs both classes in y_true (with positive weight)")
    tpr, fpr = tps / tps[-1], fps / fps[-1]
    i = ks_index(tps, fps)
    return KSResult(float(abs(tpr[i] - fpr[i])), float(thr[i]), float(tpr[i]), float(fpr[i]))


#: the largest int64
_INT64_MAX = int(np.iinfo(np.int64).max)


def ks_index(tps: np.ndarray, fps: np.ndarray) -> int:
    r"""Where the Kolmogorov--Smirnov distance :math:`|\mathrm{TPR} - \mathrm{FPR}|` of
    cumulative counts is largest (the first such index).

    Integer counts are compared exactly, as :math:`|\mathrm{TP}\,N - \mathrm{FP}\,P|`
    (``P = tps[-1]``, ``N = fps[-1]``), so that ties are found exactly: in int64 while
    :math:`P N` fits, otherwise the rates pick the candidates within their rounding of the
    largest and Python integers decide among them (an int64 product would wrap around past
    about 3e9 samples per class). Weighted (float) counts are compared as rates, since
    :math:`P N` can pass float64 (weights near 1e300).

    Parameters
    ----------
    tps, fps : numpy.ndarray
        Cumulative positive and negative counts (or weights) at each threshold, as
        :func:`confmat.curves.rank.cumulative_counts` gives; the last of each is positive.

    Returns
    -------
    int

    Examples
    --------
    >>> ks_index(np.array([1, 1, 2, 2]), np.array([0, 1, 1, 2]))
    0
    >>> big = 2**33  # P N = 2**66 passes int64
    >>> ks_index(np.array([1, big - 1, big]), np.array([0, 1, big]))
    1
    """
    p, n = tps[-1], fps[-1]
    rate_gap = np.abs(tps / p - fps / n)
    if tps.dtype.kind not in "iu":
        return int(np.argmax(rate_gap))
    p_int, n_int = int(p), int(n)
    if p_int * n_int <= _INT64_MAX:
        return int(np.argmax(np.abs(tps * n - fps * p)))
    # each rate is within half an ulp of its value (<= 1) and so is their difference: the
    # exact maximum is among the gaps within 4 ulps of 1 of the largest rounded gap
    top = rate_gap.max()
    candidates = np.flatnonzero(rate_gap >= top - 4.0 * np.finfo(np.float64).eps)
    exact = [abs(int(tps[j]) * n_int - int(fps[j]) * p_int) for j in candidates]
    return int(candidates[exact.index(max(exact))])
