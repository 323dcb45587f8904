r"""Bandwidth selectors of the Gaussian kernel density estimate, as R's ``bw.nrd0``, ``bw.nrd``,
``bw.ucv``, ``bw.bcv`` and ``bw.SJ`` (which R's ``density`` and pROC's ``smooth`` call).

**Rules of thumb.** Silverman's (1986) ``'nrd0'`` is :math:`0.9\,\min(s, \mathrm{IQR}/1.34)\,
n^{-1/5}` and Scott's (1992) ``'nrd'`` is :math:`1.06\,\min(s, \mathrm{IQR}/1.34)\,n^{-1/5}`,
with :math:`s` the standard deviation and the quartiles of R's default (type 7) definition.

**Binned pairwise distances.** The three data-driven selectors work, as R's do, on the
distances between pairs of scores rounded to a grid: with :math:`d = 1.01\,(\max x - \min x) /
1000`, each score falls in bin :math:`\lfloor x/d \rceil` (truncation toward zero) and the
:math:`n(n-1)/2` pairs are counted by their bin distance :math:`k`, a pair at distance
:math:`k` being taken :math:`k d` apart. With :math:`c_k` those counts and
:math:`\Delta_k = (k d / h)^2`, terms with :math:`\Delta_k \ge 1000` are dropped.

**Unbiased (least-squares) cross-validation**, ``'ucv'`` (Scott 1992, formula 6.67): :math:`h`
minimises

.. math:: \mathrm{UCV}(h) = \frac{1}{2 n h \sqrt{\pi}} + \frac{1}{n^2 h \sqrt{\pi}} \sum_k c_k
          \left(e^{-\Delta_k / 4} - \sqrt{8}\, e^{-\Delta_k / 2}\right).

**Biased cross-validation**, ``'bcv'`` (Scott 1992, formula 6.69 as corrected in R): :math:`h`
minimises

.. math:: \mathrm{BCV}(h) = \frac{1}{2 n h \sqrt{\pi}} + \frac{1}{64 n^2 h \sqrt{\pi}} \sum_k
          c_k\, e^{-\Delta_k / 4} \left(\Delta_k^2 - 12 \Delta_k + 12\right).

Both are minimised on :math:`[h_{max}/10, h_{max}]`, :math:`h_{max} = 1.144\, s\, n^{-1/5}`, by
Brent's (1973) golden-section and parabolic search to the tolerance :math:`h_{max}/100`; a
minimum within one tolerance of an end of the range is reported by a ``UserWarning`` (as R
warns). The search reproduces R's ``optimize`` step for step (the same machine-epsilon
conventions), so the result agrees with R's to rounding, not just to the tolerance.

**Sheather and Jones (1991)**, ``'SJ'`` (``'SJ-ste'``, solve-the-equation) and ``'SJ-dpi'``
(direct plug-in). With :math:`\phi^{(4)}(u) = (u^4 - 6u^2 + 3)\phi(u)` and
:math:`\phi^{(6)}(u) = (u^6 - 15u^4 + 45u^2 - 15)\phi(u)`, the density functionals are
estimated from the binned pairs, the diagonal included,

.. math:: \hat S(\alpha) = \frac{\sum_{i,j} \phi^{(4)}((x_i - x_j)/\alpha)}{n(n-1)\alpha^5},
          \qquad \hat T(b) = \frac{\sum_{i,j} \phi^{(6)}((x_i - x_j)/b)}{n(n-1) b^7},

with the pilot bandwidths :math:`a = 1.24\,\lambda\, n^{-1/7}` and :math:`b = 1.23\,\lambda\,
n^{-1/9}`, :math:`\lambda = \min(s, \mathrm{IQR}/1.349)`. The plug-in bandwidth is
:math:`h = (c_1 / \hat S((2.394 / (n \hat T))^{1/7}))^{1/5}` with :math:`c_1 = 1/(2\sqrt{\pi}
n)`; solve-the-equation finds the root of :math:`h \mapsto (c_1 / \hat S(\alpha_2 h^{5/7}))^{1/5}
- h`, :math:`\alpha_2 = 1.357 (\hat S(a) / \hat T)^{1/7}`, by Brent's (1973) zero finder
started on :math:`[h_{max}/10, h_{max}]` (:math:`h_{max} = 1.144\,\lambda\,n^{-1/5}`; the range is
widened by factors of 1.2 until it brackets a root) to the tolerance of a tenth of its lower
end.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..inputs.scores import finite_float, numeric_1d

__all__ = ["BANDWIDTHS", "bandwidth", "binned_pair_counts", "brent_minimum", "brent_root",
           "canonical_rule", "rule_bandwidth", "rule_references"]

REF_SILVERMAN = (
    "Silverman, B. W. (1986), Density Estimation for Statistics and Data Analysis, Chapman & "
    "Hall."
)
REF_SCOTT = "Scott, D. W. (1992), Multivariate Density Estimation, Wiley."
REF_SHEATHER_JONES = (
    "Sheather, S. J., Jones, M. C. (1991), A reliable data-based bandwidth selection method "
    "for kernel density estimation, Journal of the Royal Statistical Society B 53(3), 683-690."
)
REF_BRENT = "Brent, R. P. (1973), Algorithms for Minimization without Derivatives, Prentice-Hall."

BANDWIDTHS = ("nrd0", "nrd", "ucv", "bcv", "SJ", "SJ-ste", "SJ-dpi")
"""The bandwidth rules :func:`bandwidth` and ``smooth_roc(bw=...)`` take, in R's spelling
(``bw.nrd0``, ``bw.nrd``, ``bw.ucv``, ``bw.bcv``, ``bw.SJ`` with ``method="ste"`` or
``"dpi"``; ``"SJ"`` is ``"SJ-ste"``, as in R's ``density``). Matched case-insensitively."""

_NBINS = 1000
_DELMAX = 1000.0
_SQRT_PI = 1.772453850905516027298167483341  # sqrt(pi), as a correctly rounded constant
_INV_SQRT_2PI = 0.398942280401432677939946059934  # 1 / sqrt(2 pi)
_EPS = 2.0 ** -52  # the machine epsilon of float64


def brent_minimum(f: Callable[[float], float], lower: float, upper: float,
                  tol: float) -> float:
    """Minimum of ``f`` on ``[lower, upper]`` by Brent's (1973) golden-section and parabolic
    search (R's ``optimize``, with its conventions).

    The function is never evaluated at the ends; a new point is at least
    :math:`\\sqrt{\\epsilon}\\,|x| + \\mathrm{tol}/3` from the current best :math:`x`
    (:math:`\\epsilon = 2^{-52}`), and the search stops when the bracket around :math:`x` is
    within twice that of its midpoint.

    Parameters
    ----------
    f : callable
        The function of one float.
    lower, upper : float
        The search range, ``lower < upper``.
    tol : float
        The absolute tolerance.

    Returns
    -------
    float
        The abscissa of the minimum found.

    Examples
    --------
    >>> round(brent_minimum(lambda x: (x - 1.0) ** 2, 0.0, 3.0, 1e-10), 8)
    1.0
    """
    golden = (3.0 - math.sqrt(5.0)) * 0.5
    root_eps = math.sqrt(_EPS)
    a, b = lower, upper
    x = w = v = a + golden * (b - a)
    fx = fw = fv = f(x)
    step = last = 0.0  # the step just taken and the one before it
    third = tol / 3.0
    while True:
        mid = (a + b) * 0.5
        tol1 = root_eps * abs(x) + third
        tol2 = 2.0 * tol1
        if abs(x - mid) <= tol2 - (b - a) * 0.5:
            return x
        p = q = r = 0.0
        if abs(last) > tol1:  # try the parabola through (v, fv), (w, fw), (x, fx)
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            else:
                q = -q
            r, last = last, step
        if abs(p) >= abs(0.5 * q * r) or p <= q * (a - x) or p >= q * (b - x):
            last = (b - x) if x < mid else (a - x)
            step = golden * last
        else:
            step = p / q
            u = x + step
            if u - a < tol2 or b - u < tol2:  # keep away from the ends
                step = -tol1 if x >= mid else tol1
        if abs(step) >= tol1:
            u = x + step
        else:
            u = x + tol1 if step > 0.0 else x - tol1
        fu = f(u)
        if fu <= fx:
            if u < x:
                b = x
            else:
                a = x
            v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv, w, fw = w, fw, u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu


def brent_root(f: Callable[[float], float], lower: float, upper: float, f_lower: float,
               f_upper: float, tol: float, maxiter: int = 1000) -> float:
    """A root of ``f`` in ``[lower, upper]`` by Brent's (1973) zero finder (bisection, secant
    and inverse quadratic interpolation; R's ``uniroot``, with its conventions).

    Parameters
    ----------
    f : callable
        The function of one float.
    lower, upper : float
        The bracket.
    f_lower, f_upper : float
        ``f`` at the ends, of opposite signs (or one of them zero).
    tol : float
        The absolute tolerance; the step is at least :math:`2\\epsilon|b| + \\mathrm{tol}/2`.
    maxiter : int, default=1000
        Evaluations of ``f`` before giving up (the last iterate is returned).

    Returns
    -------
    float

    Examples
    --------
    >>> g = lambda x: x * x - 2.0
    >>> round(brent_root(g, 0.0, 2.0, g(0.0), g(2.0), 1e-12), 10)
    1.4142135624
    """
    a, b, fa, fb = lower, upper, f_lower, f_upper
    c, fc = a, fa
    if fa == 0.0:
        return a
    if fb == 0.0:
        return b
    for _ in range(maxiter + 1):
        prev = b - a
        if abs(fc) < abs(fb):  # b is the best guess, c on the other side of the root
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol_b = 2.0 * _EPS * abs(b) + tol / 2.0
        step = (c - b) / 2.0
        if abs(step) <= tol_b or fb == 0.0:
            return b
        if abs(prev) >= tol_b and abs(fa) > abs(fb):
            cb = c - b
            if a == c:  # secant
                s = fb / fa
                p = cb * s
                q = 1.0 - s
            else:  # inverse quadratic interpolation
                qa, s, t = fa / fc, fb / fc, fb / fa
                p = t * (cb * qa * (qa - s) - (b - a) * (s - 1.0))
                q = (qa - 1.0) * (s - 1.0) * (t - 1.0)
            if p > 0.0:
                q = -q
            else:
                p = -p
            if p < 0.75 * cb * q - abs(tol_b * q) / 2.0 and p < abs(prev * q / 2.0):
                step = p / q
        if abs(step) < tol_b:
            step = tol_b if step > 0.0 else -tol_b
        a, fa = b, fb
        b += step
        fb = f(b)
        if (fb > 0.0 and fc > 0.0) or (fb < 0.0 and fc < 0.0):
            c, fc = a, fa
    return b


def binned_pair_counts(x: np.ndarray, nb: int = _NBINS) -> tuple[float, np.ndarray]:
    """Pairs of ``x`` counted by binned distance (the data of ``'ucv'``, ``'bcv'`` and
    ``'SJ'``).

    Parameters
    ----------
    x : ndarray
        At least two values, not all equal.
    nb : int, default=1000
        Number of bins over 1.01 times the range.

    Returns
    -------
    d : float
        The bin width.
    counts : ndarray of shape (nb,)
        ``counts[k]``: the pairs ``i < j`` whose bins are ``k`` apart.

    Examples
    --------
    >>> d, c = binned_pair_counts(np.array([0.0, 1.0, 1.0]), nb=10)
    >>> round(d, 3), c[:3].tolist(), int(c.sum())
    (0.101, [1.0, 0.0, 0.0], 3)
    """
    d = (float(x.max()) - float(x.min())) * 1.01 / nb
    bins = np.trunc(x / d).astype(np.int64)
    bins -= bins.min()
    per_bin = np.bincount(bins, minlength=nb)[:nb]
    counts = np.correlate(per_bin, per_bin, mode="full")[nb - 1:].astype(np.float64)
    counts[0] = float(np.sum(per_bin * (per_bin - 1)) // 2)
    return d, counts


def _sums(d: float, counts: np.ndarray, h: float) -> tuple[np.ndarray, np.ndarray]:
    """Squared scaled distances below the cut-off and their counts."""
    delta = np.arange(counts.size) * d / h
    delta *= delta
    keep = int(np.searchsorted(delta >= _DELMAX, True))  # delta increases with k
    return delta[:keep], counts[:keep]


def _exp(v: np.ndarray) -> np.ndarray:
    # the C library's exp, as R's: NumPy's vectorised exp differs in the last bit for a few
    # per cent of arguments, enough to move Brent's iterates by 1e-12
    return np.fromiter(map(math.exp, v.tolist()), np.float64, v.size)


def _total(terms: np.ndarray) -> float:
    # summed left to right, as R's loop does (pairwise summation would round differently)
    return float(np.cumsum(terms)[-1]) if terms.size else 0.0


def _ucv(n: int, d: float, counts: np.ndarray, h: float) -> float:
    delta, c = _sums(d, counts, h)
    s = _total((_exp(-delta / 4.0) - math.sqrt(8.0) * _exp(-delta / 2.0)) * c)
    return (0.5 + s / n) / (n * h * _SQRT_PI)


def _bcv(n: int, d: float, counts: np.ndarray, h: float) -> float:
    delta, c = _sums(d, counts, h)
    s = _total(_exp(-delta / 4.0) * (delta * delta - 12.0 * delta + 12.0) * c)
    return (1.0 + s / (32.0 * n)) / (2.0 * n * h * _SQRT_PI)


def _phi4(n: int, d: float, counts: np.ndarray, h: float) -> float:
    delta, c = _sums(d, counts, h)
    s = _total(_exp(-delta / 2.0) * (delta * delta - 6.0 * delta + 3.0) * c)
    s = 2.0 * s + n * 3.0  # the diagonal i = j
    return float(np.float64(s) / (float(n) * (n - 1) * h ** 5.0) * _INV_SQRT_2PI)


def _phi6(n: int, d: float, counts: np.ndarray, h: float) -> float:
    delta, c = _sums(d, counts, h)
    s = _total(_exp(-delta / 2.0)
               * (delta * delta * delta - 15.0 * delta * delta + 45.0 * delta - 15.0) * c)
    s = 2.0 * s - 15.0 * n  # the diagonal i = j
    return float(np.float64(s) / (float(n) * (n - 1) * h ** 7.0) * _INV_SQRT_2PI)


def _var(x: np.ndarray) -> float:
    """Sample variance in R's arithmetic: sums in long double, the mean refined by a second
    pass over the deviations and rounded to float64, then the squared deviations summed in
    long double."""
    ext = x.astype(np.longdouble)
    n = x.size
    mean = np.cumsum(ext)[-1] / n
    mean = mean + np.cumsum(ext - mean)[-1] / n
    dev = ext - np.longdouble(float(mean))
    return float(np.cumsum(dev * dev)[-1] / (n - 1))


def _iqr(x: np.ndarray) -> float:
    """Interquartile range with R's type-7 quantiles, in R's arithmetic."""
    xs = np.sort(x)
    out = []
    for prob in (0.25, 0.75):
        index = 1.0 + (xs.size - 1) * prob
        lo = math.floor(index)
        hi = math.ceil(index)
        q = float(xs[lo - 1])
        h = index - lo
        if index > lo and xs[hi - 1] != q:
            q = (1.0 - h) * q + h * float(xs[hi - 1])
        out.append(q)
    return out[1] - out[0]


def _cross_validation(x: np.ndarray, ucv: bool, chosen: str) -> float:
    n = x.size
    hmax = 1.144 * math.sqrt(_var(x)) * n ** (-1.0 / 5.0)
    lower, upper = 0.1 * hmax, hmax
    tol = 0.1 * lower
    d, counts = binned_pair_counts(x)
    crit = _ucv if ucv else _bcv
    name = "ucv" if ucv else "bcv"
    h = brent_minimum(lambda b: crit(n, d, counts, b), lower, upper, tol)
    if h < lower + tol or h > upper - tol:
        warnings.warn(f"{chosen}: the minimum of the {name.upper()} criterion occurred at "
                      f"one end of the search range [{lower:.6g}, {upper:.6g}] (as R's "
                      f"bw.{name} warns); the bandwidth {h:.6g} may not be a true minimum",
                      UserWarning, stacklevel=3)
    return h


def _root(value: float, k: float) -> float:
    """``value ** (1 / k)`` with IEEE semantics (nan below zero, as R's ``^``)."""
    return value ** (1.0 / k) if value >= 0 else math.nan


def _sheather_jones(x: np.ndarray, dpi: bool, chosen: str) -> float:
    n = x.size
    d, counts = binned_pair_counts(x)
    scale = min(math.sqrt(_var(x)), _iqr(x) / 1.349)
    a = 1.24 * scale * n ** (-1.0 / 7.0)
    b = 1.23 * scale * n ** (-1.0 / 9.0)
    c1 = 1.0 / (2.0 * math.sqrt(math.pi) * n)
    with np.errstate(all="ignore"):
        td = -_phi6(n, d, counts, b)
        if not (math.isfinite(td) and td > 0):
            raise ValueError(f"{chosen}: the sample is too sparse to estimate the sixth-"
                             "derivative functional (R: 'sample is too sparse to find TD'); "
                             "too many tied scores? use another rule or a number")
        if dpi:
            h = _root(float(np.float64(c1) / _phi4(n, d, counts, _root(2.394 / (n * td), 7.0))),
                      5.0)
            if not (math.isfinite(h) and h > 0):
                raise ValueError(f"{chosen}: the plug-in bandwidth is not a positive "
                                 f"number ({h}); the sample is too sparse")
            return h
        alpha2 = 1.357 * _root(float(np.float64(_phi4(n, d, counts, a)) / td), 7.0)
        if not math.isfinite(alpha2):
            raise ValueError(f"{chosen}: the sample is too sparse to estimate the pilot "
                             "bandwidth (R: 'sample is too sparse to find alph2')")

        def gap(h: float) -> float:
            return _root(float(np.float64(c1) / _phi4(n, d, counts, alpha2 * h ** (5.0 / 7.0))),
                         5.0) - h

        hmax = 1.144 * scale * n ** (-1.0 / 5.0)
        lower, upper = 0.1 * hmax, hmax
        f_lower, f_upper = gap(lower), gap(upper)
        tries = 1
        while not f_lower * f_upper <= 0:  # nan too: R stops there
            if tries > 99 or math.isnan(f_lower * f_upper):
                raise ValueError(f"{chosen}: the Sheather-Jones equation has no solution "
                                 f"in the searched range of bandwidths (up to [{lower:.6g}, "
                                 f"{upper:.6g}])")
            if tries % 2:
                upper *= 1.2
                f_upper = gap(upper)
            else:
                lower /= 1.2
                f_lower = gap(lower)
            tries += 1
        return brent_root(gap, lower, upper, f_lower, f_upper, 0.1 * lower)


def _rule_of_thumb(x: np.ndarray, rule: str) -> float:
    sd = math.sqrt(_var(x))
    lo = min(sd, _iqr(x) / 1.34)
    if rule == "nrd":
        return 1.06 * lo * x.size ** (-1.0 / 5.0)
    if not lo:
        lo = sd or abs(float(x[0])) or 1.0
    return 0.9 * lo * x.size ** (-0.2)


def canonical_rule(rule: str) -> str | None:
    """The spelling in ``BANDWIDTHS`` of a rule name matched case-insensitively (as R's
    ``density`` does), or None.

    Parameters
    ----------
    rule : str

    Returns
    -------
    str or None

    Examples
    --------
    >>> canonical_rule("sj"), canonical_rule("UCV"), canonical_rule("scott")
    ('SJ', 'ucv', None)
    """
    for name in BANDWIDTHS:
        if name.lower() == rule.lower():
            return name
    return None


def rule_references(rule: str) -> tuple[str, ...]:
    """The references of a bandwidth rule (kernel density estimation, then the selector).

    Parameters
    ----------
    rule : str
        One of ``BANDWIDTHS``, in any case.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> [r.split(",")[0] for r in rule_references("sj-dpi")]
    ['Silverman', 'Sheather']
    """
    name = canonical_rule(rule)
    extra = {"nrd0": (), "nrd": (REF_SCOTT,), "ucv": (REF_SCOTT, REF_BRENT),
             "bcv": (REF_SCOTT, REF_BRENT), "SJ-dpi": (REF_SHEATHER_JONES,)}.get(
                 name or "", (REF_SHEATHER_JONES, REF_BRENT))
    return (REF_SILVERMAN, *extra)


def bandwidth(x: Any, rule: str) -> float:
    """The bandwidth of a rule, as R's ``bw.nrd0``, ``bw.nrd``, ``bw.ucv``, ``bw.bcv`` and
    ``bw.SJ`` (see the module notes).

    Parameters
    ----------
    x : array-like of shape (n,)
        The values: finite numbers, at least two.
    rule : str
        One of ``BANDWIDTHS``, in any case.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        ``rule`` is not a string; ``x`` holds values that are not numbers.
    ValueError
        An unknown rule; ``x`` not 1-D, with fewer than two values or a non-finite one; all
        values equal (except ``'nrd0'``, which falls back as R's does); a Sheather-Jones
        selector without a solution.

    Warns
    -----
    UserWarning
        ``'ucv'`` or ``'bcv'``: the minimum is at an end of the search range.

    Examples
    --------
    >>> round(bandwidth(np.arange(10.0), "nrd0"), 9)  # R: bw.nrd0(0:9) = 1.719286405
    1.719286405
    >>> x = np.r_[0:10, 20:30] / 10.0  # two clusters
    >>> round(bandwidth(x, "ucv"), 9)  # R: bw.ucv(x) = 0.350359937732
    0.350359938
    >>> round(bandwidth(x, "SJ"), 9), round(bandwidth(x, "sj-dpi"), 9)  # R: bw.SJ(x), dpi
    (0.29228538, 0.355133753)
    >>> bandwidth(["a", "b"], "nrd0")
    Traceback (most recent call last):
    ...
    TypeError: x must contain numbers, got dtype <U1
    """
    if not isinstance(rule, str):
        raise TypeError(f"rule must be a string, one of {', '.join(map(repr, BANDWIDTHS))}, "
                        f"got {type(rule).__name__} {rule!r}")
    if canonical_rule(rule) is None:
        raise ValueError(f"rule must be one of {', '.join(map(repr, BANDWIDTHS))} (any case), "
                         f"got {rule!r}")
    values = numeric_1d(x, "x")
    return rule_bandwidth(finite_float(values, len(values), "x"), rule, option="rule")


def rule_bandwidth(x: np.ndarray, rule: str, option: str = "bw") -> float:
    """:func:`bandwidth` of checked values: ``x`` finite float64, 1-D; ``rule`` a known rule.

    ``option`` names the caller's argument in the messages (``smooth_roc``'s ``bw=``).

    Parameters
    ----------
    x : ndarray of float64
        Finite values.
    rule : str
        One of ``BANDWIDTHS``, in any case.
    option : str, default "bw"
        The argument that chose the rule, for the messages.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Fewer than two values; all values equal (except ``'nrd0'``); a Sheather-Jones
        selector without a solution.

    Examples
    --------
    >>> rule_bandwidth(np.array([1.0, 1.0]), "ucv")
    Traceback (most recent call last):
    ...
    ValueError: bw='ucv' needs scores that are not all equal (no spread to select a bandwidth from); give bw= a positive number
    """
    name = canonical_rule(rule)
    if x.size < 2:
        raise ValueError(f"{option}={rule!r} needs at least two values, got {x.size}")
    if name in ("nrd0", "nrd"):
        return _rule_of_thumb(x, name)
    if float(x.min()) == float(x.max()):
        if option == "bw":
            raise ValueError(f"bw={rule!r} needs scores that are not all equal (no spread to "
                             "select a bandwidth from); give bw= a positive number")
        raise ValueError(f"{option}={rule!r} needs values of x that are not all equal (no "
                         "spread to select a bandwidth from)")
    if name in ("ucv", "bcv"):
        return _cross_validation(x, name == "ucv", f"{option}={rule!r}")
    return _sheather_jones(x, name == "SJ-dpi", f"{option}={rule!r}")
