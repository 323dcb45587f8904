r"""Log-concave density estimation: the maximum likelihood estimate of a univariate density
whose logarithm is concave (Rufibach 2007; Dümbgen & Rufibach 2009), its distribution function
and quantiles, and its Gaussian-smoothed version (Dümbgen & Rufibach 2009), the estimates behind
pROC's ``logcondens`` smoothing (Rufibach 2012; Robin et al. 2011).

**The estimate.** For a sample with distinct values :math:`x_1 < \dots < x_m` of relative
frequencies :math:`w_i`, the log-concave maximum likelihood estimate is :math:`\hat f =
e^{\hat\varphi}` where :math:`\hat\varphi` maximises :math:`\sum_i w_i \varphi(x_i) -
\int e^{\varphi}` over concave functions. It exists and is unique as soon as :math:`m \ge 2`;
:math:`\hat\varphi` is continuous and piecewise linear on :math:`[x_1, x_m]`, with its kinks
("knots") at some of the :math:`x_i`, and :math:`-\infty` outside (Rufibach 2007).

**The algorithm** is the active-set method of Dümbgen, Hüsler & Rufibach (2007). For a set of
knots the problem is smooth and strictly concave in the values of :math:`\varphi` at the knots
(the weights of the other points split linearly between their two neighbouring knots); it is
solved by Newton's method with step halving, to rounding precision. A point is added as a knot
when the directional derivative of the likelihood along a tent function peaking there is
positive; a knot whose kink turns convex is removed by stepping back to where its kink vanishes.
The loop stops when no point has a positive directional derivative: the concave optimum, reached
exactly (R's ``logcondens`` stops its Newton steps once the log-likelihood is within about
:math:`10^{-8}` of the optimum, so its values differ from these in the third to seventh digit).

**Smoothed estimate** (Dümbgen & Rufibach 2009). The estimate's variance is never above the
sample variance :math:`s^2` (denominator :math:`n - 1`; logcondens, and so this module, takes
the distinct values' count instead, which differs when values repeat); convolving :math:`\hat f` with a centred
normal density of variance :math:`\gamma^2 = s^2 - \mathrm{Var}(\hat f)` gives a smooth density
with the sample's mean and variance. Its density and distribution function have closed forms on
each linear piece of :math:`\hat\varphi` (normal integrals of an exponential), evaluated here in
log space so that far tails neither overflow nor cancel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs.scores import finite_float, numeric_1d

__all__ = ["LogConcaveDensity", "fit_log_concave"]

REF_RUFIBACH_2007 = (
    "Rufibach, K. (2007), Computing maximum likelihood estimators of a log-concave density "
    "function, Journal of Statistical Computation and Simulation 77(7), 561-574."
)
REF_DUMBGEN_RUFIBACH = (
    "Dümbgen, L., Rufibach, K. (2009), Maximum likelihood estimation of a log-concave density "
    "and its distribution function: basic properties and uniform consistency, Bernoulli 15(1), "
    "40-68."
)
REF_DHR = (
    "Dümbgen, L., Hüsler, A., Rufibach, K. (2007), Active set and EM algorithms for log-concave "
    "densities based on complete and censored data, Technical report 61, IMSV, University of "
    "Bern (arXiv:0707.4643)."
)
REF_RUFIBACH_2012 = (
    "Rufibach, K. (2012), A smooth ROC curve estimator based on log-concave density estimates, "
    "The International Journal of Biostatistics 8(1), 1-29."
)
REFERENCES = (REF_RUFIBACH_2007, REF_DUMBGEN_RUFIBACH, REF_DHR)

_SQRT2 = float(np.sqrt(2.0))
_SERIES_TERMS = 20


def _series(d: np.ndarray, coef: np.ndarray) -> np.ndarray:
    out = np.full(d.shape, coef[-1])
    for c in coef[-2::-1]:
        out = out * d + c
    return out


_FACT = np.cumprod(np.concatenate([[1.0], np.arange(1.0, _SERIES_TERMS + 4)]))
# Coefficients in d of the integrals over s in [0, 1] of (1-s) e^{sd}, s(1-s) e^{sd} and
# (1-s)^2 e^{sd}: sum_k d^k / (k+2)!, (k+1) d^k / (k+3)!, 2 d^k / (k+3)!
_C10 = 1.0 / _FACT[2:_SERIES_TERMS + 2]
_C11 = np.arange(1.0, _SERIES_TERMS + 1) / _FACT[3:_SERIES_TERMS + 3]
_C20 = 2.0 / _FACT[3:_SERIES_TERMS + 3]


def _j00(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Integral over s in [0, 1] of exp((1-s) x + s y): the mass of a linear log-density piece."""
    hi = np.maximum(x, y)
    d = np.abs(y - x)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(d > 0, -np.expm1(-d) / d, 1.0)
    return np.exp(hi) * r


