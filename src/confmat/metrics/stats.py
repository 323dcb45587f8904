"""Sufficient statistics of one or many confusion tables, and the division-by-zero policy.

Everything here is batched: a table has shape ``(..., M, M)`` and every statistic keeps the
leading batch axes. The same metric code therefore serves one matrix, a bootstrap stack of
10,000 resampled matrices, or the 2 x 2 tables at every threshold of a curve.

``M`` is ``K`` or ``K + 1``: when a label subset was selected, the last row and column pool the
unselected labels. Per-class statistics count those samples (as scikit-learn does: a sample whose
true label is unselected but predicted as class ``j`` is a false positive for ``j``); overall
statistics use the selected ``K x K`` block.
"""

from __future__ import annotations

import math
import warnings
from functools import cached_property
from typing import Any

import numpy as np

from .exact import INT64_MAX, check_total, largest

ZERO_DIVISION_CHOICES = ("warn", 0, 1, "nan")


class UndefinedMetricWarning(UserWarning):
    """A metric was undefined (zero denominator) and replaced per ``zero_division``.

    Examples
    --------
    >>> import warnings
    >>> from confmat.metrics import Stats, UndefinedMetricWarning, evaluate
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = evaluate("precision", Stats([[2, 0], [3, 0]]))
    >>> caught[0].category is UndefinedMetricWarning
    True
    """


def check_zero_division(zero_division: Any) -> Any:
    """Validate a ``zero_division`` argument, as scikit-learn spells it.

    Parameters
    ----------
    zero_division : {"warn", 0, 1, numpy.nan}
        What an undefined value becomes: 0 with a warning, 0, 1 or NaN.

    Returns
    -------
    str or int
        The value, with NaN spelled ``"nan"``.

    Raises
    ------
    ValueError
        For any other value (``True`` included).

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.stats import check_zero_division
    >>> check_zero_division(np.nan)
    'nan'
    >>> check_zero_division(2)
    Traceback (most recent call last):
    ...
    ValueError: zero_division must be one of 'warn', 0, 1 or np.nan, got 2
    """
    if isinstance(zero_division, float) and np.isnan(zero_division):
        return "nan"
    if isinstance(zero_division, bool) or zero_division not in ZERO_DIVISION_CHOICES:
        raise ValueError(
            f"zero_division must be one of 'warn', 0, 1 or np.nan, got {zero_division!r}"
        )
    return zero_division


