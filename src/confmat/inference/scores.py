r"""Score-based metrics (ROC AUC, average precision): DeLong's test and the sample-level bootstrap.

Scores are continuous, so the confusion table is no longer a sufficient statistic; these
functions work on the samples. The sample-level bootstrap is vectorised all the same: a resample
is a vector of multiplicities ``w`` (how often each sample was drawn), and the weighted AUC and
average precision of ``B`` resamples are computed from one sort of the scores as ``(B, n)``
cumulative sums. Paired resampling uses the same ``w`` for both models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs.encode import as_1d, py_scalar
from ..inputs.targets import binary_target, check_scores_2d, encode_truth
from .common import (
    check_level,
    check_n_resamples,
    check_random_state,
    chunk_rows,
    norm_cdf,
    z_quantile,
)
from .intervals import REF_DAVISON, REF_EFRON, ConfidenceInterval, bootstrap_interval

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

SCORE_METRICS = ("roc_auc", "average_precision")
_SCORE_ALIASES = {"auc": "roc_auc", "roc_auc": "roc_auc", "auroc": "roc_auc",
                  "average_precision": "average_precision", "ap": "average_precision"}


def score_metric_name(name: Any) -> str | None:
    """Canonical score-metric name, or None if ``name`` is not a score metric.

    Parameters
    ----------
    name : any
        A name such as ``'auc'``, ``'AUROC'`` or ``'ap'``.

    Returns
    -------
    str or None
        ``'roc_auc'``, ``'average_precision'`` or None.

    Examples
    --------
    >>> score_metric_name("AUROC"), score_metric_name("accuracy")
    ('roc_auc', None)
    """
    if not isinstance(name, str):
        return None
    return _SCORE_ALIASES.get(name.strip().lower().replace("-", "_"))


def _need_both(pos: np.ndarray) -> None:
    m = int(pos.sum())
    if m == 0 or m == pos.size:
        raise ValueError(
            "y_true contains only one class; ROC AUC needs positive and negative samples"
        )


# ---------------------------------------------------------------------------------------------
# DeLong
def _midranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n with ties given their average rank (O(n log n))."""
    order = np.argsort(x, kind="mergesort")
    xs = x[order]
    n = x.size
    starts = np.flatnonzero(np.r_[True, xs[1:] != xs[:-1]])
    ends = np.r_[starts[1:], n]
    avg = (starts + ends + 1) / 2.0
    ranks = np.empty(n)
    ranks[order] = np.repeat(avg, ends - starts)
    return ranks


def delong_components(pos: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                    np.ndarray]:
    r"""AUCs and DeLong structural components of ``scores`` (shape (M, n)) by midranks.

    Sun and Xu (2014): with ``m`` positives ``X`` and ``n`` negatives ``Y``, and midranks
    :math:`T_X` (within positives), :math:`T_Y` (within negatives), :math:`T_Z` (all samples),
    :math:`\hat\theta = (\sum_{i} T_Z(X_i) - m(m+1)/2) / (mn)`,
    :math:`V_{10}(X_i) = (T_Z(X_i) - T_X(X_i))/n`, :math:`V_{01}(Y_j) = 1 - (T_Z(Y_j) -
    T_Y(Y_j))/m`.

    Parameters
    ----------
    pos : ndarray of bool, shape (N,)
        Which samples are positive; both classes must be present.
    scores : ndarray of float64, shape (M, N)
        The scores of M models on the same samples.

    Returns
    -------
    auc : ndarray, shape (M,)
        The AUC of each model.
    v10 : ndarray, shape (M, m)
        The structural components of the positives.
    v01 : ndarray, shape (M, n)
        The structural components of the negatives.

    Examples
    --------
    >>> pos = np.array([0, 0, 1, 1, 0, 1], dtype=bool)
    >>> auc, v10, v01 = delong_components(pos, np.array([[.1, .4, .35, .8, .2, .9]]))
    >>> auc.round(4).tolist(), v10.round(4).tolist()
    ([0.8889], [[0.6667, 1.0, 1.0]])
    """
    m = int(pos.sum())
    n = pos.size - m
    auc = np.empty(scores.shape[0])
    v10 = np.empty((scores.shape[0], m))
    v01 = np.empty((scores.shape[0], n))
    for r, s in enumerate(scores):
        tz = _midranks(s)
        tx = _midranks(s[pos])
        ty = _midranks(s[~pos])
        auc[r] = (tz[pos].sum() - m * (m + 1) / 2.0) / (m * n)
        v10[r] = (tz[pos] - tx) / n
        v01[r] = 1.0 - (tz[~pos] - ty) / m
    return auc, v10, v01


