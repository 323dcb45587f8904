"""The standard normal distribution from the standard library (``statistics.NormalDist`` and
``math.erfc``): the one implementation used by the metrics (d') and by the inference layer,
without importing SciPy (whose ``scipy.special`` costs a fresh process about 0.3 s)."""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

__all__ = ["norm_cdf", "z_quantile"]

_NORMAL = NormalDist()


def _inv_cdf(p: float) -> float:
    if p > 0.0 and p < 1.0:
        return _NORMAL.inv_cdf(p)
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    return math.nan


def z_quantile(p: Any) -> np.ndarray:
    """Standard normal quantile function (Wichura 1988, algorithm AS 241, as the standard
    library's ``statistics.NormalDist`` computes it: about 1e-15 relative; no SciPy import).

    Parameters
    ----------
    p : float or array_like
        Probabilities; 0 and 1 give -inf and inf, anything outside [0, 1] or NaN gives NaN.

    Returns
    -------
    ndarray of float64
        The quantiles, shaped as ``p``.

    Examples
    --------
    >>> round(float(z_quantile(0.975)), 6)
    1.959964
    """
    arr = np.asarray(p, dtype=np.float64)
    return np.vectorize(_inv_cdf, otypes=[np.float64])(arr)


def norm_cdf(x: Any) -> np.ndarray:
    """Standard normal distribution function, ``erfc(-x / sqrt(2)) / 2`` (the standard
    library's ``math.erfc``; about 1e-14 relative for ``|x| < 8``; no SciPy import).

    Parameters
    ----------
    x : float or array_like
        Points.

    Returns
    -------
    ndarray of float64
        ``P(Z <= x)``, shaped as ``x``.

    Examples
    --------
    >>> round(float(norm_cdf(1.959963984540054)), 12)
    0.975
    """
    arr = np.asarray(x, dtype=np.float64)
    return np.vectorize(lambda v: 0.5 * math.erfc(-v / math.sqrt(2.0)), otypes=[np.float64])(arr)
