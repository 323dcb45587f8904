r"""Variance of a ROC area and covariance of two, full or partial: pROC's ``var(roc)`` and
``cov(roc1, roc2)`` (Robin et al. 2011) as functions of labels and scores.

Three estimators, the ones :func:`confmat.inference.roc_test.roc_test` and the power
calculations already use (nothing is computed here that they do not compute):

- ``'delong'``: :math:`S_{10}/m + S_{01}/n` of DeLong et al.'s (1988) structural components
  (:func:`confmat.inference.roc_delong.delong_covariance_sorted`); for a partial area the
  components clipped to the range
  (:func:`confmat.inference.roc_delong.partial_delong_covariance`, docs/roc.md "DeLong's
  variance of a partial area"), which pROC refuses ("DeLong method is not supported for
  partial AUC").
- ``'bootstrap'``: the sample variance (covariance) of the areas of ``n_resamples``
  resamples (denominator ``B - 1``, as R's ``var`` / ``cov``), drawn within each class or
  over all samples, the same resample for both scores
  (:func:`confmat.inference.roc_test.resample_two_curves`; Efron and Tibshirani 1993).
- ``'obuchowski'``: Obuchowski and McClish's (1997) binormal variance and covariance of
  pROC's least-squares binormal fit
  (:func:`confmat.inference.roc_obuchowski.obuchowski_covariance`), divided by the number
  of cases; full areas and specificity ranges only, as in pROC.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..curves.partial import REF_MCCLISH, REF_ROBIN, mcclish
from ..inputs.options import check_choice, check_flag
from .common import check_n_resamples, check_random_state
from .intervals import REF_EFRON
from .power import REF_OBUCHOWSKI_1997
from .power_data import bootstrap_variances
from .roc_boot import Curves
from .roc_delong import delong_covariance_sorted, partial_delong_covariance
from .roc_inputs import RocCurveInput, resolve_partial
from .roc_obuchowski import obuchowski_covariance
from .roc_test import resample_two_curves
from .scores import REF_DELONG

__all__ = ["VAR_METHODS", "RocVariance", "roc_cov", "roc_var"]

#: the estimators of :func:`roc_var` and :func:`roc_cov`, pROC's ``method=`` of ``var``/``cov``
VAR_METHODS = ("delong", "bootstrap", "obuchowski")

Partial = tuple[str, float, float, bool]


@dataclass(frozen=True)
class RocVariance:
    """The variance of a ROC area (:func:`roc_var`) or the covariance of two
    (:func:`roc_cov`); ``float(result)`` is the number pROC's ``var`` / ``cov`` returns.

    Parameters
    ----------
    kind : str
        ``'variance'`` or ``'covariance'``.
    value : float
        The variance or covariance of the area(s) (not per case).
    method : str
        ``'delong'``, ``'bootstrap'`` or ``'obuchowski'``.
    estimates : tuple of float
        The area of each curve on the sample (one for a variance, two for a covariance); nan
        for a McClish-standardised area under the diagonal, as pROC's NA.
    paired : bool
        False for the covariance of curves on different samples (then ``value`` is 0).
    partial : tuple or None
        ``(focus, low, high, correct)`` of a partial area, None for the full area.
    n_resamples : int or None
        Bootstrap resamples drawn.
    n_used : int or None
        Bootstrap resamples kept (pooled resamples that lack a class are left out).
    references : tuple of str

    Examples
    --------
    >>> r = roc_var([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9])
    >>> r.kind, round(float(r) * 81, 9), sorted(r.to_dict())[:3]
    ('variance', 2.0, ['estimates', 'kind', 'method'])
    """

    kind: str
    value: float
    method: str
    estimates: tuple[float, ...]
    paired: bool = True
    partial: Partial | None = None
    n_resamples: int | None = None
    n_used: int | None = None
    references: tuple[str, ...] = field(default=())

    def __float__(self) -> float:
        return self.value

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (nan becomes None).

        Returns
        -------
        dict
        """
        def num(v: float) -> float | None:
            return None if np.isnan(v) else float(v)

        return {"kind": self.kind, "value": num(self.value), "method": self.method,
                "estimates": [num(v) for v in self.estimates], "paired": self.paired,
                "partial": None if self.partial is None else list(self.partial),
                "n_resamples": self.n_resamples, "n_used": self.n_used,
                "references": list(self.references)}


