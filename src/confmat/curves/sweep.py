"""Threshold sweeps and threshold choice: the confusion matrix at every threshold of a binary
scorer (:class:`ThresholdSweep`), and the threshold that optimizes a criterion
(:func:`best_threshold`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..inputs.kinds import py_scalar
from ..inputs.targets import binary_target
from ..matrix import ConfusionMatrix
from ..metrics import ClassCounts, Stats, evaluate, get_metric
from .best import roc_criterion
from .common import check_real, check_thresholds
from .rank import cumulative_counts


class ThresholdSweep:
    """Confusion matrices of a binary scorer at many thresholds, from one sort.

    Decision rule: predicted positive when ``score >= threshold``. ``tables[i]`` is the 2 x 2
    table at ``thresholds[i]`` with rows = true class and columns = predicted class, both in
    the order ``labels = [negative, positive]``: ``[[TN, FP], [FN, TP]]``.

    Every registry metric is evaluated on the whole ``(T, 2, 2)`` stack at once. Build one
    with :func:`threshold_sweep` (or :meth:`confmat.binned.ScoreHistogram.threshold_sweep`).

    Parameters
    ----------
    thresholds : ndarray of shape (T,)
        The thresholds to report, in the order given.
    grid : ndarray
        The distinct scores, decreasing, at which ``tps`` and ``fps`` are counted.
    tps, fps : ndarray
        Positives and negatives (counts or weights) scoring at or above each ``grid`` value.
    n_pos, n_neg : float
        Total positives and negatives.
    labels : list
        ``[negative, positive]`` class names.
    check : callable, optional
        Called with the thresholds looked up; raises if they are not allowed.
    below : tuple of two ndarrays, optional
        Positives and negatives scoring strictly below each ``grid`` value
        (:func:`counts_below`). Given, FN and TN are these sums; otherwise they are
        ``n_pos - tp`` and ``n_neg - fp``, exact for counts but not for weights of very
        different sizes (``1e200 + 4 - 1e200`` is 0 in float64).

    Attributes
    ----------
    thresholds : ndarray of shape (T,)
        The thresholds, as given (score units).
    labels : list
        ``[negative, positive]``.
    tp, fp, fn, tn : ndarray of shape (T,)
        The four counts (or sums of weights) at every threshold.

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> sw.thresholds.tolist(), sw.tp.tolist(), sw.fp.tolist()
    ([0.8, 0.4, 0.35, 0.1], [1, 1, 2, 2], [0, 1, 1, 2])
    """

    def __init__(
        self,
        thresholds: np.ndarray,
        grid: np.ndarray,
        tps: np.ndarray,
        fps: np.ndarray,
        n_pos: float,
        n_neg: float,
        labels: list[Any],
        *,
        check: Any = None,
        below: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        # grid: decreasing thresholds with cumulative counts at or above each one
        self._grid = grid
        self._tps = tps
        self._fps = fps
        self._n_pos = n_pos
        self._n_neg = n_neg
        self._check = check
        self._below = below
        self.labels = list(labels)
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        if thresholds is grid and below is None:  # the distinct scores: no lookup needed
            tp, fp, fn, tn = tps, fps, n_pos - tps, n_neg - fps
        else:
            tp, fp, fn, tn = self._lookup(self.thresholds)
        self.tp, self.fp, self.fn, self.tn = tp, fp, fn, tn

    def _lookup(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        if self._check is not None:
            self._check(t)
        asc = self._grid[::-1]
        k = asc.shape[0] - np.searchsorted(asc, t, side="left")  # grid values >= t
        zero = np.zeros(1, dtype=self._tps.dtype)
        tps = np.concatenate([zero, self._tps])[k]
        fps = np.concatenate([zero, self._fps])[k]
        if self._below is None:
            return tps, fps, self._n_pos - tps, self._n_neg - fps
        # nothing at or above t (k = 0): every sample is below it
        fns = np.concatenate([[self._n_pos], self._below[0]])[k]
        tns = np.concatenate([[self._n_neg], self._below[1]])[k]
        return tps, fps, fns, tns

    def __len__(self) -> int:
        """Number of thresholds ``T``."""
        return self.thresholds.shape[0]

    def __repr__(self) -> str:
        return (
            f"ThresholdSweep({len(self)} thresholds, labels={self.labels}, "
            "rule: score >= threshold)"
        )

    @property
    def tables(self) -> np.ndarray:
        """The ``(T, 2, 2)`` stack of confusion tables ``[[TN, FP], [FN, TP]]``, one per
        threshold (rows true class, columns predicted class, order ``[negative, positive]``);
        counts, or sums of weights for weighted input.

        Examples
        --------
        >>> threshold_sweep([0, 1], [0.2, 0.7], thresholds=[0.5]).tables.tolist()
        [[[1, 0], [0, 1]]]
        """
        return np.stack([np.stack([self.tn, self.fp], -1), np.stack([self.fn, self.tp], -1)], -2)

    def metric(
        self,
        name: str,
        average: str | None = None,
        *,
        zero_division: Any = "warn",
        **params: Any,
    ) -> np.ndarray:
        """A registry metric at every threshold, shape ``(T,)``.

        Per-class metrics give the positive class's value unless ``average`` is set
        ('micro', 'macro' or 'weighted' over the two classes); overall metrics (accuracy,
        MCC, kappa, ...) are computed on each table.

        Parameters
        ----------
        name : str
            A registry metric name or alias (see :func:`confmat.metrics.list_metrics`).
        average : {'micro', 'macro', 'weighted'} or None, default=None
            Average of a per-class metric over the two classes; None gives the positive
            class's value.
        zero_division : 'warn', 'nan' or float, default='warn'
            Value of an undefined ratio (as in :class:`confmat.metrics.Stats`).
        **params
            Parameters of the metric (e.g. ``beta`` of ``fbeta``).

        Returns
        -------
        ndarray of shape (T,)
            The metric at every threshold.

        Raises
        ------
        ValueError
            Unknown metric name or ``average``.

        Examples
        --------
        >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], thresholds=[0.5, 0.3])
        >>> sw.metric("accuracy").tolist()
        [0.75, 0.75]
        """
        spec = get_metric(name)
        per_class = spec.kind == "per_class" and average is None
        # metrics of one-vs-rest counts can be computed for the positive class alone; those
        # that read the whole table (uses_table) get the full statistics
        positive_only = per_class and not getattr(spec, "uses_table", False)
        stats = self._stats(zero_division, positive_only)
        if positive_only and stats.rescaled is not None:
            # weighted tables far from 1 are evaluated rescaled (Stats.homogeneous), rebuilt
            # from the whole table: their per-class values hold both classes
            positive_only = False
            stats = self._stats(zero_division, positive_only)
        out = evaluate(spec.name, stats, average, **params)
        if per_class:
            out = out[..., 0] if positive_only else out[..., 1]
        return np.asarray(out, dtype=np.float64)

    def _stats(self, zero_division: Any, positive_only: bool) -> Stats:
        """Statistics of the whole stack, built once per ``zero_division`` from the four count
        vectors (no reductions over the tiny 2 x 2 axes). With ``positive_only`` the per-class
        counts hold the positive class alone, so per-class metrics do half the work."""
        key = (repr(zero_division), positive_only)
        cache = self.__dict__.setdefault("_stats_cache", {})
        if key in cache:
            return cache[key]
        # float64 once here, rather than a conversion inside every metric
        tn, fp, fn, tp = (np.asarray(v, dtype=np.float64) for v in (self.tn, self.fp, self.fn, self.tp))
        # class axes stored first and viewed last: reductions over the 2 x 2 axes then add
        # whole contiguous rows of T values instead of striding through tiny blocks
        classes_first = np.stack([np.stack([tn, fp]), np.stack([fn, tp])])
        st = Stats(np.moveaxis(classes_first, (0, 1), (-2, -1)), zero_division=zero_division)
        d = st.__dict__  # prime the cached properties of Stats with the known values
        d["counts"] = st.table
        d["tp"] = np.stack([tn, tp]).T
        d["fp"] = np.stack([fn, fp]).T
        d["fn"] = np.stack([fp, fn]).T
        d["tn"] = np.stack([tp, tn]).T
        d["support"] = d["rows"] = np.stack([tn + fp, fn + tp]).T
        d["predicted"] = d["cols"] = np.stack([tn + fn, fp + tp]).T
        d["n_all"] = d["n"] = tn + fp + fn + tp
        d["correct"] = tn + tp
        if positive_only:
            d["per_class"] = ClassCounts(tp[:, None], fp[:, None], fn[:, None], tn[:, None], st.div)
        cache[key] = st
        return st

    def exact_at(self, threshold: float) -> bool:
        """Whether :meth:`at` can give the counts at ``threshold``: any number for a sweep of
        the scores themselves, only a bin edge (or a threshold outside the range) for a binned
        sweep.

        Parameters
        ----------
        threshold : float
            The threshold to ask about.

        Returns
        -------
        bool

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> sw = ScoreHistogram(bins=4).update([0, 1], [0.1, 0.8]).threshold_sweep()
        >>> sw.exact_at(0.25), sw.exact_at(0.3)
        (True, False)
        >>> threshold_sweep([0, 1], [0.1, 0.8]).exact_at(0.3)
        True
        """
        if self._check is None:
            return True
        try:
            self._check(np.array([float(threshold)]))
        except ValueError:
            return False
        return True

    def at(self, threshold: float) -> ConfusionMatrix:
        """The confusion matrix at any threshold (``score >= threshold`` is positive).

        Parameters
        ----------
        threshold : float
            Any number (not only one of ``thresholds``); ``inf`` predicts nothing positive.

        Returns
        -------
        ConfusionMatrix
            Labels ``[negative, positive]``.

        Raises
        ------
        ValueError
            ``threshold`` is NaN, or (binned sweeps) not a bin edge.

        Examples
        --------
        >>> threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).at(0.4).counts.tolist()
        [[1, 1], [1, 1]]
        """
        t = float(threshold)
        if np.isnan(t):
            raise ValueError("threshold must not be NaN")
        tp, fp, fn, tn = self._lookup(np.array([t]))
        table = np.array([[tn[0], fp[0]], [fn[0], tp[0]]])
        return ConfusionMatrix(table, labels=self.labels)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: labels, the decision rule, thresholds and the four count lists.

        Returns
        -------
        dict
            Keys ``labels``, ``rule``, ``thresholds``, ``tp``, ``fp``, ``fn``, ``tn``.

        Examples
        --------
        >>> threshold_sweep([0, 1], [0.2, 0.7]).to_dict()["tp"]
        [1, 1]
        """
        return {
            "labels": [py_scalar(v) for v in self.labels],
            "rule": "score >= threshold",
            "thresholds": self.thresholds.tolist(),
            "tp": self.tp.tolist(),
            "fp": self.fp.tolist(),
            "fn": self.fn.tolist(),
            "tn": self.tn.tolist(),
        }