def delong_covariance(pos: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""AUCs and their DeLong covariance :math:`S = S_{10}/m + S_{01}/n` (``S_{10}``, ``S_{01}``
    the sample covariances of the structural components).

    Parameters
    ----------
    pos : ndarray of bool, shape (N,)
        Which samples are positive; both classes must be present.
    scores : ndarray of float64, shape (M, N)
        The scores of M models on the same samples.

    Returns
    -------
    auc : ndarray, shape (M,)
        The AUC of each model.
    covariance : ndarray, shape (M, M)
        Their covariance (a class of one sample contributes zero).

    Examples
    --------
    >>> pos = np.array([0, 0, 1, 1, 0, 1], dtype=bool)
    >>> auc, cov = delong_covariance(pos, np.array([[.1, .4, .35, .8, .2, .9]]))
    >>> round(float(cov[0, 0] * 81), 6)  # 1/81 from the positives plus 1/81 from the negatives
    2.0
    """
    auc, v10, v01 = delong_components(pos, scores)
    m, n = v10.shape[1], v01.shape[1]
    s10 = np.atleast_2d(np.cov(v10)) if m > 1 else np.zeros((auc.size, auc.size))
    s01 = np.atleast_2d(np.cov(v01)) if n > 1 else np.zeros((auc.size, auc.size))
    return auc, s10 / m + s01 / n


@dataclass(frozen=True)
class DeLongResult:
    """DeLong's test of two correlated ROC AUCs (DeLong et al. 1988; Sun and Xu 2014).

    Returned by :func:`delong`.

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
            Every field (``covariance`` as nested lists, ``references`` as a list).
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
    ta = binary_target(y_true, score_a, pos_label, None, "score_a")
    pos = ta.pos
    _need_both(pos)
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


# ---------------------------------------------------------------------------------------------
# weighted (resampled) AUC and average precision
class _Sorted:
    """Scores sorted once, with tie groups, reused by every resample."""

    def __init__(self, pos: np.ndarray, score: np.ndarray) -> None:
        self.order = np.argsort(score, kind="mergesort")
        s = score[self.order]
        self.pos = pos[self.order]
        self.starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])

    def groups(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Weighted positives and negatives per tie group, ascending score: (B, G) each."""
        ws = w[:, self.order]
        p = np.add.reduceat(np.where(self.pos, ws, 0.0), self.starts, axis=1)
        q = np.add.reduceat(np.where(self.pos, 0.0, ws), self.starts, axis=1)
        return p, q


def weighted_auc(srt: _Sorted, w: np.ndarray) -> np.ndarray:
    r"""ROC AUC with sample multiplicities ``w`` (B, n): :math:`\sum_g P_g (N_{<g} + N_g/2) /
    (P\,N)`, ties counting one half (the Mann--Whitney form).

    Parameters
    ----------
    srt : _Sorted
        The scores of one binary problem, sorted once, with their tie groups.
    w : ndarray of float64, shape (B, n)
        Multiplicities of the samples in each of ``B`` resamples (sample order).

    Returns
    -------
    ndarray of float64, shape (B,)
        NaN where a resample lacks a class.
    """
    p, q = srt.groups(w)
    below = np.cumsum(q, axis=1) - q
    num = (p * (below + 0.5 * q)).sum(axis=1)
    den = p.sum(axis=1) * q.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def weighted_average_precision(srt: _Sorted, w: np.ndarray) -> np.ndarray:
    r"""Average precision :math:`\sum_t (R_t - R_{t-1}) P_t` over distinct thresholds (descending
    score), as scikit-learn's ``average_precision_score``, with multiplicities ``w``.

    Parameters
    ----------
    srt : _Sorted
        The scores of one binary problem, sorted once, with their tie groups.
    w : ndarray of float64, shape (B, n)
        Multiplicities of the samples in each of ``B`` resamples (sample order).

    Returns
    -------
    ndarray of float64, shape (B,)
        NaN where a resample holds no positive.
    """
    p, q = srt.groups(w)
    p, q = p[:, ::-1], q[:, ::-1]
    tp = np.cumsum(p, axis=1)
    fp = np.cumsum(q, axis=1)
    total = tp[:, -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(tp + fp > 0, tp / np.where(tp + fp > 0, tp + fp, 1.0), 0.0)
        ap = (p * prec).sum(axis=1) / np.where(total > 0, total, 1.0)
    return np.where(total > 0, ap, np.nan)


_SCORE_FUNCS = {"roc_auc": weighted_auc, "average_precision": weighted_average_precision}
_AVERAGES = ("macro", "weighted")


class _OneVsRest:
    """Multiclass scores (n, K) as K one-vs-rest problems, sorted once each.

    The metric of a resample is the mean of the K per-class values (``macro``) or their mean
    weighted by the classes' supports in that resample (``weighted``), as scikit-learn's
    ``roc_auc_score(multi_class="ovr")`` and ``average_precision_score`` on binarised labels.
    """

    def __init__(self, y_true: Any, y_score: np.ndarray, name: str, labels: Any,
                 average: str) -> None:
        if average not in _AVERAGES:
            raise ValueError(f"average must be one of {_AVERAGES} for multiclass scores, "
                             f"got {average!r}")
        y = as_1d(y_true, "y_true")
        k = y_score.shape[1]
        if labels is None:
            classes = np.asarray(encode_truth(y)[0], dtype=y.dtype if y.dtype != object else object)
        else:
            classes = np.asarray(list(labels), dtype=y.dtype if y.dtype != object else object)
            if len(set(classes.tolist())) != len(classes):
                raise ValueError("labels must not repeat a class")
        if len(classes) != k:
            raise ValueError(
                f"{name} has {k} columns but there are {len(classes)} classes "
                f"({classes.tolist()[:10]}); give one score column per class, in label order"
            )
        unknown = ~np.isin(y, classes)
        if unknown.any():
            raise ValueError(f"y_true contains label {py_scalar(y[unknown][0])!r} not in labels "
                             f"{classes.tolist()[:10]}")
        self.average = average
        self.pos = np.stack([y == c for c in classes])  # (K, n)
        for c, p in zip(classes.tolist(), self.pos, strict=True):
            if not p.any() or p.all():
                raise ValueError(
                    f"class {c!r} has no {'samples' if not p.any() else 'negatives'} in y_true: "
                    "its one-vs-rest score metric is undefined"
                )
        self.parts = [_Sorted(p, y_score[:, j]) for j, p in enumerate(self.pos)]

    def evaluate(self, func: Any, w: np.ndarray) -> np.ndarray:
        vals = np.stack([func(part, w) for part in self.parts], axis=1)  # (B, K)
        if self.average == "macro":
            return vals.mean(axis=1)
        support = w @ self.pos.T.astype(np.float64)  # (B, K)
        total = support.sum(axis=1)
        with np.errstate(invalid="ignore"):
            return (vals * support).sum(axis=1) / total


def _evaluator(y_true: Any, y_score: Any, name: str, pos_label: Any, labels: Any,
               average: str) -> tuple[Any, int]:
    """(evaluator of (B, n) multiplicities, n) for binary (n,) or multiclass (n, K) scores."""
    raw = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if raw.ndim == 2 and raw.shape[1] >= 3:
        if pos_label is not None:
            raise ValueError("pos_label applies to binary scores; multiclass scores (n, K) "
                             "make each class positive in turn")
        n = as_1d(y_true, "y_true").shape[0]
        ovr = _OneVsRest(y_true, check_scores_2d(raw, n, name), name, labels, average)
        return ovr.evaluate, n
    b = binary_target(y_true, y_score, pos_label, None, name)
    _need_both(b.pos)
    srt = _Sorted(b.pos, b.score)
    return (lambda func, w: func(srt, w)), b.pos.size


def score_metric(y_true: Any, y_score: Any, metric: str = "roc_auc", *, pos_label: Any = None,
                 average: str = "macro", labels: Any = None) -> float:
    """ROC AUC or average precision (no resampling).

    Binary scores are ``(n,)``, of ``pos_label``. Multiclass scores are ``(n, K)``, one column
    per class in the order of ``labels`` (default: the sorted classes of ``y_true``), averaged
    one-vs-rest: ``average='macro'`` or ``'weighted'`` (by class support).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_score : array-like of shape (n,) or (n, K)
        Scores of the positive class, or one column per class (K >= 3).
    metric : str, default 'roc_auc'
        ``'roc_auc'`` or ``'average_precision'`` (aliases ``'auc'``, ``'auroc'``, ``'ap'``).
    pos_label : label, optional
        The positive class of binary scores (see
        :func:`confmat.inputs.targets.resolve_pos_label`); not with multiclass scores.
    average : {'macro', 'weighted'}, default 'macro'
        One-vs-rest average of multiclass scores.
    labels : array-like, optional
        The class of each column of multiclass scores.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        An unknown metric or ``average``, ``pos_label`` with multiclass scores, columns that
        do not match the classes, a class without samples or without negatives, or invalid
        labels or scores.

    Examples
    --------
    >>> score_metric([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> round(score_metric([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9], "ap"), 6)
    0.916667
    """
    name = score_metric_name(metric)
    if name is None:
        raise ValueError(f"metric must be one of {SCORE_METRICS}, got {metric!r}")
    evaluate, n = _evaluator(y_true, y_score, "y_score", pos_label, labels, average)
    return float(evaluate(_SCORE_FUNCS[name], np.ones((1, n)))[0])


def resample_weights(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """Multiplicities of ``size`` bootstrap resamples of ``n`` samples: (size, n) counts.

    Parameters
    ----------
    n : int
        Samples.
    size : int
        Resamples.
    rng : numpy.random.Generator
        The random generator (advanced).

    Returns
    -------
    ndarray of float64, shape (size, n)
        How often each sample was drawn; every row sums to ``n``.

    Examples
    --------
    >>> w = resample_weights(4, 3, np.random.default_rng(0))
    >>> w.shape, w.sum(axis=1).tolist()
    ((3, 4), [4.0, 4.0, 4.0])
    """
    idx = rng.integers(0, n, size=(size, n))
    flat = (idx + (np.arange(size) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=size * n).reshape(size, n).astype(np.float64)


def score_bootstrap(
    y_true: Any,
    scores: dict[str, Any] | list[Any],
    metric: str,
    n_resamples: int,
    rng: np.random.Generator,
    pos_label: Any = None,
    *,
    average: str = "macro",
    labels: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Point estimates (M,) and paired bootstrap values (B, M) of a score metric for M models
    (binary ``(n,)`` or multiclass ``(n, K)`` scores, as in :func:`score_metric`).

    Every model is evaluated on the same resamples (the same multiplicities), so the values
    are paired.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    scores : dict of str to array-like, or list of array-like
        The scores of each model (a dict's keys name them in error messages).
    metric : str
        ``'roc_auc'`` or ``'average_precision'`` (or an alias).
    n_resamples : int
        Number of resamples ``B`` (validated by the caller).
    rng : numpy.random.Generator
        The random generator (advanced).
    pos_label : label, optional
        The positive class of binary scores.
    average : {'macro', 'weighted'}, default 'macro'
        One-vs-rest average of multiclass scores.
    labels : array-like, optional
        The class of each column of multiclass scores.

    Returns
    -------
    estimates : ndarray, shape (M,)
        The metric of each model on the samples.
    values : ndarray, shape (B, M)
        The metric of each model on each resample (NaN where a resample lacks a class).

    Raises
    ------
    ValueError
        As :func:`score_metric`.

    Examples
    --------
    >>> est, boot = score_bootstrap([0, 0, 1, 1, 0, 1], {"a": [.1, .4, .35, .8, .2, .9]},
    ...                             "roc_auc", 100, np.random.default_rng(0))
    >>> est.round(4).tolist(), boot.shape
    ([0.8889], (100, 1))
    """
    name = score_metric_name(metric)
    if name is None:
        raise ValueError(f"metric must be one of {SCORE_METRICS}, got {metric!r}")
    items = list(scores.items()) if isinstance(scores, dict) else [
        (f"score_{i}", s) for i, s in enumerate(scores)]
    evals = [_evaluator(y_true, s, str(k), pos_label, labels, average) for k, s in items]
    n = evals[0][1]
    func = _SCORE_FUNCS[name]
    ones = np.ones((1, n))
    est = np.array([ev(func, ones)[0] for ev, _ in evals])
    out = np.empty((n_resamples, len(evals)))
    for start, stop in chunk_rows(n_resamples, n, budget=2_000_000):
        w = resample_weights(n, stop - start, rng)
        for j, (ev, _) in enumerate(evals):
            out[start:stop, j] = ev(func, w)
    return est, out


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
        _need_both(pos)
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
