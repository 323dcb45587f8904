r"""Power and sample size of tests on ROC areas, as pROC's ``power.roc.test`` (Robin et al.
2011), after Obuchowski and McClish (1997) and Obuchowski et al. (2004).

**One curve against AUC = 0.5.** With :math:`n` cases (positives), :math:`\kappa n` controls
and :math:`\theta` the AUC, the normal approximation gives

.. math:: n = \frac{\left(z_\alpha \sqrt{V_0} + z_\beta \sqrt{V_\theta}\right)^2}
          {(\theta - 0.5)^2},

with :math:`V_0 = 0.0792\,(1 + 1/\kappa)` under the null and Obuchowski's binormal
approximation :math:`V_\theta = 0.0099\, e^{-A^2/2}\left((5A^2 + 8) + (A^2 + 8)/\kappa\right)`,
:math:`A = 1.414\,\Phi^{-1}(\theta)`. :math:`z_\alpha = \Phi^{-1}(1 - \alpha)` (with
:math:`\alpha` halved for a two-sided test) and :math:`z_\beta = \Phi^{-1}(\text{power})`. Any one
of :math:`n`, power, :math:`\alpha` and :math:`\theta` is solved from the others (:math:`\theta`
numerically). A power below :math:`\Phi(-z_\alpha\sqrt{V_0}/\sqrt{V_\theta})`, the power of the
test as :math:`n \to 0`, has no sample size, difference or AUC: it is a ``ValueError`` (pROC
squares the equation and returns a value whose power is another one). A two-sided
:math:`\alpha` solved from a power that no level reaches is returned as pROC returns it,
:math:`2(1 - \Phi(z))` with :math:`z < 0`, which exceeds 1 (the pROC comparisons in
``tests/test_roc_power*.py`` pin such values): read a ``sig_level`` above 1 as "unreachable".

**Two paired curves.** With :math:`\delta = A_1 - A_2`, the per-case variances
:math:`V_1, V_2` and covariance :math:`C` of the two areas, :math:`V_0 = 2V_1 - 2C` under the
null and :math:`V_a = V_1 + V_2 - 2C` under the alternative in the same formula. From data
the variances are DeLong's (pROC's default), Obuchowski's binormal ones (from the
least-squares binormal fits of :mod:`confmat.curves.smooth` and the correlations of the
scores within each class) or the bootstrap's (the sample variances and covariance, with
denominator :math:`B - 1`, of the two areas over :math:`B` paired resamples, times the number
of cases, as pROC's ``cov(roc1, roc2, method="bootstrap")``); from given binormal parameters
they are Obuchowski's, and :func:`power_roc_test_variances` takes them as numbers. Both forms
of Obuchowski's variances cover partial areas over a false-positive-rate range (from data: the
observed partial areas and the binormal fits, as pROC on curves made with ``partial.auc=``);
the bootstrap covers partial areas over a false-positive-rate or a sensitivity range.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..curves.partial import REF_ROBIN
from .common import as_float
from .roc_obuchowski import binormal_cov, binormal_var

__all__ = [
    "PowerResult",
    "power_roc_test",
    "power_roc_test_binormal",
    "power_roc_test_variances",
]

REF_OBUCHOWSKI_1997 = (
    "Obuchowski, N. A., McClish, D. K. (1997), Sample size determination for diagnostic "
    "accuracy studies involving binormal ROC curve indices, Statistics in Medicine 16(13), "
    "1529-1542."
)
REF_OBUCHOWSKI_2004 = (
    "Obuchowski, N. A., Lieber, M. L., Wians, F. H. (2004), ROC curves in Clinical Chemistry: "
    "uses, misuses, and possible solutions, Clinical Chemistry 50(7), 1118-1125."
)
ALTERNATIVES = ("two-sided", "one-sided")
METHODS = ("delong", "obuchowski", "bootstrap")


@dataclass(frozen=True)
class PowerResult:
    """A power / sample-size calculation (:func:`power_roc_test` and friends).

    Parameters
    ----------
    n_cases, n_controls : float
        Positives and negatives (solved values are not rounded).
    sig_level, power : float
    alternative : str
    auc : tuple of float
        The AUC of one curve, or of the two curves (may be empty for binormal parameters).
    delta : float or None
        The difference of the two areas (two curves).
    solved : str
        What was solved: ``'n'``, ``'power'``, ``'sig_level'``, ``'auc'`` or ``'delta'``.
    method : str
        A description of the calculation.
    references : tuple of str
    n_resamples : int or None
        Bootstrap resamples the variances come from (``method='bootstrap'``; pooled
        resamples that lack a class are left out), else None.

    Examples
    --------
    >>> r = power_roc_test(auc=0.8, power=0.9)
    >>> r.solved, round(r.n_cases, 6)  # pROC: 16.6191992021
    ('n', 16.619199)
    """

    n_cases: float
    n_controls: float
    sig_level: float
    power: float
    alternative: str
    auc: tuple[float, ...]
    delta: float | None
    solved: str
    method: str
    references: tuple[str, ...] = field(default=(REF_ROBIN, REF_OBUCHOWSKI_2004))
    n_resamples: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict

        Examples
        --------
        >>> power_roc_test(auc=0.8, power=0.9).to_dict()["solved"]
        'n'
        """
        return {"n_cases": self.n_cases, "n_controls": self.n_controls,
                "sig_level": self.sig_level, "power": self.power,
                "alternative": self.alternative, "auc": list(self.auc), "delta": self.delta,
                "solved": self.solved, "method": self.method,
                "references": list(self.references), "n_resamples": self.n_resamples}