class _Options:
    """The checked options shared by :func:`roc_var` and :func:`roc_cov`."""

    def __init__(self, method: Any, partial_specificity: Any, partial_sensitivity: Any,
                 correct: Any, n_resamples: Any, stratified: Any, random_state: Any) -> None:
        self.method = check_choice(method, VAR_METHODS, "method")
        self.partial = resolve_partial(partial_specificity, partial_sensitivity, correct)
        if self.method == "obuchowski" and self.partial is not None and (
                self.partial[0] == "sensitivity"):
            raise ValueError("method='obuchowski' has no variance of a partial area on a "
                             "sensitivity range (Obuchowski and McClish's formulas are for a "
                             "false-positive-rate range; pROC stops too): use "
                             "partial_specificity=(low, high) or method='delong' / "
                             "'bootstrap'")
        self.n_resamples: int | None = None
        self.rng: np.random.Generator | None = None
        self.stratified = True
        if self.method == "bootstrap":
            self.n_resamples = check_n_resamples(n_resamples, 0.95)
            self.stratified = check_flag(stratified, "stratified")
            self.rng = check_random_state(random_state)

    def references(self) -> tuple[str, ...]:
        refs: tuple[str, ...] = {"delong": (REF_DELONG,), "bootstrap": (REF_EFRON,),
                                 "obuchowski": (REF_OBUCHOWSKI_1997,)}[self.method]
        if self.partial is not None and self.partial[3]:
            refs = (*refs, REF_MCCLISH)
        return (*refs, REF_ROBIN)

    def shown(self, area: float) -> float:
        """The area as reported: nan for a standardised area under the diagonal."""
        if self.partial is not None and self.partial[3] and area < 0.5:
            return float("nan")
        return float(area)


def _covariance(opts: _Options, curves: list[RocCurveInput]
                ) -> tuple[np.ndarray, np.ndarray, int | None]:
    """Areas and covariance matrix of paired curves (one or two), and the resamples kept."""
    pos = curves[0].pos
    partial = opts.partial
    if opts.method == "delong":
        scores = np.vstack([c.score for c in curves])
        if partial is None:
            area, cov = delong_covariance_sorted(pos, scores)
        else:
            area, cov = partial_delong_covariance(pos, scores, partial)
        return area, cov, None
    if opts.method == "obuchowski":
        scores = np.vstack([c.score for c in curves])
        rng = None if partial is None else (partial[1], partial[2])
        area, cov = obuchowski_covariance(pos, scores, rng)
        cov = cov / curves[0].n_pos
        if partial is not None and partial[3]:  # McClish is affine: its slope squared
            slope = float(mcclish(1.0, partial[1], partial[2]) - mcclish(0.0, partial[1],
                                                                          partial[2]))
            area, cov = np.asarray(mcclish(area, partial[1], partial[2])), cov * slope**2
        return area, cov, None
    assert opts.rng is not None and opts.n_resamples is not None
    groups = [c.groups for c in curves]
    area = np.array([float(Curves.from_counts(*g.base_counts()).area(partial)[0])
                     for g in groups])

    def value(c: Curves) -> np.ndarray:
        return c.area(partial)

    va, vb = resample_two_curves(groups[0], groups[-1], paired=True,
                                 stratified=opts.stratified, n_resamples=opts.n_resamples,
                                 rng=opts.rng, quantity=None if partial is None else value)
    var_a, var_b, cov_ab, used = bootstrap_variances(va, vb, 1)
    cov = np.array([[var_a, cov_ab], [cov_ab, var_b]])
    return area, cov, used