def counts_below(
    pos: np.ndarray, score: np.ndarray, weight: np.ndarray | None, grid: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Positive and negative weights scoring strictly below each value of ``grid``, each a sum
    of its own samples: the FN and TN of a weighted sweep.

    Computing them as ``total - tp`` loses every small weight next to a huge one (with
    weights ``1e200`` and ``4`` on the negatives, ``1e200 + 4 - 1e200`` is 0 in float64, and
    a threshold's TN would be 0 instead of 4). Summed from the lowest score up, each is
    correct to the rounding of its own terms, as ``sklearn.metrics.confusion_matrix``
    counts the cells. Without weights the counts are int64 and the differences exact, so
    None is returned.

    Parameters
    ----------
    pos : ndarray of bool, shape (n_samples,)
        Which samples are positive.
    score : ndarray of float64, shape (n_samples,)
        Scores.
    weight : ndarray of float64 or None
        Sample weights.
    grid : ndarray of float64
        Distinct scores, decreasing (those of
        :func:`confmat.curves.rank.cumulative_counts`: every score of non-zero weight).

    Returns
    -------
    (fns, tns) or None
        Arrays of the shape of ``grid``; None without weights.

    Examples
    --------
    >>> fns, tns = counts_below(np.array([False, False, True]), np.array([0.9, 0.1, 0.5]),
    ...                         np.array([1e200, 4.0, 1.0]), np.array([0.9, 0.5, 0.1]))
    >>> fns.tolist(), tns.tolist()
    ([1.0, 0.0, 0.0], [4.0, 4.0, 0.0])
    """
    if weight is None:
        return None
    asc = grid[::-1]
    g = asc.shape[0]
    # a zero-weight sample may hold a score outside the grid: it adds nothing anywhere
    at = np.minimum(np.searchsorted(asc, score, side="left"), g)
    pos_w = np.bincount(at, weights=np.where(pos, weight, 0.0), minlength=g + 1)[:g]
    neg_w = np.bincount(at, weights=np.where(pos, 0.0, weight), minlength=g + 1)[:g]
    # strictly below asc[j]: the sum of the distinct scores before it
    fns = np.concatenate([[0.0], np.cumsum(pos_w)[:-1]])
    tns = np.concatenate([[0.0], np.cumsum(neg_w)[:-1]])
    return fns[::-1], tns[::-1]


def threshold_sweep(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    thresholds: Any = None,
    sample_weight: Any = None,
) -> ThresholdSweep:
    """Confusion matrices at every threshold, from one sort of the scores.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`roc_curve`.
    thresholds : array-like, optional
        Thresholds to evaluate, kept in the given order (e.g. the table of Kneusel 2021, ch. 11,
        ``[0.9, 0.8, ..., 0.1]``). By default the distinct scores in decreasing order.

    Returns
    -------
    ThresholdSweep
        ``.thresholds``, ``.metric(name)`` (any registry metric at every threshold),
        ``.at(threshold)`` (a :class:`ConfusionMatrix`), ``.tables`` (T, 2, 2).

    Raises
    ------
    ValueError, TypeError
        Invalid labels, scores, weights or ``pos_label`` (as :func:`roc_curve`); empty,
        non-numeric or NaN ``thresholds``.

    Notes
    -----
    The decision rule is ``score >= threshold``: at threshold :math:`\\theta`,
    :math:`TP(\\theta) = \\sum_i w_i [y_i = pos][s_i \\ge \\theta]` and likewise for FP; FN and
    TN are the complements.

    Examples
    --------
    >>> sw = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], thresholds=[0.5, 0.3])
    >>> sw.metric("recall").tolist(), sw.metric("precision").round(3).tolist()
    ([0.5, 1.0], [1.0, 0.667])
    >>> sw.at(0.3).counts.tolist()
    [[1, 1], [0, 2]]
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    grid, tps, fps = cumulative_counts(b.pos, b.score, b.weight)
    t = grid if thresholds is None else check_thresholds(thresholds)
    return ThresholdSweep(t, grid, tps, fps, tps[-1], fps[-1], [b.neg_label, b.pos_label],
                          below=counts_below(b.pos, b.score, b.weight, grid))




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
        c = np.asarray(cost_matrix)
        if c.dtype.kind not in "iuf":
            raise TypeError(f"cost_matrix must hold numbers, got dtype {c.dtype}")
        c = c.astype(np.float64)
        if c.shape != (2, 2) or not np.isfinite(c).all():
            raise ValueError(
                f"cost_matrix must be a finite 2 x 2 array (rows true, columns predicted, "
                f"order [negative, positive]), got shape {c.shape}"
            )
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
    if (isinstance(beta, bool) or beta != 1.0) and details.get("beta", 1.0) == 1.0:
        raise ValueError(f"beta={beta!r} applies to criterion='fbeta', not {crit!r}")
    thr = float(cand[i])
    return ThresholdChoice(thr, crit, float(values[i]), sweep.at(thr), details)
