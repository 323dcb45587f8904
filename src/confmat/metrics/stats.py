"""Sufficient statistics of one or many confusion tables.

Everything here is batched: a table has shape ``(..., M, M)`` and every statistic keeps the
leading batch axes. The same metric code therefore serves one matrix, a bootstrap stack of
10,000 resampled matrices, or the 2 x 2 tables at every threshold of a curve.

``M`` is ``K`` or ``K + 1``: when a label subset was selected, the last row and column pool the
unselected labels. Per-class statistics count those samples (as scikit-learn does: a sample whose
true label is unselected but predicted as class ``j`` is a false positive for ``j``); overall
statistics use the selected ``K x K`` block.

The division-by-zero policy (:class:`Division`, ``zero_division``) lives in
:mod:`confmat.metrics.zero_division`, and the power-of-two rescaling of weighted tables far
from 1 in :mod:`confmat.metrics.rescaling`; their names stay importable from here.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from . import rescaling
from .exact import INT64_MAX, check_total, largest
from .one_vs_rest import one_vs_rest
from .zero_division import (
    ZERO_DIVISION_CHOICES,
    Division,
    UndefinedMetricWarning,
    check_zero_division,
)

__all__ = [
    "ZERO_DIVISION_CHOICES",
    "ClassCounts",
    "Division",
    "Stats",
    "UndefinedMetricWarning",
    "check_zero_division",
]


class ClassCounts:
    """One-vs-rest counts per class (last axis = class): the input of per-class metrics.

    Parameters
    ----------
    tp, fp, fn, tn : array_like
        True positives, false positives, false negatives and true negatives of each class.
    div : Division
        The zero-division policy the metric functions divide with.

    Examples
    --------
    >>> from confmat.metrics import ClassCounts, Division
    >>> c = ClassCounts([5, 4], [2, 1], [1, 2], [4, 5], Division())
    >>> c.support.tolist(), c.predicted.tolist(), c.negatives.tolist(), c.n.tolist()
    ([6, 6], [7, 5], [6, 6], [12, 12])
    """

    def __init__(self, tp: Any, fp: Any, fn: Any, tn: Any, div: Division) -> None:
        self.tp = np.asarray(tp)
        self.fp = np.asarray(fp)
        self.fn = np.asarray(fn)
        self.tn = np.asarray(tn)
        self.div = div

    @property
    def support(self) -> np.ndarray:
        """``TP + FN``: the samples whose true class is the class.

        Returns
        -------
        numpy.ndarray
        """
        return self.tp + self.fn

    @property
    def predicted(self) -> np.ndarray:
        """``TP + FP``: the samples predicted as the class.

        Returns
        -------
        numpy.ndarray
        """
        return self.tp + self.fp

    @property
    def negatives(self) -> np.ndarray:
        """``FP + TN``: the samples whose true class is another one.

        Returns
        -------
        numpy.ndarray
        """
        return self.fp + self.tn

    @property
    def n(self) -> np.ndarray:
        """``TP + FP + FN + TN``: all samples.

        Returns
        -------
        numpy.ndarray
        """
        return self.tp + self.fp + self.fn + self.tn


class Stats:
    """Lazy, cached statistics of a (batch of) confusion table(s).

    Integer tables must have totals that fit int64 (checked here); then every sum is exact.
    Products of counts are never formed in int64 by the metrics (see
    :mod:`confmat.metrics.exact`). Each attribute is computed on first use and kept.

    Parameters
    ----------
    table : array_like
        Shape ``(..., M, M)``: rows are true classes, columns predicted classes.
    k : int, optional
        Number of selected classes; when ``k < M`` the last ``M - k`` rows and columns pool the
        unselected labels. Defaults to ``M``.
    zero_division : {"warn", 0, 1, numpy.nan}, default "warn"
        The policy for undefined values.

    Raises
    ------
    ValueError
        If the table is not square in its last two axes, or ``zero_division`` is bad.
    OverflowError
        If a count or a table's total exceeds int64.

    Examples
    --------
    >>> from confmat.metrics import Stats
    >>> s = Stats([[5, 1], [2, 4]])
    >>> s.tp.tolist(), s.fp.tolist(), s.fn.tolist(), s.tn.tolist()
    ([5, 4], [2, 1], [1, 2], [4, 5])
    >>> int(s.n), int(s.correct), s.rows.tolist(), s.cols.tolist()
    (12, 9, [6, 6], [7, 5])

    With a label subset (``k=2``), the pooled third row and column still count as false
    positives and negatives of the selected classes:

    >>> sub = Stats([[5, 1, 0], [2, 4, 1], [1, 0, 0]], k=2)
    >>> sub.fp.tolist(), sub.fn.tolist(), int(sub.n), int(sub.n_all)
    ([3, 1], [1, 3], 12, 14)
    """

    def __init__(self, table: Any, k: int | None = None, zero_division: Any = "warn") -> None:
        self.table = np.asarray(table)
        if self.table.ndim < 2 or self.table.shape[-1] != self.table.shape[-2]:
            raise ValueError(f"a confusion table must be square, got shape {self.table.shape}")
        check_total(self.table, "table")
        self.k = self.table.shape[-1] if k is None else k
        self.div = Division(zero_division)

    #: the statistics every catalogue needs, computed by :meth:`warm`
    SHARED = ("counts", "tp", "support", "predicted", "n_all", "fn", "fp", "tn", "n", "rows",
              "cols", "correct")

    def warm(self) -> Stats:
        """Compute the shared statistics (:data:`SHARED`) now, so that :meth:`fork` copies
        them.

        Returns
        -------
        Stats
            ``self``.

        Examples
        --------
        >>> from confmat.metrics import Stats
        >>> "tn" in Stats([[5, 1], [2, 4]]).warm().__dict__
        True
        """
        for name in self.SHARED:
            value = getattr(self, name)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False  # shared by every fork: never changed in place
        _ = self.rescaled, self.too_wide
        return self

    def fork(self) -> Stats:
        """Statistics of the same table with a fresh zero-division record (same policy) that
        share what this object has computed: its statistics and the intermediates cached by
        :func:`confmat.metrics.common.memo`.

        A matrix keeps one warmed object per policy and hands each metric call a fork, so
        repeated calls (a report asks for every metric and average) compute the counts and
        shared intermediates once, while each call records and warns about its own undefined
        values.

        Returns
        -------
        Stats

        Examples
        --------
        >>> from confmat.metrics import Stats
        >>> base = Stats([[5, 1], [2, 4]]).warm()
        >>> f = base.fork()
        >>> f.tp is base.tp, f.div is base.div
        (True, False)
        """
        other = Stats.__new__(Stats)
        other.__dict__.update({k: v for k, v in self.__dict__.items()
                               if k not in ("div", "per_class", "micro")})
        other.div = Division(self.div.zero_division)
        other.__dict__.setdefault("_catalogue_memo", self.__dict__.setdefault(
            "_catalogue_memo", {}))
        return other

    SAFE = rescaling.SAFE
    PRODUCTS = rescaling.PRODUCTS

    @cached_property
    def _in_middle(self) -> bool:
        """:func:`~confmat.metrics.rescaling.in_middle` of the table, computed once for
        :attr:`rescaled` and :attr:`too_wide`."""
        return rescaling.in_middle(self.table)

    @cached_property
    def rescaled(self) -> tuple[Stats, np.ndarray] | None:
        """The statistics of a weighted table multiplied by ``2**e``, and ``e`` (per table),
        or None when no table needs it (integer tables never do).

        ``e`` is :func:`confmat.metrics.rescaling.scale_exponents`: every product of the
        rescaled cells is a float64 number, and a metric of degree ``d``
        (``MetricSpec.scale_degree``) is the rescaled table's value times ``2**(-d e)``
        (:meth:`homogeneous`).

        Returns
        -------
        tuple of (Stats, numpy.ndarray) or None
            The rescaled statistics (same ``k`` and policy, warmed) and the exponents, of the
            batch shape.

        Examples
        --------
        >>> from confmat.metrics import Stats
        >>> scaled, e = Stats([[1e300, 2e299], [3e299, 4e300]]).rescaled
        >>> int(e), round(float(scaled.table.max()), 4)
        (-998, 1.4932)
        >>> Stats([[1.0, 2.0], [3.0, 4.0]]).rescaled is None
        True
        """
        t = self.table
        if t.dtype.kind != "f" or t.size == 0 or self._in_middle:
            return None
        e = rescaling.scale_exponents(t)
        if e is None:
            return None
        scaled = Stats(np.ldexp(t, e[..., None, None]), k=self.k,
                       zero_division=self.div.zero_division)
        scaled.__dict__["rescaled"] = None  # centred already
        return scaled.warm(), e

    @cached_property
    def too_wide(self) -> tuple[float, float] | None:
        """The smallest and largest nonzero weight when no power of two (:attr:`rescaled`)
        keeps every product of cells a float64 number, else None
        (:func:`confmat.metrics.rescaling.too_wide`).

        Returns
        -------
        tuple of float or None
            ``(smallest, largest)`` over the tables of a stack.
        """
        if self.table.dtype.kind != "f" or self.table.size == 0 or self._in_middle:
            return None
        return rescaling.too_wide(self.table)

    def homogeneous(self, func: Any, degree: float) -> np.ndarray:
        """``func(self)`` for a function of degree ``degree`` in the counts, evaluated on the
        rescaled table (:attr:`rescaled`) and scaled back, so that products of weighted
        counts cannot overflow or underflow float64.

        Parameters
        ----------
        func : callable
            Maps a :class:`Stats` to values with the batch shape first (a class axis may
            follow).
        degree : float
            A multiple of 1/2: ``func(c * table) = c**degree * func(table)`` for ``c > 0``.

        Returns
        -------
        numpy.ndarray
            ``func(self)``; its undefined values are recorded in this object's policy.

        Examples
        --------
        >>> from confmat.metrics import Stats
        >>> s = Stats([[1e300, 2e299], [3e299, 4e300]])
        >>> share = lambda st: st.tp[..., 0] * st.tp[..., 1] / (st.n * st.n)  # 4e600 / 30.25e600
        >>> round(float(s.homogeneous(share, 0)), 6), float(s.homogeneous(lambda st: st.n, 1))
        (0.132231, 5.5e+300)
        """
        pair = self.rescaled
        if pair is None:
            return np.asarray(func(self))
        base, e = pair
        scaled = base.fork()
        scaled.div = self.div
        return rescaling.scale_back(func(scaled), degree, e)

    @cached_property
    def counts(self) -> np.ndarray:
        """The selected ``K x K`` block (all of it when no subset was selected).

        Returns
        -------
        numpy.ndarray
        """
        return self.table[..., : self.k, : self.k]

    @cached_property
    def tp(self) -> np.ndarray:
        """True positives per selected class: the diagonal.

        Returns
        -------
        numpy.ndarray
        """
        return np.diagonal(self.table, axis1=-2, axis2=-1)[..., : self.k]

    @cached_property
    def support(self) -> np.ndarray:
        """Row sums of the selected classes, over all columns (pooled ones included).

        Returns
        -------
        numpy.ndarray
        """
        return self.table.sum(axis=-1)[..., : self.k]

    @cached_property
    def predicted(self) -> np.ndarray:
        """Column sums of the selected classes, over all rows (pooled ones included).

        Returns
        -------
        numpy.ndarray
        """
        return self.table.sum(axis=-2)[..., : self.k]

    @cached_property
    def n_all(self) -> np.ndarray:
        """Total of the whole table, pooled labels included.

        Returns
        -------
        numpy.ndarray
        """
        return self.table.sum(axis=(-2, -1))

    @cached_property
    def _weighted_one_vs_rest(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """FN, FP, TN of a float table, each the exact sum of its cells rounded once
        (:func:`confmat.metrics.one_vs_rest.one_vs_rest`); None for integer tables (exact
        as differences) or tables with negative or non-finite cells."""
        if self.table.dtype.kind != "f":
            return None
        try:
            return one_vs_rest(self.table, self.k)
        except ValueError:
            return None

    @cached_property
    def fn(self) -> np.ndarray:
        """False negatives per selected class: the sum of the class's row off the diagonal
        (``support - tp`` for counts; for weights the exact sum of the cells rounded once).

        Returns
        -------
        numpy.ndarray

        Examples
        --------
        >>> from confmat.metrics import Stats
        >>> Stats([[1.0, 1e-20], [1e-20, 1.0]]).fn.tolist()  # support - tp gives [0.0, 0.0]
        [1e-20, 1e-20]
        """
        exact = self._weighted_one_vs_rest
        return self.support - self.tp if exact is None else exact[0]

    @cached_property
    def fp(self) -> np.ndarray:
        """False positives per selected class: the sum of the class's column off the diagonal
        (``predicted - tp`` for counts; for weights the exact sum of the cells rounded once).

        Returns
        -------
        numpy.ndarray
        """
        exact = self._weighted_one_vs_rest
        return self.predicted - self.tp if exact is None else exact[1]

    @cached_property
    def tn(self) -> np.ndarray:
        """True negatives per selected class: the sum of the cells outside the class's row
        and column (``n_all - tp - fn - fp`` for counts).

        With float weights it is the exact sum of those cells rounded once
        (:func:`confmat.metrics.one_vs_rest.one_vs_rest`): never a rounding residue of the
        other cells, and 0 exactly when those cells hold no weight, so that a residue never
        makes a rate defined that is not.

        Returns
        -------
        numpy.ndarray

        Examples
        --------
        >>> from confmat.metrics import Stats
        >>> w = [[0.1, 0.7], [0.2, 0.0]]  # n_all - tp - fn - fp rounds to 5.6e-17 for class 0
        >>> float(Stats(w).tn[0])
        0.0
        """
        exact = self._weighted_one_vs_rest
        if exact is not None:
            return exact[2]
        tn = self.n_all[..., None] - self.tp - self.fn - self.fp
        if tn.dtype.kind == "f":  # negative or non-finite weights: the difference, clipped
            tn = np.maximum(tn, 0.0)
        return tn

    # overall statistics use the selected block
    @cached_property
    def n(self) -> np.ndarray:
        """Total of the selected block: the ``N`` of overall metrics.

        Returns
        -------
        numpy.ndarray
        """
        return self.counts.sum(axis=(-2, -1))

    @cached_property
    def rows(self) -> np.ndarray:
        """Row sums of the selected block.

        Returns
        -------
        numpy.ndarray
        """
        return self.counts.sum(axis=-1)

    @cached_property
    def cols(self) -> np.ndarray:
        """Column sums of the selected block.

        Returns
        -------
        numpy.ndarray
        """
        return self.counts.sum(axis=-2)

    @cached_property
    def errors(self) -> np.ndarray:
        """Misclassified total of the selected block: ``n - correct`` for counts (exact), the
        sum of the off-diagonal cells for weights (``n - correct`` of weights spanning more
        than 2**53 loses every digit: a float64 ``n`` rounds).

        Returns
        -------
        numpy.ndarray
        """
        c = self.counts
        if c.dtype.kind != "f":
            return self.n - self.correct
        return np.where(np.eye(c.shape[-1], dtype=bool), 0.0, c).sum(axis=(-2, -1))

    @cached_property
    def correct(self) -> np.ndarray:
        """The trace of the selected block: correctly classified samples.

        Returns
        -------
        numpy.ndarray
        """
        return np.trace(self.counts, axis1=-2, axis2=-1)

    @cached_property
    def per_class(self) -> ClassCounts:
        """The one-vs-rest counts of every selected class, sharing this object's zero-division policy.

        Returns
        -------
        ClassCounts
        """
        return ClassCounts(self.tp, self.fp, self.fn, self.tn, self.div)

    @cached_property
    def micro(self) -> ClassCounts:
        """The one-vs-rest counts summed over classes (a class axis of length 1).

        Summed TP, FP and FN are at most N each and TN at most K N; a sum that could pass int64 (TN
        when K N does, all four when 2 N does) is taken in float64 instead of wrapping around.

        Returns
        -------
        ClassCounts

        Examples
        --------
        >>> from confmat.metrics import Stats
        >>> m = Stats([[5, 1], [2, 4]]).micro
        >>> m.tp.tolist(), m.fp.tolist(), m.fn.tolist(), m.tn.tolist()
        ([9], [3], [3], [9])
        """
        parts = [self.tp, self.fp, self.fn, self.tn]
        if self.table.dtype.kind in "iu":
            n_max = largest(self.n_all)
            wide = [2 * n_max > INT64_MAX] * 3 + [self.k * n_max > INT64_MAX]
            parts = [np.asarray(x, dtype=np.float64) if w else x
                     for x, w in zip(parts, wide, strict=True)]
        tp, fp, fn, tn = (x.sum(-1, keepdims=True) for x in parts)
        return ClassCounts(tp, fp, fn, tn, self.div)
