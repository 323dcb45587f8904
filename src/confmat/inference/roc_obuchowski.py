r"""Obuchowski and McClish's (1997) variance and covariance of binormal ROC areas, full or
partial (a false-positive-rate range), per case: the variances behind the power calculations
of :mod:`confmat.inference.power` (pROC's ``power.roc.test`` and ``var(roc,
method="obuchowski")``, Robin et al. 2011).

With binormal parameters :math:`a, b` (pROC's least-squares fit,
:func:`confmat.curves.smooth.binormal_fit`), :math:`f` and :math:`g` are the derivatives of the
area with respect to them and

.. math:: V = f^2\left(1 + \frac{b^2}{\kappa} + \frac{a^2}{2}\right)
          + g^2\,\frac{b^2 (1 + \kappa)}{2\kappa}

for :math:`\kappa` controls per case.
"""

from __future__ import annotations

import numpy as np

from ..curves.partial import focus_area, se_sp_points
from ..curves.smooth import binormal_fit
from .roc_delong import delong_covariance_sorted

__all__ = ["binormal_cov", "binormal_var", "f_g", "obuchowski_covariance"]


def f_g(a: float, b: float, fpr: tuple[float, float] | None) -> tuple[float, float]:
    """The derivatives ``f`` and ``g`` of Obuchowski and McClish (1997) of the full or partial
    binormal area with respect to the binormal parameters ``a`` and ``b``.

    Parameters
    ----------
    a, b : float
        Binormal intercept and slope.
    fpr : pair of float or None
        The false-positive-rate range of a partial area, or None for the full area.

    Returns
    -------
    f, g : float

    Examples
    --------
    >>> f, g = f_g(0.0, 1.0, None)
    >>> round(f, 6), g  # 1 / sqrt(4 pi)
    (0.282095, -0.0)
    """
    from scipy.special import ndtr, ndtri

    e1 = np.exp(-a * a / (2.0 * (1.0 + b * b)))
    e2 = 1.0 + b * b
    if fpr is None:
        return (float(e1 * (2.0 * np.pi * e2) ** -0.5),
                float(-e1 * a * b * (2.0 * np.pi * e2**3) ** -0.5))
    c1, c2 = ((ndtri(x) + a * b / e2) * np.sqrt(e2) for x in fpr)
    e3 = ndtr(c1) - ndtr(c2)
    e4 = np.exp(-c1 * c1 / 2.0) - np.exp(-c2 * c2 / 2.0)
    f = e1 * (2.0 * np.pi * e2) ** -0.5 * e3
    g = e1 * (2.0 * np.pi * e2) ** -1.0 * (-e4) - a * b * e1 * (2.0 * np.pi * e2**3) ** -0.5 * e3
    return float(f), float(g)


def binormal_var(a: float, b: float, kappa: float, fpr: tuple[float, float] | None = None
                 ) -> float:
    """Obuchowski and McClish's (1997) variance (times the number of cases) of a binormal area.

    Parameters
    ----------
    a, b : float
        Binormal parameters.
    kappa : float
        Controls per case.
    fpr : pair of float, optional
        False-positive-rate range of a partial area.

    Returns
    -------
    float

    Examples
    --------
    >>> round(binormal_var(0.0, 1.0, 1.0), 6)  # f**2 * 2
    0.159155
    """
    f, g = f_g(a, b, fpr)
    return f * f * (1.0 + b * b / kappa + a * a / 2.0) + g * g * b * b * (1.0 + kappa) / (
        2.0 * kappa)


def binormal_cov(a1: float, b1: float, a2: float, b2: float, rn: float, ra: float,
                 kappa: float, fpr1: tuple[float, float] | None = None,
                 fpr2: tuple[float, float] | None = None) -> float:
    """Obuchowski and McClish's (1997) covariance (times the number of cases) of two binormal
    areas on the same samples.

    Parameters
    ----------
    a1, b1, a2, b2 : float
        Binormal parameters of the two curves.
    rn, ra : float
        Correlations of the two scores among the controls and among the cases.
    kappa : float
        Controls per case.
    fpr1, fpr2 : pair of float, optional
        False-positive-rate ranges of partial areas (both or neither).

    Returns
    -------
    float

    Examples
    --------
    >>> binormal_cov(0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0) == binormal_var(0.0, 1.0, 1.0)
    True
    """
    f1, g1 = f_g(a1, b1, fpr1)
    f2, g2 = f_g(a2, b2, fpr2)
    return (f1 * f2 * (ra + rn * b1 * b2 / kappa + ra * ra * a1 * a2 / 2.0)
            + g1 * g2 * (b1 * b2 * (rn * rn + kappa * ra * ra) / (2.0 * kappa))
            + f1 * g2 * (ra * ra * a1 * b2 / 2.0) + f2 * g1 * (ra * ra * a2 * b1 / 2.0))


