r"""Score-based metrics (ROC AUC, average precision): DeLong's test and the sample-level bootstrap.

Scores are continuous, so the confusion table is no longer a sufficient statistic; these
functions work on the samples. The sample-level bootstrap (vectorised over resamples, see
:mod:`confmat.inference.score_resampling`; its names are importable from here too) serves
:func:`score_ci` for average precision and multiclass scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs.targets import binary_target, encoded_truth
from .common import check_level, check_n_resamples, check_random_state, norm_cdf, z_quantile
from .intervals import REF_DAVISON, REF_EFRON, ConfidenceInterval, bootstrap_interval
from .roc_delong import delong_covariance_sorted
from .score_resampling import SCORE_METRICS as SCORE_METRICS
from .score_resampling import need_both_classes
from .score_resampling import score_bootstrap as score_bootstrap
from .score_resampling import score_metric as score_metric
from .score_resampling import score_metric_name as score_metric_name

REF_DELONG = (
    "DeLong, E. R., DeLong, D. M., Clarke-Pearson, D. L. (1988), Comparing the areas under two "
    "or more correlated receiver operating characteristic curves: a nonparametric approach, "
    "Biometrics 44(3)."
)
REF_SUN_XU = (
    "Sun, X., Xu, W. (2014), Fast implementation of DeLong's algorithm for comparing the areas "
    "under correlated receiver operating characteristic curves, IEEE Signal Process. Lett. "
    "21(11)."
)


# ---------------------------------------------------------------------------------------------
# DeLong: the covariance of correlated AUCs has one implementation, one sort per score vector
# (:func:`confmat.inference.roc_delong.delong_covariance_sorted`, Sun and Xu 2014's midranks)
delong_covariance = delong_covariance_sorted


@dataclass(frozen=True)
class DeLongResult:
    """DeLong's test of two correlated ROC AUCs (DeLong et al. 1988; Sun and Xu 2014).

    Parameters
    ----------
    auc_a, auc_b : float
        The ROC AUC of each model.
    covariance : ndarray, shape (2, 2)
        The DeLong covariance of the two AUCs.
    difference : float
        ``auc_a - auc_b``.
    statistic : float
        The z statistic of the difference.
    pvalue : float
        The two-sided p-value of "equal AUC".
    low, high : float
        The confidence interval of the difference.
    level : float
        Its confidence level.
    method : str, default 'delong'
        The method.
    references : tuple of str
        DeLong et al. (1988); Sun and Xu (2014).

    Examples
    --------
    >>> r = delong([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9], [.3, .2, .6, .7, .1, .4])
    >>> round(r.auc_a, 4), r.auc_b, round(r.difference, 4)
    (0.8889, 1.0, -0.1111)
    """

    auc_a: float
    auc_b: float
    covariance: np.ndarray
    difference: float
    statistic: float
    pvalue: float
    low: float
    high: float
    level: float
    method: str = "delong"
    references: tuple[str, ...] = (REF_DELONG, REF_SUN_XU)

    @property
    def z(self) -> float:
        """The z statistic of the test (the same as ``statistic``, in standard-normal units)."""
        return self.statistic

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {
            "method": self.method, "auc_a": self.auc_a, "auc_b": self.auc_b,
            "covariance": self.covariance.tolist(), "difference": self.difference,
            "statistic": self.statistic, "pvalue": self.pvalue, "low": self.low,
            "high": self.high, "level": self.level, "references": list(self.references),
        }


def delong(
    y_true: Any, score_a: Any, score_b: Any, *, pos_label: Any = None, level: float = 0.95
) -> DeLongResult:
    r"""DeLong's test for two correlated ROC AUCs on the same samples (fast midrank algorithm).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary truth.
    score_a, score_b : array-like of shape (n,)
        Scores of the two models (higher = more positive).
    pos_label : label, optional
        The positive class (1 / True by default for {0, 1}, {-1, 1} or boolean labels).
    level : float
        Level of the interval reported for ``auc_a - auc_b``.

    Returns
    -------
    DeLongResult
        ``auc_a``, ``auc_b``, their 2 x 2 ``covariance``, ``difference``, ``statistic`` (z),
        two-sided ``pvalue`` and the Wald interval ``low``/``high`` of the difference.

    Notes
    -----
    :math:`z = (\hat\theta_a - \hat\theta_b) / \sqrt{S_{aa} + S_{bb} - 2 S_{ab}}`, compared with
    the standard normal. The covariance is computed from midranks in :math:`O(n \log n)`
    (Sun and Xu, 2014) instead of the :math:`O(mn)` placement values of DeLong et al. (1988);
    the two agree exactly. If the variance of the difference is 0 (identical rankings) the
    p-value is 1 when the AUCs are equal.

    Examples
    --------
    >>> r = delong([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9], [.1, .2, .3, .4, .5, .6])
    >>> round(r.auc_a, 4), round(r.auc_b, 4)
    (0.8889, 0.7778)
    """
    level = check_level(level)
    y_true = encoded_truth(y_true)  # read once for both scores
    ta = binary_target(y_true, score_a, pos_label, None, "score_a")
    pos = ta.pos
    need_both_classes(pos)
    a = ta.score
    b = binary_target(y_true, score_b, ta.pos_label, None, "score_b").score
    auc, cov = delong_covariance(pos, np.vstack([a, b]))
    diff = float(auc[0] - auc[1])
    var = float(cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1])
    if var <= 1e-300:
        z = 0.0 if diff == 0 else float(np.sign(diff) * np.inf)
    else:
        z = diff / np.sqrt(var)
    p = float(2.0 * norm_cdf(-abs(z)))
    half = float(z_quantile(0.5 + level / 2.0)) * np.sqrt(max(var, 0.0))
    return DeLongResult(float(auc[0]), float(auc[1]), cov, diff, float(z), p,
                        float(diff - half), float(diff + half), level)


def score_ci(
    y_true: Any,
    y_score: Any,
    metric: str = "roc_auc",
    *,
    level: float = 0.95,
    method: str = "auto",
    n_resamples: int = 2000,
    random_state: Any = None,
    pos_label: Any = None,
    average: str = "macro",
    labels: Any = None,
) -> ConfidenceInterval:
    """Confidence interval for ROC AUC or average precision.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_score : array-like of shape (n,) or (n, K)
        Scores of the positive class, or one column per class (K >= 3).
    metric : {'roc_auc', 'average_precision'}
        The metric (aliases ``'auc'``, ``'auroc'``, ``'ap'``).
    level : float, default 0.95
        Confidence level.
    method : {'auto', 'delong', 'percentile', 'basic'}
        ``'delong'`` (binary ROC AUC only): :math:`\\hat\\theta \\pm z\\sqrt{S}` with DeLong's
        variance, clipped to [0, 1]. The bootstrap methods resample the samples (``n_resamples``
        times, stratification none). ``'auto'`` is DeLong for binary ROC AUC and percentile
        otherwise.
    n_resamples : int, default 2000
        Bootstrap resamples (at least 100, and enough for both tails of ``level``).
    random_state : None, int or numpy.random.Generator
        Seed of the resampling.
    pos_label : label, optional
        The positive class of binary scores (see
        :func:`confmat.inputs.targets.resolve_pos_label`).
    average, labels
        For multiclass scores ``(n, K)``: one-vs-rest average (``'macro'`` or ``'weighted'``)
        and the classes of the columns, as in :func:`score_metric`.

    Returns
    -------
    ConfidenceInterval
        ``estimate``, ``low``, ``high`` of the metric at ``level``.

    Raises
    ------
    ValueError
        Unknown ``metric`` or ``method``; ``'delong'`` for average precision or multiclass
        scores; ``y_true`` of one class.

    Notes
    -----
    Resamples that lack a class are left out.

    Examples
    --------
    >>> ci = score_ci([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9])
    >>> ci.method, round(ci.estimate, 4)
    ('delong', 0.8889)
    """
    level = check_level(level)
    name = score_metric_name(metric)
    if name is None:
        raise ValueError(f"metric must be one of {SCORE_METRICS}, got {metric!r}")
    raw = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    multiclass = raw.ndim == 2 and raw.shape[1] >= 3
    if method == "auto":
        method = "delong" if name == "roc_auc" and not multiclass else "percentile"
    if method == "delong":
        if name != "roc_auc" or multiclass:
            raise ValueError("method='delong' applies to binary metric='roc_auc' only")
        b = binary_target(y_true, y_score, pos_label)
        pos, s = b.pos, b.score
        need_both_classes(pos)
        auc, cov = delong_covariance(pos, s[None, :])
        half = float(z_quantile(0.5 + level / 2.0)) * np.sqrt(max(cov[0, 0], 0.0))
        return ConfidenceInterval(
            float(max(0.0, auc[0] - half)), float(min(1.0, auc[0] + half)), float(auc[0]), name,
            "delong",
            level, references=(REF_DELONG, REF_SUN_XU))
    if method not in ("percentile", "basic"):
        raise ValueError(
            f"method must be 'auto', 'delong', 'percentile' or 'basic', got {method!r}"
        )
    n_used = check_n_resamples(n_resamples, level)
    rng = check_random_state(random_state)
    est, boot = score_bootstrap(y_true, [y_score], name, n_used, rng, pos_label,
                                average=average, labels=labels)
    low, high = bootstrap_interval(boot[:, 0], est[0], level, method)
    return ConfidenceInterval(float(low), float(high), float(est[0]), name, method, level,
                              n_resamples=n_used, references=(REF_EFRON, REF_DAVISON))
