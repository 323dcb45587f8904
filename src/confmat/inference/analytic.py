"""Closed-form intervals: binomial proportions (Wilson 1927; Agresti & Coull 1998; Clopper &
Pearson 1934; Wald), kappa's large-sample standard error (Fleiss, Cohen & Everitt 1969) and
Fisher's z for correlations (Fisher 1921). :mod:`confmat.inference.intervals` chooses among
them and the bootstrap.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..matrix.tables import check_table
from ..metrics import bind_params, get_metric
from ..metrics.overall import kappa_weights
from .common import (
    COUNT_SLACK,
    check_level,
    check_numbers,
    check_proportion_counts,
    scipy_special,
    scipy_stats,
    z_quantile,
)

__all__ = [
    "METHOD_ALIASES",
    "PROPORTION_METHODS",
    "fisher_z_interval",
    "kappa_standard_error",
    "kappa_terms",
    "proportion_interval",
]

REF_WILSON = (
    "Wilson, E. B. (1927), Probable inference, the law of succession, and statistical "
    "inference, J. Am. Stat. Assoc. 22(158)."
)
REF_AGRESTI = (
    "Agresti, A., Coull, B. A. (1998), Approximate is better than 'exact' for interval "
    "estimation of binomial proportions, Am. Stat. 52(2)."
)
REF_CLOPPER = (
    "Clopper, C. J., Pearson, E. S. (1934), The use of confidence or fiducial limits illustrated "
    "in the case of the binomial, Biometrika 26(4)."
)
REF_BROWN = (
    "Brown, L. D., Cai, T. T., DasGupta, A. (2001), Interval estimation for a binomial "
    "proportion, Stat. Sci. 16(2)."
)
REF_FLEISS = (
    "Fleiss, J. L., Cohen, J., Everitt, B. S. (1969), Large sample standard errors of kappa and "
    "weighted kappa, Psychol. Bull. 72(5)."
)
REF_FISHER = (
    "Fisher, R. A. (1921), On the 'probable error' of a coefficient of correlation deduced from "
    "a small sample, Metron 1."
)

#: other names users give interval methods
METHOD_ALIASES = {"beta": "clopper_pearson", "exact": "clopper_pearson", "fleiss": "kappa_asymptotic",
            "normal": "wald", "fisher": "fisher_z", "bca_bootstrap": "bca"}
PROPORTION_METHODS = ("wilson", "agresti_coull", "clopper_pearson", "jeffreys", "wald")


# ---------------------------------------------------------------------------------------------
# binomial proportion intervals
def proportion_interval(
    count: Any, nobs: Any, level: float = 0.95, method: str = "wilson"
) -> tuple[np.ndarray, np.ndarray]:
    r"""Interval for a binomial proportion ``count / nobs`` (vectorised; NaN where nobs = 0).

    With :math:`\hat p = x/n`, :math:`z = \Phi^{-1}(1 - \alpha/2)`:

    * Wilson: :math:`\frac{x + z^2/2}{n + z^2} \pm \frac{z}{n + z^2}\sqrt{x(n-x)/n + z^2/4}`;
    * Agresti--Coull: :math:`\tilde p \pm z\sqrt{\tilde p(1-\tilde p)/\tilde n}` with
      :math:`\tilde n = n + z^2`, :math:`\tilde p = (x + z^2/2)/\tilde n`, clipped to [0, 1];
    * Clopper--Pearson: :math:`[B(\alpha/2; x, n-x+1),\ B(1-\alpha/2; x+1, n-x)]` with ``B`` the
      beta quantile (0 when x = 0, 1 when x = n);
    * Wald: :math:`\hat p \pm z\sqrt{\hat p(1-\hat p)/n}`, clipped to [0, 1].

    Non-integer (weighted) counts are accepted and treated as counts. The Wald and
    Agresti--Coull bounds are clipped to [0, 1], as statsmodels' ``proportion_confint`` does.

    References
    ----------
    Wilson (1927); Agresti and Coull (1998); Clopper and Pearson (1934); Brown, Cai and DasGupta
    (2001), who recommend Wilson (or Agresti--Coull for n >= 40) over Wald and Clopper--Pearson.

    Parameters
    ----------
    count, nobs : float or array-like
        Successes and trials (broadcast against each other).
    level : float, default 0.95
        Confidence level.
    method : {'wilson', 'agresti_coull', 'clopper_pearson', 'jeffreys', 'wald'}
        Aliases 'beta' and 'exact' (Clopper--Pearson) and 'normal' (Wald) are accepted.
        ``'jeffreys'`` is the equal-tailed interval of the posterior Beta(x + 1/2, n - x + 1/2)
        under Jeffreys' prior, with the lower bound 0 at x = 0 and the upper bound 1 at
        x = n, as Brown, Cai and DasGupta (2001, section 4.1.2) define it (statsmodels'
        ``method='jeffreys'`` leaves the beta quantile there).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Lower and upper bounds, within [0, 1].

    Raises
    ------
    TypeError
        ``level`` is not a number, ``method`` not a string, or the counts not numbers.
    ValueError
        ``level`` is not strictly between 0 and 1; ``method`` is not one of the proportion
        methods; a count or number of trials is negative, NaN or infinite; a count exceeds
        its number of trials (beyond the rounding of sums of weights).

    Examples
    --------
    >>> low, high = proportion_interval(8, 10, 0.95, "wilson")
    >>> round(float(low), 4), round(float(high), 4)
    (0.4902, 0.9433)
    """
    level = check_level(level)
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, got {type(method).__name__} {method!r}")
    method = METHOD_ALIASES.get(method.lower(), method.lower())
    if method not in PROPORTION_METHODS:
        raise ValueError(
            f"method must be one of {', '.join(PROPORTION_METHODS)} for a proportion, "
            f"got {method!r}"
        )
    x, n = check_proportion_counts(count, nobs)
    alpha = 1.0 - level
    z = float(z_quantile(1.0 - alpha / 2.0))
    empty = n <= 0
    n_safe = np.where(empty, 1.0, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "wilson":
            z2 = z * z
            center = (x + z2 / 2.0) / (n_safe + z2)
            half = z / (n_safe + z2) * np.sqrt(np.maximum(x * (n_safe - x) / n_safe, 0.0) + z2 / 4.0)
            low, high = center - half, center + half
            # at x = 0 (x = n) the bound is 0 (1) exactly: center and half are equal there,
            # but rounded apart (2.8e-17 at n = 10), which a report printed as a bound
            low = np.where(x <= 0, 0.0, low)
            high = np.where(x >= n_safe, 1.0, high)
        elif method == "agresti_coull":
            nt = n_safe + z * z
            pt = (x + z * z / 2.0) / nt
            half = z * np.sqrt(pt * (1.0 - pt) / nt)
            low, high = pt - half, pt + half
        elif method == "wald":
            p = x / n_safe
            half = z * np.sqrt(p * (1.0 - p) / n_safe)
            low, high = p - half, p + half
        elif method == "jeffreys":
            beta = scipy_stats().beta
            a, b = x + 0.5, n_safe - x + 0.5
            low = np.where(x <= 0, 0.0, beta.ppf(alpha / 2.0, a, b))
            high = np.where(x >= n_safe, 1.0, beta.ppf(1.0 - alpha / 2.0, a, b))
        else:  # clopper_pearson
            beta = scipy_stats().beta
            low = np.where(x <= 0, 0.0, _beta_low_quantile(alpha / 2.0, x, n_safe - x + 1.0))
            high = np.where(x >= n_safe, 1.0, beta.ppf(1.0 - alpha / 2.0, x + 1.0,
                                                        np.maximum(n_safe - x, 1e-300)))
    low = np.clip(low, 0.0, 1.0)
    high = np.clip(high, 0.0, 1.0)
    return np.where(empty, np.nan, low), np.where(empty, np.nan, high)


def _beta_low_quantile(p: float, a: Any, b: Any) -> Any:
    """The ``p`` quantile of Beta(a, b) for ``p <= 1/2``, also where it is below the floats.

    SciPy's ``beta.ppf`` stops at the smallest normal float (2.2e-308) where the quantile is
    smaller, and gives 1.8e-12 for a subnormal ``a`` (an exact Clopper-Pearson bound at a
    subnormal weighted count is 0). There the quantile is the root of the leading term
    ``I_q(a, b) = q^a / (a B(a, b)) (1 + O(q))`` (DLMF 8.17.7), whose relative error is
    ``O(q / a)``, far below rounding once ``q < 1e-300``.
    """
    a = np.asarray(a, dtype=float)
    special = scipy_special()
    floor = np.maximum(a, 1e-300)  # boost overflows at a subnormal shape
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        log_q = (np.log(p) + np.log(floor) + special.betaln(floor, b)) / a
        tiny = (log_q < np.log(1e-300)) | (a < 1e-300)
        return np.where(tiny, np.exp(np.where(tiny, log_q, 0.0)),
                        scipy_stats().beta.ppf(p, floor, b))


# ---------------------------------------------------------------------------------------------
# kappa and MCC
def kappa_standard_error(counts: Any, weights: str | None = None) -> tuple[float, float]:
    r"""Cohen's (weighted) kappa and its large-sample standard error (Fleiss, Cohen, Everitt 1969).

    With cell proportions :math:`p_{ij}`, margins :math:`p_{i\cdot}, p_{\cdot j}` and agreement
    weights :math:`w_{ij} = 1 - v_{ij}/\max v` (``v`` the disagreement weights of
    :func:`~confmat.metrics.overall.kappa`; identity for unweighted kappa),
    :math:`\bar w_{i\cdot} = \sum_j p_{\cdot j} w_{ij}`, :math:`\bar w_{\cdot j} = \sum_i p_{i\cdot}
    w_{ij}`, :math:`p_e = \sum w_{ij} p_{i\cdot} p_{\cdot j}`:

    .. math::
        \widehat{\mathrm{Var}}(\hat\kappa) = \frac{\sum_{ij} p_{ij}\,[w_{ij} - (\bar w_{i\cdot}
        + \bar w_{\cdot j})(1-\hat\kappa)]^2 - [\hat\kappa - p_e(1-\hat\kappa)]^2}{N (1-p_e)^2}.

    Parameters
    ----------
    counts : array-like of shape (K, K)
        The confusion matrix (rows = true class): finite, non-negative counts or sums of
        weights.
    weights : {None, 'linear', 'quadratic'}
        The disagreement weights of weighted kappa.

    Returns
    -------
    (float, float)
        Kappa and its standard error (NaN for an empty table, a single class or chance
        agreement 1). Where the variance is 0 (e.g. one rater gives a single class, so kappa
        is 0 on every table with those margins), rounding may leave it a little below 0: the
        SE is then 0, where statsmodels' ``cohens_kappa`` takes the square root of the
        negative rounding error and reports NaN.

    Raises
    ------
    TypeError
        Counts that are not numbers.
    ValueError
        A table that is not square, negative, NaN or infinite counts, or ``weights`` other
        than None, 'linear' and 'quadratic'.

    Examples
    --------
    >>> kap, se = kappa_standard_error([[20, 5], [10, 15]])
    >>> round(kap, 3), round(se, 4)
    (0.4, 0.127)
    """
    terms = kappa_terms(counts, weights)
    if terms is None:
        return float("nan"), float("nan")
    n, w, p, wr, wc, pe, kap = terms
    core = (p * (w - (wr[:, None] + wc[None, :]) * (1.0 - kap)) ** 2).sum()
    var = (core - (kap - pe * (1.0 - kap)) ** 2) / (n * (1.0 - pe) ** 2)
    return float(kap), float(np.sqrt(max(var, 0.0)))


def kappa_terms(counts: Any, weights: str | None) -> tuple[Any, ...] | None:
    r"""The parts of kappa's large-sample variances (Fleiss, Cohen and Everitt 1969), after the
    checks of :func:`kappa_standard_error`.

    Parameters
    ----------
    counts : array-like of shape (K, K)
        The confusion matrix (rows = true class).
    weights : {None, 'linear', 'quadratic'}
        The disagreement weights of weighted kappa.

    Returns
    -------
    tuple or None
        ``(N, w, p, wbar_row, wbar_col, p_e, kappa)``: the total, the agreement weights, the
        cell proportions, :math:`\bar w_{i\cdot}`, :math:`\bar w_{\cdot j}`, the chance
        agreement and kappa; None where kappa is undefined (an empty table, a single class,
        chance agreement 1).

    Examples
    --------
    >>> n, w, p, wr, wc, pe, kap = kappa_terms([[20, 5], [10, 15]], None)
    >>> float(n), round(float(pe), 4), round(float(kap), 4)
    (50.0, 0.5, 0.4)
    """
    bind_params(get_metric("kappa"), {"weights": weights})
    c = check_table(counts, "counts").astype(np.float64)
    n = c.sum()
    k = c.shape[0]
    v = kappa_weights(k, weights)
    if n <= 0 or k < 2 or v.max() == 0:
        return None
    w = 1.0 - v / v.max()
    p = c / n
    r = p.sum(axis=1)
    q = p.sum(axis=0)
    po = (w * p).sum()
    pe = (w * np.outer(r, q)).sum()
    if pe >= 1.0:
        return None
    return n, w, p, w @ q, r @ w, pe, (po - pe) / (1.0 - pe)


def fisher_z_interval(r: Any, n: Any, level: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Fisher's z interval :math:`\tanh(\operatorname{atanh} r \pm z_{1-\alpha/2}/\sqrt{N-3})`.

    Its standard error is that of the Pearson correlation of a bivariate *normal* pair. For the
    phi coefficient of a 2 x 2 table the variance of atanh(phi) is larger and depends on the
    margins: the coverage study (docs/inference.md) finds 0.58-0.61 at 10 % prevalence and about
    0.88 with balanced classes, at every N. Prefer the BCa bootstrap.

    Parameters
    ----------
    r : float or array-like
        Correlation coefficients (MCC / phi) in [-1, 1] (a computed value past it by
        rounding only is taken as -1 or 1); NaN (an undefined MCC) gives NaN bounds.
    n : float or array-like
        Sample sizes, finite and non-negative; NaN bounds where ``n <= 3`` (the standard
        error ``1 / sqrt(n - 3)`` does not exist).
    level : float
        Confidence level.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Lower and upper bounds.

    Raises
    ------
    TypeError
        ``level`` is not a number, or ``r`` or ``n`` hold something else than numbers.
    ValueError
        ``level`` is not strictly between 0 and 1, ``r`` lies outside [-1, 1], or ``n`` is
        negative, NaN or infinite.

    Examples
    --------
    >>> low, high = fisher_z_interval(0.5, 103, 0.95)
    >>> round(float(low), 4), round(float(high), 4)
    (0.3393, 0.6323)
    """
    level = check_level(level)
    r = check_numbers(r, "r")
    n = check_numbers(n, "n")
    with np.errstate(invalid="ignore"):
        outside = np.abs(r) > 1.0 + COUNT_SLACK  # a computed MCC may pass 1 by rounding
    if outside.any():
        raise ValueError(f"r must lie in [-1, 1] (a correlation), found "
                         f"{float(r[outside].flat[0])!r}")
    if not np.isfinite(n).all() or (n < 0).any():
        bad = float(n[~np.isfinite(n) | (n < 0)].flat[0])
        raise ValueError(f"n must hold finite, non-negative sample sizes, found {bad!r}")
    z = float(z_quantile(0.5 + level / 2.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        center = np.arctanh(np.clip(r, -1.0, 1.0))
        half = z / np.sqrt(n - 3.0)
        low, high = np.tanh(center - half), np.tanh(center + half)
    bad = n <= 3
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high)
