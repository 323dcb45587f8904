"""Power and sample size of tests on ROC areas from data, as pROC's ``power.roc.test`` on
``roc`` objects (Robin et al. 2011): the areas and their per-case variances and covariance
estimated from a sample - DeLong's, Obuchowski's binormal (Obuchowski & McClish 1997) or a
paired bootstrap's (Efron & Tibshirani 1993) - then the formulas of
:mod:`confmat.inference.power`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ..curves.partial import REF_ROBIN
from ..inputs.options import check_flag
from ..inputs.targets import binary_target, check_scores_1d
from .common import check_n_resamples, check_random_state
from .intervals import REF_EFRON
from .power import (
    METHODS,
    REF_OBUCHOWSKI_1997,
    REF_OBUCHOWSKI_2004,
    PowerResult,
    power_roc_test,
    power_roc_test_variances,
)
from .roc_boot import Curves, ScoreGroups
from .roc_delong import delong_covariance_sorted as delong_covariance
from .roc_obuchowski import obuchowski_covariance
from .roc_test import resample_two_curves

__all__ = ["bootstrap_variances", "power_roc_test_data"]


def bootstrap_variances(values_a: np.ndarray, values_b: np.ndarray, n_cases: int
                        ) -> tuple[float, float, float, int]:
    """Per-case variances and covariance of two areas from their paired bootstrap values, as
    pROC's ``power.roc.test(..., method="bootstrap")`` takes them: sample variances and
    covariance (denominator ``B - 1``) over the resamples where both areas are defined,
    times the number of cases.

    Parameters
    ----------
    values_a, values_b : ndarray of shape (B,)
        The two areas on each resample (nan: undefined, e.g. a pooled resample without a
        class).
    n_cases : int
        Positives of the sample.

    Returns
    -------
    var_a, var_b, cov_ab : float
    used : int
        Resamples kept.

    Raises
    ------
    ValueError
        Fewer than two resamples with both areas defined.

    Examples
    --------
    >>> v = bootstrap_variances(np.array([0.7, 0.8, 0.9]), np.array([0.6, 0.6, 0.9]), 10)
    >>> [round(x, 12) for x in v]  # 10 * (0.01, 0.03, 0.015); 3 resamples used
    [0.1, 0.3, 0.15, 3]
    """
    keep = ~(np.isnan(values_a) | np.isnan(values_b))
    used = int(np.count_nonzero(keep))
    if used < 2:
        raise ValueError(f"only {used} bootstrap resample(s) have both classes: the variances "
                         "cannot be estimated (use stratified=True or more samples)")
    c = np.cov(values_a[keep], values_b[keep], ddof=1)
    return (float(c[0, 0]) * n_cases, float(c[1, 1]) * n_cases, float(c[0, 1]) * n_cases,
            used)


def power_roc_test_data(
    y_true: Any,
    score_a: Any,
    score_b: Any = None,
    *,
    sig_level: float | None = 0.05,
    power: float | None = None,
    kappa: float | None = None,
    alternative: str = "two-sided",
    method: str = "delong",
    fpr: Any = None,
    tpr: Any = None,
    n_resamples: int = 2000,
    stratified: bool = True,
    random_state: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> PowerResult:
    """Power or sample size from observed ROC curves (pROC's ``power.roc.test(roc1, roc2)``).

    One curve: its AUC is the expected AUC of :func:`power_roc_test`. With ``sig_level`` and
    ``power`` both given the sample size is solved (``kappa`` defaults to the observed
    controls per case); otherwise the observed numbers of cases and controls are used and the
    missing one of ``power`` / ``sig_level`` is solved. Two curves (paired: the same samples
    scored by two models): the observed difference of the areas with DeLong's (``method=
    'delong'``), Obuchowski's binormal (``'obuchowski'``) or bootstrap (``'bootstrap'``)
    variances and covariance, per case (:func:`power_roc_test_variances`).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    score_a : array-like of shape (n,)
        Scores of the first model.
    score_b : array-like of shape (n,), optional
        Scores of the second model on the same samples.
    sig_level, power : float or None
        One of them None, or both given to solve the sample size.
    kappa : float, optional
        Controls per case of the solved sample size (default: as observed).
    alternative : {'two-sided', 'one-sided'}, default='two-sided'
    method : {'delong', 'obuchowski', 'bootstrap'}, default='delong'
        Variances of two curves. ``'bootstrap'``: the sample variances and covariance
        (denominator ``B - 1``) of the two areas over ``n_resamples`` paired resamples, times
        the number of cases, as pROC's ``method="bootstrap"`` (its ``cov(roc1, roc2,
        boot.return=TRUE)``, Robin et al. 2011).
    fpr : pair of float, optional
        The false-positive-rate range ``(low, high)`` of partial areas, i.e. the specificity
        range ``(1 - high, 1 - low)``, with ``method='obuchowski'`` or ``'bootstrap'``.
    tpr : pair of float, optional
        A sensitivity (true-positive-rate) range of partial areas, with
        ``method='bootstrap'`` only (pROC refuses Obuchowski's variance there). Give at most
        one of ``fpr`` and ``tpr``. The areas are uncorrected (pROC refuses McClish-corrected
        areas for power); DeLong's variance is not offered for partial areas here (pROC stops), and
        pROC's one-curve ``power.roc.test`` silently takes the full AUC: those cases are
        errors here.
    n_resamples : int, default=2000
        Bootstrap resamples (``method='bootstrap'``; pROC's ``boot.n``).
    stratified : bool, default=True
        Resample the cases and the controls separately (pROC's ``boot.stratified``);
        otherwise all samples together, leaving out resamples that lack a class.
    random_state : None, int or numpy.random.Generator
        Seed of the bootstrap.
    pos_label : label, optional
    sample_weight : None
        Not supported (the variances are those of unweighted samples); anything but None is
        an error.

    Returns
    -------
    PowerResult
        With ``n_resamples`` the resamples used by the bootstrap.

    Raises
    ------
    ValueError
        ``sample_weight`` given; a class missing; neither ``sig_level`` nor ``power`` given;
        the conditions of :func:`power_roc_test`; an unknown method; invalid labels or scores;
        two curves whose difference has no positive variance (e.g. identical scores); ``fpr``
        or ``tpr`` not two distinct numbers in [0, 1], both given, given with one curve or
        with ``method='delong'``, ``tpr`` with ``method='obuchowski'``; ``method=
        'bootstrap'`` with one curve (pROC ignores the method there: the one-curve formula
        has no data variance); too few resamples; a curve the binormal fit cannot smooth
        (``'obuchowski'``).
    TypeError
        ``n_resamples`` not an integer, ``stratified`` not a bool, a bad ``random_state``.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1, 0, 1]
    >>> a = [.1, .4, .35, .8, .7, .9, .2, .3]
    >>> r = power_roc_test_data(y, a)  # AUC 0.8125, 4 cases, 4 controls
    >>> r.solved, round(r.power, 9)  # pROC: 0.458715736942
    ('power', 0.458715737)
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> a, b = rng.normal(size=200) + 1.2 * y, rng.normal(size=200) + 0.6 * y
    >>> r = power_roc_test_data(y, a, b, method="obuchowski", fpr=(0, 0.2), power=0.8)
    >>> r.solved, round(r.n_cases, 6)  # pROC (partial.auc = c(1, 0.8)): 6.459789863
    ('n', 6.45979)
    >>> r = power_roc_test_data(y, a, b, method="bootstrap", tpr=(0.9, 1), power=0.8,
    ...                         random_state=0)
    >>> r.solved, r.n_resamples, bool(r.n_cases > 0)
    ('n', 2000, True)
    """
    if sample_weight is not None:
        raise ValueError("sample_weight is not supported by power_roc_test_data: DeLong's, "
                         "Obuchowski's and the bootstrap's variances are those of unweighted "
                         "samples; repeat samples instead of weighting them")
    if method not in METHODS:
        raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")
    partial, range_text = _partial_range(fpr, tpr, score_b is not None, method)
    n_used, rng = 0, None
    if method == "bootstrap":
        if score_b is None:
            raise ValueError("method='bootstrap' needs two curves (score_b): the power of one "
                             "curve uses Obuchowski's variance of its AUC, not a variance "
                             "from data (pROC's one-curve power.roc.test ignores method)")
        n_used = check_n_resamples(n_resamples, 0.95)
        check_flag(stratified, "stratified")
        rng = check_random_state(random_state)
    bt = binary_target(y_true, score_a, pos_label, None, "score_a")
    m, n = int(bt.pos.sum()), int((~bt.pos).sum())
    if m == 0 or n == 0:
        raise ValueError("power_roc_test_data needs both classes in y_true")
    if score_b is None:
        auc1 = float(delong_covariance(bt.pos, bt.score[None, :])[0][0])
        if not 0.0 < auc1 < 1.0:  # pROC returns NaN there
            raise ValueError(f"the AUC of score_a is {auc1!r}: the classes are separated, and "
                             "Obuchowski's variance of one curve needs an AUC in (0, 1)")
        if sig_level is not None and power is not None:
            return power_roc_test(auc=auc1, kappa=float(n / m) if kappa is None else kappa,
                                  sig_level=sig_level, power=power, alternative=alternative)
        return power_roc_test(auc=auc1, n_cases=m, n_controls=n, sig_level=sig_level,
                              power=power, alternative=alternative)
    sb = check_scores_1d(score_b, bt.pos.shape[0], "score_b")
    if power is None and sig_level is None:
        raise ValueError("give sig_level, power or both (to solve the sample size)")
    scores = np.vstack([bt.score, sb])
    desc = f"two paired ROC curves ({method} variance)"
    used = None
    if method == "delong":
        auc, cov = delong_covariance(bt.pos, scores)
        v1, v2, c12 = float(cov[0, 0]) * m, float(cov[1, 1]) * m, float(cov[0, 1]) * m
        refs: tuple[str, ...] = (REF_ROBIN, REF_OBUCHOWSKI_2004)
    elif method == "obuchowski":
        auc, (v1, v2, c12) = _obuchowski(bt.pos, scores, partial)
        refs = (REF_ROBIN, REF_OBUCHOWSKI_1997)
    else:
        assert rng is not None
        auc, (v1, v2, c12, used) = _bootstrap(bt.pos, scores, partial, bool(stratified),
                                              n_used, rng, m)
        refs = (REF_ROBIN, REF_OBUCHOWSKI_1997, REF_EFRON)
        desc = (f"two paired ROC curves (bootstrap variance, {used} of {n_used} "
                f"{'stratified' if stratified else 'pooled'} resamples)")
    if range_text:
        desc = desc.replace("two paired ROC curves",
                            f"two paired ROC curves, partial areas over {range_text}")
    # the sample's own cases and controls, unless the sample size is what is solved
    sized = power is None or sig_level is None
    res = power_roc_test_variances(
        var_a=v1, var_b=v2, cov_ab=c12, delta=float(auc[0] - auc[1]),
        n_cases=float(m) if sized else None, n_controls=float(n) if sized else None,
        kappa=n / m if kappa is None else kappa, sig_level=sig_level, power=power,
        alternative=alternative)
    return replace(res, auc=(float(auc[0]), float(auc[1])), method=desc, references=refs,
                   n_resamples=used)


def _partial_range(fpr: Any, tpr: Any, two: bool, method: str
                   ) -> tuple[tuple[str, float, float] | None, str]:
    """pROC's (focus, low, high) of the partial areas of ``fpr=`` / ``tpr=`` (or None), and
    the range in words."""
    if fpr is None and tpr is None:
        return None, ""
    from ..curves.partial import check_range

    if fpr is not None and tpr is not None:
        raise ValueError("give at most one of fpr= (a false-positive-rate range) and tpr= (a "
                         "sensitivity range)")
    name = "fpr" if fpr is not None else "tpr"
    lo, hi = check_range(fpr if fpr is not None else tpr, name)
    if not two:
        raise ValueError(f"{name} (a partial area) needs two curves (score_b): Obuchowski's "
                         "one-curve formula is for the full area, and pROC's "
                         "power.roc.test of one curve ignores a partial area")
    if method == "delong":
        raise ValueError(f"{name} (a partial area) needs method='obuchowski' or 'bootstrap': "
                         "pROC stops on DeLong's variance of partial areas, and confmat's DeLong-type one "
                         "(roc_test, partial_auc_ci) is not validated for power")
    if name == "tpr":
        if method == "obuchowski":
            raise ValueError("tpr (a sensitivity range) needs method='bootstrap': "
                             "Obuchowski's partial-area variance is for a false-positive-rate "
                             "range (pROC stops too)")
        return ("sensitivity", lo, hi), f"sensitivity [{lo:g}, {hi:g}]"
    # pROC's specificity range of FPR [lo, hi]
    return ("specificity", 1.0 - hi, 1.0 - lo), f"FPR [{lo:g}, {hi:g}]"


def _obuchowski(pos: np.ndarray, scores: np.ndarray, partial: tuple[str, float, float] | None
                ) -> tuple[np.ndarray, tuple[float, float, float]]:
    auc, cov = obuchowski_covariance(pos, scores, None if partial is None else partial[1:])
    return auc, (float(cov[0, 0]), float(cov[1, 1]), float(cov[0, 1]))


def _bootstrap(pos: np.ndarray, scores: np.ndarray, partial: tuple[str, float, float] | None,
               stratified: bool, n_used: int, rng: np.random.Generator, m: int
               ) -> tuple[np.ndarray, tuple[float, float, float, int]]:
    groups = [ScoreGroups.build(pos, s) for s in scores]
    area = None if partial is None else (*partial, False)
    auc = np.array([float(Curves.from_counts(*g.base_counts()).area(area)[0])
                    for g in groups])

    def value(c: Curves) -> np.ndarray:
        return c.area(area)

    va, vb = resample_two_curves(groups[0], groups[1], paired=True, stratified=stratified,
                                 n_resamples=n_used, rng=rng,
                                 quantity=None if area is None else value)
    return auc, bootstrap_variances(va, vb, m)
