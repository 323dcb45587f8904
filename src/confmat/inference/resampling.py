r"""The multinomial bootstrap on the counts, and the intervals read from its values.

A resample of ``N`` test samples drawn with replacement has exactly the table distribution
``Multinomial(N, C / N)``, so the resampled tables are drawn directly, ``B`` at a time, as a
``(B, K, K)`` stack, and the batched metric code evaluates all of them in one call. Percentile,
basic and BCa intervals are read from the ``B`` values; BCa's acceleration comes from the exact
jackknife on the counts (leaving out one sample of cell ``(i, j)`` gives the same table for all
``C_ij`` samples of that cell, so ``K^2`` evaluations replace ``N``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..metrics import Stats, evaluate
from .common import chunk_rows, norm_cdf, z_quantile

REF_EFRON = "Efron, B., Tibshirani, R. J. (1993), An Introduction to the Bootstrap, Chapman & Hall."
REF_EFRON_BCA = (
    "Efron, B. (1987), Better bootstrap confidence intervals, J. Am. Stat. Assoc. 82(397)."
)
REF_DAVISON = (
    "Davison, A. C., Hinkley, D. V. (1997), Bootstrap Methods and their Application, CUP."
)



#: the most cases numpy's multinomial draw takes (its count is a C long)
_MAX_TRIALS = 2**63 - 1


def resample_tables(
    table: np.ndarray, n_resamples: int, rng: np.random.Generator
) -> Iterator[np.ndarray]:
    """Yield stacks of tables drawn from Multinomial(N, table / N), ``n_resamples`` in all.

    Integer tables are resampled exactly. A float (weighted) table is treated as
    ``round(N)`` unit-weight samples and its resamples rescaled to total ``N``.

    The cells are drawn in a canonical class order (classes sorted by their row and column
    totals, diagonal count, and sorted row and column counts), so the same predictions give
    the same resamples, hence the same intervals, whatever order their labels are listed in.

    Parameters
    ----------
    table : numpy.ndarray of shape (K, K)
        Counts (integers, or float weights).
    n_resamples : int
        Tables to draw in all.
    rng : numpy.random.Generator
        Source of randomness.

    Returns
    -------
    iterator of numpy.ndarray
        Stacks of shape (B, K, K) whose B add up to ``n_resamples``.

    Raises
    ------
    ValueError
        If a weighted table's total is not finite, is at least ``2**63 - 1`` (more cases
        than a multinomial draw can take) or is below 1/2 (no case).

    Examples
    --------
    >>> import numpy as np
    >>> stacks = list(resample_tables(np.array([[3, 1], [0, 4]]), 5, np.random.default_rng(0)))
    >>> sum(s.shape[0] for s in stacks), {int(s.sum()) for s in stacks[0]}
    (5, {8})
    """
    shape = table.shape
    square = table.ndim == 2 and shape[0] == shape[1]
    order = canonical_order(table) if square else None
    if order is not None:
        table = table[np.ix_(order, order)]
    flat = table.reshape(-1).astype(np.float64)
    total = flat.sum()
    if table.dtype.kind in "iu":
        # exact: a float64 sum of a total near 2**63 may round past it
        trials, scale = int(table.sum(dtype=object)), None
    else:
        if not np.isfinite(total) or total >= _MAX_TRIALS:
            raise ValueError(
                f"table: a weighted table is resampled as round(N) unit-weight cases, and its "
                f"total N = {total:g} exceeds the {_MAX_TRIALS:,} cases a multinomial draw "
                "can take; rescale the weights (the intervals of a bootstrap depend on N)")
        trials = round(total)
        if trials < 1:
            raise ValueError(
                f"table: a weighted table is resampled as round(N) unit-weight cases, and its "
                f"total N = {total:g} rounds to no case; rescale the weights (the intervals of "
                "a bootstrap depend on N)")
        scale = total / trials
    p = flat / total if total > 0 else np.full(flat.size, 1.0 / flat.size)
    p = p / p.sum()
    for start, stop in chunk_rows(n_resamples, flat.size):
        draw = rng.multinomial(trials, p, size=stop - start)
        if scale is not None:
            draw = draw * scale
        if order is None:
            yield draw.reshape((stop - start, *shape))
            continue
        out = np.empty((stop - start, *shape), dtype=draw.dtype)
        out[:, order[:, None], order[None, :]] = draw.reshape((stop - start, *shape))
        yield out


def canonical_order(table: np.ndarray) -> np.ndarray:
    """An order of the classes of a square table that does not depend on how they are listed.

    Classes are sorted by row total, column total, diagonal count, then their sorted row and
    sorted column counts; classes that tie on all of these are interchangeable for the
    resampling up to their off-diagonal pattern, and keep their listed order.

    Parameters
    ----------
    table : numpy.ndarray of shape (K, K)

    Returns
    -------
    numpy.ndarray of int, shape (K,)
        ``table[np.ix_(order, order)]`` is the canonical table.

    Raises
    ------
    ValueError
        ``table`` is not square.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.array([[50, 3], [8, 39]])
    >>> p = canonical_order(t)
    >>> q = canonical_order(t[::-1, ::-1])
    >>> (t[np.ix_(p, p)] == t[::-1, ::-1][np.ix_(q, q)]).all()
    np.True_
    """
    t = np.asarray(table, dtype=np.float64)
    if t.ndim != 2 or t.shape[0] != t.shape[1]:
        raise ValueError(f"table must be square, got shape {t.shape}")
    rows, cols, diag = t.sum(axis=1), t.sum(axis=0), np.diagonal(t)
    keys = [(rows[i], cols[i], diag[i], tuple(np.sort(t[i])), tuple(np.sort(t[:, i])), i)
            for i in range(t.shape[0])]
    return np.array([k[-1] for k in sorted(keys)], dtype=np.int64)


def bootstrap_values(
    table: np.ndarray,
    k: int,
    name: str,
    average: str | None,
    n_resamples: int,
    rng: np.random.Generator,
    zero_division: Any = "warn",
    **params: Any,
) -> np.ndarray:
    """Metric values on ``n_resamples`` multinomial resamples of ``table``: shape (B, ...).

    Parameters
    ----------
    table : numpy.ndarray of shape (K, K)
        Counts.
    k : int
        Classes of the table.
    name : str
        Registry name of the metric.
    average : str, optional
        Averaging of a per-class metric.
    n_resamples : int
        Resamples to draw.
    rng : numpy.random.Generator
        Source of randomness.
    zero_division : {'warn', 'nan'} or float
        Value of an undefined metric.
    **params
        Parameters of the metric.

    Returns
    -------
    numpy.ndarray
        Shape (B,) for a scalar metric, (B, K) for per-class values.

    Examples
    --------
    >>> import numpy as np
    >>> v = bootstrap_values(np.array([[3, 1], [0, 4]]), 2, "accuracy", None, 4,
    ...                      np.random.default_rng(0))
    >>> v.shape, bool(((v >= 0) & (v <= 1)).all())
    ((4,), True)
    """
    parts = [
        evaluate(name, Stats(stack, k=k, zero_division=zero_division), average, warn=False,
                 **params)
        for stack in resample_tables(table, n_resamples, rng)
    ]
    return np.concatenate([np.asarray(p, dtype=np.float64) for p in parts], axis=0)


def jackknife_values(
    table: np.ndarray, k: int, name: str, average: str | None, zero_division: Any = "warn",
    **params: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-out metric values, one per non-empty cell, and the cell counts (their weights).

    Removing any one of the ``C_ij`` samples of cell ``(i, j)`` gives the same table, so the
    N-sample jackknife is these values weighted by the counts. For a weighted table one unit of
    weight is removed (the whole cell when it holds less than one).

    Parameters
    ----------
    table, k, name, average, zero_division, **params
        As in :func:`bootstrap_values`.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The values (one per non-empty cell) and the weight of each.

    Examples
    --------
    >>> import numpy as np
    >>> vals, w = jackknife_values(np.array([[3, 1], [0, 4]]), 2, "accuracy", None)
    >>> [round(float(x), 4) for x in vals], w.tolist()
    ([0.8571, 1.0, 0.8571], [3.0, 1.0, 4.0])
    """
    flat = table.reshape(-1)
    cells = np.flatnonzero(flat > 0)
    m = flat.size
    loo: np.ndarray
    if table.dtype.kind in "iu":
        # in integers: counts above 2**53 would move by a float64 round trip
        loo = np.broadcast_to(flat.astype(np.int64), (cells.size, m)).copy()
        removed = np.ones(cells.size)
        loo[np.arange(cells.size), cells] -= 1
    else:
        removed = np.minimum(flat[cells].astype(np.float64), 1.0)
        loo = np.broadcast_to(flat.astype(np.float64), (cells.size, m)).copy()
        loo[np.arange(cells.size), cells] -= removed
    loo = loo.reshape((cells.size, *table.shape))
    vals = evaluate(name, Stats(loo, k=k, zero_division=zero_division), average, warn=False,
                    **params)
    weights = flat[cells].astype(np.float64) / removed
    return np.asarray(vals, dtype=np.float64), weights


