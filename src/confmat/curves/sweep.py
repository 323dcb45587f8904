"""Threshold sweeps: the confusion matrix at every threshold of a binary scorer
(:class:`ThresholdSweep`); the threshold that optimizes a criterion is chosen from it in
:mod:`confmat.curves.choice`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.kinds import py_scalar
from ..inputs.scores import check_thresholds
from ..inputs.targets import binary_target
from ..matrix import ConfusionMatrix
from ..metrics import ClassCounts, Stats, evaluate, get_metric
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
