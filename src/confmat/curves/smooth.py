r"""Smoothed ROC curves, as pROC's ``smooth`` (Robin et al. 2011): binormal, kernel density,
fitted-distribution and log-concave density smoothing, with the area under the smoothed curve.

**Binormal** (Metz et al. 1998 give the model; pROC fits it by least squares). The points of
the empirical curve with both rates strictly inside (0, 1) are mapped to normal deviates and
:math:`\Phi^{-1}(\mathrm{Sp}) = a + b\,\Phi^{-1}(\mathrm{Se})` is fitted by ordinary least
squares. The smoothed curve is :math:`\mathrm{Sp} = \Phi(a + b\,\Phi^{-1}(\mathrm{Se}))` on
``n`` equally spaced sensitivities and its area is :math:`\Phi(a / \sqrt{1 + b^2})`.

**Density.** The scores of each class are smoothed with a kernel density estimate on one grid
of ``n`` points (R's ``density``: linear binning on a grid twice as long, convolution by FFT,
linear interpolation). The bandwidth is a number or a rule of :mod:`confmat.curves.bandwidth`
(R's ``bw.*``): Silverman's (1986) ``'nrd0'`` or Scott's (1992) ``'nrd'`` rule of thumb,
unbiased or biased cross-validation ``'ucv'`` / ``'bcv'`` (Scott 1992), or Sheather and Jones's
(1991) ``'SJ'`` (``'SJ-ste'``) and ``'SJ-dpi'``; a rule is computed on the scores of both
classes together, and the bandwidth multiplied by ``adjust``. With
densities :math:`f_0` (negatives) and :math:`f_1` (positives) on grid points :math:`x_1 < \dots
< x_n`, the point :math:`j` of the curve has :math:`\mathrm{Sp}_j = \sum_{i < j} f_0(x_i) /
\sum_i f_0(x_i)` and :math:`\mathrm{Se}_j = \sum_{i \ge j} f_1(x_i) / \sum_i f_1(x_i)`.

**Fitted distributions.** One parametric distribution per class fitted by maximum likelihood
(as R's ``MASS::fitdistr``), its densities evaluated on ``n`` points from the lowest to the
highest score and the curve built as for ``'density'``. The normal, log-normal and exponential
fits have closed forms and agree with R exactly; the logistic, gamma and Weibull fits are
numerical maximisations (SciPy here, R's ``optim`` there) and agree to the optimisers'
tolerance only.

**Log-concave densities** (``'logcondens'``, ``'logcondens.smooth'``; Rufibach 2012, through
the logcondens package in pROC). Each class's scores get their log-concave maximum likelihood
density estimate (:mod:`confmat.curves.logconcave`; Rufibach 2007, Dümbgen & Rufibach 2009). At
the ``n`` false positive rates :math:`t_k = k / (n - 1)` the curve is :math:`\mathrm{Se}_k = 1
- \hat F_1(\hat F_0^{-1}(1 - t_k))` and :math:`\mathrm{Sp}_k = 1 - t_k`, with
:math:`\mathrm{Se} = 0` at :math:`t = 0` and 1 at :math:`t = 1`. As in pROC, the quantiles
:math:`\hat F_0^{-1}` are logcondens's
(:meth:`~confmat.curves.logconcave.LogConcaveDensity.quantile_logcondens`), which invert
:math:`\hat F_0` exactly only where the scores are closely spaced. ``'logcondens.smooth'``
replaces :math:`\hat F_1` by the distribution function of the smoothed estimate of the
positives (Dümbgen & Rufibach 2009) and keeps the quantiles :math:`\hat F_0^{-1}` of the
unsmoothed estimate of the negatives, as logcondens's ``logConROC`` does. The estimates here
are the exact optimum; logcondens stops its Newton steps earlier (see
:mod:`confmat.curves.logconcave`), so pROC's curves differ from these by up to about
:math:`10^{-3}`.

The area under a density, fitted or log-concave curve is the trapezoidal area of its points,
with the corners (Sp, Se) = (0, 1) and (1, 0) added, as in pROC.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..inputs.options import check_choice
from ..inputs.targets import binary_target
from .bandwidth import (
    BANDWIDTHS,
    REF_SILVERMAN,
    canonical_rule,
    rule_bandwidth,
    rule_references,
)
from .logconcave import REF_RUFIBACH_2012, LogConcaveDensity, fit_log_concave
from .logconcave import REFERENCES as LOGCONCAVE_REFERENCES
from .partial import REF_ROBIN, se_sp_points

__all__ = ["SmoothROC", "binormal_fit", "smooth_roc"]

REF_METZ = (
    "Metz, C. E., Herman, B. A., Shen, J.-H. (1998), Maximum likelihood estimation of receiver "
    "operating characteristic (ROC) curves from continuously-distributed data, Statistics in "
    "Medicine 17(9), 1033-1053."
)

METHODS = ("binormal", "density", "fitdistr", "logcondens", "logcondens.smooth")
KERNELS = ("gaussian", "epanechnikov", "rectangular", "triangular", "biweight", "cosine",
           "optcosine")
DISTRIBUTIONS = ("normal", "lognormal", "exponential", "logistic", "gamma", "weibull")


@dataclass(frozen=True)
class SmoothROC:
    """A smoothed ROC curve (:func:`smooth_roc`).

    Parameters
    ----------
    method : str
        ``'binormal'``, ``'density'``, ``'fitdistr'``, ``'logcondens'`` or
        ``'logcondens.smooth'``.
    specificity, sensitivity : ndarray
        The points of the smoothed curve, specificity increasing from 0 to 1.
    auc : float
        The area under the smoothed curve.
    params : dict
        The fitted model: ``a`` and ``b`` (binormal), ``bandwidth`` and ``kernel`` (density),
        the distributions and their parameters per class (fitdistr), the ``knots`` and the
        ``log_density`` there per class (logcondens; with the positives' ``smoothing_sd`` for
        logcondens.smooth).
    references : tuple of str

    Examples
    --------
    >>> sm = smooth_roc([0, 0, 0, 0, 1, 1, 1, 1], [.1, .3, .5, .7, .4, .6, .8, .9])
    >>> sm.method, round(sm.auc, 4)  # pROC: 0.7268394382
    ('binormal', 0.7268)
    """

    method: str
    specificity: np.ndarray
    sensitivity: np.ndarray
    auc: float
    params: dict[str, Any]
    references: tuple[str, ...] = field(default=(REF_ROBIN,))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict

        Examples
        --------
        >>> y, s = [0, 0, 0, 0, 1, 1, 1, 1], [.1, .3, .5, .7, .4, .6, .8, .9]
        >>> smooth_roc(y, s, n=3).to_dict()["method"]
        'binormal'
        """
        return {"method": self.method, "specificity": self.specificity.tolist(),
                "sensitivity": self.sensitivity.tolist(), "auc": self.auc,
                "params": self.params, "references": list(self.references)}


