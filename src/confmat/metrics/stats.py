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

import warnings
from functools import cached_property
from typing import Any

import numpy as np

from .exact import INT64_MAX, check_total, largest

ZERO_DIVISION_CHOICES = ("warn", 0, 1, "nan")


class UndefinedMetricWarning(UserWarning):
    """A metric was undefined (zero denominator) and replaced per ``zero_division``."""


def check_zero_division(zero_division: Any) -> Any:
    if isinstance(zero_division, float) and np.isnan(zero_division):
        return "nan"
    if isinstance(zero_division, bool) or zero_division not in ZERO_DIVISION_CHOICES:
        raise ValueError(
            f"zero_division must be one of 'warn', 0, 1 or np.nan, got {zero_division!r}"
        )
    return zero_division


class Division:
    """Divides arrays applying the zero-division policy; remembers what was undefined."""

    def __init__(self, zero_division: Any = "warn") -> None:
        self.zero_division = check_zero_division(zero_division)
        self.undefined: list[str] = []

    @property
    def fill(self) -> float:
        if self.zero_division == "nan":
            return float("nan")
        if self.zero_division == "warn":
            return 0.0
        return float(self.zero_division)

    def __call__(self, num: Any, den: Any, what: str = "ratio", fill: float | None = None) -> np.ndarray:
        num = np.asarray(num, dtype=np.float64)
        den = np.asarray(den, dtype=np.float64)
        zero = den == 0
        with np.errstate(divide="ignore", invalid="ignore"):
            out = num / np.where(zero, 1.0, den)
        if zero.any():
            out = np.where(zero, self.fill if fill is None else fill, out)
            if fill is None:
                self.undefined.append(what)
        return out

    def warn(self, metric: str, stacklevel: int = 4) -> None:
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
    """One-vs-rest counts per class (last axis = class): the input of per-class metrics."""

    def __init__(self, tp: Any, fp: Any, fn: Any, tn: Any, div: Division) -> None:
        self.tp = np.asarray(tp)
        self.fp = np.asarray(fp)
        self.fn = np.asarray(fn)
        self.tn = np.asarray(tn)
        self.div = div

    @property
    def support(self) -> np.ndarray:
        return self.tp + self.fn

    @property
    def predicted(self) -> np.ndarray:
        return self.tp + self.fp

    @property
    def negatives(self) -> np.ndarray:
        return self.fp + self.tn

    @property
    def n(self) -> np.ndarray:
        return self.tp + self.fp + self.fn + self.tn


class Stats:
    """Lazy, cached statistics of a (batch of) confusion table(s).

    Integer tables must have totals that fit int64 (checked here: ``OverflowError``
    otherwise); then every sum below is exact. Products of counts are never formed in int64
    by the metrics (see :mod:`confmat.metrics.exact`).
    """

    def __init__(self, table: Any, k: int | None = None, zero_division: Any = "warn") -> None:
        self.table = np.asarray(table)
        if self.table.ndim < 2 or self.table.shape[-1] != self.table.shape[-2]:
            raise ValueError(f"a confusion table must be square, got shape {self.table.shape}")
        check_total(self.table, "table")
        self.k = self.table.shape[-1] if k is None else k
        self.div = Division(zero_division)

    @cached_property
    def counts(self) -> np.ndarray:
        """The selected ``K x K`` block (all of it when no subset was selected)."""
        return self.table[..., : self.k, : self.k]

    @cached_property
    def tp(self) -> np.ndarray:
        return np.diagonal(self.table, axis1=-2, axis2=-1)[..., : self.k]

    @cached_property
    def support(self) -> np.ndarray:
        return self.table.sum(axis=-1)[..., : self.k]

    @cached_property
    def predicted(self) -> np.ndarray:
        return self.table.sum(axis=-2)[..., : self.k]

    @cached_property
    def n_all(self) -> np.ndarray:
        return self.table.sum(axis=(-2, -1))

    @cached_property
    def fn(self) -> np.ndarray:
        return self.support - self.tp

    @cached_property
    def fp(self) -> np.ndarray:
        return self.predicted - self.tp

    @cached_property
    def tn(self) -> np.ndarray:
        tn = self.n_all[..., None] - self.tp - self.fn - self.fp
        if tn.dtype.kind == "f":
            # with float weights the subtraction can leave -1e-16 where the count is 0
            tn = np.maximum(tn, 0.0)
        return tn

    # overall statistics use the selected block
    @cached_property
    def n(self) -> np.ndarray:
        return self.counts.sum(axis=(-2, -1))

    @cached_property
    def rows(self) -> np.ndarray:
        return self.counts.sum(axis=-1)

    @cached_property
    def cols(self) -> np.ndarray:
        return self.counts.sum(axis=-2)

    @cached_property
    def correct(self) -> np.ndarray:
        return np.trace(self.counts, axis1=-2, axis2=-1)

    @cached_property
    def per_class(self) -> ClassCounts:
        return ClassCounts(self.tp, self.fp, self.fn, self.tn, self.div)

    @cached_property
    def micro(self) -> ClassCounts:
        """The one-vs-rest counts summed over classes. Summed TP, FP and FN are at most N each
        and TN at most K N; a sum that could pass int64 (TN when K N does, all four when 2 N
        does) is taken in float64 instead of wrapping around."""
        parts = [self.tp, self.fp, self.fn, self.tn]
        if self.table.dtype.kind in "iu":
            n_max = largest(self.n_all)
            wide = [2 * n_max > INT64_MAX] * 3 + [self.k * n_max > INT64_MAX]
            parts = [np.asarray(x, dtype=np.float64) if w else x
                     for x, w in zip(parts, wide, strict=True)]
        return ClassCounts(*(x.sum(-1, keepdims=True) for x in parts), self.div)