class Division:
    """Divides arrays applying the zero-division policy; remembers what was undefined.

    Calling it as ``div(num, den, what)`` returns ``num / den`` with the policy's fill where
    ``den == 0`` and records ``what``; with an explicit ``fill`` nothing is recorded.

    Parameters
    ----------
    zero_division : {"warn", 0, 1, numpy.nan}, default "warn"
        See :func:`check_zero_division`.

    Raises
    ------
    ValueError
        For a bad ``zero_division``.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics import Division
    >>> div = Division()
    >>> div(np.array([1, 2]), np.array([2, 0]), "ppv").tolist(), div.undefined
    ([0.5, 0.0], ['ppv'])
    """

    def __init__(self, zero_division: Any = "warn") -> None:
        self.zero_division = check_zero_division(zero_division)
        self.undefined: list[str] = []

    @property
    def fill(self) -> float:
        """The value an undefined ratio becomes.

        Returns
        -------
        float
            0.0 for ``"warn"``, NaN for ``"nan"``, else ``zero_division``.

        Examples
        --------
        >>> from confmat.metrics import Division
        >>> Division(1).fill
        1.0
        """
        if self.zero_division == "nan":
            return float("nan")
        if self.zero_division == "warn":
            return 0.0
        return float(self.zero_division)

    def __call__(self, num: Any, den: Any, what: str = "ratio", fill: float | None = None) -> np.ndarray:
        num = np.asarray(num, dtype=np.float64)
        den = np.asarray(den, dtype=np.float64)
        zero = den == 0
        if not zero.any():
            with np.errstate(invalid="ignore"):  # inf / inf, nan stay nan
                return num / den
        with np.errstate(divide="ignore", invalid="ignore"):
            out = num / np.where(zero, 1.0, den)
        out = np.where(zero, self.fill if fill is None else fill, out)
        if fill is None:
            self.undefined.append(what)
        return out

    def warn(self, metric: str, stacklevel: int = 4) -> None:
        """Emit one :class:`UndefinedMetricWarning` for ``metric`` if something was undefined under
        ``zero_division="warn"``, then forget the notes.

        Parameters
        ----------
        metric : str
            The metric named in the message.
        stacklevel : int, default 4
            Passed to :func:`warnings.warn` so the warning points at the user's call.

        Returns
        -------
        None

        Examples
        --------
        >>> import numpy as np
        >>> from confmat.metrics import Division
        >>> div = Division(0)
        >>> _ = div(np.array([1.0]), np.array([0.0]), "ppv")
        >>> div.warn("precision")  # zero_division=0: silent
        >>> div.undefined
        []
        """
        if self.undefined and self.zero_division == "warn":
            what = ", ".join(dict.fromkeys(self.undefined))
            warnings.warn(
                f"{metric} is ill-defined for some classes ({what} has a zero denominator) and "
                "is set to 0.0 there. Use zero_division to control this.",
                UndefinedMetricWarning,
                stacklevel=stacklevel,
            )
        self.undefined.clear()


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

    #: a weighted table is rescaled when a nonzero cell is outside [2**-SAFE, 2**SAFE]
    SAFE = 200
    #: after rescaling the largest cell stays below 2**PRODUCTS when the smallest allows it
    PRODUCTS = 240

    @cached_property
    def _in_middle(self) -> bool:
        """Whether every cell of a float table (stack) is 0 or lies within ``2**-(SAFE - 1)``
        to ``2**(SAFE - 1)``: then no table needs :attr:`rescaled` and none is
        :attr:`too_wide`. Three reductions over the stack, no temporary arrays (the per-table
        exponents cost a bootstrap's stack of weighted tables about 15 % of its time)."""
        t = self.table
        lim = 2.0 ** (self.SAFE - 1)
        return bool(t.min() >= 0 and t.max() < lim
                    and np.min(t, where=t > 0, initial=np.inf) >= 1.0 / lim)

    @cached_property
    def rescaled(self) -> tuple[Stats, np.ndarray] | None:
        """The statistics of a weighted table multiplied by ``2**e``, and ``e`` (per table),
        or None when no table needs it (integer tables never do).

        Products of weighted counts (``N**2``, row sums times column sums, ``TP TN``) overflow
        float64 when the cells pass about 1e154 and underflow below 1e-154, although the
        metric of the table is a plain number. A power of two moves every cell into the middle
        of float64's range without rounding a single one: the geometric middle of the largest
        and the smallest nonzero cell goes to 1, but the largest cell no higher than
        ``2**PRODUCTS`` (so that products of four cells are numbers) unless the smallest would leave the
        normal range, and never higher than ``2**1000``. A metric of
        degree ``d`` (``MetricSpec.scale_degree``) is the rescaled table's value times
        ``2**(-d e)`` (:meth:`homogeneous`). Tables whose nonzero cells all lie within
        ``2**-SAFE`` to ``2**SAFE`` keep ``e = 0``; ``e`` is even so that half degrees scale
        back exactly.

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
        a = np.abs(t)
        hi = a.max(axis=(-2, -1))
        lo = np.where(a > 0, a, np.inf).min(axis=(-2, -1))
        usable = np.isfinite(hi) & (hi > 0)
        hi_e = np.frexp(np.where(usable, hi, 1.0))[1]
        lo_e = np.frexp(np.where(usable, lo, 1.0))[1]
        e = -((hi_e + lo_e) // 2)
        # products of four of the largest cells overflow: move them down to 2**PRODUCTS if
        # the smallest stay normal numbers; else only keep every cell finite
        lower = np.where(lo_e + self.PRODUCTS - hi_e >= -1020, self.PRODUCTS - hi_e, 1000 - hi_e)
        e = np.minimum(e, lower)
        e = e - e % 2
        safe = ~usable | ((hi_e <= self.SAFE) & (lo_e >= -self.SAFE))
        e = np.where(safe, 0, e)
        if not e.any():
            return None
        scaled = Stats(np.ldexp(t, e[..., None, None]), k=self.k,
                       zero_division=self.div.zero_division)
        scaled.__dict__["rescaled"] = None  # centred already
        return scaled.warm(), e

    @cached_property
    def too_wide(self) -> tuple[float, float] | None:
        """The smallest and largest nonzero weight when they lie too far apart for every
        product of cells to be a float64 number (about 1e380 apart, or more), else None.

        No power of two (:attr:`rescaled`) then keeps the products of the largest cells finite
        and the smallest cells normal: a metric formed of such products may come out NaN.

        Returns
        -------
        tuple of float or None
            ``(smallest, largest)`` over the tables of a stack.

        Examples
        --------
        >>> from confmat.metrics import Stats
        >>> Stats([[1e300, 1e-300], [1e-300, 1e-300]]).too_wide
        (1e-300, 1e+300)
        >>> Stats([[1e300, 1.0], [2.0, 3e300]]).too_wide is None
        True
        """
        t = self.table
        if t.dtype.kind != "f" or t.size == 0 or self._in_middle:
            return None
        a = np.abs(t)
        positive = a > 0
        if not positive.any():
            return None
        hi, lo = float(a.max()), float(a[positive].min())
        if not math.isfinite(hi):
            return None
        if math.frexp(lo)[1] + self.PRODUCTS - math.frexp(hi)[1] >= -1020:
            return None
        return lo, hi

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
        out = np.asarray(func(scaled))
        if degree == 0:
            return out
        shift = np.rint(-degree * e).astype(np.int64)
        return np.ldexp(out, shift.reshape(shift.shape + (1,) * (out.ndim - shift.ndim)))

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
    def fn(self) -> np.ndarray:
        """False negatives per selected class: ``support - tp``.

        Returns
        -------
        numpy.ndarray
        """
        return self.support - self.tp

    @cached_property
    def fp(self) -> np.ndarray:
        """False positives per selected class: ``predicted - tp``.

        Returns
        -------
        numpy.ndarray
        """
        return self.predicted - self.tp

    @cached_property
    def tn(self) -> np.ndarray:
        """True negatives per selected class: ``n_all - tp - fn - fp``.

        With float weights the subtraction rounds: it is clipped at 0, and it is exactly 0
        where no cell outside the class's row and column holds weight (counted in integers),
        so that a rounding residue never makes a rate defined that is not.

        Returns
        -------
        numpy.ndarray

        Examples
        --------
        >>> from confmat.metrics import Stats
        >>> w = [[0.1, 0.7], [0.2, 0.0]]  # for class 0, n_all - tp - fn - fp rounds to 5.6e-17
        >>> float(Stats(w).tn[0])
        0.0
        """
        tn = self.n_all[..., None] - self.tp - self.fn - self.fp
        if tn.dtype.kind == "f":
            tn = np.maximum(tn, 0.0)
            # a residue of the subtraction is at most a few ulps of n_all: only such small
            # values are checked against the cells (counting them costs a bootstrap's stack)
            small = tn <= self.n_all[..., None] * 2.0**-40
            if small.any():
                nonzero = (self.table != 0).astype(np.int64)
                k = self.k
                cells = (nonzero.sum(axis=(-2, -1))[..., None] - nonzero.sum(axis=-1)[..., :k]
                         - nonzero.sum(axis=-2)[..., :k]
                         + np.diagonal(nonzero, axis1=-2, axis2=-1)[..., :k])
                tn = np.where(small & (cells == 0), 0.0, tn)
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
