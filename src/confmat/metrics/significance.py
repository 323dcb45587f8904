"""Is the model better than a trivial one? No-information rate, the binomial p-value of
accuracy against it, accuracy's standard error and normal interval, the global performance
index."""

from __future__ import annotations

import math

import numpy as np

from . import references as R
from .common import INF, Z_95, check_z, declare, memo
from .stats import Stats


def _sig(name, full, formula, meaning, **kw):
    return declare(name, "overall", full, "significance", formula, meaning, **kw)


def _acc(s: Stats) -> np.ndarray:
    return memo(s, "accuracy", lambda: s.div(s.correct, s.n, "accuracy"))


@_sig("nir", "no-information rate", "NIR = max_i P_i / N",
      "Accuracy of always predicting the most frequent true class: the baseline accuracy must "
      "beat.", pycm="NIR", aliases=("no_information_rate",), hib=None, refs=(R.KUHN,),
      prefer="Putting an accuracy in context on imbalanced data (Kneusel 2021: 'accuracy is not "
             "enough').",
      avoid="As a score: it describes the data, not the model.")
def nir(s: Stats) -> np.ndarray:
    return s.div(np.asarray(s.rows).max(-1), s.n, "nir")


@_sig("p_value", "p-value of accuracy > NIR (one-sided binomial test)",
      "p = P(X >= sum_i C[i, i]), X ~ Binomial(N, NIR)",
      "Probability that a model no better than the no-information rate reaches at least this "
      "accuracy; small values mean the model beats the majority-class baseline.",
      aliases=("accuracy_p_value",), hib=False, refs=(R.KUHN, R.LOADER),
      prefer="Checking that an accuracy is more than the class imbalance.",
      avoid="Comparing two models (use McNemar's test) or when samples are not independent.",
      notes="Computed as a sum of binomial probabilities (the first in Loader 2000's "
            "saddle-point form, each next from its neighbour; standard library only) for "
            "integer counts with N up to 10^6 and stacks of up to 4,096 tables, and with the "
            "regularised incomplete beta function of SciPy beyond (long threshold sweeps) or "
            "for weighted counts, so tiny p-values keep their relative precision; in long "
            "stacks the tails that Bernstein's inequality proves to round to 0 or 1 are set "
            "without it; "
            "PyCM's 1 - sum(...) loses them (and overflows for large N), so confmat differs "
            "from PyCM there by design.",
      scale_degree=None)
def p_value(s: Stats) -> np.ndarray:
    n = np.asarray(s.n, dtype=np.float64)
    x = np.asarray(s.correct, dtype=np.float64)
    p = nir(s)
    if n.ndim == 0 and x.ndim == 0 and p.ndim == 0:  # one table
        nn, xx, pp = float(n), float(x), float(p)
        if math.isnan(pp):
            return np.asarray(np.nan)
        if xx <= 0:
            return np.asarray(1.0)
        if nn <= EXACT_TAIL_MAX_N and nn == round(nn) and xx == round(xx):
            return np.asarray(binomial_tail(int(xx), int(nn), pp))
    shape = np.broadcast_shapes(n.shape, x.shape, p.shape)
    n, x, p = (np.broadcast_to(a, shape).reshape(-1) for a in (n, x, p))
    tail = np.empty(n.shape, dtype=np.float64)
    exact = (n <= EXACT_TAIL_MAX_N) & (n == np.round(n)) & (x == np.round(x))
    if n.size > EXACT_TAIL_MAX_TABLES:  # a stack (threshold sweep, bootstrap): one compiled call
        exact[:] = False
    for i in np.flatnonzero(exact):
        tail[i] = binomial_tail(int(x[i]), int(n[i]), float(p[i]))
    rest = ~exact
    if rest.any():
        # a threshold sweep's tails are mostly 0 or 1 to the last bit: a bound settles those,
        # the incomplete beta function computes the others
        settled = settled_tail(x, n, p)
        tail[rest] = settled[rest]
        rest &= np.isnan(settled)
        if rest.any():
            tail[rest] = _betainc_tail(x[rest], n[rest], p[rest])
    out = np.where(np.isnan(p), np.nan, np.where(x <= 0, 1.0, tail))
    return out.reshape(shape)


