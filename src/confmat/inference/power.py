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
the variances are DeLong's (pROC's default) or Obuchowski's binormal ones (from the
least-squares binormal fits of :mod:`confmat.curves.smooth` and the correlations of the
scores within each class); from given binormal parameters they are Obuchowski's. Both forms
of Obuchowski's variances cover partial areas over a false-positive-rate range (from data: the
observed partial areas and the binormal fits, as pROC on curves made with ``partial.auc=``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..curves.partial import REF_ROBIN
from ..curves.smooth import binormal_fit
from ..inputs.targets import binary_target, check_scores_1d
from .roc_delong import delong_covariance_sorted as delong_covariance
from .roc_obuchowski import binormal_cov, binormal_var

__all__ = [
    "PowerResult",
    "power_roc_test",
    "power_roc_test_binormal",
    "power_roc_test_data",
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
                "references": list(self.references)}


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
                solved: str, aucs: tuple[float, ...], method: str, refs: tuple[str, ...]
                ) -> PowerResult:
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
                       method, refs)


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
    pos_label: Any = None,
    sample_weight: Any = None,
) -> PowerResult:
    """Power or sample size from observed ROC curves (pROC's ``power.roc.test(roc1, roc2)``).

    One curve: its AUC is the expected AUC of :func:`power_roc_test`. With ``sig_level`` and
    ``power`` both given the sample size is solved (``kappa`` defaults to the observed
    controls per case); otherwise the observed numbers of cases and controls are used and the
    missing one of ``power`` / ``sig_level`` is solved. Two curves (paired: the same samples
    scored by two models): the observed difference of the areas with DeLong's (``method=
    'delong'``) or Obuchowski's binormal (``'obuchowski'``) variances, per case.

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
    method : {'delong', 'obuchowski'}, default='delong'
        Variances of two curves.
    fpr : pair of float, optional
        The false-positive-rate range ``(low, high)`` of partial areas, i.e. the specificity
        range ``(1 - high, 1 - low)``. Only with two curves and ``method='obuchowski'``: pROC
        refuses DeLong's variance on partial areas, has Obuchowski's only on a specificity
        range, refuses McClish-corrected areas, and for one curve silently takes the full
        AUC; those cases are errors here.
    pos_label : label, optional
    sample_weight : None
        Not supported (the variances are those of unweighted samples); anything but None is
        an error.

    Returns
    -------
    PowerResult

    Raises
    ------
    ValueError
        ``sample_weight`` given; a class missing; neither ``sig_level`` nor ``power`` given;
        the conditions of :func:`power_roc_test`; an unknown method; invalid labels or scores;
        two curves whose difference has no positive variance (e.g. identical scores); ``fpr``
        not two distinct numbers in [0, 1], or given with one curve or with
        ``method='delong'``; a curve the binormal fit cannot smooth (``'obuchowski'``).

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
    """
    alt = _alternative(alternative)
    if sample_weight is not None:
        raise ValueError("sample_weight is not supported by power_roc_test_data: DeLong's and "
                         "Obuchowski's variances are those of unweighted samples; repeat "
                         "samples instead of weighting them")
    if method not in ("delong", "obuchowski"):
        raise ValueError(f"method must be 'delong' or 'obuchowski', got {method!r}")
    if fpr is not None:
        from ..curves.partial import check_range

        fpr = check_range(fpr, "fpr")
        if score_b is None:
            raise ValueError("fpr (a partial area) needs two curves (score_b): Obuchowski's "
                             "one-curve formula is for the full area, and pROC's "
                             "power.roc.test of one curve ignores a partial area")
        if method != "obuchowski":
            raise ValueError("fpr (a partial area) needs method='obuchowski': DeLong's "
                             "variance does not cover partial areas (pROC stops too)")
    bt = binary_target(y_true, score_a, pos_label, None, "score_a")
    m, n = int(bt.pos.sum()), int((~bt.pos).sum())
    if m == 0 or n == 0:
        raise ValueError("power_roc_test_data needs both classes in y_true")
    if score_b is None:
        auc1 = float(delong_covariance(bt.pos, bt.score[None, :])[0][0])
        if sig_level is not None and power is not None:
            return power_roc_test(auc=auc1, kappa=float(n / m) if kappa is None else kappa, sig_level=sig_level, power=power,
                                  alternative=alt)
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
    auc, cov = delong_covariance(bt.pos, scores)
    desc = f"two paired ROC curves ({method} variance)"
    if method == "delong":
        v1, v2, c12 = float(cov[0, 0]) * m, float(cov[1, 1]) * m, float(cov[0, 1]) * m
        refs: tuple[str, ...] = (REF_ROBIN, REF_OBUCHOWSKI_2004)
    else:
        from ..curves.partial import focus_area, se_sp_points

        ab = []
        rng = None
        if fpr is not None:  # pROC's specificity range and its FPR = 1 - specificity
            sp_lo, sp_hi = 1.0 - fpr[1], 1.0 - fpr[0]
            rng = (1.0 - sp_lo, 1.0 - sp_hi)
        for i, s in enumerate(scores):
            _, se, sp = se_sp_points(bt.pos, s, None)
            ab.append(binormal_fit(se, sp))
            if fpr is not None:
                auc[i] = float(focus_area(se, sp, sp_lo, sp_hi, "specificity"))
        ra = float(np.corrcoef(scores[:, bt.pos])[0, 1])
        rn = float(np.corrcoef(scores[:, ~bt.pos])[0, 1])
        kk = n / m
        v1 = binormal_var(*ab[0], kk, rng)
        v2 = binormal_var(*ab[1], kk, rng)
        c12 = binormal_cov(*ab[0], *ab[1], rn, ra, kk, rng, rng)
        refs = (REF_ROBIN, REF_OBUCHOWSKI_1997)
        if fpr is not None:
            desc = (f"two paired ROC curves, partial areas over FPR [{fpr[0]:g}, {fpr[1]:g}] "
                    "(obuchowski variance)")
    return _two_curves(v1, v2, c12, nc, nn, k, float(auc[0] - auc[1]), sig, pw, alt, solved,
                       (float(auc[0]), float(auc[1])), desc, refs)
