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

__all__ = ["binormal_cov", "binormal_var", "f_g"]


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
