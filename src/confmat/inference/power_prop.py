r"""Power and sample size of the comparison of two proportions (two independent samples of
``n`` each), as R's ``power.prop.test`` (R Core Team), after the normal approximation of
Fleiss (1981): with :math:`d = |p_1 - p_2|`, :math:`\bar p = (p_1 + p_2) / 2`,
:math:`\sigma_0 = \sqrt{2 \bar p (1 - \bar p)}` under the null and
:math:`\sigma_1 = \sqrt{p_1 (1 - p_1) + p_2 (1 - p_2)}` under the alternative,

.. math:: \text{power} = \Phi\!\left(\frac{\sqrt{n}\, d - z\, \sigma_0}{\sigma_1}\right),
          \qquad z = \Phi^{-1}(1 - \alpha / t),

:math:`t = 2` for a two-sided test and 1 for a one-sided one. ``strict=True`` (two-sided
only) adds the probability of rejecting in the other tail,
:math:`\Phi(-(\sqrt{n}\, d + z\, \sigma_0) / \sigma_1)`.

Typical use in a diagnostic accuracy study: the sensitivities (or specificities) of two tests
measured on two independent groups of patients. (Two tests on the same patients are paired:
McNemar's test, :func:`confmat.inference.mcnemar`, is the comparison there.)

What differs from R, on purpose:

* The sample size and the level are solved in closed form (non-strict) or to machine
  precision (R's ``uniroot`` stops at about 1e-4 by default); ``p1`` and ``p2`` are solved to
  machine precision too. The level is solved through its critical value, so a level below
  1e-10 (outside R's search interval) is found and keeps its digits.
* Where R warns and returns a value outside [0, 1] (no ``p1`` in [0, p2], no ``p2`` in
  [p1, 1], no level reaches the power) or a negative-side root, confmat raises a
  ``ValueError`` saying what cannot be reached.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..inputs.options import check_choice, check_flag
from .power import ALTERNATIVES, normal_functions, optional_number

__all__ = ["PropPowerResult", "power_prop_test"]

REF_FLEISS_1981 = ("Fleiss, J. L. (1981), Statistical Methods for Rates and Proportions, 2nd "
                   "ed., Wiley, New York.")
REF_R = ("R Core Team, stats::power.prop.test, R: A Language and Environment for Statistical "
         "Computing, R Foundation for Statistical Computing, Vienna.")


@dataclass(frozen=True)
class PropPowerResult:
    """A power / sample-size calculation of two proportions (:func:`power_prop_test`).

    Parameters
    ----------
    n : float
        Samples in *each* group (a solved value is not rounded: take its ceiling).
    p1, p2 : float
        The two proportions.
    sig_level, power : float
    alternative : str
    strict : bool
        Whether the two-sided power counts the other tail.
    solved : str
        What was solved: ``'n'``, ``'p1'``, ``'p2'``, ``'sig_level'`` or ``'power'``.
    method : str
    references : tuple of str

    Examples
    --------
    >>> r = power_prop_test(p1=0.8, p2=0.9, power=0.8)
    >>> r.solved, math.ceil(r.n)  # patients per group; R: 198.9634
    ('n', 199)
    """

    n: float
    p1: float
    p2: float
    sig_level: float
    power: float
    alternative: str
    strict: bool
    solved: str
    method: str = "Two-sample comparison of proportions power calculation (normal approximation)"
    references: tuple[str, ...] = field(default=(REF_FLEISS_1981, REF_R))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict

        Examples
        --------
        >>> power_prop_test(p1=0.5, p2=0.75, power=0.9).to_dict()["solved"]
        'n'
        """
        return {"n": self.n, "p1": self.p1, "p2": self.p2, "sig_level": self.sig_level,
                "power": self.power, "alternative": self.alternative, "strict": self.strict,
                "solved": self.solved, "method": self.method,
                "references": list(self.references)}