def _jk(x: np.ndarray, y: np.ndarray, kind: int) -> np.ndarray:
    """Integrals over s in [0, 1] of (1-s) e^{(1-s)x+sy} (kind 10), s(1-s) e^{...} (kind 11)
    and (1-s)^2 e^{...} (kind 20); a series for |y - x| < 1, the closed form beyond."""
    d = y - x
    small = np.abs(d) < 1.0
    ds = np.where(small, d, 0.0)
    dl = np.where(small, 1.0, d)
    ex, ey = np.exp(x), np.exp(y)
    if kind == 10:
        ser, big = _series(ds, _C10), (ey - ex * (1.0 + dl)) / dl**2
    elif kind == 11:
        ser, big = _series(ds, _C11), (ey * (dl - 2.0) + ex * (dl + 2.0)) / dl**3
    else:
        ser, big = _series(ds, _C20), 2.0 * (ey - ex * (1.0 + dl + dl * dl / 2.0)) / dl**3
    return np.where(small, ex * ser, big)


def _newton(x: np.ndarray, w: np.ndarray, psi: np.ndarray) -> np.ndarray:
    """Maximise sum(w psi) - integral of exp(linear interpolation of psi) over psi (values at
    the knots x): Newton steps with step halving, to rounding precision."""
    from scipy.linalg import solveh_banded

    dx = np.diff(x)

    def loglik(p: np.ndarray) -> float:
        with np.errstate(over="ignore", invalid="ignore"):
            v = float(w @ p - dx @ _j00(p[:-1], p[1:]))
        return v if np.isfinite(v) else -np.inf

    ll = loglik(psi)
    for _ in range(200):
        a, b = psi[:-1], psi[1:]
        g = w.copy()
        g[:-1] -= dx * _jk(a, b, 10)
        g[1:] -= dx * _jk(b, a, 10)
        band = np.zeros((2, psi.size))
        band[1, :-1] += dx * _jk(a, b, 20)
        band[1, 1:] += dx * _jk(b, a, 20)
        band[0, 1:] = dx * _jk(a, b, 11)
        step = solveh_banded(band, g)
        dec = float(g @ step)  # the Newton decrement, squared
        if not dec > 1e-30:
            break
        if dec < 1e-10:  # within the quadratic region: the full step, without a likelihood test
            psi = psi + step
            ll = loglik(psi)
            continue
        t = 1.0
        while True:
            new = psi + t * step
            ln = loglik(new)
            if ln > ll:
                break
            t /= 2.0
            if t < 1e-12:
                return psi
        psi, ll = new, ln
    return psi


def _solve_on_knots(x: np.ndarray, w: np.ndarray, knot: np.ndarray,
                    phi: np.ndarray) -> np.ndarray:
    """The optimum among the functions linear between the knots, started at ``phi``."""
    k = np.flatnonzero(knot)
    right = np.searchsorted(k, np.arange(x.size))  # first knot at or after each point
    left = np.maximum(right - 1, 0)
    inner = ~knot
    lam = np.zeros(x.size)
    xl, xr = x[k[left]], x[k[np.minimum(right, k.size - 1)]]
    lam[inner] = (x[inner] - xl[inner]) / (xr[inner] - xl[inner])
    wk = np.bincount(np.where(inner, left, right), weights=np.where(inner, w * (1 - lam), w),
                     minlength=k.size)
    wk += np.bincount(right, weights=np.where(inner, w * lam, 0.0), minlength=k.size)
    psi = _newton(x[k], wk / wk.sum(), phi[k])
    return np.interp(x, x[k], psi)


def _kinks(x: np.ndarray, phi: np.ndarray, knot: np.ndarray) -> np.ndarray:
    """Change of slope of ``phi`` at each knot (0 at the ends), knot to knot."""
    k = np.flatnonzero(knot)
    out = np.zeros(x.size)
    slope = np.diff(phi[k]) / np.diff(x[k])
    out[k[1:-1]] = np.diff(slope)
    return out


