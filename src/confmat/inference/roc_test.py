r"""Tests between two ROC curves, as pROC's ``roc.test`` (Robin et al. 2011).

Paired curves are two score vectors on the same samples; unpaired curves come from two
samples (``y_true_b`` given). Methods:

- ``'delong'``: paired, :math:`z = (A_a - A_b)/\sqrt{S_{aa} + S_{bb} - 2S_{ab}}` with DeLong
  et al.'s (1988) covariance; unpaired, a Welch-type :math:`t = (A_a - A_b)/\sqrt{S_a + S_b}`
  with :math:`\nu = (S_a + S_b)^2 / (S_a^2/(n_a - 1) + S_b^2/(n_b - 1))` degrees of freedom
  (pROC's unpaired DeLong test). For partial areas the same statistics with the covariance
  of the structural components clipped to the range
  (:func:`confmat.inference.roc_delong.partial_delong_covariance`); pROC refuses DeLong's
  test of partial areas.
- ``'bootstrap'``: :math:`D = (\hat\theta_a - \hat\theta_b)/\mathrm{sd}(\theta^*_a -
  \theta^*_b)` over resamples (stratified by class by default, the same resample for both
  curves when paired), compared with the standard normal (Hanley and McNeil 1983's form as
  pROC uses it). :math:`\theta` is the AUC, a partial AUC, the sensitivity at a fixed
  specificity (``method='specificity'``) or the specificity at a fixed sensitivity
  (``method='sensitivity'``).
- ``'venkatraman'``: Venkatraman and Begg's (1996) paired permutation test of equal curves
  (every operating point, not just the area): :math:`E = \sum_k |e_b(k) - e_a(k)|` with
  :math:`e(k)` the errors (false negatives plus false positives) when the ``k`` lowest
  ranked samples are called negative; the p-value is the share of permutations (random
  exchange of the two models' ranks within each sample, ties broken at random) with a
  statistic at least as large. Venkatraman (2000) for unpaired curves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..curves.partial import REF_MCCLISH, REF_ROBIN
from ..inputs.options import check_choice, check_flag
from ..inputs.targets import encoded_truth
from .common import (
    check_level,
    check_n_resamples,
    check_random_state,
    chunk_rows,
    norm_cdf,
    scipy_stats,
    z_quantile,
)
from .intervals import REF_EFRON
from .roc_boot import Curves, ScoreGroups, draw
from .roc_delong import delong_covariance_sorted as delong_covariance
from .roc_delong import partial_delong_covariance
from .roc_fused import resampled_auc
from .roc_inputs import RocCurveInput, resolve_partial
from .scores import REF_DELONG

REF_VENKATRAMAN = (
    "Venkatraman, E. S., Begg, C. B. (1996), A distribution-free procedure for comparing "
    "receiver operating characteristic curves from a paired experiment, Biometrika 83(4), "
    "835-848."
)
REF_VENKATRAMAN_2000 = (
    "Venkatraman, E. S. (2000), A permutation test to compare receiver operating "
    "characteristic curves, Biometrics 56(4), 1134-1138."
)
REF_HANLEY = (
    "Hanley, J. A., McNeil, B. J. (1983), A method of comparing the areas under receiver "
    "operating characteristic curves derived from the same cases, Radiology 148(3), 839-843."
)

METHODS = ("delong", "bootstrap", "venkatraman", "specificity", "sensitivity")
ALTERNATIVES = ("two-sided", "less", "greater")


@dataclass(frozen=True)
class RocTestResult:
    """The outcome of :func:`roc_test`.

    Parameters
    ----------
    method : str
    paired : bool
    statistic : float
        z (paired DeLong, bootstrap), t (unpaired DeLong) or E (Venkatraman).
    pvalue : float
    alternative : str
    estimate_a, estimate_b : float
        The compared quantities (nan for Venkatraman's test, which compares whole curves).
    df : float or None
        Degrees of freedom of the unpaired DeLong test.
    low, high : float or None
        Interval of ``estimate_a - estimate_b`` (paired DeLong only).
    n_resamples : int or None
        Resamples or permutations drawn.
    references : tuple of str

    Examples
    --------
    >>> r = roc_test([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9], [.1, .2, .3, .4, .5, .6])
    >>> sorted(r.to_dict())[:3]
    ['alternative', 'df', 'estimate_a']
    """

    method: str
    paired: bool
    statistic: float
    pvalue: float
    alternative: str
    estimate_a: float
    estimate_b: float
    df: float | None = None
    low: float | None = None
    high: float | None = None
    n_resamples: int | None = None
    references: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict
        """
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def _p_normal(z: float, alternative: str) -> float:
    if alternative == "two-sided":
        return float(2.0 * norm_cdf(-abs(z)))
    return float(norm_cdf(-z) if alternative == "greater" else norm_cdf(z))


def _p_t(t: float, df: float, alternative: str) -> float:
    dist = scipy_stats().t
    if alternative == "two-sided":
        return float(2.0 * dist.cdf(-abs(t), df))
    return float(dist.cdf(-t, df) if alternative == "greater" else dist.cdf(t, df))


def _unit(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise TypeError(f"{name} must be a number in [0, 1], got {value!r}")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name} must lie within [0, 1], got {value!r}")
    return float(value)


def roc_test(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    y_true_b: Any = None,
    method: str = "delong",
    alternative: str = "two-sided",
    specificity: Any = None,
    sensitivity: Any = None,
    partial_specificity: Any = None,
    partial_sensitivity: Any = None,
    correct: bool = False,
    n_resamples: int = 2000,
    stratified: bool = True,
    random_state: Any = None,
    pos_label: Any = None,
    level: float = 0.95,
) -> RocTestResult:
    """Compare two ROC curves (pROC's ``roc.test``).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels of the samples scored by ``score_a`` (and ``score_b`` when paired).
    score_a, score_b : array-like
        Scores of the two models (higher = more positive).
    y_true_b : array-like, optional
        Labels of the samples of ``score_b`` when the curves are unpaired (different
        samples); without it the curves are paired.
    method : {'delong', 'bootstrap', 'venkatraman', 'specificity', 'sensitivity'}
        See the module notes. ``'specificity'`` compares the sensitivities at the
        specificity ``specificity``; ``'sensitivity'`` the specificities at ``sensitivity``.
    alternative : {'two-sided', 'less', 'greater'}
        ``'greater'``: the quantity of curve a exceeds that of b. Venkatraman's test is
        two-sided only.
    specificity, sensitivity : float, optional
        The fixed rate of the methods ``'specificity'`` / ``'sensitivity'``.
    partial_specificity, partial_sensitivity : pair of float, optional
        Compare partial AUCs on this range (methods ``'bootstrap'`` and ``'delong'``),
        McClish-standardised with ``correct=True`` (a curve under the diagonal keeps its
        standardised value below 0.5).
    correct : bool, default=False
    n_resamples : int, default=2000
        Bootstrap resamples or permutations.
    stratified : bool, default=True
        Stratified bootstrap (classes resampled separately).
    random_state : None, int or numpy.random.Generator
    pos_label : label, optional
        The positive class (of both label vectors).
    level : float, default=0.95
        Level of the paired DeLong interval of the difference.

    Returns
    -------
    RocTestResult

    Raises
    ------
    ValueError
        Unknown method or alternative; a missing or misplaced fixed rate or range; a curve
        without both classes; different lengths when paired; Venkatraman one-sided.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> r = roc_test(y, [.1, .4, .35, .8, .2, .9], [.1, .2, .3, .4, .5, .6])
    >>> r.method, r.paired, round(r.estimate_a, 4), round(r.estimate_b, 4)
    ('delong', True, 0.8889, 0.7778)
    """
    method = check_choice(method, METHODS, "method")
    alternative = check_choice(alternative, ALTERNATIVES, "alternative")
    level = check_level(level)
    if (partial_specificity is not None or partial_sensitivity is not None) and method not in (
            "bootstrap", "delong"):
        raise ValueError("partial AUCs are compared with method='bootstrap' or 'delong' "
                         f"(method={method!r} is for whole curves or fixed rates)")
    partial = resolve_partial(partial_specificity, partial_sensitivity, correct)
    at = None
    if method == "specificity":
        at = _unit(specificity, "specificity")
    elif specificity is not None:
        raise ValueError("specificity= is the fixed rate of method='specificity'")
    if method == "sensitivity":
        at = _unit(sensitivity, "sensitivity")
    elif sensitivity is not None:
        raise ValueError("sensitivity= is the fixed rate of method='sensitivity'")
    paired = y_true_b is None
    if paired:  # read once for both curves
        y_true = encoded_truth(y_true)
    a = RocCurveInput(y_true, score_a, pos_label, "score_a")
    b = RocCurveInput(y_true if paired else y_true_b, score_b, a.pos_label, "score_b",
                      "y_true" if paired else "y_true_b")
    if paired and b.pos.shape[0] != a.pos.shape[0]:  # pragma: no cover - the door checks
        raise ValueError("score_a and score_b must score the same samples when paired")
    if method == "delong":
        return _delong(a, b, paired, alternative, level, partial)
    if method == "venkatraman":
        if alternative != "two-sided":
            raise ValueError("Venkatraman's test is two-sided only (alternative='two-sided')")
        n_used = check_n_resamples(n_resamples, 0.95)
        rng = check_random_state(random_state)
        return _venkatraman(a, b, paired, n_used, rng)
    n_used = check_n_resamples(n_resamples, 0.95)
    rng = check_random_state(random_state)
    return _bootstrap(a, b, paired, method, at, partial, check_flag(stratified, "stratified"),
                      n_used, rng, alternative)


def _delong(a: RocCurveInput, b: RocCurveInput, paired: bool, alternative: str, level: float,
            partial: tuple[str, float, float, bool] | None) -> RocTestResult:
    refs: tuple[str, ...] = (REF_DELONG, REF_ROBIN)
    if partial is not None and partial[3]:
        refs = (*refs, REF_MCCLISH)

    def covariance(pos: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if partial is None:
            return delong_covariance(pos, scores)
        return partial_delong_covariance(pos, scores, partial)

    if paired:
        auc, cov = covariance(a.pos, np.vstack([a.score, b.score]))
        diff = float(auc[0] - auc[1])
        var = float(cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1])
        sd = np.sqrt(max(var, 0.0))
        z = diff / sd if sd > 0 else (0.0 if diff == 0 else float(np.sign(diff) * np.inf))
        half = float(z_quantile(0.5 + level / 2.0)) * sd
        return RocTestResult("delong", True, float(z), _p_normal(z, alternative), alternative,
                             float(auc[0]), float(auc[1]), low=diff - half, high=diff + half,
                             references=refs)
    auc_a, va = covariance(a.pos, a.score[None, :])
    auc_b, vb = covariance(b.pos, b.score[None, :])
    sa, sb = float(va[0, 0]), float(vb[0, 0])
    diff = float(auc_a[0] - auc_b[0])
    if sa + sb <= 0:  # two curves without variance (perfect or constant): no t distribution
        z = 0.0 if diff == 0 else float(np.sign(diff) * np.inf)
        return RocTestResult("delong", False, z, _p_normal(z, alternative), alternative,
                             float(auc_a[0]), float(auc_b[0]), df=float("nan"),
                             references=refs)
    t = diff / float(np.sqrt(sa + sb))
    df = (sa + sb) ** 2 / (sa**2 / (a.pos.shape[0] - 1) + sb**2 / (b.pos.shape[0] - 1))
    return RocTestResult("delong", False, t, _p_t(t, df, alternative), alternative,
                         float(auc_a[0]), float(auc_b[0]), df=float(df), references=refs)


def _quantity(c: Curves, method: str, at: float | None,
              partial: tuple[str, float, float, bool] | None) -> np.ndarray:
    if method == "specificity":
        return c.at_specificity(np.array([at]))[:, 0]
    if method == "sensitivity":
        return c.at_sensitivity(np.array([at]))[:, 0]
    return c.area(partial)


def resample_two_curves(
    groups_a: ScoreGroups,
    groups_b: ScoreGroups,
    *,
    paired: bool,
    stratified: bool,
    n_resamples: int,
    rng: np.random.Generator,
    quantity: Callable[[Curves], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A quantity of two ROC curves on each of ``n_resamples`` bootstrap resamples: the
    resampling of pROC's ``roc.test(method="bootstrap")`` and of its bootstrap ``cov``
    (Robin et al. 2011).

    Paired curves (the same samples scored twice) share every resample; unpaired curves are
    resampled independently. The same ``ScoreGroups`` object given twice with ``paired=True``
    (one curve, as for a variance) is evaluated once per resample and its values returned
    twice. Stratified resamples draw the negatives and the positives
    separately (their counts stay fixed); pooled ones draw all samples together, and a
    resample that lacks a class gives nan. Resamples are drawn in chunks (negatives then
    positives of curve a, then those of curve b when unpaired), so a seed gives the same
    numbers whatever uses them.

    Parameters
    ----------
    groups_a, groups_b : ScoreGroups
        The two score vectors (for paired curves, of the same samples in the same order).
    paired : bool
        Reuse the resamples of curve a for curve b.
    stratified : bool
        Resample within each class.
    n_resamples : int
        Number of resamples (validated by the caller).
    rng : numpy.random.Generator
    quantity : callable, optional
        ``Curves -> ndarray of shape (B,)``, evaluated on each chunk of resampled curves;
        None (the default) for the full AUC, computed by the fused kernel without the
        curve tables.

    Returns
    -------
    values_a, values_b : ndarray of shape (n_resamples,)
        The quantity of each curve on every resample (nan where it is undefined).

    Examples
    --------
    >>> pos = np.array([False, False, True, True, False, True])
    >>> ga = ScoreGroups.build(pos, np.array([.1, .4, .35, .8, .2, .9]))
    >>> gb = ScoreGroups.build(pos, np.array([.1, .2, .3, .4, .5, .6]))
    >>> va, vb = resample_two_curves(ga, gb, paired=True, stratified=True, n_resamples=50,
    ...                              rng=np.random.default_rng(0))
    >>> va.shape, bool(((0 <= va) & (va <= 1)).all())
    ((50,), True)
    """
    width = max(groups_a.codes.shape[0] + groups_b.codes.shape[0],
                2 * (groups_a.size + groups_b.size))
    same = paired and groups_b is groups_a  # one curve (a variance): computed once
    out: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])
    for start, stop in chunk_rows(n_resamples, width, 4_000_000):
        rows = stop - start
        shared: tuple[np.ndarray, ...] | None = None
        for g, vals in zip((groups_a, groups_b), out, strict=True):
            if same and vals is out[1]:
                vals.append(out[0][-1])
                continue
            if stratified:
                if shared is None or not paired:
                    shared = (draw(rng, rows, g.neg_codes.shape[0]),
                              draw(rng, rows, g.pos_codes.shape[0]))
            elif shared is None or not paired:
                shared = (draw(rng, rows, g.codes.shape[0]),)
            if quantity is None:  # the full area: no curve tables
                vals.append(resampled_auc(g, shared))
                continue
            if stratified:
                cur = g.stratified_curves(*shared)
            else:
                cur = g.pooled_curves(shared[0])
            vals.append(quantity(cur))
    return np.concatenate(out[0]), np.concatenate(out[1])


def _bootstrap(a: RocCurveInput, b: RocCurveInput, paired: bool, method: str, at: float | None,
               partial: tuple[str, float, float, bool] | None, stratified: bool, n_used: int,
               rng: np.random.Generator, alternative: str) -> RocTestResult:
    curves = [Curves.from_counts(*c.groups.base_counts()) for c in (a, b)]
    est = [float(_quantity(c, method, at, partial)[0]) for c in curves]
    def value(c: Curves) -> np.ndarray:
        return _quantity(c, method, at, partial)

    quantity = None if method == "bootstrap" and partial is None else value
    va, vb = resample_two_curves(a.groups, b.groups, paired=paired, stratified=stratified,
                                 n_resamples=n_used, rng=rng, quantity=quantity)
    d = va - vb
    d = d[~np.isnan(d)]
    sd = float(np.std(d, ddof=1)) if d.size > 1 else float("nan")
    diff = est[0] - est[1]
    if sd > 0:
        z = diff / sd
    else:
        z = 0.0 if diff == 0 else float(np.sign(diff) * np.inf)
    refs: tuple[str, ...] = (REF_HANLEY, REF_EFRON, REF_ROBIN)
    if partial is not None and partial[3]:
        refs = (*refs, REF_MCCLISH)
    return RocTestResult(method, paired, float(z), _p_normal(z, alternative), alternative,
                         est[0], est[1], n_resamples=n_used, references=refs)


def _first_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n along the last axis, ties in order of appearance (R's ties='first')."""
    order = np.argsort(x, axis=-1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, x.shape[-1] + 1), axis=-1)
    return ranks


def venkatraman_paired_statistic(r: np.ndarray, s: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Venkatraman and Begg's E from rank arrays (1..n, along the last axis).

    Parameters
    ----------
    r, s : ndarray of shape (..., n)
        Ranks (a permutation of 1..n) of the two models' scores.
    pos : ndarray of bool, shape (n,)
        True for positives.

    Returns
    -------
    ndarray of shape (...)
        ``sum_k |e_s(k) - e_r(k)|`` with ``e(k) = FN(k) + FP(k)`` when the ``k`` lowest
        ranks are called negative.

    Examples
    --------
    >>> pos = np.array([False, True, True])
    >>> int(venkatraman_paired_statistic(np.array([1, 2, 3]), np.array([2, 1, 3]), pos))
    2
    """
    step = np.where(pos, 1, -1)

    def walk(rank: np.ndarray) -> np.ndarray:
        at = np.zeros(rank.shape, dtype=np.int64)
        np.put_along_axis(at, rank - 1, np.broadcast_to(step, rank.shape), axis=-1)
        return np.cumsum(at, axis=-1)

    return np.abs(walk(s) - walk(r)).sum(axis=-1)


def venkatraman_unpaired_statistic(r: np.ndarray, pos_r: np.ndarray, s: np.ndarray,
                                   pos_s: np.ndarray, mp: float) -> float:
    """Venkatraman's (2000) unpaired statistic: the area between the two curves of expected
    errors drawn against the mixture distribution of the ranks, with mixing proportion ``mp``.

    Parameters
    ----------
    r, s : ndarray
        Ranks (1..n) of each sample's scores within its own sample.
    pos_r, pos_s : ndarray of bool
        Positives of each sample.
    mp : float
        Share of positives in the two samples together.

    Returns
    -------
    float

    Examples
    --------
    >>> p = np.array([False, True])
    >>> venkatraman_unpaired_statistic(np.array([1, 2]), p, np.array([2, 1]), p, 0.5)
    0.25
    """
    def curve(rank: np.ndarray, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = rank.shape[0]
        case_at = np.zeros(n)
        case_at[rank - 1] = pos
        fx = np.cumsum(case_at) / pos.sum()
        gx = np.cumsum(1.0 - case_at) / (n - pos.sum())
        return mp * fx + (1 - mp) * gx, mp * fx + (1 - mp) * (1 - gx)

    rp, re = curve(r, pos_r)
    sp, se = curve(s, pos_s)
    x = np.sort(np.concatenate([rp, sp]))

    def interp(xp: np.ndarray, fp: np.ndarray) -> np.ndarray:
        out = np.interp(x, xp, fp)
        out[(x < xp[0]) | (x > xp[-1])] = np.nan
        return out

    y = np.abs(interp(rp, re) - interp(sp, se))
    seg = (y[1:] + y[:-1]) * (x[1:] - x[:-1]) / 2.0
    return float(np.nansum(seg))


def _venkatraman(a: RocCurveInput, b: RocCurveInput, paired: bool, n_used: int,
                 rng: np.random.Generator) -> RocTestResult:
    refs = (REF_VENKATRAMAN if paired else REF_VENKATRAMAN_2000, REF_ROBIN)
    r = _first_ranks(a.score)
    s = _first_ranks(b.score)
    n = r.shape[0]
    if paired:
        e = float(venkatraman_paired_statistic(r, s, a.pos))
        count = 0
        for start, stop in chunk_rows(n_used, 4 * n, 4_000_000):
            rows = stop - start
            r2 = r + rng.random((rows, n)) - 0.5
            s2 = s + rng.random((rows, n)) - 0.5
            q = rng.random((rows, n)) < 0.5
            r3 = np.where(q, r2, s)
            s3 = np.where(q, s2, r)
            ep = venkatraman_paired_statistic(_first_ranks(r3), _first_ranks(s3), a.pos)
            count += int(np.count_nonzero(ep >= e))
    else:
        mp = (a.n_pos + b.n_pos) / (a.pos.shape[0] + b.pos.shape[0])
        e = venkatraman_unpaired_statistic(r, a.pos, s, b.pos, mp)
        count = 0
        na = a.pos.shape[0]
        pos_all = np.concatenate([a.pos, b.pos])
        for _ in range(n_used):
            rj = r + rng.random(na) - 0.5
            sj = s + rng.random(s.shape[0]) - 0.5
            both = np.concatenate([rj, sj])
            for cls in (False, True):  # permute within each class across the two samples
                idx = np.flatnonzero(pos_all == cls)
                both[idx] = both[rng.permutation(idx)]
            e_perm = venkatraman_unpaired_statistic(_first_ranks(both[:na]), a.pos,
                                                    _first_ranks(both[na:]), b.pos, mp)
            count += int(e_perm >= e)
    return RocTestResult("venkatraman", paired, e, count / n_used, "two-sided", float("nan"),
                         float("nan"), n_resamples=n_used, references=refs)