#: largest N whose p-value is summed term by term (beyond: SciPy's incomplete beta function)
EXACT_TAIL_MAX_N = 1_000_000
#: stacks of more tables than this take SciPy's vectorised incomplete beta function for every
#: table (the term-by-term sum is a Python loop per table: seconds on a million-table sweep;
#: a few thousand tables take a fraction of a second and need no SciPy)
EXACT_TAIL_MAX_TABLES = 4_096


#: ``P(X >= x) <= exp(-SETTLED_ZERO)`` proves that the tail rounds to 0.0: ``exp(-745.1)`` is
#: half the smallest double, so 800 leaves a margin for the rounding of the bound itself
SETTLED_ZERO = 800.0
#: ``P(X <= x - 1) <= exp(-SETTLED_ONE)`` proves that ``P(X >= x)`` rounds to 1.0 (to within
#: one unit in the last place): ``exp(-37.4)`` is half the spacing of doubles below 1
SETTLED_ONE = 60.0


def settled_tail(x: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Binomial tails ``P(X >= x)`` that a bound settles in double precision, NaN elsewhere.

    Bernstein's inequality (Boucheron, Lugosi and Massart 2013, chapter 2) bounds both tails
    of ``X ~ Binomial(n, p)``: ``P(|X - n p| >= t) <= exp(-t^2 / (2 (n p q + t / 3)))`` on
    each side, ``q = 1 - p``. Where the upper tail is below ``exp(-800)`` its double is 0.0;
    where the lower tail ``P(X <= x - 1)`` is below ``exp(-60)``, ``P(X >= x)`` is 1.0 to
    within one unit in the last place. ``p`` of 0 or 1 is covered too (the bound then says
    that ``X = n p`` surely). Only whole ``x`` and ``n`` are settled: the tails of weighted
    tables are left to the incomplete beta function.

    Parameters
    ----------
    x : numpy.ndarray of float64
        The threshold counts (correct predictions).
    n : numpy.ndarray of float64
        Numbers of trials, same shape.
    p : numpy.ndarray of float64
        Success probabilities (no-information rates), same shape.

    Returns
    -------
    numpy.ndarray of float64
        0.0 or 1.0 where settled, NaN where the tail needs computing.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.significance import settled_tail
    >>> settled_tail(np.array([530_000.0, 500_100.0, 470_000.0]), np.full(3, 1e6),
    ...              np.full(3, 0.5)).tolist()
    [0.0, nan, 1.0]
    """
    with np.errstate(invalid="ignore", over="ignore"):
        var = n * p * (1.0 - p)
        up = x - n * p  # P(X >= x) = P(X - n p >= up)
        down = 1.0 - up  # P(X <= x - 1) = P(n p - X >= down)
        zero = (up > 0.0) & (up * up > (2.0 * SETTLED_ZERO) * var
                             + (2.0 * SETTLED_ZERO / 3.0) * up)
        one = (down > 0.0) & (down * down > (2.0 * SETTLED_ONE) * var
                              + (2.0 * SETTLED_ONE / 3.0) * down)
        whole = (x == np.round(x)) & (n == np.round(n))
    out = np.full(x.shape, np.nan)
    out[zero & whole] = 0.0
    out[one & whole] = 1.0
    return out


def _betainc_tail(x: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``I_p(x, n - x + 1) = P(X >= x)``, SciPy imported on first use (about 0.3 s)."""
    try:
        from scipy.special import betainc
    except ImportError:  # pragma: no cover - scipy is optional at run time
        return np.array([binomial_tail(int(a), int(b), float(c)) for a, b, c in zip(
            np.round(x), np.round(n), p, strict=True)], dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return np.asarray(betainc(np.maximum(x, 1e-300), np.maximum(n - x + 1.0, 1e-300), p),
                          dtype=np.float64)


_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def _stirling_error(k: int) -> float:
    """``log(k!) - log(sqrt(2 pi k) (k / e)^k)``: directly for small k, by its series beyond."""
    if k <= 15:
        return math.lgamma(k + 1.0) - (k + 0.5) * math.log(k) + k - _HALF_LOG_2PI
    k2 = 1.0 / (k * k)
    return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - (1.0 / 1680 - k2 / 1188) * k2) * k2) * k2) / k


