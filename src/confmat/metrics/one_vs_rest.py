"""One-vs-rest counts of weighted (float) tables, each the exact sum of its cells rounded once.

``FN = row sum - TP``, ``FP = column sum - TP`` and ``TN = N - TP - FN - FP`` are differences of
rounded float sums: a cell below about 1e-16 of the total is lost (``[[1, 1e-20], [1e-20, 1]]``
had ``FN = FP = 0``) and a class's TN could be the rounding residue of other classes' cells.
Here each of them is the exact sum of its cells - FN the row's off-diagonal cells, FP the
column's, TN the cells outside the class's row and column - rounded once to the nearest
float64, as :func:`math.fsum` would give.

The sums are taken, for a whole stack of tables at once, by error-free extraction (Rump,
Ogita & Oishi 2008): with ``sigma`` a power of two at least ``2**m`` times the largest cell of
a table (``2**m`` at least its number of cells plus 2), ``q = (sigma + x) - sigma`` splits
every cell ``x`` into a high part ``q`` and a remainder ``x - q``, both exact; the ``q`` lie on
one grid, so every sum of them - rows, columns, the total, and TN as
``total - row - column + diagonal`` - is exact. A level adds those exact parts into a
double-double value per count (Knuth's TwoSum) and bounds what is left: the remainder cells
(at most ``2**-53 sigma`` each, measured) and what the low word dropped. A count is settled
when that bound is below half the gap between its rounded value and the next float, so the
rounding cannot change, or when nothing is left at all (the value is then the double-double,
rounded once, ties to even); the remainders go to the next level. Integer-valued and
most weighted tables settle after one or two levels; a count still open after a few levels
(cells spread over hundreds of orders of magnitude) is summed with :func:`math.fsum`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["REF_RUMP", "one_vs_rest"]

REF_RUMP = ("Rump, S. M., Ogita, T. & Oishi, S. (2008), Accurate floating-point summation part "
            "I: faithful rounding, SIAM J. Sci. Comput. 31(1).")

_U = 2.0**-53


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``s = fl(a + b)`` and the exact error ``a + b - s`` (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _half_gap(r: np.ndarray) -> np.ndarray:
    """Half the smaller gap between ``r >= 0`` and its neighbouring floats (half an ulp; a
    quarter below a power of two), or 0 where that is not a normal float (0 and tiny ``r``:
    nothing is settled there by a bound)."""
    frac, e = np.frexp(r)
    return np.ldexp(np.where(frac == 0.5, 0.5, np.where(r > 0, 1.0, 0.0)), e - 54)


def _row_sums(x: np.ndarray) -> np.ndarray:
    """Row sums of a stack ``(B, M, M)`` (for short rows einsum, which numpy runs much faster
    than a reduction of a short last axis; any order of the sums serves here)."""
    return x.sum(axis=-1) if x.shape[-1] > 64 else np.einsum("bij->bi", x)


def _sums(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row and column sums of a stack ``(B, M, M)``."""
    if x.shape[-1] > 64:
        return x.sum(axis=-1), x.sum(axis=-2)
    return np.einsum("bij->bi", x), np.einsum("bij->bj", x)


def _counts(x: np.ndarray, k: int) -> np.ndarray:
    """FN, FP, TN of the first ``k`` classes, ``(3, B, k)``, from row, column and diagonal
    sums, in float: exact when every partial sum is a float."""
    rows, cols = _sums(x)
    diag = np.diagonal(x, axis1=-2, axis2=-1)[:, :k]
    total = rows.sum(axis=-1)[:, None]
    return np.stack([rows[:, :k] - diag, cols[:, :k] - diag,
                     ((total - rows[:, :k]) - cols[:, :k]) + diag])


def _exact(t: np.ndarray, what: int, i: int) -> float:
    """One count of one table with :func:`math.fsum` (0: FN, 1: FP, 2: TN of class ``i``)."""
    if what == 0:
        cells = np.delete(t[i], i)
    elif what == 1:
        cells = np.delete(t[:, i], i)
    else:
        cells = np.delete(np.delete(t, i, axis=0), i, axis=1).ravel()
    return math.fsum(cells.tolist())