def binormal_fit(se: np.ndarray, sp: np.ndarray) -> tuple[float, float]:
    r"""Least-squares fit of :math:`\Phi^{-1}(\mathrm{Sp}) = a + b\,\Phi^{-1}(\mathrm{Se})` on
    the points with both rates strictly inside (0, 1) (pROC's binormal smoothing).

    Parameters
    ----------
    se, sp : ndarray
        Points of an empirical ROC curve.

    Returns
    -------
    a, b : float
        Intercept and slope.

    Raises
    ------
    ValueError
        Fewer than two usable points, or all at one sensitivity or at one specificity.

    Examples
    --------
    >>> a, b = binormal_fit(np.array([0.2, 0.5, 0.8]), np.array([0.8, 0.5, 0.2]))
    >>> round(a, 12) + 0.0, round(b, 12)
    (0.0, -1.0)
    """
    from scipy.special import ndtri

    keep = (se > 0) & (se < 1) & (sp > 0) & (sp < 1)
    x, y = ndtri(se[keep]), ndtri(sp[keep])
    if x.size <= 1 or np.all(x == x[0]):
        raise ValueError("the ROC curve cannot be smoothed: fewer than two points with both "
                         "rates strictly between 0 and 1")
    if np.all(y == y[0]):
        # a slope of 0: the binormal curve's own slope (1 / b) is infinite (pROC fails too)
        raise ValueError("the ROC curve cannot be smoothed: its points with both rates "
                         "strictly between 0 and 1 all have one specificity")
    xm, ym = x.mean(), y.mean()
    dx = x - xm
    b = float(np.dot(dx, y - ym) / np.dot(dx, dx))
    return float(ym - b * xm), b