def obuchowski_covariance(pos: np.ndarray, scores: np.ndarray,
                          specificity: tuple[float, float] | None = None
                          ) -> tuple[np.ndarray, np.ndarray]:
    """Areas of ``scores`` (shape (M, N)) and Obuchowski and McClish's (1997) covariance
    matrix of them per case, from the data, as pROC's ``var`` / ``cov`` / ``power.roc.test``
    with ``method="obuchowski"`` (Robin et al. 2011).

    Each curve gets pROC's least-squares binormal fit
    (:func:`confmat.curves.smooth.binormal_fit`); ``kappa`` is the observed number of
    controls per case, ``ra`` / ``rn`` the Pearson correlations of two scores among the cases
    / the controls. The diagonal is :func:`binormal_var`, the rest :func:`binormal_cov`, so
    (as in pROC) the diagonal lacks the term ``f g a b`` that :func:`binormal_cov` of a curve
    with itself holds.

    Parameters
    ----------
    pos : ndarray of bool, shape (N,)
        Which samples are positive; both classes present.
    scores : ndarray of float64, shape (M, N)
        The scores of M models on the same samples.
    specificity : pair of float, optional
        The specificity range ``(low, high)`` of uncorrected partial areas (the
        false-positive-rate range ``[1 - high, 1 - low]`` of the formulas); None for the full
        area.

    Returns
    -------
    area : ndarray, shape (M,)
        The empirical areas (full: the Mann-Whitney AUC).
    covariance : ndarray, shape (M, M)
        Per case: divide by the number of cases for the variance of the area.

    Raises
    ------
    ValueError
        A curve the binormal fit cannot smooth.

    Examples
    --------
    >>> pos = np.array([0, 0, 1, 1, 0, 1, 0, 1, 0, 1], dtype=bool)
    >>> s = np.array([[.1, .4, .35, .8, .2, .9, .5, .3, .6, .7],
    ...               [.2, .1, .35, .5, .4, .9, .6, .3, .8, .7]])
    >>> area, cov = obuchowski_covariance(pos, s)
    >>> area.tolist(), round(float(cov[0, 0]), 9), round(float(cov[0, 1]), 9)
    ([0.76, 0.64], 0.151841625, 0.116769945)

    (pROC: ``var(r1, method="obuchowski") * 5`` = 0.151841624566, ``cov(r1, r2,
    method="obuchowski") * 5`` = 0.116769945119.)
    """
    k = scores.shape[0]
    area = np.empty(k)
    ab = []
    # pROC's order: FPR1 = 1 - low, FPR2 = 1 - high (f and g change sign together otherwise)
    fpr = None if specificity is None else (1.0 - specificity[0], 1.0 - specificity[1])
    for i, s in enumerate(scores):
        _, se, sp = se_sp_points(pos, s, None)
        ab.append(binormal_fit(se, sp))
        if specificity is None:
            area[i] = float(delong_covariance_sorted(pos, s[None, :])[0][0])
        else:
            area[i] = float(focus_area(se, sp, specificity[0], specificity[1], "specificity"))
    kappa = int((~pos).sum()) / int(pos.sum())
    cov = np.empty((k, k))
    for i in range(k):
        cov[i, i] = binormal_var(*ab[i], kappa, fpr)
        for j in range(i):
            ra = float(np.corrcoef(scores[i, pos], scores[j, pos])[0, 1])
            rn = float(np.corrcoef(scores[i, ~pos], scores[j, ~pos])[0, 1])
            cov[i, j] = cov[j, i] = binormal_cov(*ab[i], *ab[j], rn, ra, kappa, fpr, fpr)
    return area, cov
