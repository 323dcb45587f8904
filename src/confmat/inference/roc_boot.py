r"""Vectorised bootstrap of empirical ROC curves: resamples as counts per distinct score.

A bootstrap resample of a scored sample changes only how many negatives and positives sit at
each distinct score. The scores are sorted once into ``G`` groups (distinct values, decreasing);
``B`` resamples become two ``(B, G)`` count tables, their cumulative sums the false and true
positive counts ``fp``, ``tp`` of every resampled curve (a leading column of zeros is the point
of the infinite threshold), and every quantity pROC computes on a resampled curve (Robin et al.
2011) is read from those tables in a few array passes: the sensitivity at a specificity (and the
reverse) with pROC's interpolation, rates at fixed thresholds, full and partial areas.

Resamples are drawn as indices (``rng.integers``) within each class (stratified, the default of
pROC) or over all samples; paired designs reuse the same indices for every score vector.
Functions taking index tables let tests feed pROC's own resamples and compare exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..curves.partial import focus_area, mcclish
from ..deps import njit, numba_kernels


@dataclass(frozen=True)
class ScoreGroups:
    """Distinct scores of one score vector and the group of every sample, by class.

    Parameters
    ----------
    scores : ndarray of shape (G,)
        Distinct scores, decreasing.
    neg_codes, pos_codes : ndarray
        Group of each negative / positive sample (data order).
    codes : ndarray of shape (n,)
        Group of each sample, plus ``G`` for positives (the unstratified draw).

    Examples
    --------
    >>> ScoreGroups.build(np.array([True, False]), np.array([.9, .1])).size
    2
    """

    scores: np.ndarray
    neg_codes: np.ndarray
    pos_codes: np.ndarray
    codes: np.ndarray

    @classmethod
    def build(cls, pos: np.ndarray, score: np.ndarray) -> ScoreGroups:
        """Groups of validated binary input.

        Parameters
        ----------
        pos : ndarray of bool
            True for positives.
        score : ndarray of float
            Scores.

        Returns
        -------
        ScoreGroups

        Examples
        --------
        >>> g = ScoreGroups.build(np.array([False, True, True]), np.array([.2, .5, .2]))
        >>> g.scores.tolist(), g.neg_codes.tolist(), g.pos_codes.tolist()
        ([0.5, 0.2], [1], [0, 1])
        """
        uniq, inv = np.unique(-score, return_inverse=True)
        inv = inv.astype(np.int64).ravel()
        g = uniq.shape[0]
        return cls(-uniq, inv[~pos], inv[pos], inv + g * pos.astype(np.int64))

    @property
    def size(self) -> int:
        """Number of groups ``G``."""
        return int(self.scores.shape[0])

    def base_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """Negative and positive counts per group of the sample itself.

        Returns
        -------
        tuple of ndarray
            (1, G) each.
        """
        g = self.size
        return (np.bincount(self.neg_codes, minlength=g)[None, :],
                np.bincount(self.pos_codes, minlength=g)[None, :])

    def stratified_curves(self, neg_idx: np.ndarray, pos_idx: np.ndarray) -> Curves:
        """Curves of resamples given as index tables into the negatives and positives.

        Parameters
        ----------
        neg_idx : ndarray of shape (B, N)
            Indices (0-based) of the negatives drawn by each resample.
        pos_idx : ndarray of shape (B, P)
            Likewise for the positives.

        Returns
        -------
        Curves
        """
        fp = cumulative_drawn(self.neg_codes, neg_idx, self.size)
        tp = cumulative_drawn(self.pos_codes, pos_idx, self.size)
        return Curves(fp, tp, fp[:, -1].copy(), tp[:, -1].copy())

    def pooled_curves(self, idx: np.ndarray) -> Curves:
        """Curves of resamples drawn over all samples (a class may be missing).

        Parameters
        ----------
        idx : ndarray of shape (B, n)
            Indices of the samples drawn by each resample.

        Returns
        -------
        Curves
        """
        both = _count_rows(self.codes[idx], 2 * self.size)
        return Curves.from_counts(both[:, : self.size], both[:, self.size:])


def _count_rows(codes: np.ndarray, width: int) -> np.ndarray:
    """Row-wise bincount of a (B, m) code table: (B, width)."""
    b = codes.shape[0]
    flat = (codes + (np.arange(b, dtype=np.int64) * width)[:, None]).ravel()
    return np.bincount(flat, minlength=b * width).reshape(b, width)


def cumulative_drawn(codes: np.ndarray, idx: np.ndarray, width: int) -> np.ndarray:
    """Row-wise cumulative counts of ``codes[idx]`` with a leading 0: (B, width + 1).

    Compiled when numba is there (gather, count and cumulative sum in one pass over each
    row, counting in a small reused buffer), else numpy; the same integers either way.

    Parameters
    ----------
    codes : ndarray of int64
        Group code of every item, in ``[0, width)``.
    idx : ndarray of shape (B, m)
        Items drawn by each resample.
    width : int
        Number of codes.

    Returns
    -------
    ndarray of int64, shape (B, width + 1)

    Examples
    --------
    >>> cumulative_drawn(np.array([0, 1, 1]), np.array([[0, 1, 2], [2, 2, 2]]), 2).tolist()
    [[0, 1, 3], [0, 0, 3]]
    """
    kern = count_kernel()
    if kern is None or idx.size < 1 << 14:
        counts = _count_rows(codes[idx], width)
        out = np.zeros((idx.shape[0], width + 1), dtype=np.int64)
        np.cumsum(counts, axis=1, out=out[:, 1:])
        return out
    return kern(np.ascontiguousarray(codes), np.ascontiguousarray(idx), width)


@numba_kernels
def count_kernel() -> Any:
    """The compiled kernel of :func:`cumulative_drawn`, or None without numba."""

    @njit(nogil=True)
    def cumulative(codes, idx, width):  # pragma: no cover - compiled
        rows, m = idx.shape
        out = np.empty((rows, width + 1), np.int64)
        buf = np.zeros(width, np.int32)
        for r in range(rows):
            for j in range(m):
                buf[codes[idx[r, j]]] += 1
            acc = 0
            out[r, 0] = 0
            for g in range(width):
                acc += buf[g]
                buf[g] = 0
                out[r, g + 1] = acc
        return out

    return cumulative


def draw(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """Indices of ``rows`` bootstrap resamples of ``n`` items: (rows, n), uniform with
    replacement.

    Parameters
    ----------
    rng : numpy.random.Generator
    rows, n : int

    Returns
    -------
    ndarray of int
    """
    dtype = np.int32 if n < 2**31 else np.int64
    return rng.integers(0, n, size=(rows, n), dtype=dtype)


@dataclass(frozen=True)
class Curves:
    """Cumulative counts of ``B`` curves on one group axis.

    Parameters
    ----------
    fp, tp : ndarray of shape (B, G + 1)
        False / true positive counts at or above each threshold, a leading 0 column first.
    n_neg, n_pos : ndarray of shape (B,)
        Negatives and positives of each resample (0 makes its rates nan).

    Examples
    --------
    >>> c = Curves.from_counts(np.array([[1, 1]]), np.array([[1, 1]]))  # two tied pairs: chance
    >>> c.auc().tolist(), c.at_specificity(np.array([0.5])).tolist()
    ([0.5], [[0.5]])
    """

    fp: np.ndarray
    tp: np.ndarray
    n_neg: np.ndarray
    n_pos: np.ndarray

    @classmethod
    def from_counts(cls, neg: np.ndarray, pos: np.ndarray) -> Curves:
        """Curves of (B, G) negative / positive counts per group (decreasing scores).

        Parameters
        ----------
        neg, pos : ndarray of shape (B, G)

        Returns
        -------
        Curves
        """
        b = neg.shape[0]
        fp = np.zeros((b, neg.shape[1] + 1), dtype=np.int64)
        tp = np.zeros_like(fp)
        np.cumsum(neg, axis=1, out=fp[:, 1:])
        np.cumsum(pos, axis=1, out=tp[:, 1:])
        return cls(fp, tp, fp[:, -1].copy(), tp[:, -1].copy())

    def rates(self) -> tuple[np.ndarray, np.ndarray]:
        """Sensitivities ``tp / P`` and specificities ``(N - fp) / N``.

        Returns
        -------
        tuple of ndarray
            (B, G + 1) each.
        """
        with np.errstate(invalid="ignore", divide="ignore"):
            se = self.tp / self.n_pos[:, None]
            sp = (self.n_neg[:, None] - self.fp) / self.n_neg[:, None]
        return se, sp

    def auc(self) -> np.ndarray:
        """Full area (Mann-Whitney form, ties counting one half) of each curve.

        Returns
        -------
        ndarray of shape (B,)
        """
        neg = np.diff(self.fp, axis=1)
        pos = np.diff(self.tp, axis=1)
        n = self.n_neg[:, None]
        num = (pos * (2 * (n - self.fp[:, 1:]) + neg)).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return num / (2.0 * self.n_neg * self.n_pos)

    def partial_auc(self, focus: str, lo: float, hi: float, correct: bool) -> np.ndarray:
        """Partial area of each curve on a range, optionally McClish-corrected (below the
        diagonal the corrected value is kept, as pROC's bootstrap does).

        Parameters
        ----------
        focus : {'specificity', 'sensitivity'}
        lo, hi : float
            The range.
        correct : bool
            McClish's standardisation.

        Returns
        -------
        ndarray of shape (B,)
        """
        se, sp = self.rates()
        area = focus_area(se, sp, lo, hi, focus)
        return mcclish(area, lo, hi) if correct else area

    def area(self, partial: tuple[str, float, float, bool] | None) -> np.ndarray:
        """Full area, or the partial area.

        Parameters
        ----------
        partial : tuple or None
            ``(focus, lo, hi, correct)``, or None for the full area.

        Returns
        -------
        ndarray of shape (B,)
        """
        return self.auc() if partial is None else self.partial_auc(*partial)

    def at_specificity(self, values: np.ndarray) -> np.ndarray:
        """Sensitivity at each specificity of ``values`` on every curve, pROC's ``coords(...,
        input='specificity')``.

        Parameters
        ----------
        values : ndarray of shape (Q,)

        Returns
        -------
        ndarray of shape (B, Q)
        """
        return _cross(self.fp, self.tp, self.n_neg, self.n_pos, values, complement=True)

    def at_sensitivity(self, values: np.ndarray) -> np.ndarray:
        """Specificity at each sensitivity of ``values``, pROC's ``coords(...,
        input='sensitivity')``.

        Parameters
        ----------
        values : ndarray of shape (Q,)

        Returns
        -------
        ndarray of shape (B, Q)
        """
        return _cross(self.tp, self.fp, self.n_pos, self.n_neg, values, complement=False)

    def at_groups(self, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Sensitivity and specificity after the first ``k`` groups (threshold between group
        ``k - 1`` and ``k``).

        Parameters
        ----------
        k : ndarray of int, shape (Q,)

        Returns
        -------
        tuple of ndarray
            (B, Q) each.
        """
        se, sp = self.rates()
        return se[:, k], sp[:, k]