def _gains(x: np.ndarray, w: np.ndarray, phi: np.ndarray, knot: np.ndarray) -> np.ndarray:
    """Directional derivative of the log-likelihood at ``phi`` along the tent that vanishes at
    the two knots around each point and peaks there (-inf at the knots)."""
    k = np.flatnonzero(knot)
    right = np.searchsorted(k, np.arange(x.size))
    inner = ~knot
    kl = k[np.maximum(right - 1, 0)]
    kr = k[np.minimum(right, k.size - 1)]
    span = x[kr] - x[kl]
    t = np.where(inner, (x - x[kl]) / np.where(inner, span, 1.0), 0.0)
    wi = np.where(inner, w, 0.0)
    c1, c0 = np.cumsum(wi * t), np.cumsum(wi)
    s1, s0 = c1 - c1[kl], c0 - c0[kl]  # sums over the points of the piece up to this one
    t1, t0 = c1[kr] - c1[kl], c0[kr] - c0[kl]  # over the whole piece
    data = span * ((1 - t) * s1 + t * ((t0 - s0) - (t1 - s1)))
    mass = span**2 * t * (1 - t) * (t * _jk(phi, phi[kl], 10) + (1 - t) * _jk(phi, phi[kr], 10))
    return np.where(inner, data - mass, -np.inf)


