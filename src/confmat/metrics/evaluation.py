"""Evaluating a registry metric on statistics: parameters, averaging, the zero-division warning.

:func:`evaluate` is the one place where a metric's function meets the counts: it binds and
checks the metric's parameters, hands per-class metrics their one-vs-rest counts (summed for
micro averaging) and averages per-class values as scikit-learn does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .registry import AVERAGES, MetricSpec, get_metric
from .stats import Stats


def bind_params(spec: MetricSpec, params: Mapping[str, Any]) -> dict[str, Any]:
    """Merge a metric's default parameters with the given ones and validate them.

    Parameters
    ----------
    spec : MetricSpec
        The metric.
    params : mapping
        Keyword parameters given by the caller.

    Returns
    -------
    dict
        Defaults updated by ``params``.

    Raises
    ------
    TypeError
        If a parameter is not one the metric accepts (the message lists those it accepts).
    ValueError
        If the metric's ``check`` rejects a value.

    Examples
    --------
    >>> from confmat.metrics import get_metric
    >>> from confmat.metrics.evaluation import bind_params
    >>> bind_params(get_metric("fbeta"), {"beta": 2})
    {'beta': 2}
    >>> bind_params(get_metric("recall"), {"beta": 2})
    Traceback (most recent call last):
    ...
    TypeError: metric 'recall' got unexpected parameter(s) ['beta']; it accepts: none
    """
    if not params:  # the declared defaults, valid by declaration
        return dict(spec.params)
    unknown = set(params) - set(spec.params)
    if unknown:
        allowed = ", ".join(sorted(spec.params)) or "none"
        raise TypeError(
            f"metric {spec.name!r} got unexpected parameter(s) {sorted(unknown)}; "
            f"it accepts: {allowed}"
        )
    bound = {**spec.params, **params}
    if spec.check is not None:
        spec.check(**bound)
    return bound


def check_average(average: Any) -> None:
    """Validate an ``average`` argument.

    Parameters
    ----------
    average : {None, "micro", "macro", "weighted"}
        The averaging asked for.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        For any other value.

    Examples
    --------
    >>> from confmat.metrics.evaluation import check_average
    >>> check_average("macro")
    >>> check_average("mean")
    Traceback (most recent call last):
    ...
    ValueError: average must be None, 'micro', 'macro' or 'weighted', got 'mean'
    """
    if average is not None and average not in AVERAGES:
        raise ValueError(
            f"average must be None, 'micro', 'macro' or 'weighted', got {average!r}"
        )


def average_values(values: np.ndarray, weights: np.ndarray | None, stats: Stats) -> np.ndarray:
    """Macro (``weights`` None) or weighted mean over the class axis, as scikit-learn does it.

    NaN values (``zero_division=np.nan``) are left out, and when every weight is zero the plain
    mean is used. All values NaN gives NaN.

    Parameters
    ----------
    values : numpy.ndarray
        Per-class values, class on the last axis.
    weights : numpy.ndarray or None
        Per-class weights (the support for ``average="weighted"``), or None for the plain mean.
    stats : Stats
        The statistics the values came from (kept for a uniform signature).

    Returns
    -------
    numpy.ndarray
        The batch shape of ``values`` without the class axis.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics import Stats
    >>> from confmat.metrics.evaluation import average_values
    >>> s = Stats([[5, 1], [2, 4]])
    >>> float(average_values(np.array([0.5, 1.0]), np.array([1, 3]), s))
    0.875
    >>> float(average_values(np.array([0.5, np.nan]), None, s))
    0.5
    """
    values = np.asarray(values, dtype=np.float64)
    defined = ~np.isnan(values)
    v = np.where(defined, values, 0.0)
    count = defined.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        plain = v.sum(axis=-1) / np.where(count == 0, 1, count)
        plain = np.where(count == 0, np.nan, plain)
        if weights is None:
            return plain
        w = np.where(defined, np.broadcast_to(np.asarray(weights, np.float64), values.shape), 0.0)
        total = w.sum(axis=-1)
        weighted = (v * w).sum(axis=-1) / np.where(total == 0, 1.0, total)
    return np.where(total == 0, plain, weighted)


def _pooled_ovr(stats: Stats) -> Stats:
    """The summed one-vs-rest table ``[[TP, FN], [FP, TN]]`` as 2 x 2 statistics."""
    m = stats.micro
    top = np.stack([m.tp[..., 0], m.fn[..., 0]], axis=-1)
    bottom = np.stack([m.fp[..., 0], m.tn[..., 0]], axis=-1)
    pooled = Stats(np.stack([top, bottom], axis=-2))
    pooled.div = stats.div
    return pooled


def evaluate(
    name: str,
    stats: Stats,
    average: str | None = None,
    *,
    warn: bool = True,
    **params: Any,
) -> np.ndarray:
    """Evaluate a registry metric on (batched) statistics.

    Parameters
    ----------
    name : str
        Metric name or alias.
    stats : Stats
        Statistics of one table or of a stack of tables.
    average : {None, "micro", "macro", "weighted"}
        For per-class metrics: None keeps the class axis; the others average over it. Must be
        None for overall metrics.
    warn : bool, default True
        Emit :class:`UndefinedMetricWarning` when a value was undefined and
        ``zero_division="warn"``; with False the notes are dropped silently.
    **params
        The metric's parameters (``beta=2``, ``weights="quadratic"``, ...).

    Returns
    -------
    numpy.ndarray
        The batch shape of ``stats``, plus a class axis for per-class metrics with
        ``average=None``.

    Raises
    ------
    ValueError
        For an unknown metric, a bad ``average`` or an average asked of an overall metric.
    TypeError
        For a parameter the metric does not accept.

    Examples
    --------
    >>> from confmat.metrics import Stats, evaluate
    >>> s = Stats([[5, 1], [2, 4]])
    >>> evaluate("recall", s).round(4).tolist()
    [0.8333, 0.6667]
    >>> float(evaluate("recall", s, "macro"))
    0.75
    >>> float(evaluate("accuracy", s))
    0.75
    """
    spec = get_metric(name)
    check_average(average)
    return evaluate_spec(spec, stats, average, bind_params(spec, params), warn, stacklevel=5)


def evaluate_spec(spec: MetricSpec, stats: Stats, average: str | None,
                  bound: Mapping[str, Any], warn: bool = True, stacklevel: int = 4
                  ) -> np.ndarray:
    """:func:`evaluate` for a metric already looked up, ``average`` already checked and
    parameters already bound (:func:`bind_params`): the loop of ``cm.metrics()``.

    Parameters
    ----------
    spec : MetricSpec
        The metric.
    stats : Stats
        Statistics of one table or of a stack of tables.
    average : {None, "micro", "macro", "weighted"}
        As in :func:`evaluate`.
    bound : mapping
        The metric's parameters.
    warn : bool, default True
        As in :func:`evaluate`.
    stacklevel : int, default 4
        Of the warning (4: the caller of the function that calls this one).

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ValueError
        For an average asked of an overall metric, or a value that overflows because the
        weights of the table lie too far apart (:attr:`Stats.too_wide`).

    Examples
    --------
    >>> from confmat.metrics import Stats, get_metric
    >>> from confmat.metrics.evaluation import evaluate_spec
    >>> float(evaluate_spec(get_metric("accuracy"), Stats([[5, 1], [2, 4]]), None, {}))
    0.75
    """
    if spec.kind == "overall" and average is not None:
        raise ValueError(
            f"{spec.name!r} is an overall metric; average={average!r} does not apply"
        )
    out = _scaled(spec, stats, average, bound)
    wide = stats.too_wide
    if wide is not None and np.isnan(out).any():
        # NaN where no denominator vanished (zero_division=0 gives it too) is an overflow
        again = _scaled(spec, Stats(stats.table, k=stats.k, zero_division=0), average, bound)
        if np.isnan(again).any():
            stats.div.undefined.clear()
            raise ValueError(
                f"{spec.name}: the nonzero weights of the table run from {wide[0]:g} to "
                f"{wide[1]:g}, farther apart than float64 can multiply, and the value is not "
                f"a number; set the weights below {wide[1] * 1e-300:g} to 0 (float64 cannot "
                "add them to the largest anyway)"
            )
    if warn:
        stats.div.warn(spec.name, stacklevel)
    else:
        stats.div.undefined.clear()
    out = np.asarray(out)
    # shared statistics and memoised intermediates are read-only: the caller gets its own
    return out if out.flags.writeable else out.copy()


def _scaled(spec: MetricSpec, stats: Stats, average: str | None,
            bound: Mapping[str, Any]) -> np.ndarray:
    """:func:`_evaluate`, on the rescaled table for a metric of known degree."""
    degree = spec.degree(bound)
    if degree is None or (spec.is_count and average in (None, "micro")):
        return _evaluate(spec, stats, average, bound)
    # weighted counts far from 1: products of counts must not overflow float64
    return stats.homogeneous(lambda s: _evaluate(spec, s, average, bound), degree)


def _evaluate(spec: MetricSpec, stats: Stats, average: str | None,
              bound: Mapping[str, Any]) -> np.ndarray:
    """The metric's function on ``stats``, with its class axis or averaged over it."""
    if spec.kind == "overall":
        out = spec.func(stats, **bound)
    elif spec.uses_table:
        # per-class values that need the whole table (e.g. confusion entropy). Micro averaging
        # is, as for every per-class metric, the metric of the pooled one-vs-rest 2 x 2 table.
        if average == "micro":
            out = spec.func(_pooled_ovr(stats), **bound)[..., 0]
        else:
            out = spec.func(stats, **bound)
        if average in ("macro", "weighted"):
            weights = stats.support if average == "weighted" else None
            out = average_values(out, weights, stats)
    elif average is None:
        out = spec.func(stats.per_class, **bound)
    elif average == "micro":
        out = spec.func(stats.micro, **bound)[..., 0]
    else:
        values = spec.func(stats.per_class, **bound)
        weights = stats.support if average == "weighted" else None
        out = average_values(values, weights, stats)
    return np.asarray(out)