def _deviance(x: float, m: float) -> float:
    """``x log(x / m) + m - x`` without cancellation when ``x`` is close to ``m``."""
    if abs(x - m) < 0.1 * (x + m):
        v = (x - m) / (x + m)
        total = (x - m) * v
        term = 2.0 * x * v
        v2 = v * v
        j = 1
        while True:
            term *= v2
            new = total + term / (2 * j + 1)
            if new == total:
                return total
            total, j = new, j + 1
    return x * math.log(x / m) + m - x


def log_binomial_pmf(k: int, n: int, p: float) -> float:
    """``log P(X = k)`` for ``X ~ Binomial(n, p)``, ``0 < p < 1``, accurate to about 1e-15
    relative in the probability for any ``n`` (the saddle-point form of Loader 2000: Stirling
    errors and deviances instead of differences of large log-factorials).

    Parameters
    ----------
    k : int
        The count, ``0 <= k <= n``.
    n : int
        Number of trials.
    p : float
        Success probability, strictly between 0 and 1.

    Returns
    -------
    float

    Examples
    --------
    >>> round(math.exp(log_binomial_pmf(2, 4, 0.5)), 12)  # 6 / 16
    0.375
    """
    q = 1.0 - p
    if k == 0:
        return n * math.log1p(-p)
    if k == n:
        return n * math.log(p)
    return (_stirling_error(n) - _stirling_error(k) - _stirling_error(n - k)
            - _deviance(k, n * p) - _deviance(n - k, n * q)
            + 0.5 * math.log(n / (k * (n - k))) - _HALF_LOG_2PI)


def binomial_tail(x: int, n: int, p: float) -> float:
    """``P(X >= x)`` for ``X ~ Binomial(n, p)``, summed term by term (standard library only).

    The first term of the sum is :func:`log_binomial_pmf`; each next term follows from
    its neighbour by the ratio ``(n - j) / (j + 1) * p / (1 - p)``, and the sum stops when a
    term no longer changes it. Above the mode the upper tail is summed directly (so tiny tails
    keep their relative precision); at or below the mode it is ``1 - P(X <= x - 1)``, a number
    of at least about one half. About 1e-12 relative for ``n`` up to 10^6 (the tests compare
    with ``scipy.stats.binom.sf``).

    Parameters
    ----------
    x : int
        The threshold count.
    n : int
        Number of trials (non-negative).
    p : float
        Success probability; NaN gives NaN.

    Returns
    -------
    float
        The tail probability.

    Examples
    --------
    >>> round(binomial_tail(8, 10, 0.5) * 1024, 9)  # 45 + 10 + 1 of the 1024 outcomes
    56.0
    >>> binomial_tail(0, 10, 0.3), binomial_tail(11, 10, 0.3)
    (1.0, 0.0)
    """
    if math.isnan(p):
        return math.nan
    if x <= 0:
        return 1.0
    if x > n or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    odds = p / (1.0 - p)
    mode = math.floor((n + 1) * p)
    upper = x > mode
    start = x if upper else x - 1
    log_first = log_binomial_pmf(start, n, p)
    # the terms fall geometrically within a few standard deviations: one block nearly always
    chunk = 64 + 12 * math.ceil(math.sqrt(n * p * (1.0 - p)))
    total, term, j = 1.0, 1.0, start
    if upper:  # terms fall from j = x upwards
        while j < n:
            js = np.arange(j, min(n, j + chunk), dtype=np.float64)
            terms = term * np.cumprod((n - js) / (js + 1.0) * odds)
            total += float(terms.sum())
            term, j = float(terms[-1]), j + len(js)
            if term <= 1e-17 * total:
                break
        return min(1.0, math.exp(log_first) * total)
    while j > 0:  # terms fall from j = x - 1 downwards
        js = np.arange(j, max(0, j - chunk), -1, dtype=np.float64)
        terms = term * np.cumprod(js / (n - js + 1.0) / odds)
        total += float(terms.sum())
        term, j = float(terms[-1]), j - len(js)
        if term <= 1e-17 * total:
            break
    return max(0.0, 1.0 - math.exp(log_first) * total)