def roc_var(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "delong",
    partial_specificity: Any = None,
    partial_sensitivity: Any = None,
    correct: bool = False,
    n_resamples: int = 2000,
    stratified: bool = True,
    random_state: Any = None,
    pos_label: Any = None,
) -> RocVariance:
    r"""Variance of the ROC AUC or of a partial AUC (pROC's ``var(roc, method=)``).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels (two classes, or any labels with ``pos_label``).
    y_score : array-like of shape (n,)
        Finite scores; higher means more likely positive (no direction is guessed).
    method : {'delong', 'bootstrap', 'obuchowski'}, default='delong'
        See the module notes. ``'delong'`` is DeLong et al.'s (1988) variance, for a partial
        area the variance of the components clipped to the range (pROC refuses DeLong's
        method for partial areas; its default there is the bootstrap).
    partial_specificity, partial_sensitivity : pair of float, optional
        The variance of the partial AUC on this range (at most one), as in
        :func:`confmat.inference.roc_test.roc_test`. ``'obuchowski'`` takes specificity ranges
        only.
    correct : bool, default=False
        McClish's (1989) standardisation of the partial area: the variance of the
        standardised area, i.e. the variance of the area times the square of the
        standardisation's slope. (pROC's ``var(method="obuchowski")`` ignores
        ``partial.auc.correct`` and returns the uncorrected area's variance; here it is
        standardised like the other methods.)
    n_resamples : int, default=2000
        Bootstrap resamples (pROC's ``boot.n``); ``'bootstrap'`` only.
    stratified : bool, default=True
        Resample within each class (pROC's ``boot.stratified``); otherwise all samples
        together, leaving out resamples that lack a class.
    random_state : None, int or numpy.random.Generator
        Seed of the bootstrap.
    pos_label : label, optional
        The positive class.

    Returns
    -------
    RocVariance
        ``value`` the variance, ``estimates`` the area. A class of one sample contributes
        zero to DeLong's variance (pROC gives NA there: R's ``var`` of one value).

    Raises
    ------
    ValueError
        An unknown method, a bad or doubled range, ``correct=True`` without a range, a
        sensitivity range with ``'obuchowski'``, one class only, too few resamples, fewer
        than two usable resamples, a curve the binormal fit cannot smooth
        (``'obuchowski'``), bad labels or scores.
    TypeError
        Non-numeric scores, ``n_resamples`` not an integer, ``stratified`` not a bool, a bad
        ``random_state``.

    Examples
    --------
    DeLong's components of ``y = [0, 0, 1, 1, 0, 1]``, ``s = [.1, .4, .35, .8, .2, .9]``:
    the positives' (2/3, 1, 1) and the negatives' (1, 2/3, 1), so the variance is
    (1/27) / 3 + (1/27) / 3 = 2/81.

    >>> y, s = [0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9]
    >>> v = roc_var(y, s)
    >>> round(v.estimates[0], 6), round(v.value * 81, 9)
    (0.888889, 2.0)

    The partial area on specificities [0.8, 1] (see
    :func:`confmat.inference.roc_delong.partial_delong_covariance`): 1/225.

    >>> round(roc_var(y, s, partial_specificity=(0.8, 1)).value * 225, 9)
    1.0
    >>> b = roc_var(y, s, method="bootstrap", n_resamples=500, random_state=0)
    >>> b.n_used, b.value > 0
    (500, True)
    """
    opts = _Options(method, partial_specificity, partial_sensitivity, correct, n_resamples,
                    stratified, random_state)
    curve = RocCurveInput(y_true, y_score, pos_label, "y_score")
    area, cov, used = _covariance(opts, [curve])
    return RocVariance("variance", float(cov[0, 0]), opts.method, (opts.shown(area[0]),),
                       True, opts.partial, opts.n_resamples, used, opts.references())