def _spreads(p1: float, p2: float) -> tuple[float, float, float]:
    """The difference ``d`` and the standard deviations ``sigma0`` (null) and ``sigma1``
    (alternative) of the module docstring, per sample of each group."""
    return (abs(p1 - p2), math.sqrt((p1 + p2) * (1.0 - (p1 + p2) / 2.0)),
            math.sqrt(p1 * (1.0 - p1) + p2 * (1.0 - p2)))


def _power(n: float, p1: float, p2: float, sig: float, sides: int, strict: bool) -> float:
    """The power of the test (module docstring)."""
    ndtr, ndtri = normal_functions()
    z = -float(ndtri(sig / sides))  # the upper sig / sides quantile, exact in the far tail
    d, s0, s1 = _spreads(p1, p2)
    out = float(ndtr((math.sqrt(n) * d - z * s0) / s1))
    if strict and sides == 2:
        out += float(ndtr(-(math.sqrt(n) * d + z * s0) / s1))
    return out


def _root(f: Any, low: float, high: float, what: str, why: str) -> float:
    from scipy.optimize import brentq

    f_low, f_high = f(low), f(high)
    if f_low == 0.0:
        return low
    if f_high == 0.0:
        return high
    if (f_low > 0) == (f_high > 0):
        raise ValueError(f"no {what} reaches that power: {why}")
    return float(brentq(f, low, high, xtol=1e-15, rtol=4 * 2.0**-52, maxiter=500))


def _solve_level(n: float, p1: float, p2: float, power: float, sides: int,
                 strict: bool) -> float:
    """The level at which the test has ``power``, solved for the critical value ``z`` (in
    closed form, or numerically with ``strict``) and returned as ``sides * Phi(-z)``, so that a
    level far below 1e-10 keeps its digits."""
    ndtr, ndtri = normal_functions()
    d, s0, s1 = _spreads(p1, p2)
    if strict and sides == 2:
        def f(z: float) -> float:
            return float(ndtr((math.sqrt(n) * d - z * s0) / s1)
                         + ndtr(-(math.sqrt(n) * d + z * s0) / s1)) - power

        z = _root(f, 0.0, 40.0, "sig_level in (0, 1)", "the power is out of the test's reach "
                  "at any level")
    else:
        z = (math.sqrt(n) * d - float(ndtri(power)) * s1) / s0
    level = sides * float(ndtr(-z))
    if not 0.0 < level < 1.0:
        raise ValueError(f"no sig_level in (0, 1) reaches power={power!r}: the test needs "
                         f"a level of {level:.6g}")
    return level


