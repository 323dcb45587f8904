r"""Bootstrap confidence intervals of the ROC curve and of its partial area, as pROC's
``ci.se``, ``ci.sp``, ``ci.thresholds`` and ``ci.auc(partial.auc=...)`` (Robin et al. 2011),
and the normal interval of the partial area with its DeLong-type variance.

Each resample redraws the negatives and the positives separately (``stratified=True``, pROC's
default) or all samples together, builds the resampled empirical ROC curve and reads from it
the sensitivity at each requested specificity (or the reverse), the two rates at each requested
threshold, or the partial area. The interval is the percentile interval of the resampled values
(Efron and Tibshirani 1993; quantiles with R's default type 7, as pROC), the median is
reported beside it. All resamples are computed together from counts per distinct score
(:mod:`confmat.inference.roc_boot`), not one curve at a time.

Sensitivity at a given specificity follows pROC's ``coords``: when some point of the curve has
exactly that specificity, the highest sensitivity among those points; otherwise the straight
line between the two points of the curve around it. Specificity at a given sensitivity is the
mirror image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..curves.partial import REF_MCCLISH, REF_ROBIN, mcclish, resolve_focus
from ..inputs.options import check_flag
from ..inputs.targets import BinaryTarget, binary_target
from .common import (
    check_level,
    check_n_resamples,
    check_random_state,
    chunk_rows,
    z_quantile,
)
from .intervals import REF_EFRON, ConfidenceInterval
from .roc_boot import Curves, ScoreGroups, draw, percentile_rows
from .roc_delong import delong_covariance_sorted, partial_delong_covariance
from .roc_fused import resampled_se_at_sp
from .scores import REF_DELONG

CI_METHODS = ("bootstrap", "delong")

_BUDGET = 4_000_000


@dataclass(frozen=True)
class RocBand:
    """Point estimates and percentile intervals of one rate at several points of the curve.

    Parameters
    ----------
    rate : str
        ``'sensitivity'`` or ``'specificity'``.
    estimate, low, median, high : ndarray of shape (Q,)
        The rate on the sample's own curve, and the bootstrap quantiles.

    Examples
    --------
    >>> one = np.array([0.5])
    >>> RocBand("sensitivity", one, one, one, one).to_dict()["low"]
    [0.5]
    """

    rate: str
    estimate: np.ndarray
    low: np.ndarray
    median: np.ndarray
    high: np.ndarray

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (nan becomes None).

        Returns
        -------
        dict
        """
        def conv(a: np.ndarray) -> list[float | None]:
            return [None if np.isnan(v) else float(v) for v in a]

        return {"rate": self.rate, "estimate": conv(self.estimate), "low": conv(self.low),
                "median": conv(self.median), "high": conv(self.high)}


@dataclass(frozen=True)
class RocCI:
    """Bootstrap intervals of points of a ROC curve (:func:`roc_ci`).

    Parameters
    ----------
    given : str
        What was fixed: ``'specificity'``, ``'sensitivity'`` or ``'threshold'``.
    at : ndarray of shape (Q,)
        The fixed values.
    sensitivity, specificity : RocBand or None
        The intervals of each rate that was estimated (both for thresholds).
    level : float
    n_resamples : int
        Resamples drawn.
    n_used : int
        Resamples kept (unstratified resamples that lack a class are left out).
    stratified : bool
    references : tuple of str

    Examples
    --------
    >>> ci = roc_ci([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], thresholds=0.4, n_resamples=200,
    ...             random_state=0)
    >>> ci.given, ci.sensitivity.estimate.tolist(), ci.specificity.estimate.tolist()
    ('threshold', [0.5], [0.5])
    """

    given: str
    at: np.ndarray
    sensitivity: RocBand | None
    specificity: RocBand | None
    level: float
    n_resamples: int
    n_used: int
    stratified: bool
    references: tuple[str, ...] = field(default=(REF_ROBIN, REF_EFRON))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {"given": self.given, "at": self.at.tolist(),
                "sensitivity": None if self.sensitivity is None else self.sensitivity.to_dict(),
                "specificity": None if self.specificity is None else self.specificity.to_dict(),
                "level": self.level, "n_resamples": self.n_resamples, "n_used": self.n_used,
                "stratified": self.stratified, "references": list(self.references)}


