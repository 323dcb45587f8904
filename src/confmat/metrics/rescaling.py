"""Weighted tables too large or too small for float64 products: rescaling by a power of two.

Products of weighted counts (``N**2``, row sums times column sums, ``TP TN``) overflow float64
when the cells pass about 1e154 and underflow below 1e-154, although the metric of the table is
a plain number. Multiplying a table by ``2**e`` rounds none of its cells, and a metric of degree
``d`` in the counts (``MetricSpec.scale_degree``) changes by exactly ``2**(d e)``. The functions
here choose ``e`` per table (:func:`scale_exponents`), scale a value back
(:func:`scale_back`) and tell when no power of two can help (:func:`too_wide`);
:class:`~confmat.metrics.stats.Stats` applies them (``Stats.rescaled``, ``Stats.homogeneous``,
``Stats.too_wide``), so that every statistic of the rescaled table stays cached with it.

Every function takes a table of shape ``(..., M, M)`` (a stack of tables keeps its batch axes);
integer tables never need rescaling, their products being formed exactly
(:mod:`confmat.metrics.exact`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

#: a weighted table is rescaled when a nonzero cell is outside [2**-SAFE, 2**SAFE]
SAFE = 200
#: after rescaling the largest cell stays below 2**PRODUCTS when the smallest allows it
PRODUCTS = 240

__all__ = ["PRODUCTS", "SAFE", "in_middle", "scale_back", "scale_exponents", "too_wide"]


def in_middle(table: np.ndarray) -> bool:
    """Whether every cell of a float table (stack) is 0 or lies within ``2**-(SAFE - 1)`` to
    ``2**(SAFE - 1)``: then no table needs rescaling (:func:`scale_exponents`) and none is
    :func:`too_wide`.

    Three reductions over the stack, no temporary arrays: a bootstrap's stack of weighted
    tables in the middle of the range skips the per-table exponents, which cost it about 15 %
    of its time.

    Parameters
    ----------
    table : numpy.ndarray
        Shape ``(..., M, M)``, non-empty.

    Returns
    -------
    bool

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.rescaling import in_middle
    >>> in_middle(np.array([[0.5, 0.0], [3.0, 4.0]])), in_middle(np.array([[1e300, 1.0], [1.0, 1.0]]))
    (True, False)
    """
    t = np.asarray(table)
    lim = 2.0 ** (SAFE - 1)
    return bool(t.min() >= 0 and t.max() < lim
                and np.min(t, where=t > 0, initial=np.inf) >= 1.0 / lim)


def scale_exponents(table: np.ndarray) -> np.ndarray | None:
    """The even exponent ``e`` of each table such that ``table * 2**e`` keeps every product of
    its cells a float64 number, or None when no table needs it.

    The geometric middle of the largest and the smallest nonzero cell goes to 1, but the
    largest cell no higher than ``2**PRODUCTS`` (so that products of four cells are numbers)
    unless the smallest would leave the normal range, and never higher than ``2**1000``.
    Tables whose nonzero cells all lie within ``2**-SAFE`` to ``2**SAFE`` (and tables of zeros
    or with an infinite cell) keep ``e = 0``; ``e`` is even so that half degrees scale back
    exactly (:func:`scale_back`). Integer and empty tables give None.

    Parameters
    ----------
    table : numpy.ndarray
        Shape ``(..., M, M)``.

    Returns
    -------
    numpy.ndarray of int or None
        The exponents, of the batch shape, or None when all of them are 0.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.rescaling import scale_exponents
    >>> int(scale_exponents(np.array([[1e300, 2e299], [3e299, 4e300]])))
    -998
    >>> scale_exponents(np.array([[1.0, 2.0], [3.0, 4.0]])) is None
    True
    """
    t = np.asarray(table)
    if t.dtype.kind != "f" or t.size == 0:
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
    lower = np.where(lo_e + PRODUCTS - hi_e >= -1020, PRODUCTS - hi_e, 1000 - hi_e)
    e = np.minimum(e, lower)
    e = e - e % 2
    safe = ~usable | ((hi_e <= SAFE) & (lo_e >= -SAFE))
    e = np.where(safe, 0, e)
    if not e.any():
        return None
    return e


def too_wide(table: np.ndarray) -> tuple[float, float] | None:
    """The smallest and largest nonzero weight when they lie too far apart for every product
    of cells to be a float64 number (about 1e380 apart, or more), else None.

    No power of two (:func:`scale_exponents`) then keeps the products of the largest cells
    finite and the smallest cells normal: a metric formed of such products may come out NaN.

    Parameters
    ----------
    table : numpy.ndarray
        Shape ``(..., M, M)``; integer and empty tables give None.

    Returns
    -------
    tuple of float or None
        ``(smallest, largest)`` over the tables of a stack.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.rescaling import too_wide
    >>> too_wide(np.array([[1e300, 1e-300], [1e-300, 1e-300]]))
    (1e-300, 1e+300)
    >>> too_wide(np.array([[1e300, 1.0], [2.0, 3e300]])) is None
    True
    """
    t = np.asarray(table)
    if t.dtype.kind != "f" or t.size == 0:
        return None
    a = np.abs(t)
    positive = a > 0
    if not positive.any():
        return None
    hi, lo = float(a.max()), float(a[positive].min())
    if not math.isfinite(hi):
        return None
    if math.frexp(lo)[1] + PRODUCTS - math.frexp(hi)[1] >= -1020:
        return None
    return lo, hi


def scale_back(values: Any, degree: float, e: np.ndarray) -> np.ndarray:
    """Values of a metric of degree ``degree`` on tables rescaled by ``2**e``, brought back to
    the original tables: multiplied by ``2**(-degree e)``, exactly.

    Parameters
    ----------
    values : array_like
        The metric of the rescaled tables, with the batch shape first (a class axis may
        follow).
    degree : float
        A multiple of 1/2: ``metric(c * table) = c**degree * metric(table)`` for ``c > 0``.
    e : numpy.ndarray of int
        The exponents of :func:`scale_exponents`, of the batch shape.

    Returns
    -------
    numpy.ndarray
        ``values`` itself when ``degree`` is 0.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.rescaling import scale_back
    >>> scale_back(np.array([[1.0, 2.0], [1.0, 2.0]]), 0.5, np.array([-2, 4])).tolist()
    [[2.0, 4.0], [0.25, 0.5]]
    """
    out = np.asarray(values)
    if degree == 0:
        return out
    shift = np.rint(-degree * e).astype(np.int64)
    return np.ldexp(out, shift.reshape(shift.shape + (1,) * (out.ndim - shift.ndim)))