def _kernel(u: np.ndarray, bw: float, kernel: str) -> np.ndarray:
    ax = np.abs(u)
    if kernel == "gaussian":
        return np.exp(-0.5 * (u / bw) ** 2) / (bw * np.sqrt(2.0 * np.pi))
    if kernel == "rectangular":
        a = bw * np.sqrt(3.0)
        return np.where(ax < a, 0.5 / a, 0.0)
    if kernel == "triangular":
        a = bw * np.sqrt(6.0)
        return np.where(ax < a, (1.0 - ax / a) / a, 0.0)
    if kernel == "epanechnikov":
        a = bw * np.sqrt(5.0)
        return np.where(ax < a, 0.75 * (1.0 - (ax / a) ** 2) / a, 0.0)
    if kernel == "biweight":
        a = bw * np.sqrt(7.0)
        return np.where(ax < a, 15.0 / 16.0 * (1.0 - (ax / a) ** 2) ** 2 / a, 0.0)
    if kernel == "cosine":
        a = bw / np.sqrt(1.0 / 3.0 - 2.0 / np.pi**2)
        return np.where(ax < a, (1.0 + np.cos(np.pi * u / a)) / (2.0 * a), 0.0)
    a = bw / np.sqrt(1.0 - 8.0 / np.pi**2)  # optcosine
    return np.where(ax < a, np.pi / 4.0 * np.cos(np.pi * u / (2.0 * a)) / a, 0.0)


def kernel_density(x: np.ndarray, w: np.ndarray, bw: float, lo_x: float, hi_x: float,
                   n_out: int, kernel: str = "gaussian") -> np.ndarray:
    """Kernel density of ``x`` (weights ``w`` summing to 1) at ``n_out`` equally spaced points
    from ``lo_x`` to ``hi_x``, computed as R's ``density``: linear binning, FFT convolution,
    linear interpolation.

    Parameters
    ----------
    x, w : ndarray
        Values and their weights (summing to 1).
    bw : float
        The kernel's standard deviation.
    lo_x, hi_x : float
        The range of the output grid.
    n_out : int
        Points of the output grid.
    kernel : str, default='gaussian'
        One of ``KERNELS``.

    Returns
    -------
    ndarray of shape (n_out,)

    Examples
    --------
    >>> d = kernel_density(np.array([0.0]), np.array([1.0]), 1.0, -1.0, 1.0, 3)
    >>> bool(abs(d[1] - 1 / np.sqrt(2 * np.pi)) < 1e-3)
    True
    """
    n = max(n_out, 512)
    if n > 512:
        n = int(2 ** np.ceil(np.log2(n)))
    lo = lo_x - 4.0 * bw
    up = hi_x + 4.0 * bw
    delta = (up - lo) / (n - 1)  # R bins on n points and pads with n zeros
    pos = (x - lo) / delta
    ix = np.floor(pos).astype(np.int64)
    fx = pos - ix
    y = np.bincount(ix, weights=w * (1.0 - fx), minlength=2 * n + 1)
    y += np.bincount(ix + 1, weights=w * fx, minlength=2 * n + 1)
    y = y[: 2 * n]
    kords = np.linspace(0.0, 2.0 * (up - lo), 2 * n)
    kords[n + 1:] = -kords[1:n][::-1]
    k = _kernel(kords, bw, kernel)
    conv = np.fft.ifft(np.fft.fft(y) * np.conj(np.fft.fft(k))).real[:n]
    dens = np.maximum(conv, 0.0)
    xords = np.linspace(lo, up, n)
    return np.interp(np.linspace(lo_x, hi_x, n_out), xords, dens)