def nanquantile(values: np.ndarray, q: Any) -> np.ndarray:
    """Quantiles along the first axis, ignoring NaN (an all-NaN column gives NaN, silently).

    Parameters
    ----------
    values : numpy.ndarray
        Values, resamples along axis 0.
    q : float or sequence of float
        Quantiles in [0, 1].

    Returns
    -------
    numpy.ndarray
        The quantiles, ``q`` along the first axis when it is a sequence.

    Examples
    --------
    >>> import numpy as np
    >>> nanquantile(np.array([1.0, np.nan, 3.0]), 0.5).item()
    2.0
    """
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanquantile(values, q, axis=0)


def bootstrap_interval(
    boot: np.ndarray,
    estimate: np.ndarray,
    level: float,
    method: str,
    jackknife: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Percentile, basic or BCa interval from bootstrap values ``boot`` (B, ...).

    BCa (Efron 1987) uses :math:`\hat z_0 = \Phi^{-1}(\#\{\theta^* < \hat\theta\}/B +
    \tfrac12\#\{\theta^* = \hat\theta\}/B)` (ties split, as metrics of counts are discrete) and the
    acceleration :math:`\hat a = \sum w_c d_c^3 / (6 (\sum w_c d_c^2)^{3/2})`, :math:`d_c =
    \bar\theta_{(\cdot)} - \theta_{(c)}`, from the count jackknife; the interval is the
    :math:`\Phi(\hat z_0 + (\hat z_0 + z_\alpha)/(1 - \hat a(\hat z_0 + z_\alpha)))` quantiles.
    Resamples where the metric is NaN are left out.

    Parameters
    ----------
    boot : numpy.ndarray
        Bootstrap values, resamples along axis 0.
    estimate : float or numpy.ndarray
        The metric on the observed table.
    level : float
        Confidence level.
    method : {'percentile', 'basic', 'bca'}
        How the interval is read from the values.
    jackknife : (numpy.ndarray, numpy.ndarray), optional
        Values and weights from :func:`jackknife_values` (BCa's acceleration; zero without).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Lower and upper bounds, shaped like ``estimate``.

    Raises
    ------
    ValueError
        An unknown method.

    Examples
    --------
    >>> import numpy as np
    >>> boot = np.linspace(0.0, 1.0, 101)
    >>> [round(float(b), 3) for b in bootstrap_interval(boot, 0.5, 0.9, "percentile")]
    [0.05, 0.95]
    """
    alpha = 1.0 - level
    est = np.asarray(estimate, dtype=np.float64)
    if method == "percentile":
        q = nanquantile(boot, [alpha / 2.0, 1.0 - alpha / 2.0])
        return q[0], q[1]
    if method == "basic":
        q = nanquantile(boot, [alpha / 2.0, 1.0 - alpha / 2.0])
        return 2.0 * est - q[1], 2.0 * est - q[0]
    if method != "bca":
        raise ValueError(f"unknown bootstrap method {method!r}")
    tail = boot.shape[1:]
    flat = boot.reshape(boot.shape[0], -1)
    est_f = np.broadcast_to(est, tail).reshape(-1)
    valid = ~np.isnan(flat)
    nvalid = valid.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        below = ((flat < est_f) & valid).sum(axis=0) + 0.5 * ((flat == est_f) & valid).sum(axis=0)
        prop = below / np.maximum(nvalid, 1)
        prop = np.clip(prop, 0.5 / np.maximum(nvalid, 1), 1.0 - 0.5 / np.maximum(nvalid, 1))
    z0 = z_quantile(prop)
    if jackknife is None or jackknife[0].shape[0] == 0:
        acc = np.zeros_like(z0)
    else:
        jv, w = jackknife
        jv = jv.reshape(jv.shape[0], -1)
        ok = ~np.isnan(jv)
        wj = np.where(ok, w[:, None], 0.0)
        jvz = np.where(ok, jv, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = (wj * jvz).sum(axis=0) / wj.sum(axis=0)
            d = np.where(ok, mean - jvz, 0.0)
            num = (wj * d**3).sum(axis=0)
            den = 6.0 * (wj * d**2).sum(axis=0) ** 1.5
            acc = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
    zs = z_quantile([alpha / 2.0, 1.0 - alpha / 2.0])
    low = np.empty(flat.shape[1])
    high = np.empty(flat.shape[1])
    for j in range(flat.shape[1]):
        col = flat[valid[:, j], j]
        if col.size == 0:
            low[j] = high[j] = np.nan
            continue
        probs = []
        for zq in zs:
            s = z0[j] + zq
            denom = 1.0 - acc[j] * s
            p = norm_cdf(z0[j] + s / denom) if denom > 0 else (1.0 if zq > 0 else 0.0)
            probs.append(float(np.clip(p, 0.0, 1.0)))
        low[j], high[j] = np.quantile(col, probs)
    return low.reshape(tail), high.reshape(tail)