def one_vs_rest(table: Any, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """FN, FP and TN of the first ``k`` classes of float tables, each the exact sum of its
    cells rounded once to float64 (see the module notes).

    Parameters
    ----------
    table : array_like of float
        Shape ``(..., M, M)``: non-negative, finite weights (rows true, columns predicted);
        the classes after the first ``k`` pool unselected labels and count as "rest".
    k : int
        The classes whose counts are wanted, ``k <= M``.

    Returns
    -------
    fn, fp, tn : numpy.ndarray
        Shape ``(..., k)`` each, float64.

    Raises
    ------
    ValueError
        If ``table`` is not square in its last two axes, has negative or non-finite cells,
        or ``k`` is not in ``[0, M]``.

    Examples
    --------
    >>> import math
    >>> import numpy as np
    >>> from confmat.metrics.one_vs_rest import one_vs_rest
    >>> fn, fp, tn = one_vs_rest(np.array([[1.0, 1e-20], [1e-20, 1.0]]), 2)
    >>> fn.tolist(), tn.tolist()  # differences of rounded sums give FN = [0.0, 0.0]
    ([1e-20, 1e-20], [1.0, 1.0])
    >>> w = np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]])
    >>> fn, fp, tn = one_vs_rest(w, 3)
    >>> float(tn[0]) == 0.5 + 0.6 + 0.8 + 0.9, float(tn[0]) == math.fsum([0.5, 0.6, 0.8, 0.9])
    (False, True)
    """
    t = np.asarray(table, dtype=np.float64)
    if t.ndim < 2 or t.shape[-1] != t.shape[-2]:
        raise ValueError(f"table must be square in its last two axes, got shape {t.shape}")
    m = t.shape[-1]
    if not 0 <= k <= m:
        raise ValueError(f"k must be between 0 and {m}, got {k}")
    batch = t.shape[:-2]
    flat = t.reshape(-1, m, m)
    n_tab = flat.shape[0]
    if flat.size and not flat.min() >= 0:
        raise ValueError("table must hold non-negative weights")
    if m <= 2 or flat.size == 0:  # every count is one cell (or none)
        if flat.size and not np.isfinite(flat.max()):
            raise ValueError("table must hold finite weights")
        ids = np.arange(k)
        if m == 2:
            other = 1 - ids
            fn, fp = flat[:, ids, other], flat[:, other, ids]
            tn = flat[:, other, other]
        else:
            fn = fp = tn = np.zeros((n_tab, k))
        return (fn.reshape(*batch, k), fp.reshape(*batch, k), tn.reshape(*batch, k))

    # sigma = 2**e >= 2 N (N each table's total, rounded up): every high part
    # q = (sigma + x) - sigma is a multiple of 2**-52 sigma and their sums stay below 2 sigma,
    # so every sum of them is exact; each remainder x - q is at most 2**-53 sigma.
    total = _row_sums(flat).sum(axis=-1)
    if not np.isfinite(total).all():
        raise ValueError("table must hold finite weights (with a finite total)")
    expo = np.frexp(total)[1] + 1
    fits = (expo <= 1021) & (total > 0)  # sigma and 2 sigma finite; the rest one by one
    sigma = np.ldexp(1.0, np.where(fits, expo, 0))
    s3 = sigma[:, None, None]
    q = flat + s3
    q -= s3
    if not fits.all():
        q[~fits] = 0.0
    high = _counts(q, k)
    np.subtract(flat, q, out=q)  # the remainders
    rest = _counts(q, k)  # in float: rounding bounded below
    r, e2 = _two_sum(high, rest)
    # |rest - its exact value|: (n - 1) u times n remainders of at most u sigma each, for
    # n = M (FN, FP) or M**2 (TN) terms, and the roundings of the differences
    slack = np.array([2.0 * m * m, 2.0 * m * m, 4.0 * m**3])[:, None, None] * (_U * 1.01)
    bound = (np.abs(e2) + slack * (sigma * _U)[None, :, None]) * (1.0 + 8.0 * _U)
    # |V - r| <= bound < half the gap to r's neighbours: the rounding is settled
    settled = (bound < _half_gap(r)) & fits[None, :, None]
    out = np.where(settled, r, 0.0)
    open_ = ~settled
    if m > 16:  # few open counts (ties are rare in long sums): FN and FP one by one, O(M)
        for what, b, i in zip(*np.nonzero(open_[:2]), strict=True):
            out[what, b, i] = _exact(flat[b], int(what), int(i))
        open_[:2] = False
    tabs = np.flatnonzero(open_.any(axis=(0, 2)))
    if tabs.size:
        # Ties (or near ones) and zeros. A table's remainders were summed exactly when every
        # one is a multiple of the ulp of its smallest nonzero cell and every partial sum (at
        # most 2 M**2 u sigma) stays within 53 bits of it: then high + rest is the sum, and r
        # is it rounded once (ties to even).
        sub = flat[tabs] if 2 * tabs.size < n_tab else flat
        smallest = np.where(sub > 0, sub, np.inf).reshape(sub.shape[0], -1).min(axis=1)
        if sub is flat:
            smallest = smallest[tabs]
        lsb = np.maximum(np.frexp(np.where(np.isfinite(smallest), smallest, 1.0))[1] - 53,
                         -1074)
        exact = fits[tabs] & (expo[tabs] + math.ceil(math.log2(2 * m * m)) - 53 <= 53 + lsb)
        sub_open = open_[:, tabs]
        out[:, tabs] = np.where(sub_open & exact[None, :, None], r[:, tabs], out[:, tabs])
        sub_open &= ~exact[None, :, None]
        if sub_open.any():
            # a count whose cells are all 0 is 0 exactly; the others are summed one by one
            empty = _counts((sub != 0).astype(np.float64), k) == 0
            if sub is flat:
                empty = empty[:, tabs]
            for what, j, i in zip(*np.nonzero(sub_open & ~empty), strict=True):
                out[what, tabs[j], i] = _exact(flat[tabs[j]], int(what), int(i))
    return out[0].reshape(*batch, k), out[1].reshape(*batch, k), out[2].reshape(*batch, k)
