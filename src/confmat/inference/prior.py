r"""Prior shift: the confusion matrix a model would produce on a population with other class
prevalences.

A classifier's behaviour *given the true class* -- each row of the table, normalised -- does not
depend on how common the class is; PPV, NPV, accuracy and every metric that mixes rows do. If the
target population has prevalences :math:`\pi_i`, the expected table is

.. math:: C'_{ij} = N\,\pi_i\,\frac{C_{ij}}{\sum_j C_{ij}},

which is Bayes' rule applied cell by cell: for two classes,
:math:`\mathrm{PPV}' = \mathrm{TPR}\,\pi / (\mathrm{TPR}\,\pi + \mathrm{FPR}\,(1 - \pi))`.
The rows are the only estimate of the class-conditional behaviour, so a row with few samples
carries its noise into the re-weighted table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..metrics import Stats, evaluate, get_metric
from .common import (
    DEFAULT_RESAMPLES,
    check_level,
    check_n_resamples,
    check_numbers,
    check_random_state,
)
from .intervals import METHODS, ConfidenceInterval, bootstrap_interval


def at_prevalence(cm: Any, prevalence: Any, *, n: float | None = None) -> Any:
    """Re-weight the rows of ``cm`` to the class prevalences ``prevalence``.

    Parameters
    ----------
    cm : ConfusionMatrix
    prevalence : mapping label -> proportion, or array-like of shape (K,)
        Target proportions of the true classes, non-negative and summing to 1 (within 1e-6). A
        mapping must name every label; an array follows ``cm.labels``.
    n : float, optional
        Total of the returned table; by default ``cm.n``, so counts stay on the same scale.

    Returns
    -------
    ConfusionMatrix
        Float counts whose row ``i`` sums to ``n * prevalence[i]`` and keeps the original
        row's proportions.

    Raises
    ------
    TypeError
        If ``cm`` is not a ConfusionMatrix, ``prevalence`` does not hold numbers (booleans are
        refused) or ``n`` is not a number.
    ValueError
        If proportions are negative or do not sum to 1, a label is missing or unknown, a class
        with a positive target prevalence has no samples in ``cm``, ``cm`` was counted with a
        label subset (its 'outside' margin cannot be re-weighted), or ``n`` is not a positive
        finite number.

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> cm = ConfusionMatrix([[40, 10], [5, 45]])
    >>> at_prevalence(cm, [0.9, 0.1]).counts.round(1).tolist()
    [[72.0, 18.0], [1.0, 9.0]]
    """
    from ..matrix import ConfusionMatrix

    pi, total = _check_prevalence(cm, prevalence, n)
    return ConfusionMatrix(shift_rows(cm.counts, pi, total), labels=cm.labels)


def shift_rows(tables: np.ndarray, pi: np.ndarray, total: float) -> np.ndarray:
    """Batched re-weighting: row i of each table (..., K, K) rescaled to ``total * pi[i]``.

    Parameters
    ----------
    tables : numpy.ndarray of shape (..., K, K)
        Counts (a single table or a stack).
    pi : numpy.ndarray of shape (K,)
        Target proportions of the true classes.
    total : float
        Total of each returned table.

    Returns
    -------
    numpy.ndarray
        Float tables of the same shape; an empty row stays zero.

    Examples
    --------
    >>> import numpy as np
    >>> shift_rows(np.array([[3, 1], [1, 1]]), np.array([0.5, 0.5]), 8.0).tolist()
    [[3.0, 1.0], [2.0, 2.0]]
    """
    c = np.asarray(tables, dtype=np.float64)
    rows = c.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(rows > 0, c / np.where(rows > 0, rows, 1.0), 0.0)
    return total * pi[:, None] * share


def _check_prevalence(cm: Any, prevalence: Any, n: float | None) -> tuple[np.ndarray, float]:
    from ..matrix import ConfusionMatrix

    if not isinstance(cm, ConfusionMatrix):
        raise TypeError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    if cm.has_outside_margin:
        raise ValueError(
            "at_prevalence needs a matrix counted over all labels; this one was counted with a "
            "label subset (n_outside > 0), whose outside margin has no class to re-weight"
        )
    labels = cm.labels
    k = len(labels)
    if isinstance(prevalence, Mapping):
        unknown = [lab for lab in prevalence if lab not in labels]
        if unknown:
            raise ValueError(f"prevalence names labels not in the matrix: {unknown}")
        missing = [lab for lab in labels if lab not in prevalence]
        if missing:
            raise ValueError(f"prevalence must give a proportion for every label; missing {missing}")
        values = [prevalence[lab] for lab in labels]
    else:
        values = prevalence
    try:
        pi = check_numbers(values, "prevalence")
    except ValueError as exc:  # a ragged list
        raise TypeError(f"prevalence must hold numbers: {exc}") from exc
    if pi.ndim != 1 or pi.shape[0] != k:
        raise ValueError(f"prevalence must have one proportion per class ({k}), got shape {pi.shape}")
    if not np.isfinite(pi).all() or (pi < 0).any():
        raise ValueError(f"prevalence must be finite and non-negative, got {pi.tolist()}")
    if abs(pi.sum() - 1.0) > 1e-6:
        raise ValueError(f"prevalence must sum to 1, got {pi.sum():.6g}")
    rows = cm.counts.sum(axis=1).astype(np.float64)
    empty = (rows == 0) & (pi > 0)
    if empty.any():
        bad = [labels[i] for i in np.flatnonzero(empty)]
        raise ValueError(
            f"class(es) {bad} have no samples in the matrix, so their behaviour at a positive "
            "prevalence is unknown"
        )
    if n is not None and (isinstance(n, bool) or not isinstance(n, int | float | np.number)):
        raise TypeError(f"n must be a positive number or None, got {type(n).__name__} {n!r}")
    total = float(cm.n) if n is None else float(n)
    if not np.isfinite(total) or total <= 0:
        raise ValueError(f"n must be a positive finite number, got {n!r}")
    return pi, total


def prevalence_ci(
    cm: Any,
    metric: str,
    prevalence: Any,
    *,
    level: float = 0.95,
    method: str = "bca",
    average: str | None = None,
    pos_label: Any = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    random_state: Any = None,
    **params: Any,
) -> ConfidenceInterval:
    r"""Interval for a metric of ``cm.at_prevalence(prevalence)`` that keeps the original noise.

    Intervals computed on the shifted matrix would treat its re-weighted rows as if they had been
    observed at the target prevalence; a rare class re-weighted upwards would look far more
    precise than its few samples allow. Here each row of the *original* matrix is resampled
    from its own multinomial, :math:`C^*_{i\cdot} \sim \mathrm{Mult}(n_i, C_{i\cdot}/n_i)` (the
    rows are the class-conditional estimates; their sizes are fixed by the design), every
    resample is shifted to ``prevalence`` and the metric evaluated, all batched.
    ``method`` is 'percentile', 'basic' or 'bca' (jackknife on the original counts, each
    leave-one-out table shifted likewise).

    Parameters
    ----------
    cm : ConfusionMatrix
        The observed table.
    metric : str
        A registry name or alias.
    prevalence : mapping label -> proportion, or array-like of shape (K,)
        As in :func:`at_prevalence`.
    level : float, default 0.95
        Confidence level.
    method : {'bca', 'percentile', 'basic'}
        How the interval is read from the resamples.
    average : str, optional
        Averaging of a per-class metric.
    pos_label : label, optional
        One class of a per-class metric.
    n_resamples : int
        Resamples drawn.
    random_state : int or numpy.random.Generator, optional
        Seed.
    **params
        Parameters of the metric.

    Returns
    -------
    ConfidenceInterval
        The estimate is the metric of ``at_prevalence(cm, prevalence)``.

    Raises
    ------
    ValueError
        As :func:`at_prevalence`, or a method other than the three bootstrap ones.

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> cm = ConfusionMatrix([[40, 10], [5, 45]])
    >>> ci = prevalence_ci(cm, "precision", [0.9, 0.1], pos_label=1, random_state=0)
    >>> round(ci.estimate, 4), bool(ci.low < ci.estimate < ci.high)
    (0.3333, True)
    """
    level = check_level(level)
    n_used = check_n_resamples(n_resamples, level)
    rng = check_random_state(random_state)
    if method not in ("percentile", "basic", "bca"):
        raise ValueError(f"method must be 'percentile', 'basic' or 'bca', got {method!r}")
    spec = get_metric(metric)
    pi, total = _check_prevalence(cm, prevalence, None)
    counts = cm.counts
    k = counts.shape[0]
    if counts.dtype.kind not in "iu":
        raise ValueError("prevalence_ci needs integer counts (rows are resampled as samples)")

    def values(tables: np.ndarray) -> np.ndarray:
        st = Stats(shift_rows(tables, pi, total), zero_division="nan")
        return np.asarray(evaluate(spec.name, st, average, warn=False, **params), np.float64)

    est = np.asarray(evaluate(spec.name, Stats(shift_rows(counts, pi, total)), average,
                              **params), np.float64)
    rows = counts.sum(axis=1)
    stack = np.zeros((n_used, k, k), dtype=np.int64)
    for i in range(k):
        if rows[i] > 0:
            stack[:, i, :] = rng.multinomial(int(rows[i]), counts[i] / rows[i], size=n_used)
    boot = values(stack)
    jack = None
    if method == "bca":
        flat = counts.reshape(-1)
        cells = np.flatnonzero(flat > 0)
        loo = np.broadcast_to(flat, (cells.size, flat.size)).copy()
        loo[np.arange(cells.size), cells] -= 1
        jack = (values(loo.reshape(-1, k, k)), flat[cells].astype(np.float64))
    low, high = bootstrap_interval(boot, est, level, method, jack)
    lo_r, hi_r = spec.range
    low, high = np.clip(low, lo_r, hi_r), np.clip(high, lo_r, hi_r)
    if pos_label is not None:
        if spec.kind != "per_class" or average is not None:
            raise ValueError("pos_label applies to per-class metrics with average=None")
        i = cm.index_of(pos_label, "pos_label")
        low, high, est = low[i], high[i], est[i]

    def out(a: Any) -> Any:
        a = np.asarray(a, dtype=np.float64)
        return float(a) if a.ndim == 0 else a

    return ConfidenceInterval(out(low), out(high), out(est), spec.name, method, level, average,
                              n_used, METHODS[method].references)