@_sig("accuracy_se", "standard error of accuracy", "SE = sqrt(ACC (1 - ACC) / N)",
      "Binomial standard error of the accuracy estimate.", pycm="Standard Error",
      aliases=("accuracy_standard_error",), rng=(0.0, 0.5), hib=False, refs=(R.AGRESTI,),
      prefer="A quick error bar on accuracy with a large test set.",
      avoid="Accuracy near 0 or 1 or small N: use a Wilson or bootstrap interval "
            "(confmat.inference).",
      scale_degree=-0.5)
def accuracy_se(s: Stats) -> np.ndarray:
    acc = _acc(s)
    return np.sqrt(s.div(acc * (1.0 - acc), s.n, "accuracy_se"))


_CI_NOTE = "PyCM's '95% CI' is the pair (accuracy_ci_lower, accuracy_ci_upper) with z = 1.96."


@_sig("accuracy_ci_lower", "lower bound of accuracy's normal (Wald) interval", "ACC - z SE",
      "Lower end of accuracy +- z standard errors (95 % for z = 1.96).", params={"z": Z_95},
      check=check_z, rng=(-INF, 1.0), refs=(R.AGRESTI, R.PYCM),
      prefer="Reporting accuracy with its uncertainty on a large test set.",
      avoid="Small N or accuracy near 0 or 1: the Wald interval can leave [0, 1].",
      notes=_CI_NOTE,
      scale_degree=None)
def accuracy_ci_lower(s: Stats, z: float = Z_95) -> np.ndarray:
    """Lower bound of accuracy's normal (Wald) interval, ``ACC - z SE``.

    ``SE = sqrt(ACC (1 - ACC) / N)`` is :func:`accuracy_se` (Agresti 2013).

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.
    z : float, default 1.96
        Number of standard errors below accuracy; 1.96 gives PyCM's 95 % interval. Checked to be a
        positive finite number when the metric is called by name (``evaluate``,
        ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table (0-d for one table).
    """
    return s.homogeneous(_acc, 0) - z * s.homogeneous(accuracy_se, -0.5)


@_sig("accuracy_ci_upper", "upper bound of accuracy's normal (Wald) interval", "ACC + z SE",
      "Upper end of accuracy +- z standard errors (95 % for z = 1.96).", params={"z": Z_95},
      check=check_z, rng=(0.0, INF), refs=(R.AGRESTI, R.PYCM),
      prefer="Reporting accuracy with its uncertainty on a large test set.",
      avoid="Small N or accuracy near 0 or 1: the Wald interval can leave [0, 1].",
      notes=_CI_NOTE,
      scale_degree=None)
def accuracy_ci_upper(s: Stats, z: float = Z_95) -> np.ndarray:
    """Upper bound of accuracy's normal (Wald) interval, ``ACC + z SE``.

    ``SE = sqrt(ACC (1 - ACC) / N)`` is :func:`accuracy_se` (Agresti 2013).

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.
    z : float, default 1.96
        Number of standard errors above accuracy; 1.96 gives PyCM's 95 % interval. Checked to be a
        positive finite number when the metric is called by name (``evaluate``,
        ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table (0-d for one table).
    """
    return s.homogeneous(_acc, 0) + z * s.homogeneous(accuracy_se, -0.5)


@_sig("global_performance_index", "global performance index (mean predictions per class)",
      "RR = (1/K) sum_i TOP_i = N / K",
      "Average number of samples predicted per class, i.e. N / K; PyCM's 'RR'.", pycm="RR",
      aliases=("rr",), rng=(0.0, INF), hib=None, refs=(R.PYCM,),
      prefer="Reproducing PyCM's RR.",
      avoid="Judging a model: it depends only on N and K.",
      scale_degree=1.0)
def global_performance_index(s: Stats) -> np.ndarray:
    k = s.counts.shape[-1]
    return np.asarray(s.cols, dtype=np.float64).sum(-1) / k
