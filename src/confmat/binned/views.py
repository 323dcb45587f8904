"""Curves, areas and sweeps of a :class:`~confmat.binned.ScoreHistogram`.

:class:`HistogramCurves` holds the methods that read the counts of a histogram (one class
against the rest, cumulative counts at the bin edges) and hand them to the exact curve helpers
of :mod:`confmat.curves`, so binned and exact results follow the same rules.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Literal

import numpy as np

from ..curves.common import (
    average_scores,
    check_average,
    check_max_fpr,
    check_method,
    undefined_auc,
)
from ..curves.precision_recall import ap_from_counts, pr_points
from ..curves.roc import area_with_max_fpr, roc_points
from ..curves.sweep import ThresholdSweep
from ..inputs.kinds import py_scalar
from ..inputs.scores import check_thresholds
from ..words import arg, arg_value


class HistogramCurves:
    """Curve methods of :class:`~confmat.binned.ScoreHistogram` (a mixin: it reads the
    histogram's public ``labels``, ``counts``, ``bins``, ``edges``, ``is_binary`` and
    ``is_weighted``).

    Examples
    --------
    >>> from confmat.binned import ScoreHistogram
    >>> issubclass(ScoreHistogram, HistogramCurves)
    True
    """

    labels: list[Any]
    counts: np.ndarray
    bins: int

    @property
    def edges(self) -> np.ndarray:  # pragma: no cover - defined by ScoreHistogram
        """The ``bins + 1`` bin edges, in score units."""
        raise NotImplementedError

    @property
    def is_binary(self) -> bool:  # pragma: no cover - defined by ScoreHistogram
        """True for a two-label histogram."""
        raise NotImplementedError

    @property
    def is_weighted(self) -> bool:  # pragma: no cover - defined by ScoreHistogram
        """True when ``counts`` holds float sums of weights."""
        raise NotImplementedError

    def pos_neg(self, pos_label: Any = None) -> tuple[np.ndarray, np.ndarray, Any, Any]:
        """Positive and negative histograms of one class against the rest.

        Parameters
        ----------
        pos_label : label, optional
            Binary histograms: ``labels[1]`` or None. Multiclass: the class (required).

        Returns
        -------
        pos, neg : ndarray of shape (bins,)
            Counts (or weights) of positives and negatives per bin.
        pos_label, neg_label : label
            The positive class and the name of the negative one.

        Raises
        ------
        ValueError
            ``pos_label`` missing for a multiclass histogram, or not a valid class.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> ScoreHistogram(bins=2).update([0, 1], [0.2, 0.7]).pos_neg()[0].tolist()
        [0, 1]
        """
        if self.is_binary:
            if pos_label is not None and py_scalar(pos_label) != self.labels[1]:
                raise ValueError(
                    f"{arg('pos_label')} must be {self.labels[1]!r} (labels[1]: the scores are that "
                    f"class's), got {pos_label!r}"
                )
            return self.counts[1, 0], self.counts[0, 0], self.labels[1], self.labels[0]
        if pos_label is None:
            raise ValueError(
                f"{arg('pos_label')} is required for a multiclass histogram (one of {self.labels})"
            )
        if py_scalar(pos_label) not in self.labels:
            raise ValueError(f"{arg_value('pos_label', pos_label)} is not one of the labels "
                             f"{self.labels}")
        k = self.labels.index(py_scalar(pos_label))
        pos = self.counts[k, k]
        neg = self.counts[:, k].sum(axis=0) - pos
        return pos, neg, self.labels[k], f"not {self.labels[k]}"

    def _cumulative(self, pos: np.ndarray, neg: np.ndarray, nonempty_only: bool = True):
        """Like :func:`confmat.curves.rank.cumulative_counts`: thresholds = lower edges,
        decreasing."""
        lower = self.edges[:-1]
        tps = np.cumsum(pos[::-1])
        fps = np.cumsum(neg[::-1])
        thr = lower[::-1]
        if nonempty_only:
            keep = (pos + neg)[::-1] > 0
            return thr[keep], tps[keep], fps[keep]
        return thr, tps, fps

    def roc_curve(
        self, *, pos_label: Any = None, drop_intermediate: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """ROC curve with the lower edges of the non-empty bins as thresholds (plus ``inf``):
        exactly :func:`confmat.roc_curve` on the scores rounded down to their bin edge.

        Parameters
        ----------
        pos_label : label, optional
            Binary: ``labels[1]`` or None. Multiclass: the class against the rest.
        drop_intermediate : bool, default=True
            Drop collinear points.

        Returns
        -------
        fpr, tpr, thresholds : ndarray
            As :func:`confmat.roc_curve`.

        Raises
        ------
        ValueError
            Invalid ``pos_label``.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram(bins=4).update([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> fpr, tpr, thr = h.roc_curve()
        >>> tpr.tolist(), thr.tolist()
        ([0.0, 0.5, 1.0, 1.0], [inf, 0.75, 0.25, 0.0])
        """
        pos, neg, _, _ = self.pos_neg(pos_label)
        thr, tps, fps = self._cumulative(pos, neg)
        return roc_points(thr, tps.astype(np.float64), fps.astype(np.float64), drop_intermediate)

    def precision_recall_curve(
        self, *, pos_label: Any = None, drop_intermediate: bool = False
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Precision-recall curve at the lower edges of the non-empty bins.

        Parameters
        ----------
        pos_label : label, optional
            Binary: ``labels[1]`` or None. Multiclass: the class against the rest.
        drop_intermediate : bool, default=False
            Drop thresholds where recall does not change.

        Returns
        -------
        precision, recall, thresholds : ndarray
            As :func:`confmat.precision_recall_curve`.

        Raises
        ------
        ValueError
            Invalid ``pos_label``.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram(bins=4).update([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> p, r, t = h.precision_recall_curve()
        >>> p.round(3).tolist(), t.tolist()
        ([0.5, 0.667, 1.0, 1.0], [0.0, 0.25, 0.75])
        """
        pos, neg, _, _ = self.pos_neg(pos_label)
        thr, tps, fps = self._cumulative(pos, neg)
        return pr_points(thr, tps, fps, drop_intermediate)

    @staticmethod
    def _binned_auc(pos: np.ndarray, neg: np.ndarray, max_fpr: float | None) -> float:
        if pos.sum() == 0 or neg.sum() == 0:
            return undefined_auc()
        if max_fpr in (None, 1):
            return float(binned_auc(pos, neg))
        lower = np.arange(pos.shape[0], dtype=np.float64)
        keep = (pos + neg)[::-1] > 0
        thr = lower[::-1][keep]
        tps = np.cumsum(pos[::-1])[keep].astype(np.float64)
        fps = np.cumsum(neg[::-1])[keep].astype(np.float64)
        fpr, tpr, _ = roc_points(thr, tps, fps, True)
        return area_with_max_fpr(fpr, tpr, max_fpr)

    def auc_error_bound(self, *, pos_label: Any = None, average: str | None = "macro") -> float:
        """Bound on ``|exact AUC - binned AUC|``: half the share of positive-negative pairs
        that fall in the same bin, :math:`\\frac{1}{2}\\sum_b pos_b neg_b / (PN)`.

        For a multiclass histogram without ``pos_label``: the bound of the one-vs-rest AUC
        averaged with ``average`` ('macro' mean or 'weighted' by support of the per-class
        bounds, or 'micro').

        Parameters
        ----------
        pos_label : label, optional
            Binary: ``labels[1]`` or None. Multiclass: the class against the rest.
        average : {'macro', 'weighted', 'micro'}, default='macro'
            Multiclass without ``pos_label`` only.

        Returns
        -------
        float
            The bound (a fraction of the AUC scale, in [0, 0.5]); NaN without positives or
            negatives.

        Raises
        ------
        ValueError
            Invalid ``pos_label`` or ``average``.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram(bins=4).update([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> h.auc_error_bound()
        0.125
        """
        if self.is_binary or pos_label is not None:
            pos, neg, _, _ = self.pos_neg(pos_label)
            return pair_bound(pos, neg)
        check_average(average, ("macro", "weighted", "micro"))
        if average == "micro":
            pos, neg = self._micro()
            return pair_bound(pos, neg)
        bounds = np.array([pair_bound(*self.pos_neg(c)[:2]) for c in self.labels])
        support = np.array([self.counts[k, k].sum() for k in range(len(self.labels))], float)
        return float(average_scores(bounds, average, support))

    def _micro(self) -> tuple[np.ndarray, np.ndarray]:
        k = len(self.labels)
        pos = sum(self.counts[i, i] for i in range(k))
        neg = self.counts.sum(axis=0).sum(axis=0) - pos
        return pos, neg

    def roc_auc(
        self,
        *,
        average: str | None = "macro",
        multi_class: Literal["ovr", "ovo"] = "ovr",
        pos_label: Any = None,
        max_fpr: float | None = None,
    ) -> float | np.ndarray:
        """Binned ROC AUC: the exact AUC of the scores rounded down to their bin's lower edge
        (ties within a bin count 1/2). Within :meth:`auc_error_bound` of the exact AUC.

        Binary histograms give the AUC of ``labels[1]``. Multiclass histograms: one class
        against the rest with ``pos_label``; otherwise ``multi_class='ovr'`` (``average``
        'macro', 'weighted', 'micro' or None) or ``'ovo'`` (Hand & Till, 'macro' or
        'weighted'), as :func:`confmat.roc_auc`.

        Parameters
        ----------
        average : {'macro', 'weighted', 'micro'} or None, default='macro'
            Multiclass averaging.
        multi_class : {'ovr', 'ovo'}, default='ovr'
            Multiclass strategy.
        pos_label : label, optional
            Binary: ``labels[1]`` or None. Multiclass: the class against the rest.
        max_fpr : float in (0, 1], optional
            Standardized partial AUC (binary or with ``pos_label`` only).

        Returns
        -------
        float or ndarray
            The AUC; NaN with an :class:`UndefinedMetricWarning` when a class is missing.

        Raises
        ------
        ValueError, TypeError
            Invalid ``pos_label``, ``average``, ``multi_class`` or ``max_fpr``; weighted
            counts with ``'ovo'``.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram(bins=4).update([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> h.roc_auc()
        0.875
        """
        max_fpr = check_max_fpr(max_fpr)
        if self.is_binary or pos_label is not None:
            pos, neg, _, _ = self.pos_neg(pos_label)
            return self._binned_auc(pos, neg, max_fpr)
        if max_fpr is not None and max_fpr != 1:
            raise ValueError("max_fpr (partial AUC) is only available for binary problems")
        k = len(self.labels)
        if multi_class == "ovr":
            check_average(average, ("macro", "weighted", "micro", None))
            if average == "micro":
                return self._binned_auc(*self._micro(), None)
            per = np.array([self._binned_auc(*self.pos_neg(c)[:2], None) for c in self.labels])
            support = np.array([self.counts[i, i].sum() for i in range(k)], dtype=np.float64)
            return average_scores(per, average, support)
        if multi_class != "ovo":
            raise ValueError(f"multi_class must be 'ovr' or 'ovo', got {multi_class!r}")
        check_average(average, ("macro", "weighted"))
        if self.is_weighted:
            raise ValueError("sample weights are not supported for multi_class='ovo' (as in scikit-learn)")
        sizes = self.counts[:, 0, :].sum(axis=1)
        present = [i for i in range(k) if sizes[i] > 0]
        scores, prevalence = [], []
        for a, b in combinations(present, 2):
            auc_a = self._binned_auc(self.counts[a, a], self.counts[b, a], None)
            auc_b = self._binned_auc(self.counts[b, b], self.counts[a, b], None)
            scores.append((auc_a + auc_b) / 2)
            prevalence.append((sizes[a] + sizes[b]) / sizes.sum())
        if not scores:
            return undefined_auc()
        return float(np.average(scores, weights=prevalence if average == "weighted" else None))

    def average_precision(
        self,
        *,
        average: str | None = "macro",
        pos_label: Any = None,
        method: Literal["step", "interpolated", "trapezoid"] = "step",
    ) -> float | np.ndarray:
        """Average precision of the binned precision-recall curve (``method`` as in
        :func:`confmat.average_precision`); multiclass without ``pos_label`` averages the
        one-vs-rest values ('macro', 'weighted', 'micro' or None).

        Parameters
        ----------
        average : {'macro', 'weighted', 'micro'} or None, default='macro'
            Multiclass averaging.
        pos_label : label, optional
            Binary: ``labels[1]`` or None. Multiclass: the class against the rest.
        method : {'step', 'interpolated', 'trapezoid'}, default='step'
            As :func:`confmat.average_precision`.

        Returns
        -------
        float or ndarray
            The average precision, a fraction in [0, 1].

        Raises
        ------
        ValueError
            Invalid ``pos_label``, ``average`` or ``method``.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram(bins=4).update([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> round(h.average_precision(), 4)
        0.8333
        """
        method = check_method(method)
        if self.is_binary or pos_label is not None:
            pos, neg, _, _ = self.pos_neg(pos_label)
            _, tps, fps = self._cumulative(pos, neg)
            return ap_from_counts(tps, fps, method)
        check_average(average, ("macro", "weighted", "micro", None))
        if average == "micro":
            _, tps, fps = self._cumulative(*self._micro())
            return ap_from_counts(tps, fps, method)
        per = []
        for c in self.labels:
            _, tps, fps = self._cumulative(*self.pos_neg(c)[:2])
            per.append(ap_from_counts(tps, fps, method))
        support = np.array([self.counts[i, i].sum() for i in range(len(self.labels))], float)
        return average_scores(np.array(per), average, support)

    def threshold_sweep(self, *, thresholds: Any = None, pos_label: Any = None) -> ThresholdSweep:
        """Confusion matrices at bin edges (exact for the rule ``score >= edge``).

        By default the thresholds are the lower edges of the non-empty bins, decreasing.
        Given ``thresholds`` must be bin edges (e.g. 0.9, 0.8, ... with the default bins and
        range), or lie above every score or at or below ``lo``.

        Parameters
        ----------
        thresholds : array-like, optional
            Bin edges to evaluate, in the given order.
        pos_label : label, optional
            Binary: ``labels[1]`` or None. Multiclass: the class against the rest.

        Returns
        -------
        ThresholdSweep
            Labels ``[negative, positive]``; its :meth:`~ThresholdSweep.at` accepts bin edges.

        Raises
        ------
        ValueError
            A threshold that is not a bin edge; invalid ``pos_label``.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram(bins=4).update([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> h.threshold_sweep().thresholds.tolist()
        [0.75, 0.25, 0.0]
        """
        pos, neg, pl, nl = self.pos_neg(pos_label)
        thr_all, tps_all, fps_all = self._cumulative(pos, neg, nonempty_only=False)
        if thresholds is None:
            t = self._cumulative(pos, neg)[0]
        else:
            t = check_thresholds(thresholds)
        edges = self.edges

        def check(values: np.ndarray) -> None:
            ok = np.isin(values, edges[:-1]) | (values <= edges[0]) | (values > edges[-1])
            if not ok.all():
                bad = values[~ok][0]
                raise ValueError(
                    f"threshold {bad!r} is not a bin edge; binned counts are exact only at the "
                    f"edges lo + (hi - lo) * j / {self.bins} (see ScoreHistogram.edges)"
                )

        below = None
        if pos.dtype.kind == "f" or neg.dtype.kind == "f":
            # weighted: FN and TN as sums of the bins below each edge, not totals minus TP /
            # FP, which lose every small weight next to a huge one (curves.sweep.counts_below)
            fn_asc = np.concatenate([[0.0], np.cumsum(pos, dtype=np.float64)[:-1]])
            tn_asc = np.concatenate([[0.0], np.cumsum(neg, dtype=np.float64)[:-1]])
            below = (fn_asc[::-1], tn_asc[::-1])
        labels = [self.labels[0], self.labels[1]] if self.is_binary else [nl, pl]
        return ThresholdSweep(
            t, thr_all, tps_all, fps_all, tps_all[-1], fps_all[-1], labels, check=check,
            below=below,
        )



def pair_bound(pos: np.ndarray, neg: np.ndarray) -> float:
    """Half the share of positive-negative pairs that fall in one bin: the AUC error bound.

    A pair whose positive and negative share a bin is counted as a tie (half a win), so the
    AUC of the histogram is off by at most half the share of such pairs.

    Parameters
    ----------
    pos, neg : numpy.ndarray, shape (bins,)
        Counts (or weights) of the positives and of the negatives in each bin.

    Returns
    -------
    float
        ``0.5 sum_b pos_b neg_b / (sum pos * sum neg)``, in [0, 0.5]; NaN without positives or
        without negatives.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.binned.views import pair_bound
    >>> pair_bound(np.array([1, 1, 0]), np.array([0, 1, 1]))  # 1 of 4 pairs shares a bin
    0.125
    """
    p = float(pos.sum())
    q = float(neg.sum())
    if p == 0 or q == 0:
        return float("nan")
    return float(0.5 * ((pos / p) * (neg / q)).sum())  # shares: no product of two counts


def binned_auc(pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """Binned ROC AUC of one histogram or of a stack of them: the exact AUC of the scores
    rounded down to their bin's lower edge, a positive-negative pair within one bin counting
    one half.

    Parameters
    ----------
    pos, neg : ndarray of shape (..., bins)
        Counts (or sums of weights) of the positives and the negatives per bin, bins in
        increasing score order along the last axis; one histogram per leading index.

    Returns
    -------
    ndarray of float64, shape (...)
        The AUC of each histogram; NaN (without a warning) where one class has no weight.

    Examples
    --------
    >>> binned_auc(np.array([0, 1, 1]), np.array([1, 1, 0])).item()  # one tie in bin 1
    0.875
    >>> binned_auc(np.array([[0, 1], [1, 1]]), np.array([[1, 0], [0, 0]])).tolist()
    [1.0, nan]
    """
    pos = np.asarray(pos)
    neg = np.asarray(neg)
    p = pos.sum(axis=-1, keepdims=True)
    q = neg.sum(axis=-1, keepdims=True)
    defined = (p[..., 0] > 0) & (q[..., 0] > 0)
    # shares of each class per bin, not counts: a product of two counts (or sums of
    # weights far from 1) would overflow or underflow float64, and P N passes int64
    with np.errstate(invalid="ignore", divide="ignore"):
        pos_f = pos / np.where(p > 0, p, 1).astype(np.float64)
        neg_f = neg / np.where(q > 0, q, 1).astype(np.float64)
    below = np.cumsum(neg_f, axis=-1) - neg_f
    area = (pos_f * (below + 0.5 * neg_f)).sum(axis=-1)
    return np.where(defined, area, np.nan)
