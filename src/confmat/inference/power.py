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
numerically).

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
from ..curves.smooth import binormal_fit
from ..inputs.targets import binary_target, check_scores_1d
from .common import check_n_resamples, check_random_state
from .intervals import REF_EFRON
from .roc_boot import Curves, ScoreGroups
from .roc_delong import delong_covariance_sorted as delong_covariance
from .roc_obuchowski import binormal_cov, binormal_var
from .roc_test import resample_two_curves

__all__ = [
    "PowerResult",
    "power_roc_test",
    "power_roc_test_binormal",
    "power_roc_test_data",
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


def _norm() -> tuple[Any, Any]:
    from scipy.special import ndtr, ndtri

    return ndtr, ndtri


def _opt_number(value: Any, name: str, low: float | None = None, high: float | None = None,
                *, open_low: bool = False) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise TypeError(f"{name} must be a number or None, got {value!r}")
    v = float(value)
    if np.isnan(v) or (low is not None and (v < low or (open_low and v == low))) or \
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
    a = float(_norm()[1](theta)) * 1.414
    return 0.0099 * float(np.exp(-a * a / 2.0)) * ((5.0 * a * a + 8.0) + (a * a + 8.0) / kappa)


def _solve(solved: str, nd: float | None, za: float | None, zb: float | None, v0: float,
           va: float, delta: float | None) -> float:
    if solved == "n":
        assert za is not None and zb is not None and delta is not None
        with np.errstate(divide="ignore"):  # no difference to detect: infinitely many, as pROC
            return (za * np.sqrt(v0) + zb * np.sqrt(va)) ** 2 / delta**2
    assert nd is not None
    if solved == "power":
        assert za is not None and delta is not None
        return (np.sqrt(nd * delta**2) - za * np.sqrt(v0)) / np.sqrt(va)
    if solved == "sig_level":
        assert zb is not None and delta is not None
        return (np.sqrt(nd * delta**2) - zb * np.sqrt(va)) / np.sqrt(v0)
    assert za is not None and zb is not None  # delta
    return (za * np.sqrt(v0) + zb * np.sqrt(va)) / np.sqrt(nd)


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
    nc = _opt_number(n_cases, "n_cases", 0.0, open_low=True)
    nn = _opt_number(n_controls, "n_controls", 0.0, open_low=True)
    k = _opt_number(kappa, "kappa", 0.0, open_low=True)
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
    auc : float in (0.5, 1), optional
        The expected AUC.
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
        Not exactly one unknown; a value out of range; an AUC that cannot be solved (the
        power is out of reach even for AUC close to 1).
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
    theta = _opt_number(auc, "auc", 0.0, 1.0)
    pw = _opt_number(power, "power", 0.0, 1.0)
    sig = _opt_number(sig_level, "sig_level", 0.0, 1.0)
    nc, nn, k = _cases(n_cases, n_controls, kappa)
    solved = _what_to_solve(nc, pw, sig, theta, "auc")
    ndtr, ndtri = _norm()
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
    ndtr, ndtri = _norm()
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
        Not exactly one unknown; a value out of range; one partial range without the other;
        parameters that give a variance of the difference that is not positive.
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
        x = _opt_number(v, name)
        if x is None or not np.isfinite(x):
            raise ValueError(f"{name} must be a finite number, got {v!r}")
        vals[name] = x
    r_n = _opt_number(rn, "rn", -1.0, 1.0)
    r_a = _opt_number(ra, "ra", -1.0, 1.0)
    if r_n is None or r_a is None:
        raise ValueError("rn and ra (the correlations) must be given")
    d = _opt_number(delta, "delta", -1.0, 1.0)
    if (fpr1 is None) != (fpr2 is None):
        raise ValueError("give both fpr1 and fpr2 (partial areas) or neither")
    from ..curves.partial import check_range

    f1 = None if fpr1 is None else check_range(fpr1, "fpr1")
    f2 = None if fpr2 is None else check_range(fpr2, "fpr2")
    pw = _opt_number(power, "power", 0.0, 1.0)
    sig = _opt_number(sig_level, "sig_level", 0.0, 1.0)
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
    study); :func:`power_roc_test_data` computes them from data.

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
        Not exactly one unknown; a value out of range; variances that give a variance of the
        difference that is not positive (under the null ``2 var_a - 2 cov_ab``, under the
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
    v1 = _opt_number(var_a, "var_a", 0.0)
    v2 = _opt_number(var_b, "var_b", 0.0)
    c12 = _opt_number(cov_ab, "cov_ab")
    for name, v in (("var_a", v1), ("var_b", v2), ("cov_ab", c12)):
        if v is None or not np.isfinite(v):
            raise ValueError(f"{name} must be a finite number, got {v!r}")
    assert v1 is not None and v2 is not None and c12 is not None
    d = _opt_number(delta, "delta", -1.0, 1.0)
    pw = _opt_number(power, "power", 0.0, 1.0)
    sig = _opt_number(sig_level, "sig_level", 0.0, 1.0)
    nc, nn, k = _cases(n_cases, n_controls, kappa)
    solved = _what_to_solve(nc, pw, sig, d, "delta")
    return _two_curves(v1, v2, c12, nc, nn, k, d, sig, pw, alt, solved, (),
                       "two paired ROC curves (given variances)",
                       (REF_ROBIN, REF_OBUCHOWSKI_1997))


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
    alt = _alternative(alternative)
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
        if not isinstance(stratified, bool | np.bool_):
            raise TypeError(f"stratified must be True or False, got {stratified!r}")
        rng = check_random_state(random_state)
    bt = binary_target(y_true, score_a, pos_label, None, "score_a")
    m, n = int(bt.pos.sum()), int((~bt.pos).sum())
    if m == 0 or n == 0:
        raise ValueError("power_roc_test_data needs both classes in y_true")
    if score_b is None:
        auc1 = float(delong_covariance(bt.pos, bt.score[None, :])[0][0])
        if sig_level is not None and power is not None:
            return power_roc_test(auc=auc1, kappa=float(n / m) if kappa is None else kappa,
                                  sig_level=sig_level, power=power, alternative=alt)
        return power_roc_test(auc=auc1, n_cases=m, n_controls=n, sig_level=sig_level,
                              power=power, alternative=alt)
    sb = check_scores_1d(score_b, bt.pos.shape[0], "score_b")
    pw = _opt_number(power, "power", 0.0, 1.0)
    sig = _opt_number(sig_level, "sig_level", 0.0, 1.0)
    k = _opt_number(n / m if kappa is None else kappa, "kappa", 0.0, open_low=True)
    assert k is not None
    nc: float | None
    nn: float | None
    if pw is not None and sig is not None:
        solved, nc, nn = "n", None, None
    elif pw is None and sig is not None:
        solved, nc, nn = "power", float(m), float(n)
    elif sig is None and pw is not None:
        solved, nc, nn = "sig_level", float(m), float(n)
    else:
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
    return _two_curves(v1, v2, c12, nc, nn, k, float(auc[0] - auc[1]), sig, pw, alt, solved,
                       (float(auc[0]), float(auc[1])), desc, refs, used)



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
    from ..curves.partial import focus_area, se_sp_points

    auc = np.empty(2)
    ab = []
    rng = None
    if partial is not None:  # Obuchowski's FPR range
        rng = (1.0 - partial[1], 1.0 - partial[2])
    for i, s in enumerate(scores):
        _, se, sp = se_sp_points(pos, s, None)
        ab.append(binormal_fit(se, sp))
        if partial is None:
            auc[i] = float(delong_covariance(pos, s[None, :])[0][0])
        else:
            auc[i] = float(focus_area(se, sp, partial[1], partial[2], "specificity"))
    ra = float(np.corrcoef(scores[:, pos])[0, 1])
    rn = float(np.corrcoef(scores[:, ~pos])[0, 1])
    kk = int((~pos).sum()) / int(pos.sum())
    v1 = binormal_var(*ab[0], kk, rng)
    v2 = binormal_var(*ab[1], kk, rng)
    c12 = binormal_cov(*ab[0], *ab[1], rn, ra, kk, rng, rng)
    return auc, (v1, v2, c12)


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
