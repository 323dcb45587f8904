"""The large-sample test of no agreement beyond chance, :math:`\\kappa = 0` (Fleiss, Cohen and
Everitt 1969), for Cohen's kappa and weighted kappa.

The interval of kappa (``cm.ci("kappa")``) uses the standard error at the estimate; the test
uses the standard error under the null hypothesis, whose cells are the products of the margins
(truth and prediction independent), as Fleiss, Cohen and Everitt (1969) derive it and as SAS's
``PROC FREQ`` (``AGREE`` / ``TEST KAPPA``) and statsmodels' ``cohens_kappa`` report it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..matrix.tables import check_table
from ..metrics import Stats, evaluate
from .analytic import REF_FLEISS, kappa_terms
from .common import norm_cdf
from .paired import TestResult

__all__ = ["ALTERNATIVES", "kappa_test"]

ALTERNATIVES = ("two-sided", "greater", "less")
"""The alternatives :func:`kappa_test` takes: kappa different from 0, above 0 (agreement beyond
chance, the usual question), below 0."""


def kappa_test(counts: Any, weights: str | None = None, *,
               alternative: str = "two-sided") -> TestResult:
    r"""Test of :math:`\kappa = 0` (agreement no better than chance) with the null variance of
    Fleiss, Cohen and Everitt (1969).

    With cell proportions :math:`p_{ij}`, margins :math:`p_{i\cdot}, p_{\cdot j}`, agreement
    weights :math:`w_{ij}` (identity for Cohen's kappa), :math:`\bar w_{i\cdot} = \sum_j
    p_{\cdot j} w_{ij}`, :math:`\bar w_{\cdot j} = \sum_i p_{i\cdot} w_{ij}` and chance
    agreement :math:`p_e`:

    .. math::
        \mathrm{Var}_0(\hat\kappa) = \frac{\sum_{ij} p_{i\cdot} p_{\cdot j}\,[w_{ij} -
        (\bar w_{i\cdot} + \bar w_{\cdot j})]^2 - p_e^2}{N (1 - p_e)^2},
        \qquad z = \hat\kappa / \sqrt{\mathrm{Var}_0(\hat\kappa)},

    compared with the standard normal.

    Parameters
    ----------
    counts : array-like of shape (K, K) or ConfusionMatrix
        The table of the two ratings (rows = true class): finite, non-negative counts or sums
        of weights, K >= 2.
    weights : {None, 'linear', 'quadratic'}
        The disagreement weights of weighted kappa (as ``cm.metric("kappa", weights=...)``).
    alternative : {'two-sided', 'greater', 'less'}, default 'two-sided'
        ``'greater'``: agreement beyond chance (kappa > 0).

    Returns
    -------
    TestResult
        ``statistic`` (z), ``pvalue`` (for ``alternative``), ``method`` ``'kappa z'``, the
        ``table``, and in ``details``: ``kappa``, ``se0`` (the standard error under the null),
        ``alternative`` and ``weights``. Where kappa is undefined (an empty table, a single
        class, chance agreement 1) the statistic and p-value are NaN. Where the null variance
        is 0 (one rating uses a single class, so kappa is 0 on every table with those
        margins) z is 0 and the p-value 1 (two-sided) or 1/2 (one-sided).

    Raises
    ------
    TypeError
        Counts that are not numbers; ``alternative`` not a string.
    ValueError
        A table that is not square, negative, NaN or infinite counts; ``weights`` other than
        None, 'linear' and 'quadratic'; ``alternative`` not one of :data:`ALTERNATIVES`.

    Examples
    --------
    >>> r = kappa_test([[20, 5], [10, 15]], alternative="greater")
    >>> round(r.kappa, 4), round(r.se0, 4), round(r.statistic, 4), round(r.pvalue, 4)
    (0.4, 0.1386, 2.8868, 0.0019)
    """
    if not isinstance(alternative, str):
        raise TypeError(f"alternative must be a string, one of {', '.join(ALTERNATIVES)}, "
                        f"got {type(alternative).__name__}")
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {', '.join(ALTERNATIVES)}, "
                         f"got {alternative!r}")
    from ..matrix import ConfusionMatrix

    table = counts.counts if isinstance(counts, ConfusionMatrix) else check_table(counts, "counts")
    terms = kappa_terms(table, weights)
    details: dict[str, Any] = {"alternative": alternative, "weights": weights}
    if terms is None:
        nan = float("nan")
        return TestResult(nan, nan, "kappa z", None, table, (REF_FLEISS,),
                          {"kappa": nan, "se0": nan, **details})
    n, w, p, wr, wc, pe, _ = terms
    # the estimate is the registry's (exact near chance, as cm.metric("kappa") gives it)
    kap = float(evaluate("kappa", Stats(table, zero_division="nan"), warn=False,
                         weights=weights))
    r, q = p.sum(axis=1), p.sum(axis=0)
    core = (np.outer(r, q) * (w - (wr[:, None] + wc[None, :])) ** 2).sum()
    var0 = max((core - pe * pe) / (n * (1.0 - pe) ** 2), 0.0)
    se0 = float(np.sqrt(var0))
    # the null variance vanishes only where kappa is 0 on every table with these margins
    z = float(kap) / se0 if se0 > 0 else 0.0
    if alternative == "greater":
        pvalue = float(norm_cdf(-z))
    elif alternative == "less":
        pvalue = float(norm_cdf(z))
    else:
        pvalue = min(1.0, 2.0 * float(norm_cdf(-abs(z))))
    return TestResult(z, pvalue, "kappa z", None, table, (REF_FLEISS,),
                      {"kappa": float(kap), "se0": se0, **details})