def power_prop_test(*, n: float | None = None, p1: float | None = None,
                    p2: float | None = None, sig_level: float | None = 0.05,
                    power: float | None = None, alternative: str = "two-sided",
                    strict: bool = False) -> PropPowerResult:
    """Power or sample size of the comparison of two proportions on two independent samples
    of ``n`` each (R's ``power.prop.test``; Fleiss 1981). Exactly one of ``n``, ``p1``,
    ``p2``, ``sig_level`` and ``power`` must be None: that one is solved.

    Parameters
    ----------
    n : float, optional
        Samples in each group (> 0).
    p1, p2 : float in [0, 1], optional
        The proportions of the two groups (sensitivities, say). A solved ``p1`` lies in
        [0, p2) and a solved ``p2`` in (p1, 1], as in R.
    sig_level : float in (0, 1) or None, default 0.05
    power : float in (0, 1), optional
    alternative : {'two-sided', 'one-sided'}, default 'two-sided'
    strict : bool, default False
        Two-sided: also count rejections in the wrong tail (R's ``strict = TRUE``).

    Returns
    -------
    PropPowerResult

    Raises
    ------
    ValueError
        Not exactly one unknown; a value out of range or not finite; ``p1 == p2`` where a
        difference is needed, or both 0 or both 1 (no variance); a power that no value of
        the unknown reaches (for ``n``: a power at or below that of the test on no sample).
    TypeError
        A value that is not a number.

    Examples
    --------
    >>> r = power_prop_test(p1=0.5, p2=0.75, power=0.9)
    >>> round(r.n, 4)  # R: power.prop.test(p1 = .50, p2 = .75, power = .90)$n, 76.70693
    76.7069
    >>> round(power_prop_test(n=50, p1=0.5, p2=0.75).power, 6)  # R: 0.7401659
    0.740166
    """
    alt = check_choice(alternative, ALTERNATIVES, "alternative")
    strict = check_flag(strict, "strict")
    sides = 2 if alt == "two-sided" else 1
    nn = optional_number(n, "n", 0.0, open_low=True)
    a = optional_number(p1, "p1", 0.0, 1.0)
    b = optional_number(p2, "p2", 0.0, 1.0)
    sig = optional_number(sig_level, "sig_level", 0.0, 1.0)
    pw = optional_number(power, "power", 0.0, 1.0)
    given = {"n": nn, "p1": a, "p2": b, "sig_level": sig, "power": pw}
    missing = [k for k, v in given.items() if v is None]
    if len(missing) != 1:
        raise ValueError("exactly one of n, p1, p2, sig_level and power must be None (the "
                         "quantity to solve); got None for " + (", ".join(missing) or "none"))
    solved = missing[0]
    for name in ("sig_level", "power"):
        v = given[name]
        if v is not None and not 0.0 < v < 1.0:
            raise ValueError(f"{name} must be in (0, 1), got {v!r}")
    if a is not None and b is not None:
        if a == b and solved != "power":
            raise ValueError(f"p1 and p2 are both {a!r}: no sample size, level or power "
                             "detects a difference of 0")
        if a * (1 - a) + b * (1 - b) == 0.0:
            raise ValueError(f"p1={a!r} and p2={b!r} have no variance: the normal "
                             "approximation is undefined")

    known = {k: v for k, v in given.items() if v is not None}
    target = known.get("power", math.nan)

    def at(**kw: float) -> float:
        v = {**known, **kw}
        return _power(v["n"], v["p1"], v["p2"], v["sig_level"], sides, strict)

    out = dict(known)
    if solved == "power":
        out["power"] = at()
    elif solved == "n":
        floor = at(n=0.0)
        if target <= floor:
            raise ValueError(f"power must exceed {floor:.6g}, the power of this test on no "
                             "sample (with that level and those proportions)")
        if strict and sides == 2:
            high = 1.0
            while at(n=high) < target:
                high *= 2.0
            out["n"] = _root(lambda x: at(n=x) - target, 0.0, high, "n",
                             "the power does not grow with n there")
        else:
            ndtri = normal_functions()[1]
            d, s0, s1 = _spreads(known["p1"], known["p2"])
            z = -float(ndtri(known["sig_level"] / sides))
            out["n"] = ((z * s0 + float(ndtri(target)) * s1) / d) ** 2
    elif solved == "p1":
        if known["p2"] == 0.0:
            raise ValueError("p2 is 0: there is no p1 in [0, p2) to solve for")
        out["p1"] = _root(lambda x: at(p1=x) - target, 0.0, math.nextafter(known["p2"], 0.0),
                          "p1 in [0, p2)", "the power at p1 = 0 is too low or the power at "
                          "p1 = p2 too high")
    elif solved == "p2":
        if known["p1"] == 1.0:
            raise ValueError("p1 is 1: there is no p2 in (p1, 1] to solve for")
        out["p2"] = _root(lambda x: at(p2=x) - target, math.nextafter(known["p1"], 1.0), 1.0,
                          "p2 in (p1, 1]", "the power at p2 = 1 is too low or the power at "
                          "p2 = p1 too high")
    else:
        out["sig_level"] = _solve_level(known["n"], known["p1"], known["p2"], target, sides,
                                        strict)
    return PropPowerResult(float(out["n"]), float(out["p1"]), float(out["p2"]),
                           float(out["sig_level"]), float(out["power"]), alt, strict, solved)
