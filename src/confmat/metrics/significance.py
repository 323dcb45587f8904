"""Is the model better than a trivial one? No-information rate, the binomial p-value of
accuracy against it, accuracy's standard error and normal interval, the global performance
index."""

from __future__ import annotations

import math

import numpy as np

from . import references as R
from .common import INF, Z_95, check_z, declare
from .stats import Stats


def _sig(name, full, formula, meaning, **kw):
    return declare(name, "overall", full, "significance", formula, meaning, **kw)


def _acc(s: Stats) -> np.ndarray:
    return s.div(s.correct, s.n, "accuracy")


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
      aliases=("accuracy_p_value",), hib=False, refs=(R.KUHN,),
      prefer="Checking that an accuracy is more than the class imbalance.",
      avoid="Comparing two models (use McNemar's test) or when samples are not independent.",
      notes="Computed with the regularised incomplete beta function (scipy), so tiny p-values "
            "keep their relative precision; PyCM's 1 - sum(...) loses them (and overflows "
            "for large N), so confmat differs from PyCM there by design.")
def p_value(s: Stats) -> np.ndarray:
    n = np.asarray(s.n, dtype=np.float64)
    x = np.asarray(s.correct, dtype=np.float64)
    p = nir(s)
    try:
        from scipy.special import betainc
    except ImportError:  # pragma: no cover - scipy is optional at run time
        tail = np.vectorize(_binom_sf, otypes=[np.float64])(x, n, p)
    else:
        with np.errstate(invalid="ignore"):
            tail = betainc(np.maximum(x, 1e-300), np.maximum(n - x + 1.0, 1e-300), p)
    return np.where(np.isnan(p), np.nan, np.where(x <= 0, 1.0, tail))


def _binom_sf(x: float, n: float, p: float) -> float:
    """P(X >= x) for X ~ Binomial(n, p), summed in log space (fallback without scipy)."""
    if not np.isfinite(p) or x <= 0:
        return 1.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0 if x <= n else 0.0
    j = np.arange(math.ceil(x), math.floor(n) + 1, dtype=np.float64)
    if j.size == 0:
        return 0.0
    lg = np.vectorize(math.lgamma, otypes=[np.float64])
    logs = lg(n + 1.0) - lg(j + 1.0) - lg(n - j + 1.0) + j * math.log(p) + (n - j) * math.log1p(-p)
    top = logs.max()
    return float(min(1.0, math.exp(top) * np.exp(logs - top).sum()))


@_sig("accuracy_se", "standard error of accuracy", "SE = sqrt(ACC (1 - ACC) / N)",
      "Binomial standard error of the accuracy estimate.", pycm="Standard Error",
      aliases=("accuracy_standard_error",), rng=(0.0, 0.5), hib=False, refs=(R.AGRESTI,),
      prefer="A quick error bar on accuracy with a large test set.",
      avoid="Accuracy near 0 or 1 or small N: use a Wilson or bootstrap interval "
            "(confmat.inference).")
def accuracy_se(s: Stats) -> np.ndarray:
    acc = _acc(s)
    return np.sqrt(s.div(acc * (1.0 - acc), s.n, "accuracy_se"))


_CI_NOTE = "PyCM's '95% CI' is the pair (accuracy_ci_lower, accuracy_ci_upper) with z = 1.96."


@_sig("accuracy_ci_lower", "lower bound of accuracy's normal (Wald) interval", "ACC - z SE",
      "Lower end of accuracy +- z standard errors (95 % for z = 1.96).", params={"z": Z_95},
      check=check_z, rng=(-INF, 1.0), refs=(R.AGRESTI, R.PYCM),
      prefer="Reporting accuracy with its uncertainty on a large test set.",
      avoid="Small N or accuracy near 0 or 1: the Wald interval can leave [0, 1].",
      notes=_CI_NOTE)
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
    return _acc(s) - z * accuracy_se(s)


@_sig("accuracy_ci_upper", "upper bound of accuracy's normal (Wald) interval", "ACC + z SE",
      "Upper end of accuracy +- z standard errors (95 % for z = 1.96).", params={"z": Z_95},
      check=check_z, rng=(0.0, INF), refs=(R.AGRESTI, R.PYCM),
      prefer="Reporting accuracy with its uncertainty on a large test set.",
      avoid="Small N or accuracy near 0 or 1: the Wald interval can leave [0, 1].",
      notes=_CI_NOTE)
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
    return _acc(s) + z * accuracy_se(s)


@_sig("global_performance_index", "global performance index (mean predictions per class)",
      "RR = (1/K) sum_i TOP_i = N / K",
      "Average number of samples predicted per class, i.e. N / K; PyCM's 'RR'.", pycm="RR",
      aliases=("rr",), rng=(0.0, INF), hib=None, refs=(R.PYCM,),
      prefer="Reproducing PyCM's RR.",
      avoid="Judging a model: it depends only on N and K.")
def global_performance_index(s: Stats) -> np.ndarray:
    k = s.counts.shape[-1]
    return np.asarray(s.cols, dtype=np.float64).sum(-1) / k