def roc_cov(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    y_true_b: Any = None,
    method: str = "delong",
    partial_specificity: Any = None,
    partial_sensitivity: Any = None,
    correct: bool = False,
    n_resamples: int = 2000,
    stratified: bool = True,
    random_state: Any = None,
    pos_label: Any = None,
) -> RocVariance:
    r"""Covariance of the ROC AUCs (or partial AUCs) of two scores on the same samples
    (pROC's ``cov(roc1, roc2, method=)``).

    Paired curves are two score vectors on the same samples, as in
    :func:`confmat.inference.roc_test.roc_test`. With ``y_true_b`` the curves come from
    different, independent samples: their covariance is 0 by definition and is returned as
    such (pROC's ``cov`` of unpaired curves returns 0 too), so that
    ``var(A - B) = var(A) + var(B) - 2 cov(A, B)`` holds either way; the arguments are
    checked all the same.

    For DeLong's and the bootstrap's estimators ``roc_cov(y, s, s)`` equals
    ``roc_var(y, s)`` (the bootstrap with the same ``random_state``). Obuchowski and
    McClish's covariance of a curve with itself exceeds pROC's variance by
    :math:`f g a b / m` (the covariance formula has a term in ``f g`` that pROC's
    variance formula lacks); confmat follows pROC in both.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels of the samples scored by ``score_a`` (and ``score_b`` when paired).
    score_a, score_b : array-like
        Scores of the two models (higher = more positive).
    y_true_b : array-like, optional
        Labels of the samples of ``score_b`` when the curves are unpaired; the covariance is
        then 0.
    method : {'delong', 'bootstrap', 'obuchowski'}, default='delong'
        As :func:`roc_var`; the bootstrap draws the same resample for both scores.
    partial_specificity, partial_sensitivity : pair of float, optional
        As :func:`roc_var` (the same range for both curves).
    correct : bool, default=False
        As :func:`roc_var`.
    n_resamples, stratified, random_state
        As :func:`roc_var`.
    pos_label : label, optional
        The positive class (of both label vectors).

    Returns
    -------
    RocVariance
        ``value`` the covariance, ``estimates`` the two areas, ``paired``.

    Raises
    ------
    ValueError
        As :func:`roc_var`; different lengths when paired.
    TypeError
        As :func:`roc_var`.

    Examples
    --------
    The positives' components are (2/3, 1, 1) for ``a`` and (2/3, 2/3, 1) for ``b``
    (covariance 1/54, over 3 positives), the negatives' (1, 2/3, 1) and (1, 1, 1/3)
    (covariance -1/27, over 3 negatives): 1/162 - 1/81 = -1/162.

    >>> y = [0, 0, 1, 1, 0, 1]
    >>> a, b = [.1, .4, .35, .8, .2, .9], [.1, .2, .3, .4, .5, .6]
    >>> c = roc_cov(y, a, b)
    >>> [round(e, 6) for e in c.estimates], round(c.value * 162, 9)
    ([0.888889, 0.777778], -1.0)
    >>> round(roc_cov(y, a, a).value * 81, 9)  # roc_var(y, a): 2/81
    2.0
    >>> roc_cov(y, a, b, y_true_b=[1, 0, 1, 0, 0, 1]).value
    0.0
    """
    opts = _Options(method, partial_specificity, partial_sensitivity, correct, n_resamples,
                    stratified, random_state)
    a = RocCurveInput(y_true, score_a, pos_label, "score_a")
    if y_true_b is not None:  # independent samples: 0 by definition
        b = RocCurveInput(y_true_b, score_b, a.pos_label, "score_b", "y_true_b")
        est = tuple(opts.shown(float(Curves.from_counts(*c.groups.base_counts()).area(
            opts.partial)[0])) for c in (a, b))
        return RocVariance("covariance", 0.0, opts.method, est, False, opts.partial,
                           opts.n_resamples, None, opts.references())
    b = RocCurveInput(y_true, score_b, a.pos_label, "score_b")
    area, cov, used = _covariance(opts, [a, b])
    return RocVariance("covariance", float(cov[0, 1]), opts.method,
                       (opts.shown(area[0]), opts.shown(area[1])), True, opts.partial,
                       opts.n_resamples, used, opts.references())