def _count_below(x: np.ndarray, n: np.ndarray, values: np.ndarray, complement: bool,
                 strict: bool) -> np.ndarray:
    """For each row's total ``n`` and each value ``v``: the number of integers ``k`` in
    ``[0, n]`` whose rate lies on the "curve side" of ``v``, with the rate computed in floating
    point exactly as pROC does. ``complement``: the rate is ``(n - k) / n`` and we count
    ``k`` with rate ``> v`` (``>= v`` if not strict); otherwise rate ``k / n`` and we count
    ``k`` with rate ``< v`` (``<= v``)."""
    nn = n[:, None].astype(np.float64)
    guess = np.floor(nn * (1.0 - values) if complement else nn * values).astype(np.int64)
    start = np.maximum(guess - 2, 0)
    count = start.copy()
    with np.errstate(invalid="ignore", divide="ignore"):
        for d in range(5):
            k = start + d
            rate = (nn - k) / nn if complement else k / nn
            if complement:
                ok = rate > values if strict else rate >= values
            else:
                ok = rate < values if strict else rate <= values
            count += ok & (k <= n[:, None])
    return count


def _cross(a: np.ndarray, b: np.ndarray, n_a: np.ndarray, n_b: np.ndarray, values: np.ndarray,
           complement: bool) -> np.ndarray:
    """The other rate of every curve at given values of one rate, pROC's rule: an exact match
    takes the best point with that rate (highest other rate), otherwise the straight line
    between the two points around the value.

    ``a`` holds the counts of the input rate (fp for specificity, complement=True; tp for
    sensitivity), ``b`` those of the output rate; both (B, G + 1), non-decreasing."""
    rows, m = a.shape
    q = values.shape[0]
    # counts k of the input class whose rate is strictly beyond / at-or-beyond v
    lo = _count_below(a[:, -1], n_a, values, complement, strict=True)   # (B, Q)
    hi = _count_below(a[:, -1], n_a, values, complement, strict=False)
    span = int(a[:, -1].max()) + 1 if rows else 1
    off = (np.arange(rows, dtype=np.int64) * span)[:, None]
    flat = (a + off).ravel()
    # points before index i_lo have a < lo (rate strictly beyond v), i_hi: a < hi
    r = np.arange(rows)[:, None]
    i_lo = np.searchsorted(flat, (lo + off).ravel(), "left").reshape(rows, q) - r * m
    i_hi = np.searchsorted(flat, (hi + off).ravel(), "left").reshape(rows, q) - r * m
    na = n_a[:, None].astype(np.float64)
    nb = n_b[:, None].astype(np.float64)

    def rate_a(k: np.ndarray) -> np.ndarray:
        return (na - k) / na if complement else k / na

    def rate_b(k: np.ndarray) -> np.ndarray:
        return k / nb if complement else (nb - k) / nb

    with np.errstate(invalid="ignore", divide="ignore"):
        exact = i_hi > i_lo
        if complement:  # specificity in: best = last point of the block (most tp)
            j_exact = np.clip(i_hi - 1, 0, m - 1)
        else:  # sensitivity in: best = first point of the block (fewest fp)
            j_exact = np.clip(i_lo, 0, m - 1)
        i1 = np.clip(i_lo - 1, 0, m - 1)
        i2 = np.clip(i_lo, 0, m - 1)
        x1, x2 = rate_a(a[r, i1]), rate_a(a[r, i2])
        y1, y2 = rate_b(b[r, i1]), rate_b(b[r, i2])
        proportion = (values - x1) / (x2 - x1)
        inter = y1 + proportion * (y2 - y1)
        out = np.where(exact, rate_b(b[r, j_exact]), inter)
    bad = (n_a == 0) | (n_b == 0)
    if bad.any():
        out[bad] = np.nan
    return out


def percentile_rows(values: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray,
                                                                np.ndarray, int]:
    """Percentile interval and median of each column, rows with a nan left out (as pROC).

    Parameters
    ----------
    values : ndarray of shape (B, Q)
    level : float

    Returns
    -------
    low, median, high : ndarray of shape (Q,)
    used : int
        Rows kept.
    """
    keep = ~np.isnan(values).any(axis=1)
    v = values[keep]
    if v.shape[0] == 0:
        nan = np.full(values.shape[1], np.nan)
        return nan, nan.copy(), nan.copy(), 0
    a = (1.0 - level) / 2.0
    qs = np.quantile(v, [a, 0.5, 1.0 - a], axis=0)  # linear: R's quantile type 7
    return qs[0], qs[1], qs[2], int(v.shape[0])
