"""Exact oracles of the registry metrics, written from the textbook formulas (never by calling
confmat): ``fractions.Fraction`` for the rational metrics, mpmath at 50 digits for the square
roots and products. Not a test file; ``tests/test_overflow.py`` (integer tables up to 1e15)
and ``tests/test_scale.py`` (weighted tables from 1e-300 to 1e300) import it.

Every oracle takes Python ints or ``Fraction`` cells (a float weight is a binary fraction, so
``Fraction(w)`` is exact) and raises :class:`Undefined` where the definition divides by zero.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import numpy as np

RTOL = Fraction(1, 10**9)
TINY = Fraction(np.finfo(np.float64).tiny)


class Undefined(Exception):
    """A zero denominator in the textbook definition."""


def q(a, b) -> Fraction:
    if b == 0:
        raise Undefined
    return Fraction(a) / Fraction(b)


def comb2(x) -> Fraction:
    """``x (x - 1) / 2``: pairs among ``x`` samples (also for weighted counts)."""
    return Fraction(x * (x - 1)) / 2


# per-class metrics: functions of the one-vs-rest counts (tp, fp, fn, tn)
def tpr(tp, fp, fn, tn):
    return q(tp, tp + fn)


def tnr(tp, fp, fn, tn):
    return q(tn, tn + fp)


def ppv(tp, fp, fn, tn):
    return q(tp, tp + fp)


def npv(tp, fp, fn, tn):
    return q(tn, tn + fn)


def fpr(tp, fp, fn, tn):
    return q(fp, fp + tn)


def fnr(tp, fp, fn, tn):
    return q(fn, tp + fn)


def total(tp, fp, fn, tn):
    return tp + fp + fn + tn


def lr_plus(*c):
    return q(tpr(*c), fpr(*c))


def lr_minus(*c):
    return q(fnr(*c), tnr(*c))


PER_CLASS: dict[str, Callable[..., Fraction | int]] = {
    "tp": lambda tp, fp, fn, tn: tp,
    "fn": lambda tp, fp, fn, tn: fn,
    "fp": lambda tp, fp, fn, tn: fp,
    "tn": lambda tp, fp, fn, tn: tn,
    "support": lambda tp, fp, fn, tn: tp + fn,
    "predicted": lambda tp, fp, fn, tn: tp + fp,
    "negatives": lambda tp, fp, fn, tn: fp + tn,
    "predicted_negatives": lambda tp, fp, fn, tn: tn + fn,
    "class_errors": lambda tp, fp, fn, tn: fp + fn,
    "automatic_manual": lambda tp, fp, fn, tn: (tp + fp) - (tp + fn),
    "recall": tpr,
    "class_accuracy": tpr,
    "specificity": tnr,
    "precision": ppv,
    "npv": npv,
    "fpr": fpr,
    "fnr": fnr,
    "fdr": lambda tp, fp, fn, tn: q(fp, tp + fp),
    "for": lambda tp, fp, fn, tn: q(fn, fn + tn),
    "f1": lambda tp, fp, fn, tn: q(2 * tp, 2 * tp + fp + fn),
    "fbeta": lambda tp, fp, fn, tn: q(2 * tp, 2 * tp + fn + fp),  # beta = 1
    "jaccard": lambda tp, fp, fn, tn: q(tp, tp + fp + fn),
    "informedness": lambda *c: tpr(*c) + tnr(*c) - 1,
    "markedness": lambda *c: ppv(*c) + npv(*c) - 1,
    "prevalence": lambda *c: q(c[0] + c[2], total(*c)),
    "lr_plus": lr_plus,
    "lr_minus": lr_minus,
    "dor": lambda *c: q(lr_plus(*c), lr_minus(*c)),
    "class_auc": lambda *c: (tpr(*c) + tnr(*c)) / 2,
    "optimized_precision": lambda *c: (
        q(c[0] + c[3], total(*c)) - q(abs(tnr(*c) - tpr(*c)), tnr(*c) + tpr(*c))
    ),
    "iba": lambda *c: (1 + (tpr(*c) - tnr(*c))) * tpr(*c) * tnr(*c),  # alpha 1, squared
    "yule_q": lambda tp, fp, fn, tn: q(tp * tn - fp * fn, tp * tn + fp * fn),
    "ovr_accuracy": lambda *c: q(c[0] + c[3], total(*c)),
    "ovr_error_rate": lambda *c: q(c[1] + c[2], total(*c)),
    "predicted_rate": lambda *c: q(c[0] + c[1], total(*c)),
    "lift": lambda *c: q(ppv(*c), q(c[0] + c[2], total(*c))),
    "icsi": lambda *c: ppv(*c) + tpr(*c) - 1,
    "class_aupr": lambda *c: (ppv(*c) + tpr(*c)) / 2,
    "random_accuracy": lambda *c: q((c[0] + c[1]) * (c[0] + c[2]), total(*c) ** 2),
    "random_accuracy_unbiased": lambda *c: q(2 * c[0] + c[1] + c[2], 2 * total(*c)) ** 2,
    "overlap_coefficient": lambda tp, fp, fn, tn: q(tp, min(tp + fp, tp + fn)),
    "braun_blanquet": lambda tp, fp, fn, tn: q(tp, max(tp + fp, tp + fn)),
    "bray_curtis": lambda *c: q(abs((c[0] + c[1]) - (c[0] + c[2])), 2 * total(*c)),
    "tversky_index": lambda tp, fp, fn, tn: q(tp, tp + Fraction(fn, 2) + Fraction(fp, 2)),
    "net_benefit": lambda *c: q(c[0] - c[1], total(*c)),  # w = 1
}


# overall metrics: functions of the table (a list of lists of Python ints)
def margins(t) -> SimpleNamespace:
    k = len(t)
    rows = [sum(r) for r in t]
    cols = [sum(t[i][j] for i in range(k)) for j in range(k)]
    diag = [t[i][i] for i in range(k)]
    return SimpleNamespace(k=k, rows=rows, cols=cols, diag=diag, n=sum(rows))


def acc(t):
    m = margins(t)
    return q(sum(m.diag), m.n)


def racc(t):
    m = margins(t)
    return q(sum(r * p for r, p in zip(m.rows, m.cols, strict=True)), m.n * m.n)


def raccu(t):
    m = margins(t)
    return sum(q(r + p, 2 * m.n) ** 2 for r, p in zip(m.rows, m.cols, strict=True))


def kappa(t, weights=None):
    if weights is None:
        return q(acc(t) - racc(t), 1 - racc(t))
    m = margins(t)
    w = [[abs(i - j) ** (1 if weights == "linear" else 2) for j in range(m.k)]
         for i in range(m.k)]
    observed = sum(w[i][j] * t[i][j] for i in range(m.k) for j in range(m.k))
    expected = sum(w[i][j] * q(m.rows[i] * m.cols[j], m.n)
                   for i in range(m.k) for j in range(m.k))
    return 1 - q(observed, expected)


def gwet(t):
    m = margins(t)
    pi = [q(r + p, 2 * m.n) for r, p in zip(m.rows, m.cols, strict=True)]
    pe = q(sum(x * (1 - x) for x in pi), m.k - 1)
    return q(acc(t) - pe, 1 - pe)


def krippendorff(t):
    n = margins(t).n
    pa = (1 - q(1, 2 * n)) * acc(t) + q(1, 2 * n)
    return q(pa - raccu(t), 1 - raccu(t))


def ari(t):
    m = margins(t)
    index = sum(comb2(x) for row in t for x in row)
    a = sum(comb2(r) for r in m.rows)
    b = sum(comb2(p) for p in m.cols)
    expected = q(a * b, comb2(m.n))
    return q(index - expected, Fraction(a + b, 2) - expected)


def chi2(t):
    m = margins(t)
    total = Fraction(0)
    for i in range(m.k):
        for j in range(m.k):
            e = q(m.rows[i] * m.cols[j], m.n)
            total += q((t[i][j] - e) ** 2, e)
    return total


def goodman_kruskal_lambda(t, transpose: bool):
    if transpose:
        t = [list(col) for col in zip(*t, strict=True)]
    m = margins(t)
    top = max(m.cols)
    return q(sum(max(row) for row in t) - top, m.n - top)


def balanced_accuracy(t):
    m = margins(t)
    per = [q(d, r) for d, r in zip(m.diag, m.rows, strict=True) if r > 0]
    return q(sum(per), len(per))


def weighted_accuracy(t):
    m = margins(t)
    return sum(q(r, m.n) * q(d, r) for d, r in zip(m.diag, m.rows, strict=True) if r > 0)


def cba(t):
    m = margins(t)
    return sum(q(d, max(r, p)) for d, r, p in zip(m.diag, m.rows, m.cols, strict=True)) / m.k


def jaccard_sum(t):
    return sum(PER_CLASS["jaccard"](*c) for c in ovr(t))


OVERALL: dict[str, Callable[[list[list[int]]], Fraction | int]] = {
    "n": lambda t: margins(t).n,
    "accuracy": acc,
    "weighted_accuracy": weighted_accuracy,
    "error_rate": lambda t: 1 - acc(t),
    "zero_one_loss": lambda t: 1 - acc(t),
    "hamming_loss": lambda t: 1 - acc(t),
    "balanced_accuracy": balanced_accuracy,
    "kappa": kappa,
    "overall_random_accuracy": racc,
    "overall_random_accuracy_unbiased": raccu,
    "scott_pi": lambda t: q(acc(t) - raccu(t), 1 - raccu(t)),
    "kappa_no_prevalence": lambda t: 2 * acc(t) - 1,
    "gwet_ac1": gwet,
    "bennett_s": lambda t: q(acc(t) - Fraction(1, len(t)), 1 - Fraction(1, len(t))),
    "krippendorff_alpha": krippendorff,
    "bangdiwala_b": lambda t: q(sum(d * d for d in margins(t).diag), racc(t) * margins(t).n ** 2),
    "ari": ari,
    "chi_squared": chi2,
    "chi_squared_dof": lambda t: (len(t) - 1) ** 2,
    "phi_squared": lambda t: q(chi2(t), margins(t).n),
    "lambda_b": lambda t: goodman_kruskal_lambda(t, False),
    "lambda_a": lambda t: goodman_kruskal_lambda(t, True),
    "cba": cba,
    "nir": lambda t: q(max(margins(t).rows), margins(t).n),
    "global_performance_index": lambda t: q(margins(t).n, len(t)),
    "jaccard_sum": jaccard_sum,
}


# square roots and products of many counts: mpmath at 50 digits
def msqrt(x) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.sqrt(mpmath.mpf(x.numerator) / x.denominator)


def mpf(x) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def mcc(t):
    m = margins(t)
    num = sum(m.diag) * m.n - sum(r * p for r, p in zip(m.rows, m.cols, strict=True))
    den = (m.n**2 - sum(p * p for p in m.cols)) * (m.n**2 - sum(r * r for r in m.rows))
    return mpmath.mpf(0) if den == 0 else mpf(num) / msqrt(den)


def yao(t):
    k = len(t)
    tt = math.prod(t[i][i] for i in range(k)) ** (k - 1)
    ff = math.prod(t[i][j] for i in range(k) for j in range(k) if i != j)
    a = math.prod(t[i][i] + t[i][j] for i in range(k) for j in range(k) if i != j)
    b = math.prod(t[j][j] + t[i][j] for j in range(k) for i in range(k) if i != j)
    if a * b == 0:
        return mpmath.mpf(0)
    return mpf(tt - ff) / msqrt(a * b)


def gmean(t):
    m = margins(t)
    prod = math.prod(q(d, r) for d, r in zip(m.diag, m.rows, strict=True))
    return mpf(prod) ** (mpmath.mpf(1) / m.k)


def class_mcc(tp, fp, fn, tn):
    den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return mpmath.mpf(0) if den == 0 else mpf(tp * tn - fp * fn) / msqrt(den)


IRRATIONAL_OVERALL = {
    "mcc": mcc,
    "mcc_yao2022": yao,
    "gmean": gmean,
    "cramer_v": lambda t: msqrt(q(chi2(t), margins(t).n * (len(t) - 1))),
    "pearson_c": lambda t: msqrt(q(chi2(t), margins(t).n + chi2(t))),
}
IRRATIONAL_PER_CLASS = {
    "class_mcc": class_mcc,
    "class_gmean": lambda *c: msqrt(tpr(*c) * tnr(*c)),
    "g_measure": lambda *c: msqrt(ppv(*c) * tpr(*c)),
}

#: metrics neither rational nor among the products fixed here, with the reason
NOT_CHECKED = {
    "kappa_se": "square root; built from accuracy and random accuracy (both checked)",
    "kappa_ci_lower": "kappa (checked) minus z standard errors",
    "kappa_ci_upper": "kappa (checked) plus z standard errors",
    "aickin_alpha": "fixed-point iteration",
    "dind": "square root of rates",
    "sind": "square root of rates",
    "dp": "logarithms",
    "agm": "square root of rates",
    "agf": "square root of F-scores",
    "sensitivity_index": "probits",
    "p_value": "incomplete beta function",
    "accuracy_se": "square root of accuracy (checked)",
    "accuracy_ci_lower": "accuracy (checked) minus z standard errors",
    "accuracy_ci_upper": "accuracy (checked) plus z standard errors",
    "reference_entropy": "logarithms",
    "response_entropy": "logarithms",
    "joint_entropy": "logarithms",
    "conditional_entropy": "logarithms",
    "mutual_information": "logarithms",
    "rci": "logarithms",
    "cross_entropy": "logarithms",
    "kl_divergence": "logarithms",
    "cen": "logarithms",
    "mcen": "logarithms",
    "overall_cen": "logarithms",
    "overall_mcen": "logarithms",
    "information_score": "logarithms",
}


def ovr(t):
    """One-vs-rest (TP, FP, FN, TN) of every class."""
    m = margins(t)
    return [(d, p - d, r - d, m.n - r - p + d)
            for d, r, p in zip(m.diag, m.rows, m.cols, strict=True)]


def value(fn, *args):
    try:
        return fn(*args)
    except Undefined:
        return None


# --------------------------------------------------------------------------- comparison
def agrees(ours, exact, scale=None) -> bool:
    """``ours`` within 1e-9 of ``exact`` relative to ``|exact|`` (or to ``scale`` for a mean of
    signed values), NaN exactly where the definition divides by zero."""
    ours = float(ours) if isinstance(ours, float | np.floating) else int(ours)
    if exact is None:
        return isinstance(ours, float) and math.isnan(ours)
    if isinstance(ours, float) and not math.isfinite(ours):
        return False
    if isinstance(exact, mpmath.mpf):
        exact = Fraction(mpmath.nstr(exact, 40, strip_zeros=False)) if exact else Fraction(0)
    exact = Fraction(exact)
    ref = abs(exact) if scale is None else Fraction(scale)
    # below float64's normal range a value keeps no relative precision (it may round to 0)
    return abs(Fraction(ours) - exact) <= RTOL * ref + TINY



def mpf_to_fraction(v):
    if isinstance(v, mpmath.mpf):
        return Fraction(mpmath.nstr(v, 40, strip_zeros=False)) if v else Fraction(0)
    return v

