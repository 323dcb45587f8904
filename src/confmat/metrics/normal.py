"""The standard normal distribution: the one implementation used by the metrics (d') and by
the inference layer. Scalars and short arrays use the standard library (``statistics.NormalDist``
and ``math.erfc``), so a single table never imports SciPy (whose ``scipy.special`` costs a fresh
process about 0.3 s); arrays longer than :data:`VECTOR_MIN` (a threshold sweep's stack) use
SciPy's compiled ``ndtri`` / ``ndtr``. The two agree to a few units in the last place."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["VECTOR_MIN", "norm_cdf", "z_quantile"]

_UFUNCS: dict[str, Any] = {}


def _inv_cdf_one() -> Any:
    from statistics import NormalDist

    inv = NormalDist().inv_cdf

    def one(p: float) -> float:
        if p > 0.0 and p < 1.0:
            return inv(p)
        if p == 0.0:
            return -math.inf
        if p == 1.0:
            return math.inf
        return math.nan

    return one


def _cdf_one() -> Any:
    root2 = math.sqrt(2.0)

    def one(v: float) -> float:
        return 0.5 * math.erfc(-v / root2)

    return one


def _ufunc(name: str) -> Any:
    """The element-wise function as a numpy ufunc (``np.frompyfunc``: far less overhead per
    call than ``np.vectorize``), built on first use; ``statistics`` is imported then too."""
    fn = _UFUNCS.get(name)
    if fn is None:
        one = _inv_cdf_one() if name == "inv_cdf" else _cdf_one()
        fn = _UFUNCS[name] = np.frompyfunc(one, 1, 1)
    return fn


#: arrays longer than this go to SciPy's compiled ``ndtri`` / ``ndtr`` (a threshold sweep has
#: a million tables; the per-element standard-library call would take seconds there); a
#: report's bootstrap (a few thousand values) stays on the standard library and never imports SciPy
VECTOR_MIN = 20_000


def _apply(name: str, x: Any) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    if arr.size > VECTOR_MIN:
        from scipy import special  # imported only for long arrays (about 0.3 s, once)

        with np.errstate(invalid="ignore"):
            if name == "inv_cdf":  # ndtri gives nan outside [0, 1], -inf / inf at 0 / 1
                return np.asarray(special.ndtri(arr), dtype=np.float64)
            return np.asarray(special.ndtr(arr), dtype=np.float64)
    with np.errstate(invalid="ignore"):  # NaN in, NaN out (its comparisons raise the flag)
        out = _ufunc(name)(arr)
    return np.asarray(out, dtype=np.float64).reshape(arr.shape)


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
    return _apply("inv_cdf", p)


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
    return _apply("cdf", x)