def normal_functions() -> tuple[Any, Any]:
    """SciPy's standard normal CDF and its inverse, ``(ndtr, ndtri)``, imported on first use
    (the power functions of this module and of :mod:`confmat.inference.power_prop`).

    Returns
    -------
    tuple of two ufuncs

    Examples
    --------
    >>> ndtr, ndtri = normal_functions()
    >>> float(ndtr(0.0)), float(ndtri(0.5))
    (0.5, 0.0)
    """
    from scipy.special import ndtr, ndtri

    return ndtr, ndtri


def optional_number(value: Any, name: str, low: float | None = None,
                    high: float | None = None, *, open_low: bool = False) -> float | None:
    """A finite number argument within ``[low, high]`` (``(low, high]`` with ``open_low``),
    or None when it is the quantity to solve.

    Parameters
    ----------
    value : number or None
    name : str
        The argument's name, for the message.
    low, high : float, optional
        The bounds.
    open_low : bool, default False
        Whether ``low`` itself is refused.

    Returns
    -------
    float or None

    Raises
    ------
    TypeError
        Not a number (a bool included).
    ValueError
        Not finite, or out of the bounds.

    Examples
    --------
    >>> optional_number(3, "n", 0.0, open_low=True), optional_number(None, "n")
    (3.0, None)
    >>> optional_number(0, "n", 0.0, open_low=True)
    Traceback (most recent call last):
    ...
    ValueError: n must be > 0.0, got 0
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise TypeError(f"{name} must be a number or None, got {value!r}")
    v = as_float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if (low is not None and (v < low or (open_low and v == low))) or \
            (high is not None and v > high):
        rng = f"{'(' if open_low else '['}{low}, {high}]" if high is not None else \
            f"{'>' if open_low else '>='} {low}"
        raise ValueError(f"{name} must be {rng}, got {value!r}")
    return v


def _alternative(alternative: Any) -> str:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be 'two-sided' or 'one-sided', got {alternative!r}")
    return str(alternative)


def var_theta_obuchowski(theta: float, kappa: float) -> float:
    r"""Obuchowski's (2004) approximate variance (per case) of an AUC ``theta`` with ``kappa``
    controls per case: :math:`0.0099\, e^{-A^2/2}((5A^2 + 8) + (A^2 + 8)/\kappa)`,
    :math:`A = 1.414\,\Phi^{-1}(\theta)`.

    Parameters
    ----------
    theta : float
    kappa : float

    Returns
    -------
    float

    Examples
    --------
    >>> round(var_theta_obuchowski(0.5, 1.0), 4)  # 0.0099 * 16
    0.1584
    """
    a = float(normal_functions()[1](theta)) * 1.414
    return 0.0099 * float(np.exp(-a * a / 2.0)) * ((5.0 * a * a + 8.0) + (a * a + 8.0) / kappa)


def _reachable(za: float, zb: float, v0: float, va: float) -> float:
    """``z_alpha sqrt(V0) + z_beta sqrt(VA)``, which must not be negative: the sample-size
    equation is ``sqrt(n) |delta| = z_alpha sqrt(V0) + z_beta sqrt(VA)``, and squaring it (as
    pROC does) would turn a power below that of a test on no sample into a spurious solution
    whose power is another one."""
    s = float(za * np.sqrt(v0) + zb * np.sqrt(va))
    if s < 0:
        low = float(normal_functions()[0](-za * np.sqrt(v0) / np.sqrt(va)))
        raise ValueError(
            f"power must exceed {low:.6g}, the power this test has as the sample size tends to "
            f"0 (with that significance level and those variances): no sample size or "
            f"difference gives a lower power")
    return s


def _solve(solved: str, nd: float | None, za: float | None, zb: float | None, v0: float,
           va: float, delta: float | None) -> float:
    if solved == "n":
        assert za is not None and zb is not None and delta is not None
        s = _reachable(za, zb, v0, va)
        with np.errstate(divide="ignore"):  # no difference to detect: infinitely many, as pROC
            return np.float64(s) ** 2 / np.float64(delta) ** 2
    assert nd is not None
    if solved == "power":
        assert za is not None and delta is not None
        return (np.sqrt(nd * delta**2) - za * np.sqrt(v0)) / np.sqrt(va)
    if solved == "sig_level":
        assert zb is not None and delta is not None
        return (np.sqrt(nd * delta**2) - zb * np.sqrt(va)) / np.sqrt(v0)
    assert za is not None and zb is not None  # delta
    return _reachable(za, zb, v0, va) / np.sqrt(nd)


def _what_to_solve(n_cases: float | None, power: float | None, sig: float | None,
                   other: float | None, other_name: str) -> str:
    missing = [k for k, v in (("n", n_cases), ("power", power), ("sig_level", sig),
                              (other_name, other)) if v is None]
    if len(missing) != 1:
        names = {"n": "n_cases / n_controls", "power": "power", "sig_level": "sig_level",
                 other_name: other_name}
        raise ValueError("exactly one of " + ", ".join(names.values()) + " must be None (the "
                         "quantity to solve); got None for "
                         + (", ".join(names[m] for m in missing) or "none of them"))
    return missing[0]


def _cases(n_cases: Any, n_controls: Any, kappa: Any) -> tuple[float | None, float | None,
                                                              float]:
    nc = optional_number(n_cases, "n_cases", 0.0, open_low=True)
    nn = optional_number(n_controls, "n_controls", 0.0, open_low=True)
    k = optional_number(kappa, "kappa", 0.0, open_low=True)
    if nc is not None and nn is not None:
        return nc, nn, nn / nc
    if k is None:
        raise ValueError("kappa (controls per case) must be given unless both n_cases and "
                         "n_controls are")
    if nc is not None:
        return nc, k * nc, k
    if nn is not None:
        return nn / k, nn, k
    return None, None, k


def power_roc_test(
    *,
    auc: float | None = None,
    n_cases: float | None = None,
    n_controls: float | None = None,
    kappa: float = 1.0,
    sig_level: float | None = 0.05,
    power: float | None = None,
    alternative: str = "two-sided",
) -> PowerResult:
    """Power or sample size of the test of one ROC area against 0.5 (pROC's
    ``power.roc.test(auc=, ncases=, ncontrols=, sig.level=, power=, kappa=)``).

    Exactly one of ``auc``, ``power``, ``sig_level`` and the sample size (``n_cases`` and
    ``n_controls``, or one of them with ``kappa``) must be None: that one is solved.

    Parameters
    ----------
    auc : float in (0, 1), optional
        The expected AUC. The test is two-sided in the distance from 0.5 and Obuchowski's
        variance is the same for ``auc`` and ``1 - auc``, so an AUC below 0.5 gives the
        power and sample size of its mirror ``1 - auc`` (as pROC). 0 and 1, where that
        variance is undefined (pROC returns NaN), are a ``ValueError``. A solved AUC lies in
        (0.5, 1).
    n_cases, n_controls : float, optional
        Positives and negatives.
    kappa : float, default=1.0
        Controls per case, used when only one of ``n_cases`` / ``n_controls`` is given or
        when the sample size is solved.
    sig_level : float in [0, 1] or None, default=0.05
    power : float in [0, 1], optional
    alternative : {'two-sided', 'one-sided'}, default='two-sided'

    Returns
    -------
    PowerResult

    Raises
    ------
    ValueError
        Not exactly one unknown; a value out of range (or not finite); a power too low to
        be solved for (below the power of the test as the sample size tends to 0); an AUC
        that cannot be solved (the power is out of reach even for AUC close to 1).
    TypeError
        A value that is not a number.

    Examples
    --------
    >>> r = power_roc_test(auc=0.8, n_cases=20, n_controls=30)
    >>> round(r.power, 9)  # pROC: 0.974453811624
    0.974453812
    >>> round(power_roc_test(n_cases=20, n_controls=30, power=0.9).auc[0], 4)  # pROC: 0.75637
    0.7564
    """
    alt = _alternative(alternative)
    theta = optional_number(auc, "auc")
    if theta is not None and not 0.0 < theta < 1.0:
        raise ValueError(f"auc must be in (0, 1) (Obuchowski's variance needs the normal "
                         f"quantile of the AUC), got {auc!r}")
    pw = optional_number(power, "power", 0.0, 1.0)
    sig = optional_number(sig_level, "sig_level", 0.0, 1.0)
    nc, nn, k = _cases(n_cases, n_controls, kappa)
    solved = _what_to_solve(nc, pw, sig, theta, "auc")
    ndtr, ndtri = normal_functions()
    half = sig / 2.0 if alt == "two-sided" and sig is not None else sig
    za = None if half is None else float(ndtri(1.0 - half))
    zb = None if pw is None else float(ndtri(pw))
    v0 = 0.0792 * (1.0 + 1.0 / k)
    if solved == "auc":
        assert nc is not None and za is not None and zb is not None

        def f(x: float) -> float:
            va = var_theta_obuchowski(x, k)
            return float((za * np.sqrt(v0) + zb * np.sqrt(va)) ** 2 / (x - 0.5) ** 2 - nc)

        from scipy.optimize import brentq

        lo, hi = 0.5 + 1e-9, 1.0 - 1e-16
        if not f(lo) * f(hi) < 0:
            raise ValueError("the AUC could not be solved: no AUC in (0.5, 1) reaches that "
                             "power with that sample size and significance level")
        theta = float(brentq(f, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps))
        _reachable(za, zb, v0, var_theta_obuchowski(theta, k))
    assert theta is not None
    va = var_theta_obuchowski(theta, k)
    out = _solve(solved if solved != "auc" else "power", nc, za, zb, v0, va, theta - 0.5)
    if solved == "n":
        nc, nn = out, k * out
    elif solved == "power":
        pw = float(ndtr(out))
    elif solved == "sig_level":
        half = 1.0 - float(ndtr(out))
        sig = 2.0 * half if alt == "two-sided" else half
    assert nc is not None and nn is not None and pw is not None and sig is not None
    return PowerResult(float(nc), float(nn), float(sig), float(pw), alt, (theta,), None, solved,
                       "one ROC curve against AUC = 0.5 (Obuchowski's variance)")


def _two_curves(v1: float, v2: float, c12: float, nc: float | None, nn: float | None, k: float,
                delta: float | None, sig: float | None, pw: float | None, alt: str,
                solved: str, aucs: tuple[float, ...], method: str, refs: tuple[str, ...],
                n_resamples: int | None = None) -> PowerResult:
    ndtr, ndtri = normal_functions()
    v0 = 2.0 * v1 - 2.0 * c12
    va = v1 + v2 - 2.0 * c12
    if not (v0 > 0 and va > 0):
        raise ValueError(f"the variance of the difference is not positive (under the null "
                         f"{v0:.6g}, under the alternative {va:.6g}): the correlations and "
                         "variances of the two areas are inconsistent (pROC returns NaN)")
    half = sig / 2.0 if alt == "two-sided" and sig is not None else sig
    za = None if half is None else float(ndtri(1.0 - half))
    zb = None if pw is None else float(ndtri(pw))
    out = float(_solve(solved, nc, za, zb, v0, va, delta))
    if solved == "n":
        nc, nn = out, k * out
    elif solved == "power":
        pw = float(ndtr(out))
    elif solved == "sig_level":
        half = 1.0 - float(ndtr(out))
        sig = 2.0 * half if alt == "two-sided" else half
    else:
        delta = out
    assert nc is not None and nn is not None and pw is not None and sig is not None
    return PowerResult(float(nc), float(nn), float(sig), float(pw), alt, aucs, delta, solved,
                       method, refs, n_resamples)


def power_roc_test_binormal(
    *,
    a1: float,
    b1: float,
    a2: float,
    b2: float,
    rn: float,
    ra: float,
    delta: float | None,
    fpr1: Any = None,
    fpr2: Any = None,
    n_cases: float | None = None,
    n_controls: float | None = None,
    kappa: float = 1.0,
    sig_level: float | None = 0.05,
    power: float | None = None,
    alternative: str = "two-sided",
) -> PowerResult:
    """Power or sample size of the comparison of two paired binormal ROC areas from their
    parameters (pROC's ``power.roc.test(list(A1=, B1=, A2=, B2=, rn=, ra=, delta=, FPR11=,
    ...))``, Obuchowski and McClish 1997).

    Exactly one of the sample size, ``power``, ``sig_level`` and ``delta`` must be None (pROC
    cannot solve ``delta``; here it is the closed form of the same equation).

    Parameters
    ----------
    a1, b1, a2, b2 : float
        Binormal parameters of the two curves.
    rn, ra : float in [-1, 1]
        Correlations of the two tests' scores among controls and among cases.
    delta : float or None
        The difference of the two areas to detect.
    fpr1, fpr2 : pair of float, optional
        False-positive-rate ranges of partial areas (both or neither).
    n_cases, n_controls, kappa, sig_level, power, alternative
        As in :func:`power_roc_test`.

    Returns
    -------
    PowerResult

    Raises
    ------
    ValueError
        Not exactly one unknown; a value out of range (or not finite); a power too low to
        be solved for (below the power of the test as the sample size tends to 0); one
        partial range without the other; parameters that give a variance of the difference
        that is not positive.
    TypeError
        A value that is not a number.

    Examples
    --------
    >>> r = power_roc_test_binormal(a1=1.5, b1=1, a2=1, b2=1, rn=0.3, ra=0.3, delta=0.1,
    ...                             power=0.8)
    >>> r.solved, round(r.n_cases, 6)  # pROC: 122.89785533
    ('n', 122.897855)
    """
    alt = _alternative(alternative)
    vals = {}
    for name, v in (("a1", a1), ("b1", b1), ("a2", a2), ("b2", b2)):
        x = optional_number(v, name)
        if x is None or not np.isfinite(x):
            raise ValueError(f"{name} must be a finite number, got {v!r}")
        vals[name] = x
    r_n = optional_number(rn, "rn", -1.0, 1.0)
    r_a = optional_number(ra, "ra", -1.0, 1.0)
    if r_n is None or r_a is None:
        raise ValueError("rn and ra (the correlations) must be given")
    d = optional_number(delta, "delta", -1.0, 1.0)
    if (fpr1 is None) != (fpr2 is None):
        raise ValueError("give both fpr1 and fpr2 (partial areas) or neither")
    from ..curves.partial import check_range

    f1 = None if fpr1 is None else check_range(fpr1, "fpr1")
    f2 = None if fpr2 is None else check_range(fpr2, "fpr2")
    pw = optional_number(power, "power", 0.0, 1.0)
    sig = optional_number(sig_level, "sig_level", 0.0, 1.0)
    nc, nn, k = _cases(n_cases, n_controls, kappa)
    solved = _what_to_solve(nc, pw, sig, d, "delta")
    v1 = binormal_var(vals["a1"], vals["b1"], k, f1)
    v2 = binormal_var(vals["a2"], vals["b2"], k, f2)
    c12 = binormal_cov(vals["a1"], vals["b1"], vals["a2"], vals["b2"], r_n, r_a, k, f1, f2)
    return _two_curves(v1, v2, c12, nc, nn, k, d, sig, pw, alt, solved, (), "two paired "
                       "binormal ROC curves (Obuchowski and McClish's variance)",
                       (REF_ROBIN, REF_OBUCHOWSKI_1997))


def power_roc_test_variances(
    *,
    var_a: float,
    var_b: float,
    cov_ab: float,
    delta: float | None,
    n_cases: float | None = None,
    n_controls: float | None = None,
    kappa: float = 1.0,
    sig_level: float | None = 0.05,
    power: float | None = None,
    alternative: str = "two-sided",
) -> PowerResult:
    r"""Power or sample size of the comparison of two paired ROC areas from their per-case
    variances and covariance (the last step of pROC's ``power.roc.test(roc1, roc2)``,
    Obuchowski and McClish 1997).

    With :math:`V_0 = 2V_a - 2C` and :math:`V_A = V_a + V_b - 2C`, the sample size is
    :math:`n = (z_\alpha \sqrt{V_0} + z_\beta \sqrt{V_A})^2 / \delta^2`; exactly one of the
    sample size, ``power``, ``sig_level`` and ``delta`` must be None: that one is solved.
    The variances may come from anywhere (DeLong's, Obuchowski's, a bootstrap, a pilot
    study); :func:`confmat.inference.power_data.power_roc_test_data` computes them from
    data.

    Parameters
    ----------
    var_a, var_b : float >= 0
        Per-case variances of the two areas: the variance of each estimated area times the
        number of cases (positives) it was estimated on.
    cov_ab : float
        Per-case covariance of the two areas, likewise.
    delta : float in [-1, 1] or None
        The difference of the two areas to detect.
    n_cases, n_controls, kappa, sig_level, power, alternative
        As in :func:`power_roc_test`.

    Returns
    -------
    PowerResult

    Raises
    ------
    ValueError
        Not exactly one unknown; a value out of range (or not finite); a power too low to
        be solved for (below the power of the test as the sample size tends to 0);
        variances that give a variance of the difference that is not positive (under the null ``2 var_a - 2 cov_ab``, under the
        alternative ``var_a + var_b - 2 cov_ab``).
    TypeError
        A value that is not a number.

    Examples
    --------
    >>> r = power_roc_test_variances(var_a=0.1, var_b=0.12, cov_ab=0.06, delta=0.05,
    ...                              power=0.8)
    >>> r.solved, round(r.n_cases, 6)  # (1.959964 sqrt(0.08) + 0.841621 sqrt(0.1))^2 / 0.05^2
    ('n', 269.291731)
    """
    alt = _alternative(alternative)
    v1 = optional_number(var_a, "var_a", 0.0)
    v2 = optional_number(var_b, "var_b", 0.0)
    c12 = optional_number(cov_ab, "cov_ab")
    for name, v in (("var_a", v1), ("var_b", v2), ("cov_ab", c12)):
        if v is None or not np.isfinite(v):
            raise ValueError(f"{name} must be a finite number, got {v!r}")
    assert v1 is not None and v2 is not None and c12 is not None
    d = optional_number(delta, "delta", -1.0, 1.0)
    pw = optional_number(power, "power", 0.0, 1.0)
    sig = optional_number(sig_level, "sig_level", 0.0, 1.0)
    nc, nn, k = _cases(n_cases, n_controls, kappa)
    solved = _what_to_solve(nc, pw, sig, d, "delta")
    return _two_curves(v1, v2, c12, nc, nn, k, d, sig, pw, alt, solved, (),
                       "two paired ROC curves (given variances)",
                       (REF_ROBIN, REF_OBUCHOWSKI_1997))