def _check_values(values: Any, name: str, unit: bool) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(values))
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iuf" or arr.dtype == bool:
        raise TypeError(f"{name} must be a number or a non-empty 1-D sequence of numbers, "
                        f"got {values!r}")
    arr = arr.astype(np.float64)
    if unit and (np.isnan(arr).any() or (arr < 0).any() or (arr > 1).any()):
        raise ValueError(f"{name} must lie within [0, 1], got {arr.tolist()[:10]}")
    if not unit and np.isnan(arr).any():
        raise ValueError(f"{name} must not contain nan")
    return arr


def _no_weights(sample_weight: Any, func: str) -> None:
    if sample_weight is not None:
        raise ValueError(f"sample_weight is not supported by {func}: its bootstrap resamples "
                         "samples, and a weighted resample has no agreed definition; "
                         "repeat samples instead of weighting them")


def _both_classes(y_true: Any, y_score: Any, pos_label: Any, func: str) -> BinaryTarget:
    b = binary_target(y_true, y_score, pos_label)
    n_pos = int(np.count_nonzero(b.pos))
    if n_pos == 0 or n_pos == b.pos.shape[0]:
        raise ValueError(f"y_true must contain both classes for {func}; it holds only "
                         f"{b.pos_label if n_pos else b.neg_label!r}")
    return b


class _Source:
    """The sample split into groups, and how to draw resample counts from it."""

    def __init__(self, y_true: Any, y_score: Any, pos_label: Any, func: str) -> None:
        b = _both_classes(y_true, y_score, pos_label, func)
        self.n_pos = int(np.count_nonzero(b.pos))
        self.n_neg = int(b.pos.shape[0] - self.n_pos)
        self.groups = ScoreGroups.build(b.pos, b.score)
        self.n = b.pos.shape[0]

    def sample_curve(self) -> Curves:
        return Curves.from_counts(*self.groups.base_counts())

    def chunks(self, n_resamples: int, rng: np.random.Generator,
               stratified: bool) -> Any:
        """Curves of successive chunks of resamples."""
        for idx in self.draws(n_resamples, rng, stratified):
            if stratified:
                yield self.groups.stratified_curves(*idx)
            else:
                yield self.groups.pooled_curves(idx[0])

    def draws(self, n_resamples: int, rng: np.random.Generator,
              stratified: bool) -> Any:
        """Index tables of successive chunks of resamples: (negatives, positives) when
        stratified, else (all samples,)."""
        width = max(self.n, 2 * self.groups.size)
        for start, stop in chunk_rows(n_resamples, width, _BUDGET):
            rows = stop - start
            if stratified:
                yield draw(rng, rows, self.n_neg), draw(rng, rows, self.n_pos)
            else:
                yield (draw(rng, rows, self.n),)


