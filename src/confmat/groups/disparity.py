"""Disparities between groups: differences and ratios of a metric, and their bootstrap.

With ``v_g`` the metric of group ``g``, ``o`` its value on all samples and ``r`` its value in a
reference group, the definitions of fairlearn's ``MetricFrame.difference`` / ``ratio`` (Weerts
et al. 2023) are followed, with a third method:

* ``between_groups``: difference ``max v - min v``; ratio ``min v / max v``;
* ``to_overall``: difference ``max |v_g - o|``; ratio ``min rho(v_g / o)``;
* ``to_group``: difference ``max |v_g - r|``; ratio ``min rho(v_g / r)``,

where ``rho(x) = x`` for ``x <= 1`` and ``1 / x`` above (a ratio is always expressed as at
most 1). Groups whose value is undefined (NaN) are left out, as pandas' ``min`` / ``max`` do;
so is a group whose sample weights are all zero (:func:`weighed`): it holds no evidence, and
every rate of its empty table would otherwise take the ``zero_division`` value (fairlearn's
selection rate is NaN there, and its other rates refuse such a group).

Intervals resample every group's table independently, ``Multinomial(n_g, C_g / n_g)`` (the
multinomial bootstrap on the counts of :mod:`confmat.inference.resampling`, Efron and
Tibshirani 1993), so each group keeps its size; the overall table of a resample is the sum of
its groups' tables.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..inference.resampling import resample_tables

__all__ = ["DISPARITY_METHODS", "difference", "ratio", "resample_stack", "weighed"]

DISPARITY_METHODS = ("between_groups", "to_overall", "to_group")

REF_WEERTS = (
    "Weerts, H., Dudik, M., Edgar, R., Jalali, A., Lutz, R., Madaio, M. (2023), Fairlearn: "
    "assessing and improving fairness of AI systems, J. Mach. Learn. Res. 24(257)."
)


def _nan_reduce(func: Callable[..., np.ndarray], x: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN row gives NaN, silently
        return np.asarray(func(x, axis=-1))


def _against(values: np.ndarray, overall: np.ndarray, method: str, ref: int | None) -> np.ndarray:
    if method == "to_overall":
        return np.asarray(overall)[..., None]
    assert ref is not None
    return values[..., ref : ref + 1]


def difference(values: np.ndarray, overall: Any, method: str, ref: int | None = None
               ) -> np.ndarray:
    """Largest difference of a metric between groups (see the module docstring).

    Parameters
    ----------
    values : ndarray of shape (..., G)
        The metric per group (leading axes: resamples).
    overall : ndarray of shape (...)
        The metric on all samples (used by ``to_overall``).
    method : {'between_groups', 'to_overall', 'to_group'}
        What each group is compared with.
    ref : int, optional
        Index of the reference group (``to_group``).

    Returns
    -------
    ndarray of shape (...)

    Examples
    --------
    >>> v = np.array([0.5, 0.8, np.nan])
    >>> float(difference(v, 0.6, "between_groups")), float(difference(v, 0.6, "to_overall"))
    (0.30000000000000004, 0.20000000000000007)
    >>> float(difference(v, 0.6, "to_group", ref=1))
    0.30000000000000004
    """
    values = np.asarray(values, dtype=np.float64)
    if method == "between_groups":
        return _nan_reduce(np.nanmax, values) - _nan_reduce(np.nanmin, values)
    return _nan_reduce(np.nanmax, np.abs(values - _against(values, overall, method, ref)))


def ratio(values: np.ndarray, overall: Any, method: str, ref: int | None = None) -> np.ndarray:
    """Smallest ratio of a metric between groups, at most 1 (see the module docstring).

    Parameters
    ----------
    values : ndarray of shape (..., G)
        The metric per group (leading axes: resamples).
    overall : ndarray of shape (...)
        The metric on all samples (used by ``to_overall``).
    method : {'between_groups', 'to_overall', 'to_group'}
        What each group is compared with.
    ref : int, optional
        Index of the reference group (``to_group``).

    Returns
    -------
    ndarray of shape (...)
        NaN where a ratio is 0 / 0 for every group.

    Examples
    --------
    >>> v = np.array([0.5, 0.8])
    >>> float(ratio(v, 0.6, "between_groups")), round(float(ratio(v, 0.6, "to_overall")), 4)
    (0.625, 0.75)
    """
    values = np.asarray(values, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "between_groups":
            return _nan_reduce(np.nanmin, values) / _nan_reduce(np.nanmax, values)
        r = values / _against(values, overall, method, ref)
        r = np.where(r > 1, 1.0 / r, r)
    return _nan_reduce(np.nanmin, r)


def weighed(values: np.ndarray, tables: np.ndarray) -> np.ndarray:
    """The values of the groups whose table holds some weight; NaN (left out) for the others.

    Parameters
    ----------
    values : ndarray of shape (..., G)
        A metric per group (leading axes: resamples).
    tables : ndarray of shape (..., G, M, M)
        The groups' tables the values were computed from.

    Returns
    -------
    ndarray of shape (..., G)

    Examples
    --------
    >>> st = np.array([[[1.5, 0.0], [0.5, 1.0]], [[0.0, 0.0], [0.0, 0.0]]])
    >>> weighed(np.array([0.75, 0.0]), st).tolist()
    [0.75, nan]
    """
    values = np.asarray(values, dtype=np.float64)
    empty = np.asarray(tables).sum(axis=(-2, -1)) == 0
    return np.where(empty, np.nan, values) if empty.any() else values


def resample_stack(stack: np.ndarray, n_resamples: int, rng: np.random.Generator,
                   budget: int = 8_000_000, keys: Sequence[Any] | None = None
                   ) -> Iterator[np.ndarray]:
    """Resampled stacks, each group's table drawn from ``Multinomial(n_g, C_g / n_g)``, one
    chunk at a time (so that many resamples never sit in memory together).

    A group whose table is empty (sample weights all zero) stays empty in every resample.

    Parameters
    ----------
    stack : ndarray of shape (G, M, M)
        The groups' tables.
    n_resamples : int
        Resamples in all.
    rng : numpy.random.Generator
        Source of randomness.
    budget : int, default 8_000_000
        Most cells of one chunk.
    keys : sequence, optional
        The group keys, to name a group whose weights cannot be resampled.

    Yields
    ------
    ndarray
        Chunks of shape (B_i, G, M, M) whose ``B_i`` add up to ``n_resamples``.

    Raises
    ------
    ValueError
        A weighted group whose total weight rounds to no case or is too large to draw
        (:func:`confmat.inference.resampling.resample_tables`), named by its key.

    Examples
    --------
    >>> st = np.array([[[3, 1], [0, 4]], [[1, 0], [2, 2]]])
    >>> chunks = list(resample_stack(st, 5, np.random.default_rng(0)))
    >>> [c.shape for c in chunks], chunks[0].sum(axis=(2, 3))[0].tolist()
    ([(5, 2, 2, 2)], [8, 5])
    """
    per = max(1, budget // max(1, stack[0].size * stack.shape[0]))
    for start in range(0, n_resamples, per):
        b = min(per, n_resamples - start)
        parts = []
        for g, table in enumerate(stack):
            if not table.any():
                parts.append(np.zeros((b, *table.shape), dtype=table.dtype))
                continue
            try:
                parts.append(np.concatenate(list(resample_tables(table, b, rng)), axis=0))
            except ValueError as exc:
                who = f"group {keys[g]!r}" if keys is not None else f"group {g}"
                raise ValueError(f"sample_weight of {who}: "
                                 f"{str(exc).removeprefix('table: ')}") from None
        yield np.stack(parts, axis=1)


def combine(parts: Sequence[np.ndarray], agg: str) -> np.ndarray:
    """Two disparities (true and false positive rates) folded as fairlearn's equalized odds:
    ``worst_case`` is Python's ``max`` (difference) / ``min`` (ratio) over the pair in that
    order, ``mean`` their mean without NaN.

    Parameters
    ----------
    parts : sequence of ndarray
        The disparities, each of the same shape.
    agg : {'worst_case_max', 'worst_case_min', 'mean'}
        How to fold them.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> float(combine([np.array(0.2), np.array(0.3)], "worst_case_max"))
    0.3
    """
    a, b = (np.asarray(p, dtype=np.float64) for p in parts)
    if agg == "mean":
        return _nan_reduce(np.nanmean, np.stack([a, b], axis=-1))
    # Python's max(a, b) keeps a unless b > a (a NaN first stays; a NaN second is passed over)
    better = b > a if agg == "worst_case_max" else b < a
    return np.where(better, b, a)
