"""Arithmetic on counts that cannot silently overflow: checked totals and exact differences.

Counts are ``int64``. When a table's total fits, so does every row sum, column sum and
one-vs-rest count, and the statistics in :class:`~confmat.metrics.Stats` are exact. What does
not fit are totals of merges and products of counts (``N**2``, row sums times column sums),
so:

- :func:`check_total` proves a table's total fits, by a bound (largest cell times number of
  cells) that costs one ``max``, or else by an exact sum in Python integers;
- :func:`exact_difference` forms a difference of products of counts, such as MCC's
  ``N c - sum_k t_k p_k``. Such a difference cancels when the metric is near chance level, so
  in floating point it can lose every digit. It is formed in ``int64`` when a bound proves
  every intermediate fits (``N < 3e9`` for the degree-2 numerators of kappa or MCC): exact,
  vectorised and as fast as ``float64``. Otherwise in ``float64``, and the entries where the
  difference lost more than three digits are formed again with Python integers, so the
  relative error stays near 1e-12 whatever the counts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

INT64_MAX = 2**63 - 1
#: below this share of its terms a float difference is redone exactly (3 digits lost at most)
CANCEL = 1e-3


def int_total(a: Any) -> int:
    """The exact total of an integer array as a Python int (any size, no wrap-around).

    Parameters
    ----------
    a : array_like
        Integers (int64 or Python ints in an object array).

    Returns
    -------
    int

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.exact import int_total
    >>> int_total(np.array([2**62, 2**62]))  # int64 would wrap around
    9223372036854775808
    """
    a = np.asarray(a)
    if a.size == 0:
        return 0
    top = int(a.max())
    if top * a.size <= INT64_MAX and int(a.min()) >= 0:
        return int(a.sum())
    return int(a.astype(object).sum())


def check_total(table: Any, what: str = "counts") -> None:
    """Check that every count and the total of an integer table fit int64.

    A stack of tables ``(..., M, M)`` is checked table by table. Float tables pass; an object
    array is taken to hold Python ints.

    Parameters
    ----------
    table : array_like
        The table or stack.
    what : str, default "counts"
        Named in the message.

    Returns
    -------
    None

    Raises
    ------
    OverflowError
        If a count, or a table's total, exceeds ``2**63 - 1``.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.exact import check_total
    >>> check_total(np.array([[2**62, 0], [0, 1]]))
    >>> check_total(np.array([[2**62, 2**62], [0, 0]]), "table")
    Traceback (most recent call last):
    ...
    OverflowError: table: the total of the table would exceed 2**63 - 1 (int64): it is 9223372036854775808; split the data so each table's total fits, or pass float64 weights if an approximation will do
    """
    a = np.asarray(table)
    if a.dtype.kind not in "iuO" or a.size == 0:
        return
    cells = a.shape[-1] * a.shape[-2] if a.ndim >= 2 else a.size
    top = int(a.max())
    if top * cells <= INT64_MAX:
        return
    if top > INT64_MAX:
        raise OverflowError(
            f"{what}: a count of {top} exceeds 2**63 - 1, the largest int64; counts this large "
            "cannot be stored exactly (pass float64 weights if an approximation will do)"
        )
    totals = a.reshape(-1, cells).astype(object).sum(axis=1)
    worst = max(totals)
    if worst > INT64_MAX:
        raise OverflowError(
            f"{what}: the total of the table would exceed 2**63 - 1 (int64): it is {worst}; "
            "split the data so each table's total fits, or pass float64 weights if an "
            "approximation will do"
        )


def check_sum(totals: Sequence[int], what: str) -> int:
    """``sum(totals)`` in Python ints, refused past int64.

    Parameters
    ----------
    totals : sequence of int
        Totals to add, e.g. of tables being merged.
    what : str
        Named in the message.

    Returns
    -------
    int

    Raises
    ------
    OverflowError
        If the sum exceeds ``2**63 - 1``.

    Examples
    --------
    >>> from confmat.metrics.exact import check_sum
    >>> check_sum([1, 2], "merge")
    3
    """
    total = sum(int(t) for t in totals)
    if total > INT64_MAX:
        raise OverflowError(
            f"{what}: the total would exceed 2**63 - 1 (int64): "
            f"{' + '.join(str(int(t)) for t in totals)} = {total}"
        )
    return total


def largest(a: Any) -> int:
    """The largest value of an integer array as a Python int (0 when empty).

    Parameters
    ----------
    a : array_like
        Integer values.

    Returns
    -------
    int
        ``max(a)``, or 0 for an empty array.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.exact import largest
    >>> largest(np.array([3, 9])), largest(np.array([], dtype=int))
    (9, 0)
    """
    a = np.asarray(a)
    return int(a.max()) if a.size else 0


def exact_difference(
    build: Callable[..., tuple[Any, ...]], arrays: Sequence[Any], bound: int
) -> tuple[np.ndarray, ...]:
    """``pos - neg`` and further results of ``build(*arrays) -> (pos, neg, *rest)`` as float64.

    ``build`` may use ``+``, ``-``, ``*``, ``abs``, ``np.where`` and sums, so that it runs on
    int64, float64 or Python-int (object) arrays alike; ``pos``, ``neg`` and each of ``rest``
    have the batch shape, which leads the shape of every array.

    Float arrays (weighted counts) are evaluated in float64. Integer arrays are evaluated in
    int64 when ``bound`` fits; otherwise in float64, and again with Python integers where
    ``|pos - neg|`` is below ``CANCEL * (|pos| + |neg|)``. Each result is then rounded once.

    Parameters
    ----------
    build : callable
        Maps the arrays to ``(pos, neg, *rest)``.
    arrays : sequence of array_like
        The counts.
    bound : int
        A bound (Python int) on every intermediate of the integer evaluation.

    Returns
    -------
    tuple of numpy.ndarray
        ``pos - neg`` first, then ``rest``, all float64.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.exact import exact_difference
    >>> big = np.array([3_000_000_001])
    >>> d, = exact_difference(lambda a, b: (a * a, b * b), (big, big - 1), 2**70)
    >>> float(d[0])  # (a - b)(a + b) = 2a - 1, exact although a*a overflows int64
    6000000001.0
    """
    arrays = [np.asarray(a) for a in arrays]
    if any(a.dtype.kind not in "iu" for a in arrays):
        out = build(*(a.astype(np.float64, copy=False) for a in arrays))
        return (np.asarray(out[0] - out[1], np.float64),
                *(np.asarray(r, np.float64) for r in out[2:]))
    if bound <= INT64_MAX:
        out = build(*(a.astype(np.int64, copy=False) for a in arrays))
        return (np.asarray(out[0] - out[1]).astype(np.float64),
                *(np.asarray(r).astype(np.float64) for r in out[2:]))
    out = build(*(a.astype(np.float64) for a in arrays))
    pos, neg = (np.asarray(x, np.float64) for x in out[:2])
    results = [np.array(pos - neg), *(np.array(r, np.float64) for r in out[2:])]
    with np.errstate(invalid="ignore"):
        shaky = np.abs(results[0]) < CANCEL * (np.abs(pos) + np.abs(neg))
    if shaky.any():
        batch = shaky.shape
        idx = np.flatnonzero(shaky)
        sub = []
        for a in arrays:
            a = np.broadcast_to(a, batch + a.shape[len(batch):])
            sub.append(a.reshape((-1, *a.shape[len(batch):]))[idx].astype(object))
        redo = build(*sub)
        again = [redo[0] - redo[1], *redo[2:]]
        for r, e in zip(results, again, strict=True):
            r.reshape(-1)[idx] = np.asarray(e, dtype=object).astype(np.float64)
    return tuple(results)


def exact_ratios(tables: Any, terms: Callable[[np.ndarray, int], tuple[Any, Any, Any]]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``(pos - neg) / den`` of float tables in exact arithmetic, each rounded once to float64.

    Every float64 weight is a binary fraction, so a table is ``cells / one`` exactly, with
    ``cells`` Python integers and ``one`` a power of two common to the table; a coefficient
    that is a ratio of polynomials in the weights is then formed exactly in integers (a
    Python loop over the tables, for the few whose float64 evaluation cancelled).

    Parameters
    ----------
    tables : array_like of float
        Shape ``(B, K, K)``: finite weights.
    terms : callable
        Maps one table's ``cells`` (a ``K x K`` object array of Python ints) and ``one`` (the
        int that stands for a weight of 1) to ``(pos, neg, den)``, built with ``+``, ``-``,
        ``*`` and sums; a constant term of the polynomials is written with ``one``.

    Returns
    -------
    ratio, defined : numpy.ndarray
        Shape ``(B,)``: the ratios (0.0 where ``den == 0``; +-inf beyond float64's range)
        and where ``den != 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from confmat.metrics.exact import exact_ratios
    >>> t = np.array([[[2.0**53, 1.0], [1.0, 3.0]], [[0.0, 0.0], [0.0, 0.0]]])
    >>> def terms(c, one):  # (N c - sum t p) / N: both sides of degree 2, over one of degree 1
    ...     return c.sum() * (c[0, 0] + c[1, 1]), c.sum(axis=1) @ c.sum(axis=0), c.sum() * one
    >>> ratio, defined = exact_ratios(t, terms)  # 6 - 32 / (2**53 + 5); 0 / 0
    >>> ratio.tolist(), defined.tolist()
    ([5.9999999999999964, 0.0], [True, False])
    """
    flat = np.asarray(tables, dtype=np.float64)
    ratio = np.zeros(len(flat))
    defined = np.zeros(len(flat), dtype=bool)
    for b, table in enumerate(flat):
        mant, expo = np.frexp(table)
        mant = (mant * 2.0**53).astype(np.int64)  # exact: table = mant * 2**(expo - 53)
        expo = expo - 53
        low = int(expo[mant != 0].min()) if mant.any() else 0
        shift = (expo - low).tolist()
        cells = np.empty(table.shape, dtype=object)
        cells[...] = [[int(m) << s_ if m else 0 for m, s_ in zip(mr, sr, strict=True)]
                      for mr, sr in zip(mant.tolist(), shift, strict=True)]
        # a weight of 1 is 2**-low cells units (a fraction 2**low when low > 0: scale up)
        one, up = (1 << -low, 1) if low <= 0 else (1, 1 << low)
        if up != 1:
            cells = cells * up
        pos, neg, den = (np.asarray(x, dtype=object).item() for x in terms(cells, one))
        if den != 0:
            value = Fraction(pos - neg) / den
            try:
                ratio[b] = float(value)
            except OverflowError:  # beyond float64: rounds to infinity, as IEEE 754 does
                ratio[b] = math.inf if value > 0 else -math.inf
            defined[b] = True
    return ratio, defined