def roc_ci(
    y_true: Any,
    y_score: Any,
    *,
    specificities: Any = None,
    sensitivities: Any = None,
    thresholds: Any = None,
    level: float = 0.95,
    n_resamples: int = 2000,
    stratified: bool = True,
    random_state: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> RocCI:
    """Bootstrap confidence intervals of points of the ROC curve.

    pROC's ``ci.se`` (sensitivity at given specificities), ``ci.sp`` (specificity at given
    sensitivities) and ``ci.thresholds`` (both rates at given thresholds), Robin et al. 2011.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (two classes, or any labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Finite scores; higher means more likely positive.
    specificities, sensitivities, thresholds : float or sequence of float
        Give exactly one. Rates lie in [0, 1]; at a threshold ``t`` a sample is positive when
        ``score >= t``.
    level : float, default=0.95
        Confidence level of the percentile intervals.
    n_resamples : int, default=2000
        Bootstrap resamples.
    stratified : bool, default=True
        Resample negatives and positives separately (their counts stay fixed), as pROC does
        by default; otherwise resample all samples together and leave out resamples that
        lack a class.
    random_state : None, int or numpy.random.Generator
        Seed of the resampling.
    pos_label : label, optional
        The positive class.
    sample_weight : None
        Not supported (the bootstrap resamples samples); anything else raises.

    Returns
    -------
    RocCI
        ``sensitivity`` and/or ``specificity`` bands: ``estimate`` (on the sample's curve),
        ``low``, ``median``, ``high`` per requested point.

    Raises
    ------
    ValueError
        Not exactly one of the three inputs, rates outside [0, 1], one class only,
        ``sample_weight`` given, too few resamples for the level.
    TypeError
        Non-numeric inputs, ``stratified`` not a bool.

    Examples
    --------
    The curve of ``y = [0, 0, 1, 1]``, ``s = [0.1, 0.4, 0.35, 0.8]`` passes through
    (specificity, sensitivity) = (0.5, 0.5) and (0.5, 1): at specificity 0.5 the best of the
    two, 1.0; at 0.75 the middle of the segment from (1, 0.5) to (0.5, 0.5), 0.5.

    >>> ci = roc_ci([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], specificities=[0.5, 0.75],
    ...             n_resamples=500, random_state=1)
    >>> ci.sensitivity.estimate.tolist()
    [1.0, 0.5]
    >>> bool((ci.sensitivity.low <= ci.sensitivity.high).all())
    True
    """
    given = [k for k, v in (("specificity", specificities), ("sensitivity", sensitivities),
                            ("threshold", thresholds)) if v is not None]
    if len(given) != 1:
        raise ValueError("give exactly one of specificities=, sensitivities= or thresholds=")
    kind = given[0]
    raw = {"specificity": specificities, "sensitivity": sensitivities,
           "threshold": thresholds}[kind]
    arg = {"specificity": "specificities", "sensitivity": "sensitivities",
           "threshold": "thresholds"}[kind]
    at = _check_values(raw, arg, kind != "threshold")
    level = check_level(level)
    n_used = check_n_resamples(n_resamples, level)
    strat = check_flag(stratified, "stratified")
    rng = check_random_state(random_state)
    _no_weights(sample_weight, "roc_ci")
    src = _Source(y_true, y_score, pos_label, "roc_ci")
    k = None
    if kind == "threshold":
        # groups with score >= t come first (scores decrease)
        k = np.searchsorted(-src.groups.scores, -at, side="right")

    def evaluate(c: Curves) -> list[np.ndarray]:
        if kind == "specificity":
            return [c.at_specificity(at)]
        if kind == "sensitivity":
            return [c.at_sensitivity(at)]
        return list(c.at_groups(k))  # type: ignore[arg-type]

    est = evaluate(src.sample_curve())
    parts: list[list[np.ndarray]] = [[] for _ in est]
    if kind == "specificity" and strat:  # pROC's ci.se: one compiled pass per resample
        for neg, pos in src.draws(n_used, rng, strat):
            parts[0].append(resampled_se_at_sp(src.groups, neg, pos, at))
    else:
        for c in src.chunks(n_used, rng, strat):
            for i, v in enumerate(evaluate(c)):
                parts[i].append(v)
    boot = [np.concatenate(p, axis=0) for p in parts]
    keep = ~np.any([np.isnan(b).any(axis=1) for b in boot], axis=0)
    rates = {"specificity": ["sensitivity"], "sensitivity": ["specificity"],
             "threshold": ["sensitivity", "specificity"]}[kind]
    bands: dict[str, RocBand] = {}
    used = 0
    for name, e, b in zip(rates, est, boot, strict=True):
        low, med, high, used = percentile_rows(b[keep], level)
        bands[name] = RocBand(name, e[0], low, med, high)
    return RocCI(kind, at, bands.get("sensitivity"), bands.get("specificity"), level, n_used,
                 used, strat)


def partial_auc_ci(
    y_true: Any,
    y_score: Any,
    *,
    specificity: Any = None,
    sensitivity: Any = None,
    correct: bool = False,
    level: float = 0.95,
    method: str = "bootstrap",
    n_resamples: int = 2000,
    stratified: bool = True,
    random_state: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> ConfidenceInterval:
    r"""Confidence interval of the partial AUC: the percentile bootstrap (pROC's ``ci.auc``
    of a partial area, ``method='bootstrap'``) or the normal interval with a DeLong-type
    variance (``method='delong'``, which pROC refuses for a partial area).

    Without a range, the full AUC is used (its ``'delong'`` interval is DeLong et al.'s 1988,
    as :func:`confmat.inference.scores.score_ci`).

    Parameters
    ----------
    y_true, y_score, pos_label
        As :func:`confmat.curves.partial.partial_auc`.
    specificity, sensitivity : pair of float, optional
        The range (at most one); neither means the full area.
    correct : bool, default=False
        McClish's (1989) standardisation. Resampled curves under the diagonal keep their
        (below 0.5) standardised value, as in pROC.
    level : float, default=0.95
        Confidence level.
    method : {'bootstrap', 'delong'}, default='bootstrap'
        ``'bootstrap'``: the percentile interval of ``n_resamples`` resampled areas (as
        :func:`roc_ci`). ``'delong'``: :math:`\hat A \pm z_{(1+level)/2}\,\widehat{se}`,
        with the variance of DeLong et al.'s (1988) structural components clipped to the
        range (:func:`confmat.inference.roc_delong.partial_delong_covariance`; for a
        McClish-standardised area the variance times the square of the standardisation's
        slope), clipped to the values the area can take: ``[0, high - low]``, or for the
        standardised area the image of that range, ``[mcclish(0), 1]``. No resampling.
    n_resamples, stratified, random_state
        As :func:`roc_ci`; used by ``'bootstrap'`` only.
    sample_weight : None
        Not supported; anything else raises.

    Returns
    -------
    ConfidenceInterval
        ``estimate`` (nan if the corrected area of the sample is undefined; the
        ``'delong'`` interval is then centred on the standardised value below 0.5), ``low``,
        ``high``; ``metric`` ``'partial_auc'`` (or ``'roc_auc'``), ``method``
        ``'percentile'`` or ``'delong'``.

    Raises
    ------
    ValueError
        Both ranges, a bad range, an unknown method, one class only, ``sample_weight``
        given.

    Examples
    --------
    >>> from confmat.curves.partial import partial_auc
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> s = rng.normal(size=300) + y
    >>> ci = partial_auc_ci(y, s, specificity=(0.8, 1), n_resamples=500, random_state=1)
    >>> ci.estimate == partial_auc(y, s, specificity=(0.8, 1)), ci.low < ci.estimate < ci.high
    (True, True)
    >>> d = partial_auc_ci(y, s, specificity=(0.8, 1), method="delong")
    >>> d.method, d.estimate == ci.estimate, d.low < d.estimate < d.high
    ('delong', True, True)
    """
    partial: tuple[str, float, float, bool] | None = None
    if specificity is not None or sensitivity is not None:
        partial = (*resolve_focus(specificity, sensitivity), bool(correct))
    level = check_level(level)
    if method not in CI_METHODS:
        raise ValueError(f"method must be 'bootstrap' or 'delong', got {method!r}")
    metric = "roc_auc" if partial is None else "partial_auc"
    if method == "delong":
        if sample_weight is not None:
            raise ValueError("sample_weight is not supported by partial_auc_ci: DeLong's "
                             "components are those of unweighted samples, as for the full "
                             "AUC; repeat samples instead of weighting them")
        return _delong_interval(_both_classes(y_true, y_score, pos_label, "partial_auc_ci"),
                                partial, level, metric)
    n_used = check_n_resamples(n_resamples, level)
    strat = check_flag(stratified, "stratified")
    rng = check_random_state(random_state)
    _no_weights(sample_weight, "partial_auc_ci")
    src = _Source(y_true, y_score, pos_label, "partial_auc_ci")
    est = float(src.sample_curve().area(partial)[0])
    if partial is not None and partial[3] and est < 0.5:
        est = float("nan")  # McClish's correction is undefined under the diagonal
    vals = np.concatenate([c.area(partial) for c in src.chunks(n_used, rng, strat)])
    low, _, high, _ = percentile_rows(vals[:, None], level)
    refs = (REF_ROBIN, REF_EFRON) if partial is None else (REF_MCCLISH, REF_ROBIN, REF_EFRON)
    return ConfidenceInterval(float(low[0]), float(high[0]), est, metric, "percentile", level,
                              n_resamples=n_used, references=refs)


def _delong_interval(b: BinaryTarget, partial: tuple[str, float, float, bool] | None,
                     level: float, metric: str) -> ConfidenceInterval:
    if partial is None:
        area, cov = delong_covariance_sorted(b.pos, b.score[None, :])
        floor, ceiling = 0.0, 1.0
        refs: tuple[str, ...] = (REF_DELONG, REF_ROBIN)
    else:
        area, cov = partial_delong_covariance(b.pos, b.score[None, :], partial)
        _, lo, hi, correct = partial
        floor, ceiling = (float(mcclish(0.0, lo, hi)), 1.0) if correct else (0.0, hi - lo)
        refs = (REF_DELONG, REF_MCCLISH, REF_ROBIN)
    centre = float(area[0])
    half = float(z_quantile(0.5 + level / 2.0)) * float(np.sqrt(max(cov[0, 0], 0.0)))
    est = centre
    if partial is not None and partial[3] and centre < 0.5:
        est = float("nan")  # McClish's correction is undefined under the diagonal
    return ConfidenceInterval(max(floor, centre - half), min(ceiling, centre + half), est,
                              metric, "delong", level, references=refs)


__all__ = ["RocBand", "RocCI", "partial_auc_ci", "roc_ci"]
