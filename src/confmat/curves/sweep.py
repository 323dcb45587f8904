"""Threshold sweeps and threshold choice: the confusion matrix at every threshold of a binary
scorer (:class:`ThresholdSweep`), and the threshold that optimizes a criterion
(:func:`best_threshold`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..inputs.encode import py_scalar
from ..inputs.targets import binary_target
from ..matrix import ConfusionMatrix
from ..metrics import ClassCounts, Stats, evaluate, get_metric
from .common import check_thresholds
from .rank import cumulative_counts


class ThresholdSweep:
    """Confusion matrices of a binary scorer at many thresholds, from one sort.

    Decision rule: predicted positive when ``score >= threshold``. ``tables[i]`` is the 2 x 2
    table at ``thresholds[i]`` with rows = true class and columns = predicted class, both in
    the order ``labels = [negative, positive]``: ``[[TN, FP], [FN, TP]]``.

    Every registry metric is evaluated on the whole ``(T, 2, 2)`` stack at once.
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
    ) -> None:
        # grid: decreasing thresholds with cumulative counts at or above each one
        self._grid = grid
        self._tps = tps
        self._fps = fps
        self._n_pos = n_pos
        self._n_neg = n_neg
        self._check = check
        self.labels = list(labels)
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        if thresholds is grid:  # the distinct scores themselves: no lookup needed
            tp, fp = tps, fps
        else:
            tp, fp = self._lookup(self.thresholds)
        self.tp, self.fp = tp, fp
        self.fn = n_pos - tp
        self.tn = n_neg - fp

    def _lookup(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self._check is not None:
            self._check(t)
        asc = self._grid[::-1]
        k = asc.shape[0] - np.searchsorted(asc, t, side="left")  # grid values >= t
        zero = np.zeros(1, dtype=self._tps.dtype)
        tps = np.concatenate([zero, self._tps])
        fps = np.concatenate([zero, self._fps])
        return tps[k], fps[k]

    def __len__(self) -> int:
        return self.thresholds.shape[0]

    def __repr__(self) -> str:
        return (
            f"ThresholdSweep({len(self)} thresholds, labels={self.labels}, "
            "rule: score >= threshold)"
        )

    @property
    def tables(self) -> np.ndarray:
        """``(T, 2, 2)`` stack ``[[TN, FP], [FN, TP]]`` (rows true, columns predicted)."""
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
        """
        spec = get_metric(name)
        per_class = spec.kind == "per_class" and average is None
        # metrics of one-vs-rest counts can be computed for the positive class alone; those
        # that read the whole table (uses_table) get the full statistics
        positive_only = per_class and not getattr(spec, "uses_table", False)
        out = evaluate(spec.name, self._stats(zero_division, positive_only), average, **params)
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

    def at(self, threshold: float) -> ConfusionMatrix:
        """The confusion matrix at any threshold (``score >= threshold`` is positive)."""
        t = float(threshold)
        if np.isnan(t):
            raise ValueError("threshold must not be NaN")
        tp, fp = self._lookup(np.array([t]))
        table = np.array([[self._n_neg - fp[0], fp[0]], [self._n_pos - tp[0], tp[0]]])
        return ConfusionMatrix(table, labels=self.labels)

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": [py_scalar(v) for v in self.labels],
            "rule": "score >= threshold",
            "thresholds": self.thresholds.tolist(),
            "tp": self.tp.tolist(),
            "fp": self.fp.tolist(),
            "fn": self.fn.tolist(),
            "tn": self.tn.tolist(),
        }




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
        Thresholds to evaluate, kept in the given order (e.g. seed 002's table
        ``[0.9, 0.8, ..., 0.1]``). By default the distinct scores in decreasing order.

    Returns
    -------
    ThresholdSweep
        ``.thresholds``, ``.metric(name)`` (any registry metric at every threshold),
        ``.at(threshold)`` (a :class:`ConfusionMatrix`), ``.tables`` (T, 2, 2).

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
    return ThresholdSweep(t, grid, tps, fps, tps[-1], fps[-1], [b.neg_label, b.pos_label])




@dataclass(frozen=True)
class ThresholdChoice:
    """The chosen threshold, the criterion's value there and the confusion matrix there
    (decision rule ``score >= threshold``; ``inf`` means "predict nothing positive")."""

    threshold: float
    criterion: str
    value: float
    confusion_matrix: ConfusionMatrix
    details: dict[str, Any] = field(default_factory=dict)


_CRITERIA = ("youden", "mcc", "f1", "fbeta", "cost", "recall", "precision")


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
    criterion : str, default='youden'
        - ``'youden'``: maximize Youden's :math:`J = TPR - FPR` (informedness).
        - ``'mcc'``: maximize the Matthews correlation coefficient.
        - ``'f1'`` / ``'fbeta'``: maximize :math:`F_\\beta` (``beta``, default 1).
        - ``'cost'``: minimize the expected cost per sample
          :math:`\\frac{1}{n}\\sum_{ij} C_{ij} M_{ij}(\\theta)` for ``cost_matrix`` ``C``
          (rows true, columns predicted, order ``[negative, positive]``; e.g. seed 002's
          cancer screening, where a missed cancer costs more than a false alarm:
          ``[[0, 1], [20, 0]]``).
        - ``'recall'``: the highest threshold whose recall is at least ``target``.
        - ``'precision'``: among thresholds whose precision is at least ``target``, the one
          with the highest recall (the highest such threshold on ties).
        - any other registry metric name: maximized when higher is better, else minimized.

        Ties are broken towards the highest threshold.

    Returns
    -------
    ThresholdChoice

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
    sweep = ThresholdSweep(cand, grid, tps, fps, tps[-1], fps[-1], [b.neg_label, b.pos_label])
    crit = criterion.strip().lower()
    details: dict[str, Any] = {}
    if crit in ("recall", "precision"):
        if target is None or isinstance(target, bool) or not 0 <= float(target) <= 1:
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
    elif crit == "cost":
        if cost_matrix is None:
            raise ValueError("criterion='cost' needs cost_matrix=[[C_TN, C_FP], [C_FN, C_TP]]")
        c = np.asarray(cost_matrix, dtype=np.float64)
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
            params["beta"] = float(beta) if crit != "f1" else 1.0
            details["beta"] = params["beta"]
        values = sweep.metric(spec.name, zero_division="nan", **params)
        if np.isnan(values).all():
            raise ValueError(f"{spec.name} is undefined at every threshold")
        higher = spec.higher_is_better is not False
        i = int(np.nanargmax(values) if higher else np.nanargmin(values))
    thr = float(cand[i])
    return ThresholdChoice(thr, crit, float(values[i]), sweep.at(thr), details)