def _active_set(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m = x.size
    knot = np.zeros(m, dtype=bool)
    knot[[0, -1]] = True
    phi = _solve_on_knots(x, w, knot, np.full(m, -np.log(x[-1] - x[0])))
    tol = 1e-11 * (x[-1] - x[0])
    for _ in range(4 * m + 10):
        gain = _gains(x, w, phi, knot)
        i = int(np.argmax(gain))
        if not gain[i] > tol:
            break
        before = knot.copy()
        knot[i] = True
        new = _solve_on_knots(x, w, knot, phi)
        while True:
            kink_new = _kinks(x, new, knot)
            bad = np.flatnonzero(kink_new > 0)
            if bad.size == 0:
                break
            kink_old = np.minimum(_kinks(x, phi, knot)[bad], 0.0)
            ratio = kink_old / (kink_old - kink_new[bad])
            lam = max(float(ratio.min()), 0.0)
            phi = phi + lam * (new - phi)
            knot[bad[ratio <= lam]] = False
            new = _solve_on_knots(x, w, knot, phi)
        phi = new
        if np.array_equal(knot, before):
            break
    return phi, knot


@dataclass(frozen=True)
class LogConcaveDensity:
    """A log-concave density estimate (:func:`fit_log_concave`).

    Parameters
    ----------
    x : ndarray
        The distinct sample values, increasing.
    weight : ndarray
        Their relative frequencies.
    phi : ndarray
        The log-density at ``x``: linear between knots.
    is_knot : ndarray of bool
        Which points of ``x`` are knots (always the first and the last).
    n_samples : int
        The sample size.
    target_sd : float
        The standard deviation given to the smoothed estimate (see :func:`fit_log_concave`).

    Examples
    --------
    >>> est = fit_log_concave([0.2, 0.5, 0.6, 0.6, 0.7, 1.5, 3.0])
    >>> est.knots.tolist(), est.n_samples, est.x.size
    ([0.2, 0.6, 3.0], 7, 6)
    """

    x: np.ndarray
    weight: np.ndarray
    phi: np.ndarray
    is_knot: np.ndarray
    n_samples: int
    target_sd: float

    @property
    def knots(self) -> np.ndarray:
        """The knots: where the log-density may bend."""
        return self.x[self.is_knot]

    def _pieces(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        xk, pk = self.knots, self.phi[self.is_knot]
        slope = np.diff(pk) / np.diff(xk)
        cdf = np.concatenate([[0.0], np.cumsum(np.diff(xk) * _j00(pk[:-1], pk[1:]))])
        return xk, pk, slope, cdf

    @property
    def mean(self) -> float:
        """The mean of the estimate (equal to the sample mean, Dümbgen & Rufibach 2009)."""
        return float(self.weight @ self.x)

    @property
    def variance(self) -> float:
        """The variance of the estimate, in closed form."""
        xk, pk, _, _ = self._pieces()
        a, b, dx = xk[:-1] - self.mean, xk[1:] - self.mean, np.diff(xk)
        return float(np.sum(dx * (a * a * _jk(pk[:-1], pk[1:], 10)
                                  + b * b * _jk(pk[1:], pk[:-1], 10)
                                  - dx * dx * _jk(pk[:-1], pk[1:], 11))))

    @property
    def smoothing_sd(self) -> float:
        """The standard deviation of the normal convolved in the smoothed estimate."""
        return float(np.sqrt(max(self.target_sd**2 - self.variance, 0.0)))

    def log_density(self, t: Any) -> np.ndarray:
        """The log-density at ``t`` (``-inf`` outside the sample's range).

        Parameters
        ----------
        t : array-like of float

        Returns
        -------
        ndarray

        Examples
        --------
        >>> fit_log_concave([0, 1, 2]).log_density([-1.0, 1.0]).tolist()[0]
        -inf
        """
        t = np.asarray(t, dtype=float)
        xk, pk, slope, _ = self._pieces()
        j = np.clip(np.searchsorted(xk, t, side="right") - 1, 0, xk.size - 2)
        inside = (t >= xk[0]) & (t <= xk[-1])
        return np.where(inside, pk[j] + slope[j] * (np.where(inside, t, xk[0]) - xk[j]), -np.inf)

    def density(self, t: Any) -> np.ndarray:
        """The density at ``t``.

        Parameters
        ----------
        t : array-like of float

        Returns
        -------
        ndarray

        Examples
        --------
        >>> est = fit_log_concave([0.2, 0.5, 0.6, 0.6, 0.7, 1.5, 3.0])
        >>> round(float(est.density(1.0)), 6)  # logcondens: 0.4944462584
        0.494446
        """
        return np.exp(self.log_density(t))

    def cdf(self, t: Any) -> np.ndarray:
        """The distribution function at ``t``.

        Parameters
        ----------
        t : array-like of float

        Returns
        -------
        ndarray

        Examples
        --------
        >>> fit_log_concave([0, 1, 2]).cdf([-1.0, 1.0, 3.0]).round(12).tolist()
        [0.0, 0.5, 1.0]
        """
        t = np.asarray(t, dtype=float)
        xk, pk, slope, cdf = self._pieces()
        j = np.clip(np.searchsorted(xk, t, side="right") - 1, 0, xk.size - 2)
        s = np.clip(t, xk[0], xk[-1]) - xk[j]
        z = slope[j] * s
        with np.errstate(invalid="ignore", divide="ignore"):
            e1 = np.where(z != 0, np.expm1(z) / np.where(z != 0, z, 1.0), 1.0)
        out = cdf[j] + np.exp(pk[j]) * s * e1
        return np.where(t <= xk[0], 0.0, np.where(t >= xk[-1], 1.0, out))

    def quantile(self, p: Any) -> np.ndarray:
        """The quantile function: the inverse of :meth:`cdf` on [0, 1], the ends of the
        sample's range at 0 and 1.

        Parameters
        ----------
        p : array-like of float in [0, 1]

        Returns
        -------
        ndarray

        Raises
        ------
        ValueError
            A probability outside [0, 1].

        Examples
        --------
        >>> fit_log_concave([0, 1, 2]).quantile([0.0, 0.5, 1.0]).round(12).tolist()
        [0.0, 1.0, 2.0]
        """
        p = np.asarray(p, dtype=float)
        if not np.all((p >= 0) & (p <= 1)):
            raise ValueError("p must be probabilities in [0, 1]")
        xk, pk, slope, cdf = self._pieces()
        j = np.clip(np.searchsorted(cdf, p, side="right") - 1, 0, xk.size - 2)
        u = (p - cdf[j]) / np.exp(pk[j])
        z = np.maximum(slope[j] * u, -1.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            l1 = np.where(z != 0, np.log1p(z) / np.where(z != 0, z, 1.0), 1.0)
        q = np.minimum(xk[j] + u * l1, xk[j + 1])
        return np.where(p <= 0, xk[0], np.where(p >= 1, xk[-1], q))

    def quantile_logcondens(self, p: Any) -> np.ndarray:
        r"""Quantiles as logcondens computes them (its ``quantilesLogConDens``, which pROC's
        logcondens smoothing uses for the negatives): not quite :meth:`quantile`.

        Between consecutive distinct values :math:`x_j < x_{j+1}` (width :math:`d`, log-density
        rise :math:`\Delta = \varphi_{j+1} - \varphi_j`) logcondens inverts the distribution
        function of a density whose logarithm rises by :math:`d\,\Delta` instead of
        :math:`\Delta` across the interval: :math:`q = x_j + d \log(1 + (e^{d\Delta} - 1)
        u) / (d\Delta)` with :math:`u = (p - F_j) / (F_{j+1} - F_j)`. Where :math:`d = 1` or
        :math:`\Delta = 0` it is the true inverse of :meth:`cdf`; with closely spaced values it
        is nearly so, elsewhere it is not (pROC's curves inherit this).

        Parameters
        ----------
        p : array-like of float in [0, 1]

        Returns
        -------
        ndarray
            The ends of the sample's range at 0 and 1 (logcondens returns ``-Inf`` at 0).

        Raises
        ------
        ValueError
            A probability outside [0, 1].

        Examples
        --------
        >>> est = fit_log_concave([2.0, 5.0, 5.0, 5.0])
        >>> q = est.quantile_logcondens(0.5)
        >>> round(float(q), 4), round(float(est.cdf(q)), 4)  # logcondens: 4.807062, 0.787866
        (4.8071, 0.7879)
        >>> round(float(est.quantile(0.5)), 4), round(float(est.cdf(est.quantile(0.5))), 12)
        (4.444, 0.5)
        """
        p = np.asarray(p, dtype=float)
        if not np.all((p >= 0) & (p <= 1)):
            raise ValueError("p must be probabilities in [0, 1]")
        x, cdf = self.x, self.cdf(self.x)
        j = np.clip(np.searchsorted(cdf, p, side="right") - 1, 0, x.size - 2)
        d = x[j + 1] - x[j]
        u = (p - cdf[j]) / (cdf[j + 1] - cdf[j])
        rise = d * (self.phi[j + 1] - self.phi[j])
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            frac = np.where(rise != 0, np.log1p(np.expm1(rise) * u)
                            / np.where(rise != 0, rise, 1.0), u)
        q = x[j] + d * frac
        return np.where(p <= 0, x[0], np.where(p >= 1, x[-1], q))

    def _smooth_parts(self, t: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                             float, np.ndarray, np.ndarray]:
        from scipy.special import erf, log_ndtr

        t = np.asarray(t, dtype=float)[..., None]
        t = np.where(np.isfinite(t), t, 0.0)  # infinite points: set by the callers
        xk, pk, slope, _ = self._pieces()
        u, v, a = xk[:-1], xk[1:], slope
        g = self.smoothing_sd
        if not g > 0:
            raise ValueError("the smoothed estimate needs a sample variance above the "
                             "estimate's variance")
        lo = (u - t) / g - a * g
        hi = lo + (v - u) / g
        # log of Phi(hi) - Phi(lo), without cancellation in either tail
        with np.errstate(divide="ignore", invalid="ignore"):
            upper = log_ndtr(-lo) + np.log(-np.expm1(log_ndtr(-hi) - log_ndtr(-lo)))
            lower = log_ndtr(hi) + np.log(-np.expm1(log_ndtr(lo) - log_ndtr(hi)))
            both = np.log((erf(hi / _SQRT2) + erf(-lo / _SQRT2)) / 2.0)
        logdiff = np.where(lo > 0, upper, np.where(hi < 0, lower, both))
        log_fq = pk[:-1] + a * (t - u) + (a * g) ** 2 / 2.0 + logdiff
        return t, u, v, a, g, pk, log_fq

    def smooth_density(self, t: Any) -> np.ndarray:
        """The density of the smoothed estimate (the estimate convolved with a centred normal
        of standard deviation :attr:`smoothing_sd`).

        Parameters
        ----------
        t : array-like of float

        Returns
        -------
        ndarray

        Raises
        ------
        ValueError
            No room for smoothing (the sample variance is not above the estimate's).

        Examples
        --------
        >>> est = fit_log_concave([0.2, 0.5, 0.6, 0.6, 0.7, 1.5, 3.0])
        >>> round(float(est.smooth_density(1.0)), 6)  # logcondens: 0.4106703835
        0.41067
        """
        *_, log_fq = self._smooth_parts(t)
        return np.where(np.isfinite(t), np.exp(log_fq).sum(axis=-1), 0.0)

    def smooth_cdf(self, t: Any) -> np.ndarray:
        """The distribution function of the smoothed estimate.

        Parameters
        ----------
        t : array-like of float

        Returns
        -------
        ndarray

        Raises
        ------
        ValueError
            No room for smoothing (the sample variance is not above the estimate's).

        Examples
        --------
        >>> est = fit_log_concave([0.2, 0.5, 0.6, 0.6, 0.7, 1.5, 3.0])
        >>> est.smooth_cdf([-np.inf, 1.0, np.inf]).round(6).tolist()  # logcondens: 0.5198490501
        [0.0, 0.519849, 1.0]
        """
        from scipy.special import ndtr

        t0 = np.asarray(t, dtype=float)
        t, u, v, a, g, pk, log_fq = self._smooth_parts(t0)
        zu, zv = (t - u) / g, (t - v) / g
        fu, fv = np.exp(pk[:-1]), np.exp(pk[1:])
        flat = np.abs(a) * (v - u) <= 1e-5
        an = np.where(flat, 1.0, a)
        with np.errstate(invalid="ignore", over="ignore"):
            # integral over the piece of f(s) Phi((t - s) / g) ds, by parts
            steep = (np.exp(log_fq) + fv * ndtr(zv) - fu * ndtr(zu)) / an

            def psi1(z: np.ndarray) -> np.ndarray:
                return z * ndtr(z) + np.exp(-z * z / 2.0) / np.sqrt(2.0 * np.pi)

            def psi2(z: np.ndarray) -> np.ndarray:
                return ((z * z - 1) * ndtr(z) + z * np.exp(-z * z / 2.0) / np.sqrt(2 * np.pi)) / 2
            # nearly flat pieces: the first two terms of the expansion in the slope
            p1 = psi1(zu) - psi1(zv)
            m0 = g * p1
            m1 = g * g * (zu * p1 - (psi2(zu) - psi2(zv)))
            gentle = fu * (m0 + a * m1)
        out = np.clip(np.where(flat, gentle, steep).sum(axis=-1), 0.0, 1.0)
        return np.where(t0 == -np.inf, 0.0, np.where(t0 == np.inf, 1.0, out))


def fit_log_concave(x: Any, name: str = "x") -> LogConcaveDensity:
    """The log-concave maximum likelihood density estimate of a sample (see the module notes).

    Parameters
    ----------
    x : array-like of shape (n_samples,)
        Finite numbers, at least two distinct.
    name : str, default='x'
        The argument's name, for error messages.

    Returns
    -------
    LogConcaveDensity
        The smoothed estimate's variance is that of logcondens: the variance of the distinct
        values weighted by their frequencies, times :math:`m / (m - 1)` for :math:`m` distinct
        values. Without ties it is the sample variance of Dümbgen & Rufibach (2009); with ties
        it is larger.

    Raises
    ------
    TypeError
        Not numbers (checked by the input door, :func:`confmat.inputs.scores.numeric_1d`).
    ValueError
        Not one-dimensional, a NaN or infinite value (named by its position), integers beyond
        2**53 that float64 cannot tell apart, or fewer than two distinct values (the estimate
        would be a point mass).

    Examples
    --------
    >>> est = fit_log_concave([0.2, 0.5, 0.6, 0.6, 0.7, 1.5, 3.0])
    >>> est.knots.tolist()  # logcondens: 0.2 0.6 3.0
    [0.2, 0.6, 3.0]
    >>> round(float(est.cdf(1.0)), 6), round(est.smoothing_sd, 6)  # 0.58920095, 0.7138224429
    (0.589201, 0.713822)
    """
    values = numeric_1d(x, name)
    v = finite_float(values, len(values), name)
    xs, counts = np.unique(v, return_counts=True)
    if xs.size < 2:
        raise ValueError(f"{name} needs at least two distinct values for a log-concave density "
                         f"estimate, got {xs.size}")
    w = counts / v.size
    phi, knot = _active_set(xs, w)
    xk = xs[knot]
    phi = phi - np.log(np.sum(np.diff(xk) * _j00(phi[knot][:-1], phi[knot][1:])))
    m = xs.size  # logcondens's factor: distinct values, not the sample size
    sd = float(np.sqrt(w @ (xs - w @ xs) ** 2 * m / (m - 1)))
    return LogConcaveDensity(xs, w, phi, knot, int(v.size), sd)