def curve_from_densities(f0: np.ndarray, f1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The smoothed curve of densities of the negatives ``f0`` and positives ``f1`` on one
    increasing grid, with the corners (0, 1) and (1, 0) added (pROC's construction).

    Parameters
    ----------
    f0, f1 : ndarray of shape (n,)

    Returns
    -------
    specificity, sensitivity : ndarray of shape (n + 2,)
        Specificity increasing.

    Raises
    ------
    ValueError
        A density that is zero at every point.

    Examples
    --------
    >>> sp, se = curve_from_densities(np.array([1.0, 0.0]), np.array([0.0, 1.0]))
    >>> sp.tolist(), se.tolist()
    ([0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0])
    """
    if not (f0.sum() > 0 and f1.sum() > 0):
        raise ValueError("the smoothed density of a class is zero at every point of the grid; "
                         "use more points (n) or a wider bandwidth")
    c0 = np.concatenate([[0.0], np.cumsum(f0)[:-1]])
    c1 = np.cumsum(f1[::-1])[::-1]
    sp = c0 / f0.sum()
    se = c1 / f1.sum()
    return np.concatenate([[0.0], sp, [1.0]]), np.concatenate([[1.0], se, [0.0]])


def _trapezoid(sp: np.ndarray, se: np.ndarray) -> float:
    return float(np.sum((se[1:] + se[:-1]) / 2.0 * np.diff(sp)))


def _fit(x: np.ndarray, w: np.ndarray | None, dist: str) -> tuple[dict[str, float], Any]:
    from scipy import stats

    if dist == "normal" or dist == "lognormal":
        v = x if dist == "normal" else np.log(x)
        mu = float(np.average(v, weights=w))
        sd = float(np.sqrt(np.average((v - mu) ** 2, weights=w)))
        if dist == "normal":
            return {"mean": mu, "sd": sd}, stats.norm(mu, sd).pdf
        return {"meanlog": mu, "sdlog": sd}, stats.lognorm(sd, scale=np.exp(mu)).pdf
    if dist == "exponential":
        rate = 1.0 / float(np.average(x, weights=w))
        return {"rate": rate}, stats.expon(scale=1.0 / rate).pdf
    if w is not None:
        raise ValueError(f"sample_weight is not supported with distribution {dist!r} (only "
                         "with 'normal', 'lognormal' and 'exponential', whose weighted "
                         "maximum likelihood has a closed form)")
    if dist == "logistic":
        loc, scale = stats.logistic.fit(x)
        return {"location": float(loc), "scale": float(scale)}, stats.logistic(loc, scale).pdf
    if dist == "gamma":
        shape, _, scale = stats.gamma.fit(x, floc=0.0)
        return ({"shape": float(shape), "rate": 1.0 / float(scale)},
                stats.gamma(shape, scale=scale).pdf)
    shape, _, scale = stats.weibull_min.fit(x, floc=0.0)
    return ({"shape": float(shape), "scale": float(scale)},
            stats.weibull_min(shape, scale=scale).pdf)


def _logcondens(neg: np.ndarray, pos: np.ndarray, n: int, method: str) -> SmoothROC:
    fits = []
    for cls, v in (("negative", neg), ("positive", pos)):
        k = np.unique(v).size
        if k < 2:
            raise ValueError(f"y_score needs at least two distinct scores in each class for "
                             f"method={method!r} (a log-concave density estimate per class); "
                             f"the {cls} class has {k}")
        fits.append(fit_log_concave(v, "y_score"))
    f0, f1 = fits
    smooth = method == "logcondens.smooth"
    fpr = np.minimum(np.arange(n) * (1.0 / (n - 1)), 1.0)  # R's seq(0, 1, 1 / (n - 1))
    cut = f0.quantile_logcondens(1.0 - fpr)  # as pROC: logcondens's quantiles
    inner = (fpr > 0) & (fpr < 1)
    se = np.where(fpr == 0, 0.0, 1.0)
    se[inner] = 1.0 - (f1.smooth_cdf(cut[inner]) if smooth else f1.cdf(cut[inner]))
    sp = np.concatenate([[0.0], (1.0 - fpr)[::-1], [1.0]])
    se = np.concatenate([[1.0], se[::-1], [0.0]])

    def about(f: LogConcaveDensity) -> dict[str, Any]:
        return {"knots": f.knots.tolist(), "log_density": f.phi[f.is_knot].tolist()}

    params = {"negative": about(f0), "positive": about(f1)}
    if smooth:
        params["positive"]["smoothing_sd"] = f1.smoothing_sd
    return SmoothROC(method, sp, se, _trapezoid(sp, se), params,
                     (REF_ROBIN, REF_RUFIBACH_2012, *LOGCONCAVE_REFERENCES))


def _check_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 2:
        raise ValueError(f"n must be an integer >= 2 (points of the smoothed curve), got {n!r}")
    return int(n)


def smooth_roc(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "binormal",
    n: int = 512,
    bw: Any = "nrd0",
    adjust: float = 1.0,
    kernel: str = "gaussian",
    distribution: str = "normal",
    distribution_negative: str | None = None,
    distribution_positive: str | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> SmoothROC:
    """Smoothed ROC curve and its area (pROC's ``smooth``; see the module notes).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (two classes, or any labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; higher means more likely positive (pROC's ``direction="<"``).
    method : {'binormal', 'density', 'fitdistr', 'logcondens', 'logcondens.smooth'}, \
default='binormal'
    n : int, default=512
        Points of the smoothed curve.
    bw : {'nrd0', 'nrd', 'ucv', 'bcv', 'SJ', 'SJ-ste', 'SJ-dpi'} or float, default='nrd0'
        Bandwidth of ``'density'``: a rule of :func:`confmat.curves.bandwidth.bandwidth`
        (names in any case, as R's ``density``; pROC's ``smooth`` takes ``'nrd0'``, ``'nrd'``,
        ``'ucv'``, ``'bcv'`` and ``'SJ'``, the last being ``'SJ-ste'``), computed on the
        scores of both classes together (unweighted, as R's ``density``), or a positive
        number.
    adjust : float, default=1.0
        Multiplier of the bandwidth.
    kernel : str, default='gaussian'
        Kernel of ``'density'``: 'gaussian', 'epanechnikov', 'rectangular', 'triangular',
        'biweight', 'cosine' or 'optcosine' (R's kernels, scaled to standard deviation ``bw``).
    distribution : str, default='normal'
        Distribution of ``'fitdistr'`` for both classes: 'normal', 'lognormal',
        'exponential', 'logistic', 'gamma' or 'weibull'.
    distribution_negative, distribution_positive : str, optional
        One class's distribution, overriding ``distribution``.
    pos_label : label, optional
        The positive class.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights: weighted empirical curve (binormal), weighted kernel density,
        weighted maximum likelihood (normal, lognormal, exponential only); not with the
        logcondens methods (pROC's, through logcondens's ``logConDens``, take none).

    Returns
    -------
    SmoothROC

    Warns
    -----
    UserWarning
        ``bw='ucv'`` or ``'bcv'`` whose criterion has its minimum at an end of the search
        range (R's "minimum occurred at one end of the range").

    Raises
    ------
    ValueError
        Unknown method, kernel, bandwidth rule or distribution; a non-positive bandwidth; a
        bandwidth rule other than ``'nrd0'`` on scores that are all equal, or a Sheather-Jones
        rule without a solution (too many ties); a class missing; a curve with too few points for the binormal fit; non-positive
        scores for the log-normal, exponential, gamma and Weibull fits; a smoothed density
        that is zero at every point of the grid; weights with a
        distribution that has no closed-form weighted fit; weights with the logcondens
        methods, or a class with fewer than two distinct scores for them; bad labels, scores
        or weights.

    Examples
    --------
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> s = [0.1, 0.3, 0.5, 0.7, 0.4, 0.6, 0.8, 0.9]
    >>> sm = smooth_roc(y, s)  # Phi(a / sqrt(1 + b**2)) of the least-squares binormal fit
    >>> round(sm.auc, 6), round(sm.params["a"], 6), round(sm.params["b"], 6)  # as pROC
    (0.726839, 0.67449, -0.5)
    >>> round(smooth_roc(y, s, method="density").auc, 6)  # pROC: 0.7661766507
    0.766177
    >>> round(smooth_roc(y, s, method="fitdistr").auc, 6)  # pROC: 0.7942021029
    0.794202
    >>> round(smooth_roc(y, s, method="logcondens").auc, 6)  # pROC: 0.8758052821
    0.875805
    >>> round(smooth_roc(y, s, method="logcondens.smooth").auc, 6)  # pROC: 0.8294676433
    0.829468
    """
    method = check_choice(method, METHODS, "method")
    n = _check_n(n)
    if method.startswith("logcondens") and sample_weight is not None:
        raise ValueError(f"sample_weight is not supported with method={method!r}: pROC's "
                         "log-concave smoothing (logcondens's logConDens) has no weights")
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    w = b.weight
    if w is not None:
        w0, w1 = w[~b.pos], w[b.pos]
        if w0.sum() <= 0 or w1.sum() <= 0:
            raise ValueError("smoothing needs both classes with positive weight")
    elif b.pos.all() or not b.pos.any():
        raise ValueError("smoothing needs both classes in y_true")
    if method == "binormal":
        _, se, sp = se_sp_points(b.pos, b.score, w)
        a, slope = binormal_fit(se, sp)
        from scipy.special import ndtr, ndtri

        grid = np.arange(n) * (1.0 / (n - 1))
        z = ndtri(grid)
        sens, spec = ndtr(z), ndtr(a + slope * z)
        if np.any(np.diff(spec) < 0):  # pROC sorts the points by increasing specificity
            sens, spec = sens[::-1], spec[::-1]
        return SmoothROC(
            "binormal", np.concatenate([[0.0], spec, [1.0]]),
            np.concatenate([[1.0], sens, [0.0]]), float(ndtr(a / np.sqrt(1.0 + slope**2))),
            {"a": a, "b": slope}, (REF_ROBIN, REF_METZ))
    neg, pos = b.score[~b.pos], b.score[b.pos]
    if method.startswith("logcondens"):
        return _logcondens(neg, pos, n, method)
    wn = None if w is None else w[~b.pos]
    wp = None if w is None else w[b.pos]
    if method == "density":
        kernel = check_choice(kernel, KERNELS, "kernel")
        if isinstance(adjust, bool) or not isinstance(adjust, int | float | np.number) or \
                not np.isfinite(adjust) or adjust <= 0:
            raise ValueError(f"adjust must be a positive number, got {adjust!r}")
        if isinstance(bw, str):
            if canonical_rule(bw) is None:
                raise ValueError(f"bw must be one of {', '.join(map(repr, BANDWIDTHS))} (any "
                                 f"case) or a positive number, got {bw!r}")
            h = rule_bandwidth(np.concatenate([neg, pos]), bw)  # pROC: controls, then cases
            refs = rule_references(bw)
        elif isinstance(bw, bool) or not isinstance(bw, int | float | np.number):
            raise TypeError(f"bw must be a rule ({', '.join(map(repr, BANDWIDTHS))}) or a "
                            f"positive number, got {bw!r}")
        else:
            h, refs = float(bw), (REF_SILVERMAN,)
        h *= float(adjust)
        if not np.isfinite(h) or h <= 0:
            raise ValueError(f"the bandwidth must be finite and positive, got {h!r} (scores "
                             "all equal? give bw= a positive number)")
        lo, hi = float(b.score.min()) - 3.0 * h, float(b.score.max()) + 3.0 * h

        def weights(v: np.ndarray, wv: np.ndarray | None) -> np.ndarray:
            return np.full(v.size, 1.0 / v.size) if wv is None else wv / wv.sum()

        f0 = kernel_density(neg, weights(neg, wn), h, lo, hi, n, kernel)
        f1 = kernel_density(pos, weights(pos, wp), h, lo, hi, n, kernel)
        sp, se = curve_from_densities(f0, f1)
        return SmoothROC("density", sp, se, _trapezoid(sp, se),
                         {"bandwidth": h, "kernel": kernel}, (REF_ROBIN, *refs))
    d0 = check_choice(distribution_negative or distribution, DISTRIBUTIONS,
                       "distribution_negative" if distribution_negative else "distribution")
    d1 = check_choice(distribution_positive or distribution, DISTRIBUTIONS,
                       "distribution_positive" if distribution_positive else "distribution")
    for d, v in ((d0, neg), (d1, pos)):
        if d in ("lognormal", "exponential", "gamma", "weibull") and (v <= 0).any():
            raise ValueError(f"distribution {d!r} needs positive scores; y_score has "
                             f"{int((v <= 0).sum())} non-positive score(s) in that class")
    p0, pdf0 = _fit(neg, wn, d0)
    p1, pdf1 = _fit(pos, wp, d1)
    x = np.linspace(float(b.score.min()), float(b.score.max()), n)
    sp, se = curve_from_densities(pdf0(x), pdf1(x))
    return SmoothROC("fitdistr", sp, se, _trapezoid(sp, se),
                     {"negative": {"distribution": d0, **p0},
                      "positive": {"distribution": d1, **p1}}, (REF_ROBIN,))
